"""The strength ladder (issue 18 point 7): how strong each bot is, and what it costs.

``strategies/ladder.json`` is written by ``benchmarks/ladder.py`` (a tournament of every bot of a
game on duplicate deals, and each bot's hands per second on one thread). This module reads it for
``rummysim strategies list --ladder GAME`` and renders the tables docs/strategies.md carries
(``python -m rummysim.ladder`` rewrites them there; a test checks they agree).
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path

from rummysim.errors import InputError

DOC = Path(__file__).resolve().parents[1] / "docs" / "strategies.md"
BEGIN, END = "<!-- ladder: begin (python -m rummysim.ladder) -->", "<!-- ladder: end -->"


def load_ladders() -> dict[str, dict]:
    """Every ladder: name (``500-rum-2p``) -> game, players, deals, seed, date and rows."""
    text = resources.files("rummysim.strategies").joinpath("ladder.json").read_text(encoding="utf-8")
    return json.loads(text)


def ladders_of(game: str) -> dict[str, dict]:
    """The ladders of ``game`` (a game name such as 500-rum, or a ladder name), or an InputError."""
    ladders = load_ladders()
    chosen = {n: lad for n, lad in ladders.items() if lad["game"] == game or n == game}
    if not chosen:
        raise InputError(f"no strength ladder for {game!r}: ladders are {', '.join(ladders)}")
    return chosen


def ladder_rows(ladder: dict) -> list[list[str]]:
    """Table cells, strongest first: strategy, Bradley-Terry strength [95% CI], points per hand
    against the field [95% CI], hands per second on one thread."""
    return [[
        r["strategy"], f"{r['bt_strength']:.3f} [{r['bt_lo']:.3f}, {r['bt_hi']:.3f}]",
        f"{r['per_hand']:+.2f} [{r['per_hand_lo']:+.2f}, {r['per_hand_hi']:+.2f}]", f"{r['hands_per_s']:,.0f}",
    ] for r in ladder["rows"]]


HEADERS = ["strategy", "Bradley-Terry strength [95% CI]", "points per hand vs the field [95% CI]", "hands/s (1 thread)"]


def ladder_title(name: str, ladder: dict) -> str:
    return (f"{name}: {ladder['game']}, {ladder['players']} players, {ladder['deals']:,} duplicate deals "
            f"({ladder['games']:,} games, seed {ladder['seed']}), {ladder['date']}")


def ladders_markdown() -> str:
    """Every ladder as a markdown table, for docs/strategies.md."""
    parts = []
    for name, ladder in load_ladders().items():
        rows = ladder_rows(ladder)
        lines = [f"**{ladder_title(name, ladder)}**", "", "| " + " | ".join(HEADERS) + " |",
                 "| --- | ---: | ---: | ---: |", *("| " + " | ".join(cells) + " |" for cells in rows)]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def updated_doc(text: str) -> str:
    """``text`` with the ladder section between the markers rewritten."""
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n{ladders_markdown()}\n{END}{tail}"


def main() -> int:
    DOC.write_text(updated_doc(DOC.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote the ladders into {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
