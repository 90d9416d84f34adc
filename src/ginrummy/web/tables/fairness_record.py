"""The fairness record of a table (``GET /api/games/{id}/record``, docs/fairness.md and
docs/variants.md): every finished deal with its deck, salt, commitment and actions; only the
commitment of a deal in play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...fairness import FORMAT
from .engine import DealInfo, TableEngine, keeps_standard_shape

__all__ = ["fairness_record"]


def fairness_record(engine: TableEngine, game_id: str, preset: str, first_dealer: int,
                    infos: Sequence[DealInfo], decks: Sequence[list[str]]) -> dict[str, Any]:
    """The record: ``hands`` (finished deals in full: who sat at the deal's engine seats, its
    dealer seat, deck, salt, commitment, actions and result) and ``current`` (the deals in
    play, commitment only: an object, or ``None``, at a standard table; a list, or ``None``,
    at the other tables, where two deals may be in play)."""
    g = engine.game
    hands = []
    current = []
    for i, h in enumerate(g.deals):
        s = g.seatings[i]
        info = infos[i]
        base = {"number": s.number, "hand": s.hand, "table": s.table,
                "players": list(s.players), "dealer": h.dealer,
                "commitment": info.commitment}
        if not h.is_over:
            current.append(base)
            continue
        o = h.outcome
        assert o is not None
        hands.append({**base, "deck": decks[i], "salt": info.salt,
                      "actions": [e.action.text for e in h.history],
                      "result": {"kind": o.kind, "winner": o.winner, "points": o.points,
                                 "winner_player": g.winner_of(i)}})
    out: dict[str, Any] = {"format": FORMAT, "game_id": game_id, "scoring": g.scoring,
                           "rules": {"preset": preset, **g.rules.to_dict()},
                           "first_dealer": first_dealer, "hands": hands}
    if keeps_standard_shape(g.scoring):
        out["current"] = current[0] if current else None
    else:
        out["current"] = current or None
    return out
