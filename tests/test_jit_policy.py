"""The decorator policy of ``kernels.common._jit`` (issue 8: compile time)."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from rummysim.kernels.common._jit import njit
from rummysim.kernels.rum500.batch import needs_full_engine
from rummysim.games import encode_rules
from rummysim.rules import Rules


@njit
def _add(a, b):
    return a + b


def test_literal_arguments_share_one_specialization():
    """Constants at call sites compile one copy per argument types, not one per constant."""

    @numba.njit
    def caller(x):
        return _add(x, 1) + _add(x, 2) + _add(x, 3)

    assert caller(np.int64(5)) == 21
    assert len(_add.signatures) == 1


def test_lean_engine_only_for_rules_without_the_rare_paths():
    assert not needs_full_engine(encode_rules(Rules(), 4))
    assert not needs_full_engine(encode_rules(Rules().with_(r500_round_the_corner=True, r500_going_out="floating"), 4))
    for change in (dict(r500_call_rummy="pile"), dict(r500_meld_out_of_turn=True), dict(r500_add_opponent_hand=True),
                   dict(r500_upcard_mode="first_player_choice"), dict(r500_first_meld_min=30),
                   dict(r500_end_of_stock="reshuffle")):
        assert needs_full_engine(encode_rules(Rules().with_(**change), 4)), change
    from rummysim.simulation import prepare

    for preset in ("persian-rummy", "dealers-gambit"):  # V500-PERSIAN, V500-GAMBIT
        assert needs_full_engine(prepare(preset, 4, "greedy").vector), preset


def test_lean_and_full_engines_play_the_same_games():
    from rummysim.kernels.rum500 import layout as L
    from rummysim.kernels.rum500.batch import FULL_ENGINE, play_games, read_only
    from rummysim.strategies.registry import parse_lineup

    rules = encode_rules(Rules(), 3)
    _, lineup, params = parse_lineup("greedy,random,greedy", 3)
    rows = []
    for vector, full in ((rules, None), (read_only(rules), FULL_ENGINE)):
        games = np.zeros((40, L.G_SIZE), dtype=np.int64)
        hands = np.zeros((40, int(rules[L.R_HAND_CAP]), L.H_SIZE), dtype=np.int32)
        play_games(vector, lineup, params, 3, 0, games, hands, full, None)
        rows.append((games, hands))
    assert np.array_equal(rows[0][0], rows[1][0]) and np.array_equal(rows[0][1], rows[1][1])


def _rare500_probe(_: str) -> set[str]:
    """The rare enumerations typed when 500 Rum's ``enumerate_plays`` is compiled afresh for a
    table whose rules vector is writeable, as the lean engine's is (listed as ``lean:<name>``),
    then read-only, as the full engine's is (``full:<name>``)."""
    from rummysim.kernels.rum500 import layout as L, melds as M
    from rummysim.kernels.rum500.batch import read_only

    typed = _watch_typing([M._enumerate_persian, M._enumerate_gambit])
    rules = encode_rules(Rules(), 4)
    seen: set[str] = set()
    for label, vector in (("lean", rules), ("full", read_only(rules))):
        before = set(typed)
        table = M.Table(np.zeros((L.MAX_MELDS, L.MK_SIZE), dtype=np.int16), 0, np.zeros(L.JOKER + 1, dtype=np.int64),
                        1, vector, -1, 0)
        args = (np.uint64(0), 0, -1, table, L.PLAY_ALL, np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64), 0, L.MAX_CAND)
        numba.njit(nogil=True, error_model="numpy", _nrt=False)(M.enumerate_plays.py_func).compile(
            tuple(numba.typeof(a) for a in args))
        seen |= {f"{label}:{name}" for name in typed - before}
    return seen


def test_500_rum_lean_engine_does_not_compile_the_persian_and_gambit_enumerations():
    """Issue 19 point 4: the meld search types Persian rummy's and Dealer's gambit's enumerations
    (V500-PERSIAN, V500-GAMBIT) only for the full engine's read-only rules vector
    (``melds.rare_enumeration``)."""
    typed = _typed_in_a_fresh_process("_rare500_probe", "")
    assert typed == {"full:_enumerate_persian", "full:_enumerate_gambit"}


