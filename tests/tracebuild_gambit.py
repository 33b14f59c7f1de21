"""Hand-made Dealer's gambit traces for the tests of the independent checker (V500-GAMBIT): ``GB``
(on ``tests.tracebuild.B``) and ``GTB`` (with partnerships, on ``tests.tracebuild_team.TB``).

Like their bases they are dumb recorders: they write the records of docs/trace-format.md
("Dealer's gambit") and never check legality.  What they add, written out from RULES.md
V500-GAMBIT-1..9 independently of the checker:

* the pack: 52 cards and ``r500_gambit_jokers - 1`` jokers (the dealer's joker is set aside);
  GAME_START column 7 = 1; DEALERS_JOKER and NOMINATE right after the DECK records (``deal``);
* the dealer's joker written ``DJ`` in a card spec (``"7H DJ@8 9H"``): a joker CARD record with
  source 1, taken from beside the dealer instead of a hand;
* ``double`` (DOUBLE: the meld just laid scores double), ``split`` (TURN_START, SPLIT and the
  TAKE_PILE of card k), ``block`` (BLOCK);
* jokers worth 0, on the table and in hand; the deal passing to the dealer's right.

Flags are ``rummysim.Rules`` dictionaries (:func:`gambit_flags`), built without the kernels'
support check (the gambit kernels are not required).
"""

from __future__ import annotations

from tests.tracebuild import B, X
from tests.tracebuild_team import TB, rules_flags

EFFECTS = {"wild": 1, "double": 2, "split": 3}
DJ = "DJ"  # the dealer's joker in a card spec


def gambit_flags(turns: int = 6, hands: int = 1, preset: str = "500-rum", **kw) -> dict:
    """Dealer's gambit flags with a turn cap and a hand cap, plus ``kw``."""
    return rules_flags(preset, r500_dealers_gambit=True, max_turns_per_hand=turns,
                       max_hands_per_game=hands, **kw)


class GambitMixin:
    """The Dealer's gambit records and scoring, on a 500 Rum trace builder."""

    def __init__(self, *args, **kw) -> None:
        super().__init__(*args, **kw)
        self.rows[0][7] = 1  # GAME_START column 7: Dealer's gambit
        self._sources: list[int] | None = None

    def pack(self) -> list[int]:
        jokers = self.flags.get("r500_gambit_jokers", 2) - 1  # V500-GAMBIT-1: one set aside
        cards = [16 * s + r for s in range(4) for r in range(1, 14)] + [X] * jokers
        return sorted(cards, key=lambda c: ((c & 15) if c != X else 99, c))

    def value_of(self, card: int, run_pos: int | None = None) -> int:
        if card == X:
            return 0  # V500-GAMBIT-4/5/9: a joker is worth 0
        return super().value_of(card, run_pos)

    # ---- the deal ----
    def deal(self, hands=None, upcard=None, stock="", order=None, deal_size=None,
             effect: str = "wild", nominate: bool = True):
        """Deal, then DEALERS_JOKER and (``nominate``) NOMINATE of ``effect``."""
        super().deal(hands, upcard, stock, order, deal_size)
        self.rows.append([69, self.dealer, 0, 0, 0, 0, 0, 0])
        if nominate:
            self.nominate(effect)
        self.dj = "beside"
        return self

    def nominate(self, effect: str, seat: int | None = None):
        self.rows.append([70, self.dealer if seat is None else seat, EFFECTS[effect],
                          0, 0, 0, 0, 0])
        return self

    # ---- melds with the dealer's joker ----
    def _with_sources(self, spec: str) -> str:
        """Replace ``DJ`` tokens by jokers, remembering which cards are the dealer's joker."""
        toks = spec.split()
        self._sources = [1 if t.upper().startswith(DJ) else 0 for t in toks]
        return " ".join("X" + t[2:] if s else t for t, s in zip(toks, self._sources))

    def _cards(self, seat, mid, cards, kind, credit=True):
        sources = self._sources or [0] * len(cards)
        for (c, p), src in zip(cards, sources):
            self.rows.append([21, seat, mid, c, p, src, 0, 0])
            if src:
                self.dj = "used"
            else:
                self._remove(seat, c)
            if credit:
                self.credit[seat] += self.value_of(c, p if kind == 1 else None)
        self._sources = None

    def meld(self, seat: int, kind: str, spec: str, key: int | None = None, lo: int | None = None):
        before = self.credit[seat]
        super().meld(seat, kind, self._with_sources(spec), key, lo)
        self.melds[-1]["value"] = self.credit[seat] - before
        return self

    def layoff(self, seat: int, mid: int, spec: str, run_lo: int | None = None):
        return super().layoff(seat, mid, self._with_sources(spec), run_lo)

    def addopp(self, seat: int, mid: int, spec: str, run_lo: int | None = None):
        return super().addopp(seat, mid, self._with_sources(spec), run_lo)

    # ---- the effects ----
    def double(self, seat: int, mid: int | None = None, source: int = 0):
        """DOUBLE on meld ``mid`` (default: the last one): its cards are credited twice."""
        mid = len(self.melds) - 1 if mid is None else mid
        self.rows.append([71, seat, mid, source, 0, 0, 0, 0])
        if source:
            self.dj = "used"
        else:
            self._remove(seat, X)
        self.credit[seat] += self.melds[mid]["value"]
        self.melds[mid]["sealed"] = True
        return self

    def split(self, seat: int | None = None, k: int = 0, s: int | None = None, source: int = 0,
              start: bool = True, n_removed: int | None = None):
        """A split take: TURN_START, SPLIT (cards k+1..s-1 leave play), TAKE_PILE from k."""
        seat = self.turn(seat) if start else seat
        s = len(self.pile) if s is None else s
        removed = s - k - 1 if n_removed is None else n_removed
        self.rows.append([72, seat, k, s, removed, source, 0, 0])
        if source:
            self.dj = "used"
        else:
            self._remove(seat, X)
        self.out_of_play = self.pile[k + 1:s]
        self.pile = self.pile[:k + 1] + self.pile[s:]
        return self.take(seat, k, start=False)

    def block(self, seat: int):
        """BLOCK: a joker of ``seat``'s hand on the dealer's joker; both leave play."""
        self.rows.append([73, seat, 0, 0, 0, 0, 0, 0])
        self._remove(seat, X)
        self.dj = "blocked"
        return self

    # ---- hand end ----
    def end(self, reason: int, out: int = -1, tv=None, hv=None, bonus=None):
        """HAND_END and scores; the next dealer is on the dealer's right (V500-GAMBIT-2), or the
        player who went out under V500-WINNERDEALS."""
        dealer = self.dealer
        super().end(reason, out, tv, hv, bonus)
        if not (self.flags.get("r500_next_dealer") == "winner" and out >= 0):
            self.dealer = (dealer - 1) % self.n
        return self


class GB(GambitMixin, B):
    """Dealer's gambit, 2-4 seats."""


class GTB(GambitMixin, TB):
    """Dealer's gambit with Partnership 500 rum (four seats, team of seat s = s mod 2)."""


