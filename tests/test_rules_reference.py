"""The shipped rules reference (issue 22 point 3): one entry per rule ID of RULES.md and per flag,
in the project's own words, installed with the package, printed by ``rummysim rules explain``.

RULES.md is read from ``../shared/RULES.md`` beside the checkout (CI lays it out there); the tests
that need it skip without it. A rule ID counts as *defined* by RULES.md where it opens a bullet
(``- **R500-MELD-1** ...``), a heading (``### V500-ACE — ...``), a table row (``| AMB-12 | ...``)
or a test scenario (``**T-10 Boathouse rule**``); IDs only mentioned inside text are references.
"""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from importlib import resources
from pathlib import Path

import pytest

from rummysim.cli.main import main
from rummysim.errors import RulesError
from rummysim.flags import FLAGS, GAMES, IMPLIES, format_value
from rummysim.presets import PRESETS
from rummysim.reference import lookup
from rummysim.reference.build import decisions_json_text, markdown_text
from rummysim.reference.decisions import index_decisions
from rummysim.reference.model import (
    DECISIONS_FILE,
    FLAG_FILE,
    RULE_FILES,
    SOURCE_FILE,
    SRC_DEFAULT,
    SRC_PROJECT,
    TAGS,
    flag_prose,
    load_reference,
)
from rummysim.rules import Rules, describe

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT.parent / "shared" / "RULES.md"
_ID = r"[A-Z][A-Z0-9]*(?:-[A-Za-z0-9]+)+"
DEFINITIONS = (
    re.compile(rf"^- \*\*({_ID})\*\*", re.M),   # a bullet that opens with the bold ID
    re.compile(rf"^### ({_ID}) — ", re.M),      # a variation heading
    re.compile(rf"^\| ({_ID}) \|", re.M),       # a table row whose first cell is the ID
    re.compile(r"^\*\*(T-\d+) ", re.M),         # a test scenario
)
#: A run of this many words shared with RULES.md counts as copied text.
COPIED_WORDS = 10


def rules_md() -> str:
    if not RULES_MD.exists():
        pytest.skip(f"{RULES_MD} not found (CI lays ../shared out beside the checkout)")
    return RULES_MD.read_text(encoding="utf-8")


def defined_ids(text: str) -> set[str]:
    return {m.group(1) for pattern in DEFINITIONS for m in pattern.finditer(text)}


@pytest.fixture(scope="module")
def ref():
    return load_reference()


# ---------------------------------------------------------------------------
# Coverage of RULES.md and of FLAGS
# ---------------------------------------------------------------------------
def test_the_definition_patterns_find_every_kind_of_id():
    sample = ("- **C-CARD-1** A natural card ...\n### V500-ACE — ace values\n| AMB-12 | Tie |\n"
              "| V5K-3 | Going Rummy |\n**T-10 Boathouse rule** [003]\n- Flag `r500_x` (see R500-END-2).\n")
    assert defined_ids(sample) == {"C-CARD-1", "V500-ACE", "AMB-12", "V5K-3", "T-10"}


def test_every_rule_id_rules_md_defines_has_an_entry(ref):
    defined = defined_ids(rules_md())
    assert len(defined) > 300
    assert sorted(defined - set(ref.rules)) == []


def test_every_entry_is_a_rules_md_id_or_a_project_id(ref):
    defined = defined_ids(rules_md())
    extra = {rid for rid, e in ref.rules.items() if rid not in defined}
    assert extra == {rid for rid, e in ref.rules.items() if SRC_PROJECT in e.src}
    assert "ENGINE-CAP" in extra


def test_every_id_rules_md_mentions_is_defined():
    # A reference to an undefined ID would have no entry; "AMB-xx" is RULES.md's placeholder.
    text = rules_md()
    mentioned = set(re.findall(r"\b(?:C|R500|V500|R5K|V5K|RKUB|VKUB|RSTD|AMB|T)-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)?\b", text))
    assert mentioned - defined_ids(text) == {"AMB-xx"}


def test_every_flag_has_an_entry_and_no_entry_names_an_unknown_flag(ref):
    assert list(ref.flags) == list(FLAGS)
    assert set(flag_prose()) == set(FLAGS)
    for entry in ref.rules.values():
        assert set(entry.flags) <= set(FLAGS), entry.id


def test_flag_prose_describes_exactly_the_allowed_values():
    for name, prose in flag_prose().items():
        flag = FLAGS[name]
        assert set(prose["values"]) == {format_value(v) for v in flag.values}, name
        assert all(text.strip() for text in prose["values"].values()), name
        assert ("range" in prose) == (flag.int_range is not None), name
        assert set(prose) <= {"text", "values", "range"}, name


def test_flag_facts_come_from_the_code(ref):
    target = ref.flags["r500_target"]
    assert target.allowed == FLAGS["r500_target"].allowed_text() and target.default == "500"
    assert target.rule_ids == ("V500-TARGET",) and target.implemented
    assert ref.flags["r500_going_out"].rule_ids == ("V500-DISCREQ", "V500-FLOAT")
    assert ref.flags["r5k_rummy"].rule_ids == ("V5K-3", "V5K-4")
    boathouse = ref.flags["r500_boathouse"]
    assert boathouse.implies and "r500_stock_draw_count=2" in boathouse.implies[0]