@pytest.mark.parametrize("preset", ["persian-rummy", "dealers-gambit"])
def test_500_rum_lean_engine_refuses_persian_and_gambit_rules(preset):
    """Sent to the lean engine by mistake (a writeable rules vector), the rare rules raise instead
    of playing as the base game."""
    from rummysim.kernels.rum500 import layout as L
    from rummysim.kernels.rum500.batch import play_games
    from rummysim.simulation import prepare

    cfg = prepare(preset, 4, "greedy")
    games = np.zeros((1, L.G_SIZE), dtype=np.int64)
    with pytest.raises(ValueError, match="full engine"):
        play_games(cfg.vector, cfg.lineup, cfg.params, 1, 0, games, np.zeros((0, 0, L.H_SIZE), dtype=np.int32),
                   None, None)


def test_strategy_family_switch_follows_the_lineup():
    from rummysim.strategies.rum500.dispatch import ALL_STRATEGIES, HEURISTIC_FAMILY, ROLLOUT_FAMILY, family_switch
    from rummysim.strategies.registry import parse_lineup

    for lineup, family in (("greedy,random,greedy", None), ("random,random", None),
                           ("greedy,heuristic", HEURISTIC_FAMILY), ("rollout,greedy", ROLLOUT_FAMILY), ("cautious,digger", HEURISTIC_FAMILY),
                           ("digger,rollout,random", ALL_STRATEGIES)):
        ids = parse_lineup(lineup, len(lineup.split(",")))[1]
        assert family_switch(ids) is family, lineup


def _family_strategies():
    """The decisions of each strategy family, as the dispatch calls them: (heuristic family,
    rollout and search)."""
    from rummysim.strategies.rum500 import heuristic as H, rollout as R, search as S

    return ((H.heuristic_draw, H.heuristic_call, H.heuristic_discard, H.heuristic_play, H.heuristic_holds),
            (R.rollout_draw, R.rollout_call, R.rollout_discard, S.search_draw, S.search_discard))


def _decision_arguments(family):
    """Each ``choose_*`` of the dispatch with arguments of the engine's types."""
    from rummysim.kernels.rum500 import layout as L
    from rummysim.strategies.rum500 import dispatch as D
    from tests.kstate import make_state

    k = make_state(4, {0: "AH 2H 3H", 1: "KS", 2: "KD", 3: "KC"}, pile="5C", stock="9D 9S")
    obs, mine = np.zeros(L.OB_SIZE, dtype=np.int64), np.zeros(2, dtype=np.uint64)
    params, rng = np.zeros(L.N_PARAMS), np.zeros(4, dtype=np.uint64)
    opts, cand = np.zeros(L.MAX_PACK + 2, dtype=np.int64), np.zeros((L.MAX_CAND, L.A_SIZE), dtype=np.int64)
    view, sid, n = k.view(obs, mine), 1, 1
    return ((D.choose_draw, (family, sid, params, view, opts, n, rng, cand)),
            (D.choose_play, (family, sid, params, view, cand, n, rng, cand)),
            (D.choose_discard, (family, sid, params, view, opts, n, rng, cand)),
            (D.choose_call, (family, sid, params, view, opts, n, rng, cand)),
            (D.choose_hold, (family, sid, params, view, cand)),
            (D.choose_nomination, (family, sid, params, obs, rng)),
            (D.choose_split, (family, sid, params, view, n, opts, n, rng, cand)))


def _watch_typing(dispatchers) -> set[str]:
    """The names of these dispatchers typed from compiled code from now on (numba types a call
    through the callee's ``get_call_template``), filled as it happens."""
    typed: set[str] = set()
    for dispatcher in dispatchers:
        def watched(args, kws, _template=dispatcher.get_call_template, _name=dispatcher.py_func.__name__):
            typed.add(_name)
            return _template(args, kws)
        dispatcher.get_call_template = watched
    return typed


def _compile_afresh(decision, args) -> None:
    numba.njit(nogil=True, error_model="numpy", _nrt=False)(decision.py_func).compile(
        tuple(numba.typeof(a) for a in args))


