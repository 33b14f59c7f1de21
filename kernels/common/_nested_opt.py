"""Compile-time cut: a library finalized during a nested compile skips numba's final-module
optimisation and its machine code until it is called from Python (issue 19 point 4).

When a kernel is compiled because another kernel being compiled calls it, numba finalizes the
callee's library on its own: it links in every library the callee calls, runs the whole module
pass pipeline (``CPUCodeLibrary._optimize_final_module``, the O3 pipeline twice) over the linked
subtree and emits machine code for all of it (``get_executable``, for the callee's Python entry
point). The caller then links those libraries in again, optimises the whole and emits it once
more, at every call level up to the kernel called from Python. In a cold 500 Rum greedy compile the
nested libraries took about 11 s of CPU of module optimisation and 10 s of machine code, against
1.5 s and 0.8 s for the top one (``simulate``'s ``play_games``).

The callee's own machine code only runs when it is called directly from Python; a caller always
links in the callee's IR (``_get_module_for_linking``) and optimises and emits it with its own
final module. So a library filled or finalized while another compile is under way (``numba:compile`` events
nested two deep or more), or belonging to a function compiled then, skips numba's per-function
passes (``_optimize_functions``, about 4 s of a cold greedy compile) and the module pass pipeline,
which the caller's module pipeline runs over the same functions, and such a function's entry
point is a ``_DeferredEntry``. The top-level library is optimised and emitted as before, over
the same IR, so the code of the kernel called from Python is the same (``tests/test_digests.py``
pins the rows; the steady speed and the compile times are in benchmarks/README.md, issue 19,
sessions 12 and 13). Such a library is not written to the on-disk cache. A function first
compiled nested and later called directly from Python (tests do this) is compiled again then,
at the top level: its unoptimised nested code never runs on its own, because without the
per-function passes (no ``mem2reg``) it is many times slower, enough to stall a test run.

Linking: numba links into each library's final module a copy of every library it calls
(``link_in`` of a clone), so a library's module held its whole callee subtree and every level up
copied and linked the subtrees again: 417 module clones and 588 links in a cold 500 Rum greedy
compile, 6.8 s and 4.9 s under load. A library finalized nested now links nothing (``FLAT``, its
calls stay declarations) and a caller links the closure through flat libraries
(``linked_closure``), each library once: 204 clones and 375 links, 0.8 s and 1.0 s. The top-level
module holds the same functions as before. A flat library whose own machine code is wanted
(object-mode and lifted code, a pointer, a cache write) links its callees first (``_complete``).
LLVM links a library's functions (``linkonce_odr`` in its module for linking) only where the
module linked into already calls them, so a library linked before any caller in the closure loses
its code; a module that links then links such a library again (``_relink_dropped``), and stops
the compile with an error if it calls a kernel no linked library defines.

Wrappers: a plain dispatcher's function compiled nested is lowered without its Python and C
wrappers (``_skip_when_nested``): its deferred entry compiles it again at the top level if Python
calls it, so they would never run, and building them (boxing and unboxing every argument type)
took about 3 s of a cold heuristic-lineup compile. Lifted and object-mode code, whose entry is
emitted, keeps them; emitting the entry of a function built without them raises (``_emitted``).

A function's environment pointer (a ``common`` global its code reads, e.g. in object-mode
blocks) is set by numba when the function's own code is emitted; for a deferred one it is set
once the first emitted module that holds the global is in the engine (``_set_pending_envs``).

numba compiles under its global compiler lock, so the depth counter below is only changed by one
compile at a time. The hooks are checked at import (``check_numba_hooks`` in ``_jit.py``).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from numba.core import caching, codegen, cpu, dispatcher, event, lowering
from numba.core.compiler_lock import global_compiler_lock

# libraries whose module optimisation was skipped (a flag on the library object)
UNOPTIMIZED = "_rummysim_unoptimized"
# libraries of functions compiled inside another compile (set before they are finalized)
NESTED = "_rummysim_nested"
# finalized libraries whose machine code is not emitted yet
DEFERRED = "_rummysim_deferred"
# nested libraries whose final module holds their own code only, not the libraries they call
FLAT = "_rummysim_flat"
# libraries of nested functions lowered without their Python and C wrappers
NO_WRAPPERS = "_rummysim_no_wrappers"

# (codegen, environment global's name, environment) of deferred functions not yet set
_PENDING_ENVS: list[tuple[Any, str, Any]] = []


class _CompileDepth(event.Listener):
    """How many ``numba:compile`` events are under way (the dispatchers' compiles, nested), and
    whose they are."""

    depth = 0
    owners: list = []

    def on_start(self, event):
        _CompileDepth.depth += 1
        _CompileDepth.owners.append(event.data.get("dispatcher") if isinstance(event.data, dict) else None)

    def on_end(self, event):
        _CompileDepth.depth -= 1
        _CompileDepth.owners.pop()


def _entry_never_runs() -> bool:
    """The function being lowered is compiled inside another compile for a plain dispatcher: its
    entry point will be a ``_DeferredEntry``, which compiles the function again at the top level if
    Python ever calls it, so its own Python and C wrappers are never called (lifted code, whose
    entry is emitted, keeps them)."""
    owners = _CompileDepth.owners
    return _CompileDepth.depth >= 2 and bool(owners) and isinstance(owners[-1], dispatcher.Dispatcher)


def _nested(library) -> bool:
    return getattr(library, NESTED, False) or _CompileDepth.depth >= 2


class _DeferredEntry:
    """The Python entry point of a function compiled nested. Its nested code skipped the
    optimisations (its callers optimise it with their own modules), so the first call from Python
    compiles the function again at the top level, optimised and cached like any kernel called
    from Python, and gives the dispatcher's fast path that entry."""

    def __init__(self, emit: Callable[[], Any]) -> None:
        self.emit = emit
        self._entry = None
        self._dispatcher = None
        self._signature: tuple = ()

    def bind(self, owner, signature: tuple) -> None:
        self._dispatcher, self._signature = owner, signature

    def __call__(self, *args, **kwargs):
        return self._optimised_entry()(*args, **kwargs)

    def _optimised_entry(self):
        if self._entry is None:
            with global_compiler_lock:
                if self._entry is None:
                    self._dispatcher.overloads.pop(self._signature, None)
                    self._entry = self._dispatcher.compile(self._signature)
        return self._entry


def _set_pending_envs(module) -> None:
    """Point the environment globals that ``module`` (just in the engine) holds at their
    environments; a later module holding one shares the first definition (``common`` linkage)."""
    if not _PENDING_ENVS:
        return
    names = {gv.name for gv in module.global_variables}
    still = []
    for generator, name, env in _PENDING_ENVS:
        if name in names:
            generator.set_env(name, env)
        else:
            still.append((generator, name, env))
    _PENDING_ENVS[:] = still


def linked_closure(libraries) -> list:
    """The libraries to link into a final module: these, and through each flat one, the libraries it
    calls, transitively, in depth-first order, each once."""
    order: list = []
    seen: set = set()
    stack = list(reversed(libraries))
    while stack:
        library = stack.pop()
        if library in seen:
            continue
        seen.add(library)
        order.append(library)
        if getattr(library, FLAT, False):
            stack.extend(reversed(library._linking_libraries))
    return order


def _link_in(library, callees) -> None:
    for callee in callees:
        library._final_module.link_in(callee._get_module_for_linking(), preserve=True)


def _declared_kernels(module) -> list[str]:
    """Compiled kernels (``_ZN`` names) ``module`` calls but does not define."""
    return [fn.name for fn in module.functions if fn.is_declaration and fn.name.startswith("_ZN")]


def _definers_among(names: list[str], libraries) -> list:
    """The libraries among ``libraries`` whose module for linking defines one of ``names``."""
    wanted = set(names)
    return [lib for lib in libraries
            if any(not fn.is_declaration and fn.name in wanted for fn in lib._get_module_for_linking().functions)]


def _relink_dropped(library, linked) -> None:
    """Link again the libraries whose code LLVM dropped from ``library``'s final module, so that
    every compiled kernel it calls is defined in it.

    A library's module for linking holds its functions as ``linkonce_odr``, and LLVM's linker only
    takes such a function when the module it links into already refers to it. The closure is
    linked callers first, but a caller optimised before linking (the kernel called from Python, its
    ``_optimize_functions``) may have lost its only call to a callee in a dead branch and still link
    the callee's library first: its code is dropped, and the flat library linked next that calls it
    leaves a declaration. A CI run made such a ``play_games``, whose calls to ``has_card`` and
    ``pos_card`` went to address 0 (tests/test_jit_policy.py rebuilds the case). Linking the
    definer again once the call is there takes the code. A kernel no linked library defines is a
    fault of the closure walk: the compile stops with an error naming it rather than emit the call."""
    tried: set[str] = set()
    while True:
        missing = _declared_kernels(library._final_module)
        new = [name for name in missing if name not in tried]
        if not new:
            if missing:
                raise RuntimeError(
                    f"rummysim: {library.name} calls compiled kernels that no library it links defines: "
                    f"{', '.join(missing)} (a fault of the closure walk in kernels/common/_nested_opt.py)")
            return
        tried.update(new)
        _link_in(library, _definers_among(new, linked))


def _complete(library) -> None:
    """Link into a flat library the code it calls, before its own machine code is made (object-mode
    and lifted code, a pointer asked for, a cache write: once, as its deferred emission is)."""
    if getattr(library, FLAT, False):
        callees = linked_closure(library._linking_libraries)
        _link_in(library, callees)
        _relink_dropped(library, callees)
        library._dynamic_globals = []
        library._finalize_dynamic_globals()
        library._verify_declare_only_symbols()


def _emit_deferred(library) -> None:
    with global_compiler_lock:
        library._ensure_finalized()
        if getattr(library, DEFERRED, False):
            _complete(library)
            setattr(library, DEFERRED, False)
            library._codegen._add_module(library._final_module)
            library._finalize_specific()
            _set_pending_envs(library._final_module)


def _emitted(executable: Callable, context, code_library, fndesc, env):
    """numba's ``get_executable`` of a deferred function, which needs its Python wrapper: a
    function lowered without one (``_skip_when_nested``) fails here, by name, instead of calling
    address 0."""
    if getattr(code_library, NO_WRAPPERS, False):
        raise RuntimeError(f"rummysim: {fndesc.qualname} was compiled inside another compile, without its "
                           "Python wrapper; call its dispatcher from Python to compile it at the top level")
    return executable(context, code_library, fndesc, env)


def _skip_when_nested(owner: type, name: str) -> None:
    """Make ``owner.name`` (a wrapper's lowering) do nothing for a function whose entry never runs:
    about 3 s of a cold heuristic-lineup compile built wrappers for nested kernels, and every
    caller's module linked them in."""
    build = getattr(owner, name)

    def maybe_build(self, *args, **kwargs):
        if _entry_never_runs():
            setattr(self.library, NO_WRAPPERS, True)
            return None
        return build(self, *args, **kwargs)

    setattr(owner, name, maybe_build)


def install() -> None:
    """Wrap numba's final-module optimisation and emission, ``get_executable``,
    the dispatcher's ``add_overload`` and ``FunctionCache.save_overload``, once per process."""
    library = codegen.CPUCodeLibrary
    optimize = library._optimize_final_module
    if getattr(optimize, "_rummysim_nested", False):
        return
    event.register("numba:compile", _CompileDepth())

    def _optimize_final_module(self):
        if _nested(self):
            setattr(self, UNOPTIMIZED, True)
            return
        optimize(self)

    _optimize_final_module._rummysim_nested = True
    library._optimize_final_module = _optimize_final_module

    optimize_functions = library._optimize_functions

    def _optimize_functions(self, ll_module):
        if _nested(self):
            # the caller's module pipeline runs over these functions; it needs only the layout
            ll_module.data_layout = self._codegen._data_layout
            return
        optimize_functions(self, ll_module)

    library._optimize_functions = _optimize_functions

    finalize_final = library._finalize_final_module

    def _finalize_final_module(self):
        if not getattr(self, NESTED, False):
            finalize_final(self)
            _set_pending_envs(self._final_module)
            return
        # numba's own steps but the engine's: add_module and finalize_object wait for a call;
        # a flat module's calls are declarations until it is completed (``_complete``)
        self._finalize_dynamic_globals()
        if not getattr(self, FLAT, False):
            self._verify_declare_only_symbols()
        self._final_module._CPUCodeLibrary__library = weakref.proxy(self)
        setattr(self, DEFERRED, True)
        self._finalized = True

    library._finalize_final_module = _finalize_final_module

    def finalize(self):
        # numba's CPUCodeLibrary.finalize (without its DUMP_FUNC_OPT dump), linking the closure
        # through flat libraries; a nested library links nothing, its callers link for it
        codegen.require_global_compiler_lock()
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        callees = linked_closure(self._linking_libraries)
        for callee in callees:
            self._reload_init.update(callee._reload_init)
        if getattr(self, NESTED, False):
            setattr(self, FLAT, True)
        else:
            _link_in(self, callees)
            _relink_dropped(self, callees)
        self._optimize_final_module()
        self._final_module.verify()
        self._finalize_final_module()

    library.finalize = finalize

    jit_library = codegen.JITCodeLibrary
    pointer_to = jit_library.get_pointer_to_function

    def get_pointer_to_function(self, name):
        _emit_deferred(self)
        return pointer_to(self, name)

    jit_library.get_pointer_to_function = get_pointer_to_function

    serialize = library.serialize_using_object_code

    def serialize_using_object_code(self):
        _emit_deferred(self)
        return serialize(self)

    library.serialize_using_object_code = serialize_using_object_code

    executable = cpu.CPUContext.get_executable

    def get_executable(self, code_library, fndesc, env):
        if _CompileDepth.depth < 2 or code_library._finalized:
            return executable(self, code_library, fndesc, env)
        setattr(code_library, NESTED, True)
        _PENDING_ENVS.append((code_library.codegen, self.get_env_name(fndesc), env))
        return _DeferredEntry(lambda: _emitted(executable, self, code_library, fndesc, env))

    cpu.CPUContext.get_executable = get_executable

    for name in ("create_cpython_wrapper", "create_cfunc_wrapper"):
        _skip_when_nested(lowering.Lower, name)

    add_overload = dispatcher._DispatcherBase.add_overload

    def add_overload_deferred(self, cres):
        entry = cres.entry_point
        if isinstance(entry, _DeferredEntry):
            if cres.objectmode or not isinstance(self, dispatcher.Dispatcher):
                # lifted code (object-mode blocks, loops) is called through Python objects
                cres = cres._replace(entry_point=entry.emit())
            else:
                # the C fast path takes only real entry points: the first call goes through
                # compile(), which returns this one, which compiles the function optimised
                signature = tuple(cres.signature.args)
                entry.bind(self, signature)
                self.overloads[signature] = cres
                return
        add_overload(self, cres)

    dispatcher._DispatcherBase.add_overload = add_overload_deferred

    save = caching.FunctionCache.save_overload

    def save_overload(self, sig, data):
        library_of = getattr(data, "library", None)
        if getattr(library_of, UNOPTIMIZED, False) or getattr(library_of, NESTED, False):
            return
        save(self, sig, data)

    caching.FunctionCache.save_overload = save_overload
