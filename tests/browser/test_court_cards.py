"""Court cards (issue 13): each jack, queen and king shows its own drawing (static/courts) in its
frame, in every card mode (standard, large cards, four-colour deck), on a phone and a desktop,
in the hand as on the table; the rank and suit stay readable in the corner index."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, LiveServer, new_game, wait_ready

from ginrummy.web.http.app import STATIC_DIR

pytestmark = pytest.mark.browser

COURTS = [r + s for s in "SHDC" for r in "JQK"]

# every court card drawn by the page's own cardEl, plus a hand slot made as the game's hand does
DRAW = """async () => {
  const m = await import('/static/page.js');
  const t = (k) => k.split('.').pop();
  document.querySelectorAll('dialog[open]').forEach((d) => d.close());
  const box = document.createElement('div');
  box.id = 'court-test';
  box.style.cssText = 'position:fixed;inset:0;z-index:9999;display:flex;flex-wrap:wrap;gap:4px';
  for (const s of 'SHDC') for (const r of 'JQK') box.append(m.cardEl(r + s, t));
  const slot = document.createElement('button');
  slot.className = 'slot s-D'; slot.dataset.card = 'QD'; slot.id = 'court-slot';
  slot.append(m.cardEl('QD', t, { attrs: { 'data-card': null } }));
  box.append(slot);
  document.body.append(box);
}"""

FACES = """() => [...document.querySelectorAll('#court-test > .card')].map((c) => {
  const face = c.querySelector('.face'), idx = c.querySelector('.idx.tl');
  const f = face.getBoundingClientRect(), card = c.getBoundingClientRect();
  return { card: c.dataset.card, bg: getComputedStyle(face).backgroundImage,
           letter: getComputedStyle(face.querySelector('b')).display,
           idx: getComputedStyle(idx).display, inside: f.left >= card.left && f.right <= card.right
             && f.top >= card.top && f.bottom <= card.bottom, w: f.width, h: f.height };
})"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("mode", ["", "large-cards", "four-colour"])
def test_every_court_card_has_its_drawing(new_context: Callable[..., Any], server: LiveServer,
                                          viewport: dict[str, int], mode: str) -> None:
    page = new_context(viewport=viewport).new_page()
    page.goto(server.base + "/")
    page.wait_for_load_state("networkidle")
    if mode:
        page.evaluate(f"document.body.classList.add('{mode}')")
    page.evaluate(DRAW)
    faces = page.evaluate(FACES)
    assert [f["card"] for f in faces] == COURTS
    for f in faces:
        four = mode == "four-colour" and f["card"][1] in "DC"
        want = f"/static/courts/{f['card']}{'-4' if four else ''}.svg"
        assert want in f["bg"], (f["card"], f["bg"])
        assert f["letter"] == "none" and f["idx"] != "none"  # the drawing, not a letter
        assert f["inside"] and f["w"] >= 30 and 1.1 < f["h"] / f["w"] < 1.6, f
    # the drawings load (under the page's Content-Security-Policy they come from 'self')
    urls = sorted({f["bg"].split('"')[1] for f in faces})
    ok = page.evaluate("""urls => Promise.all(urls.map((u) => new Promise((res) => {
        const i = new Image(); i.onload = () => res(i.naturalWidth > 0);
        i.onerror = () => res(false); i.src = u; })))""", urls)
    assert all(ok), urls
    slot_bg = page.evaluate("getComputedStyle(document.querySelector('#court-slot .face'))"
                            ".backgroundImage")
    assert ("QD-4.svg" if mode == "four-colour" else "QD.svg") in slot_bg


def test_court_cards_in_the_hand_of_a_game(new_context: Callable[..., Any],
                                           server: LiveServer) -> None:
    """Dealt hands until one holds a court card: the hand's slot shows the drawing."""
    page = new_context(viewport=DESKTOP).new_page()
    for _ in range(6):
        new_game(page, server.base)
        wait_ready(page)
        held = page.locator("[data-testid=hand] .slot[data-card]").evaluate_all(
            "els => els.map((e) => e.dataset.card)")
        court = next((c for c in held if c[0] in "JQK"), None)
        if court:
            bg = page.locator(f"[data-testid=hand] .slot[data-card='{court}'] .face").evaluate(
                "e => getComputedStyle(e).backgroundImage")
            assert f"/static/courts/{court}.svg" in bg
            return
    pytest.fail("no court card in six deals")  # (1 in 10^5 or so)


def test_the_drawings_are_well_formed_svg() -> None:
    names = {f"{c}.svg" for c in COURTS} | {f"{c}-4.svg" for c in COURTS if c[1] in "DC"}
    on_disk = {p.name for p in (STATIC_DIR / "courts").glob("*.svg")}
    assert on_disk == names
    for name in names:
        root = ET.parse(STATIC_DIR / "courts" / name).getroot()
        assert root.tag.endswith("svg") and root.get("viewBox") == "0 0 60 80"
    css = (STATIC_DIR / "app.css").read_text(encoding="utf-8")
    for name in names:
        assert f"url(courts/{name})" in css, name
