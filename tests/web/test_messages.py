"""The server's messages in the person's language (issue 13 item 2): one catalog of texts
(locales/*.json, ``err.<reason>``) words every reason for the API's ``message`` and for the page,
in the request's language (``?lang``, the ``lang`` cookie, ``Accept-Language``; English by
default), with plain words for the parameters (no field names).
"""

from __future__ import annotations

import json
import pickle
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from web_helpers import Table

from ginrummy.errors import REASONS, IllegalActionError, RulesError
from ginrummy.keeper import SheetInputError, score_sheet
from ginrummy.rules import Rules
from ginrummy.web.http.i18n import LANGUAGES
from ginrummy.web.http.messages import catalog, placeholders, reason_key, reason_text
from ginrummy.web.http.ratelimit import RateLimits

ROOT = Path(__file__).resolve().parents[2]
I18N_JS = ROOT / "src" / "ginrummy" / "web" / "static" / "i18n.js"

#: the issue's example, a knock over the limit entered on a score sheet
KNOCK_15 = {"knocker": "Ana", "knocker_deadwood": 15, "defender_deadwood": 20}
OVER_LIMIT = {
    "en": "Hand 1: The knocker's deadwood is 15, over the knock limit of 10.",
    "id": "Ronde 1: Kartu mati pengetuk 15, melebihi batas ketuk 10.",
    "ms": "Pusingan 1: Deadwood pemain yang knock ialah 15, melebihi had Knock 10.",
    "jv": "Babak 1: Kertu mati sing ngetuk 15, luwih saka wates ngetuk 10.",
}


# ------------------------------------------------------------------------- the catalogs
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_reason_has_a_text_in_every_language(lang: str) -> None:
    cat = catalog(lang)
    for code, params in REASONS.items():
        text = cat.get(reason_key(code))
        assert text, f"{lang}: no text for {code}"
        # every parameter is said, and nothing else is asked for
        assert placeholders(text) == set(params), (lang, code, text)
    for frame in ("err.at_hand", "err.at_table"):
        assert "{what}" in cat[frame] and "{hand}" in cat[frame]
    assert "{table}" in cat["err.at_table"]


@pytest.mark.parametrize("lang", ["id", "ms", "jv"])
def test_the_texts_are_translated(lang: str) -> None:
    same = [c for c in REASONS if c != "other"
            and catalog(lang)[reason_key(c)] == catalog("en")[reason_key(c)]]
    assert same == []


def test_the_issue_example_in_every_language() -> None:
    try:
        score_sheet({"players": ["Ana", "Budi"], "hands": [KNOCK_15]})
    except SheetInputError as e:
        assert (e.reason, e.params) == ("over_knock_limit",
                                        {"hand": 1, "deadwood": 15, "limit": 10})
        for lang, words in OVER_LIMIT.items():
            assert reason_text(e.reason, e.params, lang) == words
    else:
        pytest.fail("a knock with deadwood 15 was accepted")


def test_parameters_in_plain_words() -> None:
    # a field by its label, a card by its name, choices by their names, numbers the language's
    assert reason_text("sheet_number", {"field": "knocker_deadwood", "max": 100000,
                                        "value": "-3", "hand": 2}, "id") == \
        "Ronde 2: kartu mati pengetuk: berikan bilangan bulat dari 0 sampai 100.000 (bukan -3)."
    assert reason_text("taken_card", {"card": "QS"}, "en") == \
        "You cannot discard the queen of spades: you just took it from the discard pile."
    text = reason_text("rules_choice", {"field": "shutout", "choices": ["none", "flat"],
                                        "value": "x"}, "en")
    assert text.startswith("Shutout: choose one of ") and "_" not in text and "{" not in text
    assert reason_text("unknown_level", {"level": "god", "choices": ["easy", "hard"]},
                       "ms") == "Tiada tahap bernama “god”. Pilih salah satu daripada Mudah, Sukar."
    assert reason_text("not_in_hand", {"card": "AS", "hand": 1, "table": 2}, "jv").startswith(
        "Babak 1, meja 2: ")
    # seats are 0-based in the API and counted from 1 on the page ("Seat 3" is seat 2)
    assert reason_text("seat_taken", {"seat": 2}, "en") == "Seat 3 is taken."


def test_text_the_person_typed_is_never_read_as_a_placeholder() -> None:
    text = reason_text("not_a_card", {"text": "{what}{hand}", "hand": 3}, "en")
    assert text.startswith("Hand 3: “{what}{hand}” is not a card.")


@settings(max_examples=150, deadline=None)
@given(code=st.sampled_from(sorted(REASONS)), lang=st.sampled_from(LANGUAGES),
       data=st.data())
