"""``ginrummy.web.tables.rating_stats.rate_group`` (pure): the order of the games, both people
moving, opponents outside the group, levels without a rating, a browser on both seats."""

from __future__ import annotations

from ginrummy.rating import NEW_PLAYER, FittedRating, Glicko, glicko2_update
from ginrummy.store.rated import RatedGame, Side
from ginrummy.web.tables.rating_stats import rate_group

LEVELS = {"hard": FittedRating("hard", 1580.0, 19.0)}
HARD = Glicko(1580.0, 19.0)


def game(n: int, a: Side, b: Side, winner: int) -> RatedGame:
    return RatedGame(f"g{n}", float(n), (a, b), winner)


A, B, C = Side("a"), Side("b"), Side("c")
CPU = Side(level="hard")


def test_a_chain_of_people_in_finish_order() -> None:
    # b beats the computer, then a beats b, then c (outside the group) beats a
    played = [game(1, B, CPU, 0), game(2, A, B, 0), game(3, C, A, 0)]
    b1 = glicko2_update(NEW_PLAYER, [(HARD, 1.0)])
    a2 = glicko2_update(NEW_PLAYER, [(b1, 1.0)])  # b's rating after game 1, not a new player's
    a3 = glicko2_update(a2, [(NEW_PLAYER, 0.0)])  # c is outside the group: a new player
    rating, hist = rate_group(played, {"a", "b"}, LEVELS, "a")
    assert rating == a3
    assert [(h["game_id"], h["opponent"], h["won"]) for h in hist] == [("g2", None, True),
                                                                      ("g3", None, False)]
    assert hist[-1]["rating"] == round(a3.rating, 1) and hist[-1]["rd"] == round(a3.rd, 1)
    # b moved in game 2 too
    rb, hb = rate_group(played, {"a", "b"}, LEVELS, "b")
    assert rb == glicko2_update(b1, [(NEW_PLAYER, 0.0)])
    assert [h["won"] for h in hb] == [True, False]


def test_not_rated() -> None:
    played = [game(1, A, Side(level="medium"), 0),  # no measured rating for medium
              game(2, A, A, 1),  # the same browser on both seats
              game(3, Side(None), A, 0)]  # a seat whose browser is unknown: a new player
    rating, hist = rate_group(played, {"a"}, LEVELS, "a")
    assert [h["game_id"] for h in hist] == ["g3"]
    assert rating == glicko2_update(NEW_PLAYER, [(NEW_PLAYER, 0.0)])


def test_a_browser_without_games() -> None:
    assert rate_group([], {"a"}, LEVELS, "a") == (NEW_PLAYER, [])
