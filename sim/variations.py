"""Names of variations people can read: a preset plus the flags that differ from it.

A *variation* is what a run played, named the way a user asks for it: the preset (``rummysim rules
list``) and the ``--rule`` overrides relative to that preset's expansion, e.g. ``boathouse`` or
``500-rum +r500_target=1000``. The overrides are the fewest that rebuild the rules exactly
(``Rules.preset(preset).with_strings(overrides) == rules``): a flag a preset flag implies is left
out (``500-rum +r500_boathouse=true``, not its four flags), one that undoes an implication is kept.

Every output names its variation by :attr:`Variation.label`; the full configuration is one
command away, :attr:`Variation.rules_command` (``rummysim rules show PRESET -r FLAG=VALUE ...``).
When the preset is not known (a ``Rules`` built in Python, a result file written before the
metadata had a ``preset`` key) :func:`variation_of` picks the preset of the rules' game that needs
the fewest overrides.

Example:
    >>> from rummysim.rules import Rules
    >>> variation_of(Rules.preset("boathouse"), "boathouse").label
    'boathouse'
    >>> variation_of(Rules.preset("500-rum").with_strings(["r500_target=1000"]), "500-rum").label
    '500-rum +r500_target=1000'
    >>> parse_label("500-rum +r500_target=1000").r500_target
    1000
"""

from __future__ import annotations

import shlex
from functools import lru_cache
from typing import NamedTuple

from rummysim.errors import RulesError
from rummysim.flags import FLAGS, format_value, same_value
from rummysim.presets import PRESETS
from rummysim.rules import Rules


class Variation(NamedTuple):
    """A preset and the ``flag=value`` overrides (in flag-index order) that rebuild some rules."""

    preset: str
    overrides: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``preset +flag=value +flag=value`` (just the preset without overrides)."""
        return " ".join([self.preset, *(f"+{o}" for o in self.overrides)])

    @property
    def rules_command(self) -> str:
        """The command that prints this variation's full rules."""
        return shlex.join(["rummysim", "rules", "show", self.preset, *[a for o in self.overrides for a in ("-r", o)]])

    def rules(self) -> Rules:
        return Rules.preset(self.preset).with_strings(self.overrides)

    def as_json(self) -> dict[str, object]:
        return {"preset": self.preset, "overrides": list(self.overrides), "variation": self.label}


def _same_rules(a: Rules, b: Rules) -> bool:
    return a.game == b.game and all(same_value(getattr(a, n), getattr(b, n)) for n in FLAGS)


def _rebuild(base: Rules, target: Rules, names: list[str]) -> Rules | None:
    try:
        return base.with_(**{n: getattr(target, n) for n in names})
    except RulesError:  # two implications disagree on a flag left out: that set does not rebuild
        return None


def overrides_between(base: Rules, target: Rules) -> tuple[str, ...]:
    """The fewest ``flag=value`` items that turn ``base`` into ``target`` through ``with_strings``
    (both of one game): every differing flag, plus any an implication would otherwise change,
    minus those the others imply."""
    names = [n for n in FLAGS if not same_value(getattr(base, n), getattr(target, n))]
    for _ in range(len(FLAGS)):  # an implication switched on may move a flag that already matched
        rebuilt = _rebuild(base, target, names)
        wrong = [] if rebuilt is None else \
            [n for n in FLAGS if n not in names and not same_value(getattr(rebuilt, n), getattr(target, n))]
        if not wrong:
            break
        names += wrong
    for name in [n for n in FLAGS if n in names]:
        trial = [n for n in names if n != name]
        rebuilt = _rebuild(base, target, trial)
        if rebuilt is not None and _same_rules(rebuilt, target):
            names = trial
    return tuple(f"{n}={format_value(getattr(target, n))}" for n in FLAGS if n in names)


@lru_cache(maxsize=None)
def _preset_rules(name: str) -> Rules:
    return Rules.preset(name)


@lru_cache(maxsize=4096)  # a sweep's files share a few rules: name each once
def variation_of(rules: Rules, preset: str | None = None) -> Variation:
    """``rules`` named by ``preset`` (a preset of the rules' game) and the overrides from it; without
    ``preset`` (or one of another game) the preset needing the fewest overrides, the game's base
    preset first among equals."""
    if preset in PRESETS and PRESETS[preset].game == rules.game:
        return Variation(preset, overrides_between(_preset_rules(preset), rules))
    candidates = sorted((p for p in PRESETS.values() if p.game == rules.game), key=lambda p: p.name != rules.game)
    best: Variation | None = None
    for p in candidates:
        found = Variation(p.name, overrides_between(_preset_rules(p.name), rules))
        if best is None or len(found.overrides) < len(best.overrides):
            best = found
    if best is None:  # a game without presets: its base rules
        return Variation(rules.game, overrides_between(Rules(game=rules.game), rules))
    return best


def clear_caches() -> None:
    """Forget the named presets and variations (for tests that patch the rules tables)."""
    _preset_rules.cache_clear()
    variation_of.cache_clear()


def parse_label(text: str) -> Rules:
    """The rules a label names (``500-rum +r500_target=1000``); RulesError on a bad one."""
    words = text.split()
    if not words:
        raise RulesError("empty variation label: expected PRESET [+FLAG=VALUE ...]")
    bad = [w for w in words[1:] if not w.startswith("+")]
    if bad:
        raise RulesError(f"cannot read {bad[0]!r} in variation {text!r}: expected PRESET +FLAG=VALUE ...")
    return Rules.preset(words[0]).with_strings([w[1:] for w in words[1:]])
