"""Rummikub round end, scores and game end: HAND_END reasons (RKUB-END-1/2, the engine turn cap),
tile conservation, the expected SCORE columns (RKUB-SCORE-1, VKUB-JOKER25, RKUB-END-2 with AMB-42)
and GAME_END (RKUB-GAME-1, the engine hand cap)."""

from __future__ import annotations

from collections import Counter

from rummysim.validate.rummikub.phases import (
    END_OUT,
    END_PASSES,
    END_RULES,
    END_TURN_CAP,
    P_DECK,
    P_DONE,
    P_FIRST_TILE,
    P_GAME_OVER,
    P_HAND_START,
    P_OUT,
    P_SCORE,
    P_TURN,
)
from rummysim.validate.rummikub.tiles import JOKER, PACK, rack_value, tile_name
from rummysim.validate.trace import Replayer


def out_scores(values: list[int], out: int) -> list[int]:
    """RKUB-SCORE-1: each other seat scores minus its rack, the seat that went out their sum."""
    scores = [-v for v in values]
    scores[out] = sum(values) - values[out]
    return scores


def pool_end_scores(values: list[int]) -> list[int]:
    """RKUB-END-2 with AMB-42: differences from the lowest rack; the seats holding it share the
    sum of the differences, the remainder one point each to the first of them in seat order."""
    low = min(values)
    total = sum(v - low for v in values)
    winners = [s for s, v in enumerate(values) if v == low]
    share, extra = divmod(total, len(winners))
    scores = [-(v - low) for v in values]
    for k, s in enumerate(winners):
        scores[s] = share + (1 if k < extra else 0)
    return scores


