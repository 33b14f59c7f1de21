"""The 500 Rum / Standard Rummy checker's flags: RULES.md §8.6 values read into a :class:`Config`,
presets and implied settings filled in (RULES.md §3 preamble; V500-PERSIAN implies V500-PARTNER),
the partnership combinations it reads, and the card values they give."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from rummysim.validate.cards import JOKER, NATURAL_IDS
from rummysim.validate.flags import (
    ENGINE_DEFAULTS,
    RUM5000_FLAGS,
    RUM500_FLAGS,
    RUMMIKUB_FLAGS,
    STANDARD_FLAGS,
    engine_cap,
    norm_value,
)

#: ``game`` flag values this checker answers to -> "500" (500 Rum) or "std" (Standard Rummy)
GAME_NAMES = {
    "500-rum": "500",
    "500_rum": "500",
    "r500": "500",
    "standard-rummy": "std",
    "standard_rummy": "std",
    "std": "std",
}

# 5000 Rummy and Rummikub flags: not checked here, so they must hold their §8.6 defaults.
_OTHER_GAME_DEFAULTS: dict[str, tuple[str, Any]] = {
    **{name: (kind, default) for name, (kind, default, _) in RUM5000_FLAGS.items()},
    **{name: (kind, default) for name, (kind, default, _) in RUMMIKUB_FLAGS.items()},
}


@dataclass(frozen=True)
class Config:
    game: str  # "500" or "std"
    decks_mode: Any  # "auto", 1 or 2
    jokers_per_deck: int
    card_values: str
    ace_value: int
    ace_low_value: int  # resolved, before the divisor
    four_aces: bool
    divisor: int
    top_must: bool
    new_meld: bool
    discard_restriction: str
    call_rummy: str
    going_out: str
    unplayable: bool
    must_go_out: bool
    first_meld_min: int
    min_new_run: int
    corner: bool
    draw_count: int
    end_of_stock: str  # effective mode (V500-ADDOPP continue_discarding -> discard_until_out)
    hand_penalty: bool
    idle_turns: Any  # "n" or int
    add_opp: bool
    seven_bonus: int
    target: int
    tie_rule: str
    oot: bool
    upchoice: bool
    winner_deals: bool
    partnership: bool  # V500-PARTNER (implied by V500-PERSIAN)
    team_only: bool  # V500-PARTNER-1 r500_partner_layoff = team_only
    persian: bool  # V500-PERSIAN
    std_hands: int
    max_turns: int
    max_hands: int


@dataclass
class _Read:
    """Flag values as read, before presets and implied settings."""

    game: str
    vals: dict[str, Any]  # r500_ flags
    std_vals: dict[str, Any]  # std_ flags
    engine: dict[str, int]
    explicit: set[str]  # r500_ flags given explicitly


def _game_of(flags: Mapping[str, object]) -> str:
    if "game" not in flags:
        return "500"
    raw = flags["game"]
    g = GAME_NAMES.get(raw) if isinstance(raw, str) else None
    if g is None:
        raise ValueError(
            f"flag game: value {raw!r} is not checked (only '500-rum' and 'standard-rummy')"
        )
    return g


def _read_other_game(name: str, raw: object) -> None:
    kind, default = _OTHER_GAME_DEFAULTS[name]
    if norm_value(name, kind, raw) != default:
        raise ValueError(
            f"flag {name}: value {raw!r} is not implemented by the checker "
            f"(5000 Rummy / Rummikub flags must hold their default {default!r})"
        )


def _read_standard(read: _Read, name: str, raw: object) -> None:
    kind, default, allowed = STANDARD_FLAGS[name]
    v = norm_value(name, kind, raw)
    ok = (isinstance(v, int) and v > 0) if allowed is None else v in allowed
    if not ok:
        raise ValueError(f"flag {name}: value {raw!r} is not valid")
    if read.game != "std" and v != default:
        raise ValueError(
            f"flag {name}: value {raw!r} belongs to standard-rummy, but the game is 500-rum"
        )
    read.std_vals[name] = v


def _read_rum500(read: _Read, name: str, raw: object) -> None:
    spec = RUM500_FLAGS.get(name)
    if spec is None:
        raise ValueError(f"flag {name}: unknown flag (value {raw!r}); not checked")
    kind, default, allowed = spec
    v = norm_value(name, kind, raw)
    if allowed is None:
        if name == "r500_stock_out_idle_turns":
            ok = v == "n" or (isinstance(v, int) and v > 0)
        else:  # r500_target
            ok = isinstance(v, int) and v > 0
        if not ok:
            raise ValueError(f"flag {name}: value {raw!r} is not valid")
    elif v not in allowed:
        raise ValueError(f"flag {name}: value {raw!r} is not implemented by the checker")
    if read.game == "std" and v != default:
        raise ValueError(
            f"flag {name}: value {raw!r} belongs to 500-rum, but the game is standard-rummy"
        )
    read.vals[name] = v
    read.explicit.add(name)


def _read_flags(flags: Mapping[str, object]) -> _Read:
    read = _Read(
        game=_game_of(flags),
        vals={k: spec[1] for k, spec in RUM500_FLAGS.items()},
        std_vals={k: spec[1] for k, spec in STANDARD_FLAGS.items()},
        engine=dict(ENGINE_DEFAULTS),
        explicit=set(),
    )
    for name, raw in flags.items():
        if name == "game":
            continue
        if name in read.engine:
            read.engine[name] = engine_cap(name, raw)
        elif name in _OTHER_GAME_DEFAULTS:
            _read_other_game(name, raw)
        elif name in STANDARD_FLAGS:
            _read_standard(read, name, raw)
        else:
            _read_rum500(read, name, raw)
    return read


def _apply_presets(read: _Read) -> None:
    """Presets and implied settings fill in only flags that were not given (RULES.md §3 preamble:
    "a flag set explicitly overrides the preset"; Rules.as_dict() holds them expanded already)."""
    vals = read.vals

    def imply(name: str, value: Any) -> None:
        if name not in read.explicit:
            vals[name] = value

    if vals["r500_no_pickup_to_hit"]:  # V500-NOHIT
        imply("r500_pickup_use", "new_meld")
        imply("r500_top_card_must_be_played", True)
    if vals["r500_boathouse"]:  # V500-BOATHOUSE
        imply("r500_going_out", "discard_required")
        imply("r500_discard_restriction", "any_taken")
        imply("r500_stock_draw_count", 2)
    if vals["r500_unplayable_discard"]:  # V500-UNPLAYABLE forces floating (AMB-26)
        imply("r500_going_out", "floating")
        if vals["r500_going_out"] != "floating":
            raise ValueError(
                "flag r500_unplayable_discard: true needs r500_going_out=floating (AMB-26), got "
                f"{vals['r500_going_out']!r}"
            )
    if vals["r500_score_divisor"] == 5:  # V500-DIV5: default target 100
        imply("r500_target", 100)
    if vals["r500_persian"]:  # V500-PERSIAN implies V500-PARTNER
        imply("r500_partnership", True)
    _check_partnership(read)


# V500-PERSIAN-6 (R500-SCORE-2's face values; trace spec: the value flags keep their defaults) and
# V500-PERSIAN-5 (two deals won on totals): flags that must hold their defaults under Persian.
_PERSIAN_FIXED = (
    "r500_card_values", "r500_ace_value", "r500_ace_low_value", "r500_four_aces_100",
    "r500_score_divisor", "r500_must_go_out_to_win", "r500_tie_rule",
)


def _check_partnership(read: _Read) -> None:
    """V500-PARTNER / V500-PERSIAN flag combinations the checker reads."""
    vals = read.vals
    if vals["r500_partner_layoff"] != "any" and not vals["r500_partnership"]:
        raise ValueError("flag r500_partner_layoff: team_only needs r500_partnership=true "
                         "(V500-PARTNER-1)")
    if not vals["r500_persian"]:
        return
    if not vals["r500_partnership"]:
        raise ValueError("flag r500_partnership: false, but r500_persian=true implies it "
                         "(V500-PERSIAN)")
    for name in _PERSIAN_FIXED:
        default = RUM500_FLAGS[name][1]
        if vals[name] != default:
            raise ValueError(f"flag {name}: value {vals[name]!r} is not checked with "
                             f"r500_persian=true (Persian fixes it at {default!r})")
    if vals["r500_num_decks"] == 2:
        raise ValueError("flag r500_num_decks: 2, but Persian rummy uses one deck "
                         "(V500-PERSIAN-1)")
    if vals["r500_dealers_gambit"]:
        raise ValueError("flag r500_dealers_gambit: true cannot be combined with r500_persian")


def _ace_low_value(vals: Mapping[str, Any]) -> int:
    """V500-ACE (an ace used low: 1 under face, 5 under 5_10_15 / all5), checked against
    V500-DIV5 (values that are multiples of 5)."""
    ace_value = vals["r500_ace_value"]
    low = vals["r500_ace_low_value"]
    if low == "auto":
        low = 1 if vals["r500_card_values"] == "face" else 5
    elif low == "same":
        low = ace_value
    if vals["r500_score_divisor"] == 5:
        if vals["r500_card_values"] == "face":
            raise ValueError(
                "flag r500_score_divisor: 5 needs r500_card_values=5_10_15 or all5 (V500-DIV5)"
            )
        if ace_value % 5 or low % 5:
            raise ValueError(
                "flag r500_score_divisor: 5 needs ace values that are multiples of 5 (V500-DIV5, "
                f"ace {ace_value}, ace used low {low})"
            )
    return low


def parse_flags(flags: Mapping[str, object] | None) -> Config:
    """Read ``flags`` (RULES.md §8.6 names and values, plus ``game`` and the engine caps); a value
    the checker does not implement raises ``ValueError`` naming the flag."""
    read = _read_flags(dict(flags or {}))
    _apply_presets(read)
    vals, std_vals, engine = read.vals, read.std_vals, read.engine
    low = _ace_low_value(vals)
    divisor = vals["r500_score_divisor"]
    if read.game == "std":
        going_out = std_vals["std_going_out"]
        end_mode = std_vals["std_end_of_stock"]
    else:
        going_out = vals["r500_going_out"]
        end_mode = vals["r500_end_of_stock"]
        addopp_out = vals["r500_addopp_stock_out"]
        if vals["r500_add_opponent_hand"] and addopp_out == "continue_discarding":
            end_mode = "discard_until_out"  # V500-ADDOPP-3
    return Config(
        game=read.game,
        decks_mode=vals["r500_num_decks"],
        jokers_per_deck=vals["r500_jokers_per_deck"],
        card_values=vals["r500_card_values"],
        ace_value=vals["r500_ace_value"],
        ace_low_value=low,
        four_aces=bool(vals["r500_four_aces_100"]),
        divisor=divisor,
        top_must=bool(vals["r500_top_card_must_be_played"]),
        new_meld=vals["r500_pickup_use"] == "new_meld",
        discard_restriction=vals["r500_discard_restriction"],
        call_rummy=vals["r500_call_rummy"],
        going_out=going_out,
        unplayable=bool(vals["r500_unplayable_discard"]),
        must_go_out=bool(vals["r500_must_go_out_to_win"]),
        first_meld_min=vals["r500_first_meld_min"] // divisor,
        min_new_run=vals["r500_min_new_run"],
        corner=bool(vals["r500_round_the_corner"]),
        draw_count=vals["r500_stock_draw_count"],
        end_of_stock=end_mode,
        hand_penalty=bool(vals["r500_stock_out_hand_penalty"]),
        idle_turns=vals["r500_stock_out_idle_turns"],
        add_opp=bool(vals["r500_add_opponent_hand"]),
        seven_bonus=vals["r500_seven_straight_bonus"],
        target=vals["r500_target"],
        tie_rule=vals["r500_tie_rule"],
        oot=bool(vals["r500_meld_out_of_turn"]),
        upchoice=vals["r500_upcard_mode"] == "first_player_choice",
        winner_deals=vals["r500_next_dealer"] == "winner",
        partnership=bool(vals["r500_partnership"]),
        team_only=vals["r500_partner_layoff"] == "team_only",
        persian=bool(vals["r500_persian"]),
        std_hands=std_vals["std_game_hands"],
        max_turns=engine["max_turns_per_hand"],
        max_hands=engine["max_hands_per_game"],
    )


def value_table(cfg: Config) -> tuple[list[int], int, int]:
    """(value of each card in hand / in a set / high in a run, value of an ace used low, value of
    an ace in a one-seat set of four aces), divisor applied (R500-SCORE-2, V500-VALUES, V500-ACE,
    V500-DIV5; Standard Rummy: RSTD-SCORE-1)."""
    vals = [0] * 65
    if cfg.game == "std":
        for card in NATURAL_IDS:
            r = card & 15
            vals[card] = r if r <= 10 else 10  # A = 1, 2-10 face, J/Q/K = 10
        vals[JOKER] = 0  # no jokers in Standard Rummy (the pack check reports one)
        return vals, 1, 1
    d = cfg.divisor
    for card in NATURAL_IDS:
        r = card & 15
        if r == 1:
            v = cfg.ace_value
        elif cfg.card_values == "face":
            v = r if r <= 10 else 10
        elif cfg.card_values == "5_10_15":
            v = 5 if r <= 9 else 10
        else:  # all5
            v = 5
        vals[card] = v // d
    # a joker is 15 whatever it represents; in Persian rummy 20 (V500-PERSIAN-2)
    vals[JOKER] = (20 if cfg.persian else 15) // d
    return vals, cfg.ace_low_value // d, 25 // d
