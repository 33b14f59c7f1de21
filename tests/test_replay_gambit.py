"""Tests of the Dealer's gambit rendering of ``rummysim replay`` (``rummysim.replay.gambit``).

Real traced games under each nomination are checked against their own traces: one line per
DEALERS_JOKER, NOMINATE, DOUBLE, SPLIT and BLOCK record, the dealer's joker marked in the melds
and lay-offs it goes into, wild jokers with their designation, and at each hand end the cards out
of play (the split cards and jokers, the blocking and blocked jokers). A hand-made split pins T-18.
"""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from rummysim.checks import traced_game
from rummysim.kernels.common import layout as C
from rummysim.kernels.rum500 import layout as L
from rummysim.replay import GAME_TEXTS, TraceDecoder, format_trace
from rummysim.simulation import prepare
from tests.cardtext import cid

PLAYERS = 3
GAMES = 4


def gambit_games(nominate: int) -> list[tuple[str, np.ndarray]]:
    seat = f"greedy:nominate={nominate}"
    cfg = prepare("dealers-gambit", PLAYERS, f"{seat}:block=1,{seat},{seat}:block=1", ())
    out = []
    for g in range(GAMES):
        trace = traced_game(cfg, 3, g)[0]
        out.append((format_trace(trace, plain=True), trace))
    return out


def count(trace: np.ndarray, kind: int) -> int:
    return int((trace[:, 0] == kind).sum())


def out_of_play(trace: np.ndarray) -> int:
    """Cards out of play by the hands' ends: each split's cards and joker, two jokers per block."""
    splits = trace[trace[:, 0] == L.T_SPLIT]
    return int((splits[:, 4] + 1).sum()) + 2 * count(trace, L.T_BLOCK)


@pytest.mark.parametrize("nominate, effect_word", [(0, "wild"), (1, "double"), (2, "split")])
def test_V500_GAMBIT_every_gambit_record_has_its_line(nominate, effect_word):
    seen = {"double": 0, "split": 0, "block": 0, "dealers joker": 0}
    for text, trace in gambit_games(nominate):
        assert [s for s in text.splitlines() if "?" in s] == []  # no raw record, no unknown part
        lines = text.splitlines()
        hands = count(trace, C.T_HAND_START)
        assert sum("the dealer's joker X lies face up beside" in s for s in lines) == hands
        assert sum(re.search(rf"seat \d nominates {effect_word}:", s) is not None for s in lines) == hands
        assert sum(s.startswith("    double  #") for s in lines) == count(trace, L.T_DOUBLE)
        assert sum(s.startswith("    split   the pile above") for s in lines) == count(trace, L.T_SPLIT)
        assert sum("after the split" in s for s in lines) == count(trace, L.T_SPLIT)
        assert sum("blocks the dealer's joker" in s for s in lines) == count(trace, L.T_BLOCK)
        dealers = (trace[:, 0] == C.T_CARD) & (trace[:, 5] == L.SOURCE_DEALER)
        assert sum("(X the dealer's joker)" in s for s in lines) == int(dealers.sum())
        shown = sum(len(s.split(":", 1)[1].split()) for s in lines if s.startswith("    out of play:"))
        assert shown == out_of_play(trace)
        seen["double"] += count(trace, L.T_DOUBLE)
        seen["split"] += count(trace, L.T_SPLIT)
        seen["block"] += count(trace, L.T_BLOCK)
        seen["dealers joker"] += int(dealers.sum())
        if nominate == 0:
            assert re.search(r"X\((?:[A2-9TJQK][CDHS]|[A2-9TJQK])\)", text)  # a wild joker's designation
    assert seen["block"] > 0
    assert seen[{0: "dealers joker", 1: "double", 2: "split"}[nominate]] > 0


def test_V500_GAMBIT_6_T18_split_lines():
    """T-18's split as the replay shows it: 9D KS and the joker leave play, seat 2 takes 8H 4D 5D."""
    rows = [
        [C.T_GAME_START, 3, 0, 0, 250, 0, 0, 1],
        [C.T_HAND_START, 0, 0, 53, 7, 1, 0, 0],
        [L.T_DEALERS_JOKER, 0, 0, 0, 0, 0, 0, 0],
        [L.T_NOMINATE, 0, L.EFFECT_SPLIT, 0, 0, 0, 0, 0],
    ]
    text = format_trace(np.array(rows, dtype=np.int32), plain=True)
    assert "seat 0 nominates split:" in text
    d = TraceDecoder([[L.T_SPLIT, 2, 1, 4, 2, L.SOURCE_HAND, 0, 0], [C.T_TAKE_PILE, 2, 1, 3, cid("8H"), 0, 0, 0]],
                     True, GAME_TEXTS)
    d.pile = [cid(c) for c in "3C 8H 9D KS 4D 5D".split()]
    d.hands = [[], [], [cid("8C"), cid("8S"), L.JOKER]]
    lines = d.run().splitlines()
    assert lines == ["    split   the pile above pile[1] (8H) and below pile[4] (4D) with a joker from hand: "
                     "9D KS and the joker leave play",
                     "    take    from pile[1] (8H) after the split, 3 card(s): 8H 4D 5D"]
    assert d.pile == [cid("3C")] and sorted(d.hands[2]) == sorted([cid(c) for c in "8C 8S 8H 4D 5D".split()])
    assert sorted(d.out_of_play) == sorted([cid("9D"), cid("KS"), L.JOKER])


def test_replay_command_shows_the_gambit():
    r = subprocess.run([sys.executable, "-m", "rummysim", "replay", "--game", "dealers-gambit", "--players", "3",
                        "--lineup", "greedy:nominate=2", "--seed", "3"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "nominates split" in r.stdout and "split   the pile above" in r.stdout and "out of play:" in r.stdout
