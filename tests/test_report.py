"""The HTML report and PNG charts, on real simulated runs."""

from __future__ import annotations

import json
import re
import sys

import polars as pl
import pytest
from PIL import Image

from rummysim.analysis.report import build_report, write_report
from rummysim.cli.main import main
from rummysim.errors import RummysimError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ONE_RUN_CHARTS = ["position_win_rates", "balance", "game_length", "hand_endings", "score_distribution", "seat_win_rates",
                  "strategy_matrix"]
TABLES = ["run", "summary", "balance", "seats", "strategies"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    from rummysim.simulation import simulate

    tmp = tmp_path_factory.mktemp("runs")
    simulate("500-rum", players=3, lineup="greedy,random,greedy", games=300, seed=1, out=tmp / "r.parquet", hands=True)
    simulate("500-rum", players=2, lineup="greedy,random", games=150, seed=2, rule=["r500_target=250"],
             out=tmp / "two.parquet", hands=True)
    return tmp


def check_png(path, width: int, height: int) -> None:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    img = Image.open(path)
    assert img.size == (width, height)
    rgb = img.convert("RGB")
    colors = rgb.getcolors(maxcolors=1 << 20)
    assert colors is not None and len(colors) > 20, f"{path.name} has almost no colours"
    background = max(colors)[1]
    ink = sum(count for count, colour in colors if colour != background)
    assert ink > 0.02 * width * height, f"{path.name} is nearly blank"


def test_report_html_and_pngs(runs, tmp_path):
    src = runs / "r.parquet"
    rep = build_report(src)
    assert [c.name for c in rep.charts] == ONE_RUN_CHARTS
    assert [t.name for t in rep.tables] == TABLES
    out = tmp_path / "report.html"
    result = write_report(src, out, png_dir=tmp_path / "png")
    assert result.charts == ONE_RUN_CHARTS and result.tables == TABLES
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    for name in ONE_RUN_CHARTS:  # every chart inline as SVG
        figure = re.search(rf'<figure id="chart-{name}" data-chart="{name}"><svg.*?</svg>', page, re.S)
        assert figure is not None, name
        assert "<text" in figure.group(0) or "<path" in figure.group(0)
    for name in TABLES:
        table = re.search(rf'<table id="table-{name}".*?</table>', page, re.S)
        assert table is not None and table.group(0).count("<tr>") >= 2, name
    assert "P1 edge (pp)" in page and "greedy" in page and "Balance index" in page
    assert "first seat advantage" not in page and "% rel" not in page  # one unit for the edge
    assert "<script" not in page and "<link" not in page and 'src="http' not in page  # self-contained
    assert [p.name for p in result.pngs] == [f"{n}.png" for n in ONE_RUN_CHARTS]
    for chart, png in zip(rep.charts, result.pngs):
        check_png(png, chart.width, chart.height)


def test_report_of_a_folder_with_two_variations(runs, tmp_path, capsys):
    out = tmp_path / "both.html"
    with pytest.raises(SystemExit) as exc:
        main(["report", str(runs), "--out", str(out), "--png", str(tmp_path / "png"), "--title", "Two runs"])
    assert exc.value.code == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}" in printed and "8 charts" in printed
    page = out.read_text()
    assert "<h1>Two runs</h1>" in page
    # two groups (the metadata that differs: players, lineup, and the variation) in charts and tables
    assert page.count("players=2") >= 2 and page.count("players=3") >= 2
    assert "500-rum +r500_target=250; lineup=greedy,random; players=2" in page
    rep = build_report(runs)
    assert len(rep.charts) == 8 and "balance_vs_length" in [c.name for c in rep.charts]
    for chart in rep.charts:
        check_png(tmp_path / "png" / f"{chart.name}.png", chart.width, chart.height)
    assert len(rep.tables[0].rows) == 2  # one summary row per variation
    seats_chart = next(c for c in rep.charts if c.name == "seat_win_rates")
    groups = {row["group"] for row in seats_chart.spec["data"]["values"]}
    assert len(groups) == 2


def test_report_without_altair_says_how_to_install(runs, tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "altair", None)  # import altair -> ImportError
    with pytest.raises(RummysimError, match=r"pip install 'rummysim\[report\]'"):
        write_report(runs / "r.parquet", tmp_path / "x.html")
    with pytest.raises(SystemExit) as exc:
        main(["report", str(runs / "r.parquet"), "--out", str(tmp_path / "x.html")])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "rummysim[report]" in err and err.count("\n") == 1
    assert not (tmp_path / "x.html").exists()


def test_report_errors_name_the_input(tmp_path, capsys):
    pl.DataFrame({"a": [1]}).write_parquet(tmp_path / "foreign.parquet")
    with pytest.raises(SystemExit) as exc:
        main(["report", str(tmp_path / "foreign.parquet"), "--out", str(tmp_path / "r.html")])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "foreign.parquet is not a rummysim result file" in err


