"""Fuzzing the command line and the sweep file: no input gives a traceback (issue 21).

Hypothesis builds argument lists from every command's own options (values drawn from numbers
at and beyond their ranges, odd strings, special files) and sweep files from the grammar's keys
and wrong values. Any exception escaping ``main`` other than ``SystemExit`` fails; an exit code
of 2 must come with exactly one ``error: ...`` line. Nothing is played: the functions that play
games raise ``WouldPlay`` once everything before them has been checked, so the run takes seconds
and compiles nothing.
"""

from __future__ import annotations

import json
import string

import numba
import polars as pl
import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rummysim.checks as checks
import rummysim.comparison as comparison
import rummysim.simulation as simulation
import rummysim.sweeps.chunks as chunks
import rummysim.sweeps.run as sweep_run
import rummysim.warmup as warmup
from rummysim.cli.main import app, main
from rummysim.rules import FLAGS

SKIPPED_COMMANDS = {"bench"}  # a benchmark plays for minutes by design
SKIPPED_OPTIONS = {"--install-completion", "--show-completion"}  # they write the user's shell files
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


class WouldPlay(Exception):
    """Raised where games would be played: the input got past every check."""


def _would_play(*args, **kwargs):
    raise WouldPlay


def _options() -> dict[str, list[tuple[list[str], bool]]]:
    """Each command's options: (spellings, is a flag), from the app itself."""
    group = typer.main.get_command(app)
    commands = {}
    for name, command in group.commands.items():
        subs = getattr(command, "commands", None)
        for full, cmd in ({f"{name} {k}": v for k, v in subs.items()} if subs else {name: command}).items():
            if name in SKIPPED_COMMANDS:
                continue
            opts = [([o for o in (*p.opts, *getattr(p, "secondary_opts", ())) if o not in SKIPPED_OPTIONS],
                     bool(getattr(p, "is_flag", False))) for p in cmd.params if p.param_type_name == "option"]
            commands[full] = [(spellings, flag) for spellings, flag in opts if spellings]
    return commands


COMMANDS = _options()
NUMBERS = ["0", "1", "2", "3", "4", "8", "9", "-1", "10", "1000", "2147483648", str(2**63 - 1), str(2**63), str(2**64),
           "1e20", "1.5", "nan", "inf", "-0", "0x10", "\uff11"]
STRATEGIES = ["greedy", "random", "heuristic", "rollout", "cautious", "digger", "greedy,random", "all random",
              "random at seat 9", "random at seat 0, greedy elsewhere", "greedy(deadwood_weight=2)", "nope"]
PRESETS = ["500-rum", "5000-rummy", "boathouse", "standard-rummy", "500-rum-calling", "nope"]
RULES = ["r500_target=250", "r500_target=7", "r500_call_rummy=pile", "r5k_rummy=any_cards", "r500_persian=true",
         "x=1", "=", "r500_target"]
WORDS = ["", " ", "games", "hands", "difference", "game-point", "csv", "json", "parquet", "table", "players,lineup",
         "cell", "nope", "local:0", "local:x", "\u00e9", "\x00", "\n", "-", "--", "-h", "a" * 300]
PATHS = ["r.parquet", "garbage.parquet", "s.toml", "bad.toml", "folder", "missing.parquet", "out/x.parquet",
         "r.parquet/x", "/dev/full", "/dev/null", "/sys/rummysim-fuzz", "/proc/rummysim-fuzz", "folder/*.parquet", "-"]
WILD = st.sampled_from(NUMBERS + STRATEGIES + PRESETS + RULES + WORDS + PATHS) | st.text(max_size=12)
# plausible values per option (a third of the time a wild one), so that inputs get past parsing
PLAUSIBLE = {
    "--players": ["1", "2", "3", "4", "8", "9"], "--lineup": STRATEGIES, "--game": PRESETS, "--rule": RULES,
    "--unit": ["games", "hands", "nope"], "--format": ["table", "csv", "json", "parquet", "xml"], "--out": PATHS,
    "--png": PATHS, "--by": ["", "players", "lineup", "cell", "nope", "game,players"],
    "--payoff": ["difference", "game-point", "x"], "--cluster": ["local:0", "local:x", ""], "--scheduler": ["nope", ""],
}
POSITIONAL = {"analyze": PATHS, "report": PATHS, "sweep": ["s.toml", "bad.toml", "missing.toml", "folder", "r.parquet"],
              "rules show": PRESETS, "strategies show": STRATEGIES, "compare": STRATEGIES, "tournament": STRATEGIES}


@pytest.fixture
def sandbox(tmp_path, monkeypatch):
    """A working folder with a result file, a hands file, a garbage file and sweep files; every
    function that plays games, or compiles them (``warmup``'s worker processes), replaced by
    WouldPlay; numba's thread count put back afterwards."""
    monkeypatch.chdir(tmp_path)
    games = pl.DataFrame({"game_index": [0, 1], "first_dealer": [0, 1], "winner": [0, -1], "hands": [3, 4],
                          "turns": [30, 41], "capped": [False, True], "score_0": [520, 100], "score_1": [300, 90]})
    games.write_parquet(tmp_path / "r.parquet")
    (tmp_path / "garbage.parquet").write_bytes(b"PAR1 not really")
    (tmp_path / "s.toml").write_text('[run]\ngames_per_cell = 10\nchunk_size = 5\n[grid]\nplayers = [2, 3]\n')
    (tmp_path / "bad.toml").write_text("[run\n")
    (tmp_path / "folder").mkdir()
    for target, name in ((simulation, "play_game_chunk"), (simulation, "warm_up"), (comparison, "play_game_chunk"),
                         (checks, "traced_game"), (chunks, "run_chunk"), (sweep_run, "run_chunk"),
                         (warmup, "run_jobs")):
        monkeypatch.setattr(target, name, _would_play)
    threads = numba.get_num_threads()
    yield tmp_path
    numba.set_num_threads(threads)


