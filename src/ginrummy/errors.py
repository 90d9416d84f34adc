"""Errors raised by the engine: one base class, one subclass per kind of bad input."""

from __future__ import annotations

__all__ = ["GinRummyError", "InvalidNotationError", "IllegalActionError", "RulesError"]


class GinRummyError(ValueError):
    """Base class of every error the engine raises on bad input."""


class InvalidNotationError(GinRummyError):
    """A card, card list or action text that cannot be parsed (unknown rank or suit, duplicate
    card, wrong number of cards)."""


class IllegalActionError(GinRummyError):
    """An action that the rules forbid in the current state; the message gives the reason."""


class RulesError(GinRummyError):
    """A `Rules` value that is out of range, of the wrong type, or incoherent with another."""
