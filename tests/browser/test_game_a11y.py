"""The game page for a person who uses the keyboard or a screen reader, and on a desktop screen:

- axe-core (test_axe.py's install) on the game page's states: the opening screen, the opening
  dialog closed by Escape, the settings / help / statistics dialogs, a hand in play, the knock
  dialog when one comes, the hand over and the game over; in two languages at phone and desktop
  sizes. A serious or critical violation fails.
- Focus: a dialog takes focus when it opens and gives it back to the control that opened it;
  Escape closes the opening dialog; after each move made by keyboard focus is on the next thing to
  do (Take at the offer, the stock to draw, the card just drawn to discard, Next hand).
- The focus ring keeps 3:1 against the surface it is drawn on (WCAG 1.4.11): the felt, the dark
  bars, the light dialogs; a focused card has a dark ring between it and its white neighbours.
- The computer speed (settings): remembered in the browser; "instant" shows the computer's moves
  without a card flying, "slow" takes longer than "normal".
- The desktop table uses the window (1440x900, 1920x1080) and the hand's result is laid out on
  the table, not over it; the phone keeps its layout.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
import test_axe
from browser_helpers import (
    DESKTOP,
    HAND_SLOTS,
    PHONE,
    LiveServer,
    choose_discard,
    click_action,
    enabled,
    hand,
    hand_info,
    new_game,
    phase,
    play_turn,
    play_until,
    to_discard_phase,
    to_draw_phase,
    wait_ready,
)
from playwright.sync_api import expect
from test_axe import _report, _violations

pytestmark = pytest.mark.browser

axe_source = test_axe.axe_source  # the fixture that installs axe-core

WIDE = {"width": 1920, "height": 1080}
SIZES = {"phone": PHONE, "desktop": DESKTOP}


# ------------------------------------------------------------------------------ axe-core
def _open_game(new_context: Callable[..., Any], server: LiveServer, lang: str,
               viewport: dict[str, int]) -> tuple[Any, list[str]]:
    page = new_context(viewport=viewport).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/?lang={lang}")
    page.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    assert page.get_attribute("html", "lang") == lang
    return page, errors


def _dialog(page: Any, opener: str, dialog: str) -> None:
    page.click(opener)
    page.wait_for_selector(f"{dialog}[open]")
    page.wait_for_timeout(100)


@pytest.mark.parametrize("lang,size", [("en", "phone"), ("jv", "phone"), ("en", "desktop"),
                                       ("jv", "desktop")])
def test_axe_game_states(new_context: Callable[..., Any], server: LiveServer, axe_source: str,
                         lang: str, size: str) -> None:
    page, errors = _open_game(new_context, server, lang, SIZES[size])
    problems: list[str] = []
    seen: list[str] = []

    def check(state: str) -> None:
        seen.append(state)
        found = _violations(page, axe_source)
        if found:
            problems.append(_report(f"/?lang={lang} ({size}): {state}", found))

    check("opening dialog")
    page.keyboard.press("Escape")
    expect(page.locator("#dlg-new")).not_to_be_visible()
    check("no game (opening dialog closed)")
    for opener, dialog in (("#btn-settings", "#dlg-settings"), ("#btn-help", "#dlg-help"),
                           ("#btn-stats", "#dlg-stats")):
        _dialog(page, opener, dialog)
        if dialog == "#dlg-stats":
            page.wait_for_selector("#stats-body table, #stats-body p")
        check(f"{dialog} open")
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).not_to_be_visible()
    page.click("[data-testid=new-game]")
    page.wait_for_selector("#dlg-new[open]")
    page.click("#new-fields-wrap > summary")
    check("new-game dialog, rules unfolded")
    new_game(page, server.base, target=30, goto=False, dialog_open=True)
    if phase(page) == "offer":
        check("the first-turn offer")
    picked = knock_seen = over_seen = False
    for _ in range(800):
        ph = wait_ready(page)
        if ph == "game-over":
            break
        if ph == "discard" and enabled(page, "knock") and not knock_seen:
            page.click("[data-testid=knock]")
            page.wait_for_selector("#dlg-knock[open]")
            check("knock dialog")
            page.keyboard.press("Escape")
            expect(page.locator("#dlg-knock")).not_to_be_visible()
            knock_seen = True
        if ph == "discard" and not picked:
            card = choose_discard(hand_info(page))
            page.click(f"{HAND_SLOTS}[data-card='{card}']")
            page.wait_for_selector(f"{HAND_SLOTS}[data-card='{card}'][aria-pressed=true]")
            check("a hand in play, a card picked")
            picked = True
            click_action(page, "[data-testid=discard]")
            continue
        if ph == "hand-over" and not over_seen:
            check("hand over")
            over_seen = True
        play_turn(page)
    assert phase(page) == "game-over"
    check("game over")
    assert not errors, errors
    assert {"opening dialog", "a hand in play, a card picked", "game over"} <= set(seen), seen
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------------------ focus
def _focused(page: Any) -> dict[str, Any]:
    return dict(page.evaluate("""() => { const a = document.activeElement;
      return {id: a.id, testid: a.dataset.testid || null, card: a.dataset.card || null,
              tag: a.tagName, inDialog: !!a.closest('dialog')}; }"""))


def test_escape_closes_the_opening_dialog(page: Any, server: LiveServer) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#dlg-new[open]")
    assert _focused(page)["inDialog"], "the opening dialog has focus"
    page.keyboard.press("Escape")
    expect(page.locator("#dlg-new")).not_to_be_visible()
    # the visitor can read the rules first: the page's links, and the way to a deal on the table
    expect(page.locator("#btn-first-deal")).to_be_focused()
    expect(page.get_by_test_id("status")).to_contain_text("No game yet")
    expect(page.locator(".topbar a[data-page=rules]")).to_be_visible()
    page.keyboard.press("Enter")  # New game, by keyboard
    page.wait_for_selector("#dlg-new[open]")
    page.click("#new-cancel")  # Cancel is there with no game too
    expect(page.locator("#dlg-new")).not_to_be_visible()
    expect(page.locator("#btn-first-deal")).to_be_focused()
    assert page.evaluate("() => localStorage.getItem('ginrummy.current')") is None
    page.click("#btn-new")
    page.wait_for_selector("#dlg-new[open]")
    page.keyboard.press("Escape")
    expect(page.locator("#btn-new")).to_be_focused()  # back where it came from
    new_game(page, server.base, goto=False)
    expect(page.get_by_test_id("first-deal")).to_be_hidden()


def test_dialogs_give_focus_back(page: Any, server: LiveServer) -> None:
    new_game(page, server.base)
    for opener, dialog in (("btn-settings", "#dlg-settings"), ("btn-help", "#dlg-help"),
                           ("btn-stats", "#dlg-stats"), ("btn-new", "#dlg-leave")):  # in play: asks
        page.focus(f"#{opener}")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"{dialog}[open]")
        assert _focused(page)["inDialog"], f"{dialog}: focus stays behind the dialog"
        page.keyboard.press("Escape")
        expect(page.locator(dialog)).not_to_be_visible()
        expect(page.locator(f"#{opener}")).to_be_focused()
    # a dialog opened by a key from a card gives focus back to that card
    to_discard_phase(page)
    first = hand(page)[0]
    page.focus(f"{HAND_SLOTS}[data-card='{first}']")
    page.keyboard.press("h")
    page.wait_for_selector("#dlg-help[open]")
    page.keyboard.press("Escape")
    expect(page.locator("#dlg-help")).not_to_be_visible()
    assert _focused(page)["card"] == first
    # closing the settings by its Close button: the same
    page.focus("#btn-settings")
    page.keyboard.press("Enter")
    page.wait_for_selector("#dlg-settings[open]")
    page.click("#dlg-settings .dlg-buttons button")
    expect(page.locator("#dlg-settings")).not_to_be_visible()
    expect(page.locator("#btn-settings")).to_be_focused()


def test_knock_dialog_cancel_returns_to_knock(new_context: Callable[..., Any],
                                              server: LiveServer) -> None:
    """Cancel (Escape) gives focus back to Knock; a knock made gives it to the result."""
    for _game in range(12):
        page = new_context().new_page()  # a fresh visitor each game: the opening dialog
        new_game(page, server.base)
        for _ in range(120):
            ph = wait_ready(page)
            if ph in ("hand-over", "game-over"):
                break
            if ph == "discard" and enabled(page, "knock"):
                page.focus("[data-testid=knock]")
                page.keyboard.press("Enter")
                page.wait_for_selector("#dlg-knock[open]")
                expect(page.locator("#knock-confirm")).to_be_focused()
                page.keyboard.press("Escape")
                expect(page.locator("#dlg-knock")).not_to_be_visible()
                expect(page.locator("#btn-knock")).to_be_focused()
                page.keyboard.press("Enter")
                page.wait_for_selector("#dlg-knock[open]")
                with page.expect_response(lambda r: "/actions" in r.url):
                    page.keyboard.press("Enter")  # Knock, the dialog's focused button
                assert wait_ready(page) in ("hand-over", "game-over")
                page.wait_for_function("() => document.activeElement.closest('#result')")
                return
            play_turn(page, finish=False)
    pytest.fail("no knock possible in 12 games of 120 moves")


def test_focus_follows_the_play_by_keyboard(page: Any, server: LiveServer) -> None:
    ph = new_game(page, server.base)
    if ph == "offer":
        expect(page.locator("#btn-take")).to_be_focused()
        page.focus("#btn-pass")
        with page.expect_response(lambda r: "/actions" in r.url):
            page.keyboard.press("Enter")
        ph = wait_ready(page)
    to_draw_phase(page)
    page.focus("[data-testid=stock]")
    with page.expect_response(lambda r: "/actions" in r.url):
        page.keyboard.press("Enter")
    assert wait_ready(page) == "discard"
    drawn = page.evaluate(
        "() => document.querySelector('.slot .tag-new')?.parentElement.dataset.card")
    f = _focused(page)
    assert f["card"] is not None and f["card"] == drawn, (f, drawn)
    # pick the focused card and discard it by keyboard: Enter twice (the card just drawn may
    # always be discarded); focus then waits on the hand and goes to the stock at the next turn
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{HAND_SLOTS}[data-card='{drawn}'][aria-pressed=true]")
    with page.expect_response(lambda r: "/actions" in r.url):
        page.keyboard.press("Enter")
    ph = wait_ready(page)
    f = _focused(page)
    if ph == "draw":
        assert f["testid"] in ("stock", "discard-pile"), f
    elif ph in ("hand-over", "game-over"):
        assert page.evaluate("() => !!document.activeElement.closest('#result')")
    else:
        assert f["tag"] == "BUTTON" and f["tag"] != "BODY", f
    assert f["tag"] != "BODY"


# ------------------------------------------------------------------------------ focus ring
FOCUS_RING = """(sel) => {
  const el = document.querySelector(sel);
  const ringEl = el.matches('.slot') ? el.firstElementChild : el;
  const cs = getComputedStyle(ringEl);
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return {rgb: p.slice(0, 3), a: p.length > 3 ? p[3] : 1}; };
  const surfaces = [];
  for (let e = el.parentElement; e; e = e.parentElement) {
    const s = getComputedStyle(e);
    for (const m of (s.backgroundImage.match(/rgba?\\([^)]+\\)/g) || [])) {
      const c = parse(m); if (c && c.a > 0.5) surfaces.push(c.rgb); }
    const bg = parse(s.backgroundColor);
    if (bg && bg.a > 0.5) { surfaces.push(bg.rgb); break; }
    if (e.tagName === 'DIALOG') break;
  }
  const shadows = (cs.boxShadow.match(/rgba?\\([^)]+\\)/g) || []).map(parse)
    .filter((c) => c && c.a > 0.9).map((c) => c.rgb);
  return {focusVisible: el.matches(':focus-visible'), style: cs.outlineStyle,
          width: parseFloat(cs.outlineWidth), ring: parse(cs.outlineColor).rgb, surfaces, shadows};
}"""


def _lum(rgb: list[float]) -> float:
    def f(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else float(((c + 0.055) / 1.055) ** 2.4)
    r, g, b = (f(x) for x in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: list[float], b: list[float]) -> float:
    la, lb = sorted((_lum(a), _lum(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _ring(page: Any, selector: str) -> dict[str, Any]:
    page.keyboard.press("Shift")  # the last input was a key: programmatic focus is "visible"
    page.focus(selector)
    r: dict[str, Any] = page.evaluate(FOCUS_RING, selector)
    assert r["focusVisible"], selector
    assert r["style"] != "none" and r["width"] >= 2, (selector, r)
    assert r["surfaces"], (selector, r)
    worst = min(contrast(r["ring"], s) for s in r["surfaces"])
    assert worst >= 3.0, f"{selector}: focus ring {r['ring']} is {worst:.2f}:1 on {r['surfaces']}"
    return r


def test_focus_ring_contrast(page: Any, server: LiveServer) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#dlg-new[open]")
    for sel in ("#new-level", "#new-start", "#new-cancel"):  # the light dialog
        _ring(page, sel)
    page.keyboard.press("Escape")
    _ring(page, "#btn-new")  # the dark header
    _ring(page, "#btn-first-deal")  # the felt
    new_game(page, server.base, goto=False)
    to_draw_phase(page)
    _ring(page, "[data-testid=stock]")  # the felt
    r = _ring(page, "[data-testid=hand] .group:first-child .slot:first-child")
    # the card's neighbours are white: a dark ring parts the yellow from them
    white = [255, 255, 255]
    assert any(contrast(s, white) >= 3 and contrast(s, r["ring"]) >= 3 for s in r["shadows"]), r
    for opener, dialog, inside in (("#btn-settings", "#dlg-settings", "#set-speed"),
                                   ("#btn-help", "#dlg-help", "#dlg-help .dlg-buttons button")):
        page.click(opener)
        page.wait_for_selector(f"{dialog}[open]")
        _ring(page, inside)
        page.keyboard.press("Escape")


# ------------------------------------------------------------------------------ computer speed
def test_speed_setting_is_remembered_and_translated(page: Any, server: LiveServer) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#dlg-new[open]")
    page.keyboard.press("Escape")
    page.click("#btn-settings")
    page.wait_for_selector("#dlg-settings[open]")
    speed = page.get_by_test_id("speed")
    expect(speed).to_have_value("normal")
    assert page.eval_on_selector_all("#set-speed option", "os => os.map(o => o.value)") == [
        "slow", "normal", "fast", "instant"]
    speed.select_option("fast")
    saved = json.loads(page.evaluate("() => localStorage.getItem('ginrummy.settings')"))
    assert saved["speed"] == "fast"
    page.reload()
    page.wait_for_selector("#dlg-new[open]")
    expect(page.get_by_test_id("speed")).to_have_value("fast")
    words = {}
    for lang in ("en", "id", "ms", "jv"):
        page.select_option("[data-testid=language]", lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        words[lang] = page.eval_on_selector_all(
            "#set-speed option, #dlg-settings label.speed > span, #set-speed-note",
            "es => es.map(e => e.textContent.trim())")
        assert all(words[lang]), (lang, words[lang])
    # each language its own words (not English left over)
    for lang in ("id", "ms", "jv"):
        assert words[lang][-2:] != words["en"][-2:], lang


COUNT_FLIGHTS = """() => { window.__flights = 0; window.__bubbles = 0;
  new MutationObserver((ms) => { for (const m of ms) window.__flights += m.addedNodes.length; })
    .observe(document.getElementById('flyers'), {childList: true});
  const b = document.getElementById('opp-bubble');
  new MutationObserver(() => { if (b.classList.contains('show')) window.__bubbles++; })
    .observe(b, {attributes: true, attributeFilter: ['class']}); }"""


def _computer_turn(page: Any) -> tuple[int, float]:
    """Discard (the person's move); the computer's answer is shown. (flights, seconds busy)"""
    to_discard_phase(page)
    card = choose_discard(hand_info(page))
    page.click(f"{HAND_SLOTS}[data-card='{card}']")
    page.evaluate(COUNT_FLIGHTS)
    t0 = time.monotonic()
    click_action(page, "[data-testid=discard]", timeout=30_000)
    return int(page.evaluate("() => window.__flights")), time.monotonic() - t0


@pytest.mark.parametrize("speed", ["instant", "slow"], ids=["at-instant", "at-slow"])
def test_speed_changes_how_the_computer_moves_are_shown(new_context: Callable[..., Any],
                                                        server: LiveServer, speed: str) -> None:
    for _attempt in range(10):
        page = new_context(reduced_motion="no-preference").new_page()  # a fresh visitor
        page.add_init_script("localStorage.setItem('ginrummy.settings', "
                             f"JSON.stringify({{speed: {speed!r}}}))")
        new_game(page, server.base)
        flights, busy = _computer_turn(page)
        if phase(page) == "draw":  # the computer drew and discarded (no knock: the hand goes on)
            break
    else:
        pytest.fail("the computer ended the hand at once in 10 deals")
    if speed == "instant":
        assert flights == 0, f"{flights} cards flew at 'instant'"
        assert page.evaluate("() => window.__bubbles") == 0
    else:
        # a draw and a discard fly, each 0.84 s plus a pause at 'slow' (0.42 s at 'normal')
        assert flights >= 2, flights
        assert busy >= 1.8, f"the computer's turn took only {busy:.2f} s at 'slow'"


# ------------------------------------------------------------------------------ desktop layout
@pytest.mark.parametrize("viewport", [DESKTOP, WIDE], ids=["1440x900", "1920x1080"])
def test_desktop_table_uses_the_window(new_context: Callable[..., Any], server: LiveServer,
                                       viewport: dict[str, int]) -> None:
    page = new_context(viewport=viewport).new_page()
    new_game(page, server.base)
    to_discard_phase(page)
    table = page.locator("#table").bounding_box()
    assert table is not None
    # the table takes most of the width and the cards grow with it
    assert table["width"] >= 0.7 * viewport["width"], table
    card = page.locator(f"{HAND_SLOTS} >> nth=0").locator(".card").bounding_box()
    assert card is not None
    assert card["width"] >= 0.06 * viewport["width"] - 1, card
    # the whole table, from the computer's seat to the action buttons, is on the screen
    for sel in ("#opp", "[data-testid=stock]", "[data-testid=hand]", "[data-testid=discard]"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["y"] + box["height"] <= viewport["height"], (sel, box)
    sw = page.evaluate("() => document.documentElement.scrollWidth")
    assert sw <= viewport["width"]
    # the hand over: the result is on the table, not over it; both hands face up on the felt
    hands = page.locator("#result .rhand")
    for _hand in range(10):  # a dead hand shows no hands: the next one
        ph = play_until(page, ("hand-over", "game-over"))
        if hands.count() == 2 or ph == "game-over":
            break
        click_action(page, "[data-testid=next-hand]")
    result = page.get_by_test_id("result")
    expect(result).to_be_visible()
    assert page.evaluate("() => getComputedStyle(document.getElementById('result')).position") \
        != "absolute"
    assert hands.count() == 2, "no hand with a result in 10"
    first = hands.nth(0).bounding_box()
    last = hands.nth(1).bounding_box()
    head = page.locator("#result-h").bounding_box()
    assert first and last and head
    assert first["y"] < head["y"] < last["y"], "the other hand above the result, yours below"
    button = "[data-testid=next-hand]" if ph == "hand-over" else "#btn-again"
    box = page.locator(button).bounding_box()
    assert box is not None and box["y"] + box["height"] <= viewport["height"], box


def test_phone_keeps_its_layout(new_context: Callable[..., Any], server: LiveServer) -> None:
    page = new_context(viewport=PHONE).new_page()
    new_game(page, server.base)
    card = page.locator(f"{HAND_SLOTS} >> nth=0").locator(".card").bounding_box()
    assert card is not None and 55 <= card["width"] <= 66, card  # the phone's cards (60 px)
    play_until(page, ("hand-over", "game-over"))
    # the result takes the table's place on a phone
    assert page.locator("#opp").is_hidden() and page.locator("#me").is_hidden()
    sw = page.evaluate("() => document.documentElement.scrollWidth")
    assert sw <= PHONE["width"]


# ------------------------------------------------------------------------------ rearranging melds
RANKS = "A23456789TJQK"


def _is_run(meld: list[str]) -> bool:
    return len({c[1] for c in meld}) == 1 and len({c[0] for c in meld}) == len(meld)


def _dealt(server: LiveServer, want: Callable[[list[list[str]]], bool],
           tries: int = 400) -> dict[str, str]:
    """A new game (through the API) whose dealt hand's melds satisfy ``want``."""
    for _ in range(tries):
        g = server.api("POST", "/api/games", None, {"level": "easy", "preset": "standard"})
        melds = ((g["state"].get("arrangement") or {}).get("melds")) or []
        if g["state"]["phase"] in ("offer", "draw", "discard") and want(melds):
            return {"game_id": g["game_id"], "token": g["token"]}
    pytest.fail(f"no deal with the melds wanted in {tries} deals")


def _open(page: Any, server: LiveServer, game: dict[str, str]) -> None:
    page.goto(server.base + "/")
    page.evaluate("g => localStorage.setItem('ginrummy.current', JSON.stringify(g))", game)
    page.reload()
    wait_ready(page)


def _groups(page: Any) -> list[list[str]]:
    return list(page.eval_on_selector_all(
        "[data-testid=hand] .group.meld",
        "gs => gs.map(g => [...g.querySelectorAll('.slot')].map(s => s.dataset.card))"))


def _shift(page: Any, card: str, key: str) -> None:
    page.keyboard.press("Shift")
    page.focus(f"{HAND_SLOTS}[data-card='{card}']")
    with page.expect_response(lambda r: r.url.endswith("/order") and r.request.method == "PUT"):
        page.keyboard.press(f"Shift+{key}")


def test_rearrange_inside_melds_by_keyboard(page: Any, server: LiveServer) -> None:
    """A run turns around, a set's cards trade places, a meld moves past the next; the server
    keeps the order (PUT .../order: same cards), so a reload shows the hand as it was left."""
    game = _dealt(server, lambda ms: len(ms) >= 2 and any(_is_run(m) for m in ms))
    _open(page, server, game)
    before = sorted(hand(page))
    groups = _groups(page)
    run = next(g for g in groups if _is_run(g))
    ranks = [RANKS.index(c[0]) for c in run]
    assert ranks == sorted(ranks), "a run is laid out low to high"
    _shift(page, run[0], "ArrowRight")
    turned = next(g for g in _groups(page) if set(g) == set(run))
    assert turned == run[::-1], (run, turned)
    expect(page.locator("#live")).to_have_text("Run turned around")
    assert _focused(page)["card"] == run[0]
    # the first meld moves past the second, by its last card
    groups = _groups(page)
    _shift(page, groups[0][-1], "ArrowRight")
    moved = _groups(page)
    assert moved[1] == groups[0] and moved[0] == groups[1], (groups, moved)
    expect(page.locator("#live")).to_have_text("Meld moved")
    # and back, by its first card
    _shift(page, moved[1][0], "ArrowLeft")
    assert _groups(page) == groups
    assert sorted(hand(page)) == before
    shown = hand(page)
    saved = server.api("GET", f"/api/games/{game['game_id']}", game["token"])["hand"]
    assert sorted(saved) == sorted(shown), "the order kept holds the same cards"
    page.reload()
    wait_ready(page)
    assert hand(page) == shown and _groups(page) == groups


def test_rearrange_a_set_by_keyboard_and_a_run_by_drag(page: Any, server: LiveServer) -> None:
    game = _dealt(server, lambda ms: any(len(m) >= 3 and not _is_run(m) for m in ms)
                  and any(_is_run(m) for m in ms))
    _open(page, server, game)
    a_set = next(g for g in _groups(page) if not _is_run(g))
    _shift(page, a_set[0], "ArrowRight")
    now = next(g for g in _groups(page) if set(g) == set(a_set))
    assert now[:2] == [a_set[1], a_set[0]] and now[2:] == a_set[2:], (a_set, now)
    # drag the run's first card onto its last: the run turns around
    run = next(g for g in _groups(page) if _is_run(g))
    src = page.locator(f"{HAND_SLOTS}[data-card='{run[0]}']").bounding_box()
    dst = page.locator(f"{HAND_SLOTS}[data-card='{run[-1]}'] .card").bounding_box()
    assert src and dst
    page.mouse.move(src["x"] + src["width"] / 2, src["y"] + 20)
    page.mouse.down()
    page.mouse.move(src["x"] + src["width"] / 2 + 20, src["y"] + 20, steps=3)
    with page.expect_response(lambda r: r.url.endswith("/order") and r.request.method == "PUT"):
        page.mouse.move(dst["x"] + dst["width"] - 6, dst["y"] + 20, steps=6)
        page.mouse.up()
    turned = next(g for g in _groups(page) if set(g) == set(run))
    assert turned == run[::-1], (run, turned)
    assert phase(page) in ("offer", "draw", "discard")
