"""Which rules go together at which table (RULES.md sections 9 and 10).

A table is a :class:`~ginrummy.rules.Rules` plus a *scoring*: ``standard`` (one game to the
target), ``hollywood`` (H: three games scored at once), ``three_player`` (3P) or ``partnership``
(4P). :class:`Rules` itself rejects the contradictions within the rules (Oklahoma with straight
gin or another knock limit, an Oklahoma option without Oklahoma); :func:`check_table` rejects
rules a scoring cannot honour. :data:`FIELD_REQUIRES` says when a field matters, so that a menu
can grey out the others (:func:`constrain`, mirrored by the web page's new-game dialog) and a
rules list can say which fields have no effect (:func:`inactive_fields`).

>>> try:
...     check_table(Rules.preset("eaai"), "three_player")
... except RulesError as e:
...     print(e)  # doctest: +ELLIPSIS
next_dealer is decided by a three-player table itself (the loser of a hand deals the next (3P)): ...
>>> inactive_fields(Rules.preset("straight"))
('undercut_bonus', 'undercut_on_tie', 'oklahoma_ace', 'oklahoma_spade_double')
>>> values, off = constrain({**Rules.preset("oklahoma").to_dict(), "knock_limit": 0})
>>> values["knock_limit"], sorted(off)
(10, ['knock_limit'])
"""

from __future__ import annotations

import functools
from dataclasses import fields
from typing import Any, Final

from .errors import RulesError, shown_value
from .rules import Rules

__all__ = ["SCORINGS", "PLAYER_COUNT", "FIRST_DEALERS", "SCORING_PRESET", "SCORING_FIXED",
           "FIELD_REQUIRES", "check_table", "fit_to_table", "inactive_fields", "constrain"]

#: the scorings, in menu order.
SCORINGS: Final = ("standard", "hollywood", "three_player", "partnership")
#: players at a table of each scoring (the person plays one seat, computers the others).
PLAYER_COUNT: Final = {"standard": 2, "hollywood": 2, "three_player": 3, "partnership": 4}
#: how many players the first dealer is drawn among (R-2.1; 3P: the one who cut lowest of
#: three). A partnership's pairs cut for each new deal: its first dealer is drawn as a
#: two-player table's and plays no part.
FIRST_DEALERS: Final = {"standard": 2, "hollywood": 2, "three_player": 3, "partnership": 2}
#: the rules preset a scoring is played with by default (a menu selects it with the scoring).
SCORING_PRESET: Final[dict[str, str]] = {"partnership": "partnership"}
#: fields a scoring decides by itself, with the value they must keep.
SCORING_FIXED: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "hollywood": {},
    # 3P: the loser of a scored hand deals the next; a dead hand keeps the dealer.
    "three_player": {"next_dealer": "winner"},
    # 4P: opponents switch every hand and each new pair cuts for the deal; one box per hand
    # to the team that nets the hand.
    "partnership": {"next_dealer": "winner", "extra_boxes": False},
}
_WHY: Final = {
    ("three_player", "next_dealer"): "the loser of a hand deals the next (3P)",
    ("partnership", "next_dealer"): "each new pair of opponents cuts for the deal (4P)",
    ("partnership", "extra_boxes"): "one box per hand goes to the team that nets the hand (4P)",
}
_TABLE_NAME: Final = {"three_player": "a three-player table", "partnership": "a partnership table",
                      "hollywood": "a Hollywood table", "standard": "a standard table"}

#: When a field matters: ``{"field", "is" | "not"}`` conditions on another field. ``hard``: the
#: rules are incoherent otherwise, so a menu puts the field back to its default (the
#: :class:`Rules` default) while the condition fails; else the field simply has no effect.
#: ``menu``: a menu constraint only (the field is not "without effect" when it fails).
#: Fields are checked in :class:`Rules` order (``knock_limit`` before ``oklahoma``).
FIELD_REQUIRES: Final[dict[str, tuple[dict[str, Any], ...]]] = {
    "knock_limit": ({"field": "oklahoma", "is": False, "hard": True},),  # O-1
    "undercut_bonus": ({"field": "knock_limit", "not": 0},),  # SG: no knock, no undercut
    "undercut_on_tie": ({"field": "knock_limit", "not": 0},),
    "boxes_count_toward_target": ({"field": "box_bonus", "not": 0},),
    "extra_boxes": ({"field": "box_bonus", "not": 0},),
    "oklahoma": ({"field": "knock_limit", "is": 10, "hard": True, "menu": True},),  # O-1, SG
    "oklahoma_ace": ({"field": "oklahoma", "is": True, "hard": True},),  # O-2
    "oklahoma_spade_double": ({"field": "oklahoma", "is": True, "hard": True},),  # O-4
}
_DEFAULTS: Final = Rules().to_dict()
_ORDER: Final = [f.name for f in fields(Rules)]


