"""The replay text of 5000 Rummy: the hand's wild rank (every wild card marked ``*``, in a sequence
with its designation ``7♥*(5♠)``), each seat's face-up card and the hand size it sets, Polish
take-all, upcard exchanges, the first-turn no-draw, joins, trades, the hand-end reasons of
R5K-STOCK-1 and R5K-DRAW-5, ties, and the stakes of Doubling and Limit-Poker (V5K-13/14)."""

from __future__ import annotations

from rummysim.replay.common import CardText, Decoder, GameText, Handler
from rummysim.validate.trace import (
    EXCHANGE,
    FACE_UP,
    GROUP,
    JOIN,
    SEQUENCE,
    TAKE_ALL,
    TRADE,
    TURN_START,
)

# {n} is the number of players, {n3} three times it
_END_REASONS = {
    1: "went out",
    2: "stock out (NO_DRAW, R5K-STOCK-1 b)",
    3: "{n} turns in a row put no card on the table after the stock ran out (R5K-STOCK-1 c)",
    4: "turn cap (engine limit)",
    6: "stall: {n3} top-card takes in a row that stayed in hand (R5K-DRAW-5)",
    7: "a doubled player folded (V5K-13)",
    8: "a player conceded (V5K-14)",
}

# The stakes records of docs/trace-format.md ("Stakes", V5K-13/14), read here from that page alone
# until the validator's trace reader declares them: kind -> the line it writes.
_STAKES_MODES = {1: "Doubling (V5K-13)", 2: "Limit-Poker (V5K-14)"}
_STAKES_LINES = {
    101: lambda r: f"  stakes: {_STAKES_MODES.get(r[1], r[1])}, a session of {r[3]} hands"
                   + (" · tied first-dealer draw: automatic double" if r[2] else ""),
    102: lambda r: f"  stake {r[1]}",
    103: lambda r: f"    seat {r[1]} doubles to {r[2]}",
    104: lambda r: f"    seat {r[1]} takes: stake {r[2]}",
    105: lambda r: f"    seat {r[1]} folds, losing {r[2]}",
    106: lambda r: f"    seat {r[1]} beavers: stake {r[2]}",
    107: lambda r: f"  seat {r[1]} antes {r[2]} · pot {r[3]}",
    108: lambda r: f"  seat {r[1]} checks",
    109: lambda r: f"  seat {r[1]} bets {r[2]} · pot {r[3]}",
    110: lambda r: f"  seat {r[1]} calls {r[2]} · pot {r[3]}",
    111: lambda r: f"  seat {r[1]} calls {r[2]} and raises {r[3]} · pot {r[4]}",
    112: lambda r: f"    seat {r[1]} concedes the pot of {r[2]}" + (" in the betting round" if r[3] == 0 else ""),
    113: lambda r: f"    seat {r[1]} {r[2]:+} ({'x' + str(r[4]) + ' ' if r[4] else ''}stake {r[5]}) · session {r[3]:+}",
}
_NO_DRAW = {
    0: "stock empty, does not take from the pile",
    2: "first turn: melds every card to go out, R5K-OUT-3",
    3: "the first player's opening turn only discards, V5K-10",
}


class Rum5000Text(GameText):
    """5000 Rummy."""

    title = "5000 Rummy · "
    deals_at_deck = False  # the FACE_UP records give the hand sizes
    names_ties = True
    tie_rule = "R5K-GAME-2"
    addition = "add to "  # "add to  #3": aligned with the other play lines

    def wild_rank(self, row: list[int]) -> int:
        return row[6]  # R5K-WILD-1

    def hand_detail(self, f: CardText, row: list[int]) -> str:
        return f"wild rank {f.rank(row[6])} (marked *)"

    def no_draw(self, mode: int) -> str:
        return f"    no draw ({_NO_DRAW.get(mode, f'reason {mode}')})"

    def end_reason(self, reason: int, n: int) -> str:
        return _END_REASONS.get(reason, f"reason {reason}").format(n=n, n3=3 * n)


