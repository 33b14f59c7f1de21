"""The 5000 Rummy stakes layers: V5K-13 Doubling and V5K-14 Limit-Poker 5000.

A mixin of :class:`~rummysim.validate.rum5000.replayer.Rum5000Replayer` that replays the stakes
records of docs/trace-format.md ("Stakes: Doubling (V5K-13) and Limit-Poker 5000 (V5K-14)"):
STAKES_START after GAME_START, HAND_STAKE or the antes and the betting round after the deal,
DOUBLE and its answer (DOUBLE_TAKE, BEAVER, DOUBLE_FOLD) or CONCEDE between turns, the hand end
by a fold (reason 7) or a concession (reason 8) with its unreckoned SCORE records, the two PAYOUT
records after every hand and the 2-hand session's GAME_END.  It was written from RULES.md
(V5K-13, V5K-14, §11) and that trace-format section only, as a second opinion on the engine.

Violations name ``V5K-13`` or ``V5K-14`` (RULES.md gives no finer IDs), ``TRACE-FORMAT`` for a
record of the wrong layer or a malformed column, and ``ENGINE-STAKE-CAP`` for the engine's safety
limit on a stake (2^20).  The readings it had to choose are V51 onwards in
docs/rules-decisions.md.
"""

from __future__ import annotations

from typing import NamedTuple, NoReturn

from rummysim.validate.asks import GAME_FEATURE_MASK
from rummysim.validate.rum5000.config import STAKES_DOUBLING, STAKES_LIMIT_POKER, STAKES_NONE
from rummysim.validate.rum5000.phases import (
    END_RULES,
    P_ANSWER,
    P_ANTE,
    P_BETTING,
    P_CARDS,
    P_CONCEDED,
    P_DONE,
    P_DRAW,
    P_FLOAT,
    P_FOLDED,
    P_GAME_OVER,
    P_HAND_STAKE,
    P_HAND_START,
    P_PAYOUT,
    P_PLAY,
    P_SCORE,
    P_STAKES_START,
    P_TURN,
    PHASE_NAMES,
)
from rummysim.validate.trace import (
    ANTE,
    BEAVER,
    BET,
    CALL,
    CHECK,
    CONCEDE,
    STAKE_DOUBLE,
    DOUBLE_FOLD,
    DOUBLE_TAKE,
    HAND_STAKE,
    PAYOUT,
    RAISE,
    RECORD_NAMES,
    STAKES_START,
    Replayer,
)

SESSION_HANDS = 2  # V5K-13, V5K-14: a session (game) is 2 hands
STAKE_CAP = 1 << 20  # the engine's safety limit on a Doubling stake (trace spec)
MAX_CHIPS = 10  # V5K-14: bets and raises are 1..10 chips
MAX_RAISES = 2  # V5K-14: at most two raises per player per hand
GAMMON, BACKGAMMON = 250, 500  # V5K-13: losing by 250-495 pays x2, by 500 or more x3
FOLD_REASON, CONCEDE_REASON = 7, 8  # HAND_END reasons of the stakes layers

STAKE_PHASES = frozenset({P_STAKES_START, P_HAND_STAKE, P_ANSWER, P_FOLDED, P_ANTE, P_BETTING,
                          P_CONCEDED, P_PAYOUT})
STAKE_KINDS = frozenset({STAKES_START, HAND_STAKE, STAKE_DOUBLE, DOUBLE_TAKE, DOUBLE_FOLD, BEAVER, ANTE,
                         CHECK, BET, CALL, RAISE, CONCEDE, PAYOUT})
DOUBLING_KINDS = frozenset({HAND_STAKE, STAKE_DOUBLE, DOUBLE_TAKE, DOUBLE_FOLD, BEAVER})
POKER_KINDS = frozenset({ANTE, CHECK, BET, CALL, RAISE, CONCEDE})
IN_TURN_PHASES = frozenset({P_DRAW, P_PLAY, P_CARDS, P_FLOAT})

