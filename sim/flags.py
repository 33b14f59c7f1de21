"""The games and flags of RULES.md §8.6: each flag's allowed values, range, rule IDs and summary.

:mod:`rummysim.rules` builds its :class:`~rummysim.rules.Rules` on these tables; they hold no
configuration logic of their own beyond describing and parsing one flag's values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rummysim.errors import RulesError

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


def same_value(a: object, b: object) -> bool:
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
            if same_value(v, value):
                return rule
        return self.rule_ids[0]

    def allows(self, value: object) -> bool:
        """Whether RULES.md allows ``value`` (already typed) for this flag."""
        if any(same_value(value, v) for v in self.values):
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
