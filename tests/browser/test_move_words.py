"""One wording of a move at every kind of table (issue 10, found by a fresh tester): the move log
at a table of people and at a variant table says each move in the same full sentences as a game
against the computer ("Ayu discarded the jack of clubs."), each seat by its name, in the page's
language; never the short form ("Ayu discarded J♣") of the other table's strip.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import LiveServer, click_action, saved_game, wait_ready
from test_friends import (
    IDLE,
    WAITING,
    create_table,
    join_table,
    move,
    person,
    ready,
    start,
)
from test_variants import start as start_variant

pytestmark = pytest.mark.browser

LOCALES = Path(__file__).parents[2] / "src/ginrummy/web/locales"
CAT = {lang: json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
       for lang in ("en", "id")}


def card_name(card: str, lang: str) -> str:
    c = CAT[lang]
    rank = c.get(f"rankName.{card[0]}", "10" if card[0] == "T" else card[0])
    return c["card.name"].replace("{rank}", rank).replace("{suit}", c[f"suit.{card[1]}"])


def log_lines(page: Any) -> list[dict[str, str]]:
    return list(page.locator("#moves-list li").evaluate_all(
        "els => els.map(e => ({type: e.dataset.type || '', text: e.textContent}))"))


def server_events(server: LiveServer, page: Any) -> list[dict[str, Any]]:
    g = saved_game(page)
    st = server.api("GET", f"/api/games/{g['game_id']}", g["token"])
    return [e for e in st["events"] if e["hand"] == st["hand_number"]]


def test_a_table_of_people_logs_moves_in_full_sentences(new_context: Any,
                                                        server: LiveServer) -> None:
    ann = person(new_context)
    bo = person(new_context, locale="id-ID")
    url = create_table(ann, server.base, name="Ann")
    join_table(bo, url, "Bo")
    start(ann)
    bo.wait_for_selector(WAITING, state="hidden", timeout=10_000)
    # play (never ending the hand on purpose) until each has discarded at least once
    for _ in range(40):
        evs = server_events(server, ann)
        if {0, 1} <= {e["seat"] for e in evs if e["type"] == "discard"}:
            break
        for p in (ann, bo):
            ph = ready(p)
            if ph in ("offer", "draw", "discard"):
                move(p, ph, finish=False)
                break
        else:
            ann.wait_for_timeout(50)
    else:
        raise AssertionError("no discard by each person in 40 moves")
    for p in (ann, bo):
        p.wait_for_selector(IDLE)
    evs = server_events(server, ann)
    for p, you, other, lang in ((ann, 0, "Bo", "en"), (bo, 1, "Ann", "id")):
        p.wait_for_function("(n) => document.querySelectorAll('#moves-list li').length >= n",
                            arg=len(evs), timeout=10_000)
        lines = log_lines(p)
        assert [ln["type"] for ln in lines] == [e["type"] for e in evs], (lines, evs)
        for ln, e in zip(lines, evs, strict=True):
            if e["type"] == "deal":
                dealer = "you" if e["dealer"] == you else other
                want = ("Hand 1: you deal." if dealer == "you" else f"Hand 1: {other} deals.") \
                    if lang == "en" else ("Ronde 1: kamu membagi kartu." if dealer == "you"
                                          else f"Ronde 1: {other} membagi kartu.")
                assert ln["text"] == want, ln
            elif e["type"] == "discard":
                card = card_name(e["card"], lang)
                if lang == "en":
                    want = f"{'You' if e['seat'] == you else other} discarded the {card}."
                else:
                    want = f"{'Kamu' if e['seat'] == you else other} membuang {card}."
                assert ln["text"] == want, ln
            elif e["type"] == "draw_stock" and e["seat"] != you:
                want = (f"{other} drew from the stock." if lang == "en"
                        else f"{other} mengambil dari stok.")
                assert ln["text"] == want, ln
            # every line is a sentence: never the short card form of the other table's strip
            assert ln["text"].endswith("."), ln
            assert "\u2665" not in ln["text"] and "\u2660" not in ln["text"], ln
    assert not ann.errors and not bo.errors


def test_a_three_player_table_logs_each_computer_by_its_name(page: Any,
                                                             server: LiveServer) -> None:
    start_variant(page, server.base, scoring="three_player")
    # play until the deal in play has a computer's discard (the person may sit a deal out: the
    # computers then play it alone, and the next hand is dealt by a click)
    for _ in range(60):
        evs = server_events(server, page)
        if any(e["type"] == "discard" and e["seat"] not in (0, None) for e in evs):
            break
        ph = wait_ready(page)
        if ph == "game-over":
            pytest.fail("the game ended before a computer discarded")
        if ph == "hand-over":
            click_action(page, "[data-testid=next-hand]")
        else:
            move(page, ph, finish=False)
    else:
        raise AssertionError("no computer discarded in 60 moves")
    page.wait_for_selector(IDLE)
    evs = server_events(server, page)
    page.wait_for_function("(n) => document.querySelectorAll('#moves-list li').length >= n",
                           arg=len(evs), timeout=10_000)
    lines = log_lines(page)
    assert [ln["type"] for ln in lines] == [e["type"] for e in evs]
    seen = 0
    for ln, e in zip(lines, evs, strict=True):
        if e["type"] == "discard" and e["seat"] != 0:
            card = card_name(e["card"], "en")
            assert ln["text"] == f"Computer {e['seat']} discarded the {card}.", ln
            seen += 1
        if e["type"] == "deal" and e["dealer"] != 0:
            assert ln["text"] == f"Hand {e['hand']}: Computer {e['dealer']} deals.", ln
    assert seen
