"""The validator's own expansion of a run's configuration: preset name plus ``--rule`` overrides.

The checkers replay traces against flags; if those flags come already expanded by the config
layer (``rummysim.rules``), a wrong expansion there (a preset that implies the wrong settings) is
invisible to them, since the kernels play the same wrong flags.  So the validator also receives
what the user gave, the preset name and the overrides, expands them itself from this module's own
tables and reports every flag where the run's flags differ (:func:`check_configuration`).

The tables are written from RULES.md (the preset flags and implied settings of §3, V500-NOHIT,
V500-BOATHOUSE, V500-UNPLAYABLE/AMB-26, V500-DIV5, V500-PERSIAN) and from the named presets the
README lists (each one a game plus the flags of the variation its name gives); the expansion order
is docs/rules-decisions.md C1/C2.  Nothing here is imported from the config layer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from rummysim.validate.flags import (ENGINE_DEFAULTS, INT, RUM500_FLAGS, RUM5000_FLAGS,
                                     RUMMIKUB_FLAGS, STANDARD_FLAGS, norm_value)
from rummysim.validate.trace import Violation

#: rule ID of a configuration difference that no implication explains
CONFIG_RULE = "CONFIG-PRESET"

#: flag -> (kind, RULES.md default), every flag of §8.6 plus the engine caps
FLAG_DEFAULTS: dict[str, tuple[str, Any]] = {
    **{name: (spec[0], spec[1]) for table in (RUM500_FLAGS, STANDARD_FLAGS, RUM5000_FLAGS,
                                               RUMMIKUB_FLAGS) for name, spec in table.items()},
    **{name: (INT, value) for name, value in ENGINE_DEFAULTS.items()},
}


class Implication(NamedTuple):
    """RULES.md: switching ``trigger`` to ``value`` sets ``settings`` (rule ``rule_id``)."""

    trigger: str
    value: Any
    rule_id: str
    settings: Mapping[str, Any]


IMPLICATIONS: tuple[Implication, ...] = (
    # V500-NOHIT: "Preset r500_no_pickup_to_hit = true sets r500_pickup_use = new_meld and
    # r500_top_card_must_be_played = true."
    Implication("r500_no_pickup_to_hit", True, "V500-NOHIT",
                {"r500_pickup_use": "new_meld", "r500_top_card_must_be_played": True}),
    # V500-BOATHOUSE: "sets r500_going_out = discard_required, r500_discard_restriction = any_taken
    # and r500_stock_draw_count = 2."
    Implication("r500_boathouse", True, "V500-BOATHOUSE",
                {"r500_going_out": "discard_required", "r500_discard_restriction": "any_taken",
                 "r500_stock_draw_count": 2}),
    # V500-UNPLAYABLE: "true forces r500_going_out = floating (AMB-26)."
    Implication("r500_unplayable_discard", True, "V500-UNPLAYABLE", {"r500_going_out": "floating"}),
    # V500-DIV5: "the default target becomes 100; an explicitly set r500_target is used as given."
    Implication("r500_score_divisor", 5, "V500-DIV5", {"r500_target": 100}),
    # V500-PERSIAN: "it implies V500-PARTNER."
    Implication("r500_persian", True, "V500-PERSIAN", {"r500_partnership": True}),
)


class NamedPreset(NamedTuple):
    """A preset of ``rummysim rules list``: the game and the flags its variation sets."""

    game: str
    settings: Mapping[str, Any]


NAMED_PRESETS: dict[str, NamedPreset] = {
    "500-rum": NamedPreset("500-rum", {}),
    "500-rum-no-jokers": NamedPreset("500-rum", {"r500_jokers_per_deck": 0}),  # V500-JOKERS
    "500-rum-calling": NamedPreset("500-rum", {"r500_call_rummy": "pile"}),  # V500-RUMMY
    "500-rum-rum-call": NamedPreset("500-rum", {"r500_call_rummy": "layoff_only"}),
    "500-rum-floating": NamedPreset("500-rum", {"r500_going_out": "floating"}),  # V500-FLOAT
    "500-rum-unplayable": NamedPreset("500-rum", {"r500_unplayable_discard": True}),
    "boathouse": NamedPreset("500-rum", {"r500_boathouse": True}),  # V500-BOATHOUSE
    "500-rum-5-10-15": NamedPreset("500-rum", {"r500_card_values": "5_10_15"}),  # V500-VALUES
    "500-rum-divided": NamedPreset("500-rum", {"r500_card_values": "5_10_15",
                                               "r500_score_divisor": 5}),  # V500-DIV5
    "500-rum-no-hit": NamedPreset("500-rum", {"r500_no_pickup_to_hit": True}),  # V500-NOHIT
    "500-rum-long": NamedPreset("500-rum", {"r500_target": 1000}),  # V500-TARGET
    "pinochle-rummy": NamedPreset("500-rum", {"r500_top_card_must_be_played": True}),  # V500-TOPMUST
    "500-rum-house": NamedPreset("500-rum", {
        "r500_call_rummy": "pile", "r500_going_out": "floating", "r500_first_meld_min": 30,
        "r500_seven_straight_bonus": 500, "r500_tie_rule": "goer_wins"}),
    "partnership-500": NamedPreset("500-rum", {"r500_partnership": True}),  # V500-PARTNER
    "persian-rummy": NamedPreset("500-rum", {"r500_persian": True}),  # V500-PERSIAN
    # V500-GAMBIT with the target RULES.md names as its usual companion (V500-TARGET: "250, often
    # used with Dealer's gambit")
    "dealers-gambit": NamedPreset("500-rum", {"r500_dealers_gambit": True, "r500_target": 250}),
    "5000-rummy": NamedPreset("5000-rummy", {}),
    "5000-rummy-must-go-out": NamedPreset("5000-rummy", {"r5k_must_go_out_to_win": True}),  # V5K-2
    "5000-rummy-top-card": NamedPreset("5000-rummy", {"r5k_rummy": "top_card"}),  # V5K-3
    "5000-rummy-any-cards": NamedPreset("5000-rummy", {"r5k_rummy": "any_cards"}),  # V5K-4
    "5000-rummy-unmeldable": NamedPreset("5000-rummy", {"r5k_going_out": "unmeldable_discard"}),
    "5000-rummy-meld-all": NamedPreset("5000-rummy", {"r5k_going_out": "meld_all"}),  # V5K-6
    "5000-rummy-michigan": NamedPreset("5000-rummy", {"r5k_michigan": True}),  # V5K-7
    "5000-rummy-polish": NamedPreset("5000-rummy", {"r5k_polish": True}),  # V5K-8
    "5000-rummy-extra-card": NamedPreset("5000-rummy", {"r5k_first_turn": "extra_card"}),  # V5K-10
    "5000-rummy-exchange": NamedPreset("5000-rummy", {"r5k_first_turn": "exchange_upcard"}),
    "5000-rummy-money-cards": NamedPreset("5000-rummy", {"r5k_money_cards": True}),  # V5K-12
    "persian-5000": NamedPreset("5000-rummy", {"r5k_persian": True}),  # V5K-9
    "rummikub": NamedPreset("rummikub", {}),
    "rummikub-single-combo": NamedPreset("rummikub", {"rkub_initial_rule": "single_combo"}),  # AMB-38
    "rummikub-both-colours": NamedPreset("rummikub", {"rkub_group_joker_release": "both_colours"}),
    "rummikub-joker25": NamedPreset("rummikub", {"rkub_joker_penalty": 25}),  # VKUB-JOKER25
    "standard-rummy": NamedPreset("standard-rummy", {}),
}


class RunSettings(NamedTuple):
    """What a run was asked for: a preset name (None when the caller gave ready-made rules) and
    the ``flag=value`` overrides; ``base`` holds the ready-made rules' flags when there is no
    preset."""

    preset: str | None
    overrides: Sequence[str] = ()
    base: Mapping[str, Any] | None = None


class Expansion(NamedTuple):
    """Every flag's value, and for each flag set by an implication the rule ID that set it."""

    values: dict[str, Any]
    implied_by: dict[str, str]


