"""Errors raised by the engine: one base class, one subclass per kind of bad input.

An error may carry a *reason*: a stable code and its parameters (``reason``, ``params``), from
which an outer layer words the error in the person's language (issue 13; the texts are the web
catalogs' ``err.<code>`` keys, docs/api.md "Reasons"). :data:`REASONS` lists every code with the
names of its parameters; an error built with a code not listed there, or with other parameters,
is a programming error (:class:`ValueError`).
"""

from __future__ import annotations

import json
from typing import Any, Final

__all__ = ["GinRummyError", "InvalidNotationError", "IllegalActionError", "RulesError",
           "REASONS", "PLACE_PARAMS", "check_reason", "shown_value"]

#: every reason code -> the names of its parameters (docs/api.md "Reasons" documents each)
REASONS: Final[dict[str, tuple[str, ...]]] = {
    # cards and actions written as text
    "not_a_card": ("text",),
    "duplicate_card": ("card",),
    "card_count": ("expected", "got"),
    "unknown_action": ("text",),
    "spread_only_knock": (),
    "one_card_action": ("action",),
    "not_a_meld": ("cards",),
    "meld_not_held": ("cards",),
    "meld_shared": ("cards",),
    "cards_in_both": ("cards",),
    "knocker_card_count": ("expected", "got"),
    "defender_card_count": ("got",),
    # the rules of play (R-x)
    "hand_over": (),
    "offer_take_or_pass": (),
    "fiftieth_take_or_pass": (),
    "fiftieth_no_gain": (),
    "stock_after_passes": (),
    "draw_first": (),
    "already_drew": (),
    "big_gin_off": (),
    "not_big_gin": ("deadwood",),
    "not_in_hand": ("card",),
    "taken_card": ("card",),
    "must_knock": (),
    "not_gin": ("deadwood", "card"),
    "no_knocking": (),
    "gin_only": (),
    "over_knock_limit": ("deadwood", "limit"),
    "game_over": (),
    "hand_not_over": (),
    "not_your_turn": (),
    "sitting_out": (),
    "waiting": (),
    "resign_people": (),  # POST .../resign at a table of people (docs/api.md "Resigning")
    # rules choices
    "rules_choice": ("field", "choices", "value"),
    "rules_whole": ("field", "value"),
    "rules_range": ("field", "min", "max", "value"),
    "rules_bool": ("field", "value"),
    "oklahoma_straight": (),
    "oklahoma_limit": (),
    "oklahoma_ace_off": (),
    "oklahoma_spade_off": (),
    "unknown_preset": ("preset", "choices"),
    "unknown_field": ("field",),
    "rules_shape": (),
    "target_cap": ("max", "value"),
    "unknown_scoring": ("scoring", "choices"),
    "scoring_fixed": ("scoring", "field", "value"),
    # the score keeper's sheets
    "sheet_object": (),
    "sheet_number": ("field", "max", "value"),
    "sheet_player": ("field", "names", "value"),
    "sheet_sat_out": ("field", "name"),
    "sheet_kind": ("field",),
    "sheet_entry": (),
    "sheet_defender": (),
    "sheet_not_gin": ("deadwood",),
    "sheet_gin_deadwood": ("deadwood",),
    "not_undercut": (),
    "sheet_over": (),
    "sheet_tables": (),
    "sheet_players": ("n", "scoring"),
    "sheet_hands": (),
    "sheet_first_dealer": ("names",),
    "sheet_full": ("max",),
    "sheet_upcard": (),
    "nothing_to_undo": (),
    # the web service (ginrummy.web)
    "unknown_level": ("level", "choices"),
    "name_text": (),
    "name_empty": (),
    "name_long": ("max",),
    "name_control": ("char",),
    "name_invisible": (),
    "name_needed": (),
    "seat_count": ("n",),
    "seat_kind": ("seat",),
    "seat_creator": (),
    "turn_clock": ("min", "max"),
    "no_seat": ("seat",),
    "seat_taken": ("seat",),
    "name_taken": ("name",),
    "name_reserved": ("name",),
    "table_full": (),
    "table_started": (),
    "seats_changed": (),
    "seat_own_person": (),
    "seat_person": ("seat",),
    "seat_not_away": ("seat",),
    "seat_only_computer": (),
    "no_seats_to_share": (),
    "not_creator": (),
    "seats_open": (),
    "creator_leaves": (),
    "rematch_not_over": (),
    "quick_message": ("choices",),
    "not_started": (),
    "order_not_held": ("cards",),
    "no_game": (),
    "no_sheet": (),
    "no_hand": ("number",),
    "hand_in_play": ("number",),
    "review_game_in_play": (),
    "review_hand_in_play": ("number",),
    "review_busy": ("seconds",),
    "review_failed": (),
    "no_decision": ("step",),
    "no_translations": ("lang",),
    "no_page": (),
    "method_not_allowed": (),
    "stale": (),
    "sheet_stale": (),
    "too_large": ("limit",),
    "headers_too_large": ("limit",),
    "not_utf8": ("byte",),
    "body_unreadable": (),
    "body_invalid": ("fields",),
    "too_many_requests": ("seconds",),
    "too_many_games": ("seconds",),
    "too_many_sheets": ("seconds",),
    "too_many_messages": ("seconds",),
    "too_many_joins": ("seconds",),
    "too_many_streams": ("seconds",),
    "unavailable": ("seconds",),
    "internal": (),
    "other": ("text",),
}

#: parameters any reason may carry besides its own: where in a score sheet it happened
PLACE_PARAMS: Final = ("hand", "table")


def shown_value(value: object) -> str:
    """``value`` as text for a reason's parameters: text as it is, anything else as JSON (else
    its repr), at most 60 characters."""
    if isinstance(value, str):
        out = value
    else:
        try:
            out = json.dumps(value, ensure_ascii=False)
        except (TypeError, ValueError):
            out = repr(value)
    return out if len(out) <= 60 else out[:59] + "…"


def check_reason(reason: str, params: dict[str, Any]) -> None:
    """:raises ValueError: ``reason`` is not in :data:`REASONS`, or ``params`` are not exactly
    its parameters (plus any of :data:`PLACE_PARAMS`)."""
    want = REASONS.get(reason)
    if want is None:
        raise ValueError(f"unknown reason code {reason!r}")
    got = set(params) - set(PLACE_PARAMS)
    if got != set(want):
        raise ValueError(f"reason {reason!r} takes {sorted(want)}, not {sorted(got)}")


class GinRummyError(ValueError):
    """Base class of every error the engine raises on bad input.

    ``message``: the English text (logs, the command line); ``reason`` and ``params``: the same
    as a code of :data:`REASONS` and its parameters (``reason`` None: none given)."""

    def __init__(self, message: str = "", reason: str | None = None, **params: Any) -> None:
        super().__init__(message)
        if reason is not None:
            check_reason(reason, params)
        self.reason = reason
        self.params = params

    def __reduce__(self) -> Any:  # pickled with its reason (process pools)
        return (_rebuild, (type(self), str(self), self.reason, self.params))


def _rebuild(cls: type[GinRummyError], message: str, reason: str | None,
             params: dict[str, Any]) -> GinRummyError:
    return cls(message, reason, **params)


class InvalidNotationError(GinRummyError):
    """A card, card list or action text that cannot be parsed (unknown rank or suit, duplicate
    card, wrong number of cards)."""


class IllegalActionError(GinRummyError):
    """An action that the rules forbid in the current state; the message gives the reason."""


class RulesError(GinRummyError):
    """A `Rules` value that is out of range, of the wrong type, or incoherent with another."""
