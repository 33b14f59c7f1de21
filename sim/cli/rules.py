"""CLI command groups ``rules`` (presets, rule flags and the rules reference) and ``strategies``
(strategies and their parameters).

Printing only: ``rummysim.rules``, ``rummysim.reference`` and ``rummysim.strategies.registry``
hold the data. Each
subcommand is a plain function (``rules_list_command`` ...) that tests may call directly;
``register`` attaches the two groups to the app. Every subcommand takes ``--json`` for the same
data as JSON (flag values typed as in ``Rules.as_dict()``).
"""

from __future__ import annotations

import json
from typing import Annotated, Optional

import typer
from rich.table import Table

from rummysim.cli.console import out_console
from rummysim.cli.options import JsonOpt, RuleOpt


def _print_json(data: object) -> None:
    out_console.print_json(json.dumps(data))


def _params_json(params) -> list[dict[str, object]]:
    return [{"name": p.name, "default": p.default, "doc": p.doc} for p in params]


def rules_list_command(as_json: JsonOpt = False) -> None:
    """List the presets with a description and their source."""
    from rummysim.rules import list_presets

    if as_json:
        _print_json(list_presets())
        return
    table = Table()
    for col in ("preset", "game", "description", "source"):
        table.add_column(col)
    for row in list_presets():
        table.add_row(row["name"], row["game"], row["description"], row["source"])
    out_console.print(table)


