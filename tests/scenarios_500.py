"""Scenario states of the 500 Rum checker's tests (tests/test_validate*.py) that more than one
test file plays: hand-made traces built with ``tests/tracebuild.py``.
"""

from __future__ import annotations

from tests.tracebuild import CAP1, B, cname, finish_capped


def t01_state(flags: dict | None = None) -> B:
    """RULES.md T-01 state: 3 players, P0 to draw (turn 5) with hand 2C 4H 5S 8D JC KH KS and the
    pile 6C 4D QS 4S AH 7D.  Dealer 0, so P1, P2, P0, P1, P2 have played one turn each."""
    b = B(3, dealer=0, flags=flags)
    b.deal({0: "2C 4H 5S 8D JC KH 4S", 1: "4D AH 9C 9D 9H 3S 3H", 2: "QS 7D 2D 2H 2S 3C 3D"},
           upcard="6C", stock="TH TS KS TC 5C")
    b.draw(1).discard(1, "4D")
    b.draw(2).discard(2, "QS")
    b.draw(0).discard(0, "4S")  # P0 draws KS
    b.draw(1).discard(1, "AH")
    b.draw(2).discard(2, "7D")
    assert sorted(b.hand(0)) == sorted("2C 4H 5S 8D JC KH KS".split())
    assert [cname(c) for c in b.pile] == "6C 4D QS 4S AH 7D".split()
    return b


def t01_flags(**extra) -> dict:
    return {"max_turns_per_hand": 6, **CAP1, **extra}


def one_turn(hand: str, play, n: int = 3, flags: dict | None = None, stock: str = "") -> B:
    """P0 (first player) draws, plays `play(b)`, and the hand ends on a 1-turn cap."""
    b = B(n, dealer=n - 1, flags=flags)
    b.deal({0: hand}, stock=stock)
    b.draw(0)
    play(b)
    return finish_capped(b)


F1 = {"max_turns_per_hand": 1, **CAP1}
