"""Each person leaves a hand's result when they choose (issue 21 item 9): at a table of people
one person's Next hand starts the next deal for everyone, but the others keep the showdown on
screen, told "The next hand has started" with a button to go to it. At a two-player table and at
a partnership table of four people (where one click used to move three people on), with the
people on one server, and at phone size on two server processes on PostgreSQL: the person who
goes on on the first process, the others' pages on the second (the next deal reaches them
through the database's notifications).

(Before: the result vanished from the other people's screens within 0.1 s of the click.)
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import DESKTOP, PHONE, phase
from table_driver import Table, wait_until
from two_servers import ONE, TWO, Sites

pytestmark: Any = pytest.mark.browser

#: one seed per test (the invite codes come from it too: two tables of one seed would clash on
#: one database; the two kinds of sites have a database each)
SEEDS = {"phone": 2121, "desktop": 2123, "partnership": 2125}
RESULT = "[data-testid=result]"
PROMPT = "[data-testid=next-started]"
IN_PLAY = ("offer", "draw", "discard", "opponent")


def person(new_context: Any, viewport: dict[str, int]) -> Any:
    """A page of its own browser context (one person); page errors are kept."""
    page = new_context(viewport=viewport).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


POINTS = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}


def shed(st: dict[str, Any]) -> dict[str, Any]:
    """The discard of the highest card outside the hand's melds (else any)."""
    melded = {c for m in st["arrangement"]["melds"] for c in m}
    options = [a for a in st["legal"] if a["type"] == "discard"]
    return max(options, key=lambda a: (a["card"] not in melded, POINTS[a["card"][0]]))


def end_hand(table: Table, seed: int) -> None:
    """The people move through the API until the deal is over (at a partnership table both
    tables' deals): a knock or gin as soon as it may, else pass the offer, draw from the
    stock, shed the highest unmelded card."""
    for _ in range(800):
        if all(table.state(seat)["phase"] == "hand-over" for seat in table.tokens):
            return
        for seat in table.tokens:
            st = table.state(seat)
            if st["phase"] not in ("offer", "draw", "discard"):
                continue
            legal = st["legal"]
            ends = [a for a in legal if a["type"] in ("big_gin", "gin", "knock")]
            if ends:
                pick = min(ends, key=lambda a: a.get("deadwood_points", 0))
            else:
                pick = shed(st) if st["phase"] == "discard" else next(
                    a for a in reversed(legal) if a["type"] in ("pass", "draw_stock"))
            table.act(seat, pick["action"], st["seq"])
            break
    raise AssertionError(f"the hand did not end (seed {seed})")


@pytest.mark.parametrize("sites", [ONE, TWO], indirect=True)
def test_the_deals_come_from_the_seed_the_test_fixes(sites: Sites) -> None:
    """What the tests here rest on: after ``fix(seed)`` a server deals the same cards and the
    same computer moves from either process, and another seed deals others."""
    def first_state(srv: Any, seed: int) -> tuple[Any, ...]:
        sites.fix(seed)
        st = Table.against_computers(srv, "standard").state(0)
        return st["seq"], st["hand"], st["phase"], st["dealer"], st["discard_pile"]

    here = first_state(sites.first, 2127)
    assert first_state(sites.second, 2127) == here
    assert first_state(sites.second, 2129)[1] != here[1]


def shown_result(page: Any) -> tuple[str, str, str]:
    """The result panel's heading, hands and breakdown as the page shows them."""
    return (page.inner_text("#result-h"), page.inner_text("#result-hands"),
            page.inner_text("#breakdown"))


def keeps_result(page: Any, before: tuple[str, str, str], who: str) -> None:
    """``page`` still shows the result it showed (``before``) with the "next hand has started"
    prompt and its button; its Next hand enabled. :raises AssertionError: it does not."""
    page.wait_for_selector(f"{PROMPT}:visible", timeout=10_000)
    assert "The next hand has started" in page.inner_text(PROMPT), who
    assert page.locator(RESULT).is_visible(), who
    assert shown_result(page) == before, who
    assert phase(page) == "hand-over", who
    assert page.locator("[data-testid=next-hand]").is_enabled(), who
    assert page.locator("[data-testid=go-next]").is_visible(), who


def goes_on(page: Any) -> None:
    """The person leaves the result for the deal in play (the prompt's button)."""
    page.click("[data-testid=go-next]")
    page.wait_for_selector(RESULT, state="hidden", timeout=5_000)
    wait_until(lambda: phase(page) in IN_PLAY, timeout=10)
    assert page.locator("[data-testid=hand] [data-card]").count() >= 10
    assert not page.locator(PROMPT).is_visible()


