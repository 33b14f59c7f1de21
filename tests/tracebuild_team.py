"""Hand-made partnership traces for the tests of the independent checker: Partnership 500 rum,
Persian rummy (``TB``, on ``tests.tracebuild.B``) and Persian 5000 (``TB5``, on
``tests.tracebuild_5k.B5``).

Like their bases they are dumb recorders: they write the records of docs/trace-format.md
("Partnerships: Partnership 500 rum and Persian rummy", "Persian 5000") and never check legality.
Their scoring is written out from RULES.md (V500-PARTNER-2, V500-ADDOPP with two partnerships,
V500-PERSIAN-2/3/4, V5K-7 and V5K-9) independently of the checker: SCORE ``total_after`` is the
team total, two TEAM_SCORE records follow the four SCORE records, GAME_BONUS and the GAME_END tie
mask are written on request.  Flags are ``rummysim.Rules`` dictionaries (:func:`rules_flags`),
built without the kernels' support check.
"""

from __future__ import annotations

from rummysim.rules import Rules
from tests.tracebuild import B, X, value
from tests.tracebuild_5k import B5
from tests.tracebuild_5k import value as value_5k

TEAM_OF = (0, 1, 0, 1)  # team of seat s = s mod 2


def rules_flags(preset: str, **overrides: object) -> dict:
    """The flags of ``Rules.preset(preset).with_(**overrides)``: implied settings expanded, no
    kernel-support check (the kernels of these variations are not required)."""
    return Rules.preset(preset).with_(**overrides).as_dict()


def _team_rows(hs: list[int], team_totals: list[int]) -> list[list[int]]:
    """TEAM_SCORE rows after a hand with seat scores ``hs`` (team totals updated)."""
    rows = []
    for t in (0, 1):
        team_hs = hs[t] + hs[t + 2]
        team_totals[t] += team_hs
        rows.append([42, t, team_hs, team_totals[t], 0, 0, 0, 0])
    return rows


class TB(B):
    """Partnership 500 rum or Persian rummy (``r500_persian`` in the flags): four seats."""

    def __init__(self, flags: dict, dealer: int = 0, game_index: int = 7):
        super().__init__(4, dealer, flags, game_index)
        self.persian = bool(self.flags.get("r500_persian"))
        self.rows[0][6] = 2 if self.persian else 1  # GAME_START partnership code
        if self.persian:
            self.rows[0][4] = 0  # V500-PERSIAN-5: two deals, no target
        self.team_totals = [0, 0]

    def pack(self) -> list[int]:
        if not self.persian:
            return super().pack()
        cards = [16 * s + r for s in range(4) for r in range(1, 14)] + [X] * 4  # V500-PERSIAN-1
        return sorted(cards, key=lambda c: ((c & 15) if c != X else 99, c))

    def value_of(self, card: int, run_pos: int | None = None) -> int:
        if self.persian and card == X:
            return 20  # V500-PERSIAN-2
        return value(card, self.flags, run_pos)

    def meld(self, seat: int, kind: str, spec: str, key: int | None = None, lo: int | None = None):
        before = self.credit[seat]
        super().meld(seat, kind, spec, key, lo)
        if self.persian and kind == "set" and len(spec.split()) == 4:
            self.credit[seat] += self.credit[seat] - before  # V500-PERSIAN-3: doubled
        return self

    def joker_set(self, seat: int, n: int = 3):
        """V500-PERSIAN-2: a joker set (set MELD, key 0) of ``n`` jokers."""
        return self.meld(seat, "set", " ".join(["X"] * n), key=0)

    def end(self, reason: int, out: int = -1, tv: dict | None = None, hv: dict | None = None,
            bonus: dict | None = None):
        """HAND_END, four SCORE records (total_after = team total) and two TEAM_SCORE records;
        ``tv``/``hv`` replace computed values, ``bonus`` adds."""
        self.rows.append([40, reason, out, self.turns, 0, 0, 0, 0])
        f = self.flags
        raw = [sum(self.value_of(c) for c in self.hands[s]) for s in range(4)]
        tvs = list(self.credit)
        bon = [0] * 4
        if f.get("r500_add_opponent_hand"):  # V500-ADDOPP-1/3 with two partnerships
            hvs = [0] * 4
            if out >= 0:
                bon[out] = raw[(out + 1) % 4] + raw[(out + 3) % 4]
            else:
                bon = [raw[(s + 1) % 4] for s in range(4)]
        else:
            penalty = out >= 0 or f.get("r500_stock_out_hand_penalty", True)
            hvs = list(raw) if penalty else [0] * 4
        if self.persian and out >= 0:
            bon[out] += 25  # V500-PERSIAN-4
        for s, v in (tv or {}).items():
            tvs[s] = v
        for s, v in (hv or {}).items():
            hvs[s] = v
        for s, v in (bonus or {}).items():
            bon[s] += v
        hs = [tvs[s] - hvs[s] + bon[s] for s in range(4)]
        after = [self.team_totals[t] + hs[t] + hs[t + 2] for t in (0, 1)]
        self.scores = []
        for s in range(4):
            row = [41, s, hs[s], after[TEAM_OF[s]], tvs[s], hvs[s], bon[s], 0]
            self.scores.append(row)
            self.rows.append(row)
        self.rows += _team_rows(hs, self.team_totals)
        self.hand_no += 1
        if f.get("r500_next_dealer") == "winner" and out >= 0:
            self.dealer = out
        else:
            self.dealer = (self.dealer + 1) % 4
        return self

    def game_bonus(self, team: int, bonus: int = 50):
        """V500-PERSIAN-5: GAME_BONUS for ``team``."""
        self.team_totals[team] += bonus
        self.rows.append([43, team, bonus, self.team_totals[team], 0, 0, 0, 0])
        return self

    def game_end(self, winner: int = -1, capped: int = 0, mask: int = 0):
        self.rows.append([50, winner, self.hand_no, capped, mask, 0, 0, 0])
        return self


