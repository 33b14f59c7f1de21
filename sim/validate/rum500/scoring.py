"""500 Rum / Standard Rummy hand end, scores and game end: HAND_END reasons, card conservation,
the expected SCORE columns (R500-SCORE-*, V500-STOCKEND, V500-ADDOPP, V500-7STRAIGHT, V500-DIV5,
V500-ACE, V500-CORNER, RSTD-SCORE-1) and GAME_END (R500-END-1/2, V500-TIE, V500-MUSTOUT,
RSTD-GAME-1, the engine hand cap)."""

from __future__ import annotations

from rummysim.validate.cards import JOKER, card_name
from rummysim.validate.rum500.phases import (
    P_DECK,
    P_DONE,
    P_GAME_OVER,
    P_HAND_START,
    P_NODRAW,
    P_OUT,
    P_SCORE,
    P_TURN,
)
from rummysim.validate.trace import Replayer


class Scoring(Replayer):
    """Hand end, scores and game end of a 500 Rum / Standard Rummy game."""

    def _hand_end(self, row: list[int]) -> None:
        ph = self.phase
        if ph == P_DECK:
            self.fail("TRACE-FORMAT", "HAND_END before the whole pack was listed")
        if ph not in (P_TURN, P_OUT, P_NODRAW):
            self._unexpected(row)
        reason, out_seat, turns = row[1], row[2], row[3]
        due = self.end_due
        if reason not in (1, 2, 3, 4, 5):
            self.fail("TRACE-FORMAT", f"HAND_END reason {reason}")
        if reason not in self.end_ok:
            if due in (1, 2):
                # the hand did end by going out / NO_DRAW, under another reason
                self.flag(
                    self._end_rule(due),
                    f"HAND_END reason {reason}, expected {due} ({self._end_text(due)})",
                )
            elif reason == 1:
                self.flag("R500-OUT-1", "HAND_END reason 1 but no one went out")
            elif reason == 2:
                self.flag("R500-STOCK-1", "HAND_END reason 2 without a NO_DRAW turn")
            elif reason == 3:
                if not self.idle_applies:
                    self.flag("V500-STOCKEND",
                               "idle-guard HAND_END under discard_until_out (no idle guard)")
                else:
                    self.flag(
                        "R500-STOCK-2",
                        f"idle-guard HAND_END after {self.idle} consecutive idle turn(s); the "
                        f"guard needs {self.idle_limit}",
                    )
            elif reason == 5:
                self.flag(
                    "V500-STOCKEND",
                    "HAND_END reason 5 but the last stock card was not drawn in this turn under "
                    f"end_immediately (end of stock mode {self.cfg.end_of_stock})",
                )
            elif due:
                self.flag(
                    self._end_rule(due),
                    f"HAND_END reason {reason}, expected {due} ({self._end_text(due)})",
                )
            else:
                self.flag(
                    "ENGINE-TURN-CAP",
                    f"turn-cap HAND_END after {self.turns} turns; the cap is {self.cfg.max_turns}",
                )
        exp_out = self.out_seat if self.out_seat >= 0 else -1
        if out_seat != exp_out:
            self.flag("TRACE-FORMAT", f"HAND_END out_seat {out_seat}, expected {exp_out}")
        if turns != self.turns:
            self.flag("TRACE-FORMAT", f"HAND_END turns {turns}, {self.turns} played")
        self.check_conservation()
        self._expected_scores()
        self.score_seat = 0
        self.phase = P_SCORE

    def _table_credits(self) -> tuple[list[int], list[int]]:
        """(credited table value per seat, the same without V500-ACE four-aces scoring)."""
        n = self.n
        credit = [0] * n
        plain = [0] * n
        vals = self.vals
        ace_low = self.ace_low
        four = self.cfg.four_aces
        for m in self.melds:
            placed = m.placed
            if m.kind == 0:
                # V500-ACE r500_four_aces_100: four natural aces all credited to one seat
                # (rules-decisions E19)
                bonus4 = (
                    four
                    and m.key == 1
                    and m.count == 4
                    and len(placed) == 4
                    and placed[0][0] >= 0
                    and all(p[0] == placed[0][0] and p[1] != JOKER for p in placed)
                )
                for s, c, _ in placed:
                    if s < 0:
                        continue  # V500-ADDOPP-2: scores for no one
                    v = vals[c]
                    plain[s] += v
                    credit[s] += self.four_ace_value if bonus4 else v
            else:
                for s, c, pos in placed:
                    if s < 0:
                        continue
                    if c != JOKER and c & 15 == 1 and self._ace_low(m, pos):
                        v = ace_low
                    else:
                        v = vals[c]
                    credit[s] += v
                    plain[s] += v
        return credit, plain

    def _expected_scores(self) -> None:
        """Expected SCORE columns (R500-SCORE-*, V500-STOCKEND, V500-ADDOPP, V500-7STRAIGHT,
        V500-DIV5, RSTD-SCORE-1)."""
        n = self.n
        vals = self.vals
        cfg = self.cfg
        out = self.out_seat
        raw = [sum(vals[c] * k for c, k in enumerate(hc) if k) for hc in self.hands]
        bonus = [0] * n
        if self.std:
            tv = [0] * n
            plain = tv
            hv = raw
            if out >= 0:
                bonus[out] = sum(raw) - raw[out]
            hs = list(bonus)
        else:
            tv, plain = self._table_credits()
            if cfg.add_opp:
                hv = [0] * n  # V500-ADDOPP-1/3: no one subtracts hand cards
                if out >= 0:
                    bonus[out] = sum(raw) - raw[out]
                elif n == 2:
                    bonus = [raw[1], raw[0]]
            else:
                penalty = out >= 0 or cfg.hand_penalty
                hv = raw if penalty else [0] * n
            if self.seven_seat >= 0:
                bonus[self.seven_seat] += cfg.seven_bonus // cfg.divisor
            hs = [tv[s] - hv[s] + bonus[s] for s in range(n)]
        self.exp_tv, self.exp_tv_plain, self.exp_hv, self.exp_bonus, self.exp_hs = (
            tv, plain, hv, bonus, hs
        )
        self.raw_hand_value = raw

    def check_conservation(self) -> None:
        """C-CARD-CONSERVATION: every card is in exactly one place (multiset counts)."""
        total = [0] * 65
        for c in self.stock[self.stock_pos :]:
            total[c] += 1
        for c in self.pile:
            total[c] += 1
        for c, k in self.limbo.items():
            total[c] += k
        for hc in self.hands:
            for c in range(65):
                total[c] += hc[c]
        tc = self.table_counts
        pc = self.pack_counts
        for c in range(65):
            if total[c] + tc[c] != pc.get(c, 0):
                self.fail(
                    "C-CARD-CONSERVATION",
                    f"{card_name(c)}: {total[c] + tc[c]} copies in play, pack has {pc.get(c, 0)}",
                )

    def _score(self, row: list[int]) -> None:
        if self.phase != P_SCORE:
            self._unexpected(row)
        seat, hs, tot, tv, hv, bonus = row[1], row[2], row[3], row[4], row[5], row[6]
        if seat != self.score_seat:
            self.fail("TRACE-FORMAT", f"SCORE for seat {seat}, expected seat {self.score_seat}")
        cfg = self.cfg
        out = self.out_seat
        exp_tv = self.exp_tv[seat]
        exp_hv = self.exp_hv[seat]
        exp_bonus = self.exp_bonus[seat]
        exp_hs = self.exp_hs[seat]
        if tv != exp_tv:
            if self.std:
                rule = "RSTD-SCORE-1"  # melded cards score nothing
            elif cfg.four_aces and tv == self.exp_tv_plain[seat]:
                rule = "V500-ACE"
            elif cfg.corner and any(
                m.kind == 1 and any(p[0] == seat and p[1] & 15 == 1 and p[1] != JOKER
                                    for p in m.placed)
                for m in self.melds
            ):
                rule = "V500-CORNER"
            elif cfg.divisor != 1 and tv == exp_tv * cfg.divisor:
                rule = "V500-DIV5"
            else:
                rule = "R500-SCORE-2"
            self.flag(
                rule,
                f"seat {seat} table_value {tv}, expected {exp_tv} (credited table cards)",
            )
        if hv != exp_hv:
            if self.std:
                rule = "RSTD-SCORE-1"
            elif cfg.add_opp:
                rule = "V500-ADDOPP-1" if out >= 0 else "V500-ADDOPP-3"
            elif out < 0 and not cfg.hand_penalty and exp_hv == 0:
                rule = "V500-STOCKEND"  # r500_stock_out_hand_penalty = false
            elif out < 0 and hv == 0:
                rule = "R500-STOCK-1"  # hand cards count against them
            elif cfg.divisor != 1 and hv == exp_hv * cfg.divisor:
                rule = "V500-DIV5"
            else:
                rule = "R500-SCORE-2"
            self.flag(rule, f"seat {seat} hand_value {hv}, expected {exp_hv}")
        if bonus != exp_bonus:
            seven = cfg.seven_bonus // cfg.divisor if cfg.seven_bonus else 0
            if self.std:
                rule = "RSTD-SCORE-1"
            elif seven and (seat == self.seven_seat or bonus - exp_bonus == seven
                            or exp_bonus - bonus == seven):
                rule = "V500-7STRAIGHT"
            elif cfg.add_opp:
                rule = "V500-ADDOPP-1" if out >= 0 else "V500-ADDOPP-3"
            else:
                rule = "R500-OUT-3"  # going out earns no bonus
            self.flag(rule, f"seat {seat} bonus {bonus}, expected {exp_bonus}")
        if self.std:
            if hs != bonus:
                self.flag("RSTD-SCORE-1",
                           f"seat {seat} hand_score {hs} != bonus {bonus} (only the player who "
                           "went out scores)")
        elif hs != tv - hv + bonus:
            self.flag(
                "R500-SCORE-1",
                f"seat {seat} hand_score {hs} != table_value {tv} - hand_value {hv} + bonus "
                f"{bonus}",
            )
        if tot != self.trace_totals[seat] + hs:
            self.flag(
                "R500-SCORE-3",
                f"seat {seat} total_after {tot} != previous total "
                f"{self.trace_totals[seat]} + hand_score {hs}",
            )
        self.trace_totals[seat] = tot
        self.true_totals[seat] += exp_hs
        self.score_seat += 1
        if self.score_seat == self.n:
            self.hands_played += 1
            if cfg.winner_deals and out >= 0:
                self.dealer = out  # V500-WINNERDEALS
            else:
                self.dealer = (self.dealer + 1) % self.n  # R500-DEAL-3, RSTD-SETUP-2
            self._decide_game_end()

    def _decide_game_end(self) -> None:
        """R500-END-1/2, V500-TIE, V500-MUSTOUT, RSTD-GAME-1 and the engine hand cap."""
        totals = self.true_totals
        cfg = self.cfg
        target = cfg.target
        top = max(totals)
        winner = -1
        game_over = False
        self.goer_won = False
        leaders = [s for s in range(self.n) if totals[s] == top]
        if self.std:
            # RSTD-GAME-1: std_game_hands hands, the highest total wins (-1 when shared)
            if self.hands_played >= cfg.std_hands:
                game_over = True
                winner = leaders[0] if len(leaders) == 1 else -1
            self.tied = False
        elif cfg.must_go_out:
            # V500-MUSTOUT: only the player who went out, once at the target, can win
            out = self.out_seat
            if out >= 0 and totals[out] >= target:
                winner = out
            self.tied = False
        else:
            if top >= target:
                if cfg.tie_rule == "goer_wins":
                    reached = [s for s in range(self.n) if totals[s] >= target]
                    if len(reached) >= 2 and self.out_seat in reached:
                        winner = self.out_seat  # V500-TIE goer_wins
                        self.goer_won = True
                if winner < 0 and len(leaders) == 1:
                    winner = leaders[0]  # R500-END-1
                # else: R500-END-2, another hand is dealt
            self.tied = top >= target and winner < 0
        if winner >= 0 or game_over:
            self.exp_winner, self.exp_capped = winner, 0
            self.phase = P_GAME_OVER
        elif self.hands_played >= cfg.max_hands:
            self.exp_winner, self.exp_capped = -1, 1
            self.phase = P_GAME_OVER
        else:
            self.exp_winner, self.exp_capped = -1, 0
            self.phase = P_HAND_START

    def _winner_rule(self) -> str:
        if self.std:
            return "RSTD-GAME-1"
        if self.cfg.must_go_out:
            return "V500-MUSTOUT"
        return "V500-TIE" if self.goer_won else "R500-END-1"

    def _game_end(self, row: list[int]) -> None:
        if self.phase == P_HAND_START:
            self._game_end_wrong(row)
            return
        if self.phase != P_GAME_OVER:
            self._unexpected(row)
        winner, n_hands, capped = row[1], row[2], row[3]
        if winner != self.exp_winner or capped != self.exp_capped:
            rule = "ENGINE-HAND-CAP" if self.exp_capped else self._winner_rule()
            self.flag(
                rule,
                f"GAME_END winner {winner} capped {capped}; expected winner {self.exp_winner} "
                f"capped {self.exp_capped} (totals {self.true_totals})",
            )
        if n_hands != self.hands_played:
            self.flag("TRACE-FORMAT", f"GAME_END n_hands {n_hands}, {self.hands_played} played")
        self.phase = P_DONE

    def _game_end_wrong(self, row: list[int]) -> None:
        """GAME_END where the rules say another hand is dealt."""
        winner, n_hands, capped = row[1], row[2], row[3]
        if capped:
            rule = "ENGINE-HAND-CAP"
            why = f"hand cap is {self.cfg.max_hands}, {self.hands_played} hands played"
        elif self.std:
            rule = "RSTD-GAME-1"
            why = f"{self.hands_played} of std_game_hands={self.cfg.std_hands} hands played"
        elif self.cfg.must_go_out and max(self.true_totals) >= self.cfg.target:
            rule = "V500-MUSTOUT"
            why = (f"only the player who went out (seat {self.out_seat}) can win, once at the "
                   f"target (totals {self.true_totals})")
        elif self.tied:
            rule = "R500-END-2"
            why = f"highest total shared (totals {self.true_totals}): another hand is dealt"
        else:
            rule = "R500-END-1"
            why = f"no total reached the target {self.cfg.target} (totals {self.true_totals})"
        self.flag(rule, f"GAME_END (winner {winner}) but the game goes on: {why}")
        if n_hands != self.hands_played:
            self.flag("TRACE-FORMAT", f"GAME_END n_hands {n_hands}, {self.hands_played} played")
        self.phase = P_DONE
