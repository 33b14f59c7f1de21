"""The replay text of 500 Rum and Standard Rummy: their wording, the deal in equal blocks (or the
first player's START_PILE with V500-UPCHOICE), reshuffles, out-of-turn melds and the lay-offs after
someone went out (V500-ADDOPP), and Standard Rummy's deadwood and collection at the scores."""

from __future__ import annotations

from rummysim.replay.common import Decoder, GameText, Handler
from rummysim.validate.trace import (
    ADDOPP_LAYOFF,
    DECK,
    OUT_OF_TURN,
    RESHUFFLE,
    RESTOCK,
    START_PILE,
)

_END_REASONS = {
    1: "went out",
    2: "stock out (NO_DRAW, R500-STOCK-1)",
    3: "idle guard (R500-STOCK-2)",
    4: "turn cap (engine limit)",
    5: "stock ran out (end_immediately, V500-STOCKEND)",
}


class Rum500Text(GameText):
    """500 Rum."""

    def no_draw(self, mode: int) -> str:
        if mode == 1:
            return "    no draw (the stock is out: discard until someone is out)"
        return "    no draw (stock empty, does not take from the pile)"

    def end_reason(self, reason: int, n: int) -> str:
        return _END_REASONS.get(reason, f"reason {reason}")


class StandardRummyText(Rum500Text):
    """Standard Rummy: no target; the scores show deadwood and what the player who went out
    collects."""

    title = "Standard Rummy · "
    shows_target = False
    names_ties = True
    tie_rule = "RSTD-GAME-1"
    scores_table = False  # deadwood scoring (RSTD-SCORE-1): the table cards score nothing

    def score_line(self, row: list[int]) -> str:
        seat, hs, tot, _tv, hv, bonus = row[1:7]
        coll = f"  collects {bonus:>4}" if bonus else ""
        return f"    seat {seat}  deadwood {hv:>4}{coll}  score {hs:>+5}  total {tot:>5}"


class Rum500Records(Decoder):
    """The records of 500 Rum's range and its deal."""

    def record_handlers(self) -> dict[int, Handler]:
        return {
            **super().record_handlers(),
            START_PILE: self.start_pile, RESHUFFLE: self.reshuffle, RESTOCK: self.restock,
            OUT_OF_TURN: self.out_of_turn, ADDOPP_LAYOFF: self.layoff,
        }

    def deck_complete(self) -> None:
        nxt = self.next_row(lambda kind: kind != DECK)
        self.deal_hands(nxt is not None and nxt[0] == START_PILE)

    def deal_hands(self, upchoice: bool) -> None:
        """Equal blocks, then the upcard (or V500-UPCHOICE: the first player one card more)."""
        n, f, pack = self.n, self.f, self.pack
        self.hands = [[] for _ in range(n)]
        pos = 0
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            size = self.deal + 1 if (upchoice and i == 0) else self.deal
            self.hands[seat] = [c for c in pack[pos:pos + size]]
            pos += size
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            self.w(f"  seat {seat} dealt  {f.cards(self.hands[seat], sort=True)}")
        if upchoice:
            self.pile = []
            self.w(f"  no upcard (the first player starts the pile) · stock "
                   f"{max(0, len(pack) - pos)}")
            return
        self.deal_upcard(pos)

    def start_pile(self, row: list[int]) -> None:
        seat, c = row[1], row[2]
        self.w(f"  seat {seat} starts the pile with {self.f.card(c)}")
        self.take_from_hand(seat, c)
        self.pile.append(c)

    def reshuffle(self, row: list[int]) -> None:
        self.w(f"    reshuffle: {row[2]} cards (the pile but its top card) form a new stock")
        self.pile = self.pile[-1:]

    def restock(self, row: list[int]) -> None:
        """The new stock's order: the stock is not shown, so nothing to decode."""

    def out_of_turn(self, row: list[int]) -> None:
        self.oot_seat = row[1]