@pytest.mark.parametrize(("size", "sites"), [("phone", ONE), ("desktop", ONE), ("phone", TWO)],
                         indirect=["sites"])
def test_one_persons_next_hand_leaves_the_result_on_the_others_screens(
        new_context: Any, sites: Sites, size: str) -> None:
    seed = SEEDS[size]
    sites.fix(seed)
    table = Table.of_people(sites.first, "standard", 2)
    end_hand(table, seed)
    viewport = PHONE if size == "phone" else DESKTOP
    ann, bo = person(new_context, viewport), person(new_context, viewport)
    table.open(ann, 0)
    table.at(sites.second).open(bo, 1)
    for p in (ann, bo):
        p.wait_for_selector(f"{RESULT}:visible", timeout=10_000)
        assert phase(p) == "hand-over"
    before = shown_result(bo)
    assert before[0] and before[1]
    assert not bo.locator(PROMPT).is_visible()

    # Ann goes on: her page moves to the next hand
    ann.click("[data-testid=next-hand]")
    ann.wait_for_selector(RESULT, state="hidden", timeout=10_000)
    wait_until(lambda: phase(ann) in IN_PLAY, timeout=10)
    # Bo still has the result, now with the prompt (the next hand reached his page live)
    keeps_result(bo, before, "Bo")
    bo.wait_for_timeout(600)  # and it stays: nothing takes it away
    keeps_result(bo, before, "Bo")
    bo.screenshot(path=f"/tmp/f3_next_started_{size}_{sites.processes}.png")

    # Bo goes on when he chooses: the next hand, as it is now, in play
    goes_on(bo)
    # both are at the same deal: exactly one of them is to move
    assert sorted([phase(ann) == "opponent", phase(bo) == "opponent"]) == [False, True], seed
    assert not ann.errors and not bo.errors, (ann.errors, bo.errors)


@pytest.mark.parametrize("sites", [ONE, TWO], indirect=True)
def test_at_a_partnership_one_click_moves_only_its_person_on(new_context: Any,
                                                              sites: Sites) -> None:
    """Four people at phone size: Ann's Next hand (first process) leaves the three others
    (second process) each with their own table's result and the prompt; each goes on alone."""
    seed = SEEDS["partnership"]
    sites.fix(seed)
    table = Table.of_people(sites.first, "partnership", 4)
    end_hand(table, seed)
    ann = person(new_context, PHONE)
    table.open(ann, 0)
    others = {seat: person(new_context, PHONE) for seat in (1, 2, 3)}
    there = table.at(sites.second)
    for seat, p in others.items():
        there.open(p, seat)
    pages = {0: ann, **others}
    before: dict[int, tuple[str, str, str]] = {}
    for seat, p in pages.items():
        p.wait_for_selector(f"{RESULT}:visible", timeout=10_000)
        assert phase(p) == "hand-over", (seat, seed)
        before[seat] = shown_result(p)
        assert before[seat][0] and before[seat][1], (seat, seed)
        assert not p.locator(PROMPT).is_visible(), seat
    # each table's showdown: seats 0 and 1 see the same hands, 2 and 3 theirs
    hands = table.state(0)["result"]["hands"], table.state(2)["result"]["hands"]
    assert {h["seat"] for h in hands[0]} != {h["seat"] for h in hands[1]}, seed
    others[2].screenshot(path=f"/tmp/f5_partnership_result_{sites.processes}.png")

    ann.click("[data-testid=next-hand]")
    ann.wait_for_selector(RESULT, state="hidden", timeout=10_000)
    wait_until(lambda: phase(ann) in IN_PLAY, timeout=10)
    for seat, p in others.items():
        keeps_result(p, before[seat], f"seat {seat} (seed {seed})")
    others[1].wait_for_timeout(600)  # and it stays for all three
    for seat, p in others.items():
        keeps_result(p, before[seat], f"seat {seat} (seed {seed})")
    others[2].screenshot(path=f"/tmp/f5_partnership_next_started_{sites.processes}.png")

    # Cy (Ann's partner, at the other table) goes on: Bo and Di still have their results
    goes_on(others[2])
    for seat in (1, 3):
        keeps_result(others[seat], before[seat], f"seat {seat} (seed {seed})")
    for seat in (1, 3):
        goes_on(others[seat])
    # all four at the next deal: one person to move at each of its two tables
    phases = {seat: phase(p) for seat, p in pages.items()}
    assert sorted(ph == "opponent" for ph in phases.values()) == [False, False, True, True], \
        (phases, seed)
    for seat, p in pages.items():
        assert not p.errors, (seat, p.errors)
