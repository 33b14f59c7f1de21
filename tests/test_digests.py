"""Behaviour pinned bit for bit: digests of game and hand rows for fixed seeds (issue 14, point 9).

Recorded before the per-game restructuring; refactors and speedups must leave every digest
unchanged. A change that alters results on purpose updates the digest here and says why in its
commit. Later issues may add columns; the digests cover the columns listed in ``GAME_COLUMNS`` and
``HAND_COLUMNS`` (plus the per-seat scores), so new columns leave them unchanged.

Run ``python -m tests.test_digests`` to print the current digests.
"""

from __future__ import annotations

import hashlib

import polars as pl
import pytest

from rummysim.simulation import simulate

GAME_COLUMNS = ["game_index", "first_dealer", "winner", "hands", "turns", "capped", "capped_hands", "tied_seats"]
HAND_COLUMNS = ["game_index", "hand", "dealer", "reason", "out_seat", "turns", "calls", "floats", "deep_takes"]

# (preset, players, lineup, games, unit)
CASES = [
    ("500-rum", 2, "greedy", 300, "games"),
    ("500-rum", 2, "random", 300, "games"),
    ("500-rum", 2, "greedy,random", 300, "games"),
    ("500-rum", 4, "greedy", 200, "games"),
    ("500-rum", 4, "random", 200, "games"),
    ("500-rum", 4, "greedy,random,greedy,random", 200, "games"),
    ("500-rum", 8, "greedy", 100, "games"),
    ("500-rum", 8, "random", 100, "games"),
    ("500-rum", 8, "greedy,random,random,greedy,greedy,random,greedy,random", 100, "games"),
    ("500-rum", 3, "greedy,random,greedy", 2000, "hands"),
    ("500-rum-calling", 4, "greedy,random,greedy,random", 200, "games"),
    ("boathouse", 4, "greedy,random,greedy,random", 200, "games"),
    ("standard-rummy", 4, "greedy,random,greedy,random", 200, "games"),
    ("500-rum", 4, "heuristic,cautious,digger,greedy", 30, "games"),
    ("500-rum", 2, "rollout,greedy", 2, "games"),
    ("5000-rummy", 2, "greedy", 40, "games"),
    ("5000-rummy", 3, "greedy,random,greedy", 30, "games"),
    ("5000-rummy", 3, "heuristic,cautious,greedy", 10, "games"),
    ("rummikub", 4, "greedy", 40, "games"),
    ("rummikub", 3, "greedy,random,value", 30, "games"),
    ("rummikub", 2, "holder,greedy", 200, "hands"),
    ("dealers-gambit", 3, "greedy", 200, "games"),
    ("dealers-gambit", 2, "random", 200, "games"),
    ("dealers-gambit", 4, "greedy,random,greedy,random", 100, "games"),
    ("dealers-gambit", 3, "random,greedy,random", 2000, "hands"),
    ("dealers-gambit", 3, "heuristic,digger,greedy", 20, "games"),
    ("persian-rummy", 4, "greedy", 100, "games"),
    ("persian-rummy", 4, "greedy,random,greedy,random", 100, "games"),
    ("persian-rummy", 4, "heuristic,digger,greedy,cautious", 10, "games"),
    ("partnership-500", 4, "greedy,random,greedy,random", 100, "games"),
]

