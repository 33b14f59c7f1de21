"""Regenerate the reference's derived files from the source tree (a developer's tool).

``python -m rummysim.reference.build`` rewrites ``sim/reference/data/decisions.json`` from
docs/rules-decisions.md and then docs/rules-reference.md from the data files; ``--check``
writes nothing and exits 1 when either is out of date. Run from the repository root.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rummysim.flags import FLAGS

ROOT = Path(__file__).resolve().parents[2]
DECISIONS_DOC = ROOT / "docs" / "rules-decisions.md"
DECISIONS_JSON = ROOT / "sim" / "reference" / "data" / "decisions.json"
MARKDOWN = ROOT / "docs" / "rules-reference.md"


def decisions_json_text() -> str:
    """``data/decisions.json`` as docs/rules-decisions.md gives it now."""
    from rummysim.reference.decisions import index_decisions
    from rummysim.reference.model import data_rule_ids

    rows = index_decisions(DECISIONS_DOC.read_text(encoding="utf-8"), data_rule_ids(), FLAGS)
    return json.dumps({"generated_from": "docs/rules-decisions.md", "decisions": rows}, indent=1,
                      ensure_ascii=False) + "\n"


def markdown_text() -> str:
    """docs/rules-reference.md as the data files give it now."""
    from rummysim.reference.model import load_reference
    from rummysim.reference.render import reference_markdown

    load_reference.cache_clear()
    return reference_markdown(load_reference())


def _update(path: Path, text: str, check: bool) -> bool:
    """Write ``text`` to ``path`` (or, with ``check``, only compare); True if it was current."""
    current = path.read_text(encoding="utf-8") if path.exists() else None
    if current == text:
        return True
    if not check:
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether the files are current")
    args = parser.parse_args(argv)
    if not DECISIONS_DOC.exists():
        print(f"error: {DECISIONS_DOC} not found: run from a source checkout", file=sys.stderr)
        return 2
    current = _update(DECISIONS_JSON, decisions_json_text(), args.check)
    current = _update(MARKDOWN, markdown_text(), args.check) and current
    if args.check and not current:
        print("error: the rules reference is out of date: run python -m rummysim.reference.build", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