class TB5(B5):
    """Persian 5000 (V5K-9): four seats in two partnerships."""

    def __init__(self, flags: dict, dealer: int = 0, game_index: int = 7):
        super().__init__(4, dealer, flags, game_index)
        self.rows[0][6] = 3  # GAME_START partnership code: Persian 5000
        self.team_totals = [0, 0]

    def end(self, reason: int, out: int = -1, tv: dict | None = None, hv: dict | None = None,
            bonus: dict | None = None):
        """HAND_END, four SCORE records (total_after = team total) and two TEAM_SCORE records;
        ``tv``/``hv``/``bonus`` replace computed values."""
        self.rows.append([40, reason, out, self.turns, 0, 0, 0, 0])
        w = self.wild
        credited: list[list[int]] = [[] for _ in range(4)]
        for m in self.melds:
            for s, c, _ in m["slots"]:
                credited[s].append(c)
        tvs = [sum(value_5k(c, w) for c in cs) for cs in credited]
        hvs = [sum(value_5k(c, w) for c in self.hands[s]) for s in range(4)]
        bon = [0] * 4
        if out >= 0:  # R5K-OUT-2
            bon[out] = (500 if self.skipped else 300) if self.first and not self.call else 200
            if self.flags.get("r5k_michigan"):  # V5K-7 per team: the two opponents pay
                payers = ((out + 1) % 4, (out + 3) % 4)
                bon[out] += sum(hvs[s] for s in payers)
                for s in payers:
                    hvs[s] = 0
        for s, v in (tv or {}).items():
            tvs[s] = v
        for s, v in (hv or {}).items():
            hvs[s] = v
        for s, v in (bonus or {}).items():
            bon[s] = v
        hs = [bon[s] + tvs[s] - hvs[s] for s in range(4)]
        after = [self.team_totals[t] + hs[t] + hs[t + 2] for t in (0, 1)]
        self.scores = []
        for s in range(4):
            row = [41, s, hs[s], after[TEAM_OF[s]], tvs[s], hvs[s], bon[s], 0]
            self.scores.append(row)
            self.rows.append(row)
        self.rows += _team_rows(hs, self.team_totals)
        self.hand_no += 1
        self.dealer = (self.dealer + 1) % 4
        return self
