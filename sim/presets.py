"""Presets: named configurations of a game (``rummysim rules list``), applied by ``Rules.preset``.

Each preset is a game plus flag overrides, with the same names and values as ``--rule``; the
overrides are checked like any other when the preset is used (``sim/rules.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Preset:
    """A named configuration: a game plus flag overrides applied with :meth:`Rules.with_`."""

    name: str
    game: str
    overrides: Mapping[str, object] = field(default_factory=dict)
    description: str = ""
    source: str = ""


# One line per preset; overrides use the same names and values as --rule.
PRESETS: dict[str, Preset] = {
    p.name: p
    for p in (
        Preset("500-rum", "500-rum", {}, "500 Rum base rules, RULES.md §2 defaults",
               "RULES.md §2; seeds 001-004"),
        Preset("500-rum-no-jokers", "500-rum", {"r500_jokers_per_deck": 0},
               "The original game without jokers (V500-JOKERS)", "001, 002, 003"),
        Preset("500-rum-calling", "500-rum", {"r500_call_rummy": "pile"},
               "Calling Rummy! on playable cards in the discard pile (V500-RUMMY pile)", "001, 002"),
        Preset("500-rum-rum-call", "500-rum", {"r500_call_rummy": "layoff_only"},
               "\"Rum\": calling to lay off a discarded card (V500-RUMMY layoff_only)", "003"),
        Preset("500-rum-floating", "500-rum", {"r500_going_out": "floating"},
               "Floating after laying down every card; out only by discarding (V500-FLOAT)", "001, 002"),
        Preset("500-rum-unplayable", "500-rum", {"r500_unplayable_discard": True},
               "Floating, and the last discard must be unplayable (V500-UNPLAYABLE)", "001, 002"),
        Preset("boathouse", "500-rum", {"r500_boathouse": True},
               "Boathouse rule: draw two from the stock, must discard to go out (V500-BOATHOUSE)", "003"),
        Preset("500-rum-5-10-15", "500-rum", {"r500_card_values": "5_10_15"},
               "Card values 5/10/15 (V500-VALUES)", "001, 002, 003"),
        Preset("500-rum-divided", "500-rum", {"r500_card_values": "5_10_15", "r500_score_divisor": 5},
               "5/10/15 values divided by five, game to 100 (V500-DIV5)", "003"),
        Preset("500-rum-no-hit", "500-rum", {"r500_no_pickup_to_hit": True},
               "Discards only taken into a new meld (V500-NOHIT)", "003"),
        Preset("500-rum-long", "500-rum", {"r500_target": 1000},
               "A longer game to 1000 (V500-TARGET)", "001"),
        Preset("pinochle-rummy", "500-rum", {"r500_top_card_must_be_played": True},
               "Pinochle Rummy: even the top discard must be played (V500-TOPMUST)", "004"),
        Preset("500-rum-house", "500-rum",
               {"r500_call_rummy": "pile", "r500_going_out": "floating", "r500_first_meld_min": 30,
                "r500_seven_straight_bonus": 500, "r500_tie_rule": "goer_wins"},
               "A house mix: calling, floating, first meld of 30, 7-card straight, goer wins ties",
               "001, 002, 003"),
        Preset("partnership-500", "500-rum", {"r500_partnership": True},
               "Partnership 500 rum: 4 players, partners opposite, team scores (V500-PARTNER)", "003, 004"),
        Preset("persian-rummy", "500-rum", {"r500_persian": True},
               "Persian rummy: teams, 56 cards, joker sets, fours double, two deals (V500-PERSIAN)", "003"),
        Preset("5000-rummy", "5000-rummy", {},
               "5000 Rummy (Excellent Rummy): two decks, a wild rank, trading for wild cards (§4)", "000"),
        Preset("5000-rummy-must-go-out", "5000-rummy", {"r5k_must_go_out_to_win": True},
               "Must go out to win (V5K-2)", "000"),
        Preset("5000-rummy-top-card", "5000-rummy", {"r5k_rummy": "top_card"},
               "Going rummy with the top card (V5K-3)", "000"),
        Preset("5000-rummy-any-cards", "5000-rummy", {"r5k_rummy": "any_cards"},
               "Going rummy with any cards in the pile (V5K-4)", "000"),
        Preset("5000-rummy-unmeldable", "5000-rummy", {"r5k_going_out": "unmeldable_discard"},
               "Out only by discarding an unmeldable card, else floating (V5K-5)", "000"),
        Preset("5000-rummy-meld-all", "5000-rummy", {"r5k_going_out": "meld_all"},
               "Out only by melding the last card, else floating (V5K-6)", "000"),
        Preset("5000-rummy-michigan", "5000-rummy", {"r5k_michigan": True},
               "Michigan Rummy: the player who goes out collects the others' hands (V5K-7)", "000"),
        Preset("5000-rummy-polish", "5000-rummy", {"r5k_polish": True},
               "Polish Rummy: the whole discard pile may be taken (V5K-8)", "000"),
        Preset("5000-rummy-extra-card", "5000-rummy", {"r5k_first_turn": "extra_card"},
               "Extra card dealt instead of an upcard (V5K-10)", "000"),
        Preset("5000-rummy-exchange", "5000-rummy", {"r5k_first_turn": "exchange_upcard"},
               "Exchanging the upcard (V5K-11)", "000"),
        Preset("5000-rummy-money-cards", "5000-rummy", {"r5k_money_cards": True},
               "Money cards: natural QH and 7H pairs (V5K-12)", "000"),
        Preset("persian-5000", "5000-rummy", {"r5k_persian": True},
               "Persian 5000: partners opposite, one meld area per partnership, team scores to 2000 (V5K-9)",
               "000"),
        Preset("rummikub", "rummikub", {},
               "Rummikub (Sabra rules): tiles, an initial meld of 30, free rearrangement (RULES.md §6)", "002"),
        Preset("rummikub-single-combo", "rummikub", {"rkub_initial_rule": "single_combo"},
               "Initial meld of 30 in one combination (AMB-38)", "002"),
        Preset("rummikub-both-colours", "rummikub", {"rkub_group_joker_release": "both_colours"},
               "A group's joker comes back only when both missing colours are added (VKUB-JOKERBOTH)", "002"),
        Preset("rummikub-joker25", "rummikub", {"rkub_joker_penalty": 25},
               "A joker left on a rack costs 25 (VKUB-JOKER25)", "002"),
        Preset("standard-rummy", "standard-rummy", {},
               "Standard Rummy: top-card draws, deadwood scoring, 5 hands (RULES.md §7)", "002, 003"),
    )
}


def list_presets() -> list[dict[str, str]]:
    """Rows of name, game, description, source (``rummysim rules list``)."""
    return [
        {"name": p.name, "game": p.game, "description": p.description, "source": p.source}
        for p in PRESETS.values()
    ]
