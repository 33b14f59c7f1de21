"""Regenerate the reference's derived files from the source tree (a developer's tool).

``python -m rummysim.reference.build`` rewrites ``sim/reference/data/decisions.json`` from
docs/rules-decisions.md and then docs/rules-reference.md from the data files; ``--check``
writes nothing and exits 1 when either is out of date. Run it from the repository root (or name
the root with ``--root``): the decisions document is not installed with the package.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rummysim.flags import FLAGS

DECISIONS_DOC = Path("docs") / "rules-decisions.md"
DECISIONS_JSON = Path("sim") / "reference" / "data" / "decisions.json"
MARKDOWN = Path("docs") / "rules-reference.md"


def decisions_json_text(decisions_doc: Path) -> str:
    """``data/decisions.json`` as the decisions document ``decisions_doc`` gives it now."""
    from rummysim.reference.decisions import index_decisions
    from rummysim.reference.model import data_rule_ids

    rows = index_decisions(decisions_doc.read_text(encoding="utf-8"), data_rule_ids(), FLAGS)
    return json.dumps({"generated_from": "docs/rules-decisions.md", "decisions": rows}, indent=1,
                      ensure_ascii=False) + "\n"


def markdown_text() -> str:
    """docs/rules-reference.md as the data files give it now."""
    from rummysim.reference.model import load_reference
    from rummysim.reference.render import reference_markdown

    load_reference.cache_clear()
    return reference_markdown(load_reference())


def _update(root: Path, path: Path, text: str, check: bool) -> bool:
    """Write ``text`` to ``root / path`` (or, with ``check``, only compare); True if it was current."""
    target = root / path
    current = target.read_text(encoding="utf-8") if target.exists() else None
    if current == text:
        return True
    if not check:
        target.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report whether the files are current")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the repository root (default: here)")
    args = parser.parse_args(argv)
    root: Path = args.root
    if not (root / DECISIONS_DOC).exists() or not (root / DECISIONS_JSON).parent.is_dir():
        print(f"error: {root} is not a rummysim source checkout (no {DECISIONS_DOC})", file=sys.stderr)
        return 2
    current = _update(root, DECISIONS_JSON, decisions_json_text(root / DECISIONS_DOC), args.check)
    current = _update(root, MARKDOWN, markdown_text(), args.check) and current
    if args.check and not current:
        print("error: the rules reference is out of date: run python -m rummysim.reference.build", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
