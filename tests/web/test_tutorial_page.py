"""The tutorial (``/tutorial``, ``GET /api/tutorial``): served in every language under the same
Content-Security-Policy, nothing fetched from elsewhere, and its answers those of the engine."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ginrummy import CardSet, best_arrangement, min_deadwood
from ginrummy.web.api.tutorial import lessons
from ginrummy.web.http.app import STATIC_DIR
from ginrummy.web.http.i18n import LANGUAGES

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "tutorial_lessons.json"
FILES = ("tutorial.html", "tutorial.js", "tutorial.css", "tutorial_model.js")
SVG_NS = "http://www.w3.org/2000/svg"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_served_in_every_language(client: TestClient, lang: str) -> None:
    r = client.get(f"/tutorial?lang={lang}")
    assert r.status_code == 200
    assert r.headers["content-language"] == lang
    assert re.search(rf'<html\b[^>]*\slang="{lang}"', r.text)
    assert "/static/tutorial.js" in r.text and "/static/tutorial.css" in r.text
    assert f"lang={lang}" in r.headers.get("set-cookie", "")


def test_language_from_header_and_cookie(client: TestClient) -> None:
    r = client.get("/tutorial", headers={"Accept-Language": "jv-ID,jv;q=0.9"})
    assert r.headers["content-language"] == "jv"
    client.cookies.set("lang", "ms")
    assert client.get("/tutorial").headers["content-language"] == "ms"
    assert client.get("/tutorial?lang=id").headers["content-language"] == "id"


def test_csp_and_no_inline_code(client: TestClient) -> None:
    r = client.get("/tutorial")
    csp = r.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "connect-src 'self'" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
    # every script is an external module of this site; no handlers or inline scripts
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", r.text, re.S)
    assert scripts and all('src="/static/' in a and not body.strip() for a, body in scripts)
    assert not re.search(r"\son[a-z]+\s*=", r.text)
    for name in FILES[1:]:
        assert client.get(f"/static/{name}").status_code == 200


def test_no_outside_urls() -> None:
    for name in FILES:
        text = (STATIC_DIR / name).read_text(encoding="utf-8").replace(SVG_NS, "")
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I), name
        assert "@import" not in text and "fetch(\"http" not in text


def test_lessons_endpoint_matches_engine_and_js_fixture(client: TestClient) -> None:
    data = client.get("/api/tutorial").json()
    assert data == lessons()
    assert data == json.loads(FIXTURE.read_text(encoding="utf-8")), (
        "tests/js/tutorial_lessons.json is stale: regenerate it from lessons()")


def test_lesson_answers_follow_the_rules() -> None:
    L = lessons()
    assert [m["cards"] for m in L["set"]["melds"] if m["kind"] == "set"] == [["8S", "8H", "8D"]]
    assert [m["cards"] for m in L["run"]["melds"]] == [["AH", "2H", "3H"]]  # Q-K-A: no wrap
    d = L["deadwood"]
    assert d["deadwood_points"] == min_deadwood(" ".join(d["hand"])) == 19
    assert d["deadwood_options"] == [["KH", "AD", "2C", "6C"]]
    t = L["turn"]
    assert t["forbidden"] == t["upcard"] and t["upcard"] not in t["discards"]
    assert t["best_after"] == 19 < t["deadwood_points"] == 40
    assert {c for c, v in t["discards"].items() if v == t["best_after"]} == {"KC", "QS"}
    k = L["knock"]
    assert (k["deadwood_points"], k["answer"]) == (10, "knock")  # T-4b: exactly the limit
    lay = L["layoff"]
    assert lay["layoffs"] == ["6S", "7S"] and lay["fits_directly"] == ["6S"]  # T-5, a chain
    assert (lay["kind"], lay["points"], lay["defender_deadwood"]) == ("undercut", 26, 3)
    assert best_arrangement(CardSet.parse(lay["defender"])).deadwood_points == \
        lay["defender_deadwood_before"]
