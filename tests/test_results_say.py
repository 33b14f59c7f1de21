"""Results say what happened (issue 22 point 6): a drawn game is flagged the same way in every game
(``winner`` -1, ``capped`` false, ``tied_seats`` the mask of the tied seats), and ``replay`` shows
the whole discard pile when asked and each seat's credited table cards at scoring."""

from __future__ import annotations

import re

import numpy as np

from rummysim import Rules, simulate
from rummysim.checks import replay_game, traced_game, validate_run
from rummysim.replay import format_trace
from rummysim.simulation import prepare

STANDARD = dict(rules=Rules.preset("standard-rummy"), players=4, lineup="greedy,random,greedy,random")


def _scores(games):
    return games.select([c for c in games.columns if c.startswith("score_")]).to_numpy()


def _top_masks(scores: np.ndarray) -> np.ndarray:
    top = scores.max(axis=1, keepdims=True)
    bits = (scores == top) * (1 << np.arange(scores.shape[1]))
    return bits.sum(axis=1)


def test_standard_rummy_ties_are_draws_with_the_tied_seats():
    games = simulate(games=200, seed=0, threads=1, **STANDARD).games
    masks = _top_masks(_scores(games))
    shared = np.array([bin(int(m)).count("1") > 1 for m in masks])
    assert shared.any(), "no tied game in the sample: pick another seed"
    winner = games["winner"].to_numpy()
    tied = games["tied_seats"].to_numpy()
    assert not games["capped"].any()
    assert (winner[shared] == -1).all() and (tied[shared] == masks[shared]).all()
    assert (winner[~shared] >= 0).all() and (tied[~shared] == 0).all()


def test_a_standard_rummy_draw_passes_the_validator_and_replays_as_a_tie():
    games = simulate(games=200, seed=0, threads=1, **STANDARD).games
    drawn = games.filter(games["tied_seats"] != 0)["game_index"].to_list()
    report = validate_run(game="standard-rummy", players=4, lineup=STANDARD["lineup"],
                          games=drawn[0] + 1, seed=0)
    assert report.violations == []
    text = replay_game(0, drawn[0], game="standard-rummy", players=4, lineup=STANDARD["lineup"])
    mask = int(games["tied_seats"][drawn[0]])
    seats = " and ".join(f"seat {s}" for s in range(4) if mask >> s & 1)
    assert f"tie between {seats} (RSTD-GAME-1)" in text


def _piles(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip().startswith("pile ")]


def test_replay_full_pile_shows_every_card():
    kwargs = dict(players=2, lineup="random", rule=["r500_target=1000"])
    short = replay_game(3, 0, **kwargs)
    full = replay_game(3, 0, full_pile=True, **kwargs)
    cut = [p for p in _piles(short) if "more)" in p]
    assert cut, "no pile over 10 cards in this game: pick another seed"
    assert not any("more)" in p for p in _piles(full))
    assert max(len(p.split()) for p in _piles(full)) > 12  # "pile" and 11+ cards


def test_replay_lists_the_credited_cards_that_make_each_table_value():
    # Every card is worth 5 (all5, aces 5 everywhere, no jokers), so a seat's table value is five
    # times the number of cards credited to it.
    rule = ["r500_card_values=all5", "r500_ace_value=5", "r500_ace_low_value=same",
            "r500_jokers_per_deck=0"]
    cfg = prepare("500-rum", 3, "greedy", rule)
    lines = format_trace(traced_game(cfg, 2, 0)[0], plain=True).splitlines()
    checked = 0
    for i, line in enumerate(lines):
        m = re.match(r"\s+seat (\d)\s+table\s+(\d+)", line)
        if not m:
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        cards = nxt.split()[1:] if nxt.strip().startswith("credited") else []
        assert int(m.group(2)) == 5 * len(cards), (line, nxt)
        checked += bool(cards)
    assert checked >= 3


def test_standard_rummy_replay_shows_no_credited_cards():
    text = replay_game(0, 0, game="standard-rummy", players=4, lineup="greedy")
    assert "credited" not in text and "deadwood" in text