def _typed_in_a_fresh_process(probe: str, arg: str) -> set[str]:
    """Run ``probe(arg)`` of this module in a new interpreter: a callee already compiled in this
    process (by an earlier test) is not typed again, so the watch would miss its callees."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    code = f"import json; from tests.test_jit_policy import {probe}; print(json.dumps(sorted({probe}({arg!r}))))"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=Path(__file__).resolve().parents[1])
    assert r.returncode == 0, r.stderr[-3000:]
    return set(json.loads(r.stdout.splitlines()[-1]))


def _family_probe(name: str) -> set[str]:
    """The strategies typed when every ``choose_*`` is compiled for family ``name``."""
    from rummysim.strategies.rum500 import dispatch as D

    family = {"basic": None, "heuristic": D.HEURISTIC_FAMILY}[name]
    typed = _watch_typing([d for strategies in _family_strategies() for d in strategies])
    for decision, args in _decision_arguments(family):
        _compile_afresh(decision, args)
    return typed


@pytest.mark.parametrize("name", ["basic", "heuristic"])
def test_each_strategy_family_compiles_only_its_strategies(name):
    """Issue 19 point 4: the decisions compiled for a lineup's family type no strategy of a family
    it does not compile in (a greedy lineup neither the heuristic family nor rollout, a heuristic
    lineup not rollout), and do type those of the families it does (``search``, compiled with
    rollout, uses the heuristic's decisions, so a rollout lineup types both). Each ``choose_*`` is
    compiled afresh in a new process, watching which strategies get typed. Until session 21 the
    inlined draw, play and discard decisions typed every family whatever the lineup."""
    from numba import typeof

    from rummysim.strategies.rum500 import dispatch as D

    typed = _typed_in_a_fresh_process("_family_probe", name)
    compiled_in = D._compiled_families(typeof({"basic": None, "heuristic": D.HEURISTIC_FAMILY}[name]))
    for strategies, wanted in zip(_family_strategies(), compiled_in):
        names = {d.py_func.__name__ for d in strategies}
        assert (names <= typed) if wanted else not (names & typed), (name, sorted(typed))


def test_basic_and_all_strategy_engines_play_the_same_games():
    """The engine compiled for greedy and random only plays their games exactly as the one with
    every strategy compiled in."""
    from rummysim.kernels.rum500 import layout as L
    from rummysim.kernels.rum500.batch import play_games
    from rummysim.strategies.rum500.dispatch import ALL_STRATEGIES
    from rummysim.strategies.registry import parse_lineup

    rules = encode_rules(Rules(), 3)
    _, lineup, params = parse_lineup("greedy,random,greedy", 3)
    rows = []
    for family in (None, ALL_STRATEGIES):
        games = np.zeros((40, L.G_SIZE), dtype=np.int64)
        hands = np.zeros((40, int(rules[L.R_HAND_CAP]), L.H_SIZE), dtype=np.int32)
        play_games(rules, lineup, params, 3, 0, games, hands, None, family)
        rows.append((games, hands))
    assert np.array_equal(rows[0][0], rows[1][0]) and np.array_equal(rows[0][1], rows[1][1])


def test_source_fingerprint_covers_every_subpackage(tmp_path, monkeypatch):
    """Issue 14, point 8: a file added in a subpackage of the kernels (or strategies) changes the
    fingerprint that names the numba cache folder and that a resumed sweep checks."""
    import shutil

    from rummysim.kernels.common import _jit
    from rummysim.sweeps.store import engine_fingerprint

    assert engine_fingerprint() == _jit.source_fingerprint()
    roots = {}
    for module in _jit.FINGERPRINTED:
        root, _ = _jit._source_files(module)
        copy = tmp_path / module
        shutil.copytree(root, copy)
        roots[module] = copy

    def copied(module):
        return roots[module], sorted(roots[module].rglob("*.py"))

    monkeypatch.setattr(_jit, "_source_files", copied)
    before = _jit.source_fingerprint()
    assert before == _jit.source_fingerprint()
    (roots["rummysim.kernels"] / "rum500" / "extra.py").write_text("X = 1\n")
    after_kernel = _jit.source_fingerprint()
    assert after_kernel != before
    (roots["rummysim.strategies"] / "rum5000" / "extra.py").write_text("Y = 2\n")
    assert _jit.source_fingerprint() not in (before, after_kernel)


def test_numba_hooks_are_checked_at_import():
    """Issue 14, point 8: a numba without the private hooks fails with a message naming them."""
    import pytest
    from numba.core import cpu, dispatcher

    from rummysim.kernels.common import _jit

    _jit.check_numba_hooks()  # this numba has them

    class Bare:
        pass

    with pytest.raises(ImportError, match="_nrt target option"):
        _jit.check_numba_hooks(dispatcher.Dispatcher, Bare)
    with pytest.raises(ImportError, match="get_call_template"):
        _jit.check_numba_hooks(Bare, cpu.CPUTargetOptions)
    with pytest.raises(ImportError, match="inline_ir"):
        _jit.check_numba_hooks(dispatcher.Dispatcher, cpu.CPUTargetOptions, Bare)


def test_an_inlined_helper_is_built_once_for_all_its_call_sites():
    """Issue 19 point 4: ``_inline_copy`` builds a ``njit_inline`` helper's IR once for all its call
    sites; the code inlined from the shared-memo copies still computes what the helper does, and
    numba's ``copy`` is put back after each inline (the digests pin the engines' rows)."""
    import copy

    import numba
    from numba.core import inline_closurecall

    from rummysim.kernels.common import _inline_copy
    from rummysim.kernels.common._jit import njit_inline

    def helper(a, i):
        total = 0
        for k in range(i):  # several blocks, so that a per-block copy would copy the scope again
            if a[k] > 0:
                total += a[k]
            else:
                total -= 1
        return total

    inlined = njit_inline(helper)

    @numba.njit(cache=False)
    def caller(a):
        return inlined(a, 2) * 100 + inlined(a, 3)

    a = np.array([3, -4, 5], dtype=np.int64)
    assert caller(a) == helper(a, 2) * 100 + helper(a, 3)
    assert inline_closurecall.copy is copy
    built = [key for key in _inline_copy.UNTYPED_IR if key[0] is helper]
    assert len(built) == 1  # two call sites, one untyped IR


@pytest.fixture
def empty_kernel_cache(tmp_path, monkeypatch):
    """Kernels defined in the test compile rather than load a cache entry of an earlier run (the
    tests below are about what a compile does)."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path))


