"""Human-readable replay of a 500 Rum trace (docs/trace-format.md).

``format_trace(trace) -> str`` decodes a trace turn by turn: each hand's deal (every seat's hand,
the upcard), each turn (who, the draw, melds and lay-offs with the meld id and cards, jokers with
their designation such as ``🃏(7♥)``, the discard, the pile after the turn), the scores at each hand
end and the game end.  It is pure decoding: it does not check rules (see ``sim.validate``) and it
never raises on a malformed trace; records it cannot decode are shown raw.

Command line: ``python -m sim.replay_text trace.npy [--plain]`` (``--plain`` writes ``4H``/``X``
instead of glyphs).
"""

from __future__ import annotations

import sys
from typing import Callable

import numpy as np

from sim.validate import (
    CARD,
    DECK,
    DISCARD,
    DRAW_STOCK,
    GAME_END,
    GAME_START,
    HAND_END,
    HAND_START,
    JOKER,
    LAYOFF,
    MELD,
    NO_DRAW,
    SCORE,
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
}


def _sort_key(card: int) -> tuple[int, int]:
    return (99, 99) if card == JOKER else (card >> 4, card & 15)


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
        r = pos if pos <= 13 else 1
        s = self.suits[suit] if 0 <= suit <= 3 else "?"
        return self.rank(r) + s

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
        lo_t = self.rank(lo if lo <= 13 else 1)
        hi_t = "A" if hi == 14 else self.rank(hi)
        return f"run {s} {lo_t}–{hi_t}"


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
    pack: list[int] = []
    pack_size = 0
    hands: list[list[int]] = []
    pile: list[int] = []
    melds: dict[int, dict] = {}
    group: dict | None = None
    cur_turn: list[str] = []
    totals_line: list[str] = []

    def flush_group() -> None:
        nonlocal group
        g = group
        if g is None:
            return
        group = None
        m = melds.get(g["meld_id"])
        cards_txt = " ".join(
            f.placed(c, g["kind"], g["key"], p) for c, p in sorted(g["cards"], key=lambda x: x[1])
        )
        if g["type"] == MELD:
            label = f.meld_label(g["kind"], g["key"], m["lo"], m["hi"]) if m else "?"
            w(f"    meld    #{g['meld_id']} {label}: {cards_txt}")
        else:
            owner = f"P{m['owner']}'s " if m else ""
            label = f.meld_label(m["kind"], m["key"], m["lo"], m["hi"]) if m else "?"
            w(f"    lay off on #{g['meld_id']} ({owner}{label}, now {m['count'] if m else '?'} cards): "
              f"{cards_txt}")

    def show_pile() -> None:
        shown = pile[-_PILE_SHOWN:]
        more = f"({len(pile) - len(shown)} more) … " if len(pile) > len(shown) else ""
        w(f"    pile    {more}{f.cards(shown)}")

    def deal_hands() -> None:
        nonlocal hands, pile
        hands = [[] for _ in range(n)]
        for i in range(n):
            seat = (dealer + 1 + i) % n
            hands[seat] = [c for c in pack[i * deal : (i + 1) * deal]]
        for i in range(n):
            seat = (dealer + 1 + i) % n
            w(f"  P{seat} dealt  {f.cards(hands[seat], sort=True)}")
        up = pack[n * deal] if n * deal < len(pack) else -1
        pile = [up] if up >= 0 else []
        w(f"  upcard {f.card(up) if up >= 0 else '?'} · stock {max(0, len(pack) - n * deal - 1)}")

    for i, row in enumerate(rows):
        kind = row[0]
        try:
            if kind != CARD and group is not None and len(group["cards"]) >= group["n"]:
                flush_group()
            if kind == GAME_START:
                n = max(0, min(row[1], 8))
                dealer = row[2]
                w(f"Game {row[3]} · {row[1]} players · first dealer P{row[2]} · target {row[4]}")
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
                    deal_hands()
            elif kind == TURN_START:
                w(f"  Turn {row[2]} · P{row[1]} · stock {row[3]} · pile {row[4]}")
            elif kind == DRAW_STOCK:
                w(f"    draw    {f.card(row[2])} from the stock")
                if 0 <= row[1] < len(hands):
                    hands[row[1]].append(row[2])
            elif kind == TAKE_PILE:
                k = row[2]
                taken = pile[k:] if 0 <= k <= len(pile) else []
                what = "the top card" if k == len(pile) - 1 else f"from pile[{k}] ({f.card(row[4])})"
                w(f"    take    {what}, {row[3]} card(s): {f.cards(taken)}")
                if 0 <= k <= len(pile):
                    del pile[k:]
                if 0 <= row[1] < len(hands):
                    hands[row[1]].extend(taken)
            elif kind == NO_DRAW:
                w("    no draw (stock empty, does not take from the pile)")
            elif kind == MELD:
                seat, mid, mk, key, lo, nc = row[1:7]
                hi = lo + nc - 1 if mk == 1 else 0
                melds[mid] = {"kind": mk, "key": key, "lo": lo, "hi": hi, "count": nc,
                              "owner": seat}
                group = {"type": MELD, "meld_id": mid, "kind": mk, "key": key, "n": nc,
                         "cards": []}
            elif kind == LAYOFF:
                seat, mid, nc = row[1:4]
                m = melds.get(mid, {"kind": 0, "key": 0, "lo": 0, "hi": 0, "count": 0,
                                    "owner": -1})
                m["count"] += nc
                group = {"type": LAYOFF, "meld_id": mid, "kind": m["kind"], "key": m["key"],
                         "n": nc, "cards": []}
            elif kind == CARD:
                seat, mid, c, pos = row[1:5]
                if group is None:
                    w(f"    (stray CARD {f.card(c)} for meld #{mid})")
                else:
                    group["cards"].append((c, pos))
                    m = melds.get(mid)
                    if m is not None and m["kind"] == 1 and 1 <= pos <= 14:
                        m["lo"] = min(m["lo"], pos)
                        m["hi"] = max(m["hi"], pos)
                    if 0 <= seat < len(hands) and c in hands[seat]:
                        hands[seat].remove(c)
                    if len(group["cards"]) >= group["n"]:
                        flush_group()
            elif kind == DISCARD:
                seat, c = row[1], row[2]
                w(f"    discard {f.card(c)}")
                if 0 <= seat < len(hands) and c in hands[seat]:
                    hands[seat].remove(c)
                pile.append(c)
                show_pile()
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
                seat, hs, tot, tv, hv = row[1:6]
                w(f"    P{seat}  table {tv:>4}  hand {hv:>4}  score {hs:>+5}  total {tot:>5}")
                totals_line.append(f"P{seat} {tot}")
            elif kind == GAME_END:
                winner, n_hands, capped = row[1:4]
                w("")
                if capped:
                    w(f"Game over: hand cap reached after {n_hands} hands, no winner")
                elif winner >= 0:
                    w(f"Game over after {n_hands} hands: P{winner} wins")
                else:
                    w(f"Game over after {n_hands} hands: no winner")
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
