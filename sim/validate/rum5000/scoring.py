"""5000 Rummy hand end, scores and game end: HAND_END reasons, card conservation, the expected
SCORE columns (R5K-SCORE-1, R5K-VAL-*, R5K-OUT-2, V5K-7 Michigan, V5K-12 money cards), Persian
5000's team totals and TEAM_SCORE records (V5K-9) and GAME_END (R5K-GAME-2, V5K-2, V5K-9, the
engine hand cap)."""

from __future__ import annotations

from rummysim.validate.cards import NATURAL_IDS, card_name
from rummysim.validate.rum5000.phases import (
    END_RULES,
    P_CARDS,
    P_DECK,
    P_DONE,
    P_FACE_UP,
    P_GAME_OVER,
    P_HAND_START,
    P_NODRAW,
    P_OUT,
    P_SCORE,
    P_TEAM_SCORE,
    P_TURN,
)
from rummysim.validate.rum5000.table import QH, SEVEN_H, natural_values
from rummysim.validate.teams import ALL_SEATS_MASK, TEAMS, opponents_of, team_of
from rummysim.validate.trace import Replayer


class Scoring(Replayer):
    """Hand end, scores and game end of a 5000 Rummy game."""

    def _hand_end(self, row: list[int]) -> None:
        ph = self.phase
        if ph in (P_DECK, P_FACE_UP):
            self.fail("TRACE-FORMAT", "HAND_END before the deal was fully listed")
        if ph not in (P_TURN, P_OUT, P_NODRAW):
            self._unexpected(row)
        reason, out_seat, turns = row[1], row[2], row[3]
        if reason not in END_RULES:
            self.fail("TRACE-FORMAT", f"HAND_END reason {reason}")
        if reason not in self.end_ok:
            self._wrong_end_reason(reason)
        if out_seat != self.out_seat:
            self.flag("TRACE-FORMAT", f"HAND_END out_seat {out_seat}, expected {self.out_seat}")
        if turns != self.turns:
            self.flag("TRACE-FORMAT", f"HAND_END turns {turns}, {self.turns} played")
        self.check_conservation()
        self._expected_scores()
        self.score_seat = 0
        self.score_rows: list[list[int]] = []  # Persian 5000: this hand's SCORE records
        self.phase = P_SCORE

    def _wrong_end_reason(self, reason: int) -> None:
        due = self.end_due
        if due in (1, 2):
            self.flag(END_RULES[due], f"HAND_END reason {reason}, expected {due} "
                                        f"({self._end_text(due)})")
        elif reason == 1:
            self.flag("R5K-OUT-1", "HAND_END reason 1 but no one went out")
        elif reason == 2:
            self.flag("R5K-STOCK-1", "HAND_END reason 2 without NO_DRAW on an empty stock")
        elif reason == 3:
            self.flag("R5K-STOCK-1", f"HAND_END reason 3 after {self.idle} turn(s) without a "
                                      f"card put on the table on an empty stock; {self.n} needed")
        elif reason == 6:
            self.flag("R5K-DRAW-5", f"HAND_END reason 6 after {self.stall} stalled turn(s); "
                                     f"{3 * self.n} needed")
        else:
            self.flag("ENGINE-TURN-CAP", f"turn-cap HAND_END after {self.turns} turns; the cap "
                                          f"is {self.cfg.max_turns}")

    def _credited(self) -> list[list[int]]:
        """Table cards credited to each seat (C-MELD-5, R5K-PLAY-4, R5K-TRADE-3)."""
        per_seat: list[list[int]] = [[] for _ in range(self.n)]
        for m in self.melds:
            for s, c, _ in m.slots:
                per_seat[s].append(c)
        return per_seat

    def _expected_scores(self) -> None:
        """R5K-SCORE-1 with R5K-VAL-*, R5K-OUT-2, V5K-7 (AMB-34) and V5K-12 (AMB-35)."""
        n = self.n
        vals = self.vals
        out = self.out_seat
        wild = self.wild
        queen_penalty = self.cfg.money and out >= 0 and wild != 12
        hv = []
        for hc in self.hands:
            v = sum(vals[c] * k for c, k in enumerate(hc) if k)
            if queen_penalty:
                v += 40 * hc[QH]  # V5K-12: a natural QH in hand counts 50, not 10
            hv.append(v)
        credited = self._credited()
        tv = [sum(vals[c] for c in cs) for cs in credited]
        plain = natural_values()
        self.plain_tv = [sum(plain[c] for c in cs) for cs in credited]
        self.plain_hv = [sum(plain[c] * k for c, k in enumerate(hc) if k) for hc in self.hands]
        self.out_part = [0] * n
        self.mich_part = [0] * n
        self.money_part = [0] * n
        self.unzeroed_hv = list(hv)
        if out >= 0:
            self.out_part[out] = self.out_bonus
            if self.cfg.michigan:  # V5K-7: the goer collects, the others subtract nothing
                # V5K-9 (trace spec): in Persian 5000 only the two opponents' hands, and the
                # partner's hand counts against the team as usual
                payers = opponents_of(out) if self.teams else [s for s in range(n) if s != out]
                self.mich_part[out] = sum(hv[s] for s in payers)
                hv = [0 if s in payers else hv[s] for s in range(n)]
        if self.cfg.money:
            for s, cs in enumerate(credited):
                qh = cs.count(QH) if wild != 12 else 0
                sh = cs.count(SEVEN_H) if wild != 7 else 0
                self.money_part[s] = 100 * min(qh, sh, 2)
        bonus = [self.out_part[s] + self.mich_part[s] + self.money_part[s] for s in range(n)]
        self.exp_tv, self.exp_hv, self.exp_bonus = tv, hv, bonus
        self.exp_hs = [bonus[s] + tv[s] - hv[s] for s in range(n)]

    def check_conservation(self) -> None:
        """C-CARD-CONSERVATION: each of the 104 cards in exactly one place."""
        total = [0] * 64
        for c in self.stock[self.stock_pos:]:
            total[c] += 1
        for c in self.pile:
            total[c] += 1
        for hc in self.hands:
            for c in range(64):
                total[c] += hc[c]
        for m in self.melds:
            for _, c, _ in m.slots:
                total[c] += 1
        if self.phase == P_CARDS:  # cards of the group being read
            for c, _ in self.group_cards:
                total[c] += 1
        for c in NATURAL_IDS:
            if total[c] != 2:
                self.fail("C-CARD-CONSERVATION", f"{card_name(c)}: {total[c]} copies in play, "
                                                  "the pack has 2")
        for s in range(self.n):
            if sum(self.hands[s]) != self.hand_size[s]:
                self.fail("C-CARD-CONSERVATION", f"seat {s}'s hand count is inconsistent")

    def _score(self, row: list[int]) -> None:
        if self.phase != P_SCORE:
            self._unexpected(row)
        seat, hs, tot, tv, hv, bonus = row[1], row[2], row[3], row[4], row[5], row[6]
        if seat != self.score_seat:
            self.fail("TRACE-FORMAT", f"SCORE for seat {seat}, expected seat {self.score_seat}")
        if tv != self.exp_tv[seat]:
            rule = "R5K-VAL-2" if tv == self.plain_tv[seat] else "R5K-SCORE-1"
            self.flag(rule, f"seat {seat} table_value {tv}, expected {self.exp_tv[seat]} "
                             "(credited table cards)")
        if hv != self.exp_hv[seat]:
            self.flag(self._hand_value_rule(seat, hv),
                       f"seat {seat} hand_value {hv}, expected {self.exp_hv[seat]}")
        if bonus != self.exp_bonus[seat]:
            self.flag(self._bonus_rule(seat, bonus),
                       f"seat {seat} bonus {bonus}, expected {self.exp_bonus[seat]} (going out "
                       f"{self.out_part[seat]}, Michigan {self.mich_part[seat]}, money cards "
                       f"{self.money_part[seat]})")
        if hs != bonus + tv - hv:
            self.flag("R5K-SCORE-1", f"seat {seat} hand_score {hs} != bonus {bonus} + "
                                      f"table_value {tv} - hand_value {hv}")
        if self.teams:
            self.score_rows.append(row)  # total_after is the team total: see TEAM_SCORE
        elif tot != self.trace_totals[seat] + hs:
            self.flag("C-SCORE-3", f"seat {seat} total_after {tot} != previous total "
                                    f"{self.trace_totals[seat]} + hand_score {hs}")
        self.trace_totals[seat] = tot
        self.true_totals[seat] += self.exp_hs[seat]
        self.score_seat += 1
        if self.score_seat == self.n:
            self.hands_played += 1
            self.dealer = (self.dealer + 1) % self.n  # R5K-DEAL-3
            if self.teams:
                self.ledger.add_hand(self.exp_hs)
                self.team_seen = 0
                self.phase = P_TEAM_SCORE
            else:
                self._decide_game_end()

    def _team_score(self, row: list[int]) -> None:
        """V5K-9: the two TEAM_SCORE records after the SCORE records of a Persian 5000 hand."""
        if self.phase != P_TEAM_SCORE:
            if not self.teams:
                self.fail("TRACE-FORMAT", "TEAM_SCORE in a game without partnerships")
            self._unexpected(row)
        team = row[1]
        if team != self.team_seen:
            self.fail("TRACE-FORMAT", f"TEAM_SCORE for team {team}, expected team "
                                      f"{self.team_seen} (team 0, then team 1)")
        for msg in self.ledger.check_team_score(row, self.score_rows):
            self.flag("V5K-9", msg)
        self.team_seen += 1
        if self.team_seen == TEAMS:
            self._decide_game_end()

    def _hand_value_rule(self, seat: int, hv: int) -> str:
        out = self.out_seat
        if self.cfg.michigan and out >= 0 and seat != out:
            return "V5K-7"
        if self.cfg.money and out >= 0 and self.hands[seat][QH] and self.wild != 12:
            return "V5K-12"
        if hv == self.plain_hv[seat]:
            return "R5K-VAL-2"
        return "R5K-SCORE-1"

    def _bonus_rule(self, seat: int, bonus: int) -> str:
        """Which part of the bonus is wrong: the first part that alone explains the trace's
        bonus when the other parts are right (money cards, then going out, then Michigan)."""
        out_p, mich_p, money_p = self.out_part[seat], self.mich_part[seat], self.money_part[seat]
        if self.cfg.money and bonus - out_p - mich_p in (0, 100, 200):
            return "V5K-12"
        if bonus - mich_p - money_p in (0, 200, 300, 500, 700, 800, 1000):
            return "R5K-DRAW-5" if self.end_due == 6 else "R5K-OUT-2"
        if self.cfg.michigan and seat == self.out_seat:
            return "V5K-7"
        return "R5K-SCORE-1"



    def _winner_rule(self) -> str:
        if self.cfg.must_go_out:
            return "V5K-2"
        return "V5K-9" if self.teams else "R5K-GAME-2"

    def _totals(self) -> list[int]:
        """The recomputed totals the game end is decided on: per seat, or per partnership."""
        return self.ledger.true_totals if self.teams else self.true_totals

    def _decide_game_end(self) -> None:
        """R5K-GAME-2 (highest total at or above the target wins; a shared highest total is a
        tie), V5K-2 (only the player who went out, once at the target) and the hand cap; in
        Persian 5000 the same per partnership (V5K-9: winner = team number, a tie every seat)."""
        totals = self._totals()
        out = self.out_seat
        goer = (team_of(out) if self.teams else out) if out >= 0 else -1
        winner, mask, over = -1, 0, False
        if self.cfg.must_go_out:
            if goer >= 0 and totals[goer] >= self.target:
                winner, over = goer, True
        else:
            top = max(totals)
            if top >= self.target:
                over = True
                leaders = [s for s in range(len(totals)) if totals[s] == top]
                if len(leaders) == 1:
                    winner = leaders[0]
                elif self.teams:
                    mask = ALL_SEATS_MASK
                else:
                    mask = sum(1 << s for s in leaders)
        if over:
            self.exp_winner, self.exp_capped, self.exp_mask = winner, 0, mask
            self.phase = P_GAME_OVER
        elif self.hands_played >= self.cfg.max_hands:
            self.exp_winner, self.exp_capped, self.exp_mask = -1, 1, 0
            self.phase = P_GAME_OVER
        else:
            self.phase = P_HAND_START

    def _game_end(self, row: list[int]) -> None:
        winner, n_hands, capped, mask = row[1], row[2], row[3], row[4]
        if self.phase == P_HAND_START:
            rule = self._winner_rule()
            why = (f"no seat that went out reached the target {self.target}"
                   if self.cfg.must_go_out else f"no total reached the target {self.target}")
            if capped:
                rule, why = "ENGINE-HAND-CAP", (f"hand cap is {self.cfg.max_hands}, "
                                                f"{self.hands_played} hands played")
            self.flag(rule, f"GAME_END (winner {winner}) but the game goes on: {why} "
                             f"(totals {self._totals()})")
        elif self.phase != P_GAME_OVER:
            self._unexpected(row)
        elif (winner, capped, mask) != (self.exp_winner, self.exp_capped, self.exp_mask):
            rule = "ENGINE-HAND-CAP" if self.exp_capped else self._winner_rule()
            self.flag(rule, f"GAME_END winner {winner} capped {capped} tie mask {mask}; expected "
                             f"winner {self.exp_winner} capped {self.exp_capped} tie mask "
                             f"{self.exp_mask} (totals {self._totals()})")
        if n_hands != self.hands_played:
            self.flag("TRACE-FORMAT", f"GAME_END n_hands {n_hands}, {self.hands_played} played")
        self.phase = P_DONE