def test_nested_libraries_skip_the_module_optimisation_the_machine_code_and_the_cache(empty_kernel_cache):
    """Issue 19 point 4: a kernel compiled because another kernel's compile calls it skips numba's
    final-module optimisation, is compiled again at the top level if it is called from Python, and
    is not written to the disk cache; the kernel called from Python is optimised as before, and both
    compute the same (``_nested_opt``)."""
    from numba.core import caching, codegen

    from rummysim.kernels.common import _nested_opt

    assert getattr(codegen.CPUCodeLibrary._optimize_final_module, "_rummysim_nested", False)
    assert getattr(caching.FunctionCache.save_overload, "__name__", "") == "save_overload"

    def leaf(x):
        return x * 3 + 1

    leaf_jit = njit(leaf)

    @njit
    def top(x):
        return leaf_jit(x) - 2

    assert top(5) == leaf(5) - 2
    (top_cres,) = top.overloads.values()
    (leaf_cres,) = leaf_jit.overloads.values()
    assert isinstance(leaf_cres.entry_point, _nested_opt._DeferredEntry)
    assert getattr(leaf_cres.library, _nested_opt.DEFERRED, False)  # no machine code of its own
    assert getattr(leaf_cres.library, _nested_opt.UNOPTIMIZED, False)
    assert not getattr(top_cres.library, _nested_opt.UNOPTIMIZED, False)
    assert not isinstance(top_cres.entry_point, _nested_opt._DeferredEntry)
    # called from Python, the leaf is compiled again at the top level: its nested code, without
    # numba's per-function passes, never runs on its own
    assert leaf_jit(5) == leaf(5)
    (again,) = leaf_jit.overloads.values()
    assert again is not leaf_cres and not isinstance(again.entry_point, _nested_opt._DeferredEntry)
    assert not getattr(again.library, _nested_opt.UNOPTIMIZED, False)
    assert leaf_jit(np.int64(7)) == leaf(7)  # through the dispatcher's fast path from now on
    assert top(5) == leaf(5) - 2


