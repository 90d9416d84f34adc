"""The hand tools behind ``ginrummy analyze`` and ``ginrummy score``: input checking, the JSON
answers, and their readable renderings. No Typer here: :mod:`ginrummy.cli` owns the commands.

Every function raises :class:`CliError` (or an engine :class:`~ginrummy.errors.GinRummyError`) on
bad input, with a one-line message that names the problem; the command layer prints it and exits
with status 2.

>>> analyze_hand("AS 2C 9D TH JS QC KD", 10)["deadwood_points"]
52
>>> analyze_hand("3C 4C 5C 2D 3D 4D 5D 2H 3H 4H 5S", 10)["discards"][0]["discard"]
'5S'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..cards import CardSet, card_suit, card_text, parse_card, parse_cards
from ..errors import GinRummyError, InvalidNotationError
from ..hand import oklahoma_limit
from ..melds import (
    Arrangement,
    best_arrangement,
    default_spread,
    evaluate_discards,
    is_big_gin,
    validate_spread,
)
from ..rules import PRESETS, Rules
from ..scoring import Showdown, score_showdown

__all__ = [
    "CliError", "analyze_hand", "analyze_knock_limit", "load_rules", "score_input",
    "render_analysis", "render_score",
]

#: the keys a ``score`` input object may hold.
SCORE_KEYS = ("knocker", "defender", "rules", "big_gin", "upcard")


class CliError(GinRummyError):
    """Bad command-line input (exit status 2); the message is one line."""


# ---------------------------------------------------------------------------------------------
# rules


def load_rules(cli_preset: str | None, data: object = None) -> Rules:
    """The rules of a command: ``data`` (a preset name, or an object of field overrides with an
    optional ``"preset"`` key, as in a ``score`` input) on top of the ``--rules`` preset
    ``cli_preset`` (default ``standard``). Naming two different presets is an error.

    >>> load_rules("pagat", {"big_gin_bonus": 31}).gin_bonus, load_rules(None).gin_bonus
    (20, 25)
    """
    if cli_preset is not None and cli_preset not in PRESETS:
        raise CliError(f"unknown rules preset {cli_preset!r}; presets: {', '.join(PRESETS)}")
    if data is None:
        return Rules.preset(cli_preset or "standard")
    if isinstance(data, str):
        data = {"preset": data}
    if not isinstance(data, dict):
        raise CliError('"rules" must be a preset name or an object of rules fields')
    overrides = dict(data)
    name = overrides.pop("preset", None)
    if name is not None and not isinstance(name, str):
        raise CliError('"rules": "preset" must be a preset name')
    if name is not None and name not in PRESETS:
        raise CliError(f"unknown rules preset {name!r}; presets: {', '.join(PRESETS)}")
    if name is not None and cli_preset is not None and name != cli_preset:
        raise CliError(f"--rules {cli_preset} conflicts with the input's rules preset {name!r}")
    return Rules.preset(name or cli_preset or "standard", **overrides)


# ---------------------------------------------------------------------------------------------
# analyze


def _one_card(text: object, what: str) -> int:
    if not isinstance(text, str):
        raise CliError(f"{what} must be a card, not {_json_type(text)}")
    try:
        return parse_card(text)
    except InvalidNotationError as e:
        raise CliError(f"{what}: {e}") from None


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


# ---------------------------------------------------------------------------------------------
# score


def _json_type(v: object) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false", int: "a number",
            float: "a number", type(None): "null"}.get(type(v), type(v).__name__)


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


def _knocker_spread(value: object, big_gin: bool) -> Arrangement:
    want = 11 if big_gin else 10
    hint = ' (add "big_gin": true for an 11-card big gin)' if not big_gin else ""
    if isinstance(value, (list, str)):  # plain cards: show the default spread
        hand = _parse_list(_card_list(value, "knocker"), "knocker")
        if len(hand) != want:
            raise CliError(f"the knocker shows {len(hand)} cards; expected {want}{hint}")
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
    if len(hand) != want:
        raise CliError(f"the knocker shows {len(hand)} cards; expected {want}{hint}")
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
    big_gin = data.get("big_gin", False)
    if not isinstance(big_gin, bool):
        raise CliError(f'"big_gin" must be true or false, not {_json_type(big_gin)}')
    spread = _knocker_spread(data["knocker"], big_gin)
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
            raise CliError(f"not big gin: the knocker's deadwood is {k}")
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


# ---------------------------------------------------------------------------------------------
# readable output: plain text when stdout is not a terminal, Rich otherwise


def _cards(texts: list[str]) -> str:
    return " ".join(texts) if texts else "-"


def _melds(melds: list[list[str]]) -> str:
    return " | ".join(" ".join(m) for m in melds) if melds else "-"


def _pts(n: int) -> str:
    return f"{n} point" if abs(n) == 1 else f"{n} points"


def _yes(b: bool) -> str:
    return "yes" if b else "no"


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


def _rich_cards(texts: list[str]) -> Any:
    from rich.text import Text

    t = Text()
    for i, c in enumerate(texts):
        if i:
            t.append(" ")
        t.append(c, style="bold red" if c[-1] in "HD" else "bold")
    return t if texts else Text("-", style="dim")


def _rich_melds(melds: list[list[str]]) -> Any:
    from rich.text import Text

    if not melds:
        return Text("-", style="dim")
    t = Text()
    for i, m in enumerate(melds):
        if i:
            t.append("  |  ", style="dim")
        t.append_text(_rich_cards(m))
    return t


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
