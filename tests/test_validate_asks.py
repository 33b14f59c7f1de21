"""The validator checks who each call and out-of-turn window asks (issue 21 point 11 a).

Reversing the rummy-call priority in the kernels (V500-RUMMY-1) used to change 799 of 800 games
and raise no violation, because the trace held only the winning call.  The kernels now record
every seat a window asks, in order, with its answer (docs/trace-format.md "Window asks"), and the
validator checks the order against RULES.md and that the call turn is the first caller's.  These
tests take kernel traces, plant the bug in them (the asks in reversed priority, a first caller
passed over, a seat left out) and show the validator reports each; the kernel traces themselves
validate clean.
"""

from __future__ import annotations

import numpy as np
import pytest

from rummysim.checks import _kernel_trace_records_asks, traced_game, validate_run
from rummysim.simulation import prepare
from rummysim.validate import validate_trace
from rummysim.validate.asks import ASK_CALL, ASK_CANNOT, ASKS_RECORDED
from rummysim.validate.trace import (CALL_ASK, EXCHANGE, EXCHANGE_ASK, GAME_START, OOT_ASK, RUMMY_ASK,
                                     TURN_START)

RUMMY_500 = ("500-rum-calling", 4, ["r500_meld_out_of_turn=true"])
CALLS_5000 = {"top_card": ("5000-rummy-top-card", 3, []), "any_cards": ("5000-rummy-any-cards", 3, [])}


def traces(game: str, players: int, rule: list[str], count: int = 6) -> list[tuple[np.ndarray, dict]]:
    cfg = prepare(game, players, "random", rule)
    return [(traced_game(cfg, 11, g)[0], cfg.rules.as_dict()) for g in range(count)]


def windows(trace: np.ndarray, kind: int) -> list[tuple[int, int]]:
    """(first row, end row) of every run of ``kind`` records: one window's asks."""
    runs, start = [], None
    for i, k in enumerate(trace[:, 0].tolist() + [0]):
        if k == kind and start is None:
            start = i
        elif k != kind and start is not None:
            runs.append((start, i))
            start = None
    return runs


def rule_ids(trace: np.ndarray, flags: dict) -> set[str]:
    return {v.rule_id for v in validate_trace(trace, flags).violations}


def reversed_asks(trace: np.ndarray, kind: int) -> np.ndarray:
    """The planted bug: every window asks its seats in reversed priority order."""
    out = trace.copy()
    for a, b in windows(trace, kind):
        out[a:b] = trace[a:b][::-1]
    return out


def test_kernel_traces_record_every_window_ask_and_validate_clean():
    game, players, rule = RUMMY_500
    for trace, flags in traces(game, players, rule):
        assert trace[0, 0] == GAME_START and trace[0, 7] == ASKS_RECORDED
        assert validate_trace(trace, flags).ok
        calls = windows(trace, RUMMY_ASK)
        assert calls and windows(trace, OOT_ASK)
        assert all(b - a == players - 1 or trace[b - 1, 2] == ASK_CALL for a, b in calls)
    assert validate_run(game, players=players, games=20, seed=3, rule=rule).ok


def test_reversed_rummy_priority_is_reported():
    game, players, rule = RUMMY_500
    for trace, flags in traces(game, players, rule, 2):
        assert validate_trace(trace, flags).ok
        assert "V500-RUMMY-1" in rule_ids(reversed_asks(trace, RUMMY_ASK), flags)


def test_a_first_caller_passed_over_is_reported():
    """A window whose asks say seat x called first, then another seat's call turn."""
    game, players, rule = RUMMY_500
    planted = 0
    for trace, flags in traces(game, players, rule):
        for a, b in windows(trace, RUMMY_ASK):
            if b - a >= 2 and trace[b - 1, 2] == ASK_CALL and trace[b, 0] == TURN_START:
                bad = trace.copy()
                bad[a, 2:5] = [ASK_CALL, trace[b - 1, 3], 1]  # the first seat asked calls too
                found = validate_trace(bad, flags).violations
                assert any(v.rule_id == "V500-RUMMY-1" and "called first" in v.message for v in found)
                planted += 1
                break
    assert planted > 0


