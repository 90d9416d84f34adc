"""Play computer players against each other: full games, seat-swapped pairs of identical deals."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

from .app import bad_input, fail

app = typer.Typer(add_completion=False)

#: the value of a bare ``--ray`` (no address): Ray's default, RAY_ADDRESS or else a local Ray.
_RAY_DEFAULT = ""


class _Command(TyperCommand):
    """The tournament command; ``--ray`` may be given without a value (Typer options always
    take one), which is read as ``--ray=`` (Ray's default address)."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        out: list[str] = []
        for i, arg in enumerate(args):
            if arg == "--":
                out += args[i:]
                break
            nxt = args[i + 1] if i + 1 < len(args) else None
            if arg == "--ray" and (nxt is None or nxt.startswith("-")):
                arg = f"--ray={_RAY_DEFAULT}"
            out.append(arg)
        return list(super().parse_args(ctx, out))


@app.command(cls=_Command,
             help="Play N full games to the target between two computer players (seat-swapped "
                  "pairs of identical deals) and report games won by A with a 95% Wilson "
                  "interval, points per hand, how hands ended, how often A's knocks were "
                  "undercut and A's decision time. With --json the last line is one JSON "
                  "object. The same seed gives the same results with --jobs or --ray.")
def tournament(
    a: Annotated[str, typer.Option(
        "--a", help="Player A (a level, or random, simple or marjj).")] = "hard",
    b: Annotated[str, typer.Option("--b", help="Player B.")] = "simple",
    games: Annotated[int, typer.Option("--games", help="Games (rounded up to even).")] = 100,
    rules: Annotated[str, typer.Option("--rules", help="Rules preset.")] = "eaai",
    seed: Annotated[int, typer.Option("--seed", help="Seed of decks and players.")] = 0,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", help="Worker processes (default 1); with --ray and no address, the local "
                       "Ray's workers (default: all cores).")] = None,
    ray_address: Annotated[str | None, typer.Option(
        "--ray", metavar="[ADDRESS]",
        help="Play the games on Ray (the distributed extra): --ray alone starts a local Ray "
             "(or joins RAY_ADDRESS), --ray auto joins this machine's cluster, --ray "
             "ray://HEAD:10001 a remote one. Every node needs this version of ginrummy.")] = None,
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
    if jobs is not None and jobs < 1:
        fail("--jobs must be at least 1")
    address = None if ray_address in (None, _RAY_DEFAULT) else ray_address
    if address not in (None, "local") and jobs is not None:
        fail("--jobs sets the size of a local Ray; a cluster (--ray ADDRESS) has its own size")
    with bad_input():
        table_rules = Rules.preset(rules)
    if ray_address is not None:
        from ..tournament_ray import RayUnavailableError, require_ray

        try:
            require_ray()
        except RayUnavailableError as e:
            fail(str(e), 1)
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

        if ray_address is None:
            result = run_tournament(a, b, games, table_rules, seed=seed, jobs=jobs or 1,
                                    progress=progress)
        else:
            from ..tournament_ray import RayVersionMismatchError, run_tournament_ray

            try:
                result = run_tournament_ray(a, b, games, table_rules, seed=seed,
                                            address=address, num_cpus=jobs, progress=progress)
            except ValueError as e:  # e.g. --jobs while RAY_ADDRESS names a cluster
                fail(str(e))
            except (ConnectionError, RayVersionMismatchError) as e:
                fail(str(e), 1)
    if json_out:
        typer.echo(json.dumps(result.to_json()))
    else:
        typer.echo(format_table(result))
