"""The computer-player protocol."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from ..actions import Action
from ..views import PlayerView

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Bot", "Context"]


@dataclass
class Context:
    """What a bot may know besides its view: its random source and the game score.

    :ivar rng: the bot's own random generator (seeded by the caller for reproducibility).
    :ivar hand_points: hand points so far, indexed by seat (``None`` outside a game).
    :ivar target: the game's target in points.
    :ivar value: what the deal's result is worth in the form played (Hollywood, three players,
        partnership): maps an int array of signed points for the seat (``+k``: it scores
        ``k``; ``-k``: its opponent does; 0: nobody) to its chance of winning the game
        (Hollywood: the match), an array of the same shape; ``None``: the two-player game to
        ``target`` from ``hand_points`` (:mod:`ginrummy.bots.stakes`). The one bot loop's
        value also names its form (``value.scoring``).
    """

    rng: random.Random = field(default_factory=lambda: random.Random(0))
    hand_points: tuple[int, int] | None = None
    target: int = 100
    value: Callable[[np.ndarray], np.ndarray] | None = None


class Bot(Protocol):
    """A computer player: picks one of ``view.legal`` from ``view`` and ``ctx`` only."""

    name: str

    def choose(self, view: PlayerView, ctx: Context) -> Action:
        """One legal action for the view's seat. :raises ValueError: if it is not to act."""
        ...