def test_any_reason_with_any_parameters_is_worded(code: str, lang: str, data: Any) -> None:
    value = st.one_of(st.integers(-10**6, 10**6), st.text(alphabet="abcXYZ 7H", max_size=8),
                      st.lists(st.sampled_from(["7H", "QS", "easy", "none", "Ana"]), max_size=3))
    params = {p: data.draw(value, label=p) for p in REASONS[code]}
    if data.draw(st.booleans(), label="placed"):
        params["hand"] = data.draw(st.integers(1, 500), label="hand")
    text = reason_text(code, params, lang)
    assert text and "{" not in text and "}" not in text
    if "hand" in params:
        assert str(params["hand"]) in text


def test_engine_errors_carry_their_reason_and_refuse_unknown_ones() -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset("standard", knock_limit=99)
    assert info.value.reason == "rules_range"
    assert info.value.params == {"field": "knock_limit", "min": 0, "max": 10, "value": 99}
    again = pickle.loads(pickle.dumps(info.value))  # a process pool keeps the reason
    assert (again.reason, again.params, str(again)) == (info.value.reason, info.value.params,
                                                        str(info.value))
    with pytest.raises(ValueError):
        IllegalActionError("x", "no_such_reason")
    with pytest.raises(ValueError):
        IllegalActionError("x", "over_knock_limit", deadwood=3)  # limit missing


# ---------------------------------------------------------------------------- the API
def _sheet(client: TestClient) -> tuple[str, dict[str, str]]:
    made = client.post("/api/sheets", json={"players": ["Ana", "Budi"]}).json()
    return made["sheet_id"], {"Authorization": f"Bearer {made['token']}"}


def test_the_keeper_answers_in_the_language_asked(client: TestClient) -> None:
    sid, auth = _sheet(client)
    url = f"/api/sheets/{sid}/hands"
    asked: list[tuple[dict[str, str], str, str]] = [
        ({}, "", "en"),
        ({"Accept-Language": "id-ID,id;q=0.9,en;q=0.8"}, "", "id"),
        ({"Accept-Language": "fr, ms;q=0.5"}, "", "ms"),
        ({"Accept-Language": "id"}, "?lang=jv", "jv"),      # ?lang first
        ({"Accept-Language": "de"}, "?lang=xx", "en"),      # no such language: English
    ]
    for headers, query, lang in asked:
        r = client.post(url + query, json={"hand": KNOCK_15}, headers={**auth, **headers})
        assert r.status_code == 422
        assert r.headers["content-language"] == lang
        detail = r.json()["detail"]
        assert detail["code"] == "sheet"
        assert detail["reason"] == {"code": "over_knock_limit",
                                    "params": {"hand": 1, "deadwood": 15, "limit": 10}}
        assert detail["message"] == OVER_LIMIT[lang]
    # the cookie the pages set when the person picks a language
    client.cookies.set("lang", "id")
    try:
        r = client.post(url, json={"hand": KNOCK_15},
                        headers={**auth, "Accept-Language": "en"})
        assert r.json()["detail"]["message"] == OVER_LIMIT["id"]
    finally:
        client.cookies.delete("lang")
    assert client.get(f"/api/sheets/{sid}", headers=auth).json()["sheet"]["hands"] == []


def test_the_game_api_answers_in_the_language_asked(
        make_client: Callable[..., TestClient]) -> None:
    client = make_client()
    t = Table(client, {"level": "easy"})
    id_ = {"Accept-Language": "id"}
    r = client.post(f"/api/games/{t.id}/actions", json={"action": "discard ZZ",
                                                        "seq": t.state["seq"]},
                    headers={**t.headers, **id_})
    assert r.json()["detail"]["reason"] == {"code": "not_a_card", "params": {"text": "ZZ"}}
    assert r.json()["detail"]["message"].startswith("“ZZ” bukan kartu.")
    legal = {a["type"] for a in t.state["legal"]}
    if "discard" not in legal:  # an illegal action: a discard before drawing, or not the turn
        discard = f"discard {t.state['hand'][0]}"
        r = client.post(f"/api/games/{t.id}/actions",
                        json={"action": discard, "seq": t.state["seq"]},
                        headers={**t.headers, "Accept-Language": "ms"})
        assert r.json()["detail"]["code"] == "illegal"
        reason = r.json()["detail"]["reason"]["code"]
        assert reason in ("draw_first", "offer_take_or_pass", "not_your_turn"), reason
        assert r.json()["detail"]["message"] == reason_text(reason, {}, "ms")
    r = client.post("/api/games", json={"level": "god"}, headers={"Accept-Language": "jv"})
    assert r.json()["detail"]["message"].startswith("Ora ana tingkat sing jenenge “god”.")
    r = client.post("/api/games", json={"rules": {"knock_limit": 11}},
                    headers={"Accept-Language": "id"})
    assert r.json()["detail"]["reason"]["code"] == "rules_range"
    assert r.json()["detail"]["message"] == "Batas ketuk harus antara 0 dan 10 (bukan 11)."
    r = client.post(f"/api/games/{t.id}/actions", json={"seq": "x"}, headers=t.headers)
    assert r.status_code == 422 and isinstance(r.json()["detail"], list)  # FastAPI's list
    assert r.json()["reason"]["code"] == "body_invalid"
    assert set(r.json()["reason"]["params"]["fields"]) == {"action", "seq"}
    assert r.json()["message"].startswith("The request has wrong or missing parts")
    limited = make_client(rate_limits=RateLimits(creates=1, requests=None))
    limited.post("/api/games", json={})
    r = limited.post("/api/games", json={}, headers={"Accept-Language": "ms"})
    assert r.status_code == 429
    seconds = int(r.headers["retry-after"])
    assert r.json()["detail"]["reason"] == {"code": "too_many_games",
                                            "params": {"seconds": seconds}}
    assert r.json()["detail"]["message"].startswith("Terlalu banyak permainan baharu")


