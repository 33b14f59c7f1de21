"""Tuning a parametric strategy by self-play (issue 18 point 3): ``rummysim tune``.

Optuna's TPE sampler proposes parameter values; each candidate plays ``compare`` against a
reference strategy on the same deals (the seed's game indexes 0..games-1, every seating of the
lineup), so candidates differ only in their play: common random numbers. The objective is the
per-hand score difference. The best candidate is then measured on fresh deals (another seed)
against the reference, with its 95% interval: what a user can expect, not what the search saw.

The study lives in an Optuna journal file (``--state``): a second run with the same setup resumes
it, counting the trials already played, and a state file made for another setup is refused.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rummysim.errors import InputError
from rummysim.strategies.registry import canonical_spec, parse_strategy, with_setting

FRESH_SEED_OFFSET = 1_000_003  # fresh deals: a seed no tuning deal comes from

# Where the search looks, per parameter (inside each parameter's own range, strategies.registry):
# (low, high, step); step 1 for counts. Switches and the Dealer's gambit choices are left out:
# they are tuned by choosing the strategy (heuristic, cautious, digger).
SEARCH_SPACE: dict[str, tuple[float, float, float | None]] = {
    "deadwood_weight": (0.0, 2.0, None),
    "min_gain": (-10.0, 30.0, None),
    "max_take": (0.0, 8.0, 1.0),
    "later_weight": (0.0, 2.0, None),
    "risk_stock": (0.0, 30.0, 1.0),
    "risk_opp_cards": (0.0, 8.0, 1.0),
    "feed_weight": (0.0, 150.0, None),
    "useful_weight": (0.0, 200.0, None),
    "value_weight": (0.0, 3.0, None),
    "horizon": (0.1, 2.0, None),
    "tempo_5000": (0.0, 0.5, None),
}

ProgressFn = Callable[[int, int, float | None], None]


@dataclass(frozen=True)
class TuneSetup:
    """What a tuning run plays; the state file is bound to it."""

    strategy: str  # the starting point, NAME[:key=value...]; parameters not tuned keep its values
    game: str = "500-rum"
    players: int = 2
    rule: tuple[str, ...] = ()
    against: str | None = None  # the reference; default: ``strategy`` itself
    params: tuple[str, ...] = ()  # the parameters tuned; default: those of SEARCH_SPACE it has
    trials: int = 40
    games: int = 400  # deals per trial
    seed: int = 0
    fresh_games: int = 4000

    def reference(self) -> str:
        return canonical_spec(self.against or self.strategy)


@dataclass
class TuneResult:
    best: str  # the best candidate as a lineup entry (NAME:key=value...)
    best_params: dict[str, float]
    trials: int  # trials in the study (this run's and resumed ones)
    tuning_diff: float  # its per-hand difference on the tuning deals
    fresh: dict  # compare's per_hand summary on fresh deals (diff, ci, half_width, ...)
    fresh_seed: int
    reference: str
    history: list[float] = field(default_factory=list)  # each trial's per-hand difference, in order

    def as_json(self) -> dict:
        return asdict(self)


def tuned_params(setup: TuneSetup) -> tuple[str, ...]:
    """The parameters a run tunes, checked against the strategy's own parameters."""
    info, _ = parse_strategy(setup.strategy)
    own = [p.name for p in info.params]
    if not setup.params:
        chosen = tuple(name for name in SEARCH_SPACE if name in own)
        if not chosen:
            raise InputError(f"strategy {info.name} has no parameter tune can search ({', '.join(SEARCH_SPACE)})")
        return chosen
    for name in setup.params:
        if name not in own:
            raise InputError(f"strategy {info.name} has no parameter {name!r} (its parameters: {', '.join(own) or 'none'})")
        if name not in SEARCH_SPACE:
            raise InputError(f"--param {name}: tune searches {', '.join(SEARCH_SPACE)}")
    return tuple(setup.params)


def _check(setup: TuneSetup) -> None:
    if setup.trials < 1:
        raise InputError(f"--trials must be at least 1, got {setup.trials}")
    if setup.games < 1 or setup.fresh_games < 1:
        raise InputError("--games and --fresh-games must be at least 1")


