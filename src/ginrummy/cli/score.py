"""``ginrummy score``: score a shown-down hand (knock, gin, big gin, undercut) from JSON, with the
defender's optimal layoffs (R-5 to R-7, O-1 to O-4).

Bad input raises :class:`~ginrummy.cli.common.CliError` (or an engine
:class:`~ginrummy.errors.GinRummyError`) with a one-line message naming the problem; the command
prints it and exits with status 2.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..cards import CardSet, card_suit, card_text, parse_card, parse_cards
from ..errors import InvalidNotationError
from ..hand import oklahoma_limit
from ..melds import Arrangement, default_spread, validate_spread
from ..scoring import Showdown, score_showdown
from .app import JsonOpt, RulesOpt, _console, _print_json, _read_json, app, bad_input, fail
from .common import (
    CliError,
    _cards,
    _json_type,
    _melds,
    _one_card,
    _pts,
    _rich_cards,
    _rich_melds,
    load_rules,
)

__all__ = ["score", "score_input", "showdown_json", "plain_score", "render_score"]

#: the keys a ``score`` input object may hold.
SCORE_KEYS = ("knocker", "defender", "rules", "big_gin", "upcard")

SCORE_HELP = "\n\n".join([
    "Score a shown-down hand: knock, gin, big gin or undercut (R-5 to R-7).",
    "FILE (or - for stdin) holds one JSON object:\n"
    '{"knocker": {"melds": [["3S","4S","5S"], ...], "deadwood": ["4H"]},\n'
    ' "defender": ["6S", "7S", ... 10 cards],\n'
    ' "rules": "pagat" or {"preset": "pagat", "gin_bonus": 25, ...},  (optional)\n'
    ' "big_gin": true,  (optional: 11 melded cards shown mean big gin without it)\n'
    ' "upcard": "7D"}   (Oklahoma: the initial upcard; required there)',
    "The knocker's spread is scored as shown (R-4.5): each meld must be a valid set or run, "
    "the deadwood is the cards listed, and 10 cards are shown (11 for big gin). The knocker may "
    "also be given as a plain list of 10 cards: its default (minimum-deadwood) spread is then "
    "shown. A card list may be one text, \"3S 4S 5S\". The defender's melds and layoffs are the "
    "ones that minimise its deadwood (R-6.4). \"rules\" fields apply on top of the --rules "
    "preset (default standard).",
    "--json prints {\"result\": knock|gin|big_gin|undercut|tie, \"knocker_melds\", "
    "\"knocker_deadwood\", \"knocker_deadwood_points\", \"defender_melds\", "
    "\"layoffs\": [{\"card\", \"onto\"}...], \"defender_deadwood\", "
    "\"defender_deadwood_points\", \"winner\": knocker|defender|null, \"points\", "
    "\"breakdown\": [{\"code\", \"points\"}...]}; \"onto\" is the knocker's meld (as shown) "
    "that the card was laid off onto.",
    "Exit status: 0 ok; 2 bad input, with one line 'error: ...' on stderr naming the problem.",
])


@app.command(help=SCORE_HELP, short_help="Score a knock or gin: layoffs, undercut, points.")
def score(
    source: Annotated[str | None, typer.Argument(
        metavar="FILE|-", show_default=False,
        help="JSON file with the showdown, or - for stdin.")] = None,
    rules: RulesOpt = None,
    json_out: JsonOpt = False,
) -> None:
    with bad_input():
        if source is None:
            fail("missing FILE: a JSON file with the showdown, or - for stdin")
        data = _read_json(source)
        res = score_input(data, rules)
    if json_out:
        _print_json(res)
    else:
        render_score(_console(), res)


def _card_list(value: object, what: str) -> list[str]:
    """A card list given as a JSON list of card texts or as one text ``"4S 5S 6S"``."""
    if isinstance(value, str):
        return value.replace(",", " ").split()
    if not isinstance(value, list):
        raise CliError(f"{what} must be a list of cards, not {_json_type(value)}")
    for v in value:
        if not isinstance(v, str):
            raise CliError(f"{what}: not a card: {v!r}")
    return list(value)


def _parse_list(texts: list[str], what: str) -> CardSet:
    try:
        return CardSet.of(parse_cards(texts))
    except InvalidNotationError as e:
        raise CliError(f"{what}: {e}") from None


def _check_count(n: int, big_gin: bool | None, big_gin_played: bool) -> None:
    """The knocker shows 10 cards, or 11 for big gin (R-5.3): ``big_gin`` is the input's flag
    (``None``: not given, so 11 cards mean big gin wherever big gin is played)."""
    if big_gin is True:
        if n != 11:
            raise CliError(f"the knocker shows {n} cards; expected 11 for big gin")
    elif big_gin is False:
        if n != 10:
            raise CliError(f'the knocker shows {n} cards; expected 10 ("big_gin" is false)')
    elif big_gin_played:
        if n not in (10, 11):
            raise CliError(f"the knocker shows {n} cards; expected 10, or 11 for big gin")
    elif n == 11:
        raise CliError("the knocker shows 11 cards; expected 10 (11 melded cards are a big gin, "
                       'which these rules do not play: set "rules": {"big_gin_bonus": 31})')
    elif n != 10:
        raise CliError(f"the knocker shows {n} cards; expected 10")


def _knocker_spread(value: object, big_gin: bool | None, big_gin_played: bool) -> Arrangement:
    """The knocker's spread as shown; 10 cards, or 11 for big gin (see :func:`_check_count`)."""
    if isinstance(value, (list, str)):  # plain cards: show the default spread
        hand = _parse_list(_card_list(value, "knocker"), "knocker")
        _check_count(len(hand), big_gin, big_gin_played)
        return default_spread(hand)
    if not isinstance(value, dict):
        raise CliError(f'"knocker" must be an object {{"melds", "deadwood"}}, not '
                       f"{_json_type(value)}")
    extra = sorted(set(value) - {"melds", "deadwood"})
    if extra:
        raise CliError(f'"knocker": unknown key {extra[0]!r} (expected melds, deadwood)')
    if "melds" not in value:
        raise CliError('"knocker" needs "melds" (a list of card lists)')
    melds_in = value["melds"]
    if not isinstance(melds_in, list):
        raise CliError(f'"knocker": "melds" must be a list of card lists, not '
                       f"{_json_type(melds_in)}")
    meld_texts = [_card_list(m, f"knocker meld {i}") for i, m in enumerate(melds_in, 1)]
    for i, m in enumerate(meld_texts, 1):
        if not m:
            raise CliError(f"knocker meld {i} is empty")
    dead_texts = _card_list(value.get("deadwood", []), "knocker deadwood")
    # one parse of every shown card catches a card given twice, across melds and deadwood
    hand = _parse_list([t for m in meld_texts for t in m] + dead_texts, "knocker")
    _check_count(len(hand), big_gin, big_gin_played)
    melds = [CardSet.parse(m) for m in meld_texts]
    try:
        return validate_spread(hand, melds)  # each meld valid; deadwood = the rest
    except InvalidNotationError as e:
        raise CliError(f"knocker: {e}") from None


