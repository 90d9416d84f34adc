"""The variants in real Chromium: a hand of each through the page (standard, Oklahoma, straight
gin, big gin on, Hollywood, three players, partnership), the person sitting out at a
three-player table, and the score keeper for a Hollywood match (with its CSV export and print).
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import pytest
from browser_helpers import (
    PHONE,
    LiveServer,
    click_action,
    play_until,
    saved_game,
    wait_ready,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

RANK_VALUE = {"A": 1, "J": 10, "Q": 10, "K": 10}


def start(page: Any, base: str, *, scoring: str = "standard", preset: str = "standard",
          big_gin: bool = False, target: int | None = None) -> dict[str, Any]:
    """Open the page, choose the table and rules in the new-game dialog, deal; the state."""
    page.goto(base + "/")
    page.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    page.select_option("#new-level", "easy")
    page.select_option("[data-testid=new-scoring]", scoring)
    page.select_option("#new-preset", preset)
    if big_gin or target is not None:
        page.click("#new-fields-wrap > summary")
        if big_gin:
            page.check("#f-big_gin_bonus-on")
        if target is not None:
            page.fill("#f-target", str(target))
    with page.expect_response(lambda r: r.url.endswith("/api/games")
                              and r.request.method == "POST") as resp:
        page.click("[data-testid=start-game]")
    assert resp.value.status == 201, resp.value.text()
    page.wait_for_selector("#dlg-new", state="hidden")
    wait_ready(page)
    return dict(resp.value.json()["state"])


def play_hand(page: Any) -> str:
    return play_until(page, ("hand-over", "game-over"))


CASES = [
    ("standard", "standard", False),
    ("standard", "oklahoma", False),
    ("standard", "straight", False),
    ("standard", "standard", True),
    ("hollywood", "standard", False),
    ("three_player", "standard", False),
    ("partnership", "partnership", False),
]


@pytest.mark.parametrize(("scoring", "preset", "big_gin"), CASES,
                         ids=["standard", "oklahoma", "straight", "big-gin", "hollywood",
                              "three-players", "partnership"])
def test_a_hand_of_each_variant_through_the_page(page: Any, server: LiveServer, scoring: str,
                                                 preset: str, big_gin: bool) -> None:
    st = start(page, server.base, scoring=scoring, preset=preset, big_gin=big_gin)
    rules = page.locator("[data-testid=rules]")
    assert st["rules"]["preset"] == preset and st.get("scoring", "standard") == scoring
    summary = rules.inner_text()
    if preset == "oklahoma":  # the knock limit of this hand, and why (O-1, O-2)
        up = st["initial_upcard"]
        m = re.search(r"(knock ≤ (\d+)|gin only) \(Oklahoma: upcard (\S+)\)", summary)
        assert m, summary
        value = RANK_VALUE.get(up[0]) or (10 if up[0] == "T" else int(up[0]))
        if up[0] == "A":
            assert m.group(1) == "gin only"
        else:
            assert int(m.group(2)) == value
        assert st["knock_limit_reason"] == "upcard"
    if preset == "straight":
        assert "no knocking" in summary
    if big_gin:
        assert "big gin 31" in summary and st["rules"]["big_gin_bonus"] == 31
        expect(page.locator("#big-gin-wrap")).to_be_visible()
    bar = page.locator("[data-testid=variant-bar]")
    if scoring == "standard":
        expect(bar).to_be_hidden()
    else:
        expect(bar).to_be_visible()
        assert {"hollywood": "Hollywood", "three_player": "Three players",
                "partnership": "Partnership"}[scoring] in summary
    ph = play_hand(page)
    result = page.locator("[data-testid=result]")
    expect(result).to_be_visible()
    score = page.locator("[data-testid=score]")
    if scoring == "hollywood":
        expect(score.locator(".hw-sheet")).to_be_visible()
        assert score.locator(".hw-sheet thead .gh").count() == 3
        expect(bar.locator(".vt-chip")).to_have_count(3)
    elif scoring == "three_player":
        expect(bar.locator("[data-player]")).to_have_count(3)
        expect(bar.locator(".vt-chip.out")).to_have_count(1)
        assert score.locator("thead th").count() == 4  # hand + three players
    elif scoring == "partnership":
        expect(bar.locator("[data-testid=team-score]")).to_contain_text("Us")
        other = bar.locator("[data-testid=other-table]")
        expect(other).to_contain_text("Other table")
        expect(other).to_contain_text("Partner C")
        expect(page.locator("#result-sub")).to_contain_text("Other table")
        assert score.locator("tbody tr").first.inner_text().startswith("1")
    if ph == "hand-over" and click_action(page, "[data-testid=next-hand]") not in (
            "hand-over", "game-over"):  # the next hand is dealt
        expect(result).to_be_hidden()


def test_three_players_the_person_deals_sits_out_then_continues(
        new_context: Any, server: LiveServer) -> None:
    """When the person deals, the two computers play that hand on the server; the page shows
    it (public information only) and the person continues with the next hand."""
    game = None
    for _ in range(40):
        data = server.api("POST", "/api/games", body={"level": "easy",
                                                       "scoring": "three_player"})
        if data["state"]["table"]["spectating"]:
            game = data
            break
    assert game, "the person never dealt first in 40 games"
    ctx = new_context(viewport=PHONE)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.base + "/")
    page.evaluate("(g) => localStorage.setItem('ginrummy.current', JSON.stringify(g))",
                  {"game_id": game["game_id"], "token": game["token"]})
    page.reload()
    assert wait_ready(page) == "hand-over"
    note = page.locator("[data-testid=sitting-out]")
    expect(note).to_be_visible()
    expect(note).to_contain_text("Computer 1")
    expect(note).to_contain_text("Computer 2")
    assert page.locator("[data-testid=hand] [data-card]").count() == 0
    res = page.locator("[data-testid=result]")
    expect(res).to_be_visible()
    names = res.locator(".rhand h3").all_inner_texts()
    if names:  # a knock or gin: both computers' hands shown, named
        assert all("Computer" in n for n in names) and not any("You" in n for n in names)
    ph = click_action(page, "[data-testid=next-hand]")
    assert ph in ("offer", "draw", "hand-over", "game-over")
    assert saved_game(page)["game_id"] == game["game_id"]
    state = server.api("GET", f"/api/games/{game['game_id']}", token=game["token"])
    assert state["hand_number"] == 2
    assert not errors, errors


def test_the_menu_keeps_the_rules_coherent(page: Any, server: LiveServer) -> None:
    page.goto(server.base + "/")
    page.wait_for_selector("#dlg-new[open] [data-testid=start-game]")
    page.click("#new-fields-wrap > summary")
    page.select_option("#new-preset", "oklahoma")
    expect(page.locator("#f-knock_limit")).to_be_disabled()  # O-1: the upcard sets it
    expect(page.locator("#f-oklahoma_ace")).to_be_enabled()
    page.uncheck("#f-oklahoma")
    expect(page.locator("#f-oklahoma_ace")).to_be_disabled()
    expect(page.locator("#f-knock_limit")).to_be_enabled()
    page.fill("#f-knock_limit", "0")
    page.locator("#f-knock_limit").dispatch_event("change")
    expect(page.locator("#f-oklahoma")).to_be_disabled()  # straight gin: no Oklahoma
    expect(page.locator("#f-undercut_bonus")).to_be_disabled()
    page.select_option("#new-preset", "eaai")
    page.select_option("[data-testid=new-scoring]", "three_player")
    expect(page.locator("#f-next_dealer")).to_be_disabled()  # 3P: the loser deals
    assert page.input_value("#f-next_dealer") == "winner"
    with page.expect_response(lambda r: r.url.endswith("/api/games")
                              and r.request.method == "POST") as resp:
        page.click("[data-testid=start-game]")
    assert resp.value.status == 201, resp.value.text()
    body = json.loads(resp.value.request.post_data)
    assert body["scoring"] == "three_player" and body["preset"] == "eaai"


# ------------------------------------------------------------------------------ score keeper
# RULES.md H-5 (pagat): wins A18, B12, A25, B30, A15, A22, B20, A25, B40, entered as the
# players would: who knocked, how the hand ended, the deadwood counts.
H5_HANDS = [
    ("Ana", "knock", 2, 20), ("Budi", "knock", 3, 15), ("Ana", "gin", None, 5),
    ("Budi", "gin", None, 10), ("Ana", "knock", 5, 20), ("Ana", "gin", None, 2),
    ("Ana", "undercut", 10, 0),  # Budi undercuts: (10 - 0) + 10 = 20
    ("Ana", "gin", None, 5), ("Budi", "gin", None, 20),
    ("Ana", "gin", None, 90),  # 110 into games 2 and 3: both close
]


def enter(page: Any, n: int, knocker: str, outcome: str, kd: int | None, dd: int) -> None:
    # the form of hand n: the page draws it anew once the last hand's answer is read, which
    # comes after the answer itself (a form filled before that would be replaced, unsent)
    expect(page.locator("#kp-entry-h")).to_have_text(re.compile(rf"^Hand {n}(\D|$)"))
    page.check(f"[data-testid=kp-t0-outcome-{outcome}]")
    page.select_option("[data-testid=kp-t0-knocker]", knocker)
    if kd is not None:
        page.fill("[data-testid=kp-t0-kd]", str(kd))
    page.fill("[data-testid=kp-t0-dd]", str(dd))
    with page.expect_response(lambda r: r.url.endswith("/hands")) as resp:
        page.click("[data-testid=kp-add]")
    assert resp.value.status == 200, resp.value.text()


def test_score_keeper_hollywood_match_csv_and_print(new_context: Any, server: LiveServer
                                                   ) -> None:
    """Under the page's real Content-Security-Policy (the CSV download is a blob)."""
    page = new_context(bypass_csp=False).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server.base + "/keeper")
    page.wait_for_selector("[data-testid=kp-create]")
    page.select_option("[data-testid=kp-scoring]", "hollywood")
    page.select_option("[data-testid=kp-preset]", "pagat")
    page.fill("[data-testid=kp-name-0]", "Ana")
    page.fill("[data-testid=kp-name-1]", "Budi")
    page.click("[data-testid=kp-create]")
    page.wait_for_selector("[data-testid=kp-add]")
    for i, hand in enumerate(H5_HANDS, 1):
        enter(page, i, *hand)
        if i == 8:  # H-5: game 1 closes after hand 8, A = 305, B = 122
            sheet = page.locator("[data-testid=kp-sheet]")
            expect(sheet.locator(".gh.closed")).to_have_count(1)
            expect(sheet.locator("tr.final")).to_contain_text("305")
            expect(sheet.locator("tr.final")).to_contain_text("122")
            expect(sheet.locator("td.closing")).to_have_text("105")
    expect(page.locator("[data-testid=kp-status]")).to_contain_text("finished")
    expect(page.locator("#kp-entry")).to_be_hidden()
    expect(page.locator("[data-testid=kp-sheet] .gh.closed")).to_have_count(3)
    # resumes after a reload (saved on the server, the page keeps the token)
    page.reload()
    expect(page.locator("[data-testid=kp-sheet] .gh.closed")).to_have_count(3)
    # CSV export
    with page.expect_download() as dl:
        page.click("[data-testid=kp-csv]")
    path = dl.value.path()
    assert dl.value.suggested_filename.endswith(".csv")
    text = open(path, encoding="utf-8-sig").read()  # noqa: SIM115
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["scoring", "hollywood"]
    assert ["8", "Ana", "gin", "25", "1 2 3"] in rows
    assert ["totals", "305", "122"] in rows
    assert rows[-1] == ["over", "yes"]
    # print: the browser's print, with a stylesheet that keeps only the sheet
    page.evaluate("() => { window.__printed = 0; window.print = () => { window.__printed++; }; }")
    page.click("[data-testid=kp-print]")
    assert page.evaluate("() => window.__printed") == 1
    page.emulate_media(media="print")
    expect(page.locator("[data-testid=kp-csv]")).to_be_hidden()
    expect(page.locator("[data-testid=kp-sheet]")).to_be_visible()
    page.emulate_media(media="screen")
    assert not errors, errors