def test_unimplemented_values_are_reported(ref, monkeypatch):
    from rummysim import rules as rules_module
    from rummysim.reference import model

    monkeypatch.setitem(rules_module.KERNEL_SUPPORT, "r500_persian", (False,))
    entry = model._flag_entry("r500_persian", flag_prose()["r500_persian"], ref.decisions, {})
    assert not entry.implemented and entry.not_implemented == ("true",)
    from rummysim.reference.render import flag_text

    assert "implemented: no: the kernels do not play true yet" in flag_text(entry)


def test_every_rule_id_the_code_cites_can_be_explained(ref):
    cited = {r for f in FLAGS.values() for r in (*f.rule_ids, *(rule for _, rule in f.value_rules))}
    cited |= {g.players_rule for g in GAMES.values()} | {g.setup_rule for g in GAMES.values()}
    cited |= {rule for rule, _ in IMPLIES.values()}
    for name in PRESETS:
        cited |= {r for row in describe(Rules.preset(name)) for r in row["rule_ids"]}
    assert sorted(cited - set(ref.rules)) == []


def test_rule_entries_link_the_flags_that_switch_them(ref):
    assert ref.rules["V500-BOATHOUSE"].flags == ("r500_boathouse", "r500_stock_draw_count")
    assert set(ref.rules["V500-ADDOPP-3"].flags) == {"r500_addopp_stock_out", "r500_add_opponent_hand"}
    assert ref.rules["V5K-3a"].flags == ("r5k_rummy",)  # from its parent V5K-3
    assert ref.rules["R500-MELD-1"].flags == ()


# ---------------------------------------------------------------------------
# The prose
# ---------------------------------------------------------------------------
def test_sources_and_tags_are_known(ref):
    for entry in ref.rules.values():
        assert entry.src, entry.id
        for token in entry.src:
            assert token in ref.sources or token in (SRC_DEFAULT, SRC_PROJECT) or token in ref.rules, (entry.id, token)
        assert entry.tag in ("", *TAGS), entry.id
        assert entry.title and 20 <= len(entry.text) <= 700, entry.id


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def _runs(words: list[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def test_the_prose_is_not_copied_from_rules_md(ref):
    copied = _runs(_words(rules_md()), COPIED_WORDS)
    texts = [(e.id, e.text) for e in ref.rules.values()]
    texts += [(f.name, t) for f in ref.flags.values() for t in (f.text, f.range_meaning, *(v.meaning for v in f.values))]
    shared = {name: " ".join(next(iter(_runs(_words(t), COPIED_WORDS) & copied)))
              for name, t in texts if _runs(_words(t), COPIED_WORDS) & copied}
    assert shared == {}


def test_rule_ids_named_in_the_prose_exist(ref):
    for entry in ref.rules.values():
        named = re.findall(r"\b(?:C|R500|V500|R5K|V5K|RKUB|VKUB|RSTD|AMB|T)-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)?\b", entry.text)
        assert set(named) <= set(ref.rules), entry.id


# ---------------------------------------------------------------------------
# Decisions and the generated files
# ---------------------------------------------------------------------------
def test_decisions_index_expands_the_shorthands():
    doc = ("## Engine\n\n| # | Rule | Question | Choice | Why |\n|---|---|---|---|---|\n"
           "| E1 | R500-MELD-5/6 | Jokers? | `r500_target` | V500-GAMBIT-1..3 |\n"
           "| E2 | RSTD-* | Standard? | no | - |\n\n## Validator\n\n| # | Question | Reading |\n|---|---|---|\n"
           "| V9 | V500-OPEN30 first turn | A-2-3 stays |\n")
    known = {"R500-MELD-5", "R500-MELD-6", "V500-GAMBIT-1", "V500-GAMBIT-2", "V500-GAMBIT-3", "RSTD-OUT-1",
             "RSTD-GAME-1", "V500-OPEN30"}
    rows = index_decisions(doc, known, FLAGS)
    assert [r["number"] for r in rows] == ["E1", "E2", "V9"]
    assert rows[0]["rules"] == ["R500-MELD-5", "R500-MELD-6", "V500-GAMBIT-1", "V500-GAMBIT-2", "V500-GAMBIT-3"]
    assert rows[0]["flags"] == ["r500_target"] and rows[0]["question"] == "Jokers?"
    assert rows[1]["rules"] == ["RSTD-GAME-1", "RSTD-OUT-1"] and rows[1]["heading"] == "Engine"
    assert rows[2] == {"number": "V9", "heading": "Validator", "question": "V500-OPEN30 first turn",
                       "rules": ["V500-OPEN30"], "flags": []}


def test_entries_carry_the_decisions_that_name_them(ref):
    assert "E17" in [d.number for d in ref.rules["V500-OPEN30"].decisions]
    assert "V9" in [d.number for d in ref.rules["V500-OPEN30"].decisions]
    assert "R-rk7" in [d.number for d in ref.rules["RKUB-END-2"].decisions]
    assert "E21" in [d.number for d in ref.rules["RSTD-OUT-1"].decisions]  # "RSTD-*"


def test_shipped_decisions_index_is_up_to_date():
    shipped = resources.files("rummysim.reference").joinpath("data", DECISIONS_FILE).read_text(encoding="utf-8")
    assert shipped == decisions_json_text(ROOT / "docs" / "rules-decisions.md"), "run python -m rummysim.reference.build"


def test_docs_rules_reference_md_is_up_to_date():
    committed = (ROOT / "docs" / "rules-reference.md").read_text(encoding="utf-8")
    assert committed == markdown_text(), "run python -m rummysim.reference.build"


def test_build_check_and_rewrite(tmp_path, capsys):
    from rummysim.reference import build

    assert build.main(["--check", "--root", str(ROOT)]) == 0
    (tmp_path / "docs").mkdir()
    (tmp_path / "sim" / "reference" / "data").mkdir(parents=True)
    (tmp_path / "docs" / "rules-decisions.md").write_text((ROOT / "docs" / "rules-decisions.md").read_text())
    assert build.main(["--check", "--root", str(tmp_path)]) == 1
    assert build.main(["--root", str(tmp_path)]) == 0
    assert (tmp_path / "docs" / "rules-reference.md").read_text() == markdown_text()
    assert build.main(["--root", str(tmp_path / "nowhere")]) == 2
    capsys.readouterr()


def test_readme_links_the_in_repository_reference():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/rules-reference.md)" in readme and "](../shared/RULES.md)" not in readme


