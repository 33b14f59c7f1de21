"""500 Rum / Standard Rummy hand end, scores and game end: HAND_END reasons, card conservation,
the expected SCORE columns (R500-SCORE-*, V500-STOCKEND, V500-ADDOPP, V500-7STRAIGHT, V500-DIV5,
V500-ACE, V500-CORNER, RSTD-SCORE-1, Persian rummy's V500-PERSIAN-2/3/4, Dealer's gambit's doubled
melds and zero jokers V500-GAMBIT-4/5/9), the partnerships' team totals and TEAM_SCORE records
(V500-PARTNER-2), GAME_BONUS (V500-PERSIAN-5), the next dealer (R500-DEAL-3, V500-WINNERDEALS,
V500-GAMBIT-2) and GAME_END (R500-END-1/2, V500-TIE, V500-MUSTOUT, V500-PARTNER-3,
V500-PERSIAN-5, RSTD-GAME-1, the engine hand cap)."""

from __future__ import annotations

from rummysim.validate.cards import JOKER, card_name
from rummysim.validate.rum500.phases import (
    P_DECK,
    P_DONE,
    P_GAME_BONUS,
    P_GAME_OVER,
    P_HAND_START,
    P_NODRAW,
    P_OUT,
    P_SCORE,
    P_TEAM_SCORE,
    P_TURN,
)
from rummysim.validate.rum500.table import Meld
from rummysim.validate.teams import ALL_SEATS_MASK, TEAMS, opponents_of, team_of
from rummysim.validate.trace import Replayer

