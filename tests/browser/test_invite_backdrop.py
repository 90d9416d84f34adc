"""The page opened from an invite (issue 21 item 16): the join dialog does not sit over a game
against the computer. Behind it, neither the table nor the footer speaks of the computer, and
the dialog's other button is "Not now" (not "New game"); "Not now" leaves the invite for the
ordinary page (the game this browser was playing, else the new-game dialog). Phone (390x844)
and desktop (1440x900)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, LiveServer
from test_friends import create_table, person

pytestmark = pytest.mark.browser

EN = json.loads((Path(__file__).parents[2] / "src/ginrummy/web/locales/en.json").read_text())
SHOTS = os.environ.get("GINRUMMY_SHOTS")  # a folder: screenshots for a person to look at


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_join_dialog_does_not_sit_over_a_computer_game(new_context: Any, server: LiveServer,
                                                           size: dict[str, int]) -> None:
    ann = person(new_context, viewport=size)
    url = create_table(ann, server.base, name="Ann")
    bo = person(new_context, viewport=size)
    bo.goto(url)
    bo.wait_for_selector("#dlg-join[open] [data-testid=join-name]")
    if SHOTS:
        bo.screenshot(path=f"{SHOTS}/invite-{size['width']}.png")
    foot = bo.inner_text("[data-testid=foot-text]")
    assert foot == EN["app.footer_people"], foot
    visible = bo.evaluate("""() => [...document.querySelectorAll('main *, header *')]
      .filter((e) => e.checkVisibility && e.checkVisibility() && e.children.length === 0)
      .map((e) => e.textContent.trim()).filter(Boolean).join(' | ')""")
    assert "computer" not in visible.lower(), visible
    assert bo.inner_text("#join-new").strip() == EN["btn.not_now"]
    bo.click("#join-new")
    bo.wait_for_selector("#dlg-join", state="hidden")
    assert bo.evaluate("location.pathname") == "/"
    # the ordinary page at "/": no game of Bo's in this browser, so its new-game dialog
    bo.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    assert bo.inner_text("[data-testid=foot-text]") == EN["app.footer"]  # the ordinary page
    for p in (ann, bo):
        assert p.errors == []
