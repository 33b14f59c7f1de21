"""Independent rules checker for 500 Rum and Standard Rummy traces.

This package replays a kernel trace (``docs/trace-format.md``) record by record and checks it
against the normative rules in ``RULES.md`` (§1 common concepts, §2 500 Rum base rules, §3 the
V500 variations listed below, §7 Standard Rummy, §8 reference tables and §9 chosen defaults).  It
was written from those two documents alone, as a second opinion on the kernels; it shares no code
with them.

Public API
----------
``validate_trace(trace, flags=None) -> ValidationResult``
    ``trace`` is an integer array of shape ``(n, 8)`` holding one whole game (GAME_START ..
    GAME_END).  Several games concatenated back to back are accepted as well.  ``flags`` maps the
    RULES.md §8.6 flag names (plus ``game``, ``max_turns_per_hand`` and ``max_hands_per_game``) to
    values written as in RULES.md -- typically ``rummysim.rules.Rules.as_dict()``.  Missing flags
    take the RULES.md defaults; a preset (``r500_no_pickup_to_hit``, ``r500_boathouse``) or an
    implying flag (``r500_unplayable_discard``, ``r500_score_divisor=5``) fills in the flags it
    implies only when they are absent (``as_dict()`` already holds the expanded values).

    A malformed or illegal trace never raises: every problem becomes a :class:`Violation`.  After a
    violation that makes further replay meaningless (a card that is not where the trace says it
    is, a broken record structure, ...) the replay of that game stops.

    A flag value the checker does not implement raises :class:`ValueError` naming the flag, so an
    unchecked configuration is never silently accepted.

Implemented games and flags
---------------------------
5000 Rummy has a checker of its own, :mod:`rummysim.validate.rum5000`; both build on the common
modules of :mod:`rummysim.validate` (trace reading and record kinds, cards, flag tables), and
``rummysim.validate.validate_trace`` picks the checker from ``flags["game"]``.
``game``: ``500-rum`` (GAME_START column 5 = 0) and ``standard-rummy`` (column 5 = 1, flags
``std_going_out``, ``std_game_hands``, ``std_end_of_stock``; every ``r500_`` flag must then hold its
default).  500 Rum: every §8.6 ``r500_`` flag and value; every ``r5k_`` and ``rkub_`` flag must
hold its default.  V500-PERSIAN implies V500-PARTNER; under Persian the value flags
(V500-PERSIAN-6), ``r500_must_go_out_to_win`` and ``r500_tie_rule`` must hold their defaults, and
``r500_target`` and ``r500_jokers_per_deck`` are ignored (R500-SETUP-3: Persian's pack replaces
them; two deals, no target).

Window asks (docs/trace-format.md "Window asks", when GAME_START column 7 declares them,
:mod:`~rummysim.validate.rum500.asks`): every rummy window asks the seats but the discarder (and
its partner) clockwise from the discarder's left until the first call, and the call turn is that
caller's on the index it named (V500-RUMMY-1); every out-of-turn window offers the seats but the
discarder in the same order, each seat's melds after its own ask (V500-OUTOFTURN).

Partnerships (docs/trace-format.md "Partnerships"): team of seat s = s mod 2; ``team_only``
lay-offs only on melds created by the seat or its partner (also a rummy call's, and the
V500-UNPLAYABLE test), never ADDOPP lay-offs; no rummy call on a partner's discard (reported as
``V500-PARTNER``); V500-ADDOPP per team; SCORE ``total_after`` the team total and the TEAM_SCORE
records (V500-PARTNER-2); the game end per team (V500-PARTNER-3, R500-END-2, V500-TIE,
V500-MUSTOUT), GAME_END naming the team.  Persian rummy: the 56-card pack (V500-PERSIAN-1), joker
sets (V500-PERSIAN-2), doubled sets of four (V500-PERSIAN-3), +25 for going out (V500-PERSIAN-4),
exactly two deals with GAME_BONUS and draws (V500-PERSIAN-5), face values (V500-PERSIAN-6).

Dealer's gambit (docs/trace-format.md "Dealer's gambit", module ``gambit``): 2-4 players, one deck
(``r500_num_decks=2`` and Persian rummy are refused, ``r500_jokers_per_deck`` is ignored); the
pack of 52 cards and ``r500_gambit_jokers - 1`` jokers, DEALERS_JOKER beside the dealer and the
dealer's NOMINATE before any decision (V500-GAMBIT-1/3); the deal passing right, play clockwise
(V500-GAMBIT-2); jokers wild only under ``wild`` and worth 0 everywhere (V500-GAMBIT-3/4/9); DOUBLE
right after its MELD, the meld's own cards credited twice and the meld sealed against every
lay-off, rummy-call claim and V500-UNPLAYABLE test (V500-GAMBIT-5); SPLIT as a normal turn's draw,
cards k+1..s-1 and the joker out of play, the take's duty even for one card (V500-GAMBIT-6); the
dealer's joker used only by the dealer on its own turns, once, never after a BLOCK
(V500-GAMBIT-7); BLOCK in the play phase of a non-dealer's own turn, duty met, hand not emptied
(V500-GAMBIT-8); card conservation with the cards out of play and the dealer's joker once used.
Rule IDs: the RULES.md ones, plus ``V500-GAMBIT`` for the players and for a gambit record in
another game.

Rule IDs used in violations are RULES.md IDs, plus:

* ``C-CARD-CONSERVATION`` -- a card is not where the trace moves it from (card conservation);
* ``TRACE-FORMAT`` -- the trace breaks ``docs/trace-format.md`` (record kinds, field values,
  record order, counts of CARD records, TURN_START/HAND_END bookkeeping fields);
* ``ENGINE-TURN-CAP`` / ``ENGINE-HAND-CAP`` -- misuse of the engine's safety caps.

In a Standard Rummy game the 500 Rum rule IDs of the shared machinery are reported as their §7
counterparts (``RSTD-DRAW-1``, ``RSTD-MELD-1/2``, ``RSTD-OUT-1``, ``RSTD-SCORE-1``, ...).

Readings where RULES.md and the trace spec are silent (see the report for docs/rules-decisions.md):

* a DISCARD "ends the hand" (no rummy / out-of-turn window) when going out, the idle guard, the
  turn cap or ``end_immediately`` ends the hand after it; a turn ending in FLOAT without a DISCARD,
  and START_PILE, open no window;
* a rummy call closes the out-of-turn window of the discard it followed; only the caller's own
  discard opens new windows (rules-decisions E12; so no window after a ``layoff_only`` call);
* eligibility of a ``pile`` claim: card k laid off on one table meld (alone, or with pile cards
  above it filling the gap, as one lay-off) or a new meld of card k and pile cards above it
  (V500-RUN4, V500-CORNER, jokers wild); V500-NEWMELD binds draws only, not calls (E13); rummy
  calls are allowed under ``discard_until_out`` (E14);
* out-of-turn melds and calls reset the idle count (E16); a turn that reshuffles is not idle;
* V500-UNPLAYABLE: "could be laid off" is the single card added to one table meld, ignoring
  V500-OPEN30 (E18); V500-OPEN30 compares the points put down, divisor applied, with
  ``r500_first_meld_min`` divided the same way (30 raw points = 6 under V500-DIV5: E17) and
  values an ace by its run as it stands after that group; V500-CORNER credits an ace by its run
  at hand end;
* four aces: four natural aces in one set, all credited to one seat, score 25 each (E19);
* partnerships: the eligibility of a rummy call (V500-RUMMY-2/5/6) uses the caller's own lay-off
  rights under ``team_only``; under V500-OPEN30 a Persian set of four laid at once counts its
  doubled value (the more lenient reading);
* V500-ADDOPP: ``hand_value`` is 0 for every seat whether or not someone went out; the 2-player
  stock-out bonus uses the hand values even with ``r500_stock_out_hand_penalty=false``; a
  turn-cap end under ``continue_discarding`` is scored like ``by_player_count``;
* Dealer's gambit: a joker in a meld or lay-off under ``double`` / ``split``, a DOUBLE or SPLIT
  under another nomination and a take of a joker with a duty under ``double`` / ``split`` break
  V500-GAMBIT-3 (the take is reported at the TAKE_PILE); under those effects a joker is never
  "playable" (rummy-call eligibility, V500-UNPLAYABLE), and a sealed meld never is a target;
  a SPLIT with ``s = k + 1`` (nothing removed) is legal (RULES.md: ``k < s``); a BLOCK by the
  dealer or after the dealer's joker was used still puts the blocker's joker out of play;
* 500 Rum ``hand_score = table_value - hand_value + bonus``; Standard Rummy ``hand_value`` is the
  deadwood even when nobody went out; the Standard Rummy GAME_START target column is not checked;
  Standard Rummy's top-card discard restriction is reported as R500-DISC-2.

Performance: the replay runs on plain Python lists and ints (the array is converted once with
``.tolist()``), with no copying of state per record.

Modules: ``config`` (flags), ``table`` (table melds and playability tests), ``phases`` (what may
come next), ``replayer`` (the replayer and the deal) with its mixins ``draws``, ``plays``, ``turns``,
``scoring``, ``gambit`` and ``asks`` (window asks).
"""


from __future__ import annotations

from typing import Mapping

import numpy as np

from rummysim.validate.rum500.config import GAME_NAMES, parse_flags
from rummysim.validate.rum500.replayer import Rum500Replayer
from rummysim.validate.trace import ValidationResult, result_of, trace_rows

__all__ = ["GAME_NAMES", "validate_trace"]


def validate_trace(
    trace: np.ndarray, flags: Mapping[str, object] | None = None
) -> ValidationResult:
    """Replay a 500 Rum or Standard Rummy ``trace`` and check it against RULES.md under ``flags``.

    Raises ``ValueError`` only for flag values the checker does not implement (``game`` included:
    ``500-rum`` or ``standard-rummy``); every problem with the trace itself is reported as a
    :class:`~rummysim.validate.Violation`.
    """
    cfg = parse_flags(flags)
    rows, error = trace_rows(trace)
    if error is not None:
        return error
    return result_of(Rum500Replayer(rows, cfg))
