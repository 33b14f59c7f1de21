"""Random legal 500 Rum and Standard Rummy games under combined variation flags, played by a
simple policy written from RULES.md §3 and §7, replayed by the checker with no violation; and the
checker's speed on them.
"""

from __future__ import annotations

import numpy as np
import pytest

import rummysim.validate.trace as T
from rummysim.validate import validate_trace
from tests.tracebuild import B, assert_ok, cname

pytestmark = pytest.mark.usefixtures("paranoid_validator")


# ============================================================================================
# Random legal games under combined flags (a simple policy written from RULES.md §3 and §7)
# ============================================================================================


class _Policy:
    """Plays whole games with a random legal policy through the builder.  It uses every
    variation it can play simply: rummy calls on the card just discarded (lay-off only),
    out-of-turn sets and runs, floating, the unplayable discard, the first-meld minimum,
    four-card runs, two-card stock draws, every end-of-stock mode, the add-opponent lay-offs,
    the 7-card straight bonus, the first player's pile start, winner deals, must-go-out."""

    def __init__(self, seed: int, n: int, flags: dict) -> None:
        import random

        self.rng = random.Random(seed)
        self.n = n
        self.f = flags
        self.std = flags.get("game") == "standard-rummy"
        g = flags.get
        self.going_out = g("std_going_out", "discard_required") if self.std else g(
            "r500_going_out", "floating" if g("r500_unplayable_discard") else "any")
        self.unplayable = bool(g("r500_unplayable_discard"))
        self.call = g("r500_call_rummy", "off")
        self.oot = bool(g("r500_meld_out_of_turn"))
        end = g("std_end_of_stock" if self.std else "r500_end_of_stock", "pile_or_end")
        if g("r500_add_opponent_hand") and g("r500_addopp_stock_out") == "continue_discarding":
            end = "discard_until_out"
        self.end_mode = end
        self.min_run = g("r500_min_new_run", 3)
        self.open_min = g("r500_first_meld_min", 0)
        self.restriction = "top_single" if self.std else g("r500_discard_restriction",
                                                           "top_single")
        self.pickup_strict = bool(g("r500_top_card_must_be_played") or
                                  g("r500_pickup_use") == "new_meld" or
                                  g("r500_no_pickup_to_hit"))
        self.max_turns = g("max_turns_per_hand", 1000)
        self.max_hands = g("max_hands_per_game", 200)
        self.target = g("r500_target", 100 if g("r500_score_divisor") == 5 else 500)

    # ---- helpers ----
    def value(self, c: int, pos: int | None = None) -> int:
        from tests.tracebuild import value
        return value(c, self.f, pos)

    def fit(self, m: dict, c: int):
        """Position spec for laying `c` off alone on meld m (no wrap), or None."""
        if c == 64:
            if m["kind"] == 0:
                return "X" if m["count"] < 4 else None
            if m["hi"] - m["lo"] >= 12:
                return None
            if m["hi"] < (13 if self.std else 14):
                return f"X@{m['hi'] + 1}"
            return f"X@{m['lo'] - 1}" if m["lo"] > 1 else None
        if m["kind"] == 0:
            if m["count"] < 4 and c & 15 == m["key"] and c >> 4 not in m["suits"]:
                return cname(c)
            return None
        if c >> 4 != m["key"] or m["hi"] - m["lo"] >= 12:
            return None
        r = c & 15
        if m["lo"] > 1 and r == m["lo"] - 1:
            return cname(c)
        if m["hi"] < 13 and r == m["hi"] + 1 and r != 1:
            return cname(c)
        if not self.std and m["hi"] == 13 and r == 1 and m["lo"] > 1:
            return cname(c) + "@14"
        return None

    def new_melds(self, hand: list[int]) -> list[tuple[str, list[int]]]:
        """Disjoint new sets and runs (aces low, naturals only) from `hand`."""
        out = []
        used: set[int] = set()
        for r in range(1, 14):
            by_suit: dict[int, int] = {}
            for c in hand:
                if c != 64 and c & 15 == r:
                    by_suit.setdefault(c >> 4, c)
            if len(by_suit) >= 3:
                cs = list(by_suit.values())[:4]
                out.append(("set", cs))
                used.update(cs)
        for s in range(4):
            have = {c & 15 for c in hand if c != 64 and c >> 4 == s and c not in used}
            r = 1
            while r <= 13:
                ln = 0
                while r + ln <= 13 and r + ln in have:
                    ln += 1
                if ln >= max(3, self.min_run):
                    out.append(("run", [16 * s + q for q in range(r, r + ln)]))
                    r += ln
                else:
                    r += 1
        return out

    def meld_value(self, kind: str, cs: list[int]) -> int:
        return sum(self.value(c, (c & 15) if kind == "run" else None) for c in cs)

    # ---- game ----
    def play(self) -> B:
        rng = self.rng
        n = self.n
        b = B(n, dealer=rng.randrange(n), flags=self.f)
        self.b = b
        while True:
            order = b.pack()
            rng.shuffle(order)
            if self.f.get("r500_upcard_mode") == "first_player_choice":
                b.deal(order=self.upchoice_order(b, order))
                first = b.next
                b.start_pile(first, cname(rng.choice(b.hands[first])))
            else:
                b.deal(order=order)
            self.opened = [False] * n
            self.idle = 0
            reason, out = self.play_hand()
            b.end(reason, out if reason == 1 else -1, bonus=self.bonus)
            t = b.totals
            if self.std:
                if b.hand_no >= self.f.get("std_game_hands", 5):
                    top = max(t)
                    return b.game_end(t.index(top) if t.count(top) == 1 else -1)
            else:
                winner = -1
                if self.f.get("r500_must_go_out_to_win"):
                    if out >= 0 and reason == 1 and t[out] >= self.target:
                        winner = out
                elif max(t) >= self.target:
                    reached = [s for s in range(n) if t[s] >= self.target]
                    if (self.f.get("r500_tie_rule") == "goer_wins" and len(reached) >= 2
                            and reason == 1 and out in reached):
                        winner = out
                    elif t.count(max(t)) == 1:
                        winner = t.index(max(t))
                if winner >= 0:
                    return b.game_end(winner)
            if b.hand_no >= self.max_hands:
                return b.game_end(-1, capped=1)

    @staticmethod
    def upchoice_order(b: B, order: list[int]) -> list[int]:
        return order  # the builder deals deal_size + 1 cards to the first player itself

    def play_hand(self) -> tuple[int, int]:
        b = self.b
        self.bonus: dict[int, int] = {}
        while True:
            seat = b.next
            res = self.turn(seat)
            if res:
                return res
            # windows after a discard that does not end the hand
            if self.last_discarder >= 0:
                res = self.windows(self.last_discarder)
                if res:
                    return res

    def end_check(self, drew_last: bool, started_empty: bool, placed: bool):
        b = self.b
        if self.end_mode != "discard_until_out":
            self.idle = self.idle + 1 if (started_empty and not placed) else 0
            if self.idle >= self.n:
                return (3, -1)
        if self.end_mode == "end_immediately" and drew_last and not b.stock:
            return (5, -1)
        if b.turns >= self.max_turns:
            return (4, -1)
        return None

    def turn(self, seat: int):
        b, rng = self.b, self.rng
        hand = b.hands[seat]
        self.last_discarder = -1
        started_empty = not b.stock
        drew = False
        restricted: list[int] = []
        duty = None
        if started_empty and self.end_mode == "reshuffle" and len(b.pile) >= 2:
            b.reshuffle(seat)
            b.draw(seat, start=False)
            drew = True
            started_empty = False
        elif started_empty and self.end_mode == "discard_until_out":
            b.nodraw(seat, over=True)
            if not hand:
                b.float_(seat)
                return self.end_check(False, started_empty, False)
        elif started_empty:
            top = b.pile[-1] if b.pile else None
            if top is None or self.pickup_strict or rng.random() < 0.3 or (
                    len(hand) == 0 and self.restriction != "none"):
                b.nodraw(seat)
                return (2, -1)
            b.take(seat)
            restricted = [] if self.restriction == "none" else [top]
        else:
            deep = self.deep_take(seat) if not self.std and rng.random() < 0.5 else None
            if deep is not None:
                k, cs = deep
                taken = b.pile[k:]
                b.take(seat, k)
                duty = ("set", cs)
                if self.restriction == "any_taken":
                    restricted = list(taken)
            elif b.pile and not self.pickup_strict and rng.random() < 0.2 and len(hand) >= 1:
                top = b.pile[-1]
                b.take(seat)
                if self.restriction != "none":
                    restricted = [top]
            else:
                b.draw(seat)
                drew = True
        placed, run7 = self.plays(seat, restricted, duty)
        if not hand:  # laid down every card
            if self.going_out == "floating":
                b.float_(seat)
                return self.end_check(drew, started_empty, placed)
            return (1, seat)
        choices = [c for c in hand if c not in restricted] or [c for c in hand]
        live = [c for c in choices if any(self.fit(m, c) for m in b.melds)]
        if live and (self.call != "off" or self.unplayable) and rng.random() < 0.6:
            choices = live  # feed rummy calls and playable last discards
        card = rng.choice(choices)
        b.discard(seat, card)
        if not hand:
            if self.unplayable and any(self.fit(m, card) for m in b.melds):
                b.float_(seat)
            else:
                if run7 and self.f.get("r500_seven_straight_bonus"):
                    self.bonus[seat] = self.bonus.get(seat, 0) + \
                        500 // self.f.get("r500_score_divisor", 1)
                return self.addopp(seat)
        res = self.end_check(drew, started_empty, placed)
        if res:
            return res
        self.last_discarder = seat
        return None

    def deep_take(self, seat: int):
        """A pile card below the top making a set with two hand cards of other suits."""
        b = self.b
        hand = b.hands[seat]
        if (self.open_min and not self.opened[seat]) or len(hand) < 3:
            return None
        for k in range(len(b.pile) - 1):
            c = b.pile[k]
            if c == 64:
                continue
            mates: dict[int, int] = {}
            for h in hand:
                if h != 64 and h & 15 == c & 15 and h >> 4 != c >> 4:
                    mates.setdefault(h >> 4, h)
            if len(mates) >= 2:
                return k, [c] + list(mates.values())[:2]
        return None

    def plays(self, seat: int, restricted: list[int], duty) -> tuple[bool, bool]:
        """Melds and lay-offs of the play phase; returns (placed any, laid a 7+ run)."""
        b, rng = self.b, self.rng
        hand = b.hands[seat]
        keep = 0 if self.going_out in ("any", "floating") else 1
        if self.std and self.going_out == "discard_required":
            keep = 1
        placed = False
        run7 = False
        melds = self.new_melds(hand)
        if duty is not None:
            melds = [duty] + [m for m in melds if not set(m[1]) & set(duty[1])]
        if self.open_min and not self.opened[seat]:
            total = sum(self.meld_value(k, cs) for k, cs in melds)
            if total < self.open_min:
                return False, False
        for k, cs in melds:
            if len(hand) - len(cs) < keep and (k, cs) is not duty:
                continue
            left = [c for c in hand if c not in cs]
            if left and all(c in restricted for c in left) and keep:
                continue
            if left and len(left) == 1 and left[0] in restricted:
                continue
            b.meld(seat, k, " ".join(cname(c) for c in cs))
            placed = True
            run7 |= k == "run" and len(cs) >= 7
        if placed:
            self.opened[seat] = True
        if self.opened[seat] or not self.open_min:
            for mid, m in enumerate(b.melds):
                for c in list(hand):
                    if c not in hand or len(hand) - 1 < keep or rng.random() < 0.1:
                        continue
                    left = [x for x in hand if x != c]
                    if left and len(left) == 1 and left[0] in restricted:
                        continue
                    spec = self.fit(m, c)
                    if spec:
                        b.layoff(seat, mid, spec)
                        placed = True
                        self.opened[seat] = True
        return placed, run7

    def addopp(self, out: int):
        """V500-ADDOPP-2 lay-offs on the melds of the player who went out; then the hand ends."""
        b = self.b
        if self.f.get("r500_add_opponent_hand"):
            for d in range(1, self.n):
                s = (out + d) % self.n
                for mid, m in enumerate(b.melds):
                    if m["owner"] != out:
                        continue
                    for c in list(b.hands[s]):
                        spec = self.fit(m, c)
                        if spec:
                            b.addopp(s, mid, spec)
        return (1, out)

    def windows(self, discarder: int):
        b, rng, n = self.b, self.rng, self.n
        while True:
            top = b.pile[-1]
            caller = -1
            if self.call != "off" and rng.random() < 0.6:
                for d in range(1, n):
                    s = (discarder + d) % n
                    if self.open_min and not self.opened[s]:
                        continue
                    if any(self.fit(m, top) for m in b.melds):
                        caller = s
                        break
            if caller < 0:
                break
            started_empty = not b.stock
            b.call(caller, resume=(discarder + 1) % n if self.call == "layoff_only" else None)
            mid, spec = next((i, self.fit(m, top)) for i, m in enumerate(b.melds)
                             if self.fit(m, top))
            b.layoff(caller, mid, spec)
            hand = b.hands[caller]
            if self.call == "layoff_only":
                if not hand:
                    b.float_(caller)
                return self.end_check(False, started_empty, True)  # no out-of-turn window
            if not hand:
                b.float_(caller)
                res = self.end_check(False, started_empty, True)
                return res
            if self.going_out == "discard_required" and len(hand) == 0:
                break
            card = rng.choice(hand)
            b.discard(caller, card)
            if not hand:
                if self.unplayable and any(self.fit(m, card) for m in b.melds):
                    b.float_(caller)
                else:
                    return self.addopp(caller)
            res = self.end_check(False, started_empty, True)
            if res:
                return res
            discarder = caller
        if self.oot:
            for d in range(1, n):
                s = (discarder + d) % n
                hand = b.hands[s]
                melds = self.new_melds(hand)
                if not melds or rng.random() < 0.4:
                    continue
                if self.open_min and not self.opened[s]:
                    if sum(self.meld_value(k, cs) for k, cs in melds) < self.open_min:
                        continue
                keep = 1 if self.going_out == "discard_required" else 0
                todo = [(k, cs) for k, cs in melds]
                chosen = []
                left = len(hand)
                for k, cs in todo:
                    if left - len(cs) >= keep:
                        chosen.append((k, cs))
                        left -= len(cs)
                if not chosen:
                    continue
                if self.open_min and not self.opened[s] and \
                        sum(self.meld_value(k, cs) for k, cs in chosen) < self.open_min:
                    continue
                b.oot(s)
                for k, cs in chosen:
                    b.meld(s, k, " ".join(cname(c) for c in cs))
                self.opened[s] = True
                self.idle = 0
                if not hand:
                    if self.going_out == "floating":
                        b.float_(s)
                    else:
                        return self.addopp(s)
        return None


