"""Human-readable replay of a 500 Rum, Standard Rummy or 5000 Rummy trace (docs/trace-format.md).

``format_trace(trace) -> str`` decodes a trace turn by turn: each hand's deal (every seat's hand,
the upcard, or the first player's START_PILE with V500-UPCHOICE), each turn (who, the draw, melds
and lay-offs with the meld id and cards, jokers with their designation such as ``🃏(7♥)``, the
discard, the pile after the turn), rummy calls, out-of-turn melds, floating, reshuffles, lay-offs
after someone went out (V500-ADDOPP), Dealer's gambit (the dealer's joker, the nomination, doubled
melds, split takes, blocks and the cards out of play), the scores at each hand end (with bonuses, or Standard Rummy's
deadwood and collection; in partnership games the team scores and Persian rummy's game bonus) and
the game end (a team's win or a draw in partnership games).  5000 Rummy adds its wild cards, face-up cards, joins,
trades and the rest of its records (``rum5000.py``); Rummikub has a decoder of its own
(``rummikub.py``: racks and the whole table turn by turn).

It is pure decoding: it does not check rules (see ``rummysim.validate``, whose common modules give
it the record kinds and card names) and it never raises on a malformed trace; records it cannot
decode are shown raw.  ``common.py`` holds the shared rendering, ``rum500.py``, ``gambit.py`` and
``rum5000.py`` each game's records and wording.

At each hand's scores, every seat's line is followed by the table cards credited to it (the cards
its ``table_value`` counts), except in Standard Rummy, whose table cards score nothing.  The pile
after each turn shows its top 10 cards, or all of them with ``full_pile``.

Command line: ``python -m rummysim.replay trace.npy [--plain] [--full-pile]`` (``--plain`` writes
``4H``/``X`` instead of glyphs).
"""

from __future__ import annotations

import sys

import numpy as np

from rummysim.replay.common import Decoder, GameText
from rummysim.replay.gambit import GambitRecords
from rummysim.replay.rum500 import Rum500Records, Rum500Text, StandardRummyText
from rummysim.replay.rum5000 import Rum5000Records, Rum5000Text
from rummysim.replay.rummikub import format_trace as format_rummikub
from rummysim.validate.trace import (
    GAME_CODE_500,
    GAME_CODE_5000,
    GAME_CODE_RUMMIKUB,
    GAME_CODE_STANDARD,
    GAME_START,
)

__all__ = ["format_trace"]

#: GAME_START game code -> that game's wording (another code reads as 500 Rum)
GAME_TEXTS: dict[int, GameText] = {
    GAME_CODE_500: Rum500Text(),
    GAME_CODE_STANDARD: StandardRummyText(),
    GAME_CODE_5000: Rum5000Text(),
}


class TraceDecoder(GambitRecords, Rum500Records, Rum5000Records, Decoder):
    """Decodes the records of every game; the wording follows each GAME_START's game code."""


def format_trace(trace: np.ndarray, plain: bool = False, full_pile: bool = False) -> str:
    """Return the game(s) in ``trace`` as readable text, turn by turn (``full_pile``: the whole
    discard pile after each turn, not only its top cards; Rummikub has no pile)."""
    try:
        rows: list[list[int]] = np.asarray(trace).reshape(-1, 8).tolist()
    except Exception as exc:  # never raise
        return f"(cannot read trace: {exc})\n"
    if rows and rows[0][0] == GAME_START and rows[0][5] == GAME_CODE_RUMMIKUB:
        return format_rummikub(rows, plain)
    return TraceDecoder(rows, plain, GAME_TEXTS, full_pile).run()


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    options = {"--plain", "--full-pile"}
    paths = [a for a in args if a not in options]
    if len(paths) != 1:
        print("usage: python -m rummysim.replay trace.npy [--plain] [--full-pile]", file=sys.stderr)
        return 2
    sys.stdout.write(format_trace(np.load(paths[0]), plain="--plain" in args,
                                  full_pile="--full-pile" in args))
    return 0
