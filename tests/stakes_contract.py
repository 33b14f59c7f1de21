"""A replay of the stakes bookkeeping of a 5000 Rummy trace, from docs/trace-format.md ("Stakes").

Written from that section only, as a check of the kernels against their own contract in the
stakes tests (the project's independent validator is ``sim/validate/``): it follows the stake,
the last doubler, the betting round and the pot record by record, recomputes every PAYOUT and
the session totals, and checks the game row's ``stake_k``. ``replay_stakes`` returns what it saw,
so tests can ask for particular events (a beaver, a fold, a full betting round).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from rummysim.kernels.rum5000 import layout as L5

DOUBLING, POKER = 1, 2
FOLD, CONCEDE = 7, 8
ANSWERS = (L5.T_DOUBLE_TAKE, L5.T_DOUBLE_FOLD, L5.T_BEAVER)
ROUND = (L5.T_CHECK, L5.T_BET, L5.T_CALL, L5.T_RAISE)


@dataclass
class Seen:
    """Events of one replayed game."""

    mode: int = 0
    auto_double: int = 0
    hand_stakes: list[int] = field(default_factory=list)  # stake at each hand's end (Doubling) or pot
    start_stakes: list[int] = field(default_factory=list)
    reasons: list[int] = field(default_factory=list)
    multipliers: list[int] = field(default_factory=list)
    events: list[tuple[int, ...]] = field(default_factory=list)  # (kind, seat, ...) stakes records in order
    session: list[int] = field(default_factory=lambda: [0, 0])
    hand_diffs: list[int] = field(default_factory=list)


class ContractError(AssertionError):
    pass


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise ContractError(message)


def gammon(d: int) -> int:
    return 3 if d >= 500 else (2 if d >= 250 else 1)


def replay_stakes(trace: np.ndarray, game_row: np.ndarray) -> Seen:
    """Check the stakes records of one game's trace; raise ContractError on the first breach."""
    seen = Seen()
    rows = [tuple(int(x) for x in r) for r in trace]
    _need(rows[0][0] == L5.T_GAME_START and rows[0][4] == 0, "GAME_START: target column must be 0")
    seen.mode = rows[0][7] & 0xFF  # the low byte; bit 8 says the window asks are recorded
    _need(rows[1][0] == L5.T_STAKES_START and rows[1][1] == seen.mode and rows[1][3] == 2 and rows[1][4] == 1,
          f"STAKES_START must follow GAME_START: {rows[1]}")
    seen.auto_double = rows[1][2]
    _need(seen.mode == DOUBLING or seen.auto_double == 0, "auto_double only in Doubling")
    hand = -1
    i = 2
    n = len(rows)
    while i < n:
        r = rows[i]
        kind = r[0]
        if kind == L5.T_HAND_START:
            hand = r[1]
            dealer, first = r[2], r[5]
            i = _hand(rows, i + 1, hand, dealer, first, seen)
            continue
        if kind == L5.T_GAME_END:
            _need(r[2] == 2 and r[3] == 0, f"a session is 2 hands, not capped: {r}")
            a, b = seen.session
            want = (-1, 3) if a == b else ((0 if a > b else 1), 0)
            _need((r[1], r[4]) == want, f"GAME_END {r} for session totals {seen.session}")
            _need([int(game_row[L5.G_STAKE]), int(game_row[L5.G_STAKE + 1])] == seen.session,
                  "game row stake columns differ from the PAYOUT totals")
            _need(i == n - 1, "records after GAME_END")
            return seen
        i += 1
    raise ContractError("no GAME_END")


