"""Indexing docs/rules-decisions.md by the rule IDs and flags each decision names.

The decisions document is not installed, so :func:`index_decisions` turns it into the rows of
``data/decisions.json`` (number, heading, question, rule IDs, flags), which the installed
reference reads. A row names a rule ID when the ID appears anywhere in it, with RULES.md's
shorthands expanded: ``R500-MELD-5/6``, ``V500-GAMBIT-1..9``, ``RSTD-*``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: A decision row starts with its number: E12, V31, C4, R-rk7.
_ROW = re.compile(r"^\|\s*((?:E|V|C|R-rk)\d+)\s*\|")
#: An ID-like token with an optional shorthand tail (``/6``, ``..9``, ``-*``).
_TOKEN = re.compile(r"\b[A-Z][A-Z0-9]*(?:-[A-Za-z0-9]+)*(?:(?:/[A-Za-z0-9]+)+|\.\.\d+|-\*)?")
_FLAG = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def _expand(token: str, known: set[str]) -> list[str]:
    """The known rule IDs a token of the decisions text stands for."""
    if token.endswith("-*"):
        prefix = token[:-1]
        return sorted(i for i in known if i.startswith(prefix))
    if "/" in token:
        head, *alts = token.split("/")
        base = head.rsplit("-", 1)[0]
        ids = [head, *(f"{base}-{a}" for a in alts)]
    elif ".." in token:
        head, hi = token.split("..")
        base, lo = head.rsplit("-", 1)
        ids = [f"{base}-{n}" for n in range(int(lo), int(hi) + 1)] if lo.isdigit() else [head]
    else:
        ids = [token]
    return [i for i in ids if i in known]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def index_decisions(text: str, known_ids: Iterable[str], flags: Iterable[str]) -> list[dict[str, object]]:
    """One row per decision of ``text`` (docs/rules-decisions.md), in document order."""
    known, flag_names = set(known_ids), set(flags)
    rows: list[dict[str, object]] = []
    heading, question_col = "", 1
    for line in text.splitlines():
        if line.startswith("#"):
            heading = line.lstrip("#").strip()
        elif line.startswith("| #"):
            header = _cells(line)
            question_col = header.index("Question") if "Question" in header else 1
        elif match := _ROW.match(line):
            cells = _cells(line)
            ids = [i for token in _TOKEN.findall(line) for i in _expand(token, known)]
            rows.append({
                "number": match.group(1), "heading": heading, "question": cells[question_col],
                "rules": list(dict.fromkeys(ids)),
                "flags": list(dict.fromkeys(f for f in _FLAG.findall(line) if f in flag_names)),
            })
    return rows
