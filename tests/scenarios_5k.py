"""Checking helpers and scenario traces of the 5000 Rummy checker's tests
(tests/test_validate_5k*.py), built with ``tests/tracebuild_5k.B5``.
"""

from __future__ import annotations

import numpy as np

from rummysim.validate import ValidationResult, validate_trace
from tests.tracebuild_5k import B5, GAME


def F(turns: int | None = None, hands: int = 1, **kw) -> dict:
    """5000 Rummy flags: a hand cap (default one hand), optionally a turn cap, plus ``kw``."""
    f = {**GAME, "max_hands_per_game": hands, **kw}
    if turns is not None:
        f["max_turns_per_hand"] = turns
    return f


def check(trace, flags: dict) -> ValidationResult:
    arr = trace.array() if isinstance(trace, B5) else trace
    return validate_trace(arr, flags)


def ok(trace, flags: dict) -> ValidationResult:
    res = check(trace, flags)
    assert res.violations == [], "\n".join(map(str, res.violations))
    assert res.games == 1
    return res


def bad(trace, rule: str, flags: dict, first: bool = True) -> ValidationResult:
    res = check(trace, flags)
    ids = [v.rule_id for v in res.violations]
    assert ids, f"expected {rule}, got no violation"
    if first:
        assert ids[0] == rule, f"expected {rule} first, got {res.violations}"
    else:
        assert rule in ids, f"expected {rule}, got {res.violations}"
    return res


def close(b: B5, reason: int, out: int = -1, **kw) -> B5:
    """End the hand and the game: a winner or tie at the target, else the hand cap (1 hand)."""
    b.end(reason, out, **kw)
    top = max(b.totals)
    if top < b.target:
        return b.game_end(-1, capped=1)
    leaders = [s for s in range(b.n) if b.totals[s] == top]
    if len(leaders) == 1:
        return b.game_end(leaders[0])
    return b.game_end(-1, mask=sum(1 << s for s in leaders))


def capped(b: B5) -> B5:
    """End on the turn cap (reason 4) and the game on the hand cap."""
    return close(b, 4)


def rows_of(b: B5, kind: int, **cols) -> list[int]:
    """Indexes of the rows of ``kind`` whose columns match (c1=..., c2=...)."""
    return [i for i, r in enumerate(b.rows) if r[0] == kind
            and all(r[int(k[1:])] == v for k, v in cols.items())]


def mutate(b: B5 | np.ndarray, i: int, col: int, val: int) -> np.ndarray:
    a = (b.array() if isinstance(b, B5) else b).copy()
    a[i, col] = val
    return a


def insert(a: B5 | np.ndarray, i: int, *rows: list[int]) -> np.ndarray:
    arr = a.array() if isinstance(a, B5) else a
    return np.insert(arr, i, np.array(rows, np.int32), axis=0)


def replace(a: B5 | np.ndarray, i: int, row: list[int]) -> np.ndarray:
    arr = (a.array() if isinstance(a, B5) else a).copy()
    arr[i] = row
    return arr


def short_hand(flags: dict | None = None) -> B5:
    """2 players, wild J, dealer 1 (P0 first).  P0 melds 3C 4C 5C, P1 melds three 9s, P0 takes
    the top discard 8S, adds 6C and goes out by discarding 8S on its second turn (+200)."""
    b = B5(2, dealer=1, flags=flags)
    b.deal("J", {0: "3C 4C 5C 6C", 1: "4D 9D 9H 9S 7S"}, upcard="2D", stock="KS 8S")
    b.draw(0).meld(0, "seq", "3C 4C 5C").discard(0, "KS")
    b.draw(1).meld(1, "group", "9D 9H 9S").discard(1, "8S")
    b.take(0).layoff(0, 0, "6C").discard(0, "8S")
    return b


def t20_game(wild: str = "K") -> B5:
    """RULES.md T-20: face-up 5D, AS, KH, 2C bring hands of 6, 12, 11 and 3 (dealer 3, so P0 is
    dealt first)."""
    b = B5(4, dealer=3)
    b.deal(wild, {0: "5D", 1: "AS", 2: "KH", 3: "2C"})
    for _ in range(4):
        b.draw_discard()
    return capped(b)


def t21_game(wild: str = "5") -> B5:
    """RULES.md T-21 (melds chosen here): 2 players, dealer 1.  P0 melds A-A-5 (a group of aces,
    or of 5s with aces wild), P1 melds 9C TC JC QC, P0 adds KC, then 8C 7C; P1 adds AC to P0's
    group and goes out discarding 4H.  P0 is left with 5C 2D."""
    b = B5(2, dealer=1, flags={"r5k_target": 400})
    b.deal(wild, {0: "7C AS AD 5H KC 8C 5C 2D", 1: "4H 9C TC JC QC"},
           upcard="3S", stock="3D 6D 9S AC")
    key = "A" if wild != "A" else "5"
    b.draw(0).meld(0, "group", "AS AD 5H", key=key).discard(0, "3D")
    b.draw(1).meld(1, "seq", "9C TC JC QC").discard(1, "6D")
    b.draw(0).layoff(0, 1, "KC").layoff(0, 1, "8C 7C").discard(0, "9S")
    b.draw(1).layoff(1, 0, "AC").discard(1, "4H")
    return b


def t22_game(addition: str, **layoff) -> B5:
    """RULES.md T-22: 3 players, wild K (chosen here), dealer 0.  P1 melds 5H 6H 7H, P2 adds 8H,
    then P0 adds ``addition``."""
    b = B5(3, dealer=0)
    b.deal("K", {1: "3C 5H 6H 7H", 2: "2C 8H 9C", 0: "9D 9H KS 8H 4H TH 2S 3S 4S 6S"},
           stock="4D 5D 6D")
    b.draw(1).meld(1, "seq", "5H 6H 7H").discard(1, "3C")
    b.draw(2).layoff(2, 0, "8H").discard(2, "2C")
    b.draw(0).layoff(0, 0, addition, **layoff).discard(0, "6D")
    return capped(b)
