"""Decorator policy for every numba kernel, in one place.

All kernels are compiled with ``cache=True`` so that the CLI starts from the on-disk cache after
the first run, and with ``nogil=True`` so that the batch runner's Python threads run them in
parallel. ``error_model="numpy"`` avoids the zero-division checks that the default Python error
model adds to integer code in hot loops. Three decorators (issue 8: speed and compile time):

* ``njit``: kernels that allocate arrays (or receive new ones), with reference counting;
* ``njit_noalloc``: kernels that never do, compiled without it (most of the engine, and the
  scalar bit helpers: LLVM inlines those by itself);
* ``njit_inline``: helpers that take arrays and single-call-site pieces, inlined at numba IR
  level. Numba re-runs its frontend on the inlined function and deep-copies its IR at every such
  call site, so this is kept for the places where a call would cost speed.

All three type calls from other kernels with the constants' plain types (``_plain_typed``).

Importing this module turns off LLVM's loop vectorizer for numba compiles in this process
(``numba.config.LOOP_VECTORIZE``; numba's SLP vectorizer is off by default) unless the
environment sets ``NUMBA_LOOP_VECTORIZE``: the kernels are scalar bit manipulation with short
loops that it cannot speed up, and it cost about 10% of a cold compile (issue 8).

Numba invalidates a cached function only when *its own* file changes, not when a function it
calls in another file does, so an edit to ``rum500/engine.py`` could leave ``rum500/batch.py``
running stale machine code. Unless ``NUMBA_CACHE_DIR`` is set by the user, the cache therefore
lives in a folder named after ``source_fingerprint()``, a hash of every source file of the
kernels, the strategies and the rules encoding, in every subpackage: any edit selects a fresh
cache. A resumed sweep checks the same fingerprint.

Eight groups of numba internals are used, checked at import (``check_numba_hooks``): the dispatcher's
``get_call_template``, the ``_nrt`` target option and the IR inliner's ``inline_ir`` and
``run_untyped_passes``, wrapped to copy an inlined function's IR once and build it once
(``_inline_copy``: compile time only, the same machine code), and the final-module optimisation
and the cache write of libraries finalized during a nested compile (``_nested_opt``: the caller
optimises their IR with its own); and the compile flags' ``values``, ``__hash__`` and ``__eq__``
(``_fast_flags``, installed only if they give numba's own answers); the liveness analysis
``compute_live_map``, replaced by the same fix-points on bitsets (``_live_map``); the SSA
reconstruction's block rewrites, given only the blocks that name the variable (``_ssa_skip``); and
the cache-index save, wrapped in a cross-process file lock (``_cache_lock``: numba issue 4807).
numba is pinned below the first minor version not tested with them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import os
from pathlib import Path

import numba
from numba.core import types

from rummysim.kernels.common import _cache_lock, _fast_flags, _inline_copy, _live_map, _nested_opt, _ssa_skip

# What decides the compiled code and the rows it writes: every kernel and strategy source, and the
# rules encoding. Named as modules so that the same files are found in a checkout, an editable
# install and site-packages alike.
FINGERPRINTED = ("rummysim.kernels", "rummysim.strategies", "rummysim.games")


def _source_files(module: str) -> tuple[Path, list[Path]]:
    """The folder of a package (or module) and every Python file below it."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise RuntimeError(f"rummysim: cannot find {module} to fingerprint the engine sources")
    if spec.submodule_search_locations:
        root = Path(next(iter(spec.submodule_search_locations)))
        return root, sorted(root.rglob("*.py"))
    return Path(spec.origin).parent, [Path(spec.origin)]


