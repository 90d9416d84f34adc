"""``GET /api/stats`` (docs/api.md "Statistics"; issue 13, item 9): the win rate, the current
and longest streaks, the results by difficulty and by variant, resigned games counted as lost;
:func:`ginrummy.web.tables.stats.player_stats` unit by unit, then through the API."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from web_helpers import Table, choose

from ginrummy.web.tables.stats import PlayedGame, summary, variant_of


def row(i: int, status: str, winner: int | None, level: str | None = "hard",
        preset: str = "standard", margin: int | None = None) -> PlayedGame:
    return PlayedGame(status, status == "over" and winner == 0, margin, float(i),
                      float(i) if status in ("over", "resigned") else None, f"game{i:04d}",
                      level, preset)


def test_empty() -> None:
    s = summary([], [], {})
    assert s["games_played"] == 0 and s["win_rate"] is None
    assert s["current_streak"] == {"kind": None, "length": 0} and s["longest_streak"] == 0
    assert s["by_level"] == {} and s["by_variant"] == {}


def test_win_rate_streaks_and_groups() -> None:
    games = [row(1, "over", 0, "easy", margin=120), row(2, "over", 0, "easy", margin=300),
             row(3, "over", 0, "hard", "oklahoma"), row(4, "over", 1, "hard"),
             row(5, "resigned", None, "expert"), row(6, "playing", None),
             row(7, "waiting", None), row(8, "over", 1, "hard", "hollywood"),
             row(9, "over", 1, None)]  # a table of people joined: no computer level
    s = summary(games, [], {"game0008": "hollywood"})
    assert (s["games_played"], s["games_won"], s["games_lost"]) == (7, 3, 4)
    assert s["win_rate"] == round(3 / 7, 4) and s["games_resigned"] == 1
    assert s["games_in_progress"] == 1
    # the last four finished games were lost (a loss, a resignation, two losses)
    assert s["current_streak"] == {"kind": "lost", "length": 4}
    assert s["longest_streak"] == 3 and s["best_margin"] == 300
    assert s["by_level"] == {
        "hard": {"played": 3, "won": 1, "lost": 2, "win_rate": 0.3333},
        "easy": {"played": 2, "won": 2, "lost": 0, "win_rate": 1.0},
        "expert": {"played": 1, "won": 0, "lost": 1, "win_rate": 0.0}}
    assert list(s["by_level"]) == ["hard", "easy", "expert"]  # most played first
    assert s["by_variant"] == {
        "standard": {"played": 5, "won": 2, "lost": 3, "win_rate": 0.4},
        "hollywood": {"played": 1, "won": 0, "lost": 1, "win_rate": 0.0},
        "oklahoma": {"played": 1, "won": 1, "lost": 0, "win_rate": 1.0}}


def test_a_win_after_losses_is_one_won_in_a_row() -> None:
    games = [row(1, "over", 1), row(2, "resigned", None), row(3, "over", 0)]
    s = summary(games, [], {})
    assert s["current_streak"] == {"kind": "won", "length": 1} and s["longest_streak"] == 1


def test_variant_of() -> None:
    assert variant_of("oklahoma", None) == "oklahoma"
    assert variant_of("oklahoma", "standard") == "oklahoma"
    assert variant_of("oklahoma", "three_player") == "three_player"


def _finish(t: Table, rng: random.Random) -> dict[str, Any]:
    for _ in range(400):
        if t.state["phase"] == "game-over":
            return t.state
        t.act(choose(t.state, rng))
    raise AssertionError("a game to 1 point did not end in 400 moves")


def test_stats_api_by_level_and_variant(client: TestClient,
                                        new_table: Callable[..., Table]) -> None:
    rng = random.Random(9)
    played = [("easy", "standard"), ("easy", "oklahoma"), ("hard", "standard")]
    winners = []
    for level, preset in played:
        t = new_table({"level": level, "preset": preset, "rules": {"target": 1}})
        winners.append(_finish(t, rng)["score"]["final"]["winner"])
    new_table({"level": "easy"})  # in progress
    s = client.get("/api/stats").json()
    won = winners.count(0)
    assert (s["games_played"], s["games_won"], s["games_in_progress"]) == (3, won, 1)
    assert s["win_rate"] == round(won / 3, 4)
    assert s["by_level"]["easy"]["played"] == 2 and s["by_level"]["hard"]["played"] == 1
    assert s["by_level"]["easy"]["won"] == winners[:2].count(0)
    assert s["by_variant"]["standard"]["played"] == 2
    assert s["by_variant"]["oklahoma"] == {
        "played": 1, "won": int(winners[1] == 0), "lost": int(winners[1] != 0),
        "win_rate": float(winners[1] == 0)}
    last = "won" if winners[-1] == 0 else "lost"
    assert s["current_streak"]["kind"] == last and s["current_streak"]["length"] >= 1
