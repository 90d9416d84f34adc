"""Play computer players against each other: full games, seat-swapped pairs of identical deals."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from .app import bad_input, fail

app = typer.Typer(add_completion=False)


@app.command(help="Play N full games to the target between two computer players (seat-swapped "
                  "pairs of identical deals) and report games won by A with a 95% Wilson "
                  "interval, points per hand, how hands ended, how often A's knocks were "
                  "undercut and A's decision time. With --json the last line is one JSON "
                  "object.")
def tournament(
    a: Annotated[str, typer.Option(
        "--a", help="Player A (a level, or random, simple or marjj).")] = "hard",
    b: Annotated[str, typer.Option("--b", help="Player B.")] = "simple",
    games: Annotated[int, typer.Option("--games", help="Games (rounded up to even).")] = 100,
    rules: Annotated[str, typer.Option("--rules", help="Rules preset.")] = "eaai",
    seed: Annotated[int, typer.Option("--seed", help="Seed of decks and players.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", help="Worker processes.")] = 1,
    json_out: Annotated[bool, typer.Option("--json", help="End with one JSON line.")] = False,
) -> None:
    from ..bots import ALL_PLAYERS
    from ..rules import Rules
    from ..tournament import format_table, run_tournament

    for name in (a, b):
        if name not in ALL_PLAYERS:
            fail(f"unknown player {name!r}; players: {', '.join(ALL_PLAYERS)}")
    if games < 1:
        fail("--games must be at least 1")
    if jobs < 1:
        fail("--jobs must be at least 1")
    with bad_input():
        table_rules = Rules.preset(rules)
    if "expert" in (a, b):
        from ..bots.kernel import warmup

        warmup()
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), transient=True,
                  disable=json_out) as bar:
        task = bar.add_task(f"{a} vs {b}", total=games + games % 2)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        result = run_tournament(a, b, games, table_rules, seed=seed, jobs=jobs,
                                progress=progress)
    if json_out:
        typer.echo(json.dumps(result.to_json()))
    else:
        typer.echo(format_table(result))