def test_a_nested_kernel_gets_no_python_nor_c_wrapper(empty_kernel_cache):
    """Issue 19 point 4: a kernel compiled inside another compile is compiled again if Python
    calls it, so numba does not build its Python and C wrappers (about 3 s of a cold
    heuristic-lineup compile); the kernel called from Python has both, and the nested one, once
    called from Python, has them too (``_nested_opt``)."""
    def defines(cres, name):
        return any(fn.name == name and not fn.is_declaration for fn in cres.library._final_module.functions)

    def leaf(x):
        return x * 7 - 2

    leaf_jit = njit(leaf)

    @njit
    def top(x):
        return leaf_jit(x) + 1

    assert top(4) == leaf(4) + 1
    (top_cres,) = top.overloads.values()
    (leaf_cres,) = leaf_jit.overloads.values()
    assert defines(top_cres, top_cres.fndesc.llvm_cpython_wrapper_name)
    assert defines(top_cres, top_cres.fndesc.llvm_cfunc_wrapper_name)
    assert defines(leaf_cres, leaf_cres.fndesc.mangled_name)
    assert not defines(leaf_cres, leaf_cres.fndesc.llvm_cpython_wrapper_name)
    assert not defines(leaf_cres, leaf_cres.fndesc.llvm_cfunc_wrapper_name)
    assert leaf_jit(4) == leaf(4)
    (again,) = leaf_jit.overloads.values()
    assert defines(again, again.fndesc.llvm_cpython_wrapper_name)


def test_a_nested_kernel_with_an_object_mode_block_finds_its_environment(empty_kernel_cache):
    """The object-mode bridge (``kernels/common/external.py``) runs inside nested kernels: their
    environment pointer is set although their own machine code is deferred (``_nested_opt``)."""
    seen = []

    def remember(x):
        seen.append(x)
        return x + 100

    @njit
    def asks(x):
        with numba.objmode(y="int64"):
            y = remember(x)
        return y

    @njit
    def top(x):
        return asks(x) * 2

    assert top(np.int64(1)) == 202
    assert asks(np.int64(3)) == 103
    assert seen == [1, 3]


def test_numba_is_pinned_below_the_first_untested_minor():
    import re
    from importlib.metadata import requires

    pins = [r for r in requires("rummysim") if r.startswith("numba")]
    assert pins and re.search(r"<0\.(\d+)", pins[0]), pins
    untested = int(re.search(r"<0\.(\d+)", pins[0]).group(1))
    assert int(numba.__version__.split(".")[1]) < untested


def test_compile_flags_compare_and_hash_as_numba_does():
    """Issue 19 point 4: ``_fast_flags`` replaced ``TargetConfig.values``, ``__hash__`` and ``__eq__`` with
    equivalents that skip the per-option properties; they give numba's own answers, and flags that
    differ in one option still differ."""
    from numba.core import compiler, targetconfig

    from rummysim.kernels.common import _fast_flags

    for name in ("values", "__hash__", "__eq__"):
        assert getattr(getattr(targetconfig.TargetConfig, name), "_rummysim_original", None) is not None
    one, other = compiler.Flags(), compiler.Flags()
    other.boundscheck = True
    assert _fast_flags.matches_numba([one, other])
    assert one != other and hash(one) == hash(other)
    other.boundscheck = one.boundscheck
    assert one == other and _fast_flags.matches_numba([other])  # equal values, as in numba
    assert compiler.Flags() == compiler.Flags()
    assert {(1, one): "cached"}[(1, compiler.Flags())] == "cached"


