"""Languages in the browser: switching keeps the game and is remembered; a fresh visitor gets the
language of the browser (Accept-Language)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer, hand, new_game, phase, saved_game, wait_ready
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LOCALES = Path(__file__).resolve().parents[2] / "src" / "ginrummy" / "web" / "locales"


@cache
def catalog(lang: str) -> dict[str, str]:
    return dict(json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8")))


def assert_ui_in(page: Any, lang: str) -> None:
    cat = catalog(lang)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_test_id("new-game")).to_have_text(cat["btn.new_game"])
    expect(page.get_by_test_id("sort-rank")).to_have_text(cat["btn.sort_rank"])
    expect(page.locator("#score-h")).to_have_text(cat["score.title"])
    expect(page.get_by_test_id("language")).to_have_value(lang)
    status = page.get_by_test_id("status").inner_text()
    prompts = {v.replace("{computer}", cat["table.computer"])
               for k, v in cat.items() if k.startswith("prompt.")}
    assert status in prompts, (lang, status)


def test_language_switch_keeps_the_game_and_is_remembered(page: Any,
                                                          server: LiveServer) -> None:
    new_game(page, server.base)
    game = saved_game(page)["game_id"]
    before = (phase(page), hand(page))
    english = page.get_by_test_id("new-game").inner_text()
    for lang in ("id", "ms", "jv"):
        page.get_by_test_id("language").select_option(lang)
        assert_ui_in(page, lang)
        assert page.get_by_test_id("new-game").inner_text() != english
        assert (phase(page), hand(page)) == before
        assert saved_game(page)["game_id"] == game
        page.reload()
        wait_ready(page)
        assert_ui_in(page, lang)
        assert (phase(page), hand(page)) == before
    # the content pages follow the chosen language
    page.goto(server.base + "/rules")
    expect(page.locator("html")).to_have_attribute("lang", "jv")


@pytest.mark.parametrize(("locale", "lang"), [("id-ID", "id"), ("ms-MY", "ms"), ("en-GB", "en")])
def test_accept_language_for_a_fresh_visitor(new_context: Any, server: LiveServer,
                                              locale: str, lang: str) -> None:
    page = new_context(locale=locale).new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#dlg-new[open]")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.get_by_test_id("start-game")).to_have_text(catalog(lang)["new.start"])
    expect(page.get_by_test_id("language")).to_have_value(lang)
    new_game(page, server.base, goto=False, dialog_open=True)
    assert_ui_in(page, lang)