def _candidate(base: str, values: dict[str, float]) -> str:
    spec = base
    for key, value in values.items():
        spec = with_setting(spec, key, value)
    return spec


def _suggest(trial, name: str) -> float:
    low, high, step = SEARCH_SPACE[name]
    if step is not None:
        return float(trial.suggest_int(name, int(low), int(high)))
    return trial.suggest_float(name, low, high)


def _study(setup: TuneSetup, params: tuple[str, ...], state: Path | None):
    import optuna
    from optuna.storages import JournalStorage
    from optuna.storages.journal import JournalFileBackend

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    # the study is bound to what its trials played (not to how many trials or fresh deals are asked)
    bound = {k: v for k, v in asdict(setup).items() if k not in ("trials", "fresh_games")}
    key = json.dumps({**bound, "params": list(params), "against": setup.reference(),
                      "strategy": canonical_spec(setup.strategy)}, sort_keys=True)
    storage = JournalStorage(JournalFileBackend(str(state))) if state is not None else None
    if storage is not None:
        names = {s.study_name for s in storage.get_all_studies()}
        if names and key not in names:
            raise InputError(f"--state {state} holds a tuning run of another setup; give a new file to start one")
    study = optuna.create_study(study_name=key, storage=storage, direction="maximize", load_if_exists=True)
    # A resumed run draws on from a seed of its own: the same seed would propose the first
    # trials' parameters again (the sampler's state is not in the journal).
    study.sampler = optuna.samplers.TPESampler(seed=setup.seed + len(study.trials), multivariate=True)
    return study


def _per_hand(a: str, b: str, setup: TuneSetup, games: int, seed: int, threads: int | None) -> dict:
    from rummysim.comparison import compare

    res = compare(a, b, game=setup.game, players=setup.players, rule=setup.rule, games=games, seed=seed,
                  threads=threads)
    return res.summary["per_hand"]


def tune(setup: TuneSetup, state: str | Path | None = None, threads: int | None = None,
         progress: ProgressFn | None = None) -> TuneResult:
    """Tune ``setup.strategy``'s parameters against ``setup.reference()`` (see the module docstring).

    Example:
        >>> from rummysim.tune import TuneSetup, tune
        >>> res = tune(TuneSetup("heuristic", players=2, trials=20, games=300))   # doctest: +SKIP
        >>> res.best, res.fresh["ci"]                                             # doctest: +SKIP
    """
    _check(setup)
    params = tuned_params(setup)
    reference = setup.reference()
    base = canonical_spec(setup.strategy)
    path = Path(state) if state is not None else None
    if path is not None and path.exists() and not path.is_file():
        raise InputError(f"--state {path} is not a file")
    study = _study(setup, params, path)

    def objective(trial) -> float:
        values = {name: _suggest(trial, name) for name in params}
        return _per_hand(_candidate(base, values), reference, setup, setup.games, setup.seed, threads)["diff"]

    def done() -> int:
        return sum(1 for t in study.trials if t.state.is_finished())

    def report(*_: object) -> None:
        if progress is not None:
            progress(done(), setup.trials, _best_value(study))

    report()
    remaining = setup.trials - done()
    if remaining > 0:
        study.optimize(objective, n_trials=remaining, callbacks=[report])
    best_params = {k: float(v) for k, v in study.best_params.items()}
    best = _candidate(base, best_params)
    fresh_seed = setup.seed + FRESH_SEED_OFFSET
    fresh = _per_hand(best, reference, setup, setup.fresh_games, fresh_seed, threads)
    history = [float(t.value) for t in study.trials if t.value is not None]
    return TuneResult(best, best_params, done(), float(study.best_value), fresh, fresh_seed, reference, history)


def _best_value(study) -> float | None:
    finished = [t.value for t in study.trials if t.value is not None and math.isfinite(t.value)]
    return max(finished) if finished else None


def parse_params(text: str | None) -> tuple[str, ...]:
    """``--params a,b,c`` as a tuple (empty: the default set)."""
    return tuple(p.strip() for p in (text or "").split(",") if p.strip())


__all__: Sequence[str] = ["SEARCH_SPACE", "TuneResult", "TuneSetup", "parse_params", "tune", "tuned_params"]