def _hand(rows, i: int, hand: int, dealer: int, first: int, seen: Seen) -> int:
    """Replay one hand from the record after HAND_START; return the index of the next HAND_START/GAME_END."""
    seen.events.append((L5.T_HAND_START, hand))
    while rows[i][0] in (L5.T_DECK, L5.T_FACE_UP):
        i += 1
    stake = last = -1
    contrib = [0, 0]
    raises = [0, 0]
    loser = -1
    ended = 0
    if seen.mode == DOUBLING:
        _need(rows[i][0] == L5.T_HAND_STAKE, f"HAND_STAKE must follow the deal: {rows[i]}")
        stake = rows[i][1]
        _need(stake == (2 if hand == 0 and seen.auto_double else 1), f"hand {hand} starts at stake {stake} (E66)")
        seen.start_stakes.append(stake)
        i += 1
    else:
        for s in (first, dealer):
            _need(rows[i][0] == L5.T_ANTE and rows[i][1] == s and rows[i][2] == 1, f"ANTE by {s} expected: {rows[i]}")
            contrib[s] = 1
            _need(rows[i][3] == sum(contrib), "ANTE pot_after")
            i += 1
        i, loser = _round(rows, i, first, contrib, raises, seen)
        if loser >= 0:
            ended = CONCEDE
    while True:
        r = rows[i]
        kind = r[0]
        if kind == L5.T_HAND_END:
            break
        if ended:
            raise ContractError(f"the hand went on after a fold or concession: {r}")
        if kind == L5.T_DOUBLE:
            _need(seen.mode == DOUBLING, "DOUBLE outside Doubling")
            doubler, offered = r[1], r[2]
            _need(doubler != last, f"seat {doubler} doubles twice in a row")
            _need(offered == 2 * stake and offered <= L5.MAX_STAKE, f"DOUBLE offers {offered} at stake {stake}")
            a = rows[i + 1]
            _need(a[0] in ANSWERS and a[1] == 1 - doubler, f"DOUBLE must be answered by the other seat: {a}")
            seen.events.append((kind, doubler, offered))
            seen.events.append((a[0], a[1], a[2]))
            if a[0] == L5.T_DOUBLE_FOLD:
                _need(a[2] == stake, "DOUBLE_FOLD loses the stake before the double")
                loser, ended = a[1], FOLD
            else:
                stake = offered if a[0] == L5.T_DOUBLE_TAKE else 2 * offered
                _need(a[2] == stake, f"answer {a} sets stake {stake}")
                last = doubler
                t = rows[i + 2]
                _need(t[0] == L5.T_TURN_START and t[1] == 1 - doubler and t[5] == 0,
                      f"the doubled seat's normal turn must follow: {t} (E72)")
            i += 2
            continue
        if kind == L5.T_CONCEDE:
            _need(seen.mode == POKER and r[3] == 1 and r[2] == sum(contrib), f"CONCEDE in play: {r}")
            _need(rows[i + 1][0] == L5.T_HAND_END, "CONCEDE in play ends the hand")
            loser, ended = r[1], CONCEDE
            seen.events.append((kind, r[1], r[2], r[3]))
            i += 1
            continue
        _need(kind not in (L5.T_DOUBLE_TAKE, L5.T_DOUBLE_FOLD, L5.T_BEAVER, L5.T_ANTE, *ROUND, L5.T_HAND_STAKE),
              f"stakes record out of place: {r}")
        i += 1
    reason = rows[i][1]
    _need(reason == ended if ended else reason not in (FOLD, CONCEDE), f"HAND_END reason {reason} (ended by {ended})")
    seen.reasons.append(reason)
    scores = []
    for s in range(2):
        sc = rows[i + 1 + s]
        _need(sc[0] == L5.T_SCORE and sc[1] == s, "SCORE records follow HAND_END")
        if reason in (FOLD, CONCEDE):
            _need(rows[i][2] == -1 and sc[2] == 0 and sc[4:7] == (0, 0, 0), f"a {reason} hand scores nothing: {sc} (E67)")
        scores.append(sc[2])
    i += 3
    amount, mult = _settle(seen.mode, reason, loser, stake, contrib, scores)
    hand_stake = stake if seen.mode == DOUBLING else sum(contrib)
    seen.hand_stakes.append(hand_stake)
    seen.multipliers.append(mult)
    seen.hand_diffs.append(abs(scores[0] - scores[1]))
    for s in range(2):
        p = rows[i + s]
        seen.session[s] += amount[s]
        _need(p[0] == L5.T_PAYOUT and p[1] == s, f"PAYOUT of seat {s} expected: {p}")
        _need(p[2:6] == (amount[s], seen.session[s], mult, hand_stake),
              f"PAYOUT {p} != amount {amount[s]}, total {seen.session[s]}, x{mult}, stake {hand_stake}")
    return i + 2


def _round(rows, i: int, first: int, contrib: list[int], raises: list[int], seen: Seen) -> tuple[int, int]:
    """Limit-Poker's betting round; returns (next index, conceding seat or -1)."""
    seat = first
    checks = 0
    bet = False
    while True:
        r = rows[i]
        kind = r[0]
        _need(kind in (*ROUND, L5.T_CONCEDE) and r[1] == seat, f"seat {seat} must act in the round: {r}")
        seen.events.append((kind, *r[1:5]))
        to_call = contrib[1 - seat] - contrib[seat]
        if kind == L5.T_CONCEDE:
            _need(r[2] == sum(contrib) and r[3] == 0, f"CONCEDE in the round: {r}")
            _need(rows[i + 1][0] == L5.T_HAND_END, "a concession ends the hand")
            return i + 1, seat
        if kind == L5.T_CHECK:
            _need(not bet and to_call == 0, "CHECK after a bet")
            checks += 1
        elif kind == L5.T_BET:
            _need(not bet and 1 <= r[2] <= 10, f"BET {r}")
            contrib[seat] += r[2]
            bet = True
        elif kind == L5.T_RAISE:
            _need(to_call > 0 and r[2] == to_call and 1 <= r[3] <= 10 and raises[seat] < 2, f"RAISE {r} (E70)")
            contrib[seat] += to_call + r[3]
            raises[seat] += 1
        else:
            _need(to_call > 0 and r[2] == to_call, f"CALL {r}")
            contrib[seat] += to_call
        if kind != L5.T_CHECK:
            _need(r[4 if kind == L5.T_RAISE else 3] == sum(contrib), f"pot_after of {r}")
        i += 1
        if kind == L5.T_CALL or checks == 2:
            _need(rows[i][0] in (L5.T_TURN_START, L5.T_CONCEDE), "play (or a concession before it) follows the round")
            return i, -1
        seat = 1 - seat


def _settle(mode: int, reason: int, loser: int, stake: int, contrib: list[int], scores: list[int]):
    d = scores[0] - scores[1]
    if mode == DOUBLING:
        if reason == FOLD:
            amount, mult = stake, 0
        elif d == 0:
            return [0, 0], 0
        else:
            loser, mult = (1 if d > 0 else 0), gammon(abs(d))
            amount = stake * mult
    else:
        mult = 0
        if reason != CONCEDE:
            if d == 0:
                return [0, 0], 0
            loser = 1 if d > 0 else 0
        amount = contrib[loser]
    return [-amount if s == loser else amount for s in range(2)], mult
