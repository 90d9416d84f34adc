"""Computer players. Every bot decides from its own :class:`~ginrummy.views.PlayerView` only.

``make_bot(level)`` builds a player by level name; ``LEVELS`` lists the levels offered to people,
weakest first, and ``ALL_PLAYERS`` every name (``random`` and ``simple`` included).
:func:`warmup` prepares the ``expert`` level (compiles or loads its rollout kernel, precomputes
its game-value tables): call it once when a server starts, so no player waits for it.
"""

from __future__ import annotations

from .base import Bot, Context
from .registry import ALL_PLAYERS, DEFAULT_LEVEL, LEVELS, make_bot

__all__ = ["Bot", "Context", "make_bot", "LEVELS", "ALL_PLAYERS", "DEFAULT_LEVEL", "warmup"]


def warmup() -> float:
    """Compile (or load from numba's on-disk cache) the expert's kernel and build its game-value
    tables for every rules preset, and the Hollywood match model
    (:mod:`~ginrummy.bots.match_sim`). Returns the seconds spent (about 1-2 s with a warm
    cache; the first compile on a machine takes 10-30 s)."""
    import time

    from ..rules import PRESETS
    from .kernel import warmup as kernel_warmup
    from .stakes import prepare
    from .value import win_table

    t0 = time.perf_counter()
    kernel_warmup()
    for rules in PRESETS.values():
        win_table(rules)
    prepare(PRESETS["standard"], "hollywood")  # compiles (or loads) the match's play-out
    return time.perf_counter() - t0
