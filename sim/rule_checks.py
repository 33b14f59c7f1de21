"""Cross-flag and player-count checks per game (RULES.md §3, §5, §8.1, §8.2), and the 500 Rum pack.

:meth:`rummysim.rules.Rules.check` runs :data:`CONFLICT_CHECKS` for the configuration's game;
each check raises :class:`~rummysim.errors.RulesError` naming the rule ID it enforces.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING

from rummysim.errors import InputError, RulesError
from rummysim.flags import FLAGS, GAMES, format_value, same_value

if TYPE_CHECKING:
    from rummysim.rules import Rules

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
        if not same_value(value, FLAGS[flag].default):
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
            if same_value(getattr(rules, other), value):
                raise RulesError(f"rule {rule}: {flag}=true settles a 2-hand session in stake, so "
                                 f"{other}={format_value(value)} ({other_rule}) does not apply")


def _check_none(rules: Rules, n: int) -> None:
    # RULES.md states no cross-flag or player-count restriction for this game.
    return None


CONFLICT_CHECKS = {
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