_WHAT_NEXT = {
    P_STAKES_START: "STAKES_START must follow GAME_START",
    P_HAND_STAKE: "HAND_STAKE must follow the deal and the upcard",
    P_ANSWER: "a DOUBLE is answered at once by DOUBLE_TAKE, BEAVER or DOUBLE_FOLD",
    P_FOLDED: "a fold ends the hand: HAND_END reason 7 must follow",
    P_ANTE: "each player antes 1 chip after the deal, before the betting round",
    P_BETTING: "the betting round is not over (it ends after CHECK CHECK, a CALL or a CONCEDE)",
    P_CONCEDED: "a concession ends the hand: HAND_END reason 8 must follow",
    P_PAYOUT: "two PAYOUT records (seat 0, seat 1) follow every hand's SCORE records",
}


class Payout(NamedTuple):
    """What a hand's two PAYOUT records must say."""

    amounts: tuple[int, int]
    multiplier: int
    hand_stake: int
    why: str


def doubling_multiple(diff: int) -> int:
    """V5K-13: x1, x2 when losing by 250-495, x3 when losing by 500 or more (``diff`` > 0)."""
    return 3 if diff >= BACKGAMMON else 2 if diff >= GAMMON else 1


class StakesChecks(Replayer):
    """Doubling and Limit-Poker bookkeeping of a 2-player 5000 Rummy session."""

    # ---- hooks the replayer calls --------------------------------------------------------

    def _stakes_game_start(self, row: list[int]) -> None:
        """After GAME_START: column 7 is the stakes mode; a session is for 2 players."""
        mode = self.cfg.stakes
        self.session_true = [0, 0]  # recomputed session totals
        self.session_trace = [0, 0]  # as the PAYOUT records state them
        self.auto_double = False
        self.end_kind = 0
        self.gate = -1
        if row[7] & GAME_FEATURE_MASK != mode:
            self.flag("TRACE-FORMAT", f"GAME_START stakes mode {row[7] & GAME_FEATURE_MASK}, but the flags give "
                                      f"{mode} (0 none, 1 Doubling, 2 Limit-Poker)")
        if mode == STAKES_NONE:
            return
        if self.n != 2:
            self.fail(self._stakes_rule(), f"{self.n} players; the stakes layer is for 2 "
                                           "players only")
        self.phase = P_STAKES_START

    def _stakes_hand_start(self) -> None:
        """After the deal and the upcard: HAND_STAKE (Doubling) or the antes (Limit-Poker)."""
        self.end_kind = 0
        self.gate = -1
        self.hand_scores = [0, 0]
        mode = self.cfg.stakes
        if mode == STAKES_DOUBLING:
            self.stake = 1
            self.last_doubler = -1
            self.phase = P_HAND_STAKE
        elif mode == STAKES_LIMIT_POKER:
            self.contrib = [0, 0]
            self.raises = [0, 0]
            self.bet_made = False
            self.checks = 0
            self.antes = 0
            self.actor = self.next_seat  # the first player (the non-dealer)
            self.phase = P_ANTE

    def _stakes_rule(self) -> str:
        return "V5K-13" if self.cfg.stakes == STAKES_DOUBLING else "V5K-14"

    def _stakes_unexpected(self, row: list[int]) -> NoReturn:
        """A record out of place in a stakes phase, or a stakes record out of place."""
        kind, ph = row[0], self.phase
        name = RECORD_NAMES.get(kind, str(kind))
        if self.cfg.stakes == STAKES_NONE:
            self.fail("TRACE-FORMAT", f"{name} in a game without a stakes layer")
        rule = self._stakes_rule()
        if ph in _WHAT_NEXT:
            msg = f"{name} where {_WHAT_NEXT[ph]}"
        elif ph in IN_TURN_PHASES:
            msg = f"{name} inside seat {self.cur}'s turn: stake records come only between turns"
        elif ph == P_TURN and self.end_due:
            rule = END_RULES[self.end_due]
            msg = f"{name} where the hand must end ({self._end_text(self.end_due)})"
        else:
            msg = f"{name} out of place ({PHASE_NAMES.get(ph, ph)})"
        self.fail(rule, msg)

    def _need_mode(self, row: list[int], mode: int) -> None:
        if self.cfg.stakes != mode:
            name = RECORD_NAMES[row[0]]
            self.fail("TRACE-FORMAT", f"{name} in a game whose stakes mode is {self.cfg.stakes}"
                                      f" (0 none, 1 Doubling, 2 Limit-Poker)")

    # ---- session -------------------------------------------------------------------------

    def _stakes_start(self, row: list[int]) -> None:
        if self.phase != P_STAKES_START:
            self._stakes_unexpected(row)
        mode, auto, n_hands, unit = row[1], row[2], row[3], row[4]
        rule = self._stakes_rule()
        if mode != self.cfg.stakes:
            self.flag("TRACE-FORMAT", f"STAKES_START mode {mode}, the flags give "
                                      f"{self.cfg.stakes}")
        if auto not in (0, 1) or (auto and self.cfg.stakes == STAKES_LIMIT_POKER):
            self.flag(rule, f"STAKES_START auto_double {auto} (Doubling: 0 or 1; Limit-Poker: 0)")
        if n_hands != SESSION_HANDS:
            self.flag(rule, f"STAKES_START n_hands {n_hands}; a session is {SESSION_HANDS} hands")
        if unit != 1:
            what = "the stake starts at 1" if rule == "V5K-13" else "each player antes 1 chip"
            self.flag(rule, f"STAKES_START unit {unit}; {what}")
        self.auto_double = auto == 1 and self.cfg.stakes == STAKES_DOUBLING
        self.phase = P_HAND_START

    # ---- Doubling (V5K-13) ---------------------------------------------------------------

    def _hand_stake(self, row: list[int]) -> None:
        self._need_mode(row, STAKES_DOUBLING)
        if self.phase != P_HAND_STAKE:
            self._stakes_unexpected(row)
        exp = 2 if self.hands_played == 0 and self.auto_double else 1
        if row[1] != exp:
            why = ("a tied first-dealer draw doubles hand 0's stake" if exp == 2 else
                   "each hand starts at stake 1 (the automatic double is hand 0's only)")
            self.flag("V5K-13", f"HAND_STAKE {row[1]}, expected {exp}: {why}")
        self.stake = exp
        self.phase = P_TURN

    def _double(self, row: list[int]) -> None:
        self._need_mode(row, STAKES_DOUBLING)
        if self.phase != P_TURN or self.end_due:
            self._stakes_unexpected(row)
        seat, offered = row[1], row[2]
        self._seat_ok(seat, "DOUBLE")
        nxt = self.next_seat
        if seat == nxt:
            self.flag("V5K-13", f"seat {seat} doubles just before its own turn; a player doubles "
                                "just before the opponent draws")
        if seat == self.last_doubler:
            self.flag("V5K-13", f"seat {seat} doubles twice in a row (its last DOUBLE was "
                                "accepted and the other seat has not doubled since)")
        if offered != 2 * self.stake:
            self.flag("V5K-13", f"DOUBLE offers stake {offered}; 2 x the stake {self.stake} is "
                                f"{2 * self.stake}")
        if 2 * self.stake > STAKE_CAP:
            self.flag("ENGINE-STAKE-CAP", f"DOUBLE to {2 * self.stake} over the engine limit "
                                          f"{STAKE_CAP}")
        self.doubler = seat
        self.offered = 2 * self.stake
        self.phase = P_ANSWER

    def _answer_seat(self, row: list[int]) -> None:
        self._need_mode(row, STAKES_DOUBLING)
        if self.phase != P_ANSWER:
            self._stakes_unexpected(row)
        doubled = 1 - self.doubler
        if row[1] != doubled:
            self.flag("V5K-13", f"{RECORD_NAMES[row[0]]} by seat {row[1]}; only the doubled "
                                f"seat {doubled} answers seat {self.doubler}'s DOUBLE")

    def _double_take(self, row: list[int]) -> None:
        self._answer_seat(row)
        if row[2] != self.offered:
            self.flag("V5K-13", f"DOUBLE_TAKE stake {row[2]}; the stake offered is "
                                f"{self.offered}")
        self._stake_raised(self.offered)

    def _beaver(self, row: list[int]) -> None:
        self._answer_seat(row)
        exp = 2 * self.offered
        if row[2] != exp:
            self.flag("V5K-13", f"BEAVER stake {row[2]}; a beaver redoubles the offered "
                                f"{self.offered} to {exp}")
        if exp > STAKE_CAP:
            self.flag("ENGINE-STAKE-CAP", f"BEAVER to {exp} over the engine limit {STAKE_CAP}")
        self._stake_raised(exp)

    def _stake_raised(self, stake: int) -> None:
        """A taken or beavered DOUBLE: the doubler is the last doubler (a beaver keeps the
        doubled seat's right to double next) and the doubled seat's normal turn follows."""
        self.stake = stake
        self.last_doubler = self.doubler
        self.gate = self.next_seat
        self.phase = P_TURN

    def _double_fold(self, row: list[int]) -> None:
        self._answer_seat(row)
        if row[2] != self.stake:
            self.flag("V5K-13", f"DOUBLE_FOLD stake_lost {row[2]}; the folder loses the current "
                                f"stake {self.stake}, not the one offered")
        self.folder = 1 - self.doubler
        self.end_kind = FOLD_REASON
        self.phase = P_FOLDED

    def _turn_start(self, row: list[int]) -> None:
        if self.phase == P_TURN and self.gate >= 0:
            if row[5] != 0 or row[1] != self.gate:
                self.fail("V5K-13", f"TURN_START seat {row[1]} kind {row[5]} after an answered "
                                    f"DOUBLE; the doubled seat {self.gate}'s normal turn follows")
            self.gate = -1
        super()._turn_start(row)

    # ---- Limit-Poker (V5K-14) ------------------------------------------------------------

    def _pot_ok(self, name: str, pot: int) -> None:
        if pot != sum(self.contrib):
            self.flag("V5K-14", f"{name} pot {pot}, but the contributions {self.contrib[0]} + "
                                f"{self.contrib[1]} make {sum(self.contrib)}")

    def _ante(self, row: list[int]) -> None:
        self._need_mode(row, STAKES_LIMIT_POKER)
        if self.phase != P_ANTE:
            self._stakes_unexpected(row)
        seat, chips, pot = row[1], row[2], row[3]
        first = (self.dealer + 1) % 2
        exp_seat = first if self.antes == 0 else self.dealer
        if seat != exp_seat:
            self.flag("V5K-14", f"ANTE by seat {seat}, expected seat {exp_seat} (the first "
                                "player, then the dealer)")
        if chips != 1:
            self.flag("V5K-14", f"ANTE of {chips} chips; each player antes 1 chip")
        self.contrib[exp_seat] += 1
        self._pot_ok("ANTE", pot)
        self.antes += 1
        if self.antes == 2:
            self.phase = P_BETTING

    def _actor(self, row: list[int]) -> int:
        """The seat to act in the betting round; a record by the other seat is flagged."""
        self._need_mode(row, STAKES_LIMIT_POKER)
        if self.phase != P_BETTING:
            self._stakes_unexpected(row)
        a = self.actor
        if row[1] != a:
            self.flag("V5K-14", f"{RECORD_NAMES[row[0]]} by seat {row[1]}; seat {a} acts "
                                "(the non-dealer opens, then the seats alternate)")
        return a

    def _to_call(self, a: int) -> int:
        return self.contrib[1 - a] - self.contrib[a]

    def _chips_ok(self, name: str, chips: int) -> None:
        if not 1 <= chips <= MAX_CHIPS:
            self.flag("V5K-14", f"{name} of {chips} chips; bets and raises are 1 to "
                                f"{MAX_CHIPS} chips")

    def _check(self, row: list[int]) -> None:
        a = self._actor(row)
        if self.bet_made:
            self.flag("V5K-14", "CHECK after a BET: once someone bets, a player calls, raises "
                                "or concedes")
        self.checks += 1
        if self.checks == 2 and not self.bet_made:
            self.phase = P_TURN  # neither bet in the first two actions: no betting
        self.actor = 1 - a

    def _bet(self, row: list[int]) -> None:
        a = self._actor(row)
        if self.bet_made:
            self.flag("V5K-14", "a second BET in the betting round: after the bet the rest are "
                                "raises")
        self._chips_ok("BET", row[2])
        self.contrib[a] += row[2]
        self._pot_ok("BET", row[3])
        self.bet_made = True
        self.actor = 1 - a

    def _call(self, row: list[int]) -> None:
        a = self._actor(row)
        owed = self._to_call(a)
        if owed <= 0:
            self.flag("V5K-14", f"CALL by seat {a} with nothing to call")
        elif row[2] != owed:
            self.flag("V5K-14", f"CALL of {row[2]} chips; {owed} equalizes")
        self.contrib[a] += max(owed, 0)
        self._pot_ok("CALL", row[3])
        self.phase = P_TURN

    def _raise(self, row: list[int]) -> None:
        a = self._actor(row)
        owed, raised = self._to_call(a), row[3]
        if owed <= 0:
            self.flag("V5K-14", f"RAISE by seat {a} with nothing to call (a first bet is a BET)")
        elif row[2] != owed:
            self.flag("V5K-14", f"RAISE call_chips {row[2]}; {owed} equalizes")
        if self.raises[a] >= MAX_RAISES:
            self.flag("V5K-14", f"seat {a}'s raise number {self.raises[a] + 1}; at most "
                                f"{MAX_RAISES} raises per player per hand")
        self._chips_ok("RAISE", raised)
        self.raises[a] += 1
        self.contrib[a] += max(owed, 0) + raised
        self._pot_ok("RAISE", row[4])
        self.actor = 1 - a

    def _concede(self, row: list[int]) -> None:
        self._need_mode(row, STAKES_LIMIT_POKER)
        seat, pot, when = row[1], row[2], row[3]
        if self.phase == P_BETTING:
            self._actor(row)
            exp_when = 0
        elif self.phase == P_TURN and not self.end_due:
            exp_when = 1
            if seat != self.next_seat:
                self.flag("V5K-14", f"seat {seat} concedes before seat {self.next_seat}'s turn; "
                                    "a seat concedes in the betting round or before its own turn")
        else:
            self._stakes_unexpected(row)
        if when != exp_when:
            self.flag("TRACE-FORMAT", f"CONCEDE phase {when}, expected {exp_when} (0 in the "
                                      "betting round, 1 before a turn)")
        self._pot_ok("CONCEDE", pot)
        self.conceder = seat if seat in (0, 1) else self.next_seat
        self.end_kind = CONCEDE_REASON
        self.phase = P_CONCEDED

    # ---- hand end, scores, payouts, game end ---------------------------------------------

    def _hand_end(self, row: list[int]) -> None:
        reason = row[1]
        if self.phase in (P_FOLDED, P_CONCEDED):
            self._stakes_hand_end(row)
            return
        if reason in (FOLD_REASON, CONCEDE_REASON):
            layer = {FOLD_REASON: (STAKES_DOUBLING, "V5K-13", "DOUBLE_FOLD"),
                     CONCEDE_REASON: (STAKES_LIMIT_POKER, "V5K-14", "CONCEDE")}[reason]
            rule = layer[1] if self.cfg.stakes == layer[0] else "TRACE-FORMAT"
            self.fail(rule, f"HAND_END reason {reason} without a {layer[2]}")
        super()._hand_end(row)

    def _stakes_hand_end(self, row: list[int]) -> None:
        """HAND_END after a fold (reason 7) or a concession (reason 8)."""
        reason, out_seat, turns = row[1], row[2], row[3]
        exp = self.end_kind
        if reason != exp:
            what = "a fold" if exp == FOLD_REASON else "a concession"
            self.flag(self._stakes_rule(), f"HAND_END reason {reason} after {what}; expected "
                                           f"{exp}")
        if out_seat != -1:
            self.flag("TRACE-FORMAT", f"HAND_END out_seat {out_seat} after a fold or concession;"
                                      " expected -1")
        if turns != self.turns:
            self.flag("TRACE-FORMAT", f"HAND_END turns {turns}, {self.turns} played")
        self.check_conservation()
        self.score_seat = 0
        self.score_rows = []
        self.phase = P_SCORE

    def _score(self, row: list[int]) -> None:
        if self.phase == P_SCORE and self.cfg.stakes != STAKES_NONE and row[1] in (0, 1):
            self.hand_scores[row[1]] = row[2]
        if self.phase == P_SCORE and self.end_kind:
            self._unreckoned_score(row)
            return
        super()._score(row)

    def _unreckoned_score(self, row: list[int]) -> None:
        """A folded or conceded hand is not reckoned: all zero but seat and an unchanged total."""
        seat, hs, tot, tv, hv, bonus = row[1], row[2], row[3], row[4], row[5], row[6]
        if seat != self.score_seat:
            self.fail("TRACE-FORMAT", f"SCORE for seat {seat}, expected seat {self.score_seat}")
        rule = self._stakes_rule()
        if (hs, tv, hv, bonus) != (0, 0, 0, 0):
            self.flag(rule, f"seat {seat} SCORE hand_score {hs} table_value {tv} hand_value "
                            f"{hv} bonus {bonus}; a folded or conceded hand is not reckoned (0)")
        if tot != self.trace_totals[seat]:
            self.flag(rule, f"seat {seat} total_after {tot} != previous total "
                            f"{self.trace_totals[seat]}; a folded or conceded hand adds nothing")
        self.trace_totals[seat] = tot
        self.score_seat += 1
        if self.score_seat == self.n:
            self.hands_played += 1
            self.dealer = (self.dealer + 1) % self.n  # R5K-DEAL-3
            self._decide_game_end()

    def _decide_game_end(self) -> None:
        if self.cfg.stakes == STAKES_NONE:
            super()._decide_game_end()
            return
        self.payout_seen = 0
        self.paid = [0, 0]
        self.exp_payout = self._expected_payout()
        self.phase = P_PAYOUT

    def _expected_payout(self) -> Payout:
        if self.cfg.stakes == STAKES_DOUBLING:
            return self._doubling_payout()
        return self._poker_payout()

    def _doubling_payout(self) -> Payout:
        """V5K-13: a fold loses the current stake; a played-out hand pays stake x 1/2/3 by the
        difference of the two hand scores (trace spec, E65)."""
        if self.end_kind == FOLD_REASON:
            lost = self.stake
            amounts = [lost, lost]
            amounts[self.folder] = -lost
            return Payout((amounts[0], amounts[1]), 0, lost,
                          f"seat {self.folder} folded and loses the stake {lost}")
        hs = self.hand_scores
        diff = hs[0] - hs[1]
        if diff == 0:
            return Payout((0, 0), 0, self.stake, "the hand scores are equal")
        m = doubling_multiple(abs(diff))
        loser = 1 if diff > 0 else 0
        pay = self.stake * m
        amounts = [pay, pay]
        amounts[loser] = -pay
        return Payout((amounts[0], amounts[1]), m, self.stake,
                      f"seat {loser} loses the hand by {abs(diff)}: stake {self.stake} x {m}")

    def _poker_payout(self) -> Payout:
        """V5K-14: a conceder loses the pot; else the higher hand score takes it, a tie splits
        it (each seat's amount is what it wins from the other's contribution)."""
        c = self.contrib
        pot = c[0] + c[1]
        if self.end_kind == CONCEDE_REASON:
            x = self.conceder
            amounts = [c[x], c[x]]
            amounts[x] = -c[x]
            return Payout((amounts[0], amounts[1]), 0, pot,
                          f"seat {x} conceded the pot of {pot} (its share {c[x]})")
        hs = self.hand_scores
        if hs[0] == hs[1]:
            return Payout((0, 0), 0, pot, "equal hand scores split the pot")
        loser = 0 if hs[0] < hs[1] else 1
        amounts = [c[loser], c[loser]]
        amounts[loser] = -c[loser]
        return Payout((amounts[0], amounts[1]), 0, pot,
                      f"seat {1 - loser}'s higher hand score takes the pot of {pot}")

    def _payout(self, row: list[int]) -> None:
        if self.phase != P_PAYOUT:
            self._stakes_unexpected(row)
        seat, amount, total, mult, stake = row[1], row[2], row[3], row[4], row[5]
        if seat != self.payout_seen:
            self.fail("TRACE-FORMAT", f"PAYOUT for seat {seat}, expected seat "
                                      f"{self.payout_seen} (seat 0, then seat 1)")
        exp = self.exp_payout
        rule = self._stakes_rule()
        if amount != exp.amounts[seat]:
            self.flag(rule, f"seat {seat} PAYOUT amount {amount}, expected "
                            f"{exp.amounts[seat]} ({exp.why})")
        if mult != exp.multiplier:
            self.flag(rule, f"PAYOUT multiplier {mult}, expected {exp.multiplier} ({exp.why})")
        if stake != exp.hand_stake:
            what = "stake" if rule == "V5K-13" else "pot"
            self.flag(rule, f"PAYOUT hand_stake {stake}, expected the {what} {exp.hand_stake}")
        if total != self.session_trace[seat] + amount:
            self.flag(rule, f"seat {seat} session_total_after {total} != previous "
                            f"{self.session_trace[seat]} + amount {amount}")
        self.session_trace[seat] = total
        self.session_true[seat] += exp.amounts[seat]
        self.paid[seat] = amount
        self.payout_seen += 1
        if self.payout_seen == 2:
            self._payouts_done()

    def _payouts_done(self) -> None:
        """Conservation (what one seat pays the other receives), then the next hand or the end
        of the 2-hand session: the higher session total wins, equal totals tie."""
        if self.paid[0] + self.paid[1] != 0:
            self.flag(self._stakes_rule(), f"PAYOUT amounts {self.paid[0]} and {self.paid[1]} "
                                           "do not cancel: what one seat pays the other receives")
        if self.hands_played < SESSION_HANDS:
            self.phase = P_HAND_START
            return
        s0, s1 = self.session_true
        winner = 0 if s0 > s1 else 1 if s1 > s0 else -1
        self.exp_winner, self.exp_capped, self.exp_mask = winner, 0, 3 if winner < 0 else 0
        self.phase = P_GAME_OVER

    def _totals(self) -> list[int]:
        if self.cfg.stakes == STAKES_NONE:
            return super()._totals()
        return self.session_true

    def _winner_rule(self) -> str:
        if self.cfg.stakes == STAKES_NONE:
            return super()._winner_rule()
        return self._stakes_rule()

    def _game_end(self, row: list[int]) -> None:
        if self.cfg.stakes != STAKES_NONE and self.phase == P_HAND_START:
            self.flag(self._stakes_rule(), f"GAME_END after {self.hands_played} hand(s); a "
                                           f"session is {SESSION_HANDS} hands")
            self.phase = P_DONE
            return
        super()._game_end(row)