class ExpansionError(ValueError):
    """The settings cannot be expanded (unknown preset or flag, conflicting implications)."""


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _typed(name: str, raw: Any) -> Any:
    if name == "game":
        return raw
    if name not in FLAG_DEFAULTS:
        raise ExpansionError(f"unknown flag {name!r}")
    try:
        return norm_value(name, FLAG_DEFAULTS[name][0], raw)
    except ValueError as exc:
        raise ExpansionError(str(exc)) from None


def _parse_overrides(items: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        name, sep, value = str(item).partition("=")
        if not sep:
            raise ExpansionError(f"malformed override {item!r}: expected FLAG=VALUE")
        out[name.strip()] = _typed(name.strip(), value.strip())
    return out


def _defaults(game: str) -> dict[str, Any]:
    return {"game": game, **{name: default for name, (_kind, default) in FLAG_DEFAULTS.items()}}


def _apply(base: Expansion, explicit: Mapping[str, Any]) -> Expansion:
    """``explicit`` over ``base`` (docs/rules-decisions.md C1/C2): a trigger switched on sets its
    settings except those given explicitly; a trigger switched off puts back the defaults of its
    settings that still hold its value (again except explicit ones); two triggers switched on
    together must not set one flag differently."""
    values = {**base.values, **explicit}
    implied_by = {k: v for k, v in base.implied_by.items() if k not in explicit}
    set_now: dict[str, tuple[Any, str]] = {}
    for imp in IMPLICATIONS:
        if imp.trigger not in explicit:
            continue
        was_on = _same(base.values[imp.trigger], imp.value)
        now_on = _same(explicit[imp.trigger], imp.value)
        for name, value in imp.settings.items():
            if name in explicit:
                continue
            if now_on and not was_on:
                if name in set_now and not _same(set_now[name][0], value):
                    raise ExpansionError(f"{set_now[name][1]} and {imp.rule_id} set {name} "
                                         "differently")
                set_now[name] = (value, imp.rule_id)
            elif was_on and not now_on and name not in set_now and _same(values[name], value):
                set_now[name] = (FLAG_DEFAULTS[name][1], imp.rule_id)
    for name, (value, rule_id) in set_now.items():
        values[name] = value
        implied_by[name] = rule_id
    return Expansion(values, implied_by)


def expand(settings: RunSettings) -> Expansion:
    """The flags ``settings`` give by this module's reading of RULES.md."""
    if settings.preset is None:
        if settings.base is None:
            raise ExpansionError("neither a preset nor base flags given")
        # flags the validator has no table for are carried over as given
        start = {name: _typed(name, raw) if name in FLAG_DEFAULTS else raw
                 for name, raw in settings.base.items()}
        base = Expansion({**_defaults(str(start.get("game", "500-rum"))), **start}, {})
    else:
        preset = NAMED_PRESETS.get(settings.preset)
        if preset is None:
            raise ExpansionError(f"unknown preset {settings.preset!r}")
        base = _apply(Expansion(_defaults(preset.game), {}), preset.settings)
    return _apply(base, _parse_overrides(settings.overrides))


def _described(settings: RunSettings) -> str:
    what = f"preset {settings.preset!r}" if settings.preset is not None else "the given rules"
    if settings.overrides:
        what += " with " + " ".join(settings.overrides)
    return what


def check_configuration(settings: RunSettings, flags: Mapping[str, Any]) -> list[Violation]:
    """One violation per flag where ``flags`` (what the run played) differ from the validator's
    own expansion of ``settings``; the rule ID is the implication's when one set the flag."""
    what = _described(settings)
    try:
        expected = expand(settings)
    except ExpansionError as exc:
        return [Violation(-1, 0, CONFIG_RULE, f"{what}: cannot be expanded: {exc}")]
    problems = []
    for name, want in expected.values.items():
        if name not in flags:
            continue
        try:
            got = _typed(name, flags[name])
        except ExpansionError as exc:
            problems.append(Violation(-1, 0, CONFIG_RULE, f"{what}: {exc}"))
            continue
        if not _same(got, want):
            rule = expected.implied_by.get(name, CONFIG_RULE)
            problems.append(Violation(
                -1, 0, rule, f"{what}: the run has {name}={got!r}, RULES.md gives {want!r}"))
    return problems
