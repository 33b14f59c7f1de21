"""The step API (issue 20, rummysim.stepenv): one engine with simulate, legal games, the AEC cycle.

Kept small (CI's slack is a few minutes): the env compiles its own engine specializations (every
strategy plus the objmode calls), once per cache.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import rummysim
import rummysim.strategies.ids
from rummysim.errors import InputError
from rummysim.kernels.rum500.layout import (
    A_GAMBIT, A_LEN, A_LO, A_MASK, A_MELD, A_NCARDS, A_NJOK, A_SIDE, A_TYPE, ACT_STOP, G_SIZE, G_TOTAL, H_SIZE,
)
from rummysim.simulation import prepare
from rummysim.stepenv.action_ids import KIND_SHIFT
from rummysim.stepenv.observation import ENC_SIZE
from rummysim.strategies.rum500.external import K_CALL, K_DISCARD, K_DRAW, K_PLAY, K_SPLIT

CALLS = {"r500_call_rummy": "pile"}
GAMBIT = {"r500_dealers_gambit": True}


def play_out(env, policy) -> None:
    """Play the env's current game to its end, every agent acting by ``policy(env, agent)``."""
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else policy(env, agent))


def take_hint(env, agent) -> int:
    return env.infos[agent]["hint"]


def simulate_rows(game: str, players: int, lineup: str, seed: int, games: int, rules: dict) -> np.ndarray:
    """The game rows ``simulate`` writes, from the same runner it calls."""
    cfg = prepare(game, players, lineup, [f"{k}={str(v).lower()}" for k, v in rules.items()])
    rows = np.zeros((games, G_SIZE), dtype=np.int64)
    cfg.spec.games_runner()(cfg.vector, cfg.lineup, cfg.params, seed, 0, games, rows,
                            np.zeros((0, 0, H_SIZE), dtype=np.int32))
    return rows


@pytest.mark.parametrize(("game", "players", "lineup", "rules", "games"), [
    ("500-rum", 2, "greedy", {}, 12),
    ("500-rum", 3, "greedy,heuristic,random", CALLS, 8),
    ("500-rum", 3, "greedy,random,cautious", GAMBIT, 4),  # the same full-engine variant as above: one compile
    ("standard-rummy", 4, "random", {}, 8),
])
def test_every_seat_taking_its_hint_reproduces_simulate_rows(game, players, lineup, rules, games):
    env = rummysim.env(game, players=players, seed=41, rules=rules, lineup=lineup)
    played = []
    for _ in range(games):
        env.reset()
        play_out(env, take_hint)
        played.append(env.finished.row)
    assert np.array_equal(np.array(played), simulate_rows(game, players, lineup, 41, games, rules))


def test_only_the_external_seats_are_agents_and_the_bots_play_inside():
    env = rummysim.env("500-rum", players=3, seed=5, external=[1])
    env.reset()
    assert env.possible_agents == ["player_1"]
    seen = set()
    for agent in env.agent_iter():
        seen.add(agent)
        _, _, terminated, _, _ = env.last()
        env.step(None if terminated else take_hint(env, agent))
    assert seen == {"player_1"} and env.agents == []
    assert np.array_equal(env.finished.row, simulate_rows("500-rum", 3, "greedy", 5, 1, {})[0])


@pytest.mark.parametrize(("game", "players", "rules", "games"), [
    ("500-rum", 2, {}, 80), ("500-rum", 3, CALLS, 60), ("500-rum", 4, GAMBIT, 40),
    ("500-rum", 3, {"r500_meld_out_of_turn": True}, 40), ("500-rum", 4, {"r500_partnership": True}, 40),
    ("standard-rummy", 3, {}, 40),
])
def test_random_legal_moves_validate(game, players, rules, games):
    """Random picks among the listed options through the step API: the traces validate."""
    env = rummysim.env(game, players=players, seed=300 + players, rules=rules)
    cfg = prepare(game, players, "greedy", [f"{k}={str(v).lower()}" for k, v in rules.items()])
    validate = cfg.spec.validator()
    pick = random.Random(players)
    violations, checked = [], 0
    for _ in range(games):
        env.reset()
        play_out(env, lambda e, a: pick.randrange(e.decision.n))
        assert not env.finished.overflowed
        result = validate(env.finished.trace, cfg.rules.as_dict())
        violations += result.violations
        checked += result.actions_checked
    assert violations == [] and checked > 50 * games


