"""A simple Python strategy for 500 Rum (docs/env.md, "Python strategies"): it takes the top
discard when two of its cards could meld with it, lays down as much as it can, and throws away
its least connected card, highest first.

    rummysim compare py:examples/python_strategy.py:Tidy random --players 2 --games 200
"""

import rummysim

STOCK = -1  # the draw option that takes the stock's top card
JOKER = 64


def partners(hand, card: int) -> int:
    """How many cards in ``hand`` (copies by card id) could meld with ``card``: the same rank in
    another suit, or the same suit within two ranks; a joker goes with anything."""
    if card == JOKER:
        return 99
    suit, rank = divmod(card, 16)
    same_rank = sum(int(hand[16 * s + rank]) for s in range(4) if s != suit)
    near = sum(int(hand[16 * suit + r]) for r in (rank - 2, rank - 1, rank + 1, rank + 2) if 1 <= r <= 13)
    return same_rank + near + int(hand[JOKER])


class Tidy(rummysim.Strategy):
    def __init__(self, keep: int = 2) -> None:
        self.keep = keep  # partners a top discard needs before it is taken

    def draw(self, view, moves) -> int:
        options = [int(o) for o in moves.options]
        top = len(view.pile) - 1
        if top in options and partners(view.hand, int(view.pile[top])) >= self.keep:
            return options.index(top)
        return options.index(STOCK) if STOCK in options else 0

    def play(self, view, moves) -> int:
        # the option putting down the most cards; STOP (no cards) only when nothing else is left
        return max(range(moves.n), key=lambda i: len(moves.cards(i)))

    def discard(self, view, moves) -> int:
        def worthless(i: int) -> tuple[int, int]:
            card = int(moves.options[i])
            return -partners(view.hand, card), card % 16 if card != JOKER else -1

        return max(range(moves.n), key=worthless)
