"""Rules configuration: the flags of RULES.md §8.6, presets, validation and kernel support.

This module is the single place where a game's configuration is described. It
mirrors ``../shared/RULES.md``:

* :data:`FLAGS` is §8.6 ("Configuration flag index") row by row, in the same
  order, with each flag's allowed values (default first), rule IDs and a one-line
  summary, plus two engine safety caps that are not rules (rule id
  ``ENGINE-CAP``).
* :class:`Rules` is one frozen dataclass with a typed field per flag.
  ``Rules()`` is 500 Rum with every RULES.md default (§2, §9).
* :data:`PRESETS` names configurations (``rummysim rules list``; defined in ``presets.py``).
* :meth:`Rules.check` rejects what RULES.md forbids for a player count (§3,
  §5, §8.1, §8.2) and then what the kernels cannot play yet
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
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rummysim.errors import InputError, RulesError, UnsupportedRuleError
from rummysim.presets import PRESETS, Preset, list_presets

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


# ---------------------------------------------------------------------------
# Games
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Game:
    """One game of RULES.md with its player range.

    ``players_rule`` is the rule giving the player range; ``setup_rule`` is the
    rule ID reported when the whole game is not supported by the kernels.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    flag_prefix: str
    players_rule: str
    setup_rule: str


GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        Game("500-rum", "500 Rum", 2, 8, "r500_", "R500-SETUP-1", "R500-SETUP-1"),
        Game("5000-rummy", "5000 Rummy: Excellent Rummy", 2, 5, "r5k_", "R5K-SETUP-1", "R5K-SETUP-1"),
        Game("rummikub", "Rummikub (Sabra rules)", 2, 4, "rkub_", "RKUB-SET-2", "RKUB-SET-1"),
        Game("standard-rummy", "Standard Rummy", 2, 6, "std_", "RSTD-SETUP-1", "RSTD-SETUP-1"),
    )
}

#: Game value of flags that apply to every game (the engine caps).
ENGINE = "*"


# ---------------------------------------------------------------------------
# Flags
# ---------------------------------------------------------------------------
_INT_RE = re.compile(r"[+-]?[0-9]+")


