"""Bot levels by name."""

from __future__ import annotations

from collections.abc import Callable

from .base import Bot
from .random_bot import RandomBot

_FACTORIES: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
}
#: levels offered to people, weakest first.
LEVELS: list[str] = ["random"]
DEFAULT_LEVEL = "random"
ALL_PLAYERS: list[str] = list(_FACTORIES)


def make_bot(name: str) -> Bot:
    """A new player of the named level. :raises ValueError: unknown name."""
    try:
        return _FACTORIES[name]()
    except KeyError:
        raise ValueError(f"unknown computer player {name!r}; known: {', '.join(_FACTORIES)}") \
            from None
