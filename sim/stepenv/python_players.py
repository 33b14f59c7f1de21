"""Python strategies (issue 20): a user's class plays seats of ``simulate``, ``compare``,
``tournament`` and sweeps as ``py:PATH_OR_MODULE:CLASS[:key=value...]`` (docs/env.md).

Such a seat is an external seat of its game's engine (500 Rum, Standard Rummy, 5000 Rummy,
Rummikub; the step API's ``stepenv.engines``): the kernels that play every other game play this one, and each
of its decisions is asked, through ``numba.objmode``, of a method of the user's object with the
seat's view alone (C-INFO-1) and the legal moves. Games run one after another in the calling thread (the objects are Python), each with
fresh objects seeded from (run seed, game index, seat), so results do not depend on chunking.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from rummysim.errors import InputError, RummysimError
from rummysim.kernels.common.external import set_handler
from rummysim.kernels.common.layout import R_HAND_CAP, TRACE_COLS
from rummysim.kernels.common.results import H_SIZE
from rummysim.stepenv.actions import Decision
from rummysim.stepenv.engines import StepGame
from rummysim.stepenv.game import GameSetup
from rummysim.stepenv.observation import SeatView
from rummysim.strategies.registry import PYTHON_PREFIX

# The engines record a trace; one row that overflows at once keeps the recording nearly free
# (only the buffer's type matters, to share the step API's specialization).
NO_TRACE = (1, TRACE_COLS)
#: the Strategy methods, one per kind of decision of every engine (``StepGame.kind_names``)
DECISIONS = ("draw", "play", "discard", "call", "nominate", "split", "exchange", "place")


@dataclass(frozen=True)
class GameInfo:
    """What a Python strategy is told when a game starts."""

    game_index: int
    seat: int
    players: int
    rng: np.random.Generator  # seeded from (run seed, game index, seat): use it for any randomness


class Strategy:
    """The protocol of a Python strategy: one method per kind of decision, each given the seat's
    view (``SeatView``: observation, own cards, pile, table) and the legal moves (``Decision``:
    ``options``, ``names()``, ``hint``), returning the index of the move chosen.

    Subclass it and override the decisions you want: the others play ``moves.hint``, the pick of
    the built-in ``greedy``. ``nominate`` and ``split`` are the Dealer's gambit's (500 Rum),
    ``exchange`` the upcard exchange of 5000 Rummy (V5K-11), ``place`` Rummikub's one decision (a
    tile for the turn's play, the play, or a draw); in 5000 Rummy and Rummikub the view and the
    moves are ``stepenv.rum5000``'s and ``stepenv.rummikub``'s (docs/env.md). A fresh object is made for every game (``__init__`` receives the
    ``:key=value`` parameters of the lineup), then ``new_game`` is called.
    """

    rng: np.random.Generator

    def new_game(self, info: GameInfo) -> None:
        self.rng = info.rng

    def draw(self, view: SeatView, moves: Decision) -> int:
        return moves.hint

    def play(self, view: SeatView, moves: Decision) -> int:
        return moves.hint

    def discard(self, view: SeatView, moves: Decision) -> int:
        return moves.hint

    def call(self, view: SeatView, moves: Decision) -> int:
        return moves.hint

    def nominate(self, view: SeatView, moves: Decision) -> int:
        return moves.hint

    def split(self, view: SeatView, moves: Decision) -> int:
        return moves.hint

    def exchange(self, view: SeatView, moves: Decision) -> int:
        return moves.hint

    def place(self, view: SeatView, moves: Decision) -> int:
        return moves.hint


class IllegalMove(RummysimError):
    """A Python strategy returned something that is not the index of a legal move."""


@dataclass(frozen=True)
class PythonSpec:
    """A seat's ``py:`` strategy: where its class lives and the parameters it is made with."""

    text: str  # as the lineup gave it (the seat's strategy name in results)
    source: str  # a .py file (absolute path) or an importable module
    cls: str
    kwargs: tuple[tuple[str, object], ...]

    def make(self) -> Strategy:
        return load_class(self.source, self.cls)(**dict(self.kwargs))