def _content(kind: int, index: int, option) -> tuple:
    """What a move does, read from the engine's option (independently of how ids pack it)."""
    if kind == K_PLAY:
        row = np.asarray(option)
        if row[A_TYPE] == ACT_STOP:
            return ("stop",)
        return tuple(int(row[c]) for c in (A_TYPE, A_GAMBIT, A_NJOK, A_SIDE, A_MELD, A_LO, A_LEN, A_NCARDS, A_MASK))
    if kind in (K_CALL, K_SPLIT) and index == 0:
        return ("decline",)
    return (int(option),)


@pytest.mark.parametrize(("game", "players", "rules", "games"), [
    ("500-rum", 2, {}, 30), ("500-rum", 4, GAMBIT, 15), ("500-rum", 3, CALLS, 15),
    ("500-rum", 4, {"r500_partnership": True, "r500_num_decks": 2}, 8), ("standard-rummy", 3, {}, 15),
])
def test_stable_action_ids_name_one_move_each_in_every_position(game, players, rules, games):
    """An id is unique among a decision's options, and one id means one move (the same content)
    across every position of every game, both ways; ``index_of`` finds the option of an id."""
    env = rummysim.env(game, players=players, seed=600 + players, rules=rules)
    pick = random.Random(game)
    move_of: dict[int, tuple] = {}
    id_of: dict[tuple, int] = {}
    seen_kinds = set()

    def policy(e, agent):
        decision = e.decision
        ids = e.infos[agent]["action_ids"]
        assert len(set(ids.tolist())) == decision.n == len(ids)
        kind = decision.view.kind
        seen_kinds.add(kind)
        for i, option in enumerate(decision.options):
            move = (kind, *_content(kind, i, option))
            assert move_of.setdefault(int(ids[i]), move) == move
            assert id_of.setdefault(move, int(ids[i])) == int(ids[i])
        choice = pick.randrange(decision.n)
        assert decision.index_of(ids[choice]) == choice
        return choice

    for _ in range(games):
        env.reset()
        play_out(env, policy)
    assert {K_DRAW, K_PLAY, K_DISCARD} <= seen_kinds and len(move_of) > 100


def test_an_id_that_is_not_legal_here_is_refused():
    env = rummysim.env("500-rum", players=2, seed=3)
    env.reset()
    discard_nothing = K_DISCARD << KIND_SHIFT  # card id 0 does not exist (ranks are 1..13)
    with pytest.raises(InputError, match="not a legal"):
        env.decision.index_of(discard_nothing)


def test_partners_are_rewarded_with_their_sides_points():
    """Partnership 500 (V500-PARTNER): both partners receive the partnership's points, which sum
    over the game to the side's final score."""
    env = rummysim.env("500-rum", players=4, seed=17, rules={"r500_partnership": True})
    for _ in range(3):
        env.reset()
        earned = dict.fromkeys(env.possible_agents, 0)
        for agent in env.agent_iter():
            _, _, terminated, _, info = env.last()
            if not terminated:
                assert info["side"] == int(agent[-1]) % 2
            env.step(None if terminated else take_hint(env, agent))
            for other, gain in env.rewards.items():
                earned[other] += gain
        totals = env.finished.row[G_TOTAL:G_TOTAL + 4]
        assert earned["player_0"] == earned["player_2"] == totals[0]
        assert earned["player_1"] == earned["player_3"] == totals[1]
        assert totals[0] != 0 or totals[1] != 0


def test_observation_is_the_seats_own_view():
    env = rummysim.env("500-rum", players=2, seed=3)
    env.reset()
    agent = env.agent_selection
    view = env.infos[agent]["view"]
    obs = env.observe(agent)
    assert obs["observation"].shape == (ENC_SIZE,)  # the spaces need gymnasium (the env extra)
    assert obs["action_mask"].sum() == env.decision.n == len(env.infos[agent]["legal"])
    assert view["hand"].sum() == view["obs"][10 + view["seat"]]  # its hand size (OB_HAND_SIZE + seat)
    other = "player_1" if agent == "player_0" else "player_0"
    assert env.observe(other)["action_mask"].sum() == 0


