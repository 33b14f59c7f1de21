"""``rummysim play``: a person plays seats of a 500 Rum engine game against the bots, in a terminal.

The game is the step API's (``rummysim.env``): the person's seats are its external seats and the
bots play inside the engine. Every answer is recorded, so an undo replays the game from its
deal with the answers but the last (the bots and the deal are deterministic for the seed and game
index): a take-back never shows a card the seat had not seen. What is shown is the seat's own view
(C-INFO-1): its hand, the table, the pile, the other hands' sizes and the scores.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rummysim.kernels.rum500.layout import (
    DRAW_STOCK, G_TOTAL, G_WINNER, MK_CARD, MK_CREATOR, MK_KEY, MK_KIND, MK_LEN, MK_LO, OB_HAND_INDEX, OB_HAND_SIZE, OB_N, OB_STOCK,
    OB_TOTAL, OB_TURN,
)
from rummysim.replay.common import CardText
from rummysim.stepenv.actions import Decision
from rummysim.strategies.rum500.external import K_DRAW, K_PLAY, KIND_NAMES

HELP = "a number plays that move; h = hint, u = undo your last meld, lay-off or pile take this turn, q = quit"


@dataclass(frozen=True)
class PlaySetup:
    """One game to play: the rules and lineup as ``simulate`` takes them, the person's seats."""

    game: str
    players: int
    seats: tuple[int, ...]
    lineup: list[str]  # every seat's strategy: the bots', and each person's hint strategy
    seed: int
    game_index: int
    rules: dict[str, str]
    plain: bool = False  # letters for suits (C D H S) instead of glyphs


@dataclass(frozen=True)
class Answered:
    """One answer given, with what identifies its turn (an undo stays within the turn)."""

    seat: int
    hand: int
    turn: int
    kind: int
    index: int  # the move's index (a replay of the same answers meets the same option lists)
    option: int  # the engine's option value (a draw's: DRAW_STOCK or a pile index)