def test_the_bitset_live_map_gives_numba_s_own_sets(monkeypatch):
    """Issue 19 point 4: ``_live_map`` replaced numba's ``compute_live_map`` with the same
    fix-points on bitsets; on every function a compile analyses (loops in loops, breaks, continues,
    early returns) it gives numba's own sets, in numba's block order."""
    from numba.core import analysis, ir_utils

    from rummysim.kernels.common import _live_map

    assert analysis.compute_live_map is _live_map.compute_live_map
    assert ir_utils.compute_live_map is _live_map.compute_live_map
    calls = []

    def spy(cfg, blocks, var_use_map, var_def_map):
        calls.append((cfg, dict(blocks), {k: set(v) for k, v in var_use_map.items()},
                      {k: set(v) for k, v in var_def_map.items()}))
        return _live_map.compute_live_map(cfg, blocks, var_use_map, var_def_map)

    monkeypatch.setattr(analysis, "compute_live_map", spy)
    monkeypatch.setattr(ir_utils, "compute_live_map", spy)

    @numba.njit(cache=False)
    def branchy(a, n):
        total = 0
        best = -1
        for i in range(a.shape[0]):
            x = a[i]
            if x < 0:
                continue
            j = 0
            while j < n:
                if (x + j) % 7 == 0:
                    best = j
                    break
                total += x * j
                j += 1
            else:
                total -= 1
            if total > 10_000:
                return total, best
        return total, best

    a = np.arange(-3, 40, dtype=np.int64)
    assert branchy(a, 5) == branchy.py_func(a, 5)
    assert calls
    for cfg, blocks, var_use_map, var_def_map in calls:
        ours = _live_map.compute_live_map(cfg, blocks, var_use_map, var_def_map)
        numbas = _live_map.ORIGINAL(cfg, blocks, var_use_map, var_def_map)
        assert ours == numbas and list(ours) == list(numbas)
    assert any(len(blocks) > 10 for _, blocks, _, _ in calls)


def test_the_ssa_pass_given_only_the_blocks_naming_each_variable_builds_numba_s_ir(monkeypatch):
    """Issue 19 point 4: ``_ssa_skip`` hands numba's SSA rewrites only the blocks that name the
    variable being fixed; on every function a compile reconstructs (variables set in several
    branches and loops) the IR is numba's own, statement for statement."""
    import copy

    from numba.core import ssa

    from rummysim.kernels.common import _ssa_skip

    assert ssa._run_ssa is _ssa_skip._run_ssa
    compared = []

    def both(blocks):
        numbas = _ssa_skip.ORIGINAL_RUN_SSA(copy.deepcopy(blocks))  # unwrapped: every block rewritten
        ours = _ssa_skip._run_ssa(blocks)
        compared.append(([(label, [str(s) for s in b.body]) for label, b in ours.items()],
                         [(label, [str(s) for s in b.body]) for label, b in numbas.items()]))
        return ours

    monkeypatch.setattr(ssa, "_run_ssa", both)

    @numba.njit(cache=False)
    def reassigned(a, n):
        x = 0
        y = 1.0
        for i in range(a.shape[0]):
            if a[i] > n:
                x = a[i]
                y = y * 2.0
            elif a[i] < 0:
                x = -a[i]
            else:
                y = y - 1.0
            while x > 3:
                x -= 3
        return x, y

    a = np.arange(-4, 12, dtype=np.int64)
    assert reassigned(a, 5) == reassigned.py_func(a, 5)
    assert compared
    for ours, numbas in compared:
        assert ours == numbas
    assert any(len(ours) > 5 for ours, _ in compared)


