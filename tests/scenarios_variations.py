"""Flags helpers and scenario traces of the tests of the 500 Rum variations and Standard Rummy
(tests/test_validate_variations*.py, tests/test_validate_standard.py) that more than one of those
files plays, built with ``tests/tracebuild.py``.
"""

from __future__ import annotations

import numpy as np

from tests.tracebuild import CAP1, B, cname


def F(turns: int | None = None, **kw) -> dict:
    """Flags: one hand (hand cap 1), optionally a turn cap, plus ``kw``."""
    f = {**CAP1, **kw}
    if turns is not None:
        f["max_turns_per_hand"] = turns
    return f


def insert(a: np.ndarray, i: int, *rows: list[int]) -> np.ndarray:
    return np.insert(a, i, np.array(rows, np.int32), axis=0)


def delete(a: np.ndarray, *idx: int) -> np.ndarray:
    return np.delete(a, list(idx), axis=0)


def t06_game(mode: str = "pile", discard: str = "6H", after: int | None = None,
             caller_discards: bool = False) -> B:
    """RULES.md T-06: 4 players; P3 owns 3H 4H 5H; P0 discards `discard` with cards left; P2 calls
    (P1 does not).  Dealer 2, so P3 plays first.  `after`: the seat that plays after the call.
    (Which of several callers wins, V500-RUMMY-1's priority, is not visible in a trace.)"""
    caller = 2
    b = B(4, dealer=2, flags={"r500_call_rummy": mode})
    b.deal({3: "3H 4H 5H 9S TS 2C 3C", 0: f"{discard} 8S 7C 2D 3D 4D JC", caller: "QC QD KS"},
           stock="KC KH")
    b.draw(3).meld(3, "run", "3H 4H 5H").discard(3, "KC")
    b.draw(0).discard(0, discard)
    b.call(caller)
    if mode == "layoff_only":
        b.layoff(caller, 0, discard)
        if caller_discards:
            b.discard(caller, b.hands[caller][0])
    else:
        b.layoff(caller, 0, discard).discard(caller, b.hands[caller][0])
    nxt = b.next if after is None else after
    b.draw_discard(nxt)
    return b


def t07_game(claimant: int = 2, early: bool = False) -> B:
    """RULES.md T-07: 4 players, pile mode.  Dealer 2 (P3 first).  The pile is 5C TD KS when P1
    draws 6C, melds 6C 7C 8C and discards 2D.  `claimant` then claims 5C (pile index 0)."""
    b = B(4, dealer=2, flags={"r500_call_rummy": "pile"})
    b.deal({1: "7C 8C 2D 9H 9D 4S 3S", 3: "TD", 0: "KS"}, upcard="5C", stock="2H 3H 6C")
    b.draw(3).discard(3, "TD")
    b.draw(0).discard(0, "KS")
    if early:  # a claim of 5C in the window after P0's discard: not yet playable
        b.call(1, 0).discard(1, "2D")
        return b
    b.draw(1).meld(1, "run", "6C 7C 8C").discard(1, "2D")
    assert [cname(c) for c in b.pile] == ["5C", "TD", "KS", "2D"]
    b.call(claimant, 0).layoff(claimant, 0, "5C").discard(claimant, "TD")
    return b


def t11_game(last: str = "KD", unplayable: bool = False, kings: bool = False,
             tail: str = "") -> B:
    """RULES.md T-11: 3 players, dealer 2 (P0 first).  P0 gets down to 4S 5S, then draws 6S and
    melds 4S 5S 6S: P0 floats.  Next turn P0 draws `last` and discards it."""
    flags = {"r500_going_out": "floating", "r500_unplayable_discard": unplayable}
    b = B(3, dealer=2, flags=flags)
    p1 = "KC KH KS 2D 3D 4D 8C" if kings else "2D 3D 4D 8C 9D TD JD"
    b.deal({0: "4S 5S 7H 8H 9H TH 2C", 1: p1}, stock=f"JH QD _ 6S _ _ {last} {tail}")
    b.draw(0).meld(0, "run", "7H 8H 9H TH JH").discard(0, "2C")
    if kings:
        b.draw(1).meld(1, "set", "KC KH KS").discard(1, b.last)
    else:
        b.draw_discard(1)
    b.draw_discard(2)
    b.draw(0).meld(0, "run", "4S 5S 6S")
    assert b.hands[0] == []
    b.float_(0)
    b.draw_discard(1)
    b.draw_discard(2)
    b.draw(0).discard(0, last)
    return b


