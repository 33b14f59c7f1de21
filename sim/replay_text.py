"""Human-readable replay of a 500 Rum or Standard Rummy trace (docs/trace-format.md).

``format_trace(trace) -> str`` decodes a trace turn by turn: each hand's deal (every seat's hand,
the upcard, or the first player's START_PILE with V500-UPCHOICE), each turn (who, the draw, melds
and lay-offs with the meld id and cards, jokers with their designation such as ``🃏(7♥)``, the
discard, the pile after the turn), rummy calls, out-of-turn melds, floating, reshuffles, lay-offs
after someone went out (V500-ADDOPP), the scores at each hand end (with bonuses, or Standard Rummy's
deadwood and collection) and the game end.  It is pure decoding: it does not check rules (see
``sim.validate``) and it never raises on a malformed trace; records it cannot decode are shown raw.

Command line: ``python -m sim.replay_text trace.npy [--plain]`` (``--plain`` writes ``4H``/``X``
instead of glyphs).
"""

from __future__ import annotations

import sys
from typing import Callable

import numpy as np

from sim.validate import (
    ADDOPP_LAYOFF,
    CARD,
    DECK,
    DISCARD,
    DRAW_STOCK,
    FLOAT,
    GAME_END,
    GAME_START,
    HAND_END,
    HAND_START,
    JOKER,
    LAYOFF,
    MELD,
    NO_DRAW,
    OUT_OF_TURN,
    RESHUFFLE,
    RESTOCK,
    SCORE,
    START_PILE,
    TAKE_PILE,
    TURN_START,
    card_glyph,
    card_name,
)

__all__ = ["format_trace"]

_RANK_NAMES = "A23456789TJQK"
_SUIT_GLYPHS = "♣♦♥♠"
_SUIT_PLAIN = "CDHS"
_PILE_SHOWN = 10  # pile cards shown after each turn (top ones)
_END_REASONS = {
    1: "went out",
    2: "stock out (NO_DRAW, R500-STOCK-1)",
    3: "idle guard (R500-STOCK-2)",
    4: "turn cap (engine limit)",
    5: "stock ran out (end_immediately, V500-STOCKEND)",
}


def _sort_key(card: int) -> tuple[int, int]:
    return (99, 99) if card == JOKER else (card >> 4, card & 15)


def _rank_at(pos: int) -> int:
    return (pos - 1) % 13 + 1


class _Fmt:
    def __init__(self, plain: bool) -> None:
        self.card: Callable[[int], str] = card_name if plain else card_glyph
        self.suits = _SUIT_PLAIN if plain else _SUIT_GLYPHS
        self.joker = "X" if plain else "🃏"

    def cards(self, cards: list[int], sort: bool = False) -> str:
        seq = sorted(cards, key=_sort_key) if sort else cards
        return " ".join(self.card(c) for c in seq) if seq else "—"

    def rank(self, r: int) -> str:
        return _RANK_NAMES[r - 1] if 1 <= r <= 13 else f"?{r}"

    def pos_card(self, suit: int, pos: int) -> str:
        s = self.suits[suit] if 0 <= suit <= 3 else "?"
        return self.rank(_rank_at(pos)) + s

    def placed(self, card: int, kind: int, key: int, pos: int) -> str:
        """A card as placed in a meld; jokers show their designation."""
        if card != JOKER:
            txt = self.card(card)
            if kind == 1 and pos == 14 and (card & 15) == 1:
                txt += "(high)"
            return txt
        if kind == 1:
            return f"{self.joker}({self.pos_card(key, pos)})"
        return f"{self.joker}({self.rank(key)})"

    def meld_label(self, kind: int, key: int, lo: int, hi: int) -> str:
        if kind == 0:
            return f"set of {self.rank(key)}s"
        s = self.suits[key] if 0 <= key <= 3 else "?"
        return f"run {s} {self.rank(_rank_at(lo))}–{self.rank(_rank_at(hi))}"