# ---------------------------------------------------------------------------
# Packaging
# ---------------------------------------------------------------------------
def test_the_package_carries_the_data_files():
    data = resources.files("rummysim.reference").joinpath("data")
    names = {*RULE_FILES, FLAG_FILE, SOURCE_FILE, DECISIONS_FILE}
    assert all(data.joinpath(n).is_file() for n in names)
    assert {p.name for p in data.iterdir() if p.is_file()} == names
    # a non-editable install copies only what package-data names
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["rummysim.reference"]
    assert all(any(fnmatch.fnmatch(f"data/{n}", g) for g in globs) for n in names)


# ---------------------------------------------------------------------------
# The CLI
# ---------------------------------------------------------------------------
def _run(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(list(args))
    out, err = capsys.readouterr()
    return stop.value.code, out, err


def test_rules_explain_a_rule_id_in_any_case(capsys):
    code, out, _ = _run(capsys, "rules", "explain", "v500-boathouse")
    assert code == 0
    assert out.startswith("V500-BOATHOUSE: Boathouse rule\ngame: 500 Rum; RULES.md §3 500 Rum variations")
    assert "flags: r500_boathouse, r500_stock_draw_count" in out and "source: [003]" in out


def test_rules_explain_a_flag(capsys):
    code, out, _ = _run(capsys, "rules", "explain", "R500_TARGET")
    assert code == 0 and out.startswith("r500_target: ")
    assert "allowed: 50..100000 (presets: 500, 1000, 250, 100)" in out and "default: 500" in out
    assert "implemented: yes" in out and "  1000   a long game" in out


def test_rules_explain_json(capsys):
    code, out, _ = _run(capsys, "rules", "explain", "V5K-3a", "--json")
    data = json.loads(out)
    assert code == 0 and data["kind"] == "rule" and data["id"] == "V5K-3a" and data["flags"] == ["r5k_rummy"]
    assert data["section"] == {"ref": "5", "title": "5000 Rummy variations 1-14"}
    code, out, _ = _run(capsys, "rules", "explain", "rkub_joker_penalty", "--json")
    data = json.loads(out)
    assert data["kind"] == "flag" and data["allowed"] == "0..100 (presets: 30, 25)" and data["implemented"] is True


def test_rules_explain_unknown_suggests_close_names(capsys):
    code, out, err = _run(capsys, "rules", "explain", "r500_targt")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("error: unknown rule ID or flag 'r500_targt' (did you mean r500_target")
    code, _, err = _run(capsys, "rules", "explain", "v500-gambit-")
    assert code == 2 and "(did you mean V500-GAMBIT-1, V500-GAMBIT-2," in err and "or 4 more?)" in err
    with pytest.raises(RulesError, match=r"unknown rule ID or flag 'nothing-like-it';"):
        lookup("nothing-like-it")


def test_rules_reference_markdown_is_the_committed_file(capsys):
    code, out, _ = _run(capsys, "rules", "reference", "--markdown")
    assert code == 0 and out == (ROOT / "docs" / "rules-reference.md").read_text(encoding="utf-8")


def test_rules_reference_lists_and_json(capsys, ref):
    code, out, _ = _run(capsys, "rules", "reference")
    assert code == 0 and "R500-MELD-1" in out and "max_hands_per_game" in out
    code, out, _ = _run(capsys, "rules", "reference", "--json")
    data = json.loads(out)
    assert len(data["rules"]) == len(ref.rules) and len(data["flags"]) == len(FLAGS)
