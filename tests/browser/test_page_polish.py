"""What a player sees around the game, in real Chromium: the score keeper's language picker on a
phone, the deal's reveal after a hand (translated, with how to check it, readable on a phone),
the new-game dialog's unused fields, the phone's opening screen (its footer, its status line),
and the partnership table's rules bar.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, LiveServer, new_game, play_until, wait_ready
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

LANGS = ["en", "id", "ms", "jv"]


def no_horizontal_scroll(page: Any) -> None:
    sw, cw = page.evaluate("() => [document.documentElement.scrollWidth, "
                           "document.documentElement.clientWidth]")
    assert sw <= cw, f"horizontal scroll: content {sw}px wide in {cw}px"


@pytest.mark.parametrize("lang", LANGS)
def test_keeper_language_picker_on_a_phone(new_context: Any, server: LiveServer,
                                           lang: str) -> None:
    page = new_context(viewport=PHONE).new_page()
    page.goto(f"{server.base}/keeper?lang={lang}")
    page.wait_for_selector("body.keeper:not(.loading)")
    no_horizontal_scroll(page)
    picker = page.get_by_test_id("language")
    box = picker.bounding_box()
    assert box is not None and box["width"] > 40 and box["height"] >= 28, box
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    expect(page.locator("#lang-code")).to_have_text(lang.upper())
    picker.select_option("en" if lang != "en" else "id")  # it is usable: the page follows it
    other = "en" if lang != "en" else "id"
    expect(page.locator("html")).to_have_attribute("lang", other)
    expect(page.locator("#lang-code")).to_have_text(other.upper())
    # the way back to the game is on a phone too (the header's links are hidden there)
    expect(page.locator(".foot a[data-page='']")).to_be_visible()


def test_reveal_is_translated_explained_and_fits_a_phone(new_context: Any,
                                                         server: LiveServer) -> None:
    page = new_context(viewport=PHONE).new_page()
    page.goto(f"{server.base}/?lang=id")
    new_game(page, server.base, level="easy", goto=False, dialog_open=True)
    play_until(page, ("hand-over", "game-over"))
    catalog = json.loads(page.evaluate("() => fetch('/locales/id.json').then(r => r.text())"))
    reveal = page.get_by_test_id("fair-reveal")
    expect(reveal.locator("summary")).to_have_text(catalog["fair.revealed_title"])
    reveal.locator("summary").click()
    labels = reveal.locator("dt").all_inner_texts()
    for key in ("hand", "deck", "salt", "commitment"):
        assert catalog[f"fair.label.{key}"] in labels, labels
    text = reveal.inner_text()
    for english in ("hand:", "deck:", "salt:", "commitment:"):
        assert english not in text, text
    expect(reveal.locator(".fair-how")).to_have_text(catalog["fair.how"])
    assert "ginrummy verify" in catalog["fair.how"]
    # the check itself, ready to copy: the salt and the deck of this deal
    salt = reveal.locator("dd[data-key=salt]").inner_text().strip()
    deck = reveal.locator("dd[data-key=deck]").inner_text().split()
    assert len(salt) == 32 and len(deck) == 52
    command = reveal.get_by_test_id("fair-command").inner_text()
    assert command == f"printf '%s' '{salt}:{' '.join(deck)}' | sha256sum"
    # no scroll box of its own, nothing wider than the phone: the long hex strings wrap
    assert reveal.evaluate("e => [...e.querySelectorAll('*')].every("
                           "x => x.scrollHeight <= x.clientHeight + 1 "
                           "|| getComputedStyle(x).overflowY === 'visible')")
    no_horizontal_scroll(page)
    for sel in ("dd[data-key=commitment]", "[data-testid=fair-command]"):
        box = reveal.locator(sel).bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"], (sel, box)


@pytest.mark.parametrize("lang", LANGS)
def test_phone_opening_screen(new_context: Any, server: LiveServer, lang: str) -> None:
    page = new_context(viewport=PHONE).new_page()
    page.goto(f"{server.base}/?lang={lang}")
    page.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    catalog = json.loads(page.evaluate(f"() => fetch('/locales/{lang}.json').then(r => r.text())"))
    expect(page.get_by_test_id("status")).to_have_text(catalog["prompt.no_game"])
    no_horizontal_scroll(page)
    bottom = page.evaluate("() => document.querySelector('.foot').getBoundingClientRect().bottom")
    assert bottom <= PHONE["height"], f"the footer ends at {bottom}px, below the screen"


def test_unused_fields_say_so_without_a_dangling_dash(page: Any, server: LiveServer) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    page.select_option("#new-preset", "standard")
    page.click("#new-fields-wrap > summary")
    for field in ("oklahoma_ace", "oklahoma_spade_double"):
        ctl = page.locator(f"#f-{field}")
        expect(ctl).to_be_disabled()
        label = page.locator("#new-fields label", has=ctl)
        expect(label.locator(".field-note")).to_have_text("not used at this table")
        dashes = label.evaluate("l => [...l.querySelectorAll('*')].map(e => "
                                "getComputedStyle(e, '::after').content)"
                                ".filter(c => c.includes('—'))")
        assert dashes == [], dashes
    # Oklahoma on: the fields are used, the notes go
    page.check("#f-oklahoma")
    for field in ("oklahoma_ace", "oklahoma_spade_double"):
        expect(page.locator(f"#f-{field}")).to_be_enabled()
        expect(page.locator("#new-fields label", has=page.locator(f"#f-{field}"))
               .locator(".field-note")).to_be_hidden()


def test_partnership_rules_bar_names_the_table_once(new_context: Any,
                                                   server: LiveServer) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    page.select_option("#new-level", "easy")
    page.select_option("[data-testid=new-scoring]", "partnership")
    page.click("[data-testid=start-game]")
    page.wait_for_selector("#dlg-new", state="hidden")
    wait_ready(page)
    summary = page.get_by_test_id("rules").inner_text()
    assert summary.count("Partnership") == 1, summary
