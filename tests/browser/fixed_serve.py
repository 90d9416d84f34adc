"""Test only: ``ginrummy serve`` whose chance a browser test fixes from outside the process, and
whose presence times it may shorten. Run as ``python fixed_serve.py --chance FILE [--away S]
[--hand-over S] -- serve --port ...`` (tests/browser/two_servers.py does).

The decks, dealers, partnership cuts and game secrets of this process come from
``random.Random(seed)``, the seed being the first word of ``FILE``; the process reseeds when the
file changes (a test writes a new seed, or the same one again with a new second word), so each
test of a module-scoped server starts its games from its own seed, as ``chance.fix_chance``
does in the test's process. Until the file exists chance is the system's (the seat leases'
holder id, drawn when the app is made, must differ between processes).

Nothing here is part of the package: the server itself has no switch that fixes its decks, and
the seed never leaves the test that chose it.
"""

from __future__ import annotations

import argparse
import random
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["SeedFile", "main"]


class SeedFile:
    """A ``random.Random`` (:class:`chance.Source`) reseeded from ``path`` whenever its text
    changes: ``"SEED [ANYTHING]"``; a missing or empty file: the system's randomness.

    :raises ValueError: the file's first word is not an integer (at the next draw)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._text: str | None = None
        self._rng: random.Random = random.SystemRandom()

    def _current(self) -> random.Random:
        try:
            text = self.path.read_text()
        except FileNotFoundError:
            text = ""
        if text != self._text:
            self._text = text
            words = text.split()
            self._rng = random.Random(int(words[0])) if words else random.SystemRandom()
        return self._rng

    def shuffle(self, x: list[Any]) -> None:
        with self._lock:
            self._current().shuffle(x)

    def randrange(self, n: int) -> int:
        with self._lock:
            return self._current().randrange(n)

    def randbytes(self, n: int) -> bytes:
        with self._lock:
            return self._current().randbytes(n)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chance", type=Path, required=True, help="the seed's file")
    parser.add_argument("--away", type=float, help="seat_state.AWAY_AFTER (seconds)")
    parser.add_argument("--hand-over", type=float, help="seat_state.HAND_OVER_AFTER (seconds)")
    parser.add_argument("serve", nargs=argparse.REMAINDER, help="-- then the ginrummy command")
    args = parser.parse_args(argv)
    command = args.serve[1:] if args.serve[:1] == ["--"] else args.serve
    if command[:1] != ["serve"]:
        parser.error("give -- serve OPTIONS")

    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests/: chance.py
    from chance import install
    from ginrummy.cli import main as ginrummy
    from ginrummy.web.tables import seat_state

    install(setattr, SeedFile(args.chance))
    if args.away is not None:
        seat_state.AWAY_AFTER = args.away
    if args.hand_over is not None:
        seat_state.HAND_OVER_AFTER = args.hand_over
    ginrummy(command)


if __name__ == "__main__":
    main()
