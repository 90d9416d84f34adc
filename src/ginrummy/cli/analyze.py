"""``ginrummy analyze``: the best melds and deadwood of 1 to 10 cards (R-1.5), and every legal
discard of 11 cards with whether you may knock, go gin or declare big gin (R-1.6).

Bad input raises :class:`~ginrummy.cli.common.CliError` (or an engine
:class:`~ginrummy.errors.GinRummyError`) with a one-line message naming the problem; the command
prints it and exits with status 2.

>>> analyze_hand("AS 2C 9D TH JS QC KD", 10)["deadwood_points"]
52
>>> analyze_hand("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S", 10)["discards"][0]["discard"]
'5S'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any

import typer

from ..cards import CardSet, card_text, parse_cards
from ..errors import GinRummyError
from ..hand import oklahoma_limit
from ..melds import Arrangement, best_arrangement, evaluate_discards, is_big_gin
from ..rules import Rules
from .app import JsonOpt, RulesOpt, _console, _one_line, _print_json, app, bad_input, fail
from .common import (
    CliError,
    _cards,
    _melds,
    _one_card,
    _pts,
    _rich_cards,
    _rich_melds,
    _yes,
    load_rules,
)

__all__ = ["analyze", "analyze_hand", "analyze_knock_limit", "plain_analysis",
           "render_analysis"]

ANALYZE_HELP = "\n\n".join([
    "Show the best melds and deadwood of a hand (1 to 11 cards).",
    "1 to 10 cards: the minimum-deadwood melds (R-1.5). 11 cards (you just drew): every legal "
    "discard with the best melds of the 10 kept, best first, and whether you may knock, go gin, "
    "or declare big gin (all 11 melded) (R-1.6).",
    "Cards are separated by spaces or commas: ginrummy analyze 7H 8H 9H,KC,10c,7♥",
    "--json prints {\"cards\", \"melds\", \"deadwood\", \"deadwood_points\"} for up to 10 cards, "
    "and {\"cards\", \"discards\": [{\"discard\", \"melds\", \"deadwood\", "
    "\"deadwood_points\"}...], \"deadwood_points\", \"can_knock\", \"can_gin\", "
    "\"big_gin\" (declarable under these rules), \"all_melded\", "
    "\"knock_limit\"} for 11. Cards are canonical (TH); runs ascending, sets in suit order "
    "S H D C.",
    "can_knock uses the preset's knock limit. With --rules oklahoma the limit is the value of "
    "--upcard; without --upcard it is taken as 10. A limit of 0 (straight gin, an ace upcard) "
    "allows gin only.",
    "Many hands: 'ginrummy analyze --json -' reads one hand per line from stdin and prints one "
    "JSON object per line; blank lines and text after # are skipped. A bad line prints "
    "{\"line\": n, \"error\": \"...\"} in its place and the other lines are still analyzed; "
    "the command then exits with status 2 and one line 'error: line n: ...' on stderr.",
    "Exit status: 0 ok; 2 bad input, with one line 'error: ...' on stderr naming the problem.",
])


@app.command(help=ANALYZE_HELP, short_help="Best melds, deadwood and discards of a hand.")
def analyze(
    cards: Annotated[list[str] | None, typer.Argument(
        metavar="CARDS", show_default=False,
        help="1 to 11 cards, or - to read one hand per line from stdin.")] = None,
    rules: RulesOpt = None,
    json_out: JsonOpt = False,
    upcard: Annotated[str | None, typer.Option(
        "--upcard", metavar="CARD", show_default=False,
        help="Oklahoma: the initial upcard, which sets the knock limit (without it: 10).",
    )] = None,
    taken: Annotated[str | None, typer.Option(
        "--taken", metavar="CARD", show_default=False,
        help="11 cards: the card taken from the discard pile this turn; it may not be "
             "discarded (R-3.6).",
    )] = None,
    big_gin: Annotated[bool, typer.Option(
        "--big-gin", help="Play big gin (bonus 31, R-5.3): 11 melded cards may be declared.",
    )] = False,
) -> None:
    with bad_input():
        rules_obj = load_rules(rules, {"big_gin_bonus": 31} if big_gin else None)
        limit = analyze_knock_limit(rules_obj, upcard)
        args = cards or []
        if args == ["-"]:
            _analyze_stream(limit, taken, json_out, rules_obj, upcard)
            return
        if "-" in args:
            fail("'-' (read hands from stdin) must be the only CARDS argument")
        res = analyze_hand(" ".join(args), limit, taken, rules_obj.big_gin_bonus is not None)
    if json_out:
        _print_json(res)
    else:
        render_analysis(_console(), res, rules_obj, upcard)


def _analyze_stream(limit: int, taken: str | None, json_out: bool, rules_obj: Any,
                    upcard: str | None) -> None:
    """``analyze -``: one hand per stdin line; bad lines are reported in place (see --help)."""
    stdin = typer.get_binary_stream("stdin")
    console = None if json_out else _console()
    failed: list[tuple[int, str]] = []
    shown = 0
    for n, raw in enumerate(stdin, 1):
        error: str | None
        try:
            line = raw.decode("utf-8-sig" if n == 1 else "utf-8")
        except UnicodeDecodeError:
            line, error = "", "not valid UTF-8 text"
        else:
            error = None
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
        if error is None:
            try:
                res = analyze_hand(line, limit, taken, rules_obj.big_gin_bonus is not None)
            except GinRummyError as e:
                error = _one_line(str(e))
        if error is not None:
            failed.append((n, error))
            if json_out:
                _print_json({"line": n, "error": error})
            else:
                typer.echo(("\n" if shown else "") + f"line {n}: error: {error}")
        elif json_out:
            _print_json(res)
        else:
            if shown:
                typer.echo("")
            render_analysis(console, res, rules_obj, upcard, title=f"line {n}")
        shown += 1
    if failed:
        n, error = failed[0]
        more = ""
        if len(failed) > 1:
            more = f" (and {len(failed) - 1} more bad lines: " + ", ".join(
                str(k) for k, _ in failed[1:6]) + (", ..." if len(failed) > 6 else "") + ")"
        fail(f"line {n}: {error}{more}")



def analyze_knock_limit(rules: Rules, upcard: str | None) -> int:
    """The knock limit ``analyze`` judges by: the preset's, or under Oklahoma the upcard's value
    (O-1, O-2); Oklahoma without an upcard assumes 10."""
    if upcard is None:
        return 10 if rules.oklahoma else rules.knock_limit
    if not rules.oklahoma:
        raise CliError("--upcard only applies to oklahoma rules (add --rules oklahoma)")
    return oklahoma_limit(rules, _one_card(upcard, "--upcard"))


def _arrangement_json(arr: Arrangement) -> dict[str, Any]:
    # {"melds", "deadwood", "deadwood_points"}; CardSet order is suit-major and ace low, so runs
    # come out ascending and sets in S H D C order.
    return arr.to_json()


def analyze_hand(text: str | Iterable[str], knock_limit: int,
                 taken: str | None = None, big_gin_played: bool = True) -> dict[str, Any]:
    """Analyze 1 to 10 cards (best melds, R-1.5) or 11 cards (every legal discard, R-1.6).

    ``taken`` is a card taken from the discard pile this turn, which may not be discarded (R-3.6).
    ``big_gin_played``: the rules score big gin (``big_gin_bonus`` set, R-5.3); if not,
    ``"big_gin"`` is false and ``"all_melded"`` still says whether all 11 cards meld.
    """
    cards = parse_cards(text)
    if not 1 <= len(cards) <= 11:
        raise CliError(f"expected 1 to 11 cards, got {len(cards)}")
    hand = CardSet.of(cards)
    if len(cards) <= 10:
        if taken is not None:
            raise CliError("--taken only applies to an 11-card hand")
        return {"cards": hand.texts(), **_arrangement_json(best_arrangement(hand))}
    forbidden = None
    if taken is not None:
        t = _one_card(taken, "--taken")
        if t not in hand:
            raise CliError(f"--taken {card_text(t)} is not in the hand")
        forbidden = CardSet.of([t])
    options = evaluate_discards(hand, forbidden)
    best = options[0].deadwood_points
    return {
        "cards": hand.texts(),
        "discards": [{"discard": o.discard, **_arrangement_json(o.arrangement)} for o in options],
        "deadwood_points": best,
        # a knock limit of 0 (straight gin, Oklahoma ace upcard) allows gin only (SG, O-2)
        "can_knock": knock_limit > 0 and best <= knock_limit,
        "can_gin": best == 0,
        "big_gin": big_gin_played and is_big_gin(hand),
        "all_melded": is_big_gin(hand),
        "knock_limit": knock_limit,
    }


def _limit_note(res: dict[str, Any], rules: Rules, upcard: str | None) -> str:
    lim = res["knock_limit"]
    if rules.oklahoma and upcard is None:
        return f"limit {lim}: oklahoma, no --upcard given"
    if lim == 0:
        return "limit 0: gin only"
    return f"limit {lim}"


def plain_analysis(res: dict[str, Any], rules: Rules, upcard: str | None) -> str:
    """The readable ``analyze`` answer as plain text."""
    lines = [f"cards:     {_cards(res['cards'])}"]
    if "discards" not in res:
        lines += [f"melds:     {_melds(res['melds'])}",
                  f"deadwood:  {_cards(res['deadwood'])} ({_pts(res['deadwood_points'])})"]
        return "\n".join(lines)
    best = res["discards"][0]
    lines += [
        f"best:      discard {best['discard']}, deadwood {res['deadwood_points']}",
        f"knock:     {_yes(res['can_knock'])} ({_limit_note(res, rules, upcard)})",
        f"gin:       {_yes(res['can_gin'])}",
        f"big gin:   {_yes(res['big_gin'])}"
        + (" (all 11 cards meld, but these rules do not play big gin)"
           if res.get("all_melded") and not res["big_gin"] else ""),
        "discards (best first):",
    ]
    for d in res["discards"]:
        lines.append(f"  {d['discard']:>2}  {d['deadwood_points']:>3}  melds {_melds(d['melds'])}"
                     f"  deadwood {_cards(d['deadwood'])}")
    return "\n".join(lines)


def render_analysis(console: Any, res: dict[str, Any], rules: Rules, upcard: str | None,
                    title: str | None = None) -> None:
    """Print the readable ``analyze`` answer: Rich panels on a terminal, plain text otherwise."""
    if not console.is_terminal:
        text = plain_analysis(res, rules, upcard)
        print(f"{title}\n{text}" if title else text, file=console.file)
        return
    from rich.panel import Panel
    from rich.table import Table

    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="cyan", no_wrap=True)
    grid.add_column()
    grid.add_row("cards", _rich_cards(res["cards"]))
    if "discards" not in res:
        grid.add_row("melds", _rich_melds(res["melds"]))
        grid.add_row("deadwood", _rich_cards(res["deadwood"]))
        grid.add_row("", _pts(res["deadwood_points"]))
        console.print(Panel(grid, title=title or "hand", expand=False))
        return
    best = res["discards"][0]
    grid.add_row("best", f"discard {best['discard']}, deadwood {res['deadwood_points']}")
    grid.add_row("knock", f"{_yes(res['can_knock'])} ({_limit_note(res, rules, upcard)})")
    grid.add_row("gin", _yes(res["can_gin"]))
    grid.add_row("big gin", _yes(res["big_gin"]))
    table = Table(title="discards, best first", title_justify="left", show_edge=False)
    table.add_column("discard")
    table.add_column("deadwood", justify="right")
    table.add_column("melds")
    table.add_column("deadwood cards")
    for d in res["discards"]:
        table.add_row(_rich_cards([d["discard"]]), str(d["deadwood_points"]),
                      _rich_melds(d["melds"]), _rich_cards(d["deadwood"]))
    from rich.console import Group

    console.print(Panel(Group(grid, "", table), title=title or "11 cards", expand=False))