def test_score_keeper_shown_cards_in_indonesian(page: Any, server: LiveServer) -> None:
    """The other way to enter a hand: the shown cards, scored with optimal layoffs (T-5)."""
    page.goto(server.base + "/keeper?lang=id")
    page.wait_for_selector("[data-testid=kp-create]")
    expect(page.locator("[data-testid=kp-create]")).to_have_text("Mulai lembar skor")
    page.fill("[data-testid=kp-name-0]", "Ana")
    page.fill("[data-testid=kp-name-1]", "Budi")
    page.click("[data-testid=kp-create]")
    page.wait_for_selector("[data-testid=kp-add]")
    page.check("[data-testid=kp-t0-mode-cards]")
    page.fill("[data-testid=kp-t0-kcards]", "3S 4S 5S 9H 9D 9C JD QD KD 4H")
    page.fill("[data-testid=kp-t0-dcards]", "6s 7s qc qh qs 4c 5c 6c ac 2d")
    with page.expect_response(lambda r: r.url.endswith("/hands")) as resp:
        page.click("[data-testid=kp-add]")
    assert resp.value.status == 200
    expect(page.locator("[data-testid=kp-status]")).to_contain_text("Budi mendapat 26")
    # a wrong entry is refused with the server's reason, and nothing is added
    page.check("[data-testid=kp-t0-outcome-gin]")
    page.fill("[data-testid=kp-t0-kcards]", "3S 4S 5S 9H 9D 9C JD QD KD 4H")
    with page.expect_response(lambda r: r.url.endswith("/hands")) as resp:
        page.click("[data-testid=kp-add]")
    assert resp.value.status == 422
    # in the page's language and in plain words (issue 13 item 2)
    expect(page.locator("[data-testid=kp-error]")).to_have_text(
        "Ronde 2: Bukan gin: kartu mati pengetuk 4.")
