"""Thousands of Dealer's gambit games replayed by the independent validator (issue 16, point 1).

The kernels play the gambit in trace mode and ``rummysim.validate`` (written from RULES.md
V500-GAMBIT-1..9 and docs/trace-format.md without reading the kernels) replays every record:
random and greedy lineups naming each nomination (``wild``, ``double``, ``split``), both values of
``r500_gambit_jokers``, 3 and 4 players, the heuristic family, and every 500 Rum variation value
that combines with the gambit. A second pass over the same games counts the gambit's actions, so
a lineup that stopped doubling, splitting, blocking or using the dealer's joker fails here rather
than passing on games that never reached the rules under test.
"""

from __future__ import annotations

import zlib
from collections import Counter

import numpy as np
import pytest

from rummysim.checks import traced_game, validate_run
from rummysim.errors import RummysimError
from rummysim.kernels.common import layout as C
from rummysim.kernels.rum500 import layout as L
from rummysim.simulation import prepare
from tests.test_validation_bulk import FLAG_VALUES, assert_clean

GAME = "dealers-gambit"
NOMINATIONS = {"wild": 0, "double": 1, "split": 2}  # the strategies' ``nominate`` parameter
EFFECTS = {"wild": L.EFFECT_WILD, "double": L.EFFECT_DOUBLE, "split": L.EFFECT_SPLIT}


def greedy(nomination: str) -> str:
    return f"greedy:nominate={NOMINATIONS[nomination]}:block=1"


def seats(players: int, *names: str) -> str:
    """A lineup of ``players`` seats cycling through ``names``."""
    return ",".join(names[s % len(names)] for s in range(players))


def seed_of(*parts: object) -> int:
    return zlib.crc32(repr(parts).encode()) % 1000


def gambit_actions(trace: np.ndarray) -> Counter:
    """The gambit's actions in one trace: nominations by effect, doubles, splits and wild jokers by
    the joker's source (hand or the dealer's joker), blocks, and hands emptied by a MELD and its
    DOUBLE (the HAND_END or FLOAT then follows the DOUBLE)."""
    kind = trace[:, 0]
    out: Counter = Counter()
    for effect in EFFECTS.values():
        out[f"nominate {effect}"] += int(((kind == L.T_NOMINATE) & (trace[:, 2] == effect)).sum())
    jokers = (kind == C.T_CARD) & (trace[:, 3] == L.JOKER)
    for source in (L.SOURCE_HAND, L.SOURCE_DEALER):
        out[f"wild {source}"] += int((jokers & (trace[:, 5] == source)).sum())
        out[f"double {source}"] += int(((kind == L.T_DOUBLE) & (trace[:, 3] == source)).sum())
        out[f"split {source}"] += int(((kind == L.T_SPLIT) & (trace[:, 5] == source)).sum())
    out["block"] += int((kind == L.T_BLOCK).sum())
    after_double = np.flatnonzero(kind[:-1] == L.T_DOUBLE) + 1
    out["out by double"] += int(np.isin(kind[after_double], (C.T_HAND_END, C.T_FLOAT)).sum())
    return out


def count_actions(lineup: str, players: int, rule: list[str], seed: int, games: int) -> Counter:
    cfg = prepare(GAME, players, lineup, rule)
    total: Counter = Counter()
    for g in range(games):
        total += gambit_actions(traced_game(cfg, seed, g)[0])
    return total


CASES = [(nomination, players, jokers) for nomination in ("wild", "double", "split")
         for players in (3, 4) for jokers in (2, 4)]


