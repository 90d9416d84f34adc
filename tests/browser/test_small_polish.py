"""Small things a tester found at tables of people (issue 21 item 16): the new-game dialog's
summary names the target chosen, not the preset's."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import PHONE, LiveServer

pytestmark = pytest.mark.browser

NOTE = "#new-preset-note"


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_new_game_summary_names_the_target_chosen(new_context: Any, server: LiveServer,
                                                      size: str) -> None:
    page = new_context(**({"viewport": PHONE} if size == "phone" else {})).new_page()
    page.goto(server.base + "/")
    page.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    assert "First to 100." in page.inner_text(NOTE)
    page.click("#new-fields-wrap > summary")
    page.fill("#f-target", "250")
    page.wait_for_function("() => document.querySelector('#new-preset-note').textContent"
                           ".includes('First to 250.')", timeout=3_000)
    assert "100." not in page.inner_text(NOTE).replace("game 100.", "")
    page.screenshot(path=f"/tmp/f3_first_to_{size}.png")
    page.select_option("#new-preset", "oklahoma")
    assert "First to 150." in page.inner_text(NOTE)
    page.select_option("[data-testid=opponent-kind]", "friends")  # a table of people: the same
    assert "First to 150." in page.inner_text(NOTE)
