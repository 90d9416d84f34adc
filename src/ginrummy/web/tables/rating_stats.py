"""A person's rating (``"rating"`` of ``GET /api/stats``, docs/api.md): Glicko-2 over the
browser's finished games, computed from the store whenever it is asked, like the statistics.

No accounts and no leaderboard: a person is a browser (its ``ginrummy_player`` id), and its
rating is shown only to it. Rated games: :mod:`ginrummy.store.rated` (standard two-player games
that finished with a winner). Each game is one Glicko-2 rating period
(:func:`ginrummy.rating.glicko2_update`), from 1500 with a deviation of 350:

* against the computer, the level is an opponent whose rating is held fixed: its measured rating
  with its standard error as deviation (:mod:`ginrummy.bots.strength`); a game against a level
  that has no measured rating is not rated;
* at a table of people both move: each person's rating is updated from the other's rating just
  before the game. So a person's rating depends on the ratings of the people they played, and
  theirs on their own opponents: the ratings of the group of people linked by games at tables
  (up to :data:`GROUP_CAP` people, found breadth first from the browser) are replayed together,
  game by game in the order the games finished. An opponent beyond the cap, or a seat whose
  browser is unknown, counts as a new player (1500, deviation 350) and is not updated.

The suggested level is the offered level whose rating is nearest the person's (none before the
first rated game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Engine

from ...bots.strength import as_opponent
from ...rating import NEW_PLAYER, FittedRating, Glicko, glicko2_update, nearest_level
from ...store import RatedGame, rated_games

__all__ = ["person_rating", "rating_before", "rate_group", "GROUP_CAP", "HISTORY_KEPT"]

#: the most people whose games are replayed together for one browser's rating.
GROUP_CAP = 64
#: the most recent games whose rating the answer lists (the rating itself counts them all).
HISTORY_KEPT = 500


def _r1(x: float) -> float:
    return round(x, 1)


def rate_group(played: Sequence[RatedGame], group: set[str],
               levels: Mapping[str, FittedRating], person: str
               ) -> tuple[Glicko, list[dict[str, Any]]]:
    """Replay ``played`` (oldest first) for the people of ``group``; pure.

    :returns: ``person``'s rating after the last game and its history: one
        ``{"game_id", "finished_at", "opponent": level name or None (a person), "won",
        "rating", "rd"}`` per rated game of ``person``, oldest first.
    """
    now: dict[str, Glicko] = {}
    history: list[dict[str, Any]] = []
    for g in played:
        before: list[Glicko | None] = []
        for side in g.sides:
            if side.computer:
                fitted = levels.get(side.level or "")
                before.append(None if fitted is None else as_opponent(fitted))
            elif side.player_id in group:
                before.append(now.get(side.player_id, NEW_PLAYER))
            else:
                before.append(NEW_PLAYER)
        if None in before:
            continue  # a level without a measured rating: not rated
        for i, side in enumerate(g.sides):
            pid = side.player_id
            if side.computer or pid not in group:
                continue
            opp = g.sides[1 - i]
            if not opp.computer and opp.player_id == pid:
                continue  # both seats the same browser: no result
            mine, theirs = before[i], before[1 - i]
            assert mine is not None and theirs is not None
            after = glicko2_update(mine, [(theirs, 1.0 if g.winner == i else 0.0)])
            now[pid] = after
            if pid == person:
                history.append({"game_id": g.game_id, "finished_at": g.finished_at,
                                "opponent": opp.level if opp.computer else None,
                                "won": g.winner == i, "rating": _r1(after.rating),
                                "rd": _r1(after.rd)})
    return now.get(person, NEW_PLAYER), history


def _replayed(engine: Engine, player_id: str | None, levels: Mapping[str, FittedRating]
              ) -> tuple[Glicko, list[dict[str, Any]]]:
    """:func:`rate_group` over the rated games of ``player_id``'s group (module docstring)."""
    group: set[str] = set()
    played: dict[str, RatedGame] = {}
    if player_id:
        group.add(player_id)
        frontier = [player_id]
        while frontier:
            found = rated_games(engine, frontier)
            frontier = []
            for g in found:
                played[g.game_id] = g
                for side in g.sides:
                    pid = side.player_id
                    if pid and not side.computer and pid not in group and \
                            len(group) < GROUP_CAP:
                        group.add(pid)
                        frontier.append(pid)
    games = sorted(played.values(), key=lambda g: (g.finished_at, g.game_id))
    return rate_group(games, group, levels, player_id or "")


def rating_before(engine: Engine, player_id: str | None, game_id: str,
                  levels: Mapping[str, FittedRating]) -> float:
    """The browser's rating (points) just before its rated game ``game_id``: after its rated
    games that finished before it, 1500 (a new player) before the first; its rating now when
    ``game_id`` is not one of its rated games (e.g. not a two-player game)."""
    rating, history = _replayed(engine, player_id, levels)
    for i, h in enumerate(history):
        if h["game_id"] == game_id:
            return float(history[i - 1]["rating"]) if i else NEW_PLAYER.rating
    return rating.rating


def person_rating(engine: Engine, player_id: str | None, levels: Mapping[str, FittedRating],
                  offered: Sequence[str]) -> dict[str, Any]:
    """The browser's rating for the statistics (docs/api.md "Statistics", ``rating``).

    :param levels: the computer players' measured ratings, by name.
    :param offered: the levels offered at the table, weakest first (for the suggestion).
    :returns: ``{"rating", "rd", "low", "high"`` (points; low/high: the 95% interval),
        ``"volatility", "games"`` (rated games), ``"history"`` (the last
        :data:`HISTORY_KEPT` of :func:`rate_group`'s, each with ``"game"``: its number from 1),
        ``"suggested_level"`` (a name, or null before a rated game), ``"levels"`` (``{name:
        rating}`` of the offered levels that have one)}``.
    """
    rating, history = _replayed(engine, player_id, levels)
    for n, h in enumerate(history, 1):
        h["game"] = n
    shown = {name: levels[name].rating for name in offered if name in levels}
    low, high = rating.interval
    return {
        "rating": _r1(rating.rating), "rd": _r1(rating.rd), "low": _r1(low), "high": _r1(high),
        "volatility": round(rating.volatility, 5), "games": len(history),
        "history": history[-HISTORY_KEPT:],
        "suggested_level": nearest_level(rating.rating, shown) if history and shown else None,
        "levels": {k: _r1(v) for k, v in shown.items()},
    }