@pytest.mark.parametrize("nomination, players, jokers", CASES)
def test_greedy_and_mixed_lineups_each_nomination(nomination, players, jokers):
    """150 greedy games and 150 greedy/random games per nomination, player count and pack, with
    blocking on; the greedy games use every way a joker can go (from hand and the dealer's)."""
    rule = [f"r500_gambit_jokers={jokers}"]
    seed = seed_of(nomination, players, jokers)
    for lineup in (greedy(nomination), seats(players, greedy(nomination), "random")):
        report = validate_run(GAME, players=players, lineup=lineup, games=150, seed=seed, rule=rule)
        assert report.games == 150
        assert_clean(report)
    seen = count_actions(greedy(nomination), players, rule, seed, 150)
    effect = EFFECTS[nomination]
    assert seen[f"nominate {effect}"] > 300 and seen["block"] > 0
    if nomination != "wild":
        assert seen[f"{nomination} {L.SOURCE_HAND}"] > 0 and seen[f"{nomination} {L.SOURCE_DEALER}"] > 0
    else:
        assert seen[f"wild {L.SOURCE_HAND}"] > 0 and seen[f"wild {L.SOURCE_DEALER}"] > 0


@pytest.mark.parametrize("players, jokers", [(3, 2), (3, 4), (4, 2), (4, 4)])
def test_random_lineups_name_every_effect(players, jokers):
    """Random dealers name each effect at random: 250 games per player count and pack."""
    rule = [f"r500_gambit_jokers={jokers}"]
    seed = seed_of("random", players, jokers)
    report = validate_run(GAME, players=players, lineup="random", games=250, seed=seed, rule=rule)
    assert_clean(report)
    seen = count_actions("random", players, rule, seed, 60)
    assert all(seen[f"nominate {e}"] > 0 for e in EFFECTS.values())


@pytest.mark.parametrize("nomination", list(NOMINATIONS))
@pytest.mark.parametrize("players", [3, 4])
def test_heuristic_family_lineups(nomination, players):
    """The heuristic and cautious strategies play the gambit too (nominate, double, block)."""
    n = NOMINATIONS[nomination]
    lineup = seats(players, f"heuristic:nominate={n}:block=1", "greedy", f"cautious:nominate={n}", "random")
    seed = seed_of("heuristic", nomination, players)
    report = validate_run(GAME, players=players, lineup=lineup, games=50, seed=seed)
    assert report.games == 50
    assert_clean(report)


def gambit_variations() -> list[str]:
    """Every 500 Rum variation value of the bulk test that the gambit accepts (two decks and
    Persian rummy are refused: V50), and partnerships."""
    out = []
    for flags in FLAG_VALUES + ["r500_partnership=true", "r500_partnership=true r500_partner_layoff=team_only"]:
        try:
            prepare(GAME, 4, "random", flags.split())
        except RummysimError:
            continue
        out.append(flags)
    return out


VARIATIONS = gambit_variations()


def test_every_variation_but_two_decks_combines_with_the_gambit():
    assert len(VARIATIONS) == len(FLAG_VALUES) + 1  # only r500_num_decks=2 is refused


@pytest.mark.parametrize("flags", VARIATIONS)
def test_every_variation_value_with_each_nomination(flags):
    """40 games per nomination under each variation value: rummy calls, V500-UNPLAYABLE, floating,
    V500-ADDOPP, V500-OPEN30, out-of-turn melds and the rest meet the gambit's sealed melds,
    non-wild jokers, splits and the dealer's joker."""
    rule = flags.split()
    for i, nomination in enumerate(NOMINATIONS):
        players = 4 if "partnership" in flags else 3 + i % 2
        lineup = seats(players, greedy(nomination), "random")
        report = validate_run(GAME, players=players, lineup=lineup, games=40, seed=seed_of(flags, nomination),
                              rule=rule + [f"r500_gambit_jokers={2 + 2 * (i % 2)}"])
        assert_clean(report)


def test_hands_emptied_by_a_double_are_replayed():
    """A MELD and its DOUBLE that empty the hand (the HAND_END or FLOAT comes after the DOUBLE) are
    among the games validated: floating and discard-free going out under ``double``."""
    for rule in (["r500_going_out=floating", "r500_gambit_jokers=4"], ["r500_gambit_jokers=4"]):
        seed = seed_of("out", *rule)
        assert_clean(validate_run(GAME, players=3, lineup=greedy("double"), games=300, seed=seed, rule=rule))
        assert count_actions(greedy("double"), 3, rule, seed, 300)["out by double"] > 0, rule