def test_a_seat_left_out_of_a_window_is_reported():
    game, players, rule = RUMMY_500
    trace, flags = traces(game, players, rule, 1)[0]
    a, b = next((a, b) for a, b in windows(trace, RUMMY_ASK) if trace[b - 1, 2] != ASK_CALL)
    bad = np.delete(trace, b - 1, axis=0)  # the last seat of the window is not asked
    found = validate_trace(bad, flags).violations
    assert any(v.rule_id == "V500-RUMMY-1" and "closed before seats" in v.message for v in found)


def test_reversed_out_of_turn_order_is_reported():
    game, players, rule = RUMMY_500
    trace, flags = traces(game, players, rule, 1)[0]
    # reverse only windows of plain asks (no melds between them)
    bad = trace.copy()
    for a, b in windows(trace, OOT_ASK):
        if b - a == players - 1:
            bad[a:b] = trace[a:b][::-1]
    assert "V500-OUTOFTURN" in rule_ids(bad, flags)


@pytest.mark.parametrize("mode", sorted(CALLS_5000))
def test_5000_reversed_call_priority_is_reported(mode):
    game, players, rule = CALLS_5000[mode]
    rule_id = "V5K-4a" if mode == "any_cards" else "V5K-3a"
    for trace, flags in traces(game, players, rule, 3):
        assert trace[0, 7] == ASKS_RECORDED and windows(trace, CALL_ASK)
        assert validate_trace(trace, flags).ok
        assert rule_id in rule_ids(reversed_asks(trace, CALL_ASK), flags)


def test_5000_a_call_the_asks_do_not_give_is_reported():
    """Every seat asked answers 'no legal claim', yet a call turn follows."""
    game, players, rule = CALLS_5000["any_cards"]
    for trace, flags in traces(game, players, rule, 6):
        calls = [(a, b) for a, b in windows(trace, CALL_ASK) if trace[b - 1, 2] == ASK_CALL]
        if calls:
            a, b = calls[0]
            bad = trace.copy()
            bad[a:b, 2:5] = [ASK_CANNOT, -1, 0]
            found = validate_trace(bad, flags).violations
            assert any(v.rule_id == "V5K-4a" and "no seat asked" in v.message for v in found)
            return
    pytest.fail("no call in the games played")


def test_5000_upcard_offer_out_of_order_or_to_the_wrong_seat_is_reported():
    """V5K-11: the offer goes clockwise from the first player's left; the swap is the asked seat's."""
    planted = {"order": 0, "swapper": 0}
    for trace, flags in traces("5000-rummy-exchange", 4, [], 6):
        assert validate_trace(trace, flags).ok
        for a, b in windows(trace, EXCHANGE_ASK):
            if b - a >= 2:  # reverse a window that asked two seats or more
                bad = trace.copy()
                bad[a:b] = trace[a:b][::-1]
                assert "V5K-11" in rule_ids(bad, flags)
                planted["order"] += 1
            if trace[b, 0] == EXCHANGE:  # the swap by another seat than the one that said yes
                bad = trace.copy()
                bad[b - 1, 2] = 1
                found = validate_trace(bad, flags).violations
                assert any(v.rule_id == "V5K-11" and "asks give" in v.message for v in found)
                planted["swapper"] += 1
    assert planted["order"] > 0 and planted["swapper"] > 0


def test_asks_are_checked_only_when_the_trace_declares_them():
    game, players, rule = RUMMY_500
    trace, flags = traces(game, players, rule, 1)[0]
    undeclared = trace.copy()
    undeclared[0, 7] = 0
    assert "TRACE-FORMAT" in rule_ids(undeclared, flags)  # asks present but not declared
    asks = np.isin(trace[:, 0], [RUMMY_ASK, OOT_ASK])
    assert validate_trace(undeclared[~asks], flags).ok  # a hand-built trace without asks
    assert _kernel_trace_records_asks(0, 0, trace) == []
    assert [v.rule_id for v in _kernel_trace_records_asks(0, 0, undeclared)] == ["TRACE-FORMAT"]
