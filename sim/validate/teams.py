"""Partnership play as the trace spec records it, shared by the 500 Rum partnerships (V500-PARTNER,
V500-PERSIAN) and Persian 5000 (V5K-9): docs/trace-format.md, "Partnerships: Partnership 500 rum
and Persian rummy" and "Persian 5000".

Four seats in two teams, the team of seat ``s`` being ``s mod 2`` (partners opposite).  Each SCORE
record's ``total_after`` is the seat's team total, and after the four SCORE records of a hand come
two TEAM_SCORE records, team 0 then team 1 (team, team_hand_score, team_total_after).
:class:`TeamLedger` keeps the team totals of one game twice, as the trace states them and as the
checker recomputes them, and checks those records against each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TEAM_SEATS = 4  # every partnership game has exactly four seats
TEAMS = 2
ALL_SEATS_MASK = 15  # GAME_END column 4 of a draw between the two teams: every seat shares it


def team_of(seat: int) -> int:
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % TEAM_SEATS


def opponents_of(seat: int) -> tuple[int, int]:
    return (seat + 1) % TEAM_SEATS, (seat + 3) % TEAM_SEATS


def team_sum(per_seat: list[int], team: int) -> int:
    """The two partners' values added."""
    return per_seat[team] + per_seat[team + 2]


@dataclass
class TeamLedger:
    """Team totals of one partnership game; ``rule`` is the ID a wrong team score breaks
    (V500-PARTNER-2 in 500 Rum, V5K-9 in Persian 5000)."""

    rule: str
    trace_totals: list[int] = field(default_factory=lambda: [0, 0])  # as the trace states them
    true_totals: list[int] = field(default_factory=lambda: [0, 0])  # recomputed by the checker

    def add_hand(self, expected_hand_scores: list[int]) -> None:
        """The hand's expected seat scores, added to the recomputed team totals."""
        for t in range(TEAMS):
            self.true_totals[t] += team_sum(expected_hand_scores, t)

    def check_team_score(self, row: list[int], scores: list[list[int]]) -> list[str]:
        """Problems with TEAM_SCORE ``row`` given the hand's four SCORE rows (seat order); the
        trace's team total then becomes ``row``'s team_total_after."""
        team, team_hs, team_total = row[1], row[2], row[3]
        before = self.trace_totals[team]
        problems = []
        partners_hs = team_sum([r[2] for r in scores], team)
        if team_hs != partners_hs:
            problems.append(f"TEAM_SCORE of team {team}: team_hand_score {team_hs}, but the "
                            f"partners' hand scores add up to {partners_hs}")
        if team_total != before + team_hs:
            problems.append(f"TEAM_SCORE of team {team}: team_total_after {team_total} != team "
                            f"total before {before} + team_hand_score {team_hs}")
        for seat in (team, team + 2):
            seat_total = scores[seat][3]
            if seat_total != before + partners_hs:
                problems.append(f"seat {seat} total_after {seat_total} is not its team total "
                                f"(team {team}: {before} before + the partners' hand scores "
                                f"{partners_hs})")
        self.trace_totals[team] = team_total
        return problems

    def check_game_bonus(self, row: list[int], bonus: int, winner: int) -> list[str]:
        """Problems with GAME_BONUS ``row`` given the ``bonus`` it is worth (V500-PERSIAN-5); the
        trace's total of the row's team and the recomputed total of ``winner`` rise by it."""
        team, paid, total = row[1], row[2], row[3]
        problems = []
        if paid != bonus:
            problems.append(f"GAME_BONUS of {paid}; the bonus is {bonus}")
        if total != self.trace_totals[team] + paid:
            problems.append(f"GAME_BONUS team_total_after {total} != team total before "
                            f"{self.trace_totals[team]} + bonus {paid}")
        self.trace_totals[team] = total
        self.true_totals[winner] += bonus
        return problems

    def leader(self) -> int:
        """The team with the higher recomputed total, -1 when they are equal."""
        a, b = self.true_totals
        return 0 if a > b else 1 if b > a else -1
