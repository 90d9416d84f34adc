"""The statistics dialog (issue 13, item 9): the streak reads "Current streak: 1 won (lost) in a
row", the win rate shows, and the results by difficulty and by variant are tables."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import LiveServer, new_game, play_until

pytestmark = pytest.mark.browser


def stat_row(page: Any, key: str) -> str:
    return str(page.locator(f"#stats-body tr[data-key={key}] td").inner_text())


def test_stats_after_a_game(page: Any, server: LiveServer) -> None:
    new_game(page, server.base, target=1, level="easy")
    assert play_until(page, ("game-over",), finish=True) == "game-over"
    won = page.locator("#result-h").inner_text().startswith("You won the game")
    page.click("#btn-stats")
    page.wait_for_selector("#stats-body tr[data-key=current_streak]")
    label = page.locator("#stats-body tr[data-key=current_streak] th").inner_text()
    assert label == "Current streak"
    assert stat_row(page, "current_streak") == ("1 won in a row" if won else "1 lost in a row")
    assert stat_row(page, "win_rate") == ("100%" if won else "0%")
    assert page.locator("#stats-body tr[data-key=win_rate] th").inner_text() == "Games won (%)"
    by_level = page.get_by_test_id("stats-by_level")
    cells = by_level.locator("tbody tr[data-key=easy] > *").all_inner_texts()
    assert cells == ["Easy", "1", "1" if won else "0", "0" if won else "1",
                     "100%" if won else "0%"], cells
    head = by_level.locator("thead th").all_inner_texts()
    assert head[1:] == ["Played", "Won", "Lost", "Won (%)"]
    variant = page.get_by_test_id("stats-by_variant").locator("tbody tr").all_inner_texts()
    assert len(variant) == 1 and variant[0].startswith("Standard")
