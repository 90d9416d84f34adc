"""Bot levels by name.

``LEVELS`` are the levels offered to people, weakest first; ``ALL_PLAYERS`` every name, the
``random`` and ``simple`` baselines and the ``marjj`` reference opponent included (``marjj`` is
not offered at the table: see benchmarks/results/bots-2026-12-01.md for where it sits).
``DEFAULT_LEVEL`` is what the web game uses unless the player picks another: strong, yet
every decision takes a few milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .heuristic import EasyBot, HardBot, MediumBot
from .random_bot import RandomBot
from .simple import SimpleBot


def _expert() -> Bot:
    from .expert import ExpertBot  # imports the compiled rollout kernel lazily

    return ExpertBot()


def _marjj() -> Bot:
    from .marjj import MarjjBot

    return MarjjBot()


_FACTORIES: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "simple": SimpleBot,
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
    "expert": _expert,
    "marjj": _marjj,
}
#: levels offered to people, weakest first.
LEVELS: list[str] = ["easy", "medium", "hard", "expert"]
DEFAULT_LEVEL = "hard"
ALL_PLAYERS: list[str] = list(_FACTORIES)


def make_bot(name: str) -> Bot:
    """A new player of the named level. :raises ValueError: unknown name."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown computer player {name!r}; known: {', '.join(_FACTORIES)}") \
            from None
    return factory()
