"""Integer-id dispatch from the engine's decision points to the strategies.

The engine calls these functions with the seat's ``View`` (``kernels.rum500.view``): its
observation, its own cards, the pile and the table, all it may know (C-INFO-1); no strategy
receives other hands or the stock order. The Dealer's gambit nomination gets the dealer's public
observation alone, with no hand at all (V500-GAMBIT-3). Dispatch by ``if`` over small functions keeps everything
cacheable (jitted functions passed as arguments would recompile in every process). ``heuristic``,
``cautious`` and ``digger`` share one implementation and differ only in their parameter rows.

``family`` is a compile-time switch, like the engine's ``stack``: None when every seat plays
``greedy`` or ``random`` (``basic_lineup``), which prunes the other strategies' branches before
typing, so such a run never compiles them (issue 8: they were about half of a cold compile), else
an empty array whose dtype names the strategy families compiled in (``FAMILIES``): the heuristic
family alone (``HEURISTIC_FAMILY``), ``rollout`` alone (``ROLLOUT_FAMILY``) or both
(``ALL_STRATEGIES``), so a heuristic lineup does not compile ``rollout`` nor a rollout lineup the
heuristic (issue 19). The draw, play and discard decisions (``builtin_draw``, ``_play``,
``_discard``) are overloads inlined into their ``choose_*``: each builds its body for the family's
type, with the families it compiles in as constants whose branches numba prunes before typing
(an inlined njit function is copied before its arguments have types, so its ``is not None`` tests
were never pruned and every lineup compiled every strategy: issue 19 point 4). The other decisions
are plain kernels given one argument per family (``heuristic_part``, ``rollout_part``: the family
array or None), whose ``is not None`` tests numba prunes by the argument's type. ``search`` compiles with ``rollout``
(both search by play-outs; ``rollout_part`` gates both): its plays and rummy calls are the
heuristic's, its draws and discards ``strategies.rum500.search``'s.

The engine calls ``choose_*``; a seat playing ``EXTERNAL + h`` is asked outside numba
(``strategies.rum500.external``, the step API) with built-in strategy h's pick as its hint, every
other seat gets the ``builtin_*`` pick directly.
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.extending import overload

from rummysim.kernels.common._jit import njit_noalloc
from rummysim.kernels.rum500.layout import EFFECT_WILD, N_EFFECTS, OB_EFFECT, OB_TEAMS
from rummysim.strategies.ids import (
    GREEDY_BLOCK, GREEDY_DEADWOOD_WEIGHT, GREEDY_DOUBLE_MIN, GREEDY_NOMINATE, GREEDY_TEAM_FEED, H_HOLD_MELDS, H_NOMINATE,
)
from rummysim.strategies.rum500.gambit import (
    DEFAULT_BLOCK, DEFAULT_DEADWOOD_WEIGHT, DEFAULT_DOUBLE_MIN, DEFAULT_NOMINATE, best_split, gambit_play,
    nominate_by_param,
)
from rummysim.strategies.rum500.external import (
    ENV_FAMILY, K_CALL, K_DISCARD, K_DRAW, K_SPLIT, ask_nomination, ask_options, ask_plays,
)
from rummysim.strategies.rum500.greedy import greedy_call, greedy_discard, greedy_draw, greedy_play, greedy_team_discard
from rummysim.strategies.rum500.heuristic import (
    discards_as_greedy, heuristic_call, heuristic_discard, heuristic_draw, heuristic_holds, heuristic_play,
    takes_as_greedy,
)
from rummysim.strategies.ids import CAUTIOUS, DIGGER, EXTERNAL, GREEDY, HEURISTIC, RANDOM, ROLLOUT, SEARCH
from rummysim.strategies.random_play import random_choice
from rummysim.strategies.rum500.rollout import rollout_call, rollout_discard, rollout_draw
from rummysim.strategies.rum500.search import search_discard, search_draw

BASIC = (RANDOM, GREEDY)  # the strategies every engine specialization compiles
HEURISTIC_IDS = (HEURISTIC, CAUTIOUS, DIGGER)  # one implementation, three parameter rows

# The ``family`` values: an empty array, its dtype the compile-time name of the families it compiles
HEURISTIC_FAMILY = np.zeros(0, dtype=np.int8)
ROLLOUT_FAMILY = np.zeros(0, dtype=np.int16)
ALL_STRATEGIES = np.zeros(0, dtype=np.int64)

# Per family dtype: does it compile (the heuristic family, rollout)? The step API's ENV_FAMILY
# (int32, strategies/rum500/external.py) compiles every strategy, its seats may take any hint.
FAMILIES: dict[np.dtype, tuple[bool, bool]] = {
    HEURISTIC_FAMILY.dtype: (True, False),
    ROLLOUT_FAMILY.dtype: (False, True),
    ALL_STRATEGIES.dtype: (True, True),
    ENV_FAMILY.dtype: (True, True),
}


def basic_lineup(lineup: np.ndarray) -> bool:
    """Does every seat play a strategy of ``BASIC``?"""
    return bool(np.isin(lineup, BASIC).all())


def family_switch(lineup: np.ndarray) -> np.ndarray | None:
    """The ``family`` argument for a lineup: None (basic strategies only), or the array compiling
    the heuristic family, ``rollout``, or both, as far as some seat plays them."""
    heuristic = bool(np.isin(lineup, HEURISTIC_IDS).any())
    rollout = bool(np.isin(lineup, (ROLLOUT, SEARCH)).any())
    if heuristic and rollout:
        return ALL_STRATEGIES
    if heuristic:
        return HEURISTIC_FAMILY
    if rollout:
        return ROLLOUT_FAMILY
    return None


def family_name(family: np.ndarray | None) -> str:
    """How ``rummysim warmup`` and the first-compile note name a ``family`` value."""
    if family is None:
        return "basic"
    return {HEURISTIC_FAMILY.dtype: "heuristic", ROLLOUT_FAMILY.dtype: "rollout"}.get(family.dtype, "all")


def _compiled_families(family) -> tuple[bool, bool]:
    """(heuristic family, rollout and search) compiled in for the numba type of a ``family`` value."""
    if isinstance(family, types.Array) and family.ndim == 1:
        return FAMILIES.get(np.dtype(str(family.dtype)), (False, False))
    return False, False


def heuristic_part(family):
    """``family`` when it compiles the heuristic family, else None (a compile-time switch)."""


def rollout_part(family):
    """``family`` when it compiles ``rollout`` and ``search``, else None (a compile-time switch)."""


@overload(heuristic_part)
def _heuristic_part(family):
    if _compiled_families(family)[0]:
        return lambda family: family
    return lambda family: None


@overload(rollout_part)
def _rollout_part(family):
    if _compiled_families(family)[1]:
        return lambda family: family
    return lambda family: None


@njit_noalloc
def is_heuristic(sid):
    return sid == HEURISTIC or sid == CAUTIOUS or sid == DIGGER


INLINE_NOALLOC = dict(_nrt=False, error_model="numpy", nogil=True)  # njit_noalloc's options


def builtin_draw(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (draw options: stock/decline, then pile indexes)."""


