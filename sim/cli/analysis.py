"""CLI commands for analysing result files: ``analyze`` and ``report``.

Parsing and printing only: the statistics are computed by ``rummysim.analysis.tables`` and the
charts by ``rummysim.analysis.report``. User errors are raised as the typed errors of
``rummysim.errors`` and turned into ``error: ...`` and exit code 2 by ``rummysim.cli.main``.
``analyze_command`` and ``report_command`` are plain functions tests may call directly.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich import box
from rich.console import Console
from rich.table import Table

from rummysim.analysis import fmt
from rummysim.cli.console import out_console
from rummysim.cli.options import out_option
from rummysim.errors import InputError
from rummysim.output import OutputTarget, output_target, write_parquet_atomic, write_text_atomic

FORMATS = ("table", "csv", "json", "parquet")

PathArg = Annotated[str, typer.Argument(help="Result file, folder (searched recursively, hive partitions) or glob.")]
ByOpt = Annotated[
    Optional[str],
    typer.Option("--by", help="Group by these columns, comma-separated: row columns, hive keys or run metadata "
                              "(game, players, lineup, seed, any rule flag). Default: what differs between files; "
                              "'' for one group."),
]

BalanceOpt = Annotated[
    bool, typer.Option("--balance", help="Rank the groups by fairness to the seats (balance index) and game length.")
]
PayoffOpt = Annotated[
    Optional[str],
    typer.Option("--payoff", help="Settle stakes per seat: difference (R500-END-3, R5K-GAME-3), game-point "
                                  "(V5K-1, V5K-2) or stakes (the stake units or chips of a Doubling or "
                                  "Limit-Poker run, V5K-13/14)."),
]
StrategiesOpt = Annotated[bool, typer.Option("--strategies", help="Win rates per strategy (from the lineups).")]
MatrixOpt = Annotated[bool, typer.Option("--matrix", help="Strategy against strategy win rates (from the lineups).")]
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="table, csv, json or parquet.")]
OutOpt = Annotated[Optional[Path], out_option("Write csv/json/parquet to this file, not stdout.")]


def _label(row: dict, by: list[str]) -> str:
    from rummysim.analysis.tables import group_label

    return group_label(row, by)


def _print_summary(console: Console, summary, by: list[str]) -> None:
    from rummysim.analysis.tables import COUNTERS

    for row in summary.to_dicts():
        games_unit = row.get("unit", "games") == "games" and row.get("games") is not None
        count = f"{row['games']:,} games" if games_unit else f"{row['hands']:,} independent hands"
        members = [row.get(f"members_{s}") or str(s) for s in range(row["seats"])]
        teams = any("+" in m for m in members)  # partnership play: a side is a team of seats
        sides = sum(row.get(f"win_rate_{s}") is not None for s in range(row["seats"]))
        size = f"{sides} teams of {row['seats']} seats" if teams else f"{row['seats']} seats"
        console.rule(f"{_label(row, by)}: {count}, {size}", style="bold")
        win = "win rate" if games_unit else "went out"
        table = Table(show_edge=False, pad_edge=False)
        for col in ("team" if teams else "seat", "strategy", win, "95% CI", "vs 1/N", "mean final score" if games_unit else "mean hand score", "95% CI"):
            table.add_column(col, justify="left" if col == "strategy" else "right")
        for s in range(row["seats"]):
            if row.get(f"win_rate_{s}") is None:
                continue
            table.add_row(
                members[s], row.get(f"strategy_{s}") or "-", fmt.pct(row[f"win_rate_{s}"]),
                fmt.ci(row[f"win_lo_{s}"], row[f"win_hi_{s}"], 100), fmt.pp(row[f"win_dev_{s}"]),
                fmt.num(row[f"mean_score_{s}"]), fmt.ci(row[f"mean_score_lo_{s}"], row[f"mean_score_hi_{s}"]),
            )
        console.print(table)
        who = "left of the first dealer" if games_unit else "left of the dealer"
        first = "first team (its seat left of the first dealer)" if teams and games_unit else \
            "first team (its seat left of the dealer)" if teams else f"first seat ({who})"
        console.print(
            f"P1, the {first}: wins {fmt.pct(row['first_seat_win_rate'])} "
            f"{fmt.ci(row['first_seat_win_lo'], row['first_seat_win_hi'], 100)}, P1 edge {fmt.pp(row['first_seat_adv'])} over 1/N "
            f"{fmt.ci(row['first_seat_adv_lo'], row['first_seat_adv_hi'], 100, sign=True)}"
        )
        qs = "  ".join(f"p{q} {fmt.num(row[f'score_p{q}'], 0)}" for q in (10, 25, 50, 75, 90))
        what = "final scores" if games_unit else "hand scores"
        line = f"{what}: mean {fmt.num(row['score_mean'])}  {qs}"
        if games_unit:
            line += f"  winner mean {fmt.num(row['winner_score_mean'])}"
        console.print(line)
        if games_unit:
            console.print(
                f"hands/game: mean {fmt.num(row['hands_per_game_mean'], 2)}  p50 {fmt.num(row['hands_per_game_p50'], 0)}  "
                f"p90 {fmt.num(row['hands_per_game_p90'], 0)}   capped games {row['capped_games']}"
            )
        console.print(
            f"turns/hand: mean {fmt.num(row['turns_per_hand_mean'], 2)}  p50 {fmt.num(row['turns_per_hand_p50'], 0)}  "
            f"p90 {fmt.num(row['turns_per_hand_p90'], 0)}"
        )
        console.print(
            f"hand ends: went out {fmt.pct(row['ends_out'])}  stock out {fmt.pct(row['ends_stock_out'])}  "
            f"stall {fmt.pct(row['ends_stall'])}   capped hands {row['capped_hands'] if row['capped_hands'] is not None else 'n/a'}"
        )
        names = {"calls": "rummy calls", "floats": "floats", "deep_takes": "deep takes"}
        console.print("per hand: " + "  ".join(f"{names[c]} {fmt.num(row[f'{c}_per_hand'], 3)}" for c in COUNTERS))
        if row.get("turns_per_hand_p50") is None and games_unit:
            console.print("(hand-level statistics need the hand rows: simulate --hands)", style="dim")


def _print_variation(console: Console, ds, by: list[str]) -> None:
    """Name the one variation of the data when the groups do not (e.g. a compare file's seatings)."""
    from rummysim.analysis.load import VARIATION

    names = {f.meta.get(VARIATION) for f in ds.files}
    if VARIATION in by or len(names) != 1 or None in names:
        return
    console.print(f"variation: {names.pop()} (every file)", highlight=False, markup=False)


def _print_balance(console: Console, frame, by: list[str]) -> None:
    """Two narrow tables (fairness; P1 edge and game length), each under 80 columns with the labels
    of :mod:`rummysim.variations`: the numbers are never cut, a long label wraps at its spaces."""
    rows = frame.to_dicts()
    players = {r["players"] for r in rows}
    mixed = len(players) > 1 and "players" not in by
    who = "" if mixed or not rows else f", {'mixed' if None in players else rows[0]['players']} players"
    width = min(28, max([len(_label(r, by)) for r in rows] + [9]))
    fair = _narrow_table(f"Balance{who}: ranked by fairness to the positions of play", width,
                         ["#", "variation", *(["players"] if mixed else []), "games", "balance index", "95% CI",
                          "fair?", "worst"])
    length = _narrow_table("P1 edge (first to play) and game length", width,
                           ["#", "variation", "P1 edge", "95% CI", "hands/game", "95% CI", "capped"])
    for row in rows:
        ok = row["consistent_with_fair"]
        worst = "n/a" if row["worst_position"] is None else f"{row['worst_position']} {fmt.pp(row['worst_edge'])}"
        count = row["games"] if row["unit"] == "games" else row["hands"]
        label = _label(row, by)
        fair.add_row(
            str(row["rank"]), label, *([str(row["players"]) if row["players"] is not None else "mixed"] if mixed else []),
            f"{count:,}" + ("" if row["unit"] == "games" else " hands"),
            fmt.num(row["balance_index"], 3), fmt.ci(row["balance_lo"], row["balance_hi"], digits=3),
            "n/a" if ok is None else ("yes" if ok else "no"), worst,
        )
        length.add_row(
            str(row["rank"]), label, fmt.pp(row["first_edge"]), fmt.ci(row["first_edge_lo"], row["first_edge_hi"], 100, sign=True),
            fmt.num(row["hands_per_game_mean"], 2), fmt.ci(row["hands_per_game_lo"], row["hands_per_game_hi"], digits=2),
            fmt.pct(row["capped_share"]),
        )
    console.print(fair)
    console.print(length)
    console.print(BALANCE_LEGEND, style="dim")
    if by and by[0] == "variation":
        console.print(RULES_HINT, style="dim")


BALANCE_LEGEND = (
    "balance index = max over positions k of |N*q_k - 1|, q_k = share of decided games won by the k-th to play "
    "(P1 = left of the first dealer, PN = the first dealer); 95% CI from Bonferroni-adjusted Wilson intervals; "
    "'fair? yes' = the interval reaches 0. An edge is a position's win share minus 1/N in percentage points (pp)."
)
RULES_HINT = ("a variation is its preset and the flags that differ from it; its full rules: "
              "rummysim rules show PRESET -r FLAG=VALUE ... (e.g. rummysim rules show 500-rum -r r500_target=1000)")


def _narrow_table(title: str, label_width: int, columns: list[str]) -> Table:
    """A table whose numbers never wrap or shrink: long headers wrap, then the labels (at least
    ``label_width`` wide) fold."""
    table = Table(title=title, box=box.SIMPLE_HEAD, collapse_padding=True, pad_edge=False, title_justify="left")
    for col in columns:
        label = col == "variation"
        table.add_column(col, justify="left" if label or col in ("worst", "fair?") else "right",
                         no_wrap=col not in ("variation", "balance index", "hands/game"),
                         overflow="fold" if label else "ellipsis", min_width=label_width if label else None)
    return table


def _print_payoffs(console: Console, frame, by: list[str], mode: str) -> None:
    unit = {"game-point": "game points", "stakes": "stake units or chips"}.get(mode, "points")
    table = Table(title=f"Payoffs ({mode}): mean {unit} per game")
    for col in ("group", "seat", "strategy", "games", "settled", "mean", "95% CI", "total"):
        table.add_column(col, justify="left" if col in ("group", "strategy") else "right")
    digits = 3 if mode in ("game-point", "stakes") else 1
    for row in frame.to_dicts():
        table.add_row(
            _label(row, by), row["members"] or "-", row["strategy"] or "-", f"{row['games']:,}", f"{row['settled']:,}",
            fmt.num(row["mean_payoff"], digits), fmt.ci(row["payoff_lo"], row["payoff_hi"], digits=digits),
            fmt.num(row["total_payoff"], digits),
        )
    console.print(table)


def _print_strategies(console: Console, frame, by: list[str]) -> None:
    table = Table(title="Strategies (every seat a strategy played, pooled)")
    for col in ("group", "strategy", "seat-games", "win rate", "95% CI", "fair share", "edge", "mean score"):
        table.add_column(col, justify="left" if col in ("group", "strategy") else "right")
    for row in frame.to_dicts():
        table.add_row(
            _label(row, by), row["strategy"], f"{row['seat_games']:,}", fmt.pct(row["win_rate"]),
            fmt.ci(row["win_lo"], row["win_hi"], 100), fmt.pct(row["fair"]), fmt.pp(row["edge"]), fmt.num(row["mean_score"]),
        )
    console.print(table)


def _print_matrix(console: Console, frame, by: list[str]) -> None:
    table = Table(title="Strategy matrix: win rate of the row strategy with the column strategy at another seat")
    for col in ("group", "strategy", "opponent", "seat pairs", "win rate", "95% CI"):
        table.add_column(col, justify="left" if col in ("group", "strategy", "opponent") else "right")
    for row in frame.to_dicts():
        table.add_row(
            _label(row, by), row["strategy"], row["opponent"], f"{row['pairs']:,}", fmt.pct(row["win_rate"]),
            fmt.ci(row["win_lo"], row["win_hi"], 100),
        )
    console.print(table)


def _write(frame, output_format: str, target: Optional[OutputTarget], console: Console) -> None:
    """The table as parquet, csv or json: into ``target`` (checked up front) or onto the console."""
    from rummysim.analysis.tables import to_json

    if output_format == "parquet":
        write_parquet_atomic(frame, target, {})
        return
    text = frame.write_csv() if output_format == "csv" else to_json(frame) + "\n"
    if target is None:
        console.out(text, end="", highlight=False)
    else:
        write_text_atomic(text, target)


def analyze_command(
    path: PathArg,
    by: ByOpt = None,
    balance: BalanceOpt = False,
    payoff: PayoffOpt = None,
    strategies: StrategiesOpt = False,
    matrix: MatrixOpt = False,
    output_format: FormatOpt = "table",
    out: OutOpt = None,
) -> None:
    """Statistics of result files per group: seat win rates, first-seat advantage, scores, lengths, hand ends."""
    from rummysim.analysis import tables
    from rummysim.analysis.load import open_source

    if output_format not in FORMATS:
        raise InputError(f"--format must be one of {', '.join(FORMATS)}, got {output_format!r}")
    if payoff is not None and payoff not in tables.PAYOFF_MODES:
        raise InputError(f"--payoff must be one of {', '.join(tables.PAYOFF_MODES)}, got {payoff!r}")
    views = [name for name, on in (("--balance", balance), ("--payoff", payoff is not None),
                                    ("--strategies", strategies), ("--matrix", matrix)) if on]
    if len(views) > 1:
        raise InputError(f"choose one of {', '.join(views)}")
    if output_format == "parquet" and out is None:
        raise InputError("--format parquet needs --out FILE")
    if output_format == "table" and out is not None:
        raise InputError("--out needs --format csv, json or parquet")
    target = output_target(out) if out is not None else None

    ds = open_source(path)
    by_cols = tables.resolve_by(ds, by)
    if balance:
        frame = tables.balance(ds, by_cols)
        printer = lambda: _print_balance(out_console, frame, by_cols)  # noqa: E731
    elif payoff is not None:
        frame = tables.payoffs(ds, payoff, by_cols)
        printer = lambda: _print_payoffs(out_console, frame, by_cols, payoff)  # noqa: E731
    elif strategies:
        frame = tables.strategies(ds, by_cols)
        printer = lambda: _print_strategies(out_console, frame, by_cols)  # noqa: E731
    elif matrix:
        frame = tables.strategy_matrix(ds, by_cols)
        printer = lambda: _print_matrix(out_console, frame, by_cols)  # noqa: E731
    else:
        frame = tables.summarize(ds, by_cols)
        printer = lambda: _print_summary(out_console, frame, by_cols)  # noqa: E731
    if output_format == "table":
        _print_variation(out_console, ds, by_cols)
        printer()
    else:
        _write(frame, output_format, target, out_console)
        if target is not None and not target.stdout:
            out_console.print(f"wrote {out}", highlight=False)


def report_command(
    path: PathArg,
    out: Annotated[Path, out_option("HTML file to write.")] = Path("report.html"),
    by: ByOpt = None,
    png: Annotated[Optional[Path], typer.Option("--png", help="Also write every chart as a PNG file into this folder.")] = None,
    title: Annotated[Optional[str], typer.Option("--title", help="Report title (default: the path).")] = None,
) -> None:
    """Write a self-contained HTML report with charts and tables (needs the [report] extra)."""
    from rummysim.analysis.report import write_report

    result = write_report(path, out, by=by, png_dir=png, title=title)
    out_console.print(f"wrote {result.html} ({len(result.charts)} charts, {len(result.tables)} tables)", highlight=False)
    for p in result.pngs:
        out_console.print(f"wrote {p}", highlight=False)


def register(app: typer.Typer) -> None:
    """Attach ``analyze`` and ``report`` to the app."""
    app.command("analyze")(analyze_command)
    app.command("report")(report_command)
