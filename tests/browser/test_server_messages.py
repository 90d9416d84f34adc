"""The server's messages on the page in the person's language (issue 13 items 2 and 3), in real
Chromium: the score keeper's refusal of a knock over the limit in Indonesian and in plain words,
worded again after a language switch; the live region re-announcing in the new language.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import LiveServer, new_game

from ginrummy.web.http.messages import catalog, reason_text

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def _keeper_sheet(page: Any, base: str, lang: str) -> None:
    page.goto(f"{base}/keeper?lang={lang}")
    page.wait_for_selector("[data-testid=kp-create]")
    page.fill("[data-testid=kp-name-0]", "Ana")
    page.fill("[data-testid=kp-name-1]", "Budi")
    page.click("[data-testid=kp-create]")
    page.wait_for_selector("[data-testid=kp-add]")


def _knock_15(page: Any) -> Any:
    """Enter a knock by Ana (the first player) with deadwood 15 against 20; the answer."""
    page.check("[data-testid=kp-t0-outcome-knock]")
    page.check("[data-testid=kp-t0-mode-counts]")
    page.fill("[data-testid=kp-t0-kd]", "15")
    page.fill("[data-testid=kp-t0-dd]", "20")
    with page.expect_response(lambda r: r.url.endswith("/hands")) as resp:
        page.click("[data-testid=kp-add]")
    return resp.value


def test_a_refused_knock_is_worded_in_indonesian_then_in_the_new_language(
        new_context: Any, server: LiveServer) -> None:
    page = new_context(viewport=PHONE, locale="en-US").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _keeper_sheet(page, server.base, "id")
    answer = _knock_15(page)
    assert answer.status == 422
    detail = answer.json()["detail"]
    reason = detail["reason"]
    assert reason == {"code": "over_knock_limit",
                      "params": {"hand": 1, "deadwood": 15, "limit": 10}}
    err = page.get_by_test_id("kp-error")
    err.wait_for(state="visible")
    shown = err.text_content() or ""
    assert shown == reason_text(reason["code"], reason["params"], "id") == \
        "Ronde 1: Kartu mati pengetuk 15, melebihi batas ketuk 10."
    # plain words: no field name, no English
    for raw in ("knocker_deadwood", "knock limit", "hand 1"):
        assert raw not in shown
    # the API's own message followed the page's language (the lang cookie, not the browser's
    # en-US Accept-Language)
    assert detail["message"] == shown
    # a language switch words the error again, in the new language
    page.select_option("#lang-select", "ms")
    page.wait_for_function("() => document.documentElement.lang === 'ms'")
    assert err.text_content() == reason_text("over_knock_limit", reason["params"], "ms")
    assert errors == []


def test_the_live_region_speaks_the_new_language_after_a_switch(
        new_context: Any, server: LiveServer) -> None:
    page = new_context(locale="en-US").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    new_game(page, server.base)
    live = page.locator("#live")
    en = catalog("en")
    page.wait_for_function("() => document.getElementById('live').textContent.length > 0")
    said = live.text_content() or ""
    deal_en = {en["ev.deal.you"].replace("{n}", "1"),
               en["ev.deal.other"].replace("{n}", "1").replace("{name}", en["table.computer"])}
    assert any(said.startswith(d) for d in deal_en), said
    page.select_option("#lang-select", "id")
    page.wait_for_function("() => document.documentElement.lang === 'id'")
    idc = catalog("id")
    deal_id = {idc["ev.deal.you"].replace("{n}", "1"),
               idc["ev.deal.other"].replace("{n}", "1").replace("{name}", idc["table.computer"])}
    page.wait_for_function(
        "(starts) => starts.some(s => document.getElementById('live').textContent.startsWith(s))",
        arg=sorted(deal_id))
    again = live.text_content() or ""
    assert not any(d in again for d in deal_en), again
    # the same moves, said again: the dealer is the same person in both languages
    assert (said.startswith(en["ev.deal.you"].replace("{n}", "1"))
            == again.startswith(idc["ev.deal.you"].replace("{n}", "1")))
    assert errors == []