def test_tables_errors_are_worded(client: TestClient) -> None:
    r = client.post("/api/games", json={"seats": [{"kind": "person"}, {"kind": "open"}],
                                        "name": "A\u202eB"}, headers={"Accept-Language": "id"})
    assert r.json()["detail"]["code"] == "name"
    assert r.json()["detail"]["reason"] == {"code": "name_control",
                                            "params": {"char": "U+202E"}}
    assert r.json()["detail"]["message"] == \
        "Nama tidak boleh berisi karakter tersembunyi U+202E."
    # the same refusal of a name checked by the request's model (a sheet's players)
    r = client.post("/api/sheets", json={"players": ["A\u202eB", "Budi"]},
                    headers={"Accept-Language": "id"})
    assert r.status_code == 422 and isinstance(r.json()["detail"], list)
    assert r.json()["reason"] == {"code": "name_control", "params": {"char": "U+202E"}}
    assert r.json()["message"] == "Nama tidak boleh berisi karakter tersembunyi U+202E."
    made = client.post("/api/games", json={"seats": [{"kind": "person"}, {"kind": "open"}],
                                           "name": "Ann"}).json()
    r = client.post(f"/api/games/{made['game_id']}/start",
                    headers={"Authorization": f"Bearer {made['token']}",
                             "Accept-Language": "jv"})
    assert r.status_code == 409 and r.json()["detail"]["code"] == "seats_open"
    assert r.json()["detail"]["message"] == catalog("jv")["err.seats_open"]


# ------------------------------------------------------ the page words them the same way
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_page_and_the_server_word_a_reason_alike(tmp_path: Path) -> None:
    samples = [
        ("over_knock_limit", {"hand": 1, "deadwood": 15, "limit": 10}),
        ("sheet_number", {"field": "knocker_deadwood", "max": 100000, "value": "-3", "hand": 2}),
        ("taken_card", {"card": "TD"}),
        ("order_not_held", {"cards": ["AS", "KH"]}),
        ("rules_choice", {"field": "shutout", "choices": ["none", "flat", "double_total"],
                          "value": "x"}),
        ("scoring_fixed", {"scoring": "three_player", "field": "next_dealer", "value": "loser"}),
        ("unknown_level", {"level": "god", "choices": ["easy", "medium"]}),
        ("quick_message", {"choices": ["good_game", "nice_hand"]}),
        ("not_in_hand", {"card": "7C", "hand": 4, "table": 2}),
        ("too_many_games", {"seconds": 42}),
        ("not_a_card", {"text": "{what}"}),
        ("seat_taken", {"seat": 0}),
    ]
    script = tmp_path / "words.mjs"
    script.write_text(
        f"import {{ makeT, serverReasonText }} from {json.dumps(I18N_JS.as_uri())};\n"
        "import { readFileSync } from 'node:fs';\n"
        "const [dir, samples] = [process.argv[2], JSON.parse(process.argv[3])];\n"
        "const out = {};\n"
        "for (const lang of ['en', 'id', 'ms', 'jv']) {\n"
        "  const t = makeT(JSON.parse(readFileSync(`${dir}/${lang}.json`, 'utf8')));\n"
        "  out[lang] = samples.map(([code, params]) =>\n"
        "    serverReasonText({ code, params }, t, lang));\n"
        "}\n"
        "console.log(JSON.stringify(out));\n", encoding="utf-8")
    locales = ROOT / "src" / "ginrummy" / "web" / "locales"
    run = subprocess.run(["node", str(script), str(locales), json.dumps(samples)],
                         capture_output=True, text=True, timeout=60, check=True)
    page = json.loads(run.stdout)
    for lang in LANGUAGES:
        server = [reason_text(code, params, lang) for code, params in samples]
        assert page[lang] == server, lang