class Scoring(Replayer):
    """Round end, scores and game end of a Rummikub game."""

    def _hand_end(self, row: list[int]) -> None:
        ph = self.phase
        if ph in (P_DECK, P_FIRST_TILE):
            self.fail("TRACE-FORMAT", "HAND_END before the deal was fully listed")
        if ph not in (P_TURN, P_OUT):
            self._unexpected(row)
        reason, out_seat, turns = row[1], row[2], row[3]
        if reason not in END_RULES:
            self.fail("TRACE-FORMAT", f"HAND_END reason {reason} (1 out, 2 passes, 4 turn cap)")
        ok = {END_OUT} if ph == P_OUT else self.end_ok
        if reason not in ok:
            self._wrong_end_reason(reason, ok)
        if out_seat != self.out_seat:
            self.flag("TRACE-FORMAT", f"HAND_END out_seat {out_seat}, expected {self.out_seat}")
        if turns != self.turns:
            self.flag("TRACE-FORMAT", f"HAND_END turns {turns}, {self.turns} played")
        self.check_conservation()
        self._expected_scores()
        self.score_seat = 0
        self.phase = P_SCORE

    def _wrong_end_reason(self, reason: int, ok: set[int]) -> None:
        if END_OUT in ok:
            self.flag("RKUB-END-1", f"HAND_END reason {reason}, expected 1 "
                                    f"({self._end_text(END_OUT)})")
        elif reason == END_OUT:
            self.flag("RKUB-END-1", "HAND_END reason 1 but no rack is empty")
        elif reason == END_PASSES:
            self.flag("RKUB-END-2", f"HAND_END reason 2 after {self.passes} consecutive turn(s) "
                                    f"on an empty pool without a play; {self.n} needed")
        elif reason == END_TURN_CAP:
            self.flag("ENGINE-TURN-CAP", f"turn-cap HAND_END after {self.turns} turns; the cap "
                                         f"is {self.cfg.max_turns}")

    def _expected_scores(self) -> None:
        """Rack values and round scores as RULES.md gives them."""
        penalty = self.cfg.joker_penalty
        values = [rack_value(r, penalty) for r in self.racks]
        other = 55 - penalty  # the other value VKUB-JOKER25 allows (30 <-> 25)
        self.other_values = [rack_value(r, other) for r in self.racks]
        self.exp_values = values
        self.jokers_held = any(r[JOKER] for r in self.racks)
        if self.out_seat >= 0:
            self.exp_scores = out_scores(values, self.out_seat)
            self.other_scores = out_scores(self.other_values, self.out_seat)
            self.score_rule = "RKUB-SCORE-1"
        else:
            self.exp_scores = pool_end_scores(values)
            self.other_scores = pool_end_scores(self.other_values)
            self.score_rule = "RKUB-END-2"

    def check_conservation(self) -> None:
        """Every one of the 106 tiles in exactly one place: the pool, a rack, the table."""
        total: Counter[int] = Counter(self.pool[self.pool_pos:])
        for rack in self.racks:
            total.update(rack)
        for c in self.table:
            total.update(p.tile for p in c.tiles)
        if +total != PACK:
            missing = sorted(tile_name(t) for t in (PACK - total).elements())
            extra = sorted(tile_name(t) for t in (total - PACK).elements())
            self.fail("C-CARD-CONSERVATION", f"tiles in play differ from the pack: missing "
                                             f"{missing}, extra {extra}")
        if any(k < 0 for rack in self.racks for k in rack.values()):
            self.fail("C-CARD-CONSERVATION", "a rack holds a negative number of a tile")

    def _score(self, row: list[int]) -> None:
        if self.phase != P_SCORE:
            self._unexpected(row)
        seat, score, total, unused, value = row[1], row[2], row[3], row[4], row[5]
        if seat != self.score_seat:
            self.fail("TRACE-FORMAT", f"SCORE for seat {seat}, expected seat {self.score_seat}")
        if unused != 0:
            self.flag("TRACE-FORMAT", f"SCORE column 4 is {unused}; Rummikub writes 0")
        want = self.exp_values[seat]
        if value != want:
            self.flag(self._joker_or(value == self.other_values[seat]),
                      f"seat {seat} rack_value {value}, expected {want} (joker "
                      f"{self.cfg.joker_penalty})")
        if score != self.exp_scores[seat]:
            self.flag(self._joker_or(score == self.other_scores[seat]),
                      f"seat {seat} round_score {score}, expected {self.exp_scores[seat]} "
                      f"(rack values {self.exp_values}, joker {self.cfg.joker_penalty})")
        if total != self.trace_totals[seat] + score:
            self.flag("C-SCORE-3", f"seat {seat} total_after {total} != previous total "
                                   f"{self.trace_totals[seat]} + round_score {score}")
        self.trace_totals[seat] = total
        self.true_totals[seat] += self.exp_scores[seat]
        self.score_seat += 1
        if self.score_seat == self.n:
            self.rounds_played += 1
            self._decide_game_end()

    def _joker_or(self, other_penalty_fits: bool) -> str:
        """VKUB-JOKER25 when the trace's number is right for the other joker penalty."""
        return "VKUB-JOKER25" if self.jokers_held and other_penalty_fits else self.score_rule

    def _decide_game_end(self) -> None:
        """RKUB-GAME-1: ``rkub_rounds`` rounds, the highest total wins, a shared highest total is
        a tie; the engine hand cap may end the game first."""
        totals = self.true_totals
        if self.rounds_played >= self.cfg.rounds:
            top = max(totals)
            leaders = [s for s in range(self.n) if totals[s] == top]
            winner = leaders[0] if len(leaders) == 1 else -1
            mask = 0 if winner >= 0 else sum(1 << s for s in leaders)
            self.exp_winner, self.exp_capped, self.exp_mask = winner, 0, mask
            self.phase = P_GAME_OVER
        elif self.rounds_played >= self.cfg.max_hands:
            self.exp_winner, self.exp_capped, self.exp_mask = -1, 1, 0
            self.phase = P_GAME_OVER
        else:
            self.phase = P_HAND_START

    def _game_end(self, row: list[int]) -> None:
        winner, n_rounds, capped, mask = row[1], row[2], row[3], row[4]
        if self.phase == P_HAND_START:
            rule, why = "RKUB-GAME-1", (f"{self.rounds_played} of rkub_rounds = "
                                        f"{self.cfg.rounds} rounds played")
            self.flag(rule, f"GAME_END (winner {winner}) but the game goes on: {why}")
        elif self.phase != P_GAME_OVER:
            self._unexpected(row)
        elif (winner, capped, mask) != (self.exp_winner, self.exp_capped, self.exp_mask):
            rule = "ENGINE-HAND-CAP" if self.exp_capped else "RKUB-GAME-1"
            self.flag(rule, f"GAME_END winner {winner} capped {capped} tie mask {mask}; expected "
                            f"winner {self.exp_winner} capped {self.exp_capped} tie mask "
                            f"{self.exp_mask} (totals {self.true_totals})")
        if n_rounds != self.rounds_played:
            self.flag("TRACE-FORMAT", f"GAME_END n_rounds {n_rounds}, {self.rounds_played} "
                                      "played")
        self.phase = P_DONE