def test_illegal_action_is_refused_and_reset_abandons_a_game():
    env = rummysim.env("500-rum", players=2, seed=3)
    env.reset()
    with pytest.raises(InputError):
        env.step(env.decision.n)
    thread = env._thread._thread
    env.reset()
    thread.join(5)
    assert not thread.is_alive()
    env.close()


def test_pettingzoo_api_and_seed_tests():
    api = pytest.importorskip("pettingzoo.test")
    api.api_test(rummysim.env("500-rum", players=3, seed=9), num_cycles=200)
    api.seed_test(lambda: rummysim.env("500-rum", players=3, seed=9), num_cycles=50)


def test_outside_the_step_api_an_external_ask_is_the_hint_without_object_mode():
    """The ``ask_*`` overloads compile to ``return hint`` for simulate's families: with no handler
    installed, the objmode path would raise."""
    import numba

    from rummysim.strategies.rum500.dispatch import ALL_STRATEGIES
    from rummysim.strategies.rum500.external import K_DRAW, ask_options

    @numba.njit
    def ask(family):
        return ask_options(family, K_DRAW, 0, np.zeros(3, dtype=np.int64), 3, 2, 0)

    assert ask(None) == 2 and ask(ALL_STRATEGIES) == 2


def test_ansi_render_names_the_legal_moves():
    env = rummysim.env("500-rum", players=2, seed=3, render_mode="ansi")
    env.reset()
    text = env.render()
    assert text.startswith(f"{env.agent_selection} draw: 0 draw from the stock")
    env.close()


def test_a_handler_index_out_of_range_stops_the_game_with_an_error():
    """The last guard before the kernels, for handlers other than the env's own checked step."""
    from rummysim.stepenv.engines import RUM500
    from rummysim.stepenv.game import Failed, GameSetup, GameThread

    cfg = prepare("500-rum", 2, "greedy")
    thread = GameThread(GameSetup(cfg.vector, cfg.lineup + rummysim.strategies.ids.EXTERNAL, cfg.params, 1, 0),
                        RUM500)
    decision = thread.next_event()
    thread.answer(decision.n)
    event = thread.next_event()
    assert isinstance(event, Failed) and "not an index below" in str(event.error)


# Python strategies (issue 20 point 3): ``py:PATH_OR_MODULE:CLASS`` seats, on the same engine
# specialization as the env (kept in this file so a test run compiles it once).

EXAMPLE = "py:examples/python_strategy.py:Tidy"


def write_strategy(tmp_path, body: str) -> str:
    path = tmp_path / "bots.py"
    path.write_text("import rummysim\n\n" + body)
    return str(path)


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    from rummysim.cli import main

    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_a_python_strategy_taking_its_hints_plays_simulates_greedy_games():
    """``rummysim.Strategy`` plays every decision's hint (greedy's pick): the same game rows."""
    ours = rummysim.simulate("500-rum", players=3, lineup="py:rummysim:Strategy,greedy,heuristic", games=12, seed=9,
                             rule=["r500_call_rummy=pile"], hands=True)
    theirs = rummysim.simulate("500-rum", players=3, lineup="greedy,greedy,heuristic", games=12, seed=9,
                               rule=["r500_call_rummy=pile"], hands=True)
    assert ours.games.equals(theirs.games)
    assert ours.hands.equals(theirs.hands)
    assert ours.summary["lineup"][0] == "py:rummysim:Strategy"


def test_the_example_strategy_beats_random_and_is_deterministic_for_any_chunking():
    result = rummysim.compare(EXAMPLE, "random", players=2, games=120, seed=4)
    assert result.summary["per_hand"]["ci"][0] > 0
    whole = rummysim.simulate("500-rum", players=2, lineup=f"{EXAMPLE},random", games=10, seed=2).games
    chunked = rummysim.simulate("500-rum", players=2, lineup=f"{EXAMPLE},random", games=10, seed=2,
                                chunk_size=3).games
    assert whole.equals(chunked)


def test_python_strategies_play_in_tournaments_and_sweeps(tmp_path):
    import polars as pl

    table = rummysim.tournament([EXAMPLE, "random", "greedy"], players=2, games=8, seed=3)
    assert set(table.ranking["strategy"].to_list()) == {EXAMPLE, "random", "greedy"}
    cfg = {"run": {"seed": 2, "games_per_cell": 6, "chunk_size": 4},
           "grid": {"players": [2], "lineup": [f"{EXAMPLE},random", "greedy"]}}
    path = rummysim.sweep(cfg, tmp_path / "sweep", threads=1)
    rows = pl.scan_parquet(f"{path}/**/*.parquet", hive_partitioning=True).collect()
    assert rows.height == 12 and rows.filter(pl.col("lineup").str.contains("Tidy")).height == 6