def _value(draw, choices: list[str]) -> str:
    return draw(st.sampled_from(choices) if choices and draw(st.integers(0, 2)) else WILD)


@st.composite
def command_lines(draw) -> list[str]:
    command = draw(st.sampled_from(sorted(COMMANDS)))
    argv = command.split()
    if command in POSITIONAL:
        argv += [_value(draw, POSITIONAL[command]) for _ in range(draw(st.integers(0, 3)))]
    options = COMMANDS[command]
    for _ in range(draw(st.integers(0, 5)) if options else 0):
        spellings, flag = draw(st.sampled_from(options))
        argv.append(draw(st.sampled_from(spellings)))
        if not flag:
            argv.append(_value(draw, PLAUSIBLE.get(spellings[0], NUMBERS)))
    if not draw(st.integers(0, 9)):
        argv.insert(draw(st.integers(0, len(argv))), draw(WILD))  # now and then, junk anywhere
    return argv


def run(capsys, argv: list[str]) -> None:
    """``main(argv)``: WouldPlay or an exit; exit 2 with exactly one ``error:`` line."""
    capsys.readouterr()
    try:
        main(argv)
    except WouldPlay:
        return
    except SystemExit as done:
        err = capsys.readouterr().err
        assert "Traceback" not in err, (argv, err)
        if done.code == 2:
            lines = err.strip().splitlines()
            assert lines and lines[-1].startswith("error: ") and err.count("error: ") == 1, (argv, err)
        else:
            assert done.code in (0, 1, None), (argv, done.code, err)
        return
    raise AssertionError(f"main returned without exiting: {argv}")


@FUZZ
@given(argv=command_lines())
def test_no_command_line_gives_a_traceback(sandbox, capsys, argv):
    run(capsys, argv)


# ---------------------------------------------------------------------------------------------
# sweep files

RUN_KEYS = ["seed", "games_per_cell", "chunk_size", "hands", "name", "description", "games", "chunk"]
GRID_KEYS = ["game", "players", "lineup", "r500_target", "r500_call_rummy", "r5k_rummy", "max_turns_per_hand",
             "r500_persian", "colour", "players "]
SCALARS = (st.integers(-3, 12) | st.sampled_from([0, 2**31, 2**63 - 1, 10**12, -(2**63)]) | st.booleans()
           | st.sampled_from([1.5, float("inf"), float("nan")]) | st.sampled_from(WORDS + STRATEGIES + PRESETS)
           | st.sampled_from([v for flag in FLAGS.values() for v in getattr(flag, "values", ())]))
VALUE_TREES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from(["a", "b", "games_per_cell"]), inner, max_size=2), max_leaves=6)


def toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return "nan" if value != value else ("inf" if value > 0 else "-inf") if abs(value) == float("inf") else repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(v)}" for k, v in value.items()) + "}"


@st.composite
def sweep_files(draw) -> str:
    tables = {"run": RUN_KEYS, "grid": GRID_KEYS}
    lines = []
    for table in draw(st.lists(st.sampled_from(["run", "grid", "runs", "extra"]), max_size=3, unique=True)):
        lines.append(f"[{table}]")
        keys = tables.get(table, ["x"])
        for key in draw(st.lists(st.sampled_from(keys), max_size=4, unique=True)):
            lines.append(f"{json.dumps(key)} = {toml_value(draw(VALUE_TREES))}")
    text = "\n".join(lines) + "\n"
    if not draw(st.integers(0, 9)):  # now and then, damaged text
        cut = draw(st.integers(0, len(text)))
        text = text[:cut] + draw(st.text(alphabet=string.printable + "é\x00", max_size=5)) + text[cut:]
    return text


@FUZZ
@given(text=sweep_files(), dry=st.booleans())
def test_no_sweep_file_gives_a_traceback(sandbox, capsys, text, dry):
    (sandbox / "fuzz.toml").write_text(text)
    run(capsys, ["sweep", "fuzz.toml", "--out", "fuzz-out", "--no-progress", *(["--dry-run"] if dry else [])])


@pytest.mark.parametrize("name", ["a\nb.toml", "a\x1eb.toml", "a\u2028b.toml"])
def test_a_line_break_in_a_path_stays_inside_the_one_error_line(sandbox, capsys, name):
    """Found by the fuzz test: the error echoed the path's line break (``\\x1e`` splits lines too)."""
    with pytest.raises(SystemExit) as done:
        main(["sweep", name, "--dry-run"])
    err = capsys.readouterr().err
    assert done.value.code == 2 and err.strip().splitlines() == [f"error: {name.encode('unicode_escape').decode()}: no such file"]
