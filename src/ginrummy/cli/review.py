"""Review a finished game: every decision graded by the expert's search, from what each seat saw."""

from __future__ import annotations

import json
import math
from typing import Annotated, Any

import typer

from .app import _console, _read_json, bad_input, fail
from .review_words import decision_words, move_words

app = typer.Typer(add_completion=False)

HELP = """Review a finished game: every decision with a real choice (take or pass the first
upcard, stock or pile, the discard, knock now or play on) graded by the expert player's search
from what the deciding seat could see at that moment, with the better move and why; per seat an
accuracy, the grades, what the mistakes cost, and luck apart from skill; the three turning
points.

FILE (or - for stdin) is the JSON of GET /api/games/{id}/record (what ginrummy verify reads) or
an engine game record, of any form: two players (standard, pagat, eaai, oklahoma, straight),
Hollywood (the chance of winning the match), three players (the race) or partnership (the
team's chance). Seats are the record's players: 0 and 1 with two players, 0-2 with three, 0-3
in partnership (each in the hands it played). Each decision the search grades a mistake or a
blunder is then played out both ways (--confirm) and graded on those play-outs, which the
expert's own play agrees with more often than with the search's rollouts (docs/review.md).
Only finished hands are reviewed. Bad input: one
line 'error: ...' and exit status 2. The same record always gets the same review."""

_GRADE_MARK = {"best": "!", "good": " ", "inaccuracy": "?!", "mistake": "?", "blunder": "??"}
_FLAGGED = ("inaccuracy", "mistake", "blunder")


def _rich_help(text: str) -> str:
    paras = [" ".join(p.split()) for p in text.strip().split("\n\n")]
    return "\n\n".join(paras).replace("[", "\\[")


@app.command(help=_rich_help(HELP))
def review(
    source: Annotated[str | None, typer.Argument(metavar="FILE|-", show_default=False,
                                                 help="JSON game record, or - for stdin.")]
    = None,
    seat: Annotated[int | None, typer.Option("--seat", min=0, max=3, show_default=False,
                                             help="Review this player only (0 or 1; three "
                                                  "players 0-2, partnership 0-3); default "
                                                  "all.")] = None,
    hand: Annotated[list[int] | None, typer.Option("--hand", min=1, show_default=False,
                                                   help="Review this hand (1-based; may be "
                                                        "repeated); default every finished "
                                                        "hand.")] = None,
    every: Annotated[bool, typer.Option("--all", help="List every graded decision, not only "
                                                      "the inaccuracies, mistakes and "
                                                      "blunders.")] = False,
    worlds: Annotated[int, typer.Option("--worlds", min=2, max=4096,
                                        help="Sampled worlds per decision (the search's "
                                             "depth).")] = 192,
    confirm: Annotated[int, typer.Option(
        "--confirm", min=0, max=4096,
        help="Play-outs that measure again each decision the search grades a mistake or a "
             "blunder, the judge playing both seats from worlds sampled from what the seat "
             "saw; the grade is then theirs (docs/review.md). 0: the search's grades (faster); "
             "else 8 or more."
    )] = 32,
    judge: Annotated[str, typer.Option(
        "--judge", help="Who plays those play-outs: expert-light, expert or hard.")]
    = "expert-light",
    json_out: Annotated[bool, typer.Option("--json", help="Print the review as JSON.")] = False,
    ratings: Annotated[str | None, typer.Option(
        "--ratings", metavar="R0,R1", show_default=False,
        help="The players' ratings, one per player in seat order (the scale of the levels' "
             "ratings, docs/review.md; - for unknown), e.g. 1500,1762: a two-player game's "
             "later deals are then valued as won in proportion to them; default: as even.")]
    = None,
) -> None:
    from ..bots.review import JUDGES, ReviewBudget, read_record, review_game
    from ..bots.review.position import MAX_CONFIRM, MIN_CONFIRM

    with bad_input():
        if source is None:
            fail("missing FILE: a game record as JSON, or - for stdin")
        game = read_record(_read_json(source), None if ratings is None
                           else parse_ratings(ratings))
        if not game.deals:
            fail("the record has no finished hand to review")
        if seat is not None and seat >= game.players:
            fail(f"--seat {seat}: this table's players are 0..{game.players - 1}")
        seats = tuple(range(game.players)) if seat is None else (seat,)
        if 0 < confirm < MIN_CONFIRM:
            fail(f"--confirm: 0 (none) or {MIN_CONFIRM} to {MAX_CONFIRM} play-outs, not "
                 f"{confirm}")
        if judge not in JUDGES:
            fail(f"--judge: {judge!r} is not one of {', '.join(JUDGES)}")
        result = review_game(game, seats, set(hand) if hand else None,
                             ReviewBudget(worlds, confirm, judge))
    out = result.to_json()
    if json_out:
        typer.echo(json.dumps(out))
        return
    console = _console()
    if console.is_terminal:
        _rich(console, out, every)
    else:
        typer.echo(plain_review(out, every))


def parse_ratings(text: str) -> list[float | None]:
    """``--ratings``: comma-separated numbers, ``-`` for an unknown one; a bad field fails
    (status 2) naming it."""
    out: list[float | None] = []
    for field in text.split(","):
        f = field.strip()
        if f == "-":
            out.append(None)
            continue
        try:
            value = float(f)
        except ValueError:
            fail(f"--ratings: {f!r} is not a rating (a number, or - for unknown)")
        if not math.isfinite(value):
            fail(f"--ratings: {f!r} is not a rating (a number, or - for unknown)")
        out.append(value)
    return out


# ------------------------------------------------------------------------------ plain text
def _signed(x: float, unit: str = "") -> str:
    return f"{round(x, 1) + 0.0:+.1f}{unit}"  # + 0.0: never "-0.0"


