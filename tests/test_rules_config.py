"""Tests of the rules-configuration layer (sim/rules.py, sim/errors.py).

The flag index is checked against RULES.md itself (§8.6 and the §3 table), read
from ``../shared/RULES.md`` beside the repository; those tests are skipped only
when that file is absent.
"""

from __future__ import annotations

import dataclasses
import pickle
import re
from pathlib import Path

import pytest

from rummysim.errors import InputError, RulesError, RummysimError, UnsupportedRuleError
from rummysim.rules import (
    FLAGS,
    GAMES,
    KERNEL_SUPPORT,
    PRESETS,
    Rules,
    describe,
    format_value,
    list_presets,
    pack_for,
)

RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
needs_rules_md = pytest.mark.skipif(
    not RULES_MD.exists(), reason=f"RULES.md not found at {RULES_MD} (../shared beside the repo)"
)
RULE_ID = re.compile(r"\b(?:[A-Z0-9]+-)+[A-Z0-9]+\b")
ENGINE_FLAGS = {"max_turns_per_hand", "max_hands_per_game"}


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n---", start)
    return text[start:end]


def _table_rows(section: str) -> list[list[str]]:
    rows = []
    for line in section.splitlines():
        if line.startswith("|") and not line.startswith("|---"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows[1:]  # drop the header


def _flag_table() -> list[tuple[str, str, str]]:
    text = RULES_MD.read_text(encoding="utf-8")
    rows = _table_rows(_section(text, "### 8.6 Configuration flag index"))
    return [(r[0].strip("`"), r[1], r[2]) for r in rows]


# --- §8.6 is implemented completely and in order -------------------------------------------


@needs_rules_md
def test_every_flag_of_8_6_present_in_order():
    table = _flag_table()
    assert len(table) > 50
    rules_md_flags = [name for name, _, _ in table]
    ours = [name for name in FLAGS if name not in ENGINE_FLAGS]
    assert ours == rules_md_flags


@needs_rules_md
def test_8_6_values_defaults_and_rule_ids_match():
    by_name = {name: (values, rules) for name, values, rules in _flag_table()}
    for name, (values_text, rules_text) in by_name.items():
        flag = FLAGS[name]
        assert flag.rule_ids == tuple(RULE_ID.findall(rules_text)), name
        if values_text.startswith("same values as"):
            other = FLAGS[re.search(r"`(\w+)`", values_text).group(1)]
            assert flag.values == other.values and not flag.open_int, name
            continue
        cleaned = re.sub(r"\([^)]*\)", "", values_text)  # "(preset)", "(one round)", ...
        items = [v.strip() for v in cleaned.split(",") if v.strip()]
        open_int = items[-1] in ("any positive integer", "integer")
        if open_int:
            items = items[:-1]
        assert flag.open_int == open_int, name
        assert [format_value(v) for v in flag.values] == items, name
        assert flag.default == flag.values[0]


@needs_rules_md
def test_section_3_table_agrees_with_flags():
    text = RULES_MD.read_text(encoding="utf-8")
    rows = _table_rows(_section(text, "## 3. 500 Rum"))
    checked = 0
    for rule_id, flags_cell, values_cell, _src in rows:
        if values_cell == "—":  # V500-FLOAT: "r500_going_out = floating"
            name, value = re.match(r"`(\w+)` = (\w+)", flags_cell).groups()
            assert value in FLAGS[name].values
            continue
        names = re.findall(r"`(\w+)`", flags_cell)
        groups = values_cell.split(";") if len(names) > 1 else [values_cell]
        assert len(groups) == len(names), rule_id
        for name, group in zip(names, groups):
            sep = "/" if "/" in group else ","
            items = [v.strip() for v in group.split(sep)]
            assert [format_value(v) for v in FLAGS[name].values] == items, name
            # §8.6 may name a sub-rule (V500-ADDOPP-3 for the V500-ADDOPP row).
            assert any(r == rule_id or r.startswith(rule_id + "-")
                       for r in FLAGS[name].rule_ids), name
            checked += 1
    assert checked >= 30


def test_flag_games_and_engine_flags():
    for name, flag in FLAGS.items():
        if name in ENGINE_FLAGS:
            assert flag.game == "*" and flag.rule_ids == ("ENGINE-CAP",) and flag.open_int
        else:
            assert flag.game in GAMES
            assert name.startswith(GAMES[flag.game].flag_prefix)
    assert Rules().max_turns_per_hand == 1000
    assert Rules().max_hands_per_game == 200
    assert FLAGS["std_end_of_stock"].values == FLAGS["r500_end_of_stock"].values


def test_games_player_ranges():
    assert {g: (v.min_players, v.max_players) for g, v in GAMES.items()} == {
        "500-rum": (2, 8), "5000-rummy": (2, 5), "rummikub": (2, 4), "standard-rummy": (2, 6)}


# --- defaults (§8.6, §9) ------------------------------------------------------------


def test_defaults_sample():
    r = Rules()
    assert r.game == "500-rum"
    assert r.r500_target == 500                      # R500-END-1
    assert r.r500_num_decks == "auto"                # V500-DECKS
    assert r.r500_jokers_per_deck == 2               # AMB-04
    assert r.r500_card_values == "face"              # AMB-01
    assert r.r500_ace_low_value == "auto"            # AMB-02
    assert r.r500_pickup_use == "any"                # AMB-06
    assert r.r500_top_card_must_be_played is False   # AMB-05
    assert r.r500_discard_restriction == "top_single"  # AMB-07
    assert r.r500_end_of_stock == "pile_or_end"      # AMB-11
    assert r.r500_stock_out_hand_penalty is True
    assert r.r500_stock_out_idle_turns == "n"        # R500-STOCK-2
    assert r.r500_tie_rule == "replay"               # AMB-12
    assert r.r500_partner_layoff == "any"            # AMB-19
    assert r.r5k_target == "auto"
    assert r.rkub_initial_rule == "total"            # AMB-38
    assert r.rkub_manipulate_on_initial_turn is True  # AMB-39
    assert r.rkub_rounds == 1                        # AMB-45
    assert r.std_going_out == "discard_required"     # AMB-46
    assert r.std_game_hands == 5
    assert r.changed() == {}
    for name, flag in FLAGS.items():
        assert getattr(r, name) == flag.default


def test_value_types():
    assert FLAGS["r500_persian"].values == (False, True)
    assert FLAGS["r500_num_decks"].values == ("auto", 1, 2)
    assert FLAGS["r500_card_values"].values == ("face", "5_10_15", "all5")
    assert FLAGS["r500_stock_out_hand_penalty"].values == (True, False)
    for flag in FLAGS.values():
        for v in flag.values:
            assert type(v) in (bool, int, str)


# --- construction errors ----------------------------------------------------------


def test_unknown_flag_did_you_mean():
    with pytest.raises(RulesError, match=r"r500_targt.*did you mean 'r500_target'"):
        Rules().with_(r500_targt=1000)
    with pytest.raises(RulesError, match="unknown rule flag"):
        Rules().with_strings(["nonsense_flag=1"])


def test_bad_values():
    # numeric flags: any integer of the flag's range (issue 22 point 4), the sources' values as presets
    assert Rules().with_(r500_target=750).r500_target == 750
    with pytest.raises(RulesError, match=r"r500_target=49: allowed 50\.\.100000 \(presets: 500, 1000, 250, 100\)"):
        Rules().with_(r500_target=49)
    with pytest.raises(RulesError, match="r500_target"):
        Rules().with_(r500_target="750 points")
    with pytest.raises(RulesError, match="r500_card_values"):
        Rules(r500_card_values="five")
    # True == 1 in Python; a bool must not pass for an int flag, nor an int for a bool flag.
    with pytest.raises(RulesError):
        Rules(r500_jokers_per_deck=True)
    with pytest.raises(RulesError):
        Rules(r500_persian=1)
    # open integers: positive only, up to the range's top
    with pytest.raises(RulesError, match=r"allowed 1\.\.100 \(presets: n\)"):
        Rules().with_(r500_stock_out_idle_turns=0)
    with pytest.raises(RulesError):
        Rules().with_(max_turns_per_hand="-5")
    with pytest.raises(RulesError, match="unknown game"):
        Rules(game="gin")


def test_unknown_preset():
    with pytest.raises(RulesError, match=r"did you mean '500-rum'.*known presets: 500-rum"):
        Rules.preset("500rum")


def test_presets_build_and_list():
    for name, p in PRESETS.items():
        r = Rules.preset(name)
        assert r.game == p.game
    assert Rules.preset("500-rum") == Rules()
    rows = list_presets()
    assert rows[0] == {"name": "500-rum", "game": "500-rum",
                       "description": "500 Rum base rules, RULES.md §2 defaults",
                       "source": "RULES.md §2; seeds 001-004"}


def test_frozen_and_hashable():
    r = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.r500_target = 1000  # type: ignore[misc]
    assert hash(r) == hash(Rules())
    r2 = r.with_(r500_target=1000)
    assert r.r500_target == 500 and r2.r500_target == 1000


# --- string parsing ------------------------------------------------------------------


def test_with_strings_parsing():
    r = Rules().with_strings([
        "r500_target=1000",
        "r500_card_values=5_10_15",   # not int("5_10_15") == 51015
        "r500_stock_out_hand_penalty=False",
        "r500_num_decks=2",
        "r500_stock_out_idle_turns=12",
        " r500_discard_restriction = none ",
    ])
    assert r.r500_target == 1000
    assert r.r500_card_values == "5_10_15"
    assert r.r500_stock_out_hand_penalty is False
    assert r.r500_num_decks == 2 and type(r.r500_num_decks) is int
    assert r.r500_stock_out_idle_turns == 12
    assert r.r500_discard_restriction == "none"
    assert Rules().with_strings(["r500_num_decks=auto"]).r500_num_decks == "auto"
    assert Rules().with_strings(["r500_ace_low_value=same"]).r500_ace_low_value == "same"
    assert Rules().with_strings(["r500_ace_low_value=1"]).r500_ace_low_value == 1


@pytest.mark.parametrize("item", ["r500_target", "=5", "r500_target=", "r500_target:500"])
def test_with_strings_malformed(item):
    with pytest.raises(RulesError, match="malformed"):
        Rules().with_strings([item])


def test_with_strings_conflicting_duplicate():
    with pytest.raises(RulesError, match="twice"):
        Rules().with_strings(["r500_target=1000", "r500_target=250"])
    assert Rules().with_strings(["r500_target=250", "r500_target=250"]).r500_target == 250


def test_round_trips():
    r = Rules().with_strings(["r500_boathouse=true", "r500_target=250", "r500_going_out=any"])
    assert Rules().with_strings(r.as_strings()) == r
    d = r.as_dict()
    assert list(d)[0] == "game" and len(d) == len(FLAGS) + 1
    assert Rules.from_dict(d) == r
    with pytest.raises(RulesError, match="unknown rule flag"):
        Rules.from_dict({"game": "500-rum", "bogus": 1})


# --- presets flags and implications (§3) -------------------------------------------


def test_boathouse_preset_expansion():
    r = Rules().with_(r500_boathouse=True)
    assert r.changed() == {
        "r500_discard_restriction": "any_taken",
        "r500_going_out": "discard_required",
        "r500_boathouse": True,
        "r500_stock_draw_count": 2,
    }


def test_no_pickup_to_hit_expansion():
    r = Rules().with_strings(["r500_no_pickup_to_hit=true"])
    assert r.r500_pickup_use == "new_meld"
    assert r.r500_top_card_must_be_played is True


def test_explicit_flag_overrides_preset():
    # Even an explicit value equal to the default wins over the preset.
    r = Rules().with_(r500_boathouse=True, r500_going_out="any", r500_stock_draw_count="1")
    assert r.r500_going_out == "any"
    assert r.r500_stock_draw_count == 1
    assert r.r500_discard_restriction == "any_taken"
    r = Rules().with_(r500_no_pickup_to_hit=True, r500_pickup_use="any")
    assert r.r500_pickup_use == "any" and r.r500_top_card_must_be_played is True
    # A later call overrides what an earlier preset set.
    r = Rules().with_(r500_boathouse=True).with_(r500_stock_draw_count=1)
    assert r.r500_stock_draw_count == 1 and r.r500_boathouse is True


def test_preset_flag_switched_off_undoes_expansion():
    r = Rules().with_(r500_boathouse=True).with_(r500_boathouse=False)
    assert r == Rules()
    r = Rules().with_(r500_boathouse=True, r500_stock_draw_count=1).with_(r500_boathouse=False)
    assert r.r500_going_out == "any" and r.r500_stock_draw_count == 1


def test_implied_settings():
    assert Rules().with_(r500_score_divisor=5).r500_target == 100          # V500-DIV5
    assert Rules().with_(r500_score_divisor=5, r500_target=500).r500_target == 500
    assert Rules().with_(r500_unplayable_discard=True).r500_going_out == "floating"  # AMB-26
    assert Rules().with_(r500_persian=True).r500_partnership is True       # V500-PERSIAN
    with pytest.raises(RulesError, match="r500_going_out"):
        Rules().with_(r500_boathouse=True, r500_unplayable_discard=True)


# --- check(): player counts, foreign flags, conflicts, support ---------------------


@pytest.mark.parametrize("n", [1, 9, 0, -2])
def test_bad_player_counts(n):
    with pytest.raises(InputError, match="2-8 players"):
        Rules().check(n)


@pytest.mark.parametrize("n", [2.0, "4", True, None])
def test_player_count_not_int(n):
    with pytest.raises(InputError):
        Rules().check(n)  # type: ignore[arg-type]


@pytest.mark.parametrize("n", range(2, 9))
def test_defaults_pass_check(n):
    Rules().check(n)
    Rules.preset("500-rum").check(n)


def test_explicit_single_deck_with_8_players():
    with pytest.raises(RulesError, match=r"V500-DECKS.*57.*54"):
        Rules().with_(r500_num_decks=1).check(8)
    with pytest.raises(RulesError, match="V500-DECKS"):
        Rules().with_(r500_num_decks=1, r500_jokers_per_deck=0).check(8)
    Rules().with_(r500_num_decks=1).check(7)       # 50 <= 54
    Rules().with_(r500_num_decks=1, r500_jokers_per_deck=0).check(7)  # 50 <= 52
    Rules().with_(r500_num_decks=2).check(2)


def test_foreign_game_flag():
    with pytest.raises(RulesError, match=r"r5k_target.*5000-rummy.*500-rum"):
        Rules().with_(r5k_target=3000).check(4)
    with pytest.raises(RulesError, match="r500_target"):
        Rules(game="rummikub").with_(r500_target=1000).check(4)
    # Engine flags belong to every game.
    Rules().with_(max_turns_per_hand=50).check(4)


def test_unsupported_flag_value(monkeypatch):
    # Every flag value of RULES.md is played now; a build without one refuses it like this.
    monkeypatch.setitem(KERNEL_SUPPORT, "r5k_doubling", (False,))
    with pytest.raises(UnsupportedRuleError) as info:
        Rules(game="5000-rummy").with_(r5k_doubling=True).check(2)
    err = info.value
    assert (err.rule_id, err.flag, err.value) == ("V5K-13", "r5k_doubling", True)
    assert str(err).startswith("rule V5K-13 (r5k_doubling=true) is not supported by the kernels yet")
    assert isinstance(err, RulesError) and isinstance(err, RummysimError)


def test_supported_values_pass():
    Rules().with_strings([
        "r500_target=1000", "r500_num_decks=2", "r500_jokers_per_deck=0",
        "r500_stock_out_hand_penalty=false", "r500_stock_out_idle_turns=9",
        "r500_discard_restriction=any_taken", "r500_card_values=all5",
        "r500_ace_value=25", "r500_ace_low_value=same",
        "max_turns_per_hand=10", "max_hands_per_game=3",
    ]).check(5)


def test_boathouse_supported_via_expanded_flags():
    Rules().with_(r500_boathouse=True).check(3)


def test_other_games_supported():
    Rules(game="standard-rummy").check(6)
    Rules(game="5000-rummy").check(3)
    Rules(game="rummikub").with_(rkub_rounds=3, rkub_invalid_turn="penalty_draw3").check(4)
    with pytest.raises(InputError, match="2-5 players"):
        Rules(game="5000-rummy").check(6)
    with pytest.raises(InputError, match="2-4 players"):
        Rules(game="rummikub").check(5)


def test_conflicts():
    cases = [
        (dict(r500_partnership=True), 3, "V500-PARTNER"),
        (dict(r500_persian=True), 5, "V500-PERSIAN"),
        (dict(r500_persian=True, r500_partnership=False), 4, "V500-PERSIAN"),
        (dict(r500_dealers_gambit=True), 5, "V500-GAMBIT"),
        (dict(r500_dealers_gambit=True, r500_num_decks=2), 3, "V500-GAMBIT"),
        (dict(r500_dealers_gambit=True, r500_persian=True), 4, "V500-GAMBIT"),
        (dict(r500_gambit_jokers=4), 3, "V500-GAMBIT-1"),
        (dict(r500_partner_layoff="team_only"), 4, "V500-PARTNER-1"),
        (dict(r500_addopp_stock_out="continue_discarding"), 3, "V500-ADDOPP-3"),
        (dict(r500_unplayable_discard=True, r500_going_out="any"), 3, "V500-UNPLAYABLE"),
        (dict(r500_unplayable_discard=True, r500_going_out="discard_required"), 3,
         "V500-UNPLAYABLE"),
        (dict(r500_score_divisor=5), 3, "V500-DIV5"),  # face values
        (dict(r500_score_divisor=5, r500_card_values="5_10_15", r500_ace_low_value=1), 3,
         "V500-DIV5"),
        (dict(r500_persian=True, r500_must_go_out_to_win=True), 4, "V500-MUSTOUT"),
        (dict(r500_persian=True, r500_tie_rule="goer_wins"), 4, "V500-TIE"),
    ]
    for overrides, n, rule in cases:
        with pytest.raises(RulesError, match=rule) as info:
            Rules().with_(**overrides).check(n)
        assert not isinstance(info.value, UnsupportedRuleError), overrides


def test_5000_conflicts():
    with pytest.raises(RulesError, match="V5K-9"):
        Rules(game="5000-rummy").with_(r5k_persian=True).check(3)
    with pytest.raises(RulesError, match="V5K-13"):
        Rules(game="5000-rummy").with_(r5k_doubling=True).check(3)


def test_valid_combinations_reach_support_check(monkeypatch):
    Rules(game="5000-rummy").with_(r5k_limit_poker=True).check(2)  # V5K-14: supported
    Rules().with_(r500_dealers_gambit=True, r500_gambit_jokers=4).check(2)  # V500-GAMBIT: supported
    monkeypatch.setitem(KERNEL_SUPPORT, "r5k_limit_poker", (False,))
    with pytest.raises(UnsupportedRuleError):  # valid per RULES.md, so the only complaint is support
        Rules(game="5000-rummy").with_(r5k_limit_poker=True).check(2)


def test_partnership_combinations_are_supported():
    Rules().with_(r500_persian=True).check(4)
    Rules().with_(r500_partnership=True, r500_partner_layoff="team_only").check(4)


# --- pack_for ------------------------------------------------------------------


@pytest.mark.parametrize(
    "n, jokers_per_deck, expected",
    [
        (2, 2, (1, 2, 13)), (4, 2, (1, 2, 7)), (5, 2, (2, 4, 7)), (8, 2, (2, 4, 7)),
        (2, 1, (1, 1, 13)), (4, 1, (1, 1, 7)), (5, 1, (2, 2, 7)), (8, 1, (2, 2, 7)),
        (2, 0, (1, 0, 13)), (4, 0, (1, 0, 7)), (5, 0, (2, 0, 7)), (8, 0, (2, 0, 7)),
    ],
)
def test_pack_for(n, jokers_per_deck, expected):
    assert pack_for(Rules().with_(r500_jokers_per_deck=jokers_per_deck), n) == expected


def test_pack_for_special_packs():
    assert pack_for(Rules().with_(r500_num_decks=2), 3) == (2, 4, 7)
    assert pack_for(Rules().with_(r500_num_decks=1), 7) == (1, 2, 7)
    assert pack_for(Rules().with_(r500_persian=True), 4) == (1, 4, 7)
    assert pack_for(Rules().with_(r500_dealers_gambit=True), 3) == (1, 2, 7)
    assert pack_for(Rules().with_(r500_dealers_gambit=True, r500_gambit_jokers=4), 2) == (1, 4, 13)
    with pytest.raises(RulesError):
        pack_for(Rules().with_(r500_num_decks=1), 8)
    with pytest.raises(InputError):
        pack_for(Rules(), 9)
    with pytest.raises(RulesError):
        pack_for(Rules(game="rummikub"), 4)


# --- describe, kernel support table, errors --------------------------------------------


def test_describe():
    rows = describe(Rules().with_(r500_target=1000))
    names = [row["flag"] for row in rows]
    assert names[-2:] == ["max_turns_per_hand", "max_hands_per_game"]
    assert all(n.startswith("r500_") for n in names[:-2])
    assert len(names) == sum(1 for f in FLAGS.values() if f.game in ("500-rum", "*"))
    target = next(row for row in rows if row["flag"] == "r500_target")
    assert target["value"] == 1000 and target["default"] == 500
    assert target["rule_ids"] == ("V500-TARGET",) and target["doc"] and target["supported"]
    assert [row["flag"] for row in describe(Rules(game="rummikub"))][0] == "rkub_direction"


def test_kernel_support_table_is_consistent():
    assert set(KERNEL_SUPPORT) == {"game", *FLAGS}
    assert KERNEL_SUPPORT["game"] == ("500-rum", "standard-rummy", "5000-rummy", "rummikub")
    for name, support in KERNEL_SUPPORT.items():
        if name == "game" or support == "any":
            continue
        assert isinstance(support, tuple) and FLAGS[name].default in support, name
        for v in support:
            assert FLAGS[name].allows(v), (name, v)


def test_errors_pickle_and_hierarchy():
    err = UnsupportedRuleError("V500-RUMMY", "r500_call_rummy", "pile")
    back = pickle.loads(pickle.dumps(err))
    assert (back.rule_id, back.flag, back.value, str(back)) == (
        err.rule_id, err.flag, err.value, str(err))
    assert issubclass(InputError, RummysimError) and not issubclass(InputError, RulesError)