DIGESTS = {
    '500-rum-2p-greedy-games': ('0789b0c309e00092e0719cede2da5356', '93fd2657cea415707a6a0de147bf46b3'),
    '500-rum-2p-random-games': ('577c93f837ca5b62ce9f386dae364716', '6875f9a9755f7b165a942c3fb1cb7852'),
    '500-rum-2p-greedy,random-games': ('81208fda6f992bae6444a7b256e723f1', 'bc85c79f62a52275fe2ca3714065b40c'),
    '500-rum-4p-greedy-games': ('a85747dd87b5c07a4a03d9f90dbbae40', 'fcfaed9abc4dd4f709346ce19ed8d99a'),
    '500-rum-4p-random-games': ('cbcc4194a2308cf0db9ee984633453f5', '414b017f02e3f224ec83430bc9df157b'),
    '500-rum-4p-greedy,random,greedy,random-games': ('90166978b50ab881ca3fe52b562f5ee8', '5739adac05decef70dcae81bdb3e0bed'),
    '500-rum-8p-greedy-games': ('7167f10414bf858b3affdad4e587fad3', '2873c63ac5b258f8546158bc55c4cd62'),
    '500-rum-8p-random-games': ('dd5932b44bb5fa8ec26510cce30860d7', 'a644a6ffc1ebd5208cdf0f473ab3dcb1'),
    '500-rum-8p-greedy,random,random,greedy,greedy,random,greedy,random-games': ('9fe22e028384051126e8cb4b5cb632d9', 'c3de5210e62de7fa0ac609f7f4d9d6e0'),
    '500-rum-3p-greedy,random,greedy-hands': ('-', '601c187c46e42f3ead11f556780aee89'),
    '500-rum-calling-4p-greedy,random,greedy,random-games': ('121cd41d1ebfe23729ec47ec64f80d7a', '7112bf1597eeedfdc0db8512203040d7'),
    'boathouse-4p-greedy,random,greedy,random-games': ('07e53a23c6377c1f837d4b0c5c1c0e29', 'ce7fe4998f402945089c8e5e3babe705'),
    'standard-rummy-4p-greedy,random,greedy,random-games': ('25a01feb55f88fa31ba843329685dfd0', '867dc72ec7c7b68c6ed398bbcb3216b0'),
    '500-rum-4p-heuristic,cautious,digger,greedy-games': ('42e062c0b3146d73fe567544715a510b', '58c1c8982b68010d6e2fd30a7654d64d'),
    '500-rum-2p-rollout,greedy-games': ('730e4e8ed10f2d2fa071d6b88287e3ed', '44208b84fbe538bce711cf91e5fdacc6'),
    '5000-rummy-2p-greedy-games': ('5266b895b3dbbc4cdf4022fd975b2108', '1bba2e8133491289e68d016f32832648'),
    '5000-rummy-3p-greedy,random,greedy-games': ('0a0155114a8dc112b54c04d18fe0cf0a', '869b18915f8bd30c9b03da0f3eadacfe'),
    # re-recorded for issue 18 point 4: the heuristic family prices 5000 takes and the stock draw by 5000's values
    '5000-rummy-3p-heuristic,cautious,greedy-games': ('dda895d1210f4575dda13340b781d8ff', '0e7e8dd749a69205771f82f8e948126b'),
    # re-recorded for issue 17 point 5: the solver's tie rule between equal best plays no longer
    # depends on the order states are made in (smaller parent key, then decision), and a later
    # turn leaves the table rows no rack tile can reach as they were
    'rummikub-4p-greedy-games': ('5e5f9fddccfe4ea05fdc0ae32483e97d', 'fed6163749d60f9783899cce54992afd'),
    'rummikub-3p-greedy,random,value-games': ('e0ab97ac41cb23136cfce368cefd50ed', '8a94814748b4d9b358e24eede7448c7b'),
    'rummikub-2p-holder,greedy-hands': ('-', 'ca19554f49f452fc9ee636e9fb03f891'),
    # Dealer's gambit (issue 16), recorded when it was added
    'dealers-gambit-3p-greedy-games': ('b14ffb91b099478a3be5b6b39501b81f', 'aa3fd09a10573cf467ecbba4ff50e213'),
    'dealers-gambit-2p-random-games': ('7fefe4a986de21364de5be73ab674296', '2ba2b9884b60632b902f38e7907aa71f'),
    'dealers-gambit-4p-greedy,random,greedy,random-games': ('f352b7af98c63f6ea7def4c97d4924ac', '37d195a8a71d9d1e8de2b4841b883ace'),
    'dealers-gambit-3p-random,greedy,random-hands': ('-', '72fb8054e4c147133722f3bbd6ae8b16'),
    'dealers-gambit-3p-heuristic,digger,greedy-games': ('723935b14e1496fcb9ba5feb0f8e9692', 'd9f9fd44665ca2b6daf6f1eee237baaf'),
    # the partnership games, recorded at 6aa2b8c before Persian rummy moved to the full engine (issue 19)
    'persian-rummy-4p-greedy-games': ('cec390a988bd93aed49467f6683cbd5a', '81dee05621898e1fd8d36634532083e4'),
    'persian-rummy-4p-greedy,random,greedy,random-games': ('1bd31aeccce981b5f2c0ee9efe68994e', '00740016b562ef7b7adec2873ed67243'),
    'persian-rummy-4p-heuristic,digger,greedy,cautious-games': ('3f81f258b073a9da334bb28a367db474', 'c31bbd2f1c38f2226d6428115d8745d7'),
    'partnership-500-4p-greedy,random,greedy,random-games': ('6710141d0f8f30fdcb0f869a9cc95543', 'b21dd3ff3021372372404892320b0813'),
}


def frame_digest(frame: pl.DataFrame, columns: list[str]) -> str:
    """SHA-256 over the named columns and every ``score_*`` column, each as int64 little-endian
    (``reason`` as its text), so that the digest is independent of column order and dtype widths."""
    cols = columns + sorted(c for c in frame.columns if c.startswith("score_"))
    h = hashlib.sha256()
    for name in cols:
        col = frame[name]
        h.update(name.encode())
        if col.dtype in (pl.Categorical, pl.String, pl.Enum):
            h.update("\x00".join(col.cast(pl.String).to_list()).encode())
        else:
            h.update(col.cast(pl.Int64).to_numpy().astype("<i8").tobytes())
    return h.hexdigest()[:32]


def case_digests(case: tuple) -> tuple[str, str]:
    preset, players, lineup, games, unit = case
    res = simulate(preset, players=players, lineup=lineup, games=games, seed=2026, hands=True, unit=unit)
    game_digest = "-" if res.games is None else frame_digest(res.games, GAME_COLUMNS)
    return game_digest, frame_digest(res.hands, [c for c in HAND_COLUMNS if c in res.hands.columns])


def case_id(case: tuple) -> str:
    preset, players, lineup, games, unit = case
    return f"{preset}-{players}p-{lineup}-{unit}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rows_are_bit_identical_to_the_recorded_digests(case):
    assert case_digests(case) == DIGESTS[case_id(case)]


if __name__ == "__main__":
    for case in CASES:
        print(f"    {case_id(case)!r}: {case_digests(case)!r},", flush=True)