def _value(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def parse_python_spec(text: str) -> PythonSpec:
    """``py:PATH_OR_MODULE:CLASS[:key=value...]``, checked: the class is imported and made once
    with its parameters, so a wrong path, class or parameter fails before any game."""
    parts = text.strip().split(":")
    if len(parts) < 3 or parts[0] != PYTHON_PREFIX.rstrip(":") or not parts[1] or not parts[2]:
        raise InputError(f"strategy {text!r}: write py:PATH_OR_MODULE:CLASS[:key=value...]")
    source = parts[1]
    if source.endswith(".py") or "/" in source:
        path = Path(source).expanduser()
        if not path.is_file():
            raise InputError(f"strategy {text!r}: no such file {source}")
        source = str(path.resolve())
    kwargs = []
    for setting in parts[3:]:
        key, eq, value = setting.partition("=")
        if not eq or not key.strip():
            raise InputError(f"strategy {text!r}: {setting!r} is not key=value")
        kwargs.append((key.strip(), _value(value.strip())))
    spec = PythonSpec(text.strip(), source, parts[2], tuple(kwargs))
    _check_makes(spec)
    return spec


def _check_makes(spec: PythonSpec) -> None:
    cls = load_class(spec.source, spec.cls)
    try:
        inspect.signature(cls).bind(**dict(spec.kwargs))
    except TypeError as exc:
        raise InputError(f"strategy {spec.text!r}: {cls.__name__} does not take these parameters ({exc})") from None
    missing = [name for name in DECISIONS if not callable(getattr(cls, name, None))]
    if missing:
        raise InputError(f"strategy {spec.text!r}: {cls.__name__} has no method {', '.join(missing)} "
                         "(subclass rummysim.Strategy to get the defaults)")


@lru_cache(maxsize=None)
def load_class(source: str, name: str) -> type:
    """The class ``name`` of a .py file (absolute path) or of an importable module."""
    try:
        if source.endswith(".py") or "/" in source:
            module_name = f"rummysim_user_{abs(hash(source))}"
            spec = importlib.util.spec_from_file_location(module_name, source)
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module  # dataclasses and pickling look modules up by name
            spec.loader.exec_module(module)
        else:
            module = importlib.import_module(source)
    except ImportError as exc:
        raise InputError(f"cannot import {source}: {exc}") from None
    cls = getattr(module, name, None)
    if not isinstance(cls, type):
        raise InputError(f"{source} has no class {name}")
    return cls


@dataclass
class _Seats:
    """The Python objects of one game and the handler that asks them."""

    specs: dict[int, PythonSpec]
    game: int
    players: dict[int, Strategy]
    engine: StepGame

    def ask(self, kind, obs, mine, pile, melds, options, n, hint, extra) -> int:
        moves = self.engine.decision_of(kind, obs, mine, pile, melds, options, n, hint, extra)
        seat = moves.view.seat
        decision = self.engine.kind_names[kind]
        pick = getattr(self.players[seat], decision)(moves.view, moves)
        if isinstance(pick, (bool, np.bool_)) or not isinstance(pick, (int, np.integer)) or not 0 <= pick < n:
            raise IllegalMove(f"strategy {self.specs[seat].text} (seat {seat}, game {self.game}) returned {pick!r} "
                              f"for a {decision} decision: give the index of a legal move, 0..{n - 1}")
        return int(pick)


def _new_players(specs: dict[int, PythonSpec], n_players: int, seed: int, game: int) -> dict[int, Strategy]:
    players = {}
    for seat, spec in specs.items():
        player = spec.make()
        player.new_game(GameInfo(game, seat, n_players, np.random.default_rng([seed, game, seat])))
        players[seat] = player
    return players


def play_python_games(engine: StepGame, setup: GameSetup, specs: dict[int, PythonSpec], out_games: np.ndarray,
                      out_hands: np.ndarray) -> None:
    """Games ``setup.game``.. into every row of out_games (and of out_hands if it has rows), the
    seats of ``specs`` asked of their Python objects (``setup.lineup`` marks them ``EXTERNAL + h``)."""
    rules, seed, start = setup.rules, setup.seed, setup.game
    trace = np.zeros(NO_TRACE, dtype=np.int32)
    scratch_hands = np.zeros((int(rules[R_HAND_CAP]), H_SIZE), dtype=np.int32)
    n_players = len(setup.lineup)
    for i in range(out_games.shape[0]):
        game = start + i
        seats = _Seats(specs, game, _new_players(specs, n_players, seed, game), engine)
        set_handler(seats.ask)
        try:
            hands = out_hands[i] if out_hands.shape[0] else scratch_hands
            engine.play(replace(setup, game=game), out_games[i], hands, trace)
        finally:
            set_handler(None)


def python_games_runner(specs: dict[int, PythonSpec], engine: StepGame) -> Callable:
    """A ``GameSpec.games_runner``-shaped runner for a lineup with Python seats."""
    def run(rules, lineup, params, seed, start, count, out_games, out_hands) -> None:
        play_python_games(engine, GameSetup(rules, lineup, params, seed, start), specs, out_games[:count],
                          out_hands[:count])
    return run


def python_seats(names: Sequence[str]) -> dict[int, PythonSpec]:
    """The lineup's ``py:`` seats, parsed and checked."""
    return {seat: parse_python_spec(name) for seat, name in enumerate(names) if name.startswith(PYTHON_PREFIX)}


__all__ = ["GameInfo", "IllegalMove", "PythonSpec", "Strategy", "parse_python_spec", "python_games_runner", "python_seats"]
