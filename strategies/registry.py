"""Python-side registry of strategies: names, integer ids, parameters and documentation.

The numba side only sees the integer id and a float parameter row per seat; this module turns
user-facing names (``--lineup greedy,random``) into those arrays. A seat's strategy may set
parameters, ``NAME:key=value:key=value`` (``heuristic:team_play=0:min_gain=5``): that text, in a
canonical form (:func:`canonical_spec`), is the seat's strategy name in results and metadata.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import numpy as np

from rummysim.kernels.rum500.layout import N_PARAMS
from rummysim.kernels.rummikub.state import MAX_THRESHOLD
from rummysim.errors import InputError
from rummysim.strategies import ids


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    doc: str
    low: float = 0.0  # the range a value set by the user must lie in (inclusive)
    high: float = math.inf

    def check(self, strategy: str, value: float) -> float:
        if not (self.low <= value <= self.high):
            raise InputError(f"strategy {strategy}: {self.name}={value:g} is out of range "
                             f"[{self.low:g}, {self.high:g}]")
        return value


@dataclass(frozen=True)
class StrategyInfo:
    """A strategy: its name, numba id, documentation, parameters and the games it plays (``games``
    empty: every game)."""

    name: str
    id: int
    doc: str
    params: tuple[Param, ...] = ()
    games: tuple[str, ...] = ()
    game_defaults: dict[str, dict[str, float]] = field(default_factory=dict)
    """Per game, the parameters whose default differs there (``search``'s base in 5000 Rummy)."""

    def default_params(self, game: str | None = None) -> np.ndarray:
        """The default row; with ``game``, that game's own defaults where it has any."""
        row = np.zeros(N_PARAMS, dtype=np.float64)
        for i, p in enumerate(self.params):
            row[i] = p.default
        for key, value in self.game_defaults.get(game or "", {}).items():
            row[self.param_index(key)] = value
        return row

    def param_index(self, key: str) -> int:
        for i, p in enumerate(self.params):
            if p.name == key:
                return i
        known = ", ".join(p.name for p in self.params) or "none"
        raise InputError(f"strategy {self.name} has no parameter {key!r} (its parameters: {known})")


# The heuristic family's parameters, in the order of their indexes (strategies/ids.py H_*).
HEURISTIC_PARAMS: tuple[tuple[int, str, str], ...] = (
    (ids.H_DEADWOOD_WEIGHT, "deadwood_weight",
     "weight of the value of taken cards it may be left holding, in the take test"),
    (ids.H_MIN_GAIN, "min_gain", "a pile take or rummy call must gain more than this many points"),
    (ids.H_MAX_TAKE, "max_take", "most cards a pile take may bring in (0 = any depth)"),
    (ids.H_FUTURE, "future",
     "1: a taken card it cannot use now may meld later, with the chance of drawing one of its "
     "unseen outs in its share of the stock left; 0: it never does (greedy's test)"),
    (ids.H_LATER_WEIGHT, "later_weight", "weight of the points a taken card may meld later (with future=1)"),
    (ids.H_HOLD_MELDS, "hold_melds", "1: keep melds and lay-offs in hand until it can go out or the risk grows"),
    (ids.H_RISK_STOCK, "risk_stock", "with hold_melds: lay everything down once the stock holds this many cards or fewer"),
    (ids.H_RISK_OPP_CARDS, "risk_opp_cards",
     "with hold_melds: lay everything down once an opponent holds this many cards or fewer"),
    (ids.H_FEED_WEIGHT, "feed_weight",
     "discard penalty for a card that could be laid off on the table or would open a rummy call"),
    (ids.H_USEFUL_WEIGHT, "useful_weight", "discard penalty per partner card in hand (same rank, or within two in its suit)"),
    (ids.H_VALUE_WEIGHT, "value_weight", "discard preference per point of card value (high cards go first)"),
    (ids.H_HORIZON, "horizon",
     "with future=1: the seat expects at most this many more draws per card held by the opponent "
     "closest to going out (and at most its share of the stock)"),
    (ids.H_TEAM_PLAY, "team_play",
     "partnership play: 1 = the feed test uses the opponents' lay-off rights (under team_only a card "
     "only the team's own melds take feeds no one); 0 = the seat's own rights, as without teams"),
    (ids.H_NOMINATE, "nominate", "Dealer's gambit: the effect it names as dealer, 0 wild, 1 double, 2 split"),
    (ids.H_DOUBLE_MIN, "double_min", "Dealer's gambit (double): doubles a new meld worth at least this many points"),
    (ids.H_BLOCK, "block",
     "Dealer's gambit: 1 = blocks the dealer's joker when the dealer is an opponent not behind it; 0 = never"),
    (ids.H_HOLD_5000, "hold_5000",
     "5000 Rummy: 1 = hold_melds holds there too; 0 = it lays melds down at once (a card held when "
     "someone goes out scores its full value against the seat: aces 200, wild cards 100-400)"),
    (ids.H_WORTH_5000, "worth_5000",
     "5000 Rummy: 1 = takes, the stock draw (the mean over the unseen cards), rummy calls and upcard "
     "exchanges price each card left in hand by its 5000 value and its chance to meld in the draws "
     "left (later_weight, deadwood_weight, horizon) and by tempo_5000; 0 = greedy's fixed share of "
     "the value, the stock counted as 0"),
    (ids.H_TEMPO_5000, "tempo_5000",
     "5000 Rummy, with worth_5000: weight of the time a held card costs (each card past the last is "
     "one more turn to go out, risking the hand's value and the 200 bonus once in the draws left)"),
    (ids.H_DISCARD_5000, "discard_5000",
     "5000 Rummy, with worth_5000: 1 = discards the card whose loss leaves the cheapest hand by the same "
     "worth (a card the table or a rummy call would take costs feed_weight% of its value more, a wild "
     "card always); 0 = greedy's discard (least useful, wild cards last)"),
)

GREEDY_POINT = dict(deadwood_weight=1.0, min_gain=0.0, max_take=0.0, future=0.0, later_weight=0.0,
                    hold_melds=0.0, risk_stock=0.0, risk_opp_cards=0.0, feed_weight=0.0,
                    useful_weight=100.0, value_weight=1.0, horizon=0.5, team_play=1.0,
                    nominate=1.0, double_min=15.0, block=0.0, hold_5000=0.0, worth_5000=0.0, tempo_5000=0.0,
                    discard_5000=0.0)
"""The heuristic's point that plays exactly like greedy."""

# Holding thresholds and take calibration (min_gain, deadwood_weight) were chosen from a few
# 500-deal comparisons against greedy (2 players, 500 Rum); see docs/status.md for the figures.
# In 5000 Rummy the family prices leftover cards by their worth (worth_5000) and does not hold
# melds (hold_5000=0): see docs/strategies.md for the measurements.
CAUTIOUS_POINT = {**GREEDY_POINT, "hold_melds": 1.0, "risk_stock": 14.0, "risk_opp_cards": 4.0, "feed_weight": 50.0,
                  "worth_5000": 1.0, "tempo_5000": 0.125}
DIGGER_POINT = {**GREEDY_POINT, "future": 1.0, "later_weight": 1.0, "deadwood_weight": 0.75, "min_gain": 5.0,
                "worth_5000": 1.0, "tempo_5000": 0.125}
HEURISTIC_POINT = {**DIGGER_POINT, **{k: CAUTIOUS_POINT[k] for k in ("hold_melds", "risk_stock", "risk_opp_cards", "feed_weight")}}


def tuned_point(preset: str) -> dict[str, float]:
    """The heuristic's point of one of its presets (``strategies/presets.toml``)."""
    values = tomllib.loads(resources.files("rummysim.strategies").joinpath("presets.toml").read_text(encoding="utf-8"))
    return {**HEURISTIC_POINT, **{k: float(v) for k, v in values["heuristic"][preset].items() if k != "description"}}


SEARCH_BASE_POINT = tuned_point("500-rum-2p")
"""``search``'s base policy by default: the heuristic tuned for 500 Rum, 2 players."""

SEARCH_5000_POINT = tuned_point("5000-rummy-3p")
"""``search``'s base policy by default in 5000 Rummy: the heuristic tuned for 5000 Rummy, 3
players (the 500 point lost 6.4 points a hand to heuristic's defaults there)."""

SEARCH_5000_LATE_STOCK = 8.0
"""``search``'s ``late_stock`` in 5000 Rummy: fixed, its strength already grows with the budget there
(docs/strategies.md); in 500 Rum it follows the budget (-1)."""

SEARCH_PARAMS: tuple[tuple[int, str, float, str], ...] = (
    (ids.S_BUDGET, "budget", 16.0,
     "determinizations (play-outs per candidate) of a searched decision; 0 = play the base heuristic"),
    (ids.S_MAX_CANDIDATES, "max_candidates", 3.0, "discards searched late in the hand: the base's and the next best ranked (1 = none)"),
    (ids.S_CONFIDENCE, "confidence", 2.0,
     "standard errors by which a candidate's paired mean must beat the base's pick to overrule it"),
    (ids.S_MODEL, "model", 0.0, "play-outs: 0 the fast greedy model, 1 every seat plays the heuristic (about 10x slower)"),
    (ids.S_LATE_STOCK, "late_stock", -1.0,
     "discards are searched once the stock holds this many cards or fewer; -1: half the budget (8 at the "
     "default budget), so more budget also searches earlier discards (8 in 5000 Rummy)"),
    (ids.S_LATE_CARDS, "late_cards", 3.0, "discards are searched once some seat holds this many cards or fewer"),
    (ids.S_SEARCH_DRAWS, "search_draws", 1.0, "1: search every draw (the stock against the top discard); 0: draw as the base"),
    (ids.S_KNOWN_TAKES, "known_takes", 1.0,
     "1: its own discards taken by another seat (not on the pile nor the table) are dealt to the other "
     "hands in every determinization, never to the stock; 0: dealt anywhere like every unseen card"),
)

# Parameters whose range is not [0, inf): switches are 0 or 1, a minimum gain may be negative.
_RANGES = {"min_gain": (-math.inf, math.inf), "future": (0.0, 1.0), "hold_melds": (0.0, 1.0),
           "team_play": (0.0, 1.0), "search_discards": (0.0, 1.0), "samples": (1.0, 4096.0),
           "nominate": (0.0, 2.0), "block": (0.0, 1.0),
           "hold_5000": (0.0, 1.0), "worth_5000": (0.0, 1.0), "discard_5000": (0.0, 1.0),
           "max_candidates": (1.0, 64.0), "budget": (0.0, 4096.0), "model": (0.0, 1.0), "late_stock": (-1.0, math.inf),
           "search_draws": (0.0, 1.0), "known_takes": (0.0, 1.0)}


def _param(name: str, default: float, doc: str) -> Param:
    low, high = _RANGES.get(name, (0.0, math.inf))
    return Param(name, default, doc, low, high)


def heuristic_params(point: dict[str, float]) -> tuple[Param, ...]:
    """The heuristic family's parameters with the defaults of ``point``."""
    return tuple(_param(name, point[name], doc) for _, name, doc in sorted(HEURISTIC_PARAMS))


def search_params() -> tuple[Param, ...]:
    """``search``'s parameters: its base heuristic's, then its own (strategies/ids.py S_*)."""
    own = tuple(_param(name, default, doc) for _, name, default, doc in sorted(SEARCH_PARAMS))
    return heuristic_params(SEARCH_BASE_POINT) + own


def _describe(point: dict[str, float]) -> str:
    """The parameters where ``point`` differs from greedy's, as name=value."""
    return ", ".join(f"{k}={v:g}" for k, v in point.items() if v != GREEDY_POINT[k])


HEURISTIC_IN_5000 = (" In 5000 Rummy it plays greedy's 5000 moves with these parameters where they carry "
                     "over (min_gain, max_take, feed_weight, hold_melds with hold_5000), but with worth_5000=1 "
                     "it prices every card a take, the stock draw, a rummy call or an upcard exchange leaves in "
                     "hand by 5000's values (aces 200, wild cards 100-400), its chance to meld before the hand "
                     "ends (later_weight, deadwood_weight, horizon) and the time to shed it (tempo_5000), and with "
                     "discard_5000=1 it discards by that worth too; future, useful_weight and value_weight are "
                     "not used there. In Rummikub it plays as greedy.")

STRATEGIES: dict[str, StrategyInfo] = {
    s.name: s
    for s in (
        StrategyInfo(
            "random",
            ids.RANDOM,
            "A uniformly random legal choice at every decision point (draws, melds, lay-offs, "
            "joker designations, stopping, discards; under Dealer's gambit also the nomination, "
            "doubling, the split point, the dealer's joker and blocking). In Rummikub: draws a third of the time even when it "
            "could play, otherwise plays the arrangement the exact solver finds for random weights of its "
            "tiles (rearrangements, joker retrieval and partial plays included); with blunder > 0 it "
            "sometimes tries an invalid table (RKUB-TIME-1).",
            (Param("blunder", 0.0, "Rummikub: chance per turn of trying an invalid table (only with "
                   "rkub_invalid_turn=penalty_draw3; other games ignore it)"),),
        ),
        StrategyInfo(
            "greedy",
            ids.GREEDY,
            "Melds and lays off all it can (highest value first); takes from the pile when its "
            "greedy play-out gains points; discards the least useful card of highest value. In 5000 "
            "Rummy it also trades for wild cards and joins sequences when that puts points down, "
            "calls every rummy that gains points, and swaps for the upcard when that helps. Under "
            "Dealer's gambit it nominates by its nominate parameter, doubles melds worth double_min "
            "or more, splits a take when its take test gains by it, and with block=1 blocks the "
            "dealer's joker of an opponent not behind it (strategies/rum500/gambit.py). In "
            "Rummikub it places the most rack tiles every turn (the exact solver, rearranging the table).",
            (
                _param("deadwood_weight", 1.0, "weight of taken cards it cannot use, in the take test"),
                _param("min_gain", 0.0, "a pile take must gain more than this many points"),
                _param("team_feed", 50.0, "partnership play: discard penalty for a card the opponents "
                      "could lay off on the table (0 = team play off)"),
                _param("nominate", 1.0, "Dealer's gambit: the effect it names as dealer, 0 wild, 1 double, 2 split"),
                _param("double_min", 15.0, "Dealer's gambit (double): doubles a new meld worth at least this many points"),
                _param("block", 0.0, "Dealer's gambit: 1 = blocks the dealer's joker when the dealer is an "
                      "opponent not behind it; 0 = never"),
            ),
        ),
        StrategyInfo(
            "heuristic",
            ids.HEURISTIC,
            "Parametric strategy: how deep to take (net value of a take now and later, max_take), "
            "when to hold melds (hold_melds, risk_stock, risk_opp_cards) and how to rank discards "
            "(useful_weight, value_weight, feed_weight). At "
            + ", ".join(f"{k}={v:g}" for k, v in GREEDY_POINT.items())
            + " it plays exactly as greedy; cautious and digger are points of it too. Its defaults "
            "differ from greedy's point in " + _describe(HEURISTIC_POINT) + "." + HEURISTIC_IN_5000,
            heuristic_params(HEURISTIC_POINT),
        ),
        StrategyInfo(
            "cautious",
            ids.CAUTIOUS,
            "Keeps its melds and lay-offs in hand until it can go out this turn, the stock runs low "
            "(risk_stock) or an opponent is close to going out (risk_opp_cards); avoids discards "
            "that could be laid off on the table or would open a rummy call (feed_weight). Takes "
            "like greedy. The heuristic at " + _describe(CAUTIOUS_POINT) + "." + HEURISTIC_IN_5000,
            heuristic_params(CAUTIOUS_POINT),
        ),
        StrategyInfo(
            "digger",
            ids.DIGGER,
            "Judges every pile take by its net expected points after the turn's melds and discard: "
            "what it can meld now, plus for each card left in hand the chance of drawing one of its "
            "unseen outs in the draws it has left (points later) against the chance of being stuck "
            "holding it; takes when that beats the stock draw, valued the same way over the unseen "
            "cards, by more than min_gain. Plays and discards like greedy. The heuristic at " + _describe(DIGGER_POINT) + "."
            + HEURISTIC_IN_5000,
            heuristic_params(DIGGER_POINT),
        ),
        StrategyInfo(
            "rollout",
            ids.ROLLOUT,
            "Search: at each draw and discard it keeps the best few options by greedy's ranking, "
            "deals the cards it has not seen at random to the other hands and the stock (K "
            "determinizations), plays the hand out from each option with a fast greedy model "
            "(top-discard or stock draws, greedy melds and discards) and picks the option with the "
            "best mean score difference. Melds, lay-offs and rummy calls as greedy. In 5000 Rummy it plays "
            "by greedy's rules (no 5000 play-out model yet), and in Rummikub as greedy.",
            (
                _param("samples", 32.0, "K: determinizations (play-outs per option)"),
                _param("max_candidates", 4.0, "options searched per decision (the stock draw always among them)"),
                _param("search_discards", 1.0, "1: search discards too; 0: discard as greedy"),
            ),
        ),
        StrategyInfo(
            "search",
            ids.SEARCH,
            "Search over a base heuristic (its parameters first; by default the point of "
            "heuristic@500-rum-2p). At every draw between the stock and the top discard, and at discards "
            "late in the hand (late_stock, late_cards), it deals the cards it has not seen at random "
            "(budget determinizations; its own discards another seat took stay in the other hands), plays "
            "the hand out from the base's choice and from the next best ranked ones (max_candidates) with "
            "the fast greedy model (model=0) or every seat on the heuristic (model=1), and overrules the "
            "base only when the best candidate's paired mean gain beats it by confidence standard errors; "
            "with budget=0 it plays the base heuristic exactly. Deep takes, melds, lay-offs and rummy calls "
            "are the base's. In 5000 Rummy its base defaults to the point of heuristic@5000-rummy-3p "
            "(discard_5000=1) instead, and it searches the same decisions (the stock against the top "
            "discard, late discards) with a 5000 play-out model in which every seat plays greedy's 5000 "
            "moves (model and known_takes are not used there; Persian 5000 is not searched); in Rummikub "
            "as greedy.",
            search_params(),
            game_defaults={"5000-rummy": {**{k: v for k, v in SEARCH_5000_POINT.items() if v != SEARCH_BASE_POINT[k]},
                                          "late_stock": SEARCH_5000_LATE_STOCK}},
        ),
        StrategyInfo(
            "value",
            ids.VALUE,
            "Rummikub: places the rack tiles worth the most points each turn (numbers; a joker its rack "
            "penalty), through the exact solver; its initial meld too.",
            games=("rummikub",),
        ),
        StrategyInfo(
            "holder",
            ids.HOLDER,
            "Rummikub: holds tiles back. Keeps its jokers unless they let it empty its rack, makes no "
            "initial meld until time is short (wait_initial; with wait_initial=0, once it is worth "
            "initial_min), and plays only when it places at least min_tiles tiles; once an opponent is "
            "down to hurry_rack tiles or the pool to hurry_pool it plays everything it can.",
            (
                Param("keep_jokers", 1.0, "1: keep rack jokers unless they empty the rack (or time is short)"),
                Param("initial_min", 40.0, "with wait_initial=0: least value of its initial meld (30 = as soon as allowed)",
                      high=MAX_THRESHOLD),  # the solver's states hold the value laid up to this
                Param("min_tiles", 2.0, "least rack tiles a play must place"),
                Param("hurry_rack", 4.0, "play everything once an opponent holds this many tiles or fewer"),
                Param("hurry_pool", 10.0, "play everything once the pool holds this many tiles or fewer"),
                Param("wait_initial", 1.0, "1: no initial meld until time is short (hurry_rack, hurry_pool); "
                      "0: as soon as it is worth initial_min", high=1.0),
            ),
            games=("rummikub",),
        ),
    )
}


PYTHON_PREFIX = "py:"
PYTHON_GAMES = ("500-rum", "standard-rummy", "5000-rummy", "rummikub")  # the games the step API drives (rummysim.stepenv)
PYTHON = StrategyInfo(
    "py", ids.EXTERNAL + ids.GREEDY,
    "a user's Python class, py:PATH_OR_MODULE:CLASS[:key=value...] (docs/env.md); its moves are "
    "offered greedy's pick as a hint", games=PYTHON_GAMES)
"""A ``py:`` seat for the kernels: an external seat hinted by ``greedy`` (with greedy's row); the
class itself is loaded and checked by ``rummysim.stepenv.python_players``."""


def is_python(spec: str) -> bool:
    return spec.strip().startswith(PYTHON_PREFIX)


def strategy_info(name: str) -> StrategyInfo:
    """The registered strategy ``name``, or an InputError listing the known ones."""
    if name not in STRATEGIES:
        raise InputError(f"unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    return STRATEGIES[name]


@lru_cache(maxsize=1)
def strategy_presets() -> dict[str, dict[str, dict[str, object]]]:
    """Named parameter sets per strategy (``strategies/presets.toml``): strategy -> preset ->
    ``description`` and parameter values."""
    return tomllib.loads(resources.files("rummysim.strategies").joinpath("presets.toml").read_text(encoding="utf-8"))


def preset_values(strategy: str, preset: str) -> dict[str, float]:
    """The parameter values of ``strategy@preset``, or an InputError listing its presets."""
    presets = strategy_presets().get(strategy, {})
    if preset not in presets:
        known = ", ".join(f"{strategy}@{name}" for name in presets) or "none"
        raise InputError(f"strategy {strategy} has no preset {preset!r} (its presets: {known})")
    return {k: float(v) for k, v in presets[preset].items() if k != "description"}


def _base_row(name: str, game: str | None = None) -> tuple[StrategyInfo, np.ndarray]:
    """``NAME`` or ``NAME@PRESET``: the strategy and its row before any ``key=value`` (its defaults
    in ``game`` when given, then the preset's values)."""
    base, at, preset = name.partition("@")
    info = strategy_info(base)
    row = info.default_params(game)
    if at:
        for key, value in preset_values(base, preset).items():
            i = info.param_index(key)
            row[i] = info.params[i].check(base, value)
    return info, row


def parse_strategy(spec: str, game: str | None = None) -> tuple[StrategyInfo, np.ndarray]:
    """``NAME``, ``NAME@PRESET`` or either with ``:key=value:...``: the strategy and its parameter
    row (defaults, in ``game`` that game's own when given, the preset's values, then the values
    set), each key and value checked (its name, then its range).

    Example:
        >>> info, row = parse_strategy("greedy:min_gain=5")
        >>> info.name, row[1]
        ('greedy', 5.0)
    """
    if is_python(spec):
        return PYTHON, STRATEGIES["greedy"].default_params()
    name, settings = parse_settings(spec, "strategy")
    info, row = _base_row(name, game)
    for key, value in settings:
        i = info.param_index(key)
        row[i] = info.params[i].check(name, value)
    return info, row


def parse_settings(spec: str, what: str) -> tuple[str, list[tuple[str, float]]]:
    """``NAME:key=value:...`` split into the name and its (key, number) settings, in order; ``what``
    ("strategy", "betting policy") names the thing in the one-line errors."""
    name, *parts = [part.strip() for part in spec.strip().split(":")]
    settings = []
    for setting in parts:
        key, eq, text = setting.partition("=")
        key = key.strip()
        if not eq or not key:
            raise InputError(f"{what} {spec!r}: {setting!r} is not key=value "
                             f"(write {name}:key=value:key=value)")
        try:
            settings.append((key, float(text)))
        except ValueError:
            raise InputError(f"{what} {name}: {key}={text!r} is not a number") from None
    return name, settings


def canonical_spec(spec: str, game: str | None = None) -> str:
    """The strategy text as results name it: the name, then the parameters set away from their
    defaults (or from the preset's values) in the strategy's order (``heuristic:min_gain=5:team_play=0``,
    ``heuristic@500-rum-2p:max_take=3``); a ``py:`` strategy as
    written."""
    if is_python(spec):
        return spec.strip()
    name = parse_settings(spec, "strategy")[0]
    _, start = _base_row(name, game)
    info, row = parse_strategy(spec, game)
    changed = [f"{p.name}={row[i]:g}" for i, p in enumerate(info.params) if row[i] != start[i]]
    return ":".join([name, *changed])


def with_setting(spec: str, key: str, value: float) -> str:
    """The strategy ``spec`` with parameter ``key`` set to ``value`` (replacing any value it gave),
    canonical; InputError naming the key and its range when either is wrong.

    Example:
        >>> with_setting("heuristic:min_gain=5", "min_gain", 7)
        'heuristic:min_gain=7'
    """
    if is_python(spec):  # py:SOURCE:CLASS then its own settings, checked when the class is loaded
        head, settings = spec.strip().split(":")[:3], spec.strip().split(":")[3:]
        kept = [s for s in settings if s.partition("=")[0].strip() != key]
        return ":".join([*head, *kept, f"{key}={value:g}"])
    name, settings = parse_settings(spec, "strategy")
    kept = [f"{k}={v:g}" for k, v in settings if k != key]
    return canonical_spec(":".join([name, *kept, f"{key}={value:g}"]))


def parse_lineup(text: str, n_players: int, game: str | None = None) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Names per seat, int64 ids and float64 params for ``--lineup``.

    ``text`` is a comma-separated list with one strategy per seat, or a single one for every seat;
    each may set parameters (``heuristic:team_play=0``). The names returned are canonical
    (:func:`canonical_spec`). With ``game``, a strategy that does not play that game is refused.
    """
    specs = [part.strip() for part in text.split(",") if part.strip()]
    if not specs:
        raise InputError("--lineup is empty: give one strategy per seat, e.g. greedy,random")
    parsed = [parse_strategy(s, game) for s in specs]
    for info, _ in parsed:
        if game is not None and info.games and game not in info.games:
            raise InputError(f"strategy {info.name!r} plays only {', '.join(info.games)}, not {game}")
    if len(parsed) == 1:
        parsed = parsed * n_players
        specs = specs * n_players
    if len(parsed) != n_players:
        raise InputError(f"--lineup names {len(parsed)} strategies for {n_players} players")
    names = [canonical_spec(s, game) for s in specs]
    lineup = np.array([info.id for info, _ in parsed], dtype=np.int64)
    params = np.stack([row for _, row in parsed])
    return names, lineup, params
