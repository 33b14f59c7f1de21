"""Loading the rules reference: the shipped TOML prose joined with the flag facts of the code.

:func:`load_reference` reads ``data/*.toml`` and ``data/decisions.json`` through
:mod:`importlib.resources` (so it works from an installed wheel as from the source tree) and
builds one :class:`RuleEntry` per rule ID and one :class:`FlagEntry` per flag of
:data:`rummysim.flags.FLAGS`. :func:`lookup` finds one entry by rule ID or flag name, ignoring
case, and suggests close names when there is none.
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Union

from rummysim.errors import RulesError
from rummysim.flags import ENGINE, FLAGS, GAMES, IMPLIES, format_value

#: The prose files in reference order (RULES.md's order: common, 500 Rum, 5000 Rummy, Rummikub,
#: Standard Rummy, ambiguities, test scenarios), then the project's own IDs.
RULE_FILES = ("common.toml", "rum500.toml", "rum500_variations.toml", "rum5000.toml",
              "rum5000_variations.toml", "rummikub.toml", "standard.toml", "ambiguities.toml",
              "scenarios.toml", "project.toml")
FLAG_FILE = "flags.toml"
SOURCE_FILE = "sources.toml"
DECISIONS_FILE = "decisions.json"

#: Games an entry may belong to besides the :data:`GAMES` keys.
GAME_TITLES = {"all": "every game", "engine": "the engine (not a rule of the games)",
               **{name: g.title for name, g in GAMES.items()}}
#: Markers RULES.md puts on rules the play engine does not simulate as written.
TAGS = {"non-simulated": "physical procedure; the engine uses an equivalent",
        "stakes": "payoff or betting, outside the play engine",
        "info": "what a player may observe"}
#: ``src`` tokens besides the seed tags and RULES.md IDs: ``default`` (no source states it;
#: RULES.md chose) and ``project`` (an ID of the project's own, not in RULES.md).
SRC_DEFAULT = "default"
SRC_PROJECT = "project"


@dataclass(frozen=True)
class Source:
    """One seed text of RULES.md §0.1."""

    tag: str
    file: str
    title: str
    short: str


@dataclass(frozen=True)
class Section:
    """A part of RULES.md the entries come from (``ref`` is its section number)."""

    ref: str
    title: str
    game: str


@dataclass(frozen=True)
class Decision:
    """One row of docs/rules-decisions.md (E-, R-rk, C- or V-numbered)."""

    number: str
    heading: str
    question: str


@dataclass(frozen=True)
class RuleEntry:
    """One rule ID: the project's wording of it and where it comes from.

    ``src`` holds seed tags (``"003"``), ``"default"`` and RULES.md IDs (``"AMB-11"``) that
    ground the rule; ``flags`` the flags that switch it; ``tag`` one of :data:`TAGS` or ``""``.
    """

    id: str
    title: str
    text: str
    game: str
    section: Section
    src: tuple[str, ...]
    flags: tuple[str, ...]
    decisions: tuple[Decision, ...]
    tag: str


@dataclass(frozen=True)
class ValueMeaning:
    """What one value of a flag does (``value`` as typed on the command line)."""

    value: str
    meaning: str


@dataclass(frozen=True)
class FlagEntry:
    """One flag: the prose of the data file and the facts of :data:`FLAGS` and the kernels."""

    name: str
    game: str
    summary: str
    text: str
    values: tuple[ValueMeaning, ...]
    range_meaning: str
    allowed: str
    default: str
    rule_ids: tuple[str, ...]
    not_implemented: tuple[str, ...]
    implies: tuple[str, ...]
    decisions: tuple[Decision, ...]

    @property
    def implemented(self) -> bool:
        return not self.not_implemented


Entry = Union[RuleEntry, FlagEntry]


@dataclass(frozen=True)
class Reference:
    """The whole reference, in RULES.md order."""

    sources: dict[str, Source]
    sections: tuple[Section, ...]
    rules: dict[str, RuleEntry]
    flags: dict[str, FlagEntry]
    decisions: dict[str, Decision]

    def entries(self) -> dict[str, Entry]:
        return {**self.rules, **self.flags}


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------
def _data_text(name: str) -> str:
    return resources.files("rummysim.reference").joinpath("data", name).read_text(encoding="utf-8")


def _toml(name: str) -> dict[str, Any]:
    return tomllib.loads(_data_text(name))


def _load_sources() -> dict[str, Source]:
    return {tag: Source(tag, row["file"], row["title"], row["short"]) for tag, row in _toml(SOURCE_FILE)["source"].items()}


def _load_decisions() -> tuple[dict[str, Decision], dict[str, list[str]]]:
    """The decisions by number, and the decision numbers naming each rule ID or flag."""
    rows = json.loads(_data_text(DECISIONS_FILE))["decisions"]
    decisions = {r["number"]: Decision(r["number"], r["heading"], r["question"]) for r in rows}
    naming: dict[str, list[str]] = {}
    for r in rows:
        for key in (*r["rules"], *r["flags"]):
            naming.setdefault(key, []).append(r["number"])
    return decisions, naming


def parent_id(rule_id: str) -> str:
    """The rule a sub-rule belongs to: ``V5K-3a`` -> ``V5K-3``, ``V500-RUMMY-2`` -> ``V500-RUMMY``
    (a candidate: it is a parent only if it is itself an ID)."""
    if re.search(r"\d[a-z]$", rule_id):
        return rule_id[:-1]
    return re.sub(r"-\d+$", "", rule_id)


def _flags_naming(rule_id: str) -> list[str]:
    return [name for name, f in FLAGS.items()
            if rule_id in f.rule_ids or any(rule == rule_id for _, rule in f.value_rules)]


def _rule_flags(rule_id: str, extra: list[str], known: set[str]) -> tuple[str, ...]:
    names = _flags_naming(rule_id) + list(extra)
    parent = parent_id(rule_id)
    if parent != rule_id and parent in known:
        names += _flags_naming(parent)
    unknown = [n for n in names if n not in FLAGS]
    if unknown:
        raise RuntimeError(f"rummysim.reference: {rule_id} names unknown flags {unknown}")
    return tuple(dict.fromkeys(names))


def _load_rules(decisions: dict[str, Decision], naming: dict[str, list[str]]
                ) -> tuple[tuple[Section, ...], dict[str, RuleEntry]]:
    raw: list[tuple[Section, dict[str, Any]]] = []
    sections: list[Section] = []
    for name in RULE_FILES:
        for sec in _toml(name)["section"]:
            section = Section(sec["ref"], sec["title"], sec["game"])
            sections.append(section)
            raw.extend((section, row) for row in sec["rule"])
    known = {row["id"] for _, row in raw}
    if len(known) != len(raw):
        seen: set[str] = set()
        twice = sorted({row["id"] for _, row in raw if row["id"] in seen or seen.add(row["id"])})
        raise RuntimeError(f"rummysim.reference: rule IDs with two entries: {twice}")
    rules: dict[str, RuleEntry] = {}
    for section, row in raw:
        rid = row["id"]
        rules[rid] = RuleEntry(
            id=rid, title=row["title"], text=" ".join(row["text"].split()),
            game=row.get("game", section.game), section=section, src=tuple(row["src"].split()),
            flags=_rule_flags(rid, row.get("flags", []), known),
            decisions=tuple(decisions[n] for n in naming.get(rid, ())), tag=row.get("tag", ""),
        )
    return tuple(sections), rules


def _implies_text(name: str) -> tuple[str, ...]:
    return tuple(
        f"{name}={format_value(value)} also sets "
        + ", ".join(f"{k}={format_value(v)}" for k, v in settings.items()) + f" ({rule})"
        for (flag, value), (rule, settings) in IMPLIES.items() if flag == name
    )


def _flag_entry(name: str, prose: dict[str, Any], decisions: dict[str, Decision],
                naming: dict[str, list[str]]) -> FlagEntry:
    from rummysim.rules import missing_values  # rules imports the kernels' support table only

    flag = FLAGS[name]
    meanings = prose.get("values", {})
    return FlagEntry(
        name=name,
        game=("engine" if flag.game == ENGINE else flag.game),
        summary=flag.doc,
        text=" ".join(prose["text"].split()),
        values=tuple(ValueMeaning(format_value(v), " ".join(meanings.get(format_value(v), "").split()))
                     for v in flag.values),
        range_meaning=" ".join(prose.get("range", "").split()),
        allowed=flag.allowed_text(),
        default=format_value(flag.default),
        rule_ids=tuple(dict.fromkeys((*flag.rule_ids, *(rule for _, rule in flag.value_rules)))),
        not_implemented=tuple(format_value(v) for v in missing_values(name)),
        implies=_implies_text(name),
        decisions=tuple(decisions[n] for n in naming.get(name, ())),
    )


def data_rule_ids() -> list[str]:
    """The rule IDs of the prose files, in order, read without the rest of the reference."""
    return [row["id"] for name in RULE_FILES for sec in _toml(name)["section"] for row in sec["rule"]]


def flag_prose() -> dict[str, dict[str, Any]]:
    """The prose of ``data/flags.toml`` by flag name, as written (for the tests)."""
    return _toml(FLAG_FILE)["flag"]


@lru_cache(maxsize=1)
def load_reference() -> Reference:
    """The reference as shipped, joined with the code's flag facts (cached)."""
    decisions, naming = _load_decisions()
    sections, rules = _load_rules(decisions, naming)
    prose = flag_prose()
    missing = [name for name in FLAGS if name not in prose]
    if missing:
        raise RuntimeError(f"rummysim.reference: flags without an entry: {missing}")
    flags = {name: _flag_entry(name, prose[name], decisions, naming) for name in FLAGS}
    return Reference(_load_sources(), sections, rules, flags, decisions)


