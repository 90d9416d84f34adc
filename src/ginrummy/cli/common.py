"""What ``ginrummy analyze`` and ``ginrummy score`` share: the input error, the rules of a
command, card checking, and the pieces of their readable output. No Typer here.

Every function raises :class:`CliError` (or an engine :class:`~ginrummy.errors.GinRummyError`) on
bad input, with a one-line message that names the problem; the command layer prints it and exits
with status 2.
"""

from __future__ import annotations

from typing import Any

from ..cards import parse_card
from ..errors import GinRummyError, InvalidNotationError
from ..rules import PRESETS, Rules

__all__ = ["CliError", "load_rules"]


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


def _one_card(text: object, what: str) -> int:
    if not isinstance(text, str):
        raise CliError(f"{what} must be a card, not {_json_type(text)}")
    try:
        return parse_card(text)
    except InvalidNotationError as e:
        raise CliError(f"{what}: {e}") from None


def _json_type(v: object) -> str:
    return {dict: "an object", list: "a list", str: "text", bool: "true/false", int: "a number",
            float: "a number", type(None): "null"}.get(type(v), type(v).__name__)



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