class PlaySession:
    """The game in progress: its env, the answers so far, and the text shown to the person."""

    def __init__(self, setup: PlaySetup, write: Callable[[str], None]) -> None:
        self.setup = setup
        self.write = write
        self.text = CardText(setup.plain)
        self.answers: list[Answered] = []
        self.env = self._start()
        self._shown_totals = np.zeros(setup.players, dtype=np.int64)
        self._shown_hand = 0
        self._held: dict[int, np.ndarray] = {}  # each person's hand counts when last shown

    def _start(self):
        from rummysim.stepenv import env

        s = self.setup
        game = env(s.game, players=s.players, seed=s.seed, rules=s.rules, lineup=",".join(s.lineup),
                   external=s.seats)
        game.reset(options={"game_index": s.game_index})
        return game

    # ---- state
    @property
    def decision(self) -> Decision | None:
        return self.env.decision

    @property
    def over(self) -> bool:
        return self.env.finished is not None

    def answer(self, index: int) -> None:
        d = self.decision
        obs = d.view.obs
        option = int(d.options[index]) if d.view.kind != K_PLAY else 0
        self.answers.append(Answered(d.view.seat, int(obs[OB_HAND_INDEX]), int(obs[OB_TURN]), d.view.kind, index,
                                     option))
        self.env.step(index)

    def undoable(self) -> bool:
        """May the person's last answer be taken back? Only a meld, lay-off or pile take of the turn
        in progress: a stock draw has shown a card, a discard has ended the turn."""
        d = self.decision
        if not self.answers or d is None:
            return False
        last = self.answers[-1]
        same_turn = (last.seat, last.hand, last.turn) == (d.view.seat, int(d.view.obs[OB_HAND_INDEX]),
                                                          int(d.view.obs[OB_TURN]))
        takes_back = last.kind == K_PLAY or (last.kind == K_DRAW and last.option != DRAW_STOCK and last.option >= 0)
        return same_turn and takes_back

    def undo(self) -> None:
        """Replay the game from its deal with every answer but the last."""
        keep = self.answers[:-1]
        self.env.close()
        self.env = self._start()
        self.answers = []
        for answer in keep:
            self.answer(answer.index)

    # ---- text
    def name(self, seat: int) -> str:
        who = "you" if seat in self.setup.seats else self.setup.lineup[seat]
        return f"P{seat} ({who})"

    def hand_scoring(self) -> str | None:
        """The scores of the hands ended since the last call, or None (from the totals the seat
        sees, and the game row once the game is over)."""
        totals, hand = self._totals_now()
        if hand == self._shown_hand and np.array_equal(totals, self._shown_totals):
            return None
        gains = totals - self._shown_totals
        lines = [f"Hand {self._shown_hand + 1} scored:"] + [
            f"  {self.name(s)}: {int(gains[s]):+d}, total {int(totals[s])}" for s in range(self.setup.players)]
        self._shown_totals, self._shown_hand = totals, hand
        return "\n".join(lines)

    def _totals_now(self) -> tuple[np.ndarray, int]:
        n = self.setup.players
        if self.decision is not None:
            obs = self.decision.view.obs
            return np.array(obs[OB_TOTAL:OB_TOTAL + n], dtype=np.int64), int(obs[OB_HAND_INDEX])
        return np.array(self.env.finished.row[G_TOTAL:G_TOTAL + n], dtype=np.int64), self._shown_hand + 1

    def board(self) -> str:
        d = self.decision
        v, obs, f = d.view, d.view.obs, self.text
        n = int(obs[OB_N])
        hand = [c for c in range(len(v.hand)) for _ in range(int(v.hand[c]))]
        scores = " · ".join(f"{self.name(s)} {int(obs[OB_TOTAL + s])}" for s in range(n))
        sizes = ", ".join(f"{self.name(s)} {int(obs[OB_HAND_SIZE + s])}" for s in range(n) if s != v.seat)
        pile = f.cards([int(c) for c in v.pile])
        lines = [
            f"── hand {int(obs[OB_HAND_INDEX]) + 1}, turn {int(obs[OB_TURN]) + 1}: {self.name(v.seat)} to "
            f"{KIND_NAMES[v.kind]} ──",
            f"Scores: {scores}",
            f"Stock: {int(obs[OB_STOCK])} cards · pile (top last): {pile}",
            "Table:" if len(v.melds) else "Table: —",
            *(f"  {i}. {self.meld_text(m)}" for i, m in enumerate(v.melds)),
            f"Cards held: {sizes}",
            f"Your hand ({len(hand)}): {f.cards(hand, sort=True)}",
            *self._new_cards(v.seat, v.hand),
            "Moves:",
            *(f"  {i:>3}  {name}" for i, name in enumerate(d.names())),
        ]
        return "\n".join(lines)

    def _new_cards(self, seat: int, held: np.ndarray) -> list[str]:
        """A line naming the cards that came into the hand since it was last shown (a draw, a take)."""
        before = self._held.get(seat)
        self._held[seat] = held.copy()
        if before is None or len(before) != len(held):
            return []
        new = [c for c in range(len(held)) for _ in range(max(0, int(held[c] - before[c])))]
        return [f"New in your hand: {self.text.cards(new, sort=True)}"] if new else []

    def meld_text(self, m: np.ndarray) -> str:
        kind, key, lo, n = int(m[MK_KIND]), int(m[MK_KEY]), int(m[MK_LO]), int(m[MK_LEN])
        cards = [self.text.placed(int(m[MK_CARD + i]), kind, key, lo + i) for i in range(n)]
        hi = lo + n - 1
        return f"{self.text.meld_label(kind, key, lo, hi)}: {' '.join(cards)} (laid by P{int(m[MK_CREATOR])})"

    def hint(self) -> str:
        d = self.decision
        return f"hint ({self.setup.lineup[d.view.seat]}): {d.hint}  {d.names()[d.hint]}"

    def result(self) -> str:
        row = self.env.finished.row
        totals = ", ".join(f"{self.name(s)} {int(row[G_TOTAL + s])}" for s in range(self.setup.players))
        winner = int(row[G_WINNER])
        return f"Game over. Final scores: {totals}. Winner: {self.name(winner) if winner >= 0 else 'none'}."

    def save_replay(self, path: Path) -> None:
        from rummysim.replay import format_trace

        path.write_text(format_trace(self.env.finished.trace, plain=self.setup.plain) + "\n", encoding="utf-8")


def run(session: PlaySession, read: Callable[[str], str], replay_path: Path) -> int:
    """The prompt loop: show the board, read a move or a command, until the game ends or the
    person quits. Returns the exit status (0 finished, 1 quit)."""
    write = session.write
    while not session.over:
        scored = session.hand_scoring()
        if scored:
            write(scored)
        write(session.board())
        choice = read("move> ").strip().lower()
        if choice in ("q", "quit"):
            write("Quit: the game was not finished; no replay saved.")
            return 1
        if choice in ("h", "hint"):
            write(session.hint())
            continue
        if choice in ("u", "undo"):
            if session.undoable():
                session.undo()
                write("Undone.")
            else:
                write("Nothing to undo: only a meld, lay-off or pile take of this turn can be taken back.")
            continue
        if choice in ("?", "help", ""):
            write(HELP)
            continue
        if not choice.isdigit() or not 0 <= int(choice) < session.decision.n:
            write(f"'{choice}' is not a move: give a number from 0 to {session.decision.n - 1} ({HELP})")
            continue
        session.answer(int(choice))
    scored = session.hand_scoring()
    if scored:
        write(scored)
    write(session.result())
    session.save_replay(replay_path)
    write(f"Replay saved to {replay_path}")
    return 0