def format_value(value: object) -> str:
    """Show a flag value as a user types it: ``true``/``false`` for bools, else ``str``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _same(a: object, b: object) -> bool:
    # True == 1 in Python; a flag value must match in type as well as value, or
    # r500_jokers_per_deck=True would pass as 1.
    return type(a) is type(b) and a == b


@dataclass(frozen=True)
class Flag:
    """One configuration flag of RULES.md §8.6.

    Attributes:
        name: the flag name, e.g. ``"r500_target"``.
        rule_ids: the rule IDs of §8.6's "Rules" column, e.g. ``("V500-DISCREQ", "V500-FLOAT")``.
        values: allowed values in RULES.md order, default first, typed (bool, int or str).
        default: ``values[0]``.
        game: the game the flag belongs to (a :data:`GAMES` key), or ``"*"`` for every game.
        doc: one-line summary.
        open_int: True when any positive integer is also allowed (RULES.md "any positive
            integer" / "integer"); ``values`` then holds the symbolic default and named values.
        value_rules: ``(value, rule_id)`` pairs for values that have their own rule ID
            (``r500_going_out=floating`` is V500-FLOAT); other values use ``rule_ids[0]``.
        int_range: ``(lo, hi)`` when any integer in ``lo..hi`` is allowed besides ``values``
            (a designer's value; the sources' values in ``values`` stay the presets). The
            bounds are what the kernels represent and play sensibly; an open integer flag
            has one too, so "any positive integer" means ``1..hi``.
    """

    name: str
    rule_ids: tuple[str, ...]
    values: tuple[Any, ...]
    default: Any
    game: str
    doc: str
    open_int: bool = False
    value_rules: tuple[tuple[Any, str], ...] = ()
    int_range: tuple[int, int] | None = None

    def rule_for(self, value: object) -> str:
        """The rule ID most specific to ``value`` of this flag."""
        for v, rule in self.value_rules:
            if _same(v, value):
                return rule
        return self.rule_ids[0]

    def allows(self, value: object) -> bool:
        """Whether RULES.md allows ``value`` (already typed) for this flag."""
        if any(_same(value, v) for v in self.values):
            return True
        return self.in_range(value)

    def in_range(self, value: object) -> bool:
        """Whether ``value`` is an integer inside :attr:`int_range`."""
        if self.int_range is None or type(value) is not int:
            return False
        lo, hi = self.int_range
        return lo <= value <= hi

    def range_text(self) -> str:
        """``"50..100000"``, or ``""`` for a flag without an integer range."""
        return f"{self.int_range[0]}..{self.int_range[1]}" if self.int_range else ""

    def allowed_text(self) -> str:
        """The allowed values as text, for error messages and ``rules show``."""
        named = ", ".join(format_value(v) for v in self.values)
        if self.int_range is None:
            return named
        return f"{self.range_text()} (presets: {named})"

    def parse(self, raw: object) -> Any:
        """Turn a command-line string into this flag's typed value; non-strings pass through.

        Named values are matched first and verbatim (so ``"5_10_15"`` stays a
        string: Python's ``int()`` would read it as 51015); bools accept
        ``true``/``false`` in any case; integers are plain decimal.
        """
        if not isinstance(raw, str):
            return raw
        text = raw.strip()
        for v in self.values:
            if isinstance(v, bool):
                if text.lower() == format_value(v):
                    return v
            elif isinstance(v, int):
                if _INT_RE.fullmatch(text) and int(text) == v:
                    return v
            elif text == v:
                return v
        if self.int_range is not None and _INT_RE.fullmatch(text):
            return int(text)
        raise RulesError(self.bad_value_message(raw))

    def bad_value_message(self, value: object) -> str:
        if self.int_range is not None and type(value) is int:
            return f"{self.name}={value}: allowed {self.allowed_text()} (rule {self.rule_ids[0]})"
        shown = repr(value) if isinstance(value, str) else format_value(value)
        return (
            f"rule {self.rule_ids[0]}: {shown} is not a valid value for {self.name}; "
            f"allowed values: {self.allowed_text()}"
        )


_PREFIX_GAME = {g.flag_prefix: g.name for g in GAMES.values()}


def _flag(
    name: str,
    values: tuple[Any, ...],
    rules: str,
    doc: str,
    *,
    open_int: bool = False,
    value_rules: tuple[tuple[Any, str], ...] = (),
    game: str | None = None,
    int_range: tuple[int, int] | None = None,
) -> Flag:
    if open_int and int_range is None:
        raise RuntimeError(f"rummysim.rules: open integer flag {name} needs an int_range")
    if game is None:
        game = next(g for prefix, g in _PREFIX_GAME.items() if name.startswith(prefix))
    return Flag(
        name=name,
        rule_ids=tuple(r.strip() for r in rules.split(",")),
        values=values,
        default=values[0],
        game=game,
        doc=doc,
        open_int=open_int,
        value_rules=value_rules,
        int_range=int_range,
    )


_END_OF_STOCK = ("pile_or_end", "end_immediately", "reshuffle", "discard_until_out")

# RULES.md §8.6, same rows, same order. Rule IDs in parentheses there (AMB-xx)
# are kept as extra rule IDs after the main one.
FLAGS: dict[str, Flag] = {
    f.name: f
    for f in (
        # --- 500 Rum (§3) ---
        _flag("r500_num_decks", ("auto", 1, 2), "V500-DECKS",
              "Decks in the pack; auto = 1 for 2-4 players, 2 for 5-8."),
        _flag("r500_jokers_per_deck", (2, 1, 0), "V500-JOKERS",
              "Jokers added per deck (R500-SETUP-3)."),
        _flag("r500_card_values", ("face", "5_10_15", "all5"), "V500-VALUES",
              "Card-value scheme: face values, 5/10/15, or every natural 2-K worth 5."),
        _flag("r500_ace_value", (15, 25), "V500-ACE",
              "Value of an ace not used low in a run.", int_range=(1, 100)),
        _flag("r500_ace_low_value", ("auto", 1, 5, "same"), "V500-ACE",
              "Value of an ace used low (A-2-3); auto = 1 under face, 5 otherwise; same = r500_ace_value."),
        _flag("r500_four_aces_100", (False, True), "V500-ACE",
              "Four aces all credited to one player score 25 each (100)."),
        _flag("r500_score_divisor", (1, 5), "V500-DIV5",
              "Divide every value and bonus by this; 5 makes the default target 100."),
        _flag("r500_top_card_must_be_played", (False, True), "V500-TOPMUST",
              "A top discard taken alone must also be melded this turn."),
        _flag("r500_pickup_use", ("any", "new_meld"), "V500-NEWMELD",
              "Where the selected card of a pile take may go: any meld, or only a new meld."),
        _flag("r500_no_pickup_to_hit", (False, True), "V500-NOHIT",
              "Preset: pile cards only for new melds (sets r500_pickup_use, r500_top_card_must_be_played)."),
        _flag("r500_discard_restriction", ("top_single", "none", "any_taken"), "V500-DISCSAME",
              "Which cards taken from the pile this turn may not be discarded this turn."),
        _flag("r500_call_rummy", ("off", "pile", "top_only", "layoff_only"), "V500-RUMMY",
              "Calling \"Rummy!\" on discards that could have been played."),
        _flag("r500_going_out", ("any", "discard_required", "floating"), "V500-DISCREQ, V500-FLOAT",
              "How a player goes out: any way, only by discarding, or floating.",
              value_rules=(("floating", "V500-FLOAT"),)),
        _flag("r500_unplayable_discard", (False, True), "V500-UNPLAYABLE",
              "Going out needs an unplayable last discard (forces floating, AMB-26)."),
        _flag("r500_must_go_out_to_win", (False, True), "V500-MUSTOUT",
              "Only the player who went out can win the game."),
        _flag("r500_first_meld_min", (0, 30), "V500-OPEN30",
              "Minimum value put on the table in a player's first melding turn of a hand.",
              int_range=(0, 500)),
        _flag("r500_min_new_run", (3, 4), "V500-RUN4",
              "Minimum length of a newly laid run."),
        _flag("r500_round_the_corner", (False, True), "V500-CORNER",
              "Runs may wrap through the ace (K-A-2)."),
        _flag("r500_boathouse", (False, True), "V500-BOATHOUSE",
              "Preset: Boathouse rule (sets r500_going_out, r500_discard_restriction, r500_stock_draw_count)."),
        _flag("r500_stock_draw_count", (1, 2), "V500-BOATHOUSE",
              "Cards taken by a stock draw."),
        _flag("r500_end_of_stock", _END_OF_STOCK, "V500-STOCKEND",
              "What happens when the stock runs out."),
        _flag("r500_stock_out_hand_penalty", (True, False), "V500-STOCKEND",
              "Deduct hand cards when a hand ends with no one out."),
        _flag("r500_stock_out_idle_turns", ("n",), "R500-STOCK-2",
              "Idle turns after the stock is empty that end the hand; n = number of players.",
              open_int=True, int_range=(1, 100)),
        _flag("r500_add_opponent_hand", (False, True), "V500-ADDOPP",
              "The player who goes out adds the other players' hand values."),
        _flag("r500_addopp_stock_out", ("by_player_count", "continue_discarding"), "V500-ADDOPP-3",
              "Add-opponent rule when the stock runs out with no one out."),
        _flag("r500_seven_straight_bonus", (0, 500), "V500-7STRAIGHT",
              "Bonus for a new 7+ card run followed by going out by discard.",
              int_range=(0, 5000)),
        _flag("r500_target", (500, 1000, 250, 100), "V500-TARGET",
              "Game target total.", int_range=(50, 100_000)),
        _flag("r500_tie_rule", ("replay", "goer_wins"), "V500-TIE",
              "Tie at the target: replay a hand, or the player who went out wins."),
        _flag("r500_meld_out_of_turn", (False, True), "V500-OUTOFTURN",
              "New melds may be laid in a window after each discard."),
        _flag("r500_upcard_mode", ("stock", "first_player_choice"), "V500-UPCHOICE",
              "Upcard from the stock, or chosen by the first player from an extra card."),
        _flag("r500_next_dealer", ("left", "winner"), "V500-WINNERDEALS",
              "Who deals the next hand."),
        _flag("r500_dealers_gambit", (False, True), "V500-GAMBIT",
              "Dealer's gambit (one deck, 2-4 players)."),
        _flag("r500_gambit_jokers", (2, 4), "V500-GAMBIT-1",
              "Jokers in the Dealer's gambit pack."),
        _flag("r500_partnership", (False, True), "V500-PARTNER",
              "Partnership 500 rum (4 players, seats 0+2 vs 1+3)."),
        _flag("r500_partner_layoff", ("any", "team_only"), "V500-PARTNER-1",
              "In partnership play, lay off on any meld or only on the team's melds."),
        _flag("r500_persian", (False, True), "V500-PERSIAN",
              "Persian rummy (4 players, 56 cards, joker sets, two deals; implies partnership)."),
        # --- 5000 Rummy (§4, §5) ---
        _flag("r5k_target", ("auto",), "R5K-GAME-1",
              "Game target; auto = 5000/3000/2000 for 2/3/4-5 players, 2000 in Persian 5000.",
              open_int=True, int_range=(1, 100_000)),
        _flag("r5k_payoff", ("difference", "game_point"), "V5K-1",
              "[STAKES] Payoff: score difference or one game point."),
        _flag("r5k_must_go_out_to_win", (False, True), "V5K-2",
              "Only a player who goes out can win."),
        _flag("r5k_rummy", ("off", "top_card", "any_cards"), "V5K-3, V5K-4",
              "Rummy calls: off, top card only, or any pile cards.",
              value_rules=(("top_card", "V5K-3"), ("any_cards", "V5K-4"))),
        _flag("r5k_going_out", ("any", "unmeldable_discard", "meld_all"), "V5K-5, V5K-6",
              "How a player goes out (floating variants).",
              value_rules=(("unmeldable_discard", "V5K-5"), ("meld_all", "V5K-6"))),
        _flag("r5k_michigan", (False, True), "V5K-7",
              "The player who goes out adds the other players' hand values."),
        _flag("r5k_polish", (False, True), "V5K-8",
              "Extra draw option: take the whole discard pile."),
        _flag("r5k_persian", (False, True), "V5K-9",
              "Persian 5000: 4 players in partnerships."),
        _flag("r5k_first_turn", ("upcard", "extra_card", "exchange_upcard"), "V5K-10, V5K-11",
              "Start of the hand: upcard, extra card dealt, or exchanging the upcard.",
              value_rules=(("extra_card", "V5K-10"), ("exchange_upcard", "V5K-11"))),
        _flag("r5k_money_cards", (False, True), "V5K-12",
              "Money cards: QH+7H pairs +100, QH in hand -50."),
        _flag("r5k_doubling", (False, True), "V5K-13",
              "[STAKES] Doubling (2 players)."),
        _flag("r5k_limit_poker", (False, True), "V5K-14",
              "[STAKES] Limit-Poker 5000 (2 players)."),
        # --- Rummikub (§6) ---
        _flag("rkub_direction", ("clockwise", "counterclockwise"), "VKUB-DIR",
              "Direction of play."),
        _flag("rkub_group_joker_release", ("one_tile", "both_colours"), "VKUB-JOKERBOTH",
              "Tiles needed to free a joker from a 3-tile group."),
        _flag("rkub_max_jokers_per_combo", (2, 1), "VKUB-TWOJOKERS",
              "Maximum jokers in one combination."),
        _flag("rkub_joker_penalty", (30, 25), "VKUB-JOKER25",
              "Penalty for a joker left on a rack.", int_range=(0, 100)),
        _flag("rkub_initial_rule", ("total", "single_combo"), "RKUB-INIT-30, AMB-38",
              "Initial meld of 30: in total, or in a single combination."),
        _flag("rkub_manipulate_on_initial_turn", (True, False), "RKUB-INIT-2, AMB-39",
              "The table may be rearranged in the turn of the initial meld."),
        _flag("rkub_invalid_turn", ("reject", "penalty_draw3"), "RKUB-TIME-1",
              "Invalid final table: rejected, or undone with a 3-tile penalty draw."),
        _flag("rkub_rounds", (1,), "RKUB-GAME-1",
              "Rounds per game (scores added up).", open_int=True, int_range=(1, 100)),
        # --- Standard Rummy (§7) ---
        _flag("std_going_out", ("discard_required", "any"), "RSTD-OUT-1",
              "Going out only by discarding, or also by laying down every card."),
        _flag("std_game_hands", (5,), "RSTD-GAME-1",
              "Hands per game.", open_int=True, int_range=(1, 100)),
        _flag("std_end_of_stock", _END_OF_STOCK, "RSTD-STOCK-1",
              "What happens when the stock runs out (values of r500_end_of_stock)."),
        # --- Engine safety caps: not in RULES.md, apply to every game ---
        _flag("max_turns_per_hand", (1000,), "ENGINE-CAP",
              "Engine cap: a hand reaching this many turns ends and is recorded as capped.",
              open_int=True, game=ENGINE, int_range=(1, 100_000)),
        _flag("max_hands_per_game", (200,), "ENGINE-CAP",
              "Engine cap: a game reaching this many hands ends with no winner, recorded as capped.",
              open_int=True, game=ENGINE, int_range=(1, 10_000)),
    )
}


# ---------------------------------------------------------------------------
# Preset flags and implied settings, expanded by Rules.with_.
#
# Key: (flag, value) that switches the implication on. Value: the rule ID and
# the settings it implies. A setting given explicitly in the same with_ call
# wins over an implied one (§3 opening paragraph: "a flag set explicitly
# overrides the preset").
# ---------------------------------------------------------------------------
IMPLIES: dict[tuple[str, object], tuple[str, dict[str, object]]] = {
    # V500-NOHIT is a preset flag.
    ("r500_no_pickup_to_hit", True): (
        "V500-NOHIT",
        {"r500_pickup_use": "new_meld", "r500_top_card_must_be_played": True},
    ),
    # V500-BOATHOUSE is a preset flag.
    ("r500_boathouse", True): (
        "V500-BOATHOUSE",
        {"r500_going_out": "discard_required", "r500_discard_restriction": "any_taken",
         "r500_stock_draw_count": 2},
    ),
    # V500-UNPLAYABLE: "true forces r500_going_out = floating (AMB-26)".
    ("r500_unplayable_discard", True): ("V500-UNPLAYABLE", {"r500_going_out": "floating"}),
    # V500-DIV5: "the default target becomes 100; an explicitly set r500_target is used as given".
    ("r500_score_divisor", 5): ("V500-DIV5", {"r500_target": 100}),
    # V500-PERSIAN: "it implies V500-PARTNER".
    ("r500_persian", True): ("V500-PERSIAN", {"r500_partnership": True}),
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
            was_on = _same(getattr(self, trigger), on_value)
            now_on = _same(parsed[trigger], on_value)
            if now_on and not was_on:
                for name, value in settings.items():
                    if name in parsed:
                        continue  # explicit beats implied
                    if name in implied and not _same(implied[name][0], value):
                        raise RulesError(
                            f"rules {implied[name][1]} and {rule_id} set {name} differently "
                            f"({format_value(implied[name][0])} vs {format_value(value)}); "
                            f"set {name} explicitly"
                        )
                    implied[name] = (value, rule_id)
            elif was_on and not now_on:
                for name, value in settings.items():
                    if name not in parsed and name not in implied and _same(values[name], value):
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
            if not _same(getattr(self, name), flag.default)
        }

    def as_strings(self) -> list[str]:
        """``"flag=value"`` items that rebuild these rules: ``Rules(game=...).with_strings(...)``.

        That is :meth:`changed`, plus every flag implied by a switched-on preset
        or implying flag even when it holds its default (``r500_boathouse=true``
        with ``r500_going_out=any``), since otherwise the preset would expand again.
        """
        keep = set(self.changed())
        for (trigger, on_value), (_rule, settings) in IMPLIES.items():
            if _same(getattr(self, trigger), on_value):
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
            if not _same(value, flag.default):
                raise RulesError(
                    f"flag {name}={format_value(value)} belongs to {flag.game} "
                    f"(rule {flag.rule_for(value)}), but the game is {self.game}"
                )

        _CONFLICT_CHECKS[self.game](self, n)

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
        return name in FLAGS and _same(value, FLAGS[name].default)
    if support == "any":
        return True
    return any(_same(value, v) for v in support)  # type: ignore[union-attr]


# ---------------------------------------------------------------------------
# Cross-flag and player-count checks per game (RulesError)
# ---------------------------------------------------------------------------
_DEAL_500 = {2: 13}  # R500-DEAL-1: 13 cards with 2 players, 7 with 3 or more


def _r500_pack(rules: Rules, n: int) -> tuple[int, int, int]:
    """(decks, jokers in pack, deal size) without validity checks."""
    if rules.r500_persian:
        decks, jokers = 1, 4  # V500-PERSIAN-1: 52 + 4 jokers
    elif rules.r500_dealers_gambit:
        decks, jokers = 1, rules.r500_gambit_jokers  # V500-GAMBIT-1, AMB-22: one deck
    else:
        # R500-SETUP-2 / V500-DECKS: auto = one deck for 2-4 players, two for 5-8.
        decks = (1 if n <= 4 else 2) if rules.r500_num_decks == "auto" else int(rules.r500_num_decks)
        jokers = rules.r500_jokers_per_deck * decks  # R500-SETUP-3 / V500-JOKERS
    return decks, jokers, _DEAL_500.get(n, 7)


def _check_r500(rules: Rules, n: int) -> None:
    r = rules
    # V500-PARTNER / V500-PERSIAN: exactly 4 players; Persian implies partnership.
    if r.r500_persian and not r.r500_partnership:
        raise RulesError("rule V500-PERSIAN: r500_persian=true implies r500_partnership=true "
                         "(it was set to false)")
    for flag, rule in (("r500_persian", "V500-PERSIAN"), ("r500_partnership", "V500-PARTNER")):
        if getattr(r, flag) and n != 4:
            raise RulesError(f"rule {rule}: {flag}=true needs exactly 4 players, got {n}")
    if r.r500_partner_layoff != "any" and not r.r500_partnership:
        raise RulesError(f"rule V500-PARTNER-1: r500_partner_layoff={r.r500_partner_layoff} "
                         "needs r500_partnership=true")
    # V500-GAMBIT: one deck, so 2-4 players (AMB-22).
    if r.r500_dealers_gambit:
        if not 2 <= n <= 4:
            raise RulesError(f"rule V500-GAMBIT: r500_dealers_gambit=true is for 2-4 players "
                             f"(one deck, AMB-22), got {n}")
        if r.r500_persian:
            # Persian jokers are not wild (V500-PERSIAN-2) and have their own pack;
            # the gambit's joker effects and pack cannot apply at the same time.
            raise RulesError("rules V500-GAMBIT and V500-PERSIAN cannot be combined "
                             "(different packs and joker rules)")
    elif r.r500_gambit_jokers != 2:
        raise RulesError(f"rule V500-GAMBIT-1: r500_gambit_jokers={r.r500_gambit_jokers} "
                         "needs r500_dealers_gambit=true")
    for flag, rule in (("r500_dealers_gambit", "V500-GAMBIT"), ("r500_persian", "V500-PERSIAN")):
        if getattr(r, flag) and r.r500_num_decks == 2:
            raise RulesError(f"rule {rule}: {flag}=true uses one deck; r500_num_decks=2 conflicts")
    if r.r500_persian:
        _check_persian_values(r)
    # V500-PERSIAN-5: exactly two deals, higher total wins, equal totals draw.
    if r.r500_persian and r.r500_must_go_out_to_win:
        raise RulesError("rules V500-PERSIAN-5 and V500-MUSTOUT conflict: a Persian game is "
                         "exactly two deals won on totals")
    if r.r500_persian and r.r500_tie_rule != "replay":
        raise RulesError(f"rules V500-PERSIAN-5 and V500-TIE conflict: r500_tie_rule="
                         f"{r.r500_tie_rule}, but a Persian tie after two deals is a draw")
    # V500-ADDOPP-3: the stock-out option only means something with the add-opponent rule.
    if r.r500_addopp_stock_out != "by_player_count" and not r.r500_add_opponent_hand:
        raise RulesError(f"rule V500-ADDOPP-3: r500_addopp_stock_out={r.r500_addopp_stock_out} "
                         "needs r500_add_opponent_hand=true")
    # V500-UNPLAYABLE forces floating (AMB-26); with_ sets it unless going_out was explicit.
    if r.r500_unplayable_discard and r.r500_going_out != "floating":
        raise RulesError(f"rule V500-UNPLAYABLE: r500_unplayable_discard=true needs "
                         f"r500_going_out=floating (AMB-26), got {r.r500_going_out}")
    # V500-DIV5: only 5_10_15 / all5 and ace values that are multiples of 5 (AMB-24).
    if r.r500_score_divisor == 5:
        if r.r500_card_values not in ("5_10_15", "all5"):
            raise RulesError(f"rule V500-DIV5: r500_score_divisor=5 needs r500_card_values="
                             f"5_10_15 or all5, got {r.r500_card_values}")
        low = r.r500_ace_low_value
        low_value = 5 if low == "auto" else r.r500_ace_value if low == "same" else low
        for what, v in (("r500_ace_value", r.r500_ace_value), ("ace used low", low_value),
                        ("r500_first_meld_min", r.r500_first_meld_min),
                        ("r500_seven_straight_bonus", r.r500_seven_straight_bonus)):
            if int(v) % 5:  # type: ignore[call-overload]  # the kernels score in fifths
                raise RulesError(f"rule V500-DIV5: r500_score_divisor=5 needs point values that "
                                 f"are multiples of 5 ({what} is {v}; see r500_ace_low_value)")
    # V500-DECKS: an explicit deck count is valid only if n x deal size + 1 <= pack size.
    decks, jokers, deal = _r500_pack(r, n)
    pack = 52 * decks + jokers
    if r.r500_dealers_gambit:
        pack -= 1  # V500-GAMBIT-1: the dealer's joker is set aside before the deal
    if n * deal + 1 > pack:
        raise RulesError(
            f"rule V500-DECKS: {n} players x {deal} cards + 1 upcard = {n * deal + 1} cards "
            f"exceed the {pack}-card pack ({decks} deck{'s' * (decks > 1)}, {jokers} jokers); "
            "use r500_num_decks=auto or 2"
        )


# V500-PERSIAN-6 (all card values are R500-SCORE-2's), R500-SETUP-3 (Persian's 4 jokers replace
# the joker flag) and V500-PERSIAN-5 (two deals, no target): these flags keep their defaults.
_PERSIAN_FIXED = (
    ("r500_card_values", "V500-PERSIAN-6"), ("r500_ace_value", "V500-PERSIAN-6"),
    ("r500_ace_low_value", "V500-PERSIAN-6"), ("r500_four_aces_100", "V500-PERSIAN-6"),
    ("r500_score_divisor", "V500-PERSIAN-6"), ("r500_jokers_per_deck", "V500-PERSIAN-1"),
    ("r500_target", "V500-PERSIAN-5"),
)


def _check_persian_values(rules: Rules) -> None:
    for flag, rule in _PERSIAN_FIXED:
        value = getattr(rules, flag)
        if not _same(value, FLAGS[flag].default):
            raise RulesError(f"rule {rule}: r500_persian=true fixes {flag} at "
                             f"{format_value(FLAGS[flag].default)}, got {format_value(value)}")


def _check_r5k(rules: Rules, n: int) -> None:
    if rules.r5k_persian and n != 4:
        raise RulesError(f"rule V5K-9: r5k_persian=true needs exactly 4 players, got {n}")
    for flag, rule in (("r5k_doubling", "V5K-13"), ("r5k_limit_poker", "V5K-14")):
        if getattr(rules, flag) and n != 2:
            raise RulesError(f"rule {rule}: {flag}=true is for 2 players, got {n}")
    _check_r5k_session(rules)


SESSION_HANDS = 2  # V5K-13, V5K-14 (kernels.rum5000.layout keeps the same number for the engine)

# A Doubling or Limit-Poker game is a session of two hands settled in stake (docs/rules-decisions.md
# E71): the flags that decide a game to a target, or settle it otherwise, do not apply to it.
_SESSION_EXCLUSIVE = (
    ("r5k_must_go_out_to_win", True, "V5K-2"),
    ("r5k_payoff", "game_point", "V5K-1"),
)


def _check_r5k_session(rules: Rules) -> None:
    if rules.r5k_doubling and rules.r5k_limit_poker:
        raise RulesError("rule V5K-13/V5K-14: r5k_doubling and r5k_limit_poker are two different games; "
                         "choose one")
    for flag, rule in (("r5k_doubling", "V5K-13"), ("r5k_limit_poker", "V5K-14")):
        if not getattr(rules, flag):
            continue
        if rules.r5k_target != "auto":
            raise RulesError(f"rule {rule}: {flag}=true plays a session of 2 hands, which replaces "
                             f"the target (r5k_target={format_value(rules.r5k_target)})")
        if rules.max_hands_per_game < SESSION_HANDS:
            raise RulesError(f"rule {rule}: {flag}=true plays a session of {SESSION_HANDS} hands, more than "
                             f"max_hands_per_game={rules.max_hands_per_game}")
        for other, value, other_rule in _SESSION_EXCLUSIVE:
            if _same(getattr(rules, other), value):
                raise RulesError(f"rule {rule}: {flag}=true settles a 2-hand session in stake, so "
                                 f"{other}={format_value(value)} ({other_rule}) does not apply")


def _check_none(rules: Rules, n: int) -> None:
    # RULES.md states no cross-flag or player-count restriction for this game.
    return None


_CONFLICT_CHECKS = {
    "500-rum": _check_r500,
    "5000-rummy": _check_r5k,
    "rummikub": _check_none,
    "standard-rummy": _check_none,
}


def pack_for(rules: Rules, n_players: int) -> tuple[int, int, int]:
    """(decks, jokers in the pack, cards dealt per player) for a 500 Rum hand.

    R500-SETUP-2/3, R500-DEAL-1, V500-DECKS, V500-JOKERS; V500-PERSIAN-1 (one
    deck + 4 jokers) and V500-GAMBIT-1 (one deck + r500_gambit_jokers, one of
    them set aside as the dealer's joker, counted here) replace the joker flag.
    Under V500-UPCHOICE the first player gets one card more than the deal size.

    Raises:
        RulesError: the game is not 500 Rum, or the pack is too small (V500-DECKS).
        InputError: ``n_players`` is outside 2-8.
    """
    if rules.game != "500-rum":
        raise RulesError(f"pack_for covers 500 Rum only, got game {rules.game}")
    g = GAMES["500-rum"]
    if isinstance(n_players, bool) or not isinstance(n_players, numbers.Integral) \
            or not g.min_players <= n_players <= g.max_players:
        raise InputError(f"500-rum is for 2-8 players (R500-SETUP-1), got {n_players!r}")
    n = int(n_players)
    decks, jokers, deal = _r500_pack(rules, n)
    pack = 52 * decks + jokers - (1 if rules.r500_dealers_gambit else 0)
    if n * deal + 1 > pack:
        raise RulesError(f"rule V500-DECKS: {n} players need {n * deal + 1} cards, "
                         f"the pack has {pack}")
    return decks, jokers, deal


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
        if not _same(f.default, FLAGS[f.name].default):
            raise RuntimeError(f"rummysim.rules: default of Rules.{f.name} differs from FLAGS")


_self_check()
