"""The players' ratings a review values its chances of winning with (issue 20, docs/review.md
"Who is playing").

The evaluator values the deals after the one reviewed as won in proportion to the players'
strengths when it is given their ratings (:func:`ginrummy.bots.review.read_record`); without
them, as even. On the web it is given them for a two-player game against the computer: the
level's measured rating (``bots/ratings.json``) and the person's own rating just before that
game (:func:`~ginrummy.web.tables.rating_stats.rating_before`, 1500 before their first rated
game). A table of people gets none: a person's rating is shown to that person alone (docs/api.md
"Statistics"), and a chance valued with the other person's rating would show it. The other
forms get none either (the evaluator values them as even).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from ...bots.strength import level_ratings
from ..tables.rating_stats import rating_before
from ..tables.stored import Seated

__all__ = ["review_ratings"]


def review_ratings(engine: Engine, game_id: str, seated: Seated, record: dict[str, Any]
                   ) -> tuple[float | None, ...] | None:
    """``(seat 0's rating, seat 1's)`` of a two-player game of a person against a computer
    level that has a measured rating (points, the levels' Elo scale); None otherwise (another
    form, a table of people, a level without a rating)."""
    if (record.get("scoring") or "standard") != "standard":
        return None
    seats = seated.table.seats
    if len(seats) != 2:
        return None
    computers = [s for s in seats if s.kind == "computer"]
    if len(computers) != 1:
        return None
    levels = level_ratings()
    fitted = levels.get(computers[0].level or "")
    if fitted is None:
        return None
    (person,) = (s for s in seats if s.kind != "computer")
    player_id = person.player_id
    if player_id is None and person.seat == seated.table.creator_seat:
        player_id = seated.row.player_id
    out: list[float | None] = [None, None]
    out[computers[0].seat] = fitted.rating
    out[person.seat] = rating_before(engine, player_id, game_id, levels)
    return tuple(out)