def format_trace(trace: np.ndarray, plain: bool = False) -> str:
    """Return the game(s) in ``trace`` as readable text, turn by turn."""
    f = _Fmt(plain)
    out: list[str] = []
    w = out.append
    try:
        rows: list[list[int]] = np.asarray(trace).reshape(-1, 8).tolist()
    except Exception as exc:  # never raise
        return f"(cannot read trace: {exc})\n"

    n = 0
    dealer = 0
    deal = 0
    std = False
    pack: list[int] = []
    pack_size = 0
    hands: list[list[int]] = []
    pile: list[int] = []
    restock: list[int] = []
    melds: dict[int, dict] = {}
    group: dict | None = None
    call_turn = False
    oot_seat = -1
    totals_line: list[str] = []

    def take_from_hand(seat: int, c: int) -> None:
        if 0 <= seat < len(hands) and c in hands[seat]:
            hands[seat].remove(c)

    def flush_group() -> None:
        nonlocal group
        g = group
        if g is None:
            return
        group = None
        m = melds.get(g["meld_id"])
        ps = [p for _, p in g["cards"]]
        if m is not None and m["kind"] == 1 and ps and all(isinstance(p, int) for p in ps):
            if g["type"] != MELD and min(ps) > m["hi"] + 1 and max(ps) < m["lo"] + 13:
                m["lo"] += 13  # V500-CORNER: a lay-off below position 1, written re-based
                m["hi"] += 13
            m["lo"] = min([m["lo"]] + ps)
            m["hi"] = max([m["hi"]] + ps)
        cards_txt = " ".join(
            f.placed(c, g["kind"], g["key"], p) for c, p in sorted(g["cards"], key=lambda x: x[1])
        )
        label = f.meld_label(m["kind"], m["key"], m["lo"], m["hi"]) if m else "?"
        if g["type"] == MELD:
            if g.get("oot"):
                w(f"  P{g['seat']} out of turn: meld #{g['meld_id']} {label}: {cards_txt}")
            else:
                w(f"    meld    #{g['meld_id']} {label}: {cards_txt}")
        else:
            owner = f"P{m['owner']}'s " if m else ""
            now = f", now {m['count']} cards" if m else ""
            if g["type"] == ADDOPP_LAYOFF:
                w(f"    P{g['seat']} lays off on #{g['meld_id']} ({owner}{label}{now}), "
                  f"scoring for no one: {cards_txt}")
            else:
                w(f"    lay off on #{g['meld_id']} ({owner}{label}{now}): {cards_txt}")

    def show_pile() -> None:
        shown = pile[-_PILE_SHOWN:]
        more = f"({len(pile) - len(shown)} more) … " if len(pile) > len(shown) else ""
        w(f"    pile    {more}{f.cards(shown)}")

    def deal_hands(upchoice: bool) -> None:
        nonlocal hands, pile
        hands = [[] for _ in range(n)]
        pos = 0
        for i in range(n):
            seat = (dealer + 1 + i) % n
            size = deal + 1 if (upchoice and i == 0) else deal
            hands[seat] = [c for c in pack[pos:pos + size]]
            pos += size
        for i in range(n):
            seat = (dealer + 1 + i) % n
            w(f"  P{seat} dealt  {f.cards(hands[seat], sort=True)}")
        if upchoice:
            pile = []
            w(f"  no upcard (the first player starts the pile) · stock {max(0, len(pack) - pos)}")
            return
        up = pack[pos] if pos < len(pack) else -1
        pile = [up] if up >= 0 else []
        w(f"  upcard {f.card(up) if up >= 0 else '?'} · stock {max(0, len(pack) - pos - 1)}")

    def next_kind(i: int) -> int:
        for j in range(i + 1, len(rows)):
            if rows[j][0] != DECK:
                return rows[j][0]
        return -1

    for i, row in enumerate(rows):
        kind = row[0]
        try:
            if kind != CARD and group is not None and len(group["cards"]) >= group["n"]:
                flush_group()
            if kind not in (MELD, CARD):
                oot_seat = -1
            if kind == GAME_START:
                n = max(0, min(row[1], 8))
                dealer = row[2]
                std = row[5] == 1
                if std:
                    w(f"Game {row[3]} · Standard Rummy · {row[1]} players · first dealer P{row[2]}")
                else:
                    w(f"Game {row[3]} · {row[1]} players · first dealer P{row[2]} · "
                      f"target {row[4]}")
            elif kind == HAND_START:
                dealer, pack_size, deal = row[2], row[3], row[4]
                pack = []
                melds = {}
                w("")
                w(f"━━ Hand {row[1] + 1} · dealer P{dealer} · pack {pack_size} · deal {deal} · "
                  f"P{row[5]} plays first ━━")
            elif kind == DECK:
                off = row[1]
                for j, c in enumerate(row[2:8]):
                    p = off + j
                    if c >= 0 and 0 <= p < min(pack_size, 256):
                        if p >= len(pack):
                            pack.extend([-1] * (p + 1 - len(pack)))
                        pack[p] = c
                if len([c for c in pack if c >= 0]) == pack_size and pack_size and n:
                    deal_hands(next_kind(i) == START_PILE)
            elif kind == START_PILE:
                seat, c = row[1], row[2]
                w(f"  P{seat} starts the pile with {f.card(c)}")
                take_from_hand(seat, c)
                pile.append(c)
            elif kind == TURN_START:
                call_turn = row[5] == 1
                what = f"P{row[1]} calls Rummy!" if call_turn else f"P{row[1]}"
                w(f"  Turn {row[2]} · {what} · stock {row[3]} · pile {row[4]}")
            elif kind == RESHUFFLE:
                w(f"    reshuffle: {row[2]} cards (the pile but its top card) form a new stock")
                restock = []
                pile = pile[-1:]
            elif kind == RESTOCK:
                restock.extend(c for c in row[2:8] if c >= 0)
            elif kind == DRAW_STOCK:
                w(f"    draw    {f.card(row[2])} from the stock")
                if 0 <= row[1] < len(hands):
                    hands[row[1]].append(row[2])
            elif kind == TAKE_PILE:
                k = row[2]
                taken = pile[k:] if 0 <= k <= len(pile) else []
                top = k == len(pile) - 1
                what = "the top card" if top else f"from pile[{k}] ({f.card(row[4])})"
                if call_turn:
                    if k == len(pile) - 1:
                        what = f"the top card ({f.card(row[4])})"
                    w(f"    P{row[1]} calls Rummy! takes {what}, {row[3]} card(s): "
                      f"{f.cards(taken)}")
                else:
                    w(f"    take    {what}, {row[3]} card(s): {f.cards(taken)}")
                if 0 <= k <= len(pile):
                    del pile[k:]
                if 0 <= row[1] < len(hands):
                    hands[row[1]].extend(taken)
            elif kind == NO_DRAW:
                if row[2] == 1:
                    w("    no draw (the stock is out: discard until someone is out)")
                else:
                    w("    no draw (stock empty, does not take from the pile)")
            elif kind == OUT_OF_TURN:
                oot_seat = row[1]
            elif kind == MELD:
                seat, mid, mk, key, lo, nc = row[1:7]
                hi = lo + nc - 1 if mk == 1 else 0
                melds[mid] = {"kind": mk, "key": key, "lo": lo, "hi": hi, "count": nc,
                              "owner": seat}
                group = {"type": MELD, "meld_id": mid, "kind": mk, "key": key, "n": nc,
                         "cards": [], "seat": seat, "oot": oot_seat == seat}
            elif kind in (LAYOFF, ADDOPP_LAYOFF):
                seat, mid, nc = row[1:4]
                m = melds.get(mid, {"kind": 0, "key": 0, "lo": 0, "hi": 0, "count": 0,
                                    "owner": -1})
                m["count"] += nc
                group = {"type": kind, "meld_id": mid, "kind": m["kind"], "key": m["key"],
                         "n": nc, "cards": [], "seat": seat}
            elif kind == CARD:
                seat, mid, c, pos = row[1:5]
                if group is None:
                    w(f"    (stray CARD {f.card(c)} for meld #{mid})")
                else:
                    group["cards"].append((c, pos))
                    take_from_hand(seat, c)
                    if len(group["cards"]) >= group["n"]:
                        flush_group()
            elif kind == DISCARD:
                seat, c = row[1], row[2]
                w(f"    discard {f.card(c)}")
                take_from_hand(seat, c)
                pile.append(c)
                show_pile()
            elif kind == FLOAT:
                w(f"    P{row[1]} floats (0 cards, the hand goes on)")
            elif kind == HAND_END:
                reason, out_seat, turns = row[1:4]
                why = _END_REASONS.get(reason, f"reason {reason}")
                who = f"P{out_seat} " if out_seat >= 0 else ""
                w(f"  Hand end after {turns} turns: {who}{why}")
                for s, h in enumerate(hands):
                    if h:
                        w(f"    P{s} holds {f.cards(h, sort=True)}")
                totals_line = []
            elif kind == SCORE:
                seat, hs, tot, tv, hv, bonus = row[1:7]
                if std:
                    coll = f"  collects {bonus:>4}" if bonus else ""
                    w(f"    P{seat}  deadwood {hv:>4}{coll}  score {hs:>+5}  total {tot:>5}")
                else:
                    bon = f"  bonus {bonus:>+5}" if bonus else ""
                    w(f"    P{seat}  table {tv:>4}  hand {hv:>4}{bon}  score {hs:>+5}  "
                      f"total {tot:>5}")
                totals_line.append(f"P{seat} {tot}")
            elif kind == GAME_END:
                winner, n_hands, capped = row[1:4]
                w("")
                if capped:
                    w(f"Game over: hand cap reached after {n_hands} hands, no winner")
                elif winner >= 0:
                    w(f"Game over after {n_hands} hands: P{winner} wins")
                else:
                    w(f"Game over after {n_hands} hands: no winner (highest total shared)")
                if totals_line:
                    w("  final totals: " + ", ".join(totals_line))
            else:
                w(f"  ?? record {i}: {row}")
        except Exception as exc:  # never raise on a bad trace
            w(f"  ?? record {i}: {row} ({exc.__class__.__name__})")
    if group is not None:
        flush_group()
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    plain = "--plain" in args
    paths = [a for a in args if a != "--plain"]
    if len(paths) != 1:
        print("usage: python -m sim.replay_text trace.npy [--plain]", file=sys.stderr)
        return 2
    sys.stdout.write(format_trace(np.load(paths[0]), plain=plain))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
