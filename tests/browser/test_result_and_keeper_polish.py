"""Issue 13 items 7 and 8 in Chromium: the replay's result ends with a total row ("Points to
Computer 22"), as the game's own end-of-hand panel does; the score keeper's error about a hand
goes once the hand is changed (here: from shown cards to deadwood counts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import PHONE, LiveServer
from playwright.sync_api import expect
from test_replay_page import finished_hand_with_marker, open_replay

pytestmark = pytest.mark.browser

LOCALES = Path(__file__).resolve().parents[2] / "src" / "ginrummy" / "web" / "locales"


def _catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("lang", ["en", "id"])
def test_replay_result_has_a_total_row(page: Any, server: LiveServer, lang: str) -> None:
    gid, token, number, data = finished_hand_with_marker(server)
    res = data["result"]
    open_replay(page, server, gid, token, number, lang=lang)
    page.keyboard.press("End")
    headline = page.get_by_test_id("replay-headline")
    expect(headline).to_be_visible()
    cat = _catalog(lang)
    if res["winner"] is None:  # a dead hand scores nothing: no total row
        expect(page.get_by_test_id("replay-total")).to_have_count(0)
        return
    who = cat["table.you"] if res["winner"] == data["you"] else cat["table.computer"]
    label = page.get_by_test_id("replay-total-label")
    expect(label).to_have_text(cat["result.total"].replace("{who}", who))
    expect(page.get_by_test_id("replay-total")).to_have_text(str(res["points"]))
    # the last row of the breakdown, after the parts it adds up
    rows = page.get_by_test_id("replay-breakdown").locator("dd")
    expect(rows).to_have_count(len(res["breakdown"]) + 1)
    assert rows.last.get_attribute("data-testid") == "replay-total"
    assert str(res["points"]) in (headline.text_content() or "")


def test_keeper_error_goes_when_switching_to_counts(new_context: Any,
                                                    server: LiveServer) -> None:
    page = new_context(viewport=PHONE).new_page()
    page.goto(server.base + "/keeper?lang=id")
    page.wait_for_selector("[data-testid=kp-create]")
    page.fill("[data-testid=kp-name-0]", "Ana")
    page.fill("[data-testid=kp-name-1]", "Budi")
    page.click("[data-testid=kp-create]")
    page.wait_for_selector("[data-testid=kp-add]")
    page.check("[data-testid=kp-t0-mode-cards]")
    page.fill("[data-testid=kp-t0-kcards]", "XZ 4S 5S 9H 9D 9C JD QD KD 4H")
    page.fill("[data-testid=kp-t0-dcards]", "6S 7S QC QH QS 4C 5C 6C AC 2D")
    with page.expect_response(lambda r: r.url.endswith("/hands")) as resp:
        page.click("[data-testid=kp-add]")
    assert resp.value.status == 422
    err = page.get_by_test_id("kp-error")
    expect(err).to_be_visible()
    expect(err).to_contain_text("XZ")
    # switching to deadwood counts: the error about the cards is gone
    page.check("[data-testid=kp-t0-mode-counts]")
    expect(err).to_be_hidden()
    expect(err).to_have_text("")
    # the counts are scored as usual, and the error does not come back
    page.fill("[data-testid=kp-t0-kd]", "8")
    page.fill("[data-testid=kp-t0-dd]", "20")
    with page.expect_response(lambda r: r.url.endswith("/hands")) as resp:
        page.click("[data-testid=kp-add]")
    assert resp.value.status == 200
    expect(page.locator("[data-testid=kp-status]")).to_contain_text("12")
    expect(err).to_be_hidden()
    # a refused count shows an error again; choosing another outcome clears it
    page.fill("[data-testid=kp-t0-kd]", "15")
    page.fill("[data-testid=kp-t0-dd]", "20")
    with page.expect_response(lambda r: r.url.endswith("/hands")) as resp:
        page.click("[data-testid=kp-add]")
    assert resp.value.status == 422
    expect(err).to_be_visible()
    page.check("[data-testid=kp-t0-outcome-gin]")
    expect(err).to_be_hidden()