COMBOS = [
    (3, {"r500_call_rummy": "pile", "r500_meld_out_of_turn": True, "r500_target": 150}),
    (4, {"r500_call_rummy": "top_only", "r500_going_out": "floating", "r500_target": 150}),
    (3, {"r500_call_rummy": "layoff_only", "r500_unplayable_discard": True,
         "r500_going_out": "floating", "r500_end_of_stock": "discard_until_out",
         "max_turns_per_hand": 200, "r500_target": 150}),
    (2, {"r500_boathouse": True, "r500_going_out": "discard_required",
         "r500_discard_restriction": "any_taken", "r500_stock_draw_count": 2,
         "r500_add_opponent_hand": True, "r500_target": 200}),
    (5, {"r500_end_of_stock": "reshuffle", "r500_first_meld_min": 30, "r500_min_new_run": 4,
         "r500_next_dealer": "winner", "r500_target": 150, "max_turns_per_hand": 300}),
    (3, {"r500_end_of_stock": "end_immediately", "r500_card_values": "5_10_15",
         "r500_score_divisor": 5, "r500_seven_straight_bonus": 500, "r500_target": 40,
         "r500_stock_out_hand_penalty": False}),
    (4, {"r500_upcard_mode": "first_player_choice", "r500_must_go_out_to_win": True,
         "r500_tie_rule": "goer_wins", "r500_round_the_corner": True, "r500_target": 120,
         "r500_no_pickup_to_hit": True, "max_hands_per_game": 8}),
    (2, {"r500_add_opponent_hand": True, "r500_addopp_stock_out": "continue_discarding",
         "r500_meld_out_of_turn": True, "r500_call_rummy": "pile", "r500_target": 200,
         "max_turns_per_hand": 300}),
    (3, {"game": "standard-rummy", "std_game_hands": 3, "std_going_out": "any",
         "std_end_of_stock": "reshuffle", "max_turns_per_hand": 300}),
    (4, {"game": "standard-rummy", "std_game_hands": 2, "std_end_of_stock": "discard_until_out",
         "max_turns_per_hand": 300}),
]


