"""The rules a whole Rummikub table must keep after a turn (docs/trace-format.md "Rummikub",
TABLE rules 1-6): valid combinations, table tiles kept, a rack tile played, the initial meld first
and the joker lock with its retrieval.  Pure functions over combinations; the replayer decides
what a problem means for the replay (a TABLE's are violations, an ATTEMPT needs one of them).

"The turn's old table" is the table at TURN_START, with the INITIAL block's combinations appended
on the initial-meld turn.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rummysim.validate.rummikub.tiles import JOKER, Combo, Problem, combo_problems, tile_name


@dataclass(frozen=True)
class TableRules:
    """The flags the table rules depend on."""

    max_jokers: int  # VKUB-TWOJOKERS
    both_colours: bool  # VKUB-JOKERBOTH
    initial_rule: str  # AMB-38: "total" or "single_combo"
    manipulate_on_initial: bool  # AMB-39


def is_locked(c: Combo) -> bool:
    """RKUB-JOKER-2: a combination holding a joker is locked for the whole turn."""
    return any(p.tile == JOKER for p in c.tiles)


def validity_problems(new: list[Combo], rules: TableRules) -> list[Problem]:
    """Rule 1: every combination valid (RKUB-COMB-1/2, RKUB-JOKER-1, VKUB-TWOJOKERS)."""
    out: list[Problem] = []
    for i, c in enumerate(new):
        out += [Problem(p.rule, f"combination {i}: {p.message}")
                for p in combo_problems(c, rules.max_jokers)]
    return out


def kept_problems(old: list[Combo], new: list[Combo], rack: Counter[int]) -> list[Problem]:
    """Rule 2 (RKUB-MANIP-1, RKUB-COMB-3, RKUB-JOKER-3): the table tiles of the new table (from_rack
    0) are exactly the old table's, and its rack tiles (from_rack 1) are tiles of the rack."""
    before = Counter(p.tile for c in old for p in c.tiles)
    kept = Counter(p.tile for c in new for p in c.tiles if not p.from_rack)
    played = rack_tiles(new)
    out: list[Problem] = []
    for t in sorted(before.keys() | kept.keys()):
        lost = before[t] - kept[t]
        if lost > 0 and t == JOKER:
            out.append(Problem("RKUB-JOKER-3", f"{lost} table joker(s) left the table (a freed "
                                               "joker must be played this turn, never to a rack)"))
        elif lost > 0:
            out.append(Problem("RKUB-MANIP-1", f"{lost} table {tile_name(t)} left the table "
                                               "(no table tile may go to a rack)"))
        elif lost < 0:
            out.append(Problem("RKUB-COMB-3", f"{-lost} more {tile_name(t)} marked as table "
                                              f"tiles than the table holds ({before[t]})"))
    for t, k in sorted(played.items()):
        if rack[t] < k:
            out.append(Problem("C-CARD-CONSERVATION", f"{k} {tile_name(t)} played from the rack, "
                                                      f"which holds {rack[t]}"))
    return out


def rack_tiles(combos: list[Combo]) -> Counter[int]:
    """The tiles of ``combos`` marked from_rack 1."""
    return Counter(p.tile for c in combos for p in c.tiles if p.from_rack)


def played_problems(new: list[Combo], initial_turn: bool) -> list[Problem]:
    """Rule 3 (RKUB-TURN-1, RKUB-MANIP-1): at least one rack tile played; on the initial-meld turn
    the INITIAL block's tiles count."""
    if initial_turn or rack_tiles(new):
        return []
    return [Problem("RKUB-TURN-1", "the table holds no tile from the rack: a play turn must "
                                   "play at least one rack tile")]


def unchanged_problems(old: list[Combo], new: list[Combo]) -> list[Problem]:
    """Rule 4 with ``rkub_manipulate_on_initial_turn = false`` (RKUB-INIT-2, AMB-39): on the
    initial-meld turn the table after the INITIAL block stays exactly as it is."""
    if [c.signature() for c in old] == [c.signature() for c in new] and not rack_tiles(new):
        return []
    return [Problem("RKUB-INIT-2", "the table changes after the initial meld in the same turn "
                                   "(rkub_manipulate_on_initial_turn = false)")]


def origin_problems(old: list[Combo], new: list[Combo]) -> list[Problem]:
    """``from`` columns that name no locked combination of the old table: a format problem, not a
    rule of the table (the validator pairs locked combinations by them)."""
    out: list[Problem] = []
    for j, c in enumerate(new):
        if c.origin == -1:
            continue
        if not 0 <= c.origin < len(old):
            out.append(Problem("TRACE-FORMAT", f"combination {j}: from {c.origin} is not a "
                                               f"combination of the turn's old table "
                                               f"(0..{len(old) - 1})"))
        elif not is_locked(old[c.origin]):
            out.append(Problem("TRACE-FORMAT", f"combination {j}: from {c.origin} names a "
                                               "combination without a joker"))
    return out


def locked_problems(old: list[Combo], new: list[Combo], rules: TableRules) -> list[Problem]:
    """Rule 5 (RKUB-JOKER-2/3, VKUB-JOKERBOTH, AMB-43): each locked combination of the old table
    has exactly one continuation, which keeps its tiles and only grows by rack tiles and jokers,
    or frees a joker by the tile it stands for from the rack."""
    continuations: dict[int, list[int]] = {}
    for j, c in enumerate(new):
        if 0 <= c.origin < len(old):
            continuations.setdefault(c.origin, []).append(j)
    out: list[Problem] = []
    for i, lk in enumerate(old):
        if not is_locked(lk):
            continue
        js = continuations.get(i, [])
        if len(js) != 1:
            how = "has no continuation" if not js else f"continues as combinations {js}"
            out.append(Problem("RKUB-JOKER-2", f"locked combination {i} ({lk.describe()}) {how}: "
                                               "a combination with a joker may not be split, "
                                               "merged or taken apart"))
            continue
        nc = new[js[0]]
        if (nc.kind, nc.key) != (lk.kind, lk.key):
            out.append(Problem("RKUB-JOKER-2", f"locked combination {i} ({lk.describe()}) "
                                               f"continues as {nc.describe()}: another kind"))
            continue
        check = _locked_run if lk.is_run else _locked_group
        out += [Problem(p.rule, f"locked combination {i} ({lk.describe()}) -> combination "
                                f"{js[0]} ({nc.describe()}): {p.message}")
                for p in check(lk, nc, rules)]
    return out