# ---------------------------------------------------------------------------
# Lookup
# ---------------------------------------------------------------------------
MAX_SUGGESTIONS = 5


def _suggestions(key: str, names: list[str]) -> list[str]:
    folded = key.casefold()
    prefixed = [n for n in names if n.casefold().startswith(folded)]
    if prefixed:
        return prefixed
    by_fold = {n.casefold(): n for n in names}
    return [by_fold[c] for c in difflib.get_close_matches(folded, list(by_fold), n=3, cutoff=0.6)]


def _did_you_mean(candidates: list[str]) -> str:
    if not candidates:
        return ""
    shown = candidates[:MAX_SUGGESTIONS]
    more = f" or {len(candidates) - len(shown)} more" if len(candidates) > len(shown) else ""
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + (", " if more else " or ") + shown[-1]
    return f" (did you mean {listed}{more}?)"


def lookup(key: str, reference: Reference | None = None) -> Entry:
    """The entry of rule ID or flag ``key`` (any case); :class:`RulesError` naming close
    matches when there is none."""
    ref = reference or load_reference()
    entries = ref.entries()
    wanted = key.strip().casefold()
    for name, entry in entries.items():
        if name.casefold() == wanted:
            return entry
    hint = _did_you_mean(_suggestions(key.strip(), list(entries)))
    raise RulesError(f"unknown rule ID or flag {key!r}{hint}; `rummysim rules reference` lists them all")