@overload(builtin_draw, inline="always", jit_options=INLINE_NOALLOC)
def _builtin_draw(family, sid, params, view, opts, nopt, rng, scratch):
    heur, roll = _compiled_families(family)

    def impl(family, sid, params, view, opts, nopt, rng, scratch):
        if sid == GREEDY or (heur and is_heuristic(sid) and takes_as_greedy(params)):
            return greedy_draw(params, view, opts, nopt, scratch)  # one call site, one call level
        if heur and is_heuristic(sid):
            return heuristic_draw(params, view, opts, nopt, scratch)
        if roll and sid == ROLLOUT:
            return rollout_draw(params, view, opts, nopt, rng, scratch)
        if roll and sid == SEARCH:
            return search_draw(params, view, opts, nopt, rng, scratch)
        return random_choice(rng, nopt)
    return impl


def builtin_play(family, sid, params, view, cand, ncand, rng, scratch):
    """Index into cand[:ncand] (play actions; row 0 is STOP when stopping is allowed)."""


@overload(builtin_play, inline="always", jit_options=INLINE_NOALLOC)
def _builtin_play(family, sid, params, view, cand, ncand, rng, scratch):
    heur, roll = _compiled_families(family)

    def impl(family, sid, params, view, cand, ncand, rng, scratch):
        if sid == GREEDY:
            if view.obs[OB_EFFECT] != 0:
                return gambit_play(cand, ncand, view.obs, params[GREEDY_DOUBLE_MIN], params[GREEDY_BLOCK])
            return greedy_play(cand, ncand)
        if roll and sid == ROLLOUT:
            if view.obs[OB_EFFECT] != 0:
                return gambit_play(cand, ncand, view.obs, DEFAULT_DOUBLE_MIN, DEFAULT_BLOCK)
            return greedy_play(cand, ncand)
        if heur and is_heuristic(sid):
            if view.obs[OB_EFFECT] == 0 and params[H_HOLD_MELDS] <= 0:
                return greedy_play(cand, ncand)  # heuristic_play's choice when it never holds
            return heuristic_play(params, view, cand, ncand, scratch)
        if roll and sid == SEARCH:
            return heuristic_play(params, view, cand, ncand, scratch)
        return random_choice(rng, ncand)
    return impl