def source_fingerprint() -> str:
    """Hash of every source that decides the engine's results: the numba cache folder is named
    after it, and a resumed sweep is refused when it differs from the sweep's."""
    digest = hashlib.sha256()
    for module in FINGERPRINTED:
        root, files = _source_files(module)
        for path in files:
            digest.update(f"{module}/{path.relative_to(root).as_posix()}".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_root() -> Path:
    """rummysim's cache folder: ``$XDG_CACHE_HOME/rummysim``, else ``~/.cache/rummysim``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "rummysim"


def check_numba_hooks(dispatcher_class: type | None = None, options_class: type | None = None,
                      inliner_class: type | None = None) -> None:
    """Fail at import, with a clear message, if numba no longer has the private hooks this policy
    relies on: the dispatcher's ``get_call_template`` (wrapped by ``_plain_typed``), the ``_nrt``
    target option (``njit_noalloc``) and the IR inliner's ``inline_ir`` and ``run_untyped_passes``
    (wrapped by ``_inline_copy``), the code library, context, dispatcher and cache methods that
    ``_nested_opt`` wraps or calls, ``compute_live_map`` (replaced by ``_live_map``) and the SSA
    pass's functions ``_ssa_skip`` wraps. All are numba internals; pyproject.toml pins numba below
    the first minor version they were not tested with."""
    from numba.core import cpu, dispatcher, inline_closurecall

    dispatcher_class = dispatcher_class or dispatcher.Dispatcher
    options_class = options_class or cpu.CPUTargetOptions
    inliner_class = inliner_class or inline_closurecall.InlineWorker
    missing = []
    if not callable(getattr(dispatcher_class, "get_call_template", None)):
        missing.append("numba.core.dispatcher.Dispatcher.get_call_template")
    if not hasattr(options_class, "_nrt"):
        missing.append("the _nrt target option (numba.core.cpu.CPUTargetOptions._nrt)")
    if not all(callable(getattr(inliner_class, name, None)) for name in ("inline_ir", "run_untyped_passes")) \
            or not hasattr(inline_closurecall, "copy"):
        missing.append("numba.core.inline_closurecall.InlineWorker's inline_ir and run_untyped_passes")
    from numba.core import caching, codegen
    nested_hooks = ((codegen.CPUCodeLibrary, ("finalize", "_optimize_final_module", "_optimize_functions",
                                              "_finalize_final_module", "serialize_using_object_code",
                                              "_finalize_dynamic_globals", "_verify_declare_only_symbols",
                                              "_raise_if_finalized", "_get_module_for_linking")),
                    (codegen.CPUCodegen, ("_check_llvm_bugs",)),
                    (codegen.JITCodeLibrary, ("get_pointer_to_function", "_finalize_specific")),
                    (cpu.CPUContext, ("get_executable", "get_env_name")),
                    (dispatcher._DispatcherBase, ("add_overload", "_insert")),
                    (caching.FunctionCache, ("save_overload",)),
                    (caching.IndexDataCacheFile, ("save",)))
    absent = [f"{owner.__name__}.{name}" for owner, names in nested_hooks for name in names
              if not callable(getattr(owner, name, None))]
    if absent:
        missing.append(f"numba internals used by _nested_opt: {', '.join(absent)}")
    from numba.core import analysis, ir_utils
    if not all(callable(getattr(module, "compute_live_map", None)) for module in (analysis, ir_utils)) \
            or list(inspect.signature(analysis.compute_live_map).parameters) != list(_live_map.PARAMETERS):
        missing.append("numba.core.analysis.compute_live_map(cfg, blocks, var_use_map, var_def_map)")
    from numba.core import ssa
    if not all(callable(getattr(ssa, name, None)) for name in ("_run_ssa", "_run_block_rewrite", "_fresh_vars",
                                                                 "_fix_ssa_vars")):
        missing.append("numba.core.ssa's _run_ssa, _run_block_rewrite, _fresh_vars and _fix_ssa_vars")
    if missing:
        raise ImportError(
            f"rummysim's kernels need numba internals that numba {numba.__version__} no longer has: "
            f"{'; '.join(missing)}. Install the numba version pinned in pyproject.toml."
        )


check_numba_hooks()
_inline_copy.install()
_nested_opt.install()
_fast_flags.install()
_live_map.install()
_ssa_skip.install()
_cache_lock.install()

if "NUMBA_LOOP_VECTORIZE" not in os.environ:
    numba.config.LOOP_VECTORIZE = 0

if not os.environ.get("NUMBA_CACHE_DIR"):
    numba.config.CACHE_DIR = str(cache_root() / f"numba-{source_fingerprint()}")


def _plain_typed(dispatcher):
    """Type calls from other kernels with the constants' plain types (see ``njit``).

    Numba types a call from compiled code through ``Dispatcher.get_call_template``; wrapping it on
    the instance is one of the two places this module reaches into numba (``check_numba_hooks``
    verifies both at import). Should a numba version stop calling it, only compile time grows
    (``tests/test_jit_policy.py`` notices).
    """
    typed_template = dispatcher.get_call_template

    def get_call_template(args, kws):
        plain_args = tuple(types.unliteral(a) for a in args)
        return typed_template(plain_args, {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def njit(fn):
    """Decorator for scalar and array kernels: one compiled specialization per argument *types*.

    Numba compiles a separate copy of a function for every combination of literal constants its
    callers pass (``enumerate_plays(p1, jok, -1, ...)`` and ``enumerate_plays(p1, jok, must, ...)``
    were two; the engine had 330 specializations, most of them such copies, and every copy is
    optimized and code-generated with all its callees). Calls from other kernels are typed with the
    constants' plain types instead, so each function compiles once per engine specialization
    (lean or full variation paths, basic or all strategies, traced or not).
    """
    # _nrt explicit: numba would otherwise inherit a no-NRT caller's setting (see njit_noalloc)
    return _plain_typed(numba.njit(cache=True, nogil=True, error_model="numpy", _nrt=True)(fn))


def njit_noalloc(fn):
    """``njit`` for kernels that never allocate an array, return one, or receive one from a call.

    They are compiled without numba's reference counting (the ``_nrt=False`` target option): with
    it, every call of a kernel that calls other kernels cost an atomic increment and decrement of
    every array argument (draw options, play candidates and the greedy play-outs paid ~400 of them
    a turn). Arrays they receive stay owned by the caller, so nothing can leak or be freed early as
    long as the rule above holds; an allocation inside fails to compile.
    """
    return _plain_typed(numba.njit(cache=True, nogil=True, error_model="numpy", _nrt=False)(fn))


def njit_inline(fn):
    """``njit_noalloc`` for helpers that take arrays and single-call-site pieces, inlined into
    their callers at numba IR level: no call with every array exploded into its fields for the
    candidate rows, observations and the play phase. Scalar helpers stay plain ``njit_noalloc``
    functions (LLVM inlines them, and each numba-level inline site costs compile time)."""
    return numba.njit(cache=True, nogil=True, error_model="numpy", _nrt=False, inline="always")(fn)