@pytest.mark.parametrize("case", range(len(COMBOS)))
def test_random_legal_games_under_combined_flags(case, monkeypatch):
    monkeypatch.setattr(T, "CHECK_CONSERVATION_EVERY_RECORD", case < 3)
    n, flags = COMBOS[case]
    for seed in range(6):
        b = _Policy(100 * case + seed, n, flags).play()
        res = assert_ok(b, flags)
        assert res.actions_checked > 0


def test_validate_a_batch_of_games_with_variations_without_per_record_conservation(monkeypatch):
    """The validator as production runs it (without the debug re-count of every card after every
    record) on three whole games. Its speed is printed, not asserted: tests never assert wall-clock times (a loaded
    machine measured 70,000 records/s where an idle one does over 100,000)."""
    import time

    monkeypatch.setattr(T, "CHECK_CONSERVATION_EVERY_RECORD", False)
    n, flags = COMBOS[0]
    flags = {**flags, "r500_target": 500}
    a = np.concatenate([_Policy(s, n, flags).play().array() for s in range(3)])
    t = time.perf_counter()
    res = validate_trace(a, flags)
    dt = time.perf_counter() - t
    assert res.violations == [] and res.games == 3 and res.actions_checked > 0
    print(f"\n{len(a)} records in {dt * 1000:.1f} ms: {len(a) / dt:,.0f} records/s")
