"""Rules configuration: the flags of RULES.md §8.6, presets, validation and kernel support.

This module is the single place where a game's configuration is described. It
mirrors ``../shared/RULES.md``:

* :data:`FLAGS` (defined in ``flags.py``) is §8.6 ("Configuration flag index") row by row, in the same
  order, with each flag's allowed values (default first), rule IDs and a one-line
  summary, plus two engine safety caps that are not rules (rule id
  ``ENGINE-CAP``).
* :class:`Rules` is one frozen dataclass with a typed field per flag.
  ``Rules()`` is 500 Rum with every RULES.md default (§2, §9).
* :data:`PRESETS` names configurations (``rummysim rules list``; defined in ``presets.py``).
* :meth:`Rules.check` rejects what RULES.md forbids for a player count (§3,
  §5, §8.1, §8.2; the checks are in ``rule_checks.py``) and then what the kernels cannot play yet
  (:data:`KERNEL_SUPPORT`).

Building a configuration::

    rules = Rules.preset("500-rum").with_strings(["r500_target=1000"])
    rules.check(n_players=4)          # raises RulesError / UnsupportedRuleError / InputError
    decks, jokers, deal = pack_for(rules, 4)

Preset flags and implied settings (:data:`IMPLIES`) are expanded by
:meth:`Rules.with_` (and so by :meth:`Rules.preset` and
:meth:`Rules.with_strings`), never by the bare constructor: ``Rules(...)`` takes
every field literally, which is what loading a saved ``as_dict()`` needs.
"""

from __future__ import annotations

import dataclasses
import difflib
import numbers
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rummysim.errors import InputError, RulesError, UnsupportedRuleError
from rummysim.flags import ENGINE, FLAGS, GAMES, IMPLIES, Flag, Game, format_value, same_value
from rummysim.presets import PRESETS, Preset, list_presets
from rummysim.rule_checks import CONFLICT_CHECKS, pack_for

__all__ = [
    "ENGINE",
    "FLAGS",
    "GAMES",
    "IMPLIES",
    "KERNEL_SUPPORT",
    "PRESETS",
    "Flag",
    "Game",
    "Preset",
    "Rules",
    "describe",
    "format_value",
    "list_presets",
    "pack_for",
]

# ---------------------------------------------------------------------------
# What the kernels can play today.
#
# Edited by the kernel engineer as features land: for each flag, either the
# tuple of values the kernels implement or the string "any" (every value RULES.md
# allows, including any integer of an open-integer flag). A flag missing here
# supports only its default. "game" lists the games that have kernels at all.
# Keep this one plain literal dict; tests check that every key is a flag and
# every listed value is allowed by RULES.md.
#
# The preset flags r500_no_pickup_to_hit and r500_boathouse are "any" on
# purpose: they are labels that expand into other flags (V500-NOHIT,
# V500-BOATHOUSE), and those flags are checked themselves, so a preset whose
# expanded or overridden settings are all supported runs.
# ---------------------------------------------------------------------------
KERNEL_SUPPORT: dict[str, object] = {
    "game": ("500-rum", "standard-rummy", "5000-rummy", "rummikub"),
    # 500 Rum: every variation of RULES.md §3
    "r500_num_decks": "any",
    "r500_jokers_per_deck": "any",
    "r500_card_values": "any",
    "r500_ace_value": "any",
    "r500_ace_low_value": "any",
    "r500_four_aces_100": "any",
    "r500_score_divisor": "any",
    "r500_top_card_must_be_played": "any",
    "r500_pickup_use": "any",
    "r500_no_pickup_to_hit": "any",
    "r500_discard_restriction": "any",
    "r500_call_rummy": "any",
    "r500_going_out": "any",
    "r500_unplayable_discard": "any",
    "r500_must_go_out_to_win": "any",
    "r500_first_meld_min": "any",
    "r500_min_new_run": "any",
    "r500_round_the_corner": "any",
    "r500_boathouse": "any",
    "r500_stock_draw_count": "any",
    "r500_end_of_stock": "any",
    "r500_stock_out_hand_penalty": "any",
    "r500_stock_out_idle_turns": "any",
    "r500_add_opponent_hand": "any",
    "r500_addopp_stock_out": "any",
    "r500_seven_straight_bonus": "any",
    "r500_target": "any",
    "r500_tie_rule": "any",
    "r500_meld_out_of_turn": "any",
    "r500_upcard_mode": "any",
    "r500_next_dealer": "any",
    "r500_dealers_gambit": (False, True),
    "r500_gambit_jokers": (2, 4),
    "r500_partnership": (False, True),
    "r500_partner_layoff": ("any", "team_only"),
    "r500_persian": (False, True),
    # 5000 Rummy: every variation, the stakes layers (V5K-1, V5K-13, V5K-14) included
    "r5k_target": "any",
    "r5k_payoff": "any",
    "r5k_must_go_out_to_win": "any",
    "r5k_rummy": "any",
    "r5k_going_out": "any",
    "r5k_michigan": "any",
    "r5k_polish": "any",
    "r5k_persian": (False, True),
    "r5k_first_turn": "any",
    "r5k_money_cards": "any",
    "r5k_doubling": "any",
    "r5k_limit_poker": "any",
    # Rummikub: every rule and variation of RULES.md §6
    "rkub_direction": "any",
    "rkub_group_joker_release": "any",
    "rkub_max_jokers_per_combo": "any",
    "rkub_joker_penalty": "any",
    "rkub_initial_rule": "any",
    "rkub_manipulate_on_initial_turn": "any",
    "rkub_invalid_turn": "any",
    "rkub_rounds": "any",
    # Standard Rummy
    "std_going_out": "any",
    "std_game_hands": "any",
    "std_end_of_stock": "any",
    # Engine safety caps (not rules)
    "max_turns_per_hand": "any",
    "max_hands_per_game": "any",
}


