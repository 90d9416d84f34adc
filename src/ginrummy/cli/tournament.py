"""Play computer players against each other in every form: full games on the same decks, the
players rotated over the seats."""

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
             help="Play N full games to the target between computer players, in any form "
                  "(--scoring: standard, hollywood, three_player, partnership), on the same "
                  "decks with the players rotated over the seats (two players: seat-swapped "
                  "pairs; three players: the three rotations; partnership: the teams swapped), "
                  "and report the games won by A's side and by every seat and side with 95% "
                  "Wilson intervals, points per hand, how hands ended, how often knocks were "
                  "undercut and decision times. --a and --b give a level per side (three "
                  "players: A against two B; partnership: A+C against B+D); --lineup a level "
                  "per seat. With --json the last line is one JSON object. The same seed gives "
                  "the same results with --jobs or --ray.")
def tournament(
    a: Annotated[str | None, typer.Option(
        "--a", help="Player A (a level, or random, simple or marjj); default hard.")] = None,
    b: Annotated[str | None, typer.Option(
        "--b", help="The other side's player; default simple.")] = None,
    lineup: Annotated[str | None, typer.Option(
        "--lineup", metavar="NAME,NAME,...",
        help="A player for each seat instead of --a/--b, e.g. expert,hard,simple for three "
             "players.")] = None,
    scoring: Annotated[str | None, typer.Option(
        "--scoring", metavar="FORM",
        help="The form: standard (two players), hollywood, three_player or partnership; "
             "default standard, but partnership with --rules partnership.")] = None,
    games: Annotated[int, typer.Option(
        "--games", help="Games (Hollywood: matches), rounded up to whole sets of rotations.")
    ] = 100,
    rules: Annotated[str | None, typer.Option(
        "--rules", help="Rules preset; default eaai for two players, standard for Hollywood "
                        "and three players, partnership for partnership. A field the form "
                        "decides itself takes the form's value, and the output says so.")
    ] = None,
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
    from ..tournament import Lineup, format_table, run_lineup, table_rules

    if lineup is not None and (a is not None or b is not None):
        fail("--lineup names a player for every seat: give it without --a and --b")
    names = [x.strip() for x in lineup.split(",")] if lineup is not None else [a or "hard",
                                                                               b or "simple"]
    for name in names:
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
        form, preset, table_rules_, fitted = table_rules(rules, scoring)
    try:
        table = (Lineup(form, tuple(names)) if lineup is not None
                 else Lineup.of(form, names[0], names[1]))
    except ValueError as e:
        fail(str(e))
    if ray_address is not None:
        from ..tournament_ray import RayUnavailableError, require_ray

        try:
            require_ray()
        except RayUnavailableError as e:
            fail(str(e), 1)
    if "expert" in table.players:
        from ..bots.kernel import warmup
        from ..bots.stakes import prepare

        warmup()
        prepare(table_rules_, form)  # once here, not in every worker process
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    total = -(-games // table.rotations) * table.rotations
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), transient=True,
                  disable=json_out) as bar:
        task = bar.add_task(f"{table.a} vs {table.b}", total=total)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        if ray_address is None:
            result = run_lineup(table, games, table_rules_, seed=seed, jobs=jobs or 1,
                                progress=progress)
        else:
            from ..tournament_ray import RayVersionMismatchError, run_tournament_ray

            try:
                result = run_tournament_ray(table.a, table.b, games, table_rules_, seed=seed,
                                            address=address, num_cpus=jobs, progress=progress,
                                            scoring=form, lineup=table.players)
            except ValueError as e:  # e.g. --jobs while RAY_ADDRESS names a cluster
                fail(str(e))
            except (ConnectionError, RayVersionMismatchError) as e:
                fail(str(e), 1)
    if json_out:
        data = result.to_json()
        data["preset"] = preset
        data["fitted"] = fitted
        typer.echo(json.dumps(data))
    else:
        typer.echo(format_table(result, f"{preset} (fitted)" if fitted else preset))
        if fitted:
            what = ", ".join(f"{k} {str(v).lower() if isinstance(v, bool) else v}"
                             for k, v in fitted.items())
            typer.echo(f"  rules {preset} fitted to the {form} table: {what} (the form decides "
                       "it)")
