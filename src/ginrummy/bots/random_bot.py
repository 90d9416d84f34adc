"""``random``: a uniformly random legal action (a baseline, not a level offered to people)."""

from __future__ import annotations

from ..actions import Action
from ..views import PlayerView
from .base import Context


class RandomBot:
    name = "random"

    def choose(self, view: PlayerView, ctx: Context) -> Action:
        if not view.legal:
            raise ValueError("not this seat's turn")
        return ctx.rng.choice(view.legal)