def _chance(x: float) -> str:
    return f"{round(x * 100, 1) + 0.0:+.1f}%"


def decision_line(d: dict[str, Any]) -> str:
    """One decision in one line: step, seat, move played, grade, drop, best move."""
    p = d["played"]
    grade = f"{d['grade']} {_GRADE_MARK[d['grade']]}".strip()
    line = f"step {d['step']:>3}  seat {d['seat']}  {p['action']:<14} {grade}"
    if d["grade"] != "best":
        line += (f"  {_chance(-d['drop'])} to win, {_signed(-d['drop_points'])} points;"
                 f" best: {d['best']['action']}")
    c = d.get("confirmation")
    if c is not None:
        line += f"  [{c['playouts']} play-outs; the search said {c['search_grade']}]"
    return line


def seat_lines(s: dict[str, Any]) -> list[str]:
    """A seat's summary in a few lines."""
    g = s["grades"]
    acc = "-" if s["accuracy"] is None else f"{s['accuracy']:.1f}%"
    luck = s["luck"]
    return [
        f"seat {s['seat']}: accuracy {acc} over {s['decisions']} decisions: "
        + ", ".join(f"{g[k]} {k}" for k in ("best", "good", "inaccuracy", "mistake", "blunder")),
        f"  lost to the best moves: {s['lost']['win'] * 100:.1f}% of winning chance, "
        f"{s['lost']['points']:.1f} points ({s['mistakes_points']:.1f} in inaccuracies, "
        "mistakes and blunders)",
        f"  result {_chance(s['result']['win'])} / {_signed(s['result']['points'])} points = "
        f"cards {_chance(luck['cards']['win'])} / {_signed(luck['cards']['points'])} + "
        f"decisions {_chance(luck['decisions']['win'])} / "
        f"{_signed(luck['decisions']['points'])} + opponent and unseen cards "
        f"{_chance(luck['rest']['win'])} / {_signed(luck['rest']['points'])}",
    ]


def _hand_title(h: dict[str, Any]) -> str:
    res = h["result"]
    players = h.get("players", [0, 1])
    if res[0] == res[1] == 0:
        what = f"{h['kind']}, no score"
    else:
        w = 0 if res[0] > 0 else 1
        what = f"{h['kind']}, seat {players[w]} scores {abs(res[w])}"
    if players == [0, 1]:
        return f"hand {h['hand']} (dealer seat {h['dealer']}): {what}"
    return (f"hand {h['hand']} (seats {players[0]} and {players[1]}, seat "
            f"{players[h['dealer']]} dealt): {what}")


def plain_review(out: dict[str, Any], every: bool = False) -> str:
    """The readable review as plain text (see docs/cli.md)."""
    lines: list[str] = []
    for h in out["hands"]:
        lines.append(_hand_title(h))
        shown = [d for d in h["decisions"] if every or d["grade"] in _FLAGGED]
        for d in shown:
            lines.append("  " + decision_line(d))
            words = decision_words(d)
            if words:
                lines.append("        " + words)
        if not shown:
            lines.append("  no inaccuracy, mistake or blunder")
    lines.append("")
    for s in out["seats"]:
        lines += seat_lines(s)
    if out["turning_points"]:
        lines.append("turning points:")
        for i, t in enumerate(out["turning_points"], 1):
            lines.append(f"  {i}. hand {t['hand']} step {t['step']}, seat {t['seat']}: "
                         f"{t['played']} ({t['grade']}, {_chance(-t['drop'])} to win); "
                         f"best {t['best']}")
    if not out["complete"]:
        lines.append("(the game is not over, or only some hands were reviewed)")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ Rich
_STYLE = {"best": "green", "good": "", "inaccuracy": "yellow", "mistake": "dark_orange",
          "blunder": "bold red"}


def _rich(console: Any, out: dict[str, Any], every: bool) -> None:
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    for h in out["hands"]:
        shown = [d for d in h["decisions"] if every or d["grade"] in _FLAGGED]
        table = Table(show_edge=False, expand=False)
        for col in ("step", "seat", "played", "grade", "to win", "points", "best"):
            table.add_column(col, justify="right" if col in ("step", "seat", "to win",
                                                            "points") else "left")
        for d in shown:
            best = d["grade"] != "best"
            table.add_row(str(d["step"]), str(d["seat"]), d["played"]["action"],
                          Text(f"{d['grade']} {_GRADE_MARK[d['grade']]}".strip(),
                               style=_STYLE[d["grade"]]),
                          _chance(-d["drop"]) if best else "",
                          _signed(-d["drop_points"]) if best else "",
                          d["best"]["action"] if best else "")
            words = decision_words(d)
            c = d.get("confirmation")
            if c is not None:
                words = (words + " " if words else "") + \
                    f"[{c['playouts']} play-outs; the search said {c['search_grade']}]"
            if words:
                table.add_row("", "", Text(words, style="dim"), "", "", "", "")
        body: Any = table if shown else Text("no inaccuracy, mistake or blunder", style="dim")
        console.print(Panel(body, title=_hand_title(h), expand=False))
    summary = "\n".join(line for s in out["seats"] for line in seat_lines(s))
    tps = "\n".join(f"{i}. hand {t['hand']} step {t['step']}, seat {t['seat']}: {t['played']} "
                    f"({t['grade']}, {_chance(-t['drop'])} to win); best {t['best']}"
                    for i, t in enumerate(out["turning_points"], 1))
    console.print(Panel(summary + ("\n\nturning points:\n" + tps if tps else ""),
                        title="the game" if out["complete"] else "the hands reviewed",
                        expand=False))


__all__ = ["app", "plain_review", "decision_line", "seat_lines", "move_words"]
