"""What ``GET /api/meta`` tells the new-game menu about the forms of the game
(docs/variants.md): the scorings with their players and the fields each fixes, and when each
rules field matters."""

from __future__ import annotations

from typing import Any

from ..rules import Rules
from ..variants import FIELD_REQUIRES, PLAYER_COUNT, SCORING_FIXED, SCORING_PRESET, SCORINGS

__all__ = ["menu_meta"]


def menu_meta() -> dict[str, Any]:
    """What ``GET /api/meta`` adds for the new-game menu: the scorings (with the players of
    each and the fields each fixes) and when each field matters
    (:data:`ginrummy.variants.FIELD_REQUIRES`; the page applies them as
    :func:`ginrummy.variants.constrain` does)."""
    return {
        "scorings": [{"name": s, "players": PLAYER_COUNT[s], "fixed": dict(SCORING_FIXED[s]),
                      **({"preset": SCORING_PRESET[s]} if s in SCORING_PRESET else {})}
                     for s in SCORINGS],
        "requires": {k: [dict(c) for c in v] for k, v in FIELD_REQUIRES.items()},
        "defaults": Rules().to_dict(),
    }