def oot_game(seats=(2,)) -> B:
    """3 players, dealer 2: P0 discards; `seats` meld out of turn; then P1 plays."""
    b = B(3, dealer=2, flags={"r500_meld_out_of_turn": True})
    b.deal({0: "5H 6H 7H 2C 3C 4D 9S", 2: "9C 9D 9H JS QS KS 2D", 1: "JC JD JH 8S"},
           stock="KC")
    b.draw(0).meld(0, "run", "5H 6H 7H").discard(0, "KC")
    for s in seats:
        b.oot(s)
        if s == 2:
            b.meld(2, "set", "9C 9D 9H")
        elif s == 1:
            b.meld(1, "set", "JC JD JH")
        else:
            b.meld(0, "set", "2C 3C 4D", key=2)
    b.draw_discard(1)
    return b


BOATHOUSE = {"r500_boathouse": True, "r500_going_out": "discard_required",
             "r500_discard_restriction": "any_taken", "r500_stock_draw_count": 2}


def t10_state() -> B:
    """RULES.md T-10 state: boathouse; P0 is down to 3C 3D; the top discard is 3H (P2's)."""
    b = B(3, dealer=2, flags=BOATHOUSE)
    b.deal({0: "3C 3D 7H 8H 9H TH 2C", 2: "3H"}, stock="JH QH")
    b.draw(0).meld(0, "run", "7H 8H 9H TH JH QH").discard(0, "2C")
    assert sorted(b.hand(0)) == ["3C", "3D"]
    b.draw_discard(1)
    b.draw(2).discard(2, "3H")
    return b


def run_out_stock(flags: dict, n: int = 3) -> B:
    b = B(n, dealer=n - 1, flags=flags)
    b.deal()
    while b.stock:
        b.draw_discard()
    return b


ADDOPP = {"r500_add_opponent_hand": True}


def t19_game() -> B:
    """RULES.md T-19: 2 players.  B (P1, first) melds down to 8H KC; A (P0) goes out with the run
    5H 6H 7H among its melds; B lays 8H off on A's run (no one scores it); KC is added to A."""
    b = B(2, dealer=0, flags=ADDOPP)
    b.deal({1: "8H KC 2D 3D 4D 5D 6D TD TH TS QD QH QC",
            0: "5H 6H 7H 2C 3C 4C 5C 9D 9S 9C JD JS JC"}, stock="2S QS")
    b.draw(1).meld(1, "run", "2D 3D 4D 5D 6D").meld(1, "set", "TD TH TS") \
        .meld(1, "set", "QD QH QC").discard(1, "2S")
    assert sorted(b.hand(1)) == ["8H", "KC"]
    b.draw(0).meld(0, "run", "5H 6H 7H").meld(0, "run", "2C 3C 4C 5C") \
        .meld(0, "set", "9D 9S 9C").meld(0, "set", "JD JS JC").discard(0, "QS")
    return b


def t16_game(bonus: int = 500, flags: dict | None = None) -> B:
    """RULES.md T-16: 3 players; after drawing KD, P0 holds 4C..TC KD, lays down the run and
    discards KD."""
    b = B(3, dealer=2, flags=flags)
    b.deal({0: "4C 5C 6C 7C 8C 9C TC"}, stock="KD")
    b.draw(0).meld(0, "run", "4C 5C 6C 7C 8C 9C TC").discard(0, "KD")
    b.end(1, out=0, bonus={0: bonus})
    target = 100 if (flags or {}).get("r500_score_divisor") == 5 else 500
    return b.game_end(0) if b.totals[0] >= target else b.game_end(-1, capped=1)