def builtin_discard(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (card ids that may be discarded)."""


@overload(builtin_discard, inline="always", jit_options=INLINE_NOALLOC)
def _builtin_discard(family, sid, params, view, opts, nopt, rng, scratch):
    heur, roll = _compiled_families(family)

    def impl(family, sid, params, view, opts, nopt, rng, scratch):
        if sid == GREEDY:
            if view.obs[OB_TEAMS] != 0 and params[GREEDY_TEAM_FEED] > 0:
                return greedy_team_discard(params, view, opts, nopt, scratch)
            return greedy_discard(view.mine, view.table.vals, opts, nopt)
        if heur and is_heuristic(sid):
            if discards_as_greedy(params):
                return greedy_discard(view.mine, view.table.vals, opts, nopt)
            return heuristic_discard(params, view, opts, nopt, scratch)
        if roll and sid == ROLLOUT:
            return rollout_discard(params, view, opts, nopt, rng, scratch)
        if roll and sid == SEARCH:
            return search_discard(params, view, opts, nopt, rng, scratch)
        return random_choice(rng, nopt)
    return impl


@njit_noalloc
def builtin_call(heur, roll, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (rummy-call options: 0 = pass, then claimable pile indexes)."""
    if sid == GREEDY:
        return greedy_call(params, view, opts, nopt, scratch)
    if heur is not None and is_heuristic(sid):
        return heuristic_call(params, view, opts, nopt, scratch)
    if roll is not None and sid == ROLLOUT:
        return rollout_call(view, opts, nopt, scratch)
    if roll is not None and sid == SEARCH:
        return heuristic_call(params, view, opts, nopt, scratch)
    return random_choice(rng, nopt)


@njit_noalloc
def builtin_nomination(heur, roll, sid, params, obs, rng):
    """The effect (EFFECT_*) the dealer names (V500-GAMBIT-3), before anyone looks at a hand:
    ``obs`` is the dealer's public observation (``kernels.rum500.view.observe_public``)."""
    if sid == GREEDY:
        return nominate_by_param(params[GREEDY_NOMINATE])
    if (heur is not None and is_heuristic(sid)) or (roll is not None and sid == SEARCH):
        return nominate_by_param(params[H_NOMINATE])
    if roll is not None and sid == ROLLOUT:
        return nominate_by_param(DEFAULT_NOMINATE)
    return EFFECT_WILD + random_choice(rng, N_EFFECTS)


@njit_noalloc
def builtin_split(heur, roll, sid, params, view, k, opts, nopt, rng, scratch):
    """Index into opts[:nopt] for a take from pile index k under ``split`` (V500-GAMBIT-6):
    0 = no split, then the split points s the seat may choose."""
    if sid == GREEDY or (heur is not None and is_heuristic(sid)) or (roll is not None and sid == SEARCH):
        return best_split(params[GREEDY_DEADWOOD_WEIGHT], view, k, opts, nopt, scratch)  # H_ index 0 too
    if roll is not None and sid == ROLLOUT:
        return best_split(DEFAULT_DEADWOOD_WEIGHT, view, k, opts, nopt, scratch)
    return random_choice(rng, nopt)


@njit_noalloc
def builtin_id(sid):
    """The built-in strategy deciding for ``sid``: itself, or h for a seat asked outside numba
    (``EXTERNAL + h``), whose pick is then the hint. Each ``choose_*`` calls its ``builtin_*`` at
    one place, small enough for LLVM to inline it (issue 19 point 3: two call sites kept the
    heuristic family's decisions behind one more call, passing the whole ``View``)."""
    return sid - EXTERNAL if sid >= EXTERNAL else sid


@njit_noalloc
def choose_draw(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (draw options: stock/decline, then pile indexes)."""
    pick = builtin_draw(family, builtin_id(sid), params, view, opts, nopt, rng, scratch)
    if sid >= EXTERNAL:
        return ask_options(family, K_DRAW, view, opts, nopt, pick, 0)
    return pick


@njit_noalloc
def choose_play(family, sid, params, view, cand, ncand, rng, scratch):
    """Index into cand[:ncand] (play actions; row 0 is STOP when stopping is allowed)."""
    pick = builtin_play(family, builtin_id(sid), params, view, cand, ncand, rng, scratch)
    if sid >= EXTERNAL:
        return ask_plays(family, view, cand, ncand, pick)
    return pick


@njit_noalloc
def may_hold(family, sid, params):
    """The seat's strategy may stop with plays in hand (the heuristic family with ``hold_melds``);
    the engine builds a ``View`` for ``choose_hold`` only then. A seat asked outside numba never
    holds this way: it is offered every play."""
    heur = heuristic_part(family)
    if heur is not None and is_heuristic(sid):
        return params[H_HOLD_MELDS] > 0
    return False


@njit_noalloc
def choose_hold(family, sid, params, view, scratch):
    """With STOP offered, the seat's ``choose_play`` would pick it whatever plays were listed
    beside it (asked only where ``may_hold``): the engine then lists none (issue 19 point 3)."""
    return builtin_hold(heuristic_part(family), sid, params, view, scratch)


@njit_noalloc
def builtin_hold(heur, sid, params, view, scratch):
    """``choose_hold``'s answer for a built-in strategy (heur, the family argument, pruned as in
    every ``builtin_*``)."""
    if heur is not None and is_heuristic(sid):
        return heuristic_holds(params, view, scratch)
    return False


@njit_noalloc
def plays_highest(family, sid):
    """The seat's ``choose_play`` picks the first play of the highest value offered (STOP when it
    is offered nothing else): greedy and ``rollout``, and the heuristic family once it does not
    hold (``choose_hold`` is asked first), outside Dealer's gambit. The engine then looks for that
    play alone (issue 19 point 3). A seat asked outside numba is offered every play."""
    heur, roll = heuristic_part(family), rollout_part(family)
    if sid == GREEDY:
        return True
    if heur is not None and is_heuristic(sid):
        return True
    if roll is not None and sid == ROLLOUT:
        return True
    return False


@njit_noalloc
def choose_discard(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (card ids that may be discarded)."""
    pick = builtin_discard(family, builtin_id(sid), params, view, opts, nopt, rng, scratch)
    if sid >= EXTERNAL:
        return ask_options(family, K_DISCARD, view, opts, nopt, pick, 0)
    return pick