def score_input(data: object, cli_preset: str | None = None) -> dict[str, Any]:
    """Score a shown-down hand given as the ``score`` JSON input (R-5.x, R-6.x, R-7.x, O-1..O-4).

    >>> r = score_input({"knocker": {"melds": [["3S", "4S", "5S"], ["9H", "9D", "9C"],
    ...                  ["JD", "QD", "KD"]], "deadwood": ["4H"]},
    ...                  "defender": "6S 7S QC QH QS 4C 5C 6C AC 2D"})
    >>> r["result"], r["winner"], r["points"]
    ('undercut', 'defender', 26)
    """
    if not isinstance(data, dict):
        raise CliError(f"the input must be a JSON object, not {_json_type(data)}")
    for k in data:
        if k not in SCORE_KEYS:
            raise CliError(f"unknown key {k!r} (expected {', '.join(SCORE_KEYS)})")
    for k in ("knocker", "defender"):
        if k not in data:
            raise CliError(f"missing {k!r}")
    rules = load_rules(cli_preset, data.get("rules"))
    flag = data.get("big_gin")
    if flag is not None and not isinstance(flag, bool):
        raise CliError(f'"big_gin" must be true or false, not {_json_type(flag)}')
    spread = _knocker_spread(data["knocker"], flag, rules.big_gin_bonus is not None)
    # without the flag, 11 cards shown can only be a big gin
    big_gin = flag if flag is not None else len(spread.deadwood) + sum(map(len, spread.melds)) == 11
    defender = _parse_list(_card_list(data["defender"], "defender"), "defender")
    if len(defender) != 10:
        raise CliError(f"the defender holds {len(defender)} cards; expected 10")
    both = defender & spread.deadwood
    for m in spread.melds:
        both = both | (defender & m)
    if both:
        raise CliError(f"a card is in both hands: {both.format()}")

    limit, spade = rules.knock_limit, False
    upcard_text = data.get("upcard")
    if upcard_text is not None:
        upcard = _one_card(upcard_text, '"upcard"')
        if rules.oklahoma:
            limit = oklahoma_limit(rules, upcard)
            spade = rules.oklahoma_spade_double and card_suit(upcard) == 0
    elif rules.oklahoma:
        raise CliError('oklahoma rules need "upcard" (it sets the knock limit, O-1)')

    k = spread.deadwood_points
    if big_gin:
        if rules.big_gin_bonus is None:
            raise CliError('big gin is not played under these rules (set "rules": '
                           '{"big_gin_bonus": 31})')
        if k:
            more = "" if flag else " (a knock shows 10 cards, big gin 11 melded cards)"
            raise CliError(f"not big gin: the knocker's deadwood is {k}{more}")
    elif k > limit:
        if limit == 0:
            why = ("straight gin allows no knocking" if rules.straight
                   else f"the upcard {card_text(parse_card(str(upcard_text)))} allows gin only")
            raise CliError(f"may not knock: {why}; the knocker's deadwood is {k}")
        raise CliError(f"may not knock: the knocker's deadwood {k} is over the knock limit {limit}")
    sd = score_showdown(rules, spread, defender, big_gin=big_gin, knock_limit=limit,
                        spade_double=spade)
    return showdown_json(sd)