def _fixed_message(scoring: str, name: str) -> str:
    value = SCORING_FIXED[scoring][name]
    shown = str(value).lower() if isinstance(value, bool) else value
    return (f"{name} is decided by {_TABLE_NAME[scoring]} itself ({_WHY[(scoring, name)]}): "
            f"leave it out (the table keeps it at {shown})")


def check_table(rules: Rules, scoring: str) -> None:
    """Reject a scoring that is unknown or cannot honour ``rules``.

    :raises RulesError: with a message naming the field and the rule behind it.
    """
    if scoring not in SCORINGS:
        raise RulesError(f"unknown scoring {scoring!r}; scorings: {', '.join(SCORINGS)}",
                         "unknown_scoring", scoring=repr(scoring), choices=list(SCORINGS))
    for name, value in SCORING_FIXED[scoring].items():
        if getattr(rules, name) != value:
            raise RulesError(_fixed_message(scoring, name), "scoring_fixed", scoring=scoring,
                             field=name, value=shown_value(value))


def fit_to_table(overrides: dict[str, Any], scoring: str) -> dict[str, Any]:
    """Rule overrides made to fit a table: the fields the scoring decides by itself
    (:data:`SCORING_FIXED`) are set to the table's values, so that any preset can be played at
    any table (``eaai``'s alternating dealer at a three-player table becomes the 3P rotation).

    :raises RulesError: ``overrides`` itself sets such a field to another value, or the scoring
        is unknown.

    >>> fit_to_table({"target": 150}, "three_player")
    {'target': 150, 'next_dealer': 'winner'}
    """
    if scoring not in SCORINGS:
        raise RulesError(f"unknown scoring {scoring!r}; scorings: {', '.join(SCORINGS)}",
                         "unknown_scoring", scoring=repr(scoring), choices=list(SCORINGS))
    out = dict(overrides)
    for name, value in SCORING_FIXED[scoring].items():
        if name in out and out[name] != value:
            raise RulesError(_fixed_message(scoring, name), "scoring_fixed", scoring=scoring,
                             field=name, value=shown_value(value))
        out[name] = value
    return out


def _holds(cond: dict[str, Any], values: dict[str, Any]) -> bool:
    v = values.get(cond["field"])
    return bool(v == cond["is"]) if "is" in cond else bool(v != cond["not"])


@functools.lru_cache(maxsize=256)
def inactive_fields(rules: Rules, scoring: str = "standard") -> tuple[str, ...]:
    """The fields that have no effect at this table (in :class:`Rules` field order)."""
    values = rules.to_dict()
    out = set(SCORING_FIXED.get(scoring, {}))
    for name, conds in FIELD_REQUIRES.items():
        if any(not c.get("menu") and not _holds(c, values) for c in conds):
            out.add(name)
    return tuple(sorted(out, key=_ORDER.index))


def constrain(values: dict[str, Any], scoring: str = "standard"
              ) -> tuple[dict[str, Any], set[str]]:
    """What a menu does with the values it shows: ``(values, disabled fields)``. A field whose
    hard condition fails, or that the scoring fixes, takes its required value and is disabled;
    a field whose other condition fails is disabled (it has no effect) and keeps its value.
    The result always makes valid :class:`Rules` that :func:`check_table` accepts, provided
    each value is in its range."""
    v = dict(values)
    off: set[str] = set()
    for name, value in SCORING_FIXED.get(scoring, {}).items():
        v[name] = value
        off.add(name)
    for name in _ORDER:
        for c in FIELD_REQUIRES.get(name, ()):
            if not _holds(c, v):
                off.add(name)
                if c.get("hard"):
                    v[name] = _DEFAULTS[name]
    return v, off
