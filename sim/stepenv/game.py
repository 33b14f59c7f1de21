"""One game of the step API, played by the simulate kernels in a worker thread.

Control is inverted here: the worker plays the game with its engine's ``StepGame.play`` (the same
kernels and the same per-game seeding as ``simulate``), and every decision of an external seat
arrives, through the common objmode bridge (``kernels.common.external``), at this thread's
handler, which hands it to the environment and blocks until the environment answers. The
environment sees a sequence of events: decisions (``stepenv.actions.Decision``,
``stepenv.rum5000.Decision5``) until a ``Finished`` (the game row and the trace) or a ``Failed``.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from rummysim.checks import TRACE_ROWS
from rummysim.kernels.common.external import set_handler
from rummysim.kernels.common.layout import R_HAND_CAP, TRACE_COLS
from rummysim.kernels.common.results import G_SIZE, H_SIZE
from rummysim.stepenv.engines import StepGame


@dataclass(frozen=True)
class Finished:
    row: np.ndarray  # the game row G_* (kernels/common/results.py), as simulate writes it
    trace: np.ndarray  # the game's trace (docs/trace-format.md)
    overflowed: bool


@dataclass(frozen=True)
class Failed:
    error: BaseException


@dataclass(frozen=True)
class GameSetup:
    """What the kernels need to play one game (``RunConfig`` fields, the lineup with its external
    seats marked ``EXTERNAL + h``)."""

    rules: np.ndarray
    lineup: np.ndarray
    params: np.ndarray
    seed: int
    game: int


class _Abort(Exception):
    """Raised in the worker's handler to unwind an abandoned game out of the kernels."""


_ABORT = object()


class _Handoff:
    """One value passed from one thread to another at a time: a plain lock held while empty
    (a lock may be released by another thread; lighter than ``queue.Queue``'s conditions)."""

    def __init__(self) -> None:
        self._value: object = None
        self._empty = threading.Lock()
        self._empty.acquire()

    def put(self, value: object) -> None:
        self._value = value
        self._empty.release()

    def get(self) -> object:
        self._empty.acquire()
        return self._value


class GameThread:
    """A game played in a daemon thread, one external decision at a time."""

    def __init__(self, setup: GameSetup, engine: StepGame) -> None:
        self._setup = setup
        self._engine = engine
        self._events = _Handoff()
        self._answers = _Handoff()
        self._waiting = False
        self._thread = threading.Thread(target=self._run, name="rummysim-stepenv", daemon=True)
        self._thread.start()

    def next_event(self) -> object:
        """The game's next event: a decision, ``Finished`` or ``Failed``."""
        return self._events.get()

    def answer(self, pick: int) -> None:
        self._answers.put(pick)

    def abort(self) -> None:
        """Unwind a game that waits for an answer; the thread then ends."""
        if self._thread.is_alive() and self._waiting:
            self._answers.put(_ABORT)
            self._thread.join()

    def _handler(self, kind, obs, mine, pile, melds, options, n, hint, extra) -> int:
        self._waiting = True
        self._events.put(self._engine.decision_of(kind, obs, mine, pile, melds, options, n, hint, extra))
        pick = self._answers.get()
        self._waiting = False
        if pick is _ABORT:
            raise _Abort
        return pick

    def _run(self) -> None:
        s = self._setup
        set_handler(self._handler)
        trace = np.zeros((TRACE_ROWS, TRACE_COLS), dtype=np.int32)
        row = np.zeros(G_SIZE, dtype=np.int64)
        hands = np.zeros((s.rules[R_HAND_CAP], H_SIZE), dtype=np.int32)
        try:
            used, over = self._engine.play(s, row, hands, trace)
            self._events.put(Finished(row, trace[:used].copy(), bool(over)))
        except _Abort:
            pass
        except BaseException as exc:  # noqa: BLE001 - handed to the environment's thread, which raises it
            self._events.put(Failed(exc))
        finally:
            set_handler(None)
