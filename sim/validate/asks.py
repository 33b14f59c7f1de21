"""The seats a call or out-of-turn window asks, as every game's checker reads them.

docs/trace-format.md "Window asks": when GAME_START column 7 has bit 0 set, every rummy-call
window (500 Rum's RUMMY_ASK, 5000 Rummy's CALL_ASK) and every out-of-turn window (OOT_ASK) lists
the seats it reaches, in the order they are asked, each with its answer.  :class:`AskWindow` holds
one window: the seats RULES.md's priority order asks (built by each game's checker), how far the
trace has got through them and who called.  A window that breaks the order is reported once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: GAME_START column 7, bit 0: the trace records window asks
ASKS_RECORDED = 1 << 8  # GAME_START column 7, bit 8: every seat a window asks is recorded
GAME_FEATURE_MASK = 0xFF  # column 7's low byte: the game's own feature (gambit flag, stakes mode)

#: a call window ask's answer (column 2)
ASK_CANNOT = 0  # no legal claim: the seat was not asked to choose
ASK_PASS = 1
ASK_CALL = 2
ASK_ANSWERS = (ASK_CANNOT, ASK_PASS, ASK_CALL)


@dataclass
class AskWindow:
    """One window: ``order`` is the seats RULES.md asks, in priority order."""

    order: list[int]
    pos: int = 0  # asks read so far
    broken: bool = False  # the order was already reported
    caller: int = -1  # the seat that called (ends a call window)
    claim: int = -1  # the pile index it claimed
    asked: list[int] = field(default_factory=list)

    def ask(self, seat: int) -> str | None:
        """Take the next ask; a message if it breaks the order (only the first time)."""
        self.asked.append(seat)
        expected = self.order[self.pos] if self.pos < len(self.order) else None
        self.pos += 1
        if self.broken or (seat == expected and self.caller < 0):
            return None
        self.broken = True
        if self.caller >= 0:
            return f"seat {seat} asked after seat {self.caller} called (the first caller wins)"
        if expected is None:
            return f"seat {seat} asked after every seat of the window {self.order} was"
        return (f"seat {seat} asked where the priority order {self.order} asks seat {expected} "
                f"(asked so far: {self.asked})")

    @property
    def missing(self) -> list[int]:
        """Seats the window has not asked yet."""
        return self.order[self.pos:]

    def unfinished(self) -> str | None:
        """When the window closes without a call: a message if seats were left out."""
        if self.broken or self.caller >= 0 or not self.missing:
            return None
        self.broken = True
        return f"the window closed before seats {self.missing} were asked (order {self.order})"
