"""Score a sheet of games played with real cards (standard, Hollywood, 3 players, partnership)."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from .app import _read_json, bad_input, fail

app = typer.Typer(add_completion=False)

HELP = """Score a sheet of hands played with real cards and print it as JSON.

Input (FILE or - for stdin): {"rules": preset name or {"preset", field: value...},
"scoring": "standard"|"hollywood"|"partnership"|"three_player", "players": [names],
"first_dealer": name (optional), "hands": [HAND...]} where HAND is {"winner": name, "points": n},
{"dead": true}, {"knocker": name, "result": "knock"|"gin"|"big_gin", "knocker_deadwood": k,
"defender_deadwood": d}, or {"knocker": name, "melds": [[cards]...], "deadwood": [cards],
"defender": [10 cards]} (scored with the defender's optimal layoffs; "knocker_cards": [10 cards]
instead of melds and deadwood lets the engine spread them); "result" may be "undercut" (refused
unless it is one); under Oklahoma give "upcard" (knock limit, spade doubling); partnership hands
are {"tables": [HAND, HAND]}.

Output: per-hand lines, per-game columns (Hollywood: which games closed after which hand),
boxes, bonuses and final totals. Exit status 2 with one line naming the hand and field at fault.
"""


def _rich_help(text: str) -> str:
    """Paragraphs unwrapped (Rich rewraps them), brackets escaped (they are not Rich markup)."""
    paras = [" ".join(p.split()) for p in text.strip().split("\n\n")]
    return "\n\n".join(paras).replace("[", "\\[")


@app.command(help=_rich_help(HELP))
def sheet(
    source: Annotated[str | None, typer.Argument(metavar="FILE|-", show_default=False,
                                                 help="JSON sheet, or - for stdin.")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="JSON output (the only format).")]
    = True,
) -> None:
    from ..keeper import score_sheet

    with bad_input():
        if source is None:
            fail("missing FILE: a JSON sheet, or - for stdin")
        out = score_sheet(_read_json(source))
    typer.echo(json.dumps(out, ensure_ascii=False, indent=2))
