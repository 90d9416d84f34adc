"""What a table request may ask, checked (docs/tables.md): display names, rules, seats, hand
orders and the fixed lists (quick messages, seat kinds, the turn clock's range). Each check
answers :class:`~ginrummy.web.http.errors.BadRequest` and changes nothing."""

from __future__ import annotations

import functools
import re
from typing import Any

from ...bots import DEFAULT_LEVEL, LEVELS
from ...cards import card_text, parse_card
from ...errors import GinRummyError, RulesError, shown_value
from ...rules import PRESETS, Rules
from ...store import SeatRow
from ..http.errors import BadRequest, text_reason
from ..http.i18n import LANGUAGES
from ..http.messages import catalog
from ..http.text import name_key, valid_name, visible

__all__ = ["NEXT_HAND", "MESSAGES", "TURN_CLOCK_RANGE", "NAME_MAX", "KINDS", "INVITE_CODE_RE",
           "normalize_action", "checked_name", "checked_rules", "checked_order",
           "checked_seats", "checked_turn_clock"]

#: the person's action that deals the next hand (also accepted as ``next_hand``).
NEXT_HAND = "next hand"
#: the preset quick messages (docs/tables.md; translated by the page).
MESSAGES = ("hello", "good_luck", "good_game", "well_played", "thanks", "oops", "wait",
            "rematch")
#: the turn clock's allowed seconds.
TURN_CLOCK_RANGE = (15, 600)
#: a display name's most characters.
NAME_MAX = 24
#: what a seat holds.
KINDS = ("person", "computer", "open")
#: the form of an invite code (anything else names no table).
INVITE_CODE_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def normalize_action(text: str) -> str:
    """Lower case, single spaces: the form compared for duplicates."""
    return " ".join(text.strip().lower().split())


def checked_name(name: Any) -> str:
    """A display name: 1 to 24 characters after stripping, the rules of every name
    (:func:`ginrummy.web.http.text.valid_name`: valid Unicode, no control, line or paragraph
    separator, nor bidirectional formatting character such as U+202E; emoji and joiners are
    names like others), and at least one visible character (:func:`~ginrummy.web.http.text.visible`:
    a letter, digit, punctuation or symbol that Unicode does not make default-ignorable and that
    is no blank: never only zero-width characters, Hangul fillers or braille blanks).

    :raises BadRequest: ``name`` (422) otherwise.
    """
    if not isinstance(name, str):
        raise BadRequest("name", "name_text")
    try:
        n = valid_name(name, NAME_MAX)
    except ValueError as e:
        reason, params = text_reason(e)
        raise BadRequest("name", reason, **params) from None
    if not any(visible(c) for c in n):
        raise BadRequest("name", "name_invisible")
    if name_key(n) in seat_label_keys():
        raise BadRequest("name", "name_reserved", name=n)
    return n


#: the catalog keys of the words a table shows for a seat that is not a person's name, with the
#: values their placeholders take (static/variants.js ``playerName``)
_SEAT_LABELS: tuple[tuple[str, dict[str, tuple[str, ...]]], ...] = (
    ("table.you", {}), ("table.computer", {}), ("friends.open_seat", {}),
    ("vt.computer_n", {"n": ("1", "2", "3")}),
    ("vt.p4.1", {}), ("vt.p4.2", {}), ("vt.p4.3", {}),
    ("vt.p4.partner", {"l": tuple("ABCD")}), ("vt.p4.opponent", {"l": tuple("ABCD")}),
)


@functools.cache
def seat_label_keys() -> frozenset[str]:
    """The :func:`~ginrummy.web.http.text.name_key` of every word a table shows in place of a
    person's name ("You", "Computer", "Computer 2", "Partner C", "Open seat"...), in each of
    the four languages: a display name may not be one of them (a person called "Computer"
    would pass for the computer)."""
    keys: set[str] = set()
    for lang in LANGUAGES:
        words = catalog(lang)
        for key, values in _SEAT_LABELS:
            text = words.get(key)
            if text is None:
                continue
            if not values:
                keys.add(name_key(text))
            for name, options in values.items():  # one placeholder at most
                keys.update(name_key(text.replace("{" + name + "}", v)) for v in options)
    return frozenset(keys)


def checked_rules(level: str | None, preset: str | None, overrides: dict[str, Any] | None
                  ) -> tuple[str, str, Rules]:
    """A new game's ``(level, preset, rules)``; ``overrides`` may name the preset too.

    :raises BadRequest: an unknown level or preset, or bad rules.
    """
    level = DEFAULT_LEVEL if level is None else level
    if level not in LEVELS:
        raise BadRequest("level", "unknown_level", level=shown_value(level), choices=list(LEVELS))
    ov = dict(overrides or {})
    base = preset if preset is not None else ov.pop("preset", "standard")
    ov.pop("preset", None)
    if not isinstance(base, str) or base not in PRESETS:
        raise BadRequest("rules", "unknown_preset", preset=shown_value(base),
                         choices=list(PRESETS))
    try:
        return level, base, Rules.preset(base, **ov)
    except RulesError as e:
        raise BadRequest.of("rules", e) from None
    except TypeError as e:
        raise BadRequest("rules", "other", text=str(e)) from None


def checked_order(cards: list[str]) -> list[str]:
    """A hand order's cards in canonical text. :raises BadRequest: a bad or repeated card."""
    out: list[str] = []
    for c in cards:
        try:
            t = card_text(parse_card(c))
        except GinRummyError as e:
            raise BadRequest.of("invalid", e) from None
        if t in out:
            raise BadRequest("invalid", "duplicate_card", card=t)
        out.append(t)
    return out


def checked_seats(seats: list[dict[str, Any]] | None, n: int, level: str) -> list[SeatRow]:
    """A new table's ``n`` seats (without ``seats``: the creator and ``n - 1`` open ones).

    :raises BadRequest: ``seats`` (a wrong count or kind; seat 0 is the creator's) or
        ``level`` (a computer seat's unknown level).
    """
    if seats is None:
        seats = [{"kind": "person"}] + [{"kind": "open"}] * (n - 1)
    if len(seats) != n:
        raise BadRequest("seats", "seat_count", n=n)
    out = []
    for i, s in enumerate(seats):
        kind = s.get("kind")
        if kind not in KINDS:
            raise BadRequest("seats", "seat_kind", seat=i)
        if (i == 0) != (kind == "person"):
            raise BadRequest("seats", "seat_creator")
        lv = s.get("level")
        if kind == "computer":
            lv = level if lv is None else lv
            if lv not in LEVELS:
                raise BadRequest("level", "unknown_level", level=shown_value(lv),
                                 choices=list(LEVELS))
        else:
            lv = None
        out.append(SeatRow(seat=i, kind=kind, level=lv))
    return out


def checked_turn_clock(turn_clock: int | None) -> int | None:
    """``None`` (no clock) or seconds within :data:`TURN_CLOCK_RANGE`.

    :raises BadRequest: ``turn_clock`` otherwise."""
    if turn_clock is not None and not (TURN_CLOCK_RANGE[0] <= turn_clock <= TURN_CLOCK_RANGE[1]):
        raise BadRequest("turn_clock", "turn_clock", min=TURN_CLOCK_RANGE[0],
                         max=TURN_CLOCK_RANGE[1])
    return turn_clock