def test_a_nested_library_links_nothing_and_its_caller_links_its_callees():
    """Issue 19 point 4: a library finalized in a nested compile keeps only its own code (``FLAT``);
    the kernel called from Python links every library below it once, and a flat library whose own
    machine code is wanted gets its callees' code first (``_nested_opt``)."""
    from rummysim.kernels.common import _nested_opt

    @njit
    def leaf(x):
        return x * 5 - 1

    @njit
    def middle(x):
        return leaf(x) + leaf(x + 1)

    @njit
    def top(x):
        return middle(x) * 2

    assert top(3) == ((3 * 5 - 1) + (4 * 5 - 1)) * 2
    (leaf_cres,), (middle_cres,), (top_cres,) = (d.overloads.values() for d in (leaf, middle, top))

    def defined(library):
        return {fn.name for fn in library._final_module.functions if not fn.is_declaration}

    leaf_name = leaf_cres.fndesc.llvm_func_name
    assert getattr(middle_cres.library, _nested_opt.FLAT, False)
    assert leaf_name not in defined(middle_cres.library)  # only declared there
    # the top links both (its optimised module has inlined them: the value above shows they linked)
    assert {leaf_cres.library, middle_cres.library} <= set(_nested_opt.linked_closure(top_cres.library._linking_libraries))
    # the flat library's own machine code: its callees' code is linked in first; its Python
    # wrapper was never built (it would only run if the kernel were not compiled again when called
    # from Python), so emitting it for a Python entry point says so
    with pytest.raises(RuntimeError, match="without its Python wrapper"):
        middle_cres.entry_point.emit()
    _nested_opt._emit_deferred(middle_cres.library)
    assert leaf_name in defined(middle_cres.library)
    assert middle_cres.library.get_pointer_to_function(middle_cres.fndesc.llvm_func_name)
    assert middle(3) == 33  # called from Python: compiled again at the top level


def _three_level_kernels(factor: int):
    """A leaf, a middle kernel calling it and a top kernel calling the middle one, compiled on first
    call (the top from Python, the others nested)."""
    def leaf(x):
        return x * factor + 3

    leaf_jit = numba.njit(leaf)

    @numba.njit
    def middle(x):
        return leaf_jit(x) - 1

    @numba.njit
    def top(x):
        return middle(x) * 2

    return leaf, top


def _walk_misses_the_leaf(monkeypatch):
    """The closure walk made to drop the leaf's library; returns the ``_nested_opt`` module."""
    from rummysim.kernels.common import _nested_opt

    walk = _nested_opt.linked_closure
    monkeypatch.setattr(_nested_opt, "linked_closure",
                        lambda libraries: [lib for lib in walk(libraries) if ".leaf" not in lib.name])
    return _nested_opt


def test_a_callee_linked_before_its_caller_is_linked_again():
    """A CI run crashed in a ``play_games`` whose module called ``has_card`` and ``pos_card`` with no
    definition (the calls went to address 0). The kernel called from Python had lost its own call
    to the leaf in a dead branch (its function passes run before linking) but still linked the
    leaf's library first, and LLVM drops ``linkonce_odr`` code nothing calls yet; the middle kernel,
    linked next, called it. The dropped library is linked again (``_nested_opt._relink_dropped``)."""
    from rummysim.kernels.common import _nested_opt

    @numba.njit
    def leaf(x):
        return x + 1

    @numba.njit
    def middle(x):
        return leaf(x) * 2

    @numba.njit
    def top(x):
        r = 0
        if x != x:  # false for every integer: LLVM removes the call, numba keeps the link
            r = leaf(x)
        return r + middle(x)

    assert top(5) == 12
    (leaf_cres,), (top_cres,) = leaf.overloads.values(), top.overloads.values()
    order = _nested_opt.linked_closure(top_cres.library._linking_libraries)
    assert order[0] is leaf_cres.library  # linked before the middle kernel that calls it


def test_a_kernel_no_linked_library_defines_fails_the_compile(monkeypatch):
    """A called kernel the closure walk missed stops the compile with an error naming it, rather
    than emit a call to address 0."""
    _walk_misses_the_leaf(monkeypatch)
    _, top = _three_level_kernels(13)
    with pytest.raises(Exception, match="no library it links defines: .*leaf"):
        top(4)


def _search5_probe(lineup: str) -> set[str]:
    """The search functions typed when 5000 Rummy's draw and discard decisions are compiled for
    a 3-player ``lineup``."""
    from rummysim.kernels.rum5000 import engine as E
    from rummysim.kernels.rum5000.batch import switches5
    from rummysim.simulation import prepare
    from rummysim.strategies.rum5000 import dispatch as S5, search as SR
    from tests.kstate5k import table_for

    cfg = prepare("5000-rummy", 3, lineup)
    g = E.new_context5(cfg.vector, cfg.lineup, cfg.params, None, None, *switches5(cfg.vector, cfg.lineup))
    typed = _watch_typing((SR.search_draw5, SR.search_discard5))
    tail = (g.params[0], g.obs, g.hands[0], g.pile, table_for(g, 0), g.opts, 1, g.rngs[0], g.work)
    for decision in (S5.choose5_draw, S5.choose5_discard):
        _compile_afresh(decision, (g.lineup[0], g.searching) + tail)
    return typed


