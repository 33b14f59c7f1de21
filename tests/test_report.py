"""The HTML report and PNG charts, on real simulated runs."""

from __future__ import annotations

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