class Rum5000Records(Decoder):
    """The records of 5000 Rummy's range and its deal by face-up cards."""

    def record_handlers(self) -> dict[int, Handler]:
        return {
            **super().record_handlers(),
            FACE_UP: self.face_up, TAKE_ALL: self.take_all, EXCHANGE: self.exchange,
            JOIN: self.join, TRADE: self.trade,
            **{kind: self.stakes_line for kind in _STAKES_LINES},
        }

    def stakes_line(self, row: list[int]) -> None:
        self.w(_STAKES_LINES[row[0]](row))

    def hand_reset(self) -> None:
        super().hand_reset()
        self.face_ups: list[tuple[int, int, int]] = []  # (seat, card, hand size)

    def face_up(self, row: list[int]) -> None:
        self.face_ups.append((row[1], row[2], row[3]))
        if len(self.face_ups) == self.n:
            self.deal_blocks()

    def deal_blocks(self) -> None:
        """R5K-DEAL-1/2: consecutive blocks in dealing order, each sized by its first (face-up)
        card, then the upcard unless V5K-10's extra card replaces it."""
        f = self.f
        self.hands = [[] for _ in range(self.n)]
        pos = 0
        for seat, card, size in self.face_ups:
            block = self.pack[pos:pos + max(0, size)]
            pos += max(0, size)
            self.add_to_hand(seat, block)
            self.w(f"  seat {seat} face-up {f.card(card)} → {size} cards: "
                   f"{f.cards(block, sort=True)}")
        first_turn = self.next_row(lambda kind: kind == TURN_START)
        if first_turn is not None and first_turn[4] == 0:  # the first turn sees an empty pile
            self.pile = []
            self.w(f"  no upcard (the first player's discard starts the pile, V5K-10) · stock "
                   f"{max(0, len(self.pack) - pos)}")
            return
        self.deal_upcard(pos)

    def take_all(self, row: list[int]) -> None:
        """V5K-8 Polish: the whole pile into the hand."""
        taken = self.pile
        self.w(f"    take    the whole pile (Polish, V5K-8), {row[2]} card(s): "
               f"{self.f.cards(taken)}")
        self.add_to_hand(row[1], taken)
        self.pile = []

    def exchange(self, row: list[int]) -> None:
        """V5K-11: a seat swaps a hand card for the upcard before the first player draws."""
        seat, given, taken = row[1], row[2], row[3]
        self.w(f"    seat {seat} exchanges {self.f.card(given)} for the upcard {self.f.card(taken)} "
               f"(V5K-11)")
        self.take_from_hand(seat, given)
        self.add_to_hand(seat, [taken])
        self.pile[:1] = [given]

    def join(self, row: list[int]) -> None:
        """R5K-SEQ-5/6: sequence meld_b joins the high end of meld_a, with n gap cards."""
        seat, a, b, nc = row[1:5]
        m = self.melds.get(a, {"kind": SEQUENCE, "key": 0})
        self.group = {"type": JOIN, "meld_id": a, "other": b, "kind": m["kind"],
                      "key": m["key"], "n": nc, "cards": [], "seat": seat}

    def trade(self, row: list[int]) -> None:
        """R5K-TRADE-1..3: a natural card replaces a table wild card, which goes to the hand."""
        f = self.f
        seat, mid, given, taken, pos = row[1:6]
        m = self.melds.get(mid, {"kind": GROUP, "key": 0})
        wild = f.placed(taken, m["kind"], m["key"], pos)
        self.w(f"    trade   {f.card(given)} for {wild} on #{mid} ({self.describe(mid)}), "
               f"{f.card(taken)} to the hand")
        self.take_from_hand(seat, given)
        self.add_to_hand(seat, [taken])
        self.uncredit(taken)
        self.credit(seat, given)  # R5K-TRADE-3

    def write_group(self, g: dict, joined: str, cards_txt: str) -> None:
        if g["type"] == JOIN:
            self.write_join(g, joined, cards_txt)
        else:
            super().write_group(g, joined, cards_txt)

    def write_join(self, g: dict, joined: str, cards_txt: str) -> None:
        """The JOIN's gap cards are already on meld_a's range; meld_b now merges into it.
        ``joined`` describes meld_a as it was before the gap cards."""
        a, b = g["meld_id"], g["other"]
        ma, mb = self.melds.get(a), self.melds.get(b)
        parts = f"{joined} and #{b} ({self.describe(b)})"
        if ma is not None:
            ma["count"] += len(g["cards"])
            if mb is not None:
                ma["hi"] = max(ma["hi"], mb["hi"])
                ma["count"] += mb["count"]
                del self.melds[b]  # meld_b ceases to exist (R5K-SEQ-5)
        gap = f"with {cards_txt}" if g["cards"] else "(adjacent)"
        now = (f": now #{a} {self.f.meld_label(ma['kind'], ma['key'], ma['lo'], ma['hi'])}, "
               f"{ma['count']} cards") if ma is not None else ""
        self.w(f"    join    {parts} {gap}{now}")