PERSIAN_DEALS = 2  # V500-PERSIAN-5: a game is exactly two deals
PERSIAN_OUT_BONUS = 25  # V500-PERSIAN-4
PERSIAN_GAME_BONUS = 50  # V500-PERSIAN-5


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
        self.score_rows: list[list[int]] = []  # partnerships: this hand's SCORE records
        self.phase = P_SCORE

    def _table_credits(self) -> tuple[list[int], list[int]]:
        """(credited table value per seat, the same without V500-ACE four-aces scoring and
        V500-PERSIAN-3 / V500-GAMBIT-5 doubling)."""
        n = self.n
        credit = [0] * n
        plain = [0] * n
        vals = self.vals
        ace_low = self.ace_low
        four = self.cfg.four_aces
        for m in self.melds:
            placed = m.placed
            if self._doubled(m):  # V500-PERSIAN-3: four cards laid at once score double
                for s, c, _ in placed:
                    if s >= 0:
                        credit[s] += 2 * vals[c]
                        plain[s] += vals[c]
            elif m.kind == 0:
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
                for j, (s, c, _) in enumerate(placed):
                    if s < 0:
                        continue  # V500-ADDOPP-2: scores for no one
                    v = vals[c]
                    plain[s] += v
                    credit[s] += self._doubling(m, j) * (self.four_ace_value if bonus4 else v)
            else:
                for j, (s, c, pos) in enumerate(placed):
                    if s < 0:
                        continue
                    if c != JOKER and c & 15 == 1 and self._ace_low(m, pos):
                        v = ace_low
                    else:
                        v = vals[c]
                    credit[s] += self._doubling(m, j) * v
                    plain[s] += v
        return credit, plain

    @staticmethod
    def _doubling(m: Meld, j: int) -> int:
        """2 for a card of the MELD record of a meld a joker doubled (V500-GAMBIT-5), else 1."""
        return 2 if m.sealed and j < m.laid else 1

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
                if out >= 0 and self.teams:
                    bonus[out] = sum(raw[s] for s in opponents_of(out))  # the two opponents'
                elif out >= 0:
                    bonus[out] = sum(raw) - raw[out]
                elif n == 2:
                    bonus = [raw[1], raw[0]]
                elif self.teams:
                    # ADDOPP-3 with two partnerships: each team adds the opponents' remainder
                    bonus = [raw[(s + 1) % n] for s in range(n)]
            else:
                penalty = out >= 0 or cfg.hand_penalty
                hv = raw if penalty else [0] * n
            if self.seven_seat >= 0:
                bonus[self.seven_seat] += cfg.seven_bonus // cfg.divisor
            if self.persian and out >= 0:
                bonus[out] += PERSIAN_OUT_BONUS  # V500-PERSIAN-4
            hs = [tv[s] - hv[s] + bonus[s] for s in range(n)]
        self.exp_tv, self.exp_tv_plain, self.exp_hv, self.exp_bonus, self.exp_hs = (
            tv, plain, hv, bonus, hs
        )
        self.raw_hand_value = raw

    def check_conservation(self) -> None:
        """C-CARD-CONSERVATION: every card is in exactly one place (multiset counts); under
        Dealer's gambit cards may be out of play, and the dealer's joker joins the count once it
        has been used or blocked."""
        total = list(self.out_counts)
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
        dealers_joker = self.dealers_joker_out()
        for c in range(65):
            exp = pc.get(c, 0) + (dealers_joker if c == JOKER else 0)
            if total[c] + tc[c] != exp:
                self.fail(
                    "C-CARD-CONSERVATION",
                    f"{card_name(c)}: {total[c] + tc[c]} copies in play or out of play, the pack "
                    f"has {exp}",
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
            elif self.persian:
                rule = self._persian_value_rule(seat, tv)
            elif self.gambit and self._gambit_table_rule(seat):
                rule = self._gambit_table_rule(seat)
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
            elif self.persian:
                rule = "V500-PERSIAN-2" if self.hands[seat][JOKER] else "V500-PERSIAN-6"
            elif self.gambit and self.hands[seat][JOKER]:
                rule = "V500-GAMBIT-9"  # jokers left in hand score 0
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
            elif self.persian and abs(bonus - exp_bonus) == PERSIAN_OUT_BONUS:
                rule = "V500-PERSIAN-4"  # the seat that went out earns 25
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
        if self.teams:
            self.score_rows.append(row)  # total_after is the team total: see TEAM_SCORE
        elif tot != self.trace_totals[seat] + hs:
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
                self.dealer_rule = "V500-WINNERDEALS"
            elif self.gambit:
                self.dealer = (self.dealer - 1) % self.n  # V500-GAMBIT-2: the deal goes right
                self.dealer_rule = "V500-GAMBIT-2"
            else:
                self.dealer = (self.dealer + 1) % self.n  # R500-DEAL-3, RSTD-SETUP-2
                self.dealer_rule = "V500-WINNERDEALS" if cfg.winner_deals else "R500-DEAL-3"
            if self.teams:
                self.ledger.add_hand(self.exp_hs)
                self.team_seen = 0
                self.phase = P_TEAM_SCORE
            else:
                self._decide_game_end()

    def _persian_value_rule(self, seat: int, tv: int) -> str:
        """The rule a wrong Persian table_value breaks: V500-PERSIAN-3 when it is the value
        without doubling or with every 4-card meld doubled (AMB-21), V500-PERSIAN-2 when the
        seat has jokers on the table, else V500-PERSIAN-6 (R500-SCORE-2's values)."""
        vals = self.vals
        every_four = 0
        jokers = False
        for m in self.melds:
            four = m.count == 4
            for s, c, pos in m.placed:
                if s != seat:
                    continue
                jokers |= c == JOKER
                low = m.kind == 1 and c != JOKER and c & 15 == 1 and self._ace_low(m, pos)
                v = self.ace_low if low else vals[c]
                every_four += 2 * v if four else v
        if tv in (self.exp_tv_plain[seat], every_four):
            return "V500-PERSIAN-3"
        return "V500-PERSIAN-2" if jokers else "V500-PERSIAN-6"

    def _gambit_table_rule(self, seat: int) -> str:
        """The Dealer's gambit rule a wrong table_value of ``seat`` breaks, if its credits hold
        cards of a doubled meld (V500-GAMBIT-5) or jokers, worth 0 (V500-GAMBIT-4); else ''."""
        jokers = False
        for m in self.melds:
            for s, c, _ in m.placed:
                if s == seat:
                    if m.sealed:
                        return "V500-GAMBIT-5"
                    jokers |= c == JOKER
        return "V500-GAMBIT-4" if jokers else ""

    # ---- partnerships: TEAM_SCORE, GAME_BONUS ---------------------------------------------

    def _team_score(self, row: list[int]) -> None:
        """The two TEAM_SCORE records after a partnership hand's SCORE records
        (V500-PARTNER-2: the partners' hand scores added)."""
        if self.phase != P_TEAM_SCORE:
            if not self.teams:
                self.fail("TRACE-FORMAT", "TEAM_SCORE in a game without partnerships")
            self._unexpected(row)
        team = row[1]
        if team != self.team_seen:
            self.fail("TRACE-FORMAT", f"TEAM_SCORE for team {team}, expected team "
                                      f"{self.team_seen} (team 0, then team 1)")
        for msg in self.ledger.check_team_score(row, self.score_rows):
            self.flag(self.ledger.rule, msg)
        self.team_seen += 1
        if self.team_seen == TEAMS:
            self.score_rows = []
            self._decide_game_end()

    def _game_bonus(self, row: list[int]) -> None:
        """V500-PERSIAN-5: after the second deal, the team with the higher total gets 50."""
        ph = self.phase
        if ph == P_GAME_OVER and self.persian and not self.exp_capped:
            if self.exp_winner >= 0:
                why = f"team {self.exp_winner} already had its game bonus"
            else:
                why = (f"the team totals {self.ledger.true_totals} are equal: the game is drawn "
                       "and no bonus is paid (AMB-21)")
            self.flag("V500-PERSIAN-5", f"GAME_BONUS for team {row[1]}, but {why}")
            return
        if ph != P_GAME_BONUS:
            if self.persian and ph in (P_HAND_START, P_TEAM_SCORE):
                self.fail("V500-PERSIAN-5", "GAME_BONUS before both deals are scored")
            self._unexpected(row)
        team = row[1]
        if team != self.exp_winner:
            self.flag("V500-PERSIAN-5", f"GAME_BONUS for team {team}, but team {self.exp_winner} "
                                        f"has the higher total {self.ledger.true_totals}")
        if 0 <= team < TEAMS:
            for msg in self.ledger.check_game_bonus(row, PERSIAN_GAME_BONUS, self.exp_winner):
                self.flag("V500-PERSIAN-5", msg)
        self.phase = P_GAME_OVER

    def _winner_text(self) -> str:
        w = self.exp_winner
        if w < 0:
            return "none"
        return f"team {w}" if self.teams else f"seat {w}"

    def _totals(self) -> list[int]:
        """The recomputed totals the game end is decided on: per seat, or per team."""
        return self.ledger.true_totals if self.teams else self.true_totals

    def _set_game_end(self, winner: int, over: bool, mask: int = 0) -> None:
        """After the scores: GAME_END (naming ``winner``) if ``over`` or at the hand cap, else
        the next hand."""
        self.exp_mask = 0
        if over:
            self.exp_winner, self.exp_capped, self.exp_mask = winner, 0, mask
            self.phase = P_GAME_OVER
        elif self.hands_played >= self.cfg.max_hands:
            self.exp_winner, self.exp_capped = -1, 1
            self.phase = P_GAME_OVER
        else:
            self.exp_winner, self.exp_capped = -1, 0
            self.phase = P_HAND_START

    def _decide_persian_end(self) -> None:
        """V500-PERSIAN-5: exactly two deals; the higher team total gets a GAME_BONUS and wins,
        equal totals are a draw (winner -1, every seat in the tie mask) with no bonus."""
        self.goer_won = False
        self.tied = False
        if self.hands_played < PERSIAN_DEALS:
            self._set_game_end(-1, False)
            return
        leader = self.ledger.leader()
        self._set_game_end(leader, True, 0 if leader >= 0 else ALL_SEATS_MASK)
        if leader >= 0:
            self.phase = P_GAME_BONUS

    def _decide_team_end(self) -> None:
        """V500-PARTNER-3 (a team total at the target, the higher total wins), R500-END-2 per
        team (equal totals at the target: another hand), V500-TIE goer_wins and V500-MUSTOUT for
        the team of the player who went out."""
        totals = self.ledger.true_totals
        cfg = self.cfg
        target = cfg.target
        out_team = team_of(self.out_seat) if self.out_seat >= 0 else -1
        winner = -1
        self.goer_won = False
        if cfg.must_go_out:
            if out_team >= 0 and totals[out_team] >= target:
                winner = out_team
            self.tied = False
        else:
            top = max(totals)
            if top >= target:
                if cfg.tie_rule == "goer_wins" and min(totals) >= target and out_team >= 0:
                    winner = out_team  # both teams at the target: the goer's team wins
                    self.goer_won = True
                else:
                    winner = self.ledger.leader()
            self.tied = top >= target and winner < 0
        self._set_game_end(winner, winner >= 0)

    def _decide_game_end(self) -> None:
        """R500-END-1/2, V500-TIE, V500-MUSTOUT, RSTD-GAME-1 and the engine hand cap; the
        partnerships' team rules (V500-PARTNER-3, V500-PERSIAN-5)."""
        if self.persian:
            self._decide_persian_end()
            return
        if self.teams:
            self._decide_team_end()
            return
        totals = self.true_totals
        cfg = self.cfg
        target = cfg.target
        top = max(totals)
        winner = -1
        game_over = False
        draw_mask = 0
        self.goer_won = False
        leaders = [s for s in range(self.n) if totals[s] == top]
        if self.std:
            # RSTD-GAME-1: std_game_hands hands, the highest total wins; a shared one is a draw
            # (winner -1, the leaders in the tie mask)
            if self.hands_played >= cfg.std_hands:
                game_over = True
                winner = leaders[0] if len(leaders) == 1 else -1
                draw_mask = sum(1 << s for s in leaders) if len(leaders) > 1 else 0
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
        self._set_game_end(winner, winner >= 0 or game_over, draw_mask)

    def _winner_rule(self) -> str:
        if self.std:
            return "RSTD-GAME-1"
        if self.persian:
            return "V500-PERSIAN-5"
        if self.cfg.must_go_out:
            return "V500-MUSTOUT"
        if self.goer_won:
            return "V500-TIE"
        return "V500-PARTNER-3" if self.teams else "R500-END-1"

    def _game_end(self, row: list[int]) -> None:
        if self.phase == P_HAND_START:
            self._game_end_wrong(row)
            return
        if self.phase == P_GAME_BONUS:
            self.flag("V500-PERSIAN-5", f"GAME_END without the GAME_BONUS of 50 for team "
                                        f"{self.exp_winner}, the higher total "
                                        f"{self.ledger.true_totals}")
        elif self.phase != P_GAME_OVER:
            self._unexpected(row)
        winner, n_hands, capped, mask = row[1], row[2], row[3], row[4]
        if winner != self.exp_winner or capped != self.exp_capped or mask != self.exp_mask:
            rule = "ENGINE-HAND-CAP" if self.exp_capped else self._winner_rule()
            self.flag(
                rule,
                f"GAME_END winner {winner} capped {capped} tie mask {mask}; expected winner "
                f"{self.exp_winner} capped {self.exp_capped} tie mask {self.exp_mask} (totals "
                f"{self._totals()})",
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
        elif self.persian:
            rule = "V500-PERSIAN-5"
            why = f"{self.hands_played} deal(s) played; a Persian game is exactly two deals"
        elif self.cfg.must_go_out and max(self._totals()) >= self.cfg.target:
            rule = "V500-MUSTOUT"
            why = (f"only the player (or team) who went out (seat {self.out_seat}) can win, once "
                   f"at the target (totals {self._totals()})")
        elif self.tied:
            rule = "R500-END-2"
            why = f"highest total shared (totals {self._totals()}): another hand is dealt"
        else:
            rule = "V500-PARTNER-3" if self.teams else "R500-END-1"
            why = f"no total reached the target {self.cfg.target} (totals {self._totals()})"
        self.flag(rule, f"GAME_END (winner {winner}) but the game goes on: {why}")
        if n_hands != self.hands_played:
            self.flag("TRACE-FORMAT", f"GAME_END n_hands {n_hands}, {self.hands_played} played")
        self.phase = P_DONE