def test_a_python_strategy_sees_only_its_seat(tmp_path):
    """Every view it is given holds its own hand (as many cards as its seat's hand size) and no
    other seat's cards: the sizes of the other hands are all it learns of them."""
    path = write_strategy(tmp_path, """
SEEN = []

class Spy(rummysim.Strategy):
    def draw(self, view, moves):
        SEEN.append((view.seat, int(view.hand.sum()), int(view.obs[10 + view.seat])))
        return moves.hint
""")
    rummysim.simulate("500-rum", players=2, lineup=f"py:{path}:Spy,greedy", games=3, seed=1)
    from rummysim.stepenv.python_players import load_class

    seen = __import__("sys").modules[load_class(path, "Spy").__module__].SEEN
    assert seen and all(seat == 0 and held == size for seat, held, size in seen)


def test_an_illegal_move_is_refused_with_one_line(tmp_path, capsys):
    path = write_strategy(tmp_path, """
class Wild(rummysim.Strategy):
    def discard(self, view, moves):
        return moves.n
""")
    code, out, err = run_cli(capsys, "simulate", "--players", "2", "--lineup", f"py:{path}:Wild,greedy",
                             "--games", "2", "--seed", "1")
    assert code != 0 and "Traceback" not in err
    assert err.startswith("error: strategy py:") and "for a discard decision" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("spec", "needle"), [
    ("py:nowhere.py:Tidy", "no such file"),
    ("py:examples/python_strategy.py:Nope", "has no class Nope"),
    ("py:examples/python_strategy.py:Tidy:bogus=1", "does not take these parameters"),
    ("py:examples/python_strategy.py", "write py:PATH_OR_MODULE:CLASS"),
])
def test_bad_python_strategies_are_refused_before_any_game(spec, needle, capsys):
    code, _, err = run_cli(capsys, "simulate", "--players", "2", "--lineup", f"{spec},greedy", "--games", "2")
    assert code == 2 and needle in err and "Traceback" not in err


def test_play_refuses_a_game_it_cannot_draw(capsys):
    code, _, err = run_cli(capsys, "play", "--game", "5000-rummy", "--players", "2", "--seat", "0")
    assert code == 2 and "rummysim.env" in err


# rummysim play (issue 20 point 4): driven through a pseudo-terminal, end to end.

def test_play_in_a_terminal_with_hints_undo_and_a_saved_replay(tmp_path):
    import io
    import re
    import sys

    import pexpect

    replay = tmp_path / "game.txt"
    child = pexpect.spawn(sys.executable, ["-m", "rummysim", "play", "--players", "2", "--seat", "0", "--lineup",
                                           "greedy", "--seed", "3", "--plain", "--replay-out", str(replay)],
                          encoding="utf-8", timeout=900, dimensions=(60, 200))
    child.logfile_read = shown = io.StringIO()
    child.expect("move> ")
    assert re.search(r"Your hand \(\d+\): ", child.before) and "Moves:" in child.before
    child.sendline("?")
    child.expect("h = hint")
    child.sendline("99")
    child.expect("is not a move")
    undone = False
    while True:
        if child.expect(["move> ", "Replay saved to"]) == 1:
            break
        board = child.before
        child.sendline("h")
        child.expect(r"hint \(greedy\): (\d+)")
        hint = int(child.match.group(1))
        child.expect("move> ")
        if not undone and re.search(r"^\s+1\s+meld ", board, re.M):  # a meld to lay down, then take back
            child.sendline("1")
            child.expect("move> ")
            child.sendline("u")
            child.expect("Undone.")
            child.expect("move> ")
            assert re.search(r"^\s+1\s+meld ", child.before, re.M)  # the same moves are offered again
            undone = True
        child.sendline(str(hint))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and undone
    text = shown.getvalue()
    assert "Hand 1 scored:" in text and "Game over. Final scores: P0 (you)" in text
    assert replay.read_text().startswith("Game 0")