@pytest.mark.parametrize("lineup", ["heuristic", "search"])
def test_5000_rummy_compiles_search_only_for_a_lineup_that_plays_it(lineup):
    """Issue 19 point 4: the 5000 Rummy engine types ``search`` and its play-outs only when a seat
    plays it (``batch.searching_switch``); its draw and discard decisions are compiled afresh in
    a new process, watching the search functions' typing."""
    from rummysim.kernels.rum5000.batch import engine_variant5
    from rummysim.simulation import prepare

    cfg = prepare("5000-rummy", 3, lineup)
    assert engine_variant5(cfg.vector, cfg.lineup) == ("search" if lineup == "search" else "")
    typed = _typed_in_a_fresh_process("_search5_probe", lineup)
    assert typed == ({"search_draw5", "search_discard5"} if lineup == "search" else set())


def _rare5_probe(_: str) -> set[str]:
    """The rare paths' functions typed when 5000 Rummy's ``play_game5`` is compiled afresh for a
    2-player game of the standard rules (listed as ``off:<name>``), then with doubling and rummy
    calls (``on:<name>``)."""
    from rummysim.kernels.rum5000 import engine as E, stakes as SK
    from rummysim.kernels.rum5000.batch import switches5
    from rummysim.kernels.rum5000.layout import G_SIZE, H_SIZE
    from rummysim.simulation import prepare
    from rummysim.strategies.rum5000 import betting as B, dispatch as D

    rare = [SK.first_dealer_tie, SK.session_start, SK.hand_stakes_start, SK.before_turn, SK.settle_hand,
            SK.session_result, SK.betting_round, SK.double_window, SK.stake_view, B.wants_double, D.call_gain]
    typed = _watch_typing(rare)
    seen: set[str] = set()
    for label, rule in (("off", ()), ("on", ("r5k_doubling=true", "r5k_rummy=top_card"))):
        before = set(typed)
        cfg = prepare("5000-rummy", 2, "greedy", rule)
        args = (cfg.vector, cfg.lineup, cfg.params, 1, 0, np.zeros(G_SIZE, dtype=np.int64),
                np.zeros((4, H_SIZE), dtype=np.int32), None, None, *switches5(cfg.vector, cfg.lineup))
        numba.njit(nogil=True, error_model="numpy")(E.play_game5.py_func).compile(
            tuple(numba.typeof(a) for a in args))
        seen |= {f"{label}:{name}" for name in typed - before}
    return seen


@pytest.mark.parametrize("rule", [("r5k_doubling=true",), ("r5k_limit_poker=true",), ("r5k_rummy=top_card",),
                                  ("r5k_rummy=any_cards",), ("r5k_first_turn=exchange_upcard",)])
def test_5000_rummy_rare_rules_select_the_full_engine(rule):
    from rummysim.kernels.rum5000.batch import engine_variant5
    from rummysim.simulation import prepare

    assert engine_variant5(prepare("5000-rummy", 2, "greedy").vector, np.zeros(2, dtype=np.int64)) == ""
    cfg = prepare("5000-rummy", 2, "greedy", rule)
    assert engine_variant5(cfg.vector, cfg.lineup) == "full"


def test_5000_rummy_compiles_the_rare_paths_only_for_rules_that_use_them():
    """Issue 19 point 4: 5000 Rummy's engine types the stakes layers (V5K-13/14), the betting
    policies and rummy calls (V5K-3/4) only when the rules use a rare path (``batch.full_switch5``):
    ``play_game5`` compiled afresh in a new process for the standard rules types none of them, and
    for doubling with rummy calls all."""
    typed = _typed_in_a_fresh_process("_rare5_probe", "")
    assert not {name for name in typed if name.startswith("off:")}
    assert {"on:session_start", "on:hand_stakes_start", "on:before_turn", "on:settle_hand",
            "on:double_window", "on:wants_double", "on:call_gain"} <= typed
