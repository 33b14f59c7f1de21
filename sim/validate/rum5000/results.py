"""The 5000 Rummy result columns the stakes layers add (docs/trace-format.md "Result columns"),
checked against a trace the replayer has accepted.

* V5K-1 Playing to Win (``r5k_payoff = game_point``): game rows have ``payoff_0 ..
  payoff_{n-1}``: 1 for the winner, ``1/k`` for each of ``k`` tied winners (GAME_END column 4,
  the tie mask), else 0 (0 for everyone in a capped game); other runs have no such column.
* V5K-13/14 (a trace with STAKES_START): game rows have ``stake_0``, ``stake_1``, each seat's
  session total of PAYOUT amounts (they sum to 0); hand rows have ``stake`` (PAYOUT hand_stake),
  ``payout_0``, ``payout_1`` (the hand's amounts).

:func:`result_problems` takes the rows as mappings of column name to value (a polars
``DataFrame.row(i, named=True)`` or a dict), so it needs nothing from the kernels.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from rummysim.validate.trace import GAME_END, GAME_START, PAYOUT, STAKES_START, Violation

Row = Mapping[str, object]


def game_point_payoffs(winner: int, capped: int, tie_mask: int, n: int) -> list[float]:
    """V5K-1: the winner gets 1 game point; ``k`` tied winners split it; a capped game pays 0."""
    if capped:
        return [0.0] * n
    if winner >= 0:
        return [1.0 if s == winner else 0.0 for s in range(n)]
    tied = [s for s in range(n) if tie_mask >> s & 1]
    return [1.0 / len(tied) if s in tied else 0.0 for s in range(n)]


def _game_end(rows: Sequence[Sequence[int]]) -> Sequence[int] | None:
    return next((r for r in reversed(rows) if r[0] == GAME_END), None)


def _payoff_problems(rows: Sequence[Sequence[int]], game: Row, payoff: str) -> list[str]:
    n = rows[0][1]
    names = [f"payoff_{s}" for s in range(n)]
    if payoff != "game_point":
        extra = [k for k in game if k.startswith("payoff_")]
        return [f"game row has {extra} but r5k_payoff={payoff}"] if extra else []
    end = _game_end(rows)
    if end is None:
        return ["trace has no GAME_END"]
    exp = game_point_payoffs(end[1], end[3], end[4], n)
    missing = [k for k in names if k not in game]
    if missing:
        return [f"game row lacks {missing} (r5k_payoff=game_point)"]
    got = [float(game[k]) for k in names]  # type: ignore[arg-type]
    if any(abs(g - e) > 1e-9 for g, e in zip(got, exp)):
        return [f"payoffs {got}, expected {exp} (GAME_END winner {end[1]}, capped {end[3]}, "
                f"tie mask {end[4]})"]
    return []


def _stakes_problems(rows: Sequence[Sequence[int]], game: Row, hands: Sequence[Row]) -> list[str]:
    payouts = [r for r in rows if r[0] == PAYOUT]
    per_hand = [(payouts[i], payouts[i + 1]) for i in range(0, len(payouts) - 1, 2)]
    totals = [sum(p[s][2] for p in per_hand) for s in range(2)]
    problems = []
    got = [game.get("stake_0"), game.get("stake_1")]
    if got != totals:
        problems.append(f"game row stake_0, stake_1 = {got}, the PAYOUT amounts sum to {totals}")
    if sum(totals) != 0:
        problems.append(f"session totals {totals} do not sum to 0")
    if hands and len(hands) != len(per_hand):
        problems.append(f"{len(hands)} hand rows for {len(per_hand)} hands with PAYOUT records")
    for h, (row, (p0, p1)) in enumerate(zip(hands, per_hand)):
        exp = {"stake": p0[5], "payout_0": p0[2], "payout_1": p1[2]}
        have = {k: row.get(k) for k in exp}
        if have != exp:
            problems.append(f"hand {h} row {have}, the PAYOUT records give {exp}")
    return problems


def result_problems(trace_rows: Sequence[Sequence[int]], game: Row, hands: Sequence[Row] = (),
                    payoff: str = "difference") -> list[Violation]:
    """Problems of one game's result rows against its trace (one game, starting at GAME_START):
    V5K-1 payoff columns under ``payoff``, and for a stakes session (a STAKES_START record) the
    stake and payout columns (V5K-13 / V5K-14 by the session's mode)."""
    rows = [list(map(int, r)) for r in trace_rows]
    if not rows or rows[0][0] != GAME_START:
        return [Violation(-1, 0, "TRACE-FORMAT", "trace does not start with GAME_START")]
    out = [Violation(rows[0][3], len(rows) - 1, "V5K-1", m)
           for m in _payoff_problems(rows, game, payoff)]
    start = next((r for r in rows if r[0] == STAKES_START), None)
    if start is not None:
        rule = "V5K-13" if start[1] == 1 else "V5K-14"
        out += [Violation(rows[0][3], len(rows) - 1, rule, m)
                for m in _stakes_problems(rows, game, hands)]
    return out
