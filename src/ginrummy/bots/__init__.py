"""Computer players. Every bot decides from its own :class:`~ginrummy.views.PlayerView` only.

``make_bot(level)`` builds a player by level name; ``LEVELS`` lists the levels offered to people,
weakest first, and ``ALL_PLAYERS`` every name (``random`` and ``simple`` included).
"""

from __future__ import annotations

from .base import Bot, Context
from .registry import ALL_PLAYERS, DEFAULT_LEVEL, LEVELS, make_bot

__all__ = ["Bot", "Context", "make_bot", "LEVELS", "ALL_PLAYERS", "DEFAULT_LEVEL"]