def _locked_run(lk: Combo, nc: Combo, rules: TableRules) -> list[Problem]:
    """A locked run: every number of the old run is still there; at each, a natural tile stays
    (from the table), a joker stays or is freed by its natural tile from the rack; numbers added
    at the ends hold rack tiles or jokers."""
    if nc.lo > lk.lo or nc.hi < lk.hi:
        return [Problem("RKUB-JOKER-2", "tiles were taken off an end")]
    out: list[Problem] = []
    for i, p in enumerate(nc.tiles):
        num = nc.lo + i
        if not lk.lo <= num <= lk.hi:
            if p.tile != JOKER and not p.from_rack:
                out.append(Problem("RKUB-JOKER-2", f"a table tile {tile_name(p.tile)} moved in "
                                                   "(only rack tiles and jokers may be added)"))
            continue
        was = lk.tiles[num - lk.lo]
        if was.tile != JOKER:
            if p.tile != was.tile or p.from_rack:
                out.append(Problem("RKUB-JOKER-2", f"its {tile_name(was.tile)} at number {num} "
                                                   "was moved"))
        elif p.tile != JOKER and not p.from_rack:
            out.append(Problem("RKUB-JOKER-3", f"the joker at number {num} was replaced by a "
                                               f"table tile {tile_name(p.tile)}; only a tile "
                                               "from the rack frees a joker"))
    return out


def _locked_group(lk: Combo, nc: Combo, rules: TableRules) -> list[Problem]:
    """A locked group: its natural tiles stay (from the table), rack tiles may join, and each
    joker freed is replaced by a rack tile of a missing colour (one, or with VKUB-JOKERBOTH
    both, so the group ends with four natural tiles)."""
    was = Counter(p.tile for p in lk.tiles if p.tile != JOKER)
    kept = Counter(p.tile for p in nc.tiles if p.tile != JOKER and not p.from_rack)
    added = sum(1 for p in nc.tiles if p.tile != JOKER and p.from_rack)
    out: list[Problem] = []
    if kept != was:
        gone = sorted(tile_name(t) for t in (was - kept).elements())
        came = sorted(tile_name(t) for t in (kept - was).elements())
        out.append(Problem("RKUB-JOKER-2", f"its natural tiles changed (taken out: {gone}, "
                                           f"table tiles moved in: {came})"))
    freed = lk.jokers - nc.jokers
    if freed > added:
        out.append(Problem("RKUB-JOKER-3", f"{freed} joker(s) freed but only {added} rack "
                                           "tile(s) added to replace them"))
    elif freed > 0 and rules.both_colours and (nc.jokers or len(nc.tiles) != 4):
        out.append(Problem("VKUB-JOKERBOTH", "a joker freed from a group that does not end "
                                             "with four natural tiles (both_colours)"))
    return out


def table_problems(old: list[Combo], new: list[Combo], rules: TableRules,
                   initial_turn: bool) -> list[Problem]:
    """Rules 1, 3, 4 and 5 of a table left after a play (rule 2 is :func:`kept_problems`)."""
    out = validity_problems(new, rules) + played_problems(new, initial_turn)
    if initial_turn and not rules.manipulate_on_initial:
        out += unchanged_problems(old, new)
    return out + locked_problems(old, new, rules)


def initial_value_problem(combos: list[Combo], rule: str) -> Problem | None:
    """RKUB-INIT-30 (AMB-38): the combinations of an initial meld total at least 30, or with
    ``single_combo`` one of them is worth 30 on its own."""
    values = [c.value() for c in combos]
    if rule == "single_combo":
        if max(values, default=0) >= 30:
            return None
        return Problem("RKUB-INIT-30", f"initial meld combinations worth {values}: none reaches "
                                       "30 on its own (rkub_initial_rule = single_combo)")
    if sum(values) >= 30:
        return None
    return Problem("RKUB-INIT-30", f"initial meld worth {sum(values)} {values}; at least 30 "
                                   "needed")


def legal_as_initial_turn(old: list[Combo], new: list[Combo], rules: TableRules) -> bool:
    """Whether a seat without its initial meld could have left ``new`` by a legal initial-meld
    turn (INITIAL + TABLE): the combinations made of rack tiles alone, taken as the initial meld,
    meet RKUB-INIT-30, and the rest is a legal table after it (unchanged under AMB-39 = false).
    A sufficient test: an initial meld later rearranged into mixed combinations is not found."""
    fresh = [c for c in new if _all_from_rack(c)]
    if not fresh or initial_value_problem(fresh, rules.initial_rule) is not None:
        return False
    if validity_problems(new, rules) or locked_problems(old, new, rules):
        return False
    if rules.manipulate_on_initial:
        return True
    rest = [c for c in new if not _all_from_rack(c)]
    return sorted(c.signature() for c in rest) == sorted(c.signature() for c in old)


def _all_from_rack(c: Combo) -> bool:
    """A new combination made of rack tiles alone (what an initial meld lays)."""
    return c.origin == -1 and bool(c.tiles) and all(p.from_rack for p in c.tiles)