def showdown_json(sd: Showdown) -> dict[str, Any]:
    """The ``score`` answer for a :class:`~ginrummy.scoring.Showdown`."""
    kmelds = sd.knocker_spread.melds
    return {
        "result": sd.kind,
        "knocker_melds": [m.texts() for m in kmelds],
        "knocker_deadwood": sd.knocker_spread.deadwood.texts(),
        "knocker_deadwood_points": sd.knocker_deadwood_points,
        "defender_melds": [m.texts() for m in sd.defender.melds],
        "layoffs": [{"card": lo.card, "onto": kmelds[lo.onto].texts()}
                    for lo in sd.defender.layoffs],
        "defender_deadwood": sd.defender.deadwood.texts(),
        "defender_deadwood_points": sd.defender_deadwood_points,
        "winner": sd.winner,
        "points": sd.points,
        "breakdown": [{"code": c, "points": p} for c, p in sd.breakdown],
    }


def plain_score(res: dict[str, Any]) -> str:
    """The readable ``score`` answer as plain text."""
    who = res["winner"]
    head = (f"{res['result']}: nobody scores" if who is None
            else f"{res['result']}: the {who} scores {res['points']}")
    lay = ", ".join(f"{lo['card']} onto {' '.join(lo['onto'])}" for lo in res["layoffs"]) or "-"
    lines = [
        f"result:    {head}",
        f"knocker:   melds {_melds(res['knocker_melds'])}; deadwood "
        f"{_cards(res['knocker_deadwood'])} ({_pts(res['knocker_deadwood_points'])})",
        f"defender:  melds {_melds(res['defender_melds'])}; layoffs {lay}; deadwood "
        f"{_cards(res['defender_deadwood'])} ({_pts(res['defender_deadwood_points'])})",
        "breakdown: " + (", ".join(f"{b['code']} {b['points']:+d}" for b in res["breakdown"])
                         or "-") + f" = {res['points']}",
    ]
    return "\n".join(lines)


def render_score(console: Any, res: dict[str, Any]) -> None:
    """Print the readable ``score`` answer: a Rich panel on a terminal, plain text otherwise."""
    if not console.is_terminal:
        print(plain_score(res), file=console.file)
        return
    from rich.console import Group
    from rich.panel import Panel
    from rich.table import Table

    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="cyan", no_wrap=True)
    grid.add_column()
    grid.add_row("knocker melds", _rich_melds(res["knocker_melds"]))
    grid.add_row("knocker deadwood", _rich_cards(res["knocker_deadwood"]))
    grid.add_row("", _pts(res["knocker_deadwood_points"]))
    grid.add_row("defender melds", _rich_melds(res["defender_melds"]))
    for lo in res["layoffs"]:
        grid.add_row("layoff", _rich_cards([lo["card"]]) + " onto " + _rich_cards(lo["onto"]))
    grid.add_row("defender deadwood", _rich_cards(res["defender_deadwood"]))
    grid.add_row("", _pts(res["defender_deadwood_points"]))
    bd = Table(show_header=False, show_edge=False, box=None)
    bd.add_column()
    bd.add_column(justify="right")
    for b in res["breakdown"]:
        bd.add_row(b["code"].replace("_", " "), f"{b['points']:+d}")
    bd.add_row("[bold]total[/bold]", f"[bold]{res['points']}[/bold]")
    who = res["winner"]
    title = (f"{res['result']}: nobody scores" if who is None
             else f"{res['result']}: the {who} scores {res['points']}")
    console.print(Panel(Group(grid, "", bd), title=title, expand=False))
