"""The ratings on the page (issue 22): the level menu says "Expert, about 1730" in each language,
and the statistics dialog shows the person's rating with its interval, the suggested level, a
chart of its history and the same history as a table for screen readers. The levels' ratings
are set by the test (the shipped file changes with each re-fit); the person's rating is checked
against ``ginrummy.rating`` recomputed from the games' results."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import LiveServer, new_game, play_until
from test_axe import _report, _violations, axe_source  # noqa: F401  (a fixture)

from ginrummy.bots import strength
from ginrummy.rating import NEW_PLAYER, Glicko, glicko2_update

pytestmark = pytest.mark.browser

RATINGS = {"easy": (1214.0, 21.0), "medium": (1386.0, 20.0), "hard": (1581.0, 19.0),
           "expert": (1733.0, 22.0)}


@pytest.fixture(autouse=True)
def measured(monkeypatch: pytest.MonkeyPatch) -> None:
    data = {"ratings": {k: {"rating": r, "se": se} for k, (r, se) in RATINGS.items()}}
    monkeypatch.setattr(strength, "ratings_file", lambda: data)


@pytest.mark.parametrize("locale, expert, easy", [
    ("en-US", "Expert, about 1730", "Easy, about 1210"),
    ("id-ID", "Ahli, sekitar 1730", "Mudah, sekitar 1210"),
    ("ms-MY", "Pakar, kira-kira 1730", "Mudah, kira-kira 1210"),
    ("jv-ID", "Pinter banget, kira-kira 1730", "Gampang, kira-kira 1210"),
])
def test_the_level_menu_shows_each_levels_rating(new_context: Any, server: LiveServer,
                                                 locale: str, expert: str, easy: str) -> None:
    page = new_context(locale=locale).new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#dlg-new[open] #new-level option", state="attached")
    options = page.locator("#new-level option").all_inner_texts()
    assert expert in options and easy in options, options
    assert len(options) == 4


def test_unrated_then_rated_after_games(page: Any, server: LiveServer, axe_source: str  # noqa: F811
                                        ) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#dlg-new[open]")
    page.keyboard.press("Escape")
    page.click("#btn-stats")
    page.wait_for_selector("[data-testid=rating-unrated]")
    assert "Not rated yet" in page.get_by_test_id("rating-unrated").inner_text()
    page.keyboard.press("Escape")
    for level in ("easy", "hard"):
        new_game(page, server.base, target=1, level=level, goto=False)
        assert play_until(page, ("game-over",), finish=True) == "game-over"
    got = page.request.get(server.base + "/api/stats").json()["rating"]
    hist = got["history"]
    assert [h["opponent"] for h in hist] == ["easy", "hard"]
    want = NEW_PLAYER
    for h in hist:
        r, se = RATINGS[h["opponent"]]
        want = glicko2_update(want, [(Glicko(r, se), 1.0 if h["won"] else 0.0)])
    page.click("#btn-stats")
    page.wait_for_selector("[data-testid=rating-value]")
    assert page.get_by_test_id("rating-value").inner_text() == str(round(want.rating))
    lo, hi = want.interval
    assert page.get_by_test_id("rating-range").inner_text() == \
        f"Probably between {round(lo)} and {round(hi)} (95% sure), after 2 rated games."
    near = min(RATINGS, key=lambda k: abs(RATINGS[k][0] - want.rating))
    names = {"easy": "Easy", "medium": "Medium", "hard": "Hard", "expert": "Expert"}
    assert page.get_by_test_id("rating-suggest").inner_text() == \
        f"Suggested next level: {names[near]} (about {round(RATINGS[near][0] / 10) * 10})."
    # the chart: a line through the start and both games, a band, named for assistive tech
    chart = page.get_by_test_id("rating-chart")
    d = chart.locator("path.rc-line").get_attribute("d") or ""
    assert d.count("L") == 2 and d.startswith("M")
    assert chart.locator("path.rc-band").count() == 1
    assert "From 1500 to" in (chart.get_attribute("aria-label") or "")
    box = chart.bounding_box()
    assert box is not None and box["width"] > 250 and box["height"] > 120
    # the table for screen readers: one row per game, visually hidden
    rows = page.get_by_test_id("rating-table").locator("tbody tr")
    assert rows.count() == 2
    cells = rows.nth(1).locator("th, td").all_inner_texts()
    assert cells[:4] == ["2", "Hard", "Won" if hist[1]["won"] else "Lost",
                         str(round(hist[1]["rating"]))], cells
    # the rest of the statistics still follow
    assert page.locator("#stats-body tr[data-key=games_played] td").inner_text() == "2"
    # axe: no serious or critical violation in the dialog with the rating
    found = _violations(page, axe_source)
    assert not found, _report("the statistics dialog with a rating", found)