def rules_show_command(
    name: Annotated[str, typer.Argument(help="Preset name.")] = "500-rum",
    rule: RuleOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Show every flag of a preset (with overrides): value, default, rule IDs, kernel support of the
    value, whether every value of the flag is implemented, and the allowed values (a numeric flag
    takes any integer of its range; the sources' values are its presets)."""
    from rummysim.rules import Rules, describe, format_value

    rules = Rules.preset(name)
    if rule:
        rules = rules.with_strings(rule)
    if as_json:
        _print_json({"preset": name, "game": rules.game, "overrides": list(rule or ()),
                     "flags": describe(rules)})
        return
    table = Table(title=f"{name} ({rules.game})",
                  caption="`rummysim rules explain ID_OR_FLAG` explains any rule ID or flag")
    for col in ("flag", "value", "default", "rule IDs", "supported", "implemented"):
        table.add_column(col, no_wrap=True)
    table.add_column("allowed")
    table.add_column("meaning")
    for row in describe(rules):
        missing = row["not_implemented"]
        implemented = "yes" if row["implemented"] else "not " + ", ".join(format_value(v) for v in missing)
        table.add_row(
            row["flag"], format_value(row["value"]), format_value(row["default"]), ", ".join(row["rule_ids"]),
            "yes" if row["supported"] else "not yet", implemented, row["allowed"], row["doc"],
        )
    out_console.print(table)


def rules_explain_command(
    key: Annotated[str, typer.Argument(metavar="ID_OR_FLAG",
                                       help="A rule ID (R500-MELD-1, V5K-3a, AMB-22, T-10) or a flag (r500_target); any case.")],
    as_json: JsonOpt = False,
) -> None:
    """Explain one rule ID or flag from the shipped rules reference: what it says, its game, flags,
    source and the project decisions on it; for a flag its allowed values, default, what each
    value does and whether the kernels play every value."""
    from rummysim.reference import load_reference, lookup
    from rummysim.reference.render import entry_json, entry_text

    reference = load_reference()
    entry = lookup(key, reference)
    if as_json:
        _print_json(entry_json(entry))
        return
    out_console.print(entry_text(entry, reference), markup=False, highlight=False, soft_wrap=True)


def rules_reference_command(
    markdown: Annotated[bool, typer.Option("--markdown", help="The whole reference as Markdown "
                                           "(as docs/rules-reference.md).")] = False,
    as_json: JsonOpt = False,
) -> None:
    """List every rule ID and flag of the rules reference with its title (``rules explain`` shows
    one entry), or print the whole reference as Markdown or JSON."""
    from rummysim.reference import load_reference
    from rummysim.reference.render import reference_json, reference_markdown

    reference = load_reference()
    if as_json:
        _print_json(reference_json(reference))
        return
    if markdown:
        typer.echo(reference_markdown(reference), nl=False)
        return
    table = Table()
    for col in ("ID or flag", "game", "title"):
        table.add_column(col, no_wrap=col != "title")
    for rule in reference.rules.values():
        table.add_row(rule.id, rule.game, rule.title)
    for flag in reference.flags.values():
        table.add_row(flag.name, flag.game, flag.summary)
    out_console.print(table)


def strategies_list_command(
    as_json: JsonOpt = False,
    ladder: Annotated[Optional[str], typer.Option(
        "--ladder", help="Show the strength ladder of a game instead (500-rum, 5000-rummy): strength and cost "
                         "of every bot, from a tournament on duplicate deals.")] = None,
) -> None:
    """List the strategies, then the betting policies of the stakes games (``--betting``), with
    their parameters and defaults; or, with ``--ladder``, how strong each bot is and what it costs."""
    from rummysim.strategies.betting import POLICIES
    from rummysim.strategies.registry import STRATEGIES

    if ladder is not None:
        _print_ladders(ladder, as_json)
        return

    if as_json:
        _print_json({
            "strategies": [{"name": s.name, "doc": s.doc, "params": _params_json(s.params)}
                           for s in STRATEGIES.values()],
            "betting": [{"name": b.name, "doc": b.doc, "params": _params_json(b.params)}
                        for b in POLICIES.values()],
        })
        return
    table = Table()
    for col in ("strategy", "what it does", "parameters"):
        table.add_column(col)
    for s in STRATEGIES.values():
        params = "; ".join(f"{p.name}={p.default:g} ({p.doc})" for p in s.params) or "-"
        table.add_row(s.name, s.doc, params)
    out_console.print(table)
    policies = Table(title="betting policies (--betting, with r5k_doubling or r5k_limit_poker)")
    for col in ("policy", "what it does", "parameters"):
        policies.add_column(col)
    for b in POLICIES.values():
        params = "; ".join(f"{p.name}={p.default:g} ({p.doc})" for p in b.params) or "-"
        policies.add_row(b.name, b.doc, params)
    out_console.print(policies)


def _print_ladders(game: str, as_json: bool) -> None:
    from rummysim.ladder import HEADERS, ladder_rows, ladder_title, ladders_of

    ladders = ladders_of(game)
    if as_json:
        _print_json(ladders)
        return
    for name, ladder in ladders.items():
        table = Table(title=ladder_title(name, ladder))
        for col in HEADERS:
            table.add_column(col, justify="left" if col == "strategy" else "right")
        for cells in ladder_rows(ladder):
            table.add_row(*cells)
        out_console.print(table)


def strategies_show_command(name: Annotated[str, typer.Argument(help="Strategy name.")],
                            as_json: JsonOpt = False) -> None:
    """Show what a strategy does and its parameters with their defaults."""
    from rummysim.strategies.registry import strategy_info, strategy_presets

    info = strategy_info(name)
    presets = strategy_presets().get(info.name, {})
    if as_json:
        _print_json({"name": info.name, "id": info.id, "doc": info.doc, "params": _params_json(info.params),
                     "game_defaults": info.game_defaults, "presets": presets})
        return
    out_console.print(f"{info.name} (id {info.id})", markup=False)
    out_console.print(info.doc, markup=False)
    if not info.params:
        out_console.print("parameters: none", markup=False)
    for p in info.params:
        out_console.print(f"  {p.name} = {p.default:g}: {p.doc}", markup=False)
    for game, values in info.game_defaults.items():
        settings = ", ".join(f"{k}={v:g}" for k, v in values.items())
        out_console.print(f"defaults in {game}, where they differ: {settings}", markup=False)
    for preset, values in presets.items():
        settings = ":".join(f"{k}={v:g}" for k, v in values.items() if k != "description")
        out_console.print(f"preset {info.name}@{preset}: {values.get('description', '')}", markup=False)
        out_console.print(f"  = {info.name}:{settings}", markup=False)


def register(app: typer.Typer) -> None:
    """Attach the ``rules`` (``list``, ``show``, ``explain``, ``reference``) and ``strategies``
    (``list``, ``show``) groups to the app."""
    rules_app = typer.Typer(help="List presets, show every rule flag, explain rule IDs and flags.",
                            no_args_is_help=True, context_settings={"help_option_names": ["-h", "--help"]})
    rules_app.command("list")(rules_list_command)
    rules_app.command("show")(rules_show_command)
    rules_app.command("explain")(rules_explain_command)
    rules_app.command("reference")(rules_reference_command)
    strategies_app = typer.Typer(help="List the strategies and their parameters.", no_args_is_help=True,
                              context_settings={"help_option_names": ["-h", "--help"]})
    strategies_app.command("list")(strategies_list_command)
    strategies_app.command("show")(strategies_show_command)
    app.add_typer(rules_app, name="rules")
    app.add_typer(strategies_app, name="strategies")
