"""The replay text of Dealer's gambit (V500-GAMBIT; docs/trace-format.md "Dealer's gambit"): the
dealer's joker beside the dealer, the nomination, the dealer's joker in a meld or lay-off, doubled
and sealed melds, split takes with the cards they put out of play, blocks, and at each hand end
the cards out of play. Wild jokers show their designation as in every game (``🃏(7♥)``)."""

from __future__ import annotations

from rummysim.replay.common import CREDITING, Decoder, Handler
from rummysim.validate.cards import JOKER
from rummysim.validate.trace import BLOCK, CARD, DEALERS_JOKER, DOUBLE, NOMINATE, SPLIT, TAKE_PILE

SOURCE_DEALERS_JOKER = 1  # CARD column 5, DOUBLE column 3, SPLIT column 5 (0: a joker from hand)

EFFECTS = {
    1: "wild: every joker is a wild card worth 0",
    2: "double: a joker on a new meld doubles its cards and seals it",
    3: "split: a joker splits the discard pile above the card taken",
}


class GambitRecords(Decoder):
    """The records of Dealer's gambit, mixed into the 500 Rum decoder."""

    def record_handlers(self) -> dict[int, Handler]:
        return {
            **super().record_handlers(),
            DEALERS_JOKER: self.dealers_joker, NOMINATE: self.nominate, DOUBLE: self.double,
            SPLIT: self.split, BLOCK: self.block, CARD: self.gambit_card, TAKE_PILE: self.split_take,
        }

    def hand_reset(self) -> None:
        super().hand_reset()
        self.out_of_play: list[int] = []

    def use_joker(self, seat: int, source: int) -> str:
        """A joker the seat uses leaves its hand (unless it is the dealer's joker): the words for it."""
        if source == SOURCE_DEALERS_JOKER:
            return "the dealer's joker"
        self.take_from_hand(seat, JOKER)
        return "a joker from hand"

    def dealers_joker(self, row: list[int]) -> None:
        self.w(f"  the dealer's joker {self.f.joker} lies face up beside seat {row[1]} (Dealer's gambit)")

    def nominate(self, row: list[int]) -> None:
        effect = EFFECTS.get(row[2], f"effect {row[2]}")
        self.w(f"  seat {row[1]} nominates {effect}")

    def gambit_card(self, row: list[int]) -> None:
        """A CARD record; the dealer's joker (column 5 = 1) comes from beside the dealer, not a hand."""
        if row[3] == JOKER and row[5] == SOURCE_DEALERS_JOKER and self.group is not None:
            self.group["dealers_joker"] = True
            self.group["cards"].append((row[3], row[4]))
            if self.group["type"] in CREDITING:
                self.credit(row[1], row[3])
            if len(self.group["cards"]) >= self.group["n"]:
                self.flush_group()
            return
        self.card(row)

    def write_group(self, g: dict, joined: str, cards_txt: str) -> None:
        if g.get("dealers_joker"):
            cards_txt += f"  ({self.f.joker} the dealer's joker)"
        super().write_group(g, joined, cards_txt)

    def double(self, row: list[int]) -> None:
        seat, mid, source = row[1:4]
        what = self.use_joker(seat, source)
        self.w(f"    double  #{mid} ({self.describe(mid)}) with {what}: its cards score double, "
               f"the meld is sealed")

    def split(self, row: list[int]) -> None:
        seat, k, s, _n_removed, source = row[1:6]
        pile = self.pile
        what = self.use_joker(seat, source)
        removed = pile[k + 1:s] if 0 <= k < s <= len(pile) else []
        selected = self.f.card(pile[k]) if 0 <= k < len(pile) else "?"
        below = f" and below pile[{s}] ({self.f.card(pile[s])})" if s < len(pile) else ""
        self.w(f"    split   the pile above pile[{k}] ({selected}){below} with {what}: "
               f"{self.f.cards(removed)} and the joker leave play")
        self.out_of_play.extend(removed + [JOKER])
        if 0 <= k < s <= len(pile):
            self.pile = pile[:k + 1] + pile[s:]

    def split_take(self, row: list[int]) -> None:
        """The TAKE_PILE after a SPLIT: card k and the cards beyond the split, card k to be played
        even when it is now the top card."""
        prev = self.rows[self.i - 1] if self.i > 0 else None
        if prev is None or prev[0] != SPLIT:
            self.take_pile(row)
            return
        k, pile = row[2], self.pile
        taken = pile[k:] if 0 <= k <= len(pile) else []
        self.w(f"    take    from pile[{k}] ({self.f.card(row[4])}) after the split, {row[3]} card(s): "
               f"{self.f.cards(taken)}")
        if 0 <= k <= len(pile):
            del pile[k:]
        self.add_to_hand(row[1], taken)

    def block(self, row: list[int]) -> None:
        seat = row[1]
        self.take_from_hand(seat, JOKER)
        self.w(f"    seat {seat} blocks the dealer's joker with a joker from hand: both leave play")
        self.out_of_play.extend([JOKER, JOKER])

    def hand_end(self, row: list[int]) -> None:
        super().hand_end(row)
        if self.out_of_play:
            self.w(f"    out of play: {self.f.cards(self.out_of_play, sort=True)}")