def _did_you_mean(word: str, choices: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _unknown_flag(name: str) -> RulesError:
    return RulesError(
        f"unknown rule flag {name!r}{_did_you_mean(name, ['game', *FLAGS])}; "
        "`rummysim rules show 500-rum` lists the flags"
    )


# ---------------------------------------------------------------------------
# Rules
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules:
    """A complete, immutable rules configuration: the game plus one field per flag.

    Field defaults are the RULES.md defaults (§8.6, §9), so ``Rules()`` is base
    500 Rum. The constructor validates every value against RULES.md but takes
    fields literally (no preset expansion); use :meth:`preset`, :meth:`with_`
    or :meth:`with_strings` to build configurations the way users state them.
    Cross-flag and player-count checks live in :meth:`check`.
    """

    game: str = "500-rum"
    # 500 Rum (§2, §3)
    r500_num_decks: int | str = "auto"
    r500_jokers_per_deck: int = 2
    r500_card_values: str = "face"
    r500_ace_value: int = 15
    r500_ace_low_value: int | str = "auto"
    r500_four_aces_100: bool = False
    r500_score_divisor: int = 1
    r500_top_card_must_be_played: bool = False
    r500_pickup_use: str = "any"
    r500_no_pickup_to_hit: bool = False
    r500_discard_restriction: str = "top_single"
    r500_call_rummy: str = "off"
    r500_going_out: str = "any"
    r500_unplayable_discard: bool = False
    r500_must_go_out_to_win: bool = False
    r500_first_meld_min: int = 0
    r500_min_new_run: int = 3
    r500_round_the_corner: bool = False
    r500_boathouse: bool = False
    r500_stock_draw_count: int = 1
    r500_end_of_stock: str = "pile_or_end"
    r500_stock_out_hand_penalty: bool = True
    r500_stock_out_idle_turns: int | str = "n"
    r500_add_opponent_hand: bool = False
    r500_addopp_stock_out: str = "by_player_count"
    r500_seven_straight_bonus: int = 0
    r500_target: int = 500
    r500_tie_rule: str = "replay"
    r500_meld_out_of_turn: bool = False
    r500_upcard_mode: str = "stock"
    r500_next_dealer: str = "left"
    r500_dealers_gambit: bool = False
    r500_gambit_jokers: int = 2
    r500_partnership: bool = False
    r500_partner_layoff: str = "any"
    r500_persian: bool = False
    # 5000 Rummy (§4, §5)
    r5k_target: int | str = "auto"
    r5k_payoff: str = "difference"
    r5k_must_go_out_to_win: bool = False
    r5k_rummy: str = "off"
    r5k_going_out: str = "any"
    r5k_michigan: bool = False
    r5k_polish: bool = False
    r5k_persian: bool = False
    r5k_first_turn: str = "upcard"
    r5k_money_cards: bool = False
    r5k_doubling: bool = False
    r5k_limit_poker: bool = False
    # Rummikub (§6)
    rkub_direction: str = "clockwise"
    rkub_group_joker_release: str = "one_tile"
    rkub_max_jokers_per_combo: int = 2
    rkub_joker_penalty: int = 30
    rkub_initial_rule: str = "total"
    rkub_manipulate_on_initial_turn: bool = True
    rkub_invalid_turn: str = "reject"
    rkub_rounds: int = 1
    # Standard Rummy (§7)
    std_going_out: str = "discard_required"
    std_game_hands: int = 5
    std_end_of_stock: str = "pile_or_end"
    # Engine safety caps (not rules)
    max_turns_per_hand: int = 1000
    max_hands_per_game: int = 200

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise RulesError(
                f"unknown game {self.game!r}{_did_you_mean(str(self.game), GAMES)}; "
                f"known games: {', '.join(GAMES)}"
            )
        for name, flag in FLAGS.items():
            value = getattr(self, name)
            if not flag.allows(value):
                raise RulesError(flag.bad_value_message(value))

    # -- construction -------------------------------------------------------
    @classmethod
    def preset(cls, name: str) -> Rules:
        """The configuration of preset ``name`` (a :data:`PRESETS` key).

        Example:
            >>> Rules.preset("boathouse").r500_stock_draw_count
            2
        """
        try:
            p = PRESETS[name]
        except KeyError:
            raise RulesError(
                f"unknown preset {name!r}{_did_you_mean(str(name), PRESETS)}; "
                f"known presets: {', '.join(PRESETS)}"
            ) from None
        return cls(game=p.game).with_(**p.overrides)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rules:
        """Rebuild rules saved with :meth:`as_dict` (e.g. from a run manifest).

        Values are taken literally (no preset expansion: the saved dict already
        holds the expanded values); string values are parsed as in :meth:`with_`.
        Missing flags take their defaults.
        """
        values: dict[str, object] = {}
        for key, raw in data.items():
            if key == "game":
                values["game"] = raw
            elif key in FLAGS:
                values[key] = FLAGS[key].parse(raw)
            else:
                raise _unknown_flag(key)
        return cls(**values)  # type: ignore[arg-type]

    def with_(self, **overrides: object) -> Rules:
        """A copy with ``overrides`` applied; string values are parsed to the flag's type.

        Switching on a preset flag or an implying setting (:data:`IMPLIES`) also
        sets what it implies, except flags given explicitly in the same call.
        Switching one off resets the settings it implied that still hold the
        implied value back to their defaults (again except explicit ones).

        Example:
            >>> Rules.preset("500-rum").with_(r500_target=1000, r500_call_rummy="pile").r500_target
            1000
        """
        parsed: dict[str, object] = {}
        for name, raw in overrides.items():
            if name == "game":
                parsed[name] = raw
            elif name in FLAGS:
                parsed[name] = FLAGS[name].parse(raw)
            else:
                raise _unknown_flag(name)

        values = self.as_dict()
        values.update(parsed)

        implied: dict[str, tuple[object, str]] = {}  # flag -> (value, rule that implied it)
        for (trigger, on_value), (rule_id, settings) in IMPLIES.items():
            if trigger not in parsed:
                continue
            was_on = same_value(getattr(self, trigger), on_value)
            now_on = same_value(parsed[trigger], on_value)
            if now_on and not was_on:
                for name, value in settings.items():
                    if name in parsed:
                        continue  # explicit beats implied
                    if name in implied and not same_value(implied[name][0], value):
                        raise RulesError(
                            f"rules {implied[name][1]} and {rule_id} set {name} differently "
                            f"({format_value(implied[name][0])} vs {format_value(value)}); "
                            f"set {name} explicitly"
                        )
                    implied[name] = (value, rule_id)
            elif was_on and not now_on:
                for name, value in settings.items():
                    if name not in parsed and name not in implied and same_value(values[name], value):
                        implied[name] = (FLAGS[name].default, rule_id)
        for name, (value, _rule) in implied.items():
            values[name] = value
        return Rules(**values)  # type: ignore[arg-type]

    def with_strings(self, items: Iterable[str]) -> Rules:
        """A copy with ``"flag=value"`` items applied (as given by ``--rule`` on the CLI).

        The same flag given twice with different values is an error rather than
        "last one wins", so a typo in a long sweep command cannot pass silently.
        """
        overrides: dict[str, str] = {}
        for item in items:
            name, sep, value = str(item).partition("=")
            name, value = name.strip(), value.strip()
            if not sep or not name or not value:
                raise RulesError(f"malformed rule setting {item!r}: expected FLAG=VALUE")
            if name in overrides and overrides[name] != value:
                raise RulesError(
                    f"rule flag {name} given twice with different values "
                    f"({overrides[name]!r} and {value!r})"
                )
            overrides[name] = value
        return self.with_(**overrides)

    # -- views -----------------------------------------------------------------
    def as_dict(self) -> dict[str, object]:
        """``{"game": ..., flag: value, ...}`` in §8.6 order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    def changed(self) -> dict[str, object]:
        """The flags whose value differs from the RULES.md default (``game`` excluded)."""
        return {
            name: getattr(self, name)
            for name, flag in FLAGS.items()
            if not same_value(getattr(self, name), flag.default)
        }

    def as_strings(self) -> list[str]:
        """``"flag=value"`` items that rebuild these rules: ``Rules(game=...).with_strings(...)``.

        That is :meth:`changed`, plus every flag implied by a switched-on preset
        or implying flag even when it holds its default (``r500_boathouse=true``
        with ``r500_going_out=any``), since otherwise the preset would expand again.
        """
        keep = set(self.changed())
        for (trigger, on_value), (_rule, settings) in IMPLIES.items():
            if same_value(getattr(self, trigger), on_value):
                keep.update(settings)
        return [f"{name}={format_value(getattr(self, name))}" for name in FLAGS if name in keep]

    # -- validation ----------------------------------------------------------
    def check(self, n_players: int) -> None:
        """Check this configuration for ``n_players`` players, in this order.

        Raises:
            InputError: ``n_players`` is not an integer or outside the game's range.
            RulesError: a flag of another game is set to a non-default value, or
                flags conflict with each other or with ``n_players`` (RULES.md §3,
                §5, §8.1, §8.2); the message names the rule ID.
            UnsupportedRuleError: the configuration is valid but the kernels do
                not support the game or a flag value yet (:data:`KERNEL_SUPPORT`).
        """
        game = GAMES[self.game]
        if isinstance(n_players, bool) or not isinstance(n_players, numbers.Integral):
            raise InputError(f"number of players must be an integer, got {n_players!r}")
        n = int(n_players)
        if not game.min_players <= n <= game.max_players:
            raise InputError(
                f"{game.name} is for {game.min_players}-{game.max_players} players "
                f"({game.players_rule}), got {n}"
            )

        for name, flag in FLAGS.items():
            if flag.game in (ENGINE, self.game):
                continue
            value = getattr(self, name)
            if not same_value(value, flag.default):
                raise RulesError(
                    f"flag {name}={format_value(value)} belongs to {flag.game} "
                    f"(rule {flag.rule_for(value)}), but the game is {self.game}"
                )

        CONFLICT_CHECKS[self.game](self, n)

        if not _supported("game", self.game):
            raise UnsupportedRuleError(
                game.setup_rule, "game", self.game, f"the game {game.title} is not supported yet"
            )
        unsupported = [
            (name, getattr(self, name))
            for name, flag in FLAGS.items()
            if flag.game in (ENGINE, self.game) and not _supported(name, getattr(self, name))
        ]
        if unsupported:
            name, value = unsupported[0]
            others = ", ".join(f"{n_}={format_value(v)}" for n_, v in unsupported[1:])
            raise UnsupportedRuleError(
                FLAGS[name].rule_for(value), name, value,
                f"also unsupported: {others}" if others else None,
            )


def _supported(name: str, value: object) -> bool:
    support = KERNEL_SUPPORT.get(name)
    if support is None:  # not listed: only the default
        return name in FLAGS and same_value(value, FLAGS[name].default)
    if support == "any":
        return True
    return any(same_value(value, v) for v in support)  # type: ignore[union-attr]


def describe(rules: Rules) -> list[dict[str, object]]:
    """One row per flag of the rules' game, then the engine flags (``rummysim rules show``).

    Row keys: flag, value, default, rule_ids (tuple), doc, allowed (the values RULES.md and the
    designer's range allow, as text), supported (the value, by the kernels),
    implemented (every value RULES.md allows) and not_implemented (the allowed values the kernels
    do not play yet, a tuple).
    """
    rows: list[dict[str, object]] = []
    for game in (rules.game, ENGINE):
        for name, flag in FLAGS.items():
            if flag.game != game:
                continue
            value = getattr(rules, name)
            rows.append({
                "flag": name,
                "value": value,
                "default": flag.default,
                "rule_ids": flag.rule_ids,
                "doc": flag.doc,
                "allowed": flag.allowed_text(),
                "supported": _supported(name, value),
                "implemented": not missing_values(name),
                "not_implemented": missing_values(name),
            })
    return rows


def missing_values(name: str) -> tuple[object, ...]:
    """The values of flag ``name`` that RULES.md allows and the kernels do not play yet
    (:data:`KERNEL_SUPPORT`); empty when the flag is implemented (an open integer counts as one
    value, supported under ``"any"``)."""
    flag = FLAGS[name]
    if KERNEL_SUPPORT.get(name) == "any":
        return ()
    return tuple(v for v in flag.values if not _supported(name, v))


def _self_check() -> None:
    # The Rules fields are written out for readability (like a rulebook header);
    # this keeps them in step with FLAGS. Raised, not asserted, so -O cannot skip it.
    names = [f.name for f in dataclasses.fields(Rules)]
    if names != ["game", *FLAGS]:
        raise RuntimeError("rummysim.rules: Rules fields and FLAGS differ in names or order")
    for f in dataclasses.fields(Rules)[1:]:
        if not same_value(f.default, FLAGS[f.name].default):
            raise RuntimeError(f"rummysim.rules: default of Rules.{f.name} differs from FLAGS")


_self_check()