def _walk(node):
    """Every dict inside a Vega-Lite spec."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _values(spec: dict) -> list[dict]:
    rows = []
    for node in _walk(spec):
        for key in ("values",):
            if isinstance(node.get(key), list) and node[key] and isinstance(node[key][0], dict):
                rows += node[key]
    for data in spec.get("datasets", {}).values():
        rows += data
    return list({json.dumps(r, sort_keys=True): r for r in rows}.values())  # each row once


def test_report_opens_with_what_was_played(runs, tmp_path):
    out = tmp_path / "r.html"
    write_report(runs, out)
    page = out.read_text()
    run = page[page.index('<section id="run">'):page.index('<section id="charts">')]
    assert "What was played" in run and "greedy at every seat" not in run  # lineups differ per seat here
    assert "500-rum +r500_target=250" in run and "rummysim rules show 500-rum -r r500_target=250" in run
    assert "greedy,random,greedy" in run and ">300<" in run and ">150<" in run  # lineups and games
    assert page.index('<section id="run">') < page.index('<section id="charts">')


def test_charts_zoom_to_the_data_with_the_reference_inside_and_list_every_group(runs):
    rep = build_report(runs / "r.parquet")  # 3 players: fair share 1/3
    pos = next(c for c in rep.charts if c.name == "position_win_rates")
    shares = [r["win_share"] for r in _values(pos.spec) if "win_share" in r]
    assert sorted({r["position"] for r in _values(pos.spec) if "position" in r}) == ["P1", "P2", "P3"]
    domains = [n["scale"]["domain"] for n in _walk(pos.spec) if isinstance(n.get("scale"), dict) and "domain" in n["scale"]
               and n.get("field") == "win_lo"]
    lo, hi = domains[0]
    assert 0 < lo <= min(shares) and max(shares) <= hi and lo < 1 / 3 < hi  # zoomed, fair line inside
    assert any(r.get("text", "").startswith("fair share 1/N = 33%") for r in _values(pos.spec))
    for chart in rep.charts:  # every quantitative axis: a fixed format, and overlapping labels dropped
        for node in _walk(chart.spec):
            if node.get("type") == "quantitative" and isinstance(node.get("axis"), dict):
                assert "format" in node["axis"] or "labelExpr" in node["axis"], (chart.name, node)
        assert chart.spec["config"]["axis"]["labelOverlap"] == "greedy"
    length = next(c for c in rep.charts if c.name == "game_length")
    assert any(n.get("mark", {}) == {"type": "bar", "size": n["mark"].get("size"), "color": "#4c78a8"}
               for n in _walk(length.spec) if isinstance(n.get("mark"), dict))  # bars, not a line
    both = build_report(runs)
    scatter = next(c for c in both.charts if c.name == "balance_vs_length")
    legend = next(n["legend"] for n in _walk(scatter.spec) if isinstance(n.get("legend"), dict) and "values" in n["legend"])
    assert len(legend["values"]) == 2 and scatter.spec["config"]["legend"]["labelLimit"] == 0  # every group, uncut


@pytest.fixture(scope="module")
def duels(tmp_path_factory):
    from rummysim.comparison import compare, tournament

    tmp = tmp_path_factory.mktemp("duels")
    c = compare("greedy", "random", players=2, games=40, seed=3, out=tmp / "c.parquet")
    t = tournament(["greedy", "random", "cautious"], players=2, games=16, seed=4, out=tmp / "t.parquet")
    return tmp, c, t


def test_report_of_a_compare_file_shows_the_difference_and_its_interval(duels, tmp_path):
    tmp, c, _ = duels
    rep = build_report(tmp / "c.parquet")
    assert rep.charts[0].name == "score_difference" and "pairings" in [t.name for t in rep.tables]
    [row] = [r for r in _values(rep.charts[0].spec) if "diff_per_hand" in r]
    per_hand = c.summary["per_hand"]
    assert row["diff_per_hand"] == pytest.approx(per_hand["diff"])
    assert (row["diff_per_hand_lo"], row["diff_per_hand_hi"]) == pytest.approx(tuple(per_hand["ci"]))
    result = write_report(tmp / "c.parquet", tmp_path / "c.html", png_dir=tmp_path / "png")
    assert "score_difference.png" in [p.name for p in result.pngs]
    check_png(tmp_path / "png" / "score_difference.png", rep.charts[0].width, rep.charts[0].height)
    assert "compare: greedy vs random" in (tmp_path / "c.html").read_text()


def test_report_of_a_tournament_shows_the_ladder(duels):
    tmp, _, t = duels
    rep = build_report(tmp / "t.parquet")
    assert [c.name for c in rep.charts][:2] == ["score_difference", "ladder"]
    ladder = [r for r in _values(rep.charts[1].spec) if "diff_per_hand" in r]
    assert [r["row"] for r in ladder] == [f"{r['rank']}. {r['strategy']}" for r in t.ranking.to_dicts()]
    assert [r["diff_per_hand"] for r in ladder] == pytest.approx(t.ranking["diff_per_hand"].to_list())
    pairs = {r["row"]: r["diff_per_hand"] for r in _values(rep.charts[0].spec) if "diff_per_hand" in r}
    for m in t.matrix.to_dicts():
        if f"{m['strategy']} − {m['opponent']}" in pairs:
            assert pairs[f"{m['strategy']} − {m['opponent']}"] == pytest.approx(m["diff_per_hand"])
    assert len(pairs) == 3 and "ladder" in [t.name for t in rep.tables]
