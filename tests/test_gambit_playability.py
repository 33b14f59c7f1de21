"""Dealer's gambit in the tests of what a card "can" do, and the nomination's information.

The contract items the gambit validator raised (trace format, "Dealer's gambit"): sealed melds
and non-wild jokers in rummy-call eligibility and V500-UNPLAYABLE-1 (E64), a take whose selected
card is a joker under ``split`` (E56), the dealer's joker in V500-ADDOPP-2 lay-offs (E54); and
V500-GAMBIT-3's nomination: the same whatever the hands, and public to every seat (E50).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rummysim.kernels.rum500 import layout as L
from rummysim.kernels.rum500.gambit import start_gambit
from rummysim.kernels.rum500.table import layoff_target_exists
from rummysim.kernels.rum500.turn import draw_options
from rummysim.kernels.rum500.view import observe
from rummysim.kernels.rum500.windows import addopp_window, public_claims
from rummysim.strategies import ids
from rummysim.strategies.ids import CAUTIOUS, GREEDY, HEURISTIC, RANDOM
from rummysim.strategies.rum500.dispatch import ALL_STRATEGIES
from tests.cardtext import cid, name
from tests.test_gambit import GAMBIT, plays, state

SCRATCH = np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)


def with_set(effect: int, sealed: bool, rules=GAMBIT):
    """Seat 1 to play, 7C 7D 7H on the table (doubled and sealed, or not), 7S on the pile."""
    k = state({1: "2C 9D"}, pile="4S 7S", effect=effect, dealer=0, seat=1, rules=rules)
    m = k.add_meld(2, "set", "7C 7D 7H")
    k.melds[m, L.MK_DOUBLE] = 1 if sealed else 0
    return k


@pytest.mark.parametrize("sealed", [False, True])
def test_E64_a_sealed_meld_takes_no_card_in_the_playability_tests(sealed):
    """V500-UNPLAYABLE-1 and V500-RUMMY-5/6 ask whether the card can be laid off on a table meld,
    V500-RUMMY-2 whether it can be played with the pile cards: not on a doubled, sealed set."""
    k = with_set(L.EFFECT_DOUBLE, sealed)
    assert layoff_target_exists(cid("7S"), k.table(-1), SCRATCH) == (not sealed)
    public = np.zeros(L.MAX_PACK, dtype=np.int64)
    for call in ("top_only", "layoff_only", "pile"):
        c = with_set(L.EFFECT_DOUBLE, sealed, GAMBIT.with_(r500_call_rummy=call))
        g = c.game([GREEDY] * 3)
        n = public_claims(g, public, -1)
        assert public[:n].tolist() == ([] if sealed else [1]), call


@pytest.mark.parametrize("effect", [L.EFFECT_WILD, L.EFFECT_DOUBLE, L.EFFECT_SPLIT])
def test_E64_a_joker_fits_a_meld_only_when_wild(effect):
    """Under ``double`` and ``split`` a joker can be laid off on nothing (V500-UNPLAYABLE-1: a last
    joker discarded ends the hand) and a discarded joker can be claimed by no rummy call."""
    k = state({1: "2C 9D"}, pile="4S X", effect=effect, dealer=0, seat=1,
              rules=GAMBIT.with_(r500_call_rummy="top_only"))
    k.add_meld(2, "run", "5H 6H 7H")
    wild = effect == L.EFFECT_WILD
    assert layoff_target_exists(L.JOKER, k.table(-1), SCRATCH) == wild
    public = np.zeros(L.MAX_PACK, dtype=np.int64)
    assert public_claims(k.game([GREEDY] * 3), public, -1) == (1 if wild else 0)


@pytest.mark.parametrize("effect", [L.EFFECT_WILD, L.EFFECT_SPLIT])
def test_E56_a_joker_below_the_top_is_no_take_under_split(effect):
    """Taking from a joker below the top means playing it; under ``split`` it fits no meld, so
    neither the take nor a split of it is offered (under ``wild``: 8C 8S X is a set)."""
    k = state({2: "8C 8S X 2H"}, pile="3C X 9D KS", effect=effect, dealer=0, seat=2)
    opts = np.zeros(L.MAX_PACK + 2, dtype=np.int64)
    n = draw_options(k.st, k.hands, k.pile, k.table(2), 2, opts, SCRATCH, k.stack, k.budget)
    assert (1 in opts[1:n].tolist()) == (effect == L.EFFECT_WILD)


def test_E54_no_dealers_joker_in_addopp_layoffs():
    """V500-ADDOPP-2's lay-offs after seat 1 went out are no turn of the dealer's: the dealer's
    joker, which would extend seat 1's run on the dealer's own turn, stays beside the dealer."""
    k = state({0: "KC", 2: "2D"}, pile="4S", effect=L.EFFECT_WILD, dealer=0, seat=0,
              rules=GAMBIT.with_(r500_add_opponent_hand=True))
    k.add_meld(1, "run", "7H 8H 9H")
    assert [r for r in plays(k, 0) if r[L.A_TYPE] == L.ACT_LAYOFF and r[L.A_GAMBIT] == L.AG_DEALER_WILD]
    k.st[L.ST_SEAT] = 1
    k.set_hand(1, "")
    addopp_window(k.game([GREEDY] * 3), 1)
    assert k.records(L.T_ADDOPP_LAYOFF) == [] and k.st[L.ST_DJ] == L.DJ_READY


# ----------------------------------------------------------------------------- the nomination (E50)


def random_deal(seed: int) -> dict[int, str]:
    """Three 7-card hands from a shuffled pack with one joker (the dealer's joker is aside)."""
    pack = [16 * s + r for s in range(4) for r in range(1, 14)] + [L.JOKER]
    random.Random(seed).shuffle(pack)
    return {s: " ".join(name(c) for c in pack[7 * s:7 * s + 7]) for s in range(3)}


NOMINATE_SLOT = {GREEDY: ids.GREEDY_NOMINATE, HEURISTIC: ids.H_NOMINATE, CAUTIOUS: ids.H_NOMINATE}


@pytest.mark.parametrize("sid", [RANDOM, GREEDY, HEURISTIC, CAUTIOUS])
@pytest.mark.parametrize("nominate", [0, 1, 2])
def test_E50_nomination_holds_whatever_the_hands_and_every_seat_sees_it(sid, nominate):
    """V500-GAMBIT-3: the dealer names the effect before anyone looks at a hand, so eight deals
    that differ in every hand (the dealer's too) get one nomination from the same strategy,
    parameter and random state; after NOMINATE every seat's observation holds the effect, the
    dealer and the dealer's joker beside the dealer."""
    picks = set()
    for deal in range(8):
        k = state(random_deal(100 * nominate + deal), pile="9H", effect=L.EFFECT_NONE, dealer=1, seat=2)
        g = k.game([sid] * 3)._replace(family=ALL_STRATEGIES)  # every strategy compiled in
        if sid in NOMINATE_SLOT:
            g.params[1, NOMINATE_SLOT[sid]] = nominate
        start_gambit(g)
        effect = int(k.st[L.ST_EFFECT])
        picks.add(effect)
        assert k.records(L.T_NOMINATE) == [[L.T_NOMINATE, 1, effect, 0, 0, 0, 0, 0]]
        obs = np.zeros(L.OB_SIZE, dtype=np.int64)
        mine = np.zeros(2, dtype=np.uint64)
        for seat in range(3):
            observe(k.st, k.hands, k.rules, seat, obs, mine)
            assert (obs[L.OB_EFFECT], obs[L.OB_DEALER], obs[L.OB_DJ]) == (effect, 1, L.DJ_READY)
    assert len(picks) == 1
    if sid in NOMINATE_SLOT:
        assert picks == {L.EFFECT_WILD + nominate}