@njit_noalloc
def choose_call(family, sid, params, view, opts, nopt, rng, scratch):
    """Index into opts[:nopt] (rummy-call options: 0 = pass, then claimable pile indexes)."""
    heur, roll = heuristic_part(family), rollout_part(family)
    pick = builtin_call(heur, roll, builtin_id(sid), params, view, opts, nopt, rng, scratch)
    if sid >= EXTERNAL:
        return ask_options(family, K_CALL, view, opts, nopt, pick, 0)
    return pick


@njit_noalloc
def choose_nomination(family, sid, params, obs, rng):
    """The effect (EFFECT_*) the dealer names (V500-GAMBIT-3) from its public observation alone."""
    heur, roll = heuristic_part(family), rollout_part(family)
    pick = builtin_nomination(heur, roll, builtin_id(sid), params, obs, rng)
    if sid >= EXTERNAL:
        return EFFECT_WILD + ask_nomination(family, obs, pick - EFFECT_WILD)
    return pick


@njit_noalloc
def choose_split(family, sid, params, view, k, opts, nopt, rng, scratch):
    """Index into opts[:nopt] for a take from pile index k under ``split`` (V500-GAMBIT-6)."""
    heur, roll = heuristic_part(family), rollout_part(family)
    pick = builtin_split(heur, roll, builtin_id(sid), params, view, k, opts, nopt, rng, scratch)
    if sid >= EXTERNAL:
        return ask_options(family, K_SPLIT, view, opts, nopt, pick, k)
    return pick
