"""Tests of the 5000 Rummy rendering of ``rummysim replay`` (rummysim.replay ``format_trace``).

One real traced game (kernels, random lineup) is checked against its own trace: every hand shows
its wild rank (R5K-WILD-1), every seat its face-up card and hand size (R5K-DEAL-1), wild cards and
only they carry ``*``, and whoever went out has a bonus in its score line (R5K-OUT-2).  Hand-made
traces (``tests/tracebuild_5k.B5``, docs/trace-format.md "5000 Rummy") pin the exact lines for
trades, joins, groups, wild-card groups, additions, Polish, exchanges, the first-turn no-draw,
floats, the hand-end reasons and ties.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from rummysim.checks import replay_game, traced_game
from rummysim.replay import format_trace
from rummysim.simulation import prepare
from rummysim.validate import validate_trace
from tests.tracebuild_5k import GAME, B5, value

RANKS = "A23456789TJQK"
SEED, INDEX = 1, 0  # a game with trades and a join
CARD_RE = re.compile(r"([A2-9TJQK])([♣♦♥♠])(\*?)")


def hand_sections(text: str) -> list[str]:
    """The text of each hand, from its header to the next one."""
    return re.split(r"\n(?=━━ Hand )", text)[1:]


def no_unreadable_lines(text: str) -> None:
    """No raw record (``?? record``) and no unknown part (a meld label ``run ?``, a card ``?70``)."""
    bad = [line for line in text.splitlines() if "?" in line]
    assert bad == [], "\n".join(bad[:5])


# ---- a real game ----

@pytest.fixture(scope="module")
def real_game() -> tuple[str, np.ndarray]:
    text = replay_game(SEED, INDEX, game="5000-rummy", players=2, lineup="random")
    trace, _, _ = traced_game(prepare("5000-rummy", 2, "random", (), None), SEED, INDEX)
    return text, trace


def test_real_game_has_no_undecoded_records(real_game):
    text, trace = real_game
    no_unreadable_lines(text)
    assert text.startswith("Game 0 · 5000 Rummy · 2 players")
    assert "deal 0" not in text and "run " not in text and "set of" not in text
    assert "trade   " in text and "join    " in text  # this game has both


def test_R5K_WILD_1_each_hand_shows_the_traces_wild_rank(real_game):
    text, trace = real_game
    wilds = [RANKS[r[6] - 1] for r in trace if r[0] == 2]
    shown = re.findall(r"━━ Hand \d+ · .* · wild rank (\w) \(marked \*\)", text)
    assert shown == wilds and len(wilds) > 1


def test_R5K_DEAL_1_each_seat_shows_face_up_card_and_hand_size(real_game):
    text, trace = real_game
    face_ups = [(r[1], r[3]) for r in trace if r[0] == 96]
    shown = re.findall(r"^  seat (\d) face-up \S+ → (\d+) cards: (.*)$", text, re.M)
    assert [(int(s), int(n)) for s, n, _ in shown] == face_ups
    assert all(len(cards.split()) == int(n) for _, n, cards in shown)


def test_R5K_WILD_1_star_marks_exactly_the_wild_cards(real_game):
    text, _ = real_game
    for section in hand_sections(text):
        wild = re.search(r"wild rank (\w)", section).group(1)
        # a wild card's designation "(5♠)" names the card it stands for: not a card itself
        cards = CARD_RE.findall(re.sub(r"\*\([^)]*\)", "*", section))
        assert cards
        assert all((rank == wild) == (star == "*") for rank, _, star in cards), wild


def test_R5K_OUT_2_the_seat_that_went_out_shows_its_bonus(real_game):
    text, _ = real_game
    outs = 0
    for section in hand_sections(text):
        out = re.search(r"Hand end after \d+ turns: seat (\d) went out", section)
        if out:
            outs += 1
            line = re.search(rf"^    seat {out.group(1)}  table .*$", section, re.M).group(0)
            assert re.search(r"bonus  \+(200|300|500)", line), line
    assert outs > 0
    assert re.search(r"Game over after \d+ hands: seat \d wins", text)


# ---- hand-made traces ----

def play_melds() -> B5:
    """Wild 2, dealer seat 0.  seat 1 melds 3S 4S 2C=W(5S) and 7S 8S 9S, then trades 5S for the 2C,
    joins the sequences with 6S and melds the wild-card group 2C 2H 2D; seat 0 melds the group
    9D 9H 2S=W(9), to which seat 1 adds 9C.  The hand ends on the turn cap."""
    b = B5(2, dealer=0)
    b.deal("2", {1: "AC 3S 4S 2C 7S 8S 9S 2H 2D 5S 6S 9C", 0: "9D 9H 2S"}, upcard="KS",
           stock="KC KD KH QC QD")
    b.draw(1).meld(1, "seq", "3S 4S 2C@5").meld(1, "seq", "7S 8S 9S").discard(1, "KC")
    b.draw(0).discard(0, "KD")
    b.draw(1).trade(1, 0, "5S", "2C", 5).join(1, 0, 1, "6S").meld(1, "wild", "2C 2H 2D")
    b.discard(1, "KH")
    b.draw(0).meld(0, "group", "9D 9H 2S", key=9).discard(0, "QC")
    b.draw(1).layoff(1, 3, "9C").discard(1, "QD")
    return b.end(4).game_end(-1, capped=1)


def test_hand_made_melds_trace_is_legal():
    """The exact lines below are those of a legal trace (the independent checker agrees)."""
    flags = {**GAME, "max_hands_per_game": 1, "max_turns_per_hand": 5}
    assert validate_trace(play_melds().array(), flags).violations == []


def test_R5K_WILD_1_R5K_DEAL_1_hand_header_and_deal():
    lines = format_trace(play_melds().array()).splitlines()
    no_unreadable_lines("\n".join(lines))
    assert "━━ Hand 1 · dealer seat 0 · pack 104 · wild rank 2 (marked *) · seat 1 plays first ━━" in lines
    assert "  seat 1 face-up A♣ → 12 cards: A♣ 9♣ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 2♣* 2♦* 2♥*" in lines
    assert any(line.startswith("  seat 0 face-up 9♦ → 10 cards: ") for line in lines)
    assert "  upcard K♠ · stock 81" in lines


def test_R5K_SEQ_R5K_GROUP_R5K_WILD_3_meld_lines():
    lines = format_trace(play_melds().array()).splitlines()
    assert "    meld    #0 sequence ♠ 3–5: 3♠ 4♠ 2♣*(5♠)" in lines
    assert "    meld    #1 sequence ♠ 7–9: 7♠ 8♠ 9♠" in lines
    assert "    meld    #2 wild-card group: 2♣* 2♥* 2♦*" in lines
    assert "    meld    #3 group of 9s: 9♦ 9♥ 2♠*" in lines
    assert "    add to  #3 (seat 0's group of 9s, now 4 cards): 9♣" in lines


def test_R5K_TRADE_1_trade_line():
    lines = format_trace(play_melds().array()).splitlines()
    assert "    trade   5♠ for 2♣*(5♠) on #0 (seat 1's sequence ♠ 3–5), 2♣* to the hand" in lines


def test_R5K_SEQ_5_join_line():
    lines = format_trace(play_melds().array()).splitlines()
    assert ("    join    #0 (seat 1's sequence ♠ 3–5) and #1 (seat 1's sequence ♠ 7–9) with 6♠: "
            "now #0 sequence ♠ 3–9, 7 cards") in lines


def test_R5K_SEQ_6_join_of_adjacent_sequences_without_cards():
    b = B5(2, dealer=0)
    b.deal("J", {1: "6C 5S 6S 7S 8S 9S TS"}, stock="2C 2D")
    b.draw(1).meld(1, "seq", "5S 6S 7S").meld(1, "seq", "8S 9S TS").join(1, 0, 1)
    b.discard(1, "2C")
    lines = format_trace(b.end(4).game_end(-1, capped=1).array()).splitlines()
    assert ("    join    #0 (seat 1's sequence ♠ 5–7) and #1 (seat 1's sequence ♠ 8–T) (adjacent): "
            "now #0 sequence ♠ 5–T, 6 cards") in lines
    assert lines.index("    discard 2♣") > lines.index("    meld    #1 sequence ♠ 8–T: 8♠ 9♠ T♠")


def test_plain_text_marks_wild_cards_too():
    text = format_trace(play_melds().array(), plain=True)
    assert "    meld    #0 sequence S 3–5: 3S 4S 2C*(5S)" in text
    assert "    trade   5S for 2C*(5S) on #0 (seat 1's sequence S 3–5), 2C* to the hand" in text


def test_V5K_8_V5K_11_polish_take_all_and_upcard_exchange():
    b = B5(3, dealer=0, flags={"r5k_polish": True, "r5k_first_turn": "exchange_upcard"})
    b.deal("K", {2: "5C 5H"}, upcard="9S", stock="3C 3D 3H")
    b.turn(1)
    b.exchange(2, "5H")
    b.draw(1, start=False).discard(1, "3C")
    b.take_all(2).discard(2, "3C")
    b.end(4).game_end(-1, capped=1)
    lines = format_trace(b.array()).splitlines()
    no_unreadable_lines("\n".join(lines))
    assert "    seat 2 exchanges 5♥ for the upcard 9♠ (V5K-11)" in lines
    i = lines.index("    take    the whole pile (Polish, V5K-8), 2 card(s): 5♥ 3♣")
    assert lines[i + 1:i + 3] == ["    discard 3♣", "    pile    3♣"]  # the pile was emptied


def test_R5K_OUT_3_first_turn_without_draw_and_500_bonus():
    b = B5(2, dealer=1)
    b.deal("J", {0: "3C 4C 5C 6C"})
    b.nodraw(0, reason=2).meld(0, "seq", "3C 4C 5C 6C")
    b.end(1, out=0).game_end(-1, capped=1)
    lines = format_trace(b.array()).splitlines()
    assert "    no draw (first turn: melds every card to go out, R5K-OUT-3)" in lines
    assert "  Hand end after 1 turns: seat 0 went out" in lines
    assert any(re.match(r"    seat 0  table   20  hand    0  bonus  \+500  score  \+520", line)
               for line in lines)


def test_V5K_10_extra_card_first_turn_only_discards():
    b = B5(2, dealer=0, flags={"r5k_first_turn": "extra_card"})
    b.deal("K", {1: "3C 4C 5C 6C 7C"})
    b.nodraw(1, reason=3).discard(1, "7C")
    lines = format_trace(b.end(4).game_end(-1, capped=1).array()).splitlines()
    assert "  seat 1 face-up 3♣ → 5 cards: 3♣ 4♣ 5♣ 6♣ 7♣" in lines
    assert any(line.startswith("  no upcard (the first player's discard starts the pile")
               for line in lines)
    assert "    no draw (the first player's opening turn only discards, V5K-10)" in lines


def test_V5K_5_float_line():
    b = B5(2, dealer=0, flags={"r5k_going_out": "meld_all"})
    b.deal("K", {1: "3H 3S 4S 5S"}, stock="6S")
    b.draw(1).meld(1, "seq", "3S 4S 5S 6S").discard(1, "3H").float_(1)
    lines = format_trace(b.end(4).game_end(-1, capped=1).array()).splitlines()
    assert "    seat 1 floats (0 cards, the hand goes on)" in lines


@pytest.mark.parametrize("reason, words", [
    (2, "stock out (NO_DRAW, R5K-STOCK-1 b)"),
    (3, "2 turns in a row put no card on the table after the stock ran out (R5K-STOCK-1 c)"),
    (4, "turn cap (engine limit)"),
    (6, "stall: 6 top-card takes in a row that stayed in hand (R5K-DRAW-5)"),
])
def test_R5K_STOCK_1_R5K_DRAW_5_hand_end_reasons(reason, words):
    b = B5(2, dealer=0)
    b.deal("K", {})
    if reason == 2:
        b.nodraw(1, reason=0)
    lines = format_trace(b.end(reason).game_end(-1, capped=1).array()).splitlines()
    assert f"  Hand end after {1 if reason == 2 else 0} turns: {words}" in lines
    if reason == 2:
        assert "    no draw (stock empty, does not take from the pile)" in lines


def test_R5K_GAME_2_tie_at_game_end():
    b = B5(3, dealer=0)
    b.deal("K", {})
    b.end(4, tv={0: 5000, 1: 3000, 2: 5000}, hv={0: 0, 1: 0, 2: 0})
    lines = format_trace(b.game_end(-1, mask=0b101).array()).splitlines()
    assert "Game over after 1 hands: tie between seat 0 and seat 2 (R5K-GAME-2)" in lines
    assert "  final totals: seat 0 5000, seat 1 3000, seat 2 5000" in lines


def test_V5K_7_michigan_bonus_in_the_score_line():
    b = B5(2, dealer=1, flags={"r5k_michigan": True})
    b.deal("J", {0: "3C 4C 5C 6C", 1: "2D KD"})
    b.draw_discard(0).draw_discard(1)
    b.draw(0).meld(0, "seq", "3C 4C 5C 6C").discard(0, b.last)
    b.end(1, out=0).game_end(-1, capped=1)
    lines = format_trace(b.array()).splitlines()
    p0 = next(line for line in lines if line.startswith("    seat 0  table"))
    p1 = next(line for line in lines if line.startswith("    seat 1  table"))
    bonus = 200 + sum(value(c, b.wild) for c in b.hands[1])  # going out + seat 1's hand (V5K-7)
    assert f"bonus  +{bonus}" in p0
    assert "bonus" not in p1 and "hand    0" in p1
