"""A guest chooses a seat, hence a team (issue 21 item 14): the join dialog of a partnership
with two open seats or more offers them as choices (the first checked), and the guest sits
where they chose; with one open seat there is nothing to choose. Phone size, on one server and
on two server processes sharing a PostgreSQL database (the table made on the first, the guests
joining through the second, the creator's page seeing them sit)."""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import PHONE, LiveServer
from test_friends import WAITING, create_table, person
from two_servers import ONE, TWO, Sites, served_by

pytestmark = pytest.mark.browser

PARTNERSHIP = ("open", "open", "open")  # Ann at seat 0; seats 1, 2 and 3 open


def _open_join(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#dlg-join[open] [data-testid=join-name]")


def _join(page: Any, name: str) -> dict[str, Any]:
    page.fill("[data-testid=join-name]", name)
    with page.expect_response(lambda r: "/join" in r.url and r.request.method == "POST") as resp:
        page.click("[data-testid=join-table]")
    assert resp.value.status == 201, resp.value.text()
    page.wait_for_selector("#dlg-join", state="hidden")
    return dict(resp.value.json())


@pytest.mark.parametrize("sites", [ONE, TWO], indirect=True)
def test_a_partnership_guest_chooses_a_seat_and_team(sites: Sites, new_context: Any) -> None:
    sites.fix(2141)
    ann = person(new_context, viewport=PHONE)
    url = served_by(create_table(ann, sites.first.base, name="Ann", scoring="partnership",
                                 seats=PARTNERSHIP), sites.second)
    bo = person(new_context, viewport=PHONE)
    _open_join(bo, url)
    assert bo.is_visible("#join-choose")
    choices = bo.locator("[data-testid=join-seat]")
    assert [choices.nth(i).get_attribute("value") for i in range(choices.count())] == \
        ["1", "2", "3"]
    assert choices.nth(0).is_checked()  # the first open seat unless another is chosen
    team_of_2 = bo.locator("#join-seats li[data-seat='2'] .rel").inner_text()
    assert team_of_2 == "team 1"  # Ann's partner's seat
    bo.locator("#join-seats li[data-seat='2'] label").click()  # the whole row is the choice
    assert choices.nth(1).is_checked() and not choices.nth(0).is_checked()
    joined = _join(bo, "Bo")
    assert joined["seat"] == 2  # Ann's partner, as chosen
    assert joined["state"]["you"] == 2

    cy = person(new_context, viewport=PHONE)
    _open_join(cy, url)
    assert [cy.locator("[data-testid=join-seat]").nth(i).get_attribute("value")
            for i in range(2)] == ["1", "3"]
    cy.locator("#join-seats li[data-seat='3'] label").click()
    assert _join(cy, "Cy")["seat"] == 3

    di = person(new_context, viewport=PHONE)
    _open_join(di, url)  # one open seat left: nothing to choose
    assert not di.is_visible("#join-choose")
    assert di.locator("[data-testid=join-seat]").count() == 0
    assert _join(di, "Di")["seat"] == 1
    ann.wait_for_selector(f"{WAITING} [data-testid=start-table]:enabled", timeout=10_000)
    for p in (ann, bo, cy, di):
        assert p.errors == []


def test_a_seat_taken_meanwhile_is_said_and_the_choice_renewed(new_context: Any,
                                                                 server: LiveServer) -> None:
    ann = person(new_context)
    url = create_table(ann, server.base, name="Ann", scoring="partnership", seats=PARTNERSHIP)
    bo, cy = person(new_context), person(new_context)
    _open_join(bo, url)
    _open_join(cy, url)
    bo.locator("#join-seats li[data-seat='2'] label").click()
    cy.locator("#join-seats li[data-seat='2'] label").click()
    assert _join(bo, "Bo")["seat"] == 2
    cy.fill("[data-testid=join-name]", "Cy")
    with cy.expect_response(lambda r: "/join" in r.url and r.request.method == "POST") as resp:
        cy.click("[data-testid=join-table]")
    assert resp.value.status == 409
    cy.wait_for_selector("[data-testid=join-error]:visible")
    assert "took that seat" in cy.inner_text("[data-testid=join-error]")
    # the seats as they are now: seat 2 is Bo's, 1 and 3 are the choices
    cy.wait_for_selector("#join-seats li[data-seat='2'][data-kind=person]")
    assert [cy.locator("[data-testid=join-seat]").nth(i).get_attribute("value")
            for i in range(2)] == ["1", "3"]
    assert _join(cy, "Cy")["seat"] == 1
