"""A seat follows its person to another device (issue 21 item 13, docs/tables.md "A seat follows
its person"), on the page: the person finds their own link in the table's tools ("Other
device…"), opens it on a phone (another browser: its own storage), and plays the seat there with
the same cards; the first device says the seat is not there any more. The other person never
sees that link.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_helpers import PHONE, LiveServer
from test_friends import IDLE, _started_pair, person

pytestmark = pytest.mark.browser


def hand_of(page: Any) -> list[str]:
    return sorted(page.locator("[data-testid=hand] [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"))


def test_a_person_takes_their_seat_to_a_phone_with_their_own_link(new_context: Any,
                                                                  server: LiveServer) -> None:
    ann, bo, _ = _started_pair(new_context, server.base)
    # Bo's own link, in his table's tools; Ann's page has her own, never Bo's
    bo.get_by_test_id("seat-link").click()
    link = bo.get_by_test_id("rejoin-link")
    link.wait_for(state="visible")
    url = link.get_attribute("href")
    assert url and "/rejoin/" in url and url.split("/rejoin/")[1].split("#")[0].endswith("/1")
    code = url.split("#")[1]
    assert code not in ann.content()
    assert ann.get_by_test_id("rejoin-link").get_attribute("href") != url
    cards = hand_of(bo)
    # the phone opens it: Bo's seat and cards there, the address cleaned of the code
    phone = person(new_context, viewport=PHONE, has_touch=True, is_mobile=True)
    with phone.expect_response(lambda r: r.url.endswith("/rejoin")
                               and r.request.method == "POST") as resp:
        phone.goto(url)
    assert resp.value.status == 201, resp.value.text()
    phone.wait_for_selector("[data-testid=hand] [data-card]")
    phone.wait_for_selector(IDLE)
    assert hand_of(phone) == cards
    assert "#" not in phone.url and "/rejoin/" not in phone.url
    assert "Bo" in phone.locator("#me-name").inner_text()
    assert "on this device" in phone.locator("#toast").inner_text()
    # the phone has a link of its own now (the old one is used up)
    new_url = phone.get_by_test_id("rejoin-link").get_attribute("href")
    assert new_url and new_url != url
    # the first device learns the seat is gone from it and says why
    bo.wait_for_selector("#dlg-new[open]", timeout=15_000)
    assert "another device" in bo.locator("#toast").inner_text()
    # the used link, opened again, says it no longer works
    other = person(new_context)
    other.goto(url)
    other.wait_for_selector("#dlg-new[open]")
    assert "no longer works" in other.locator("#toast").inner_text()
    for p in (ann, bo, phone, other):
        assert not p.errors, p.errors
