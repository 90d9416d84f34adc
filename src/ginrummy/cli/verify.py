"""Verify the commitments of a game's deals and replay the whole table from its record (every
form: seating, dealer rotation, each deal, the score sheet), or check single reveals."""

from __future__ import annotations

import json
from typing import Annotated, Any, cast

import typer

from .app import _read_json, bad_input, fail

app = typer.Typer(add_completion=False)


@app.command(help="Check the fairness commitments of a game or deal and replay it. FILE (or - "
                  "for stdin) is the JSON of GET /api/games/{id}/record, a game state, a single "
                  "reveal {commitment, salt, deck}, or an engine game record. A game of any "
                  "form (standard, Hollywood, three players, partnership) is replayed as a "
                  "whole table: who played and dealt each deal, each action, each result and "
                  "the score sheet, whose standing is printed last. "
                  "Exit status 0 when everything verifies, 1 when something does not, 2 on "
                  "unreadable input (not JSON, or not a record of any of those shapes).")
def verify(
    source: Annotated[str | None, typer.Argument(metavar="FILE|-", show_default=False)] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    from ..fairness import replay_check

    with bad_input():
        if source is None:
            fail("missing FILE: a game record or reveal as JSON, or - for stdin")
        report = replay_check(cast(Any, _read_json(source)))  # it reports on any JSON value
        if report.malformed:
            fail("; ".join(report.problems))
    if json_out:
        typer.echo(json.dumps(report.to_json()))
    else:
        typer.echo(str(report))
    raise typer.Exit(0 if report.ok else 1)
