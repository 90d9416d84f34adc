"""Chance fixed for a web or browser test: the server's decks, dealers, partnership cuts and game
secrets (which seed the computers' moves) drawn from one seeded source, so that a test's games
play out the same every run. Ids and tokens stay random (they must not repeat across tests).

``fix_chance(monkeypatch, seed)`` patches the table service's module (wherever the server's
layout puts it) for the test's duration; the seed is in every failure message of the tests
that use it, and replays the games (every web test has its own, from its name:
tests/web/conftest.py). A server in another process (``ginrummy serve``) takes its
chance the same way through the test-only launcher ``fixed_serve.py`` (:func:`install` with a
source the test reseeds).
"""

from __future__ import annotations

import importlib
import random
import secrets
from collections.abc import Callable
from typing import Any, Protocol

import pytest

#: the modules that deal and seat (the table service and the seats' operations), old and new
#: layouts of ginrummy.web
SERVICE_MODULES = ("ginrummy.web.service", "ginrummy.web.tables.service",
                   "ginrummy.web.seating", "ginrummy.web.tables.seats")


class Source(Protocol):
    """What the server's chance is drawn from: a ``random.Random`` (or one reseeded now and
    then, as the launcher's)."""

    def shuffle(self, x: list[Any]) -> None: ...

    def randrange(self, n: int) -> int: ...

    def randbytes(self, n: int) -> bytes: ...


class _Secrets:
    """``secrets`` as the service uses it, its numbers from ``rng`` (its ids and tokens not)."""

    def __init__(self, rng: Source) -> None:
        self._rng = rng

    def randbelow(self, n: int) -> int:
        return self._rng.randrange(n)

    def token_hex(self, nbytes: int | None = None) -> str:
        return self._rng.randbytes(nbytes or 32).hex()

    token_urlsafe = staticmethod(secrets.token_urlsafe)
    token_bytes = staticmethod(secrets.token_bytes)


def install(setattr_: Callable[[Any, str, Any], None], rng: Source) -> None:
    """Every deck, dealer, cut and game secret of the server in this process from ``rng``,
    each patch made by ``setattr_(module, name, value)``.

    :raises AssertionError: none of :data:`SERVICE_MODULES` is importable."""

    def deck() -> list[int]:
        cards = list(range(52))
        rng.shuffle(cards)
        return cards

    patched = 0
    for name in SERVICE_MODULES:
        try:
            mod: Any = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(mod, "shuffled_deck"):
            setattr_(mod, "shuffled_deck", deck)
        if hasattr(mod, "secrets"):
            setattr_(mod, "secrets", _Secrets(rng))
        patched += 1
    assert patched, f"none of {SERVICE_MODULES} is importable"


def fix_chance(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Every deck, dealer, cut and game secret of the server from ``random.Random(seed)``."""
    install(monkeypatch.setattr, random.Random(seed))


def seed_of(name: str) -> int:
    """A test's seed from its name (``request.node.nodeid``): the same on every run and
    machine (not Python's salted ``hash``)."""
    import hashlib

    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big")
