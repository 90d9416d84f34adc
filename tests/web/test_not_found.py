"""Unknown addresses (issue 13 item 4): a real 404 page in the person's language with a way back
to the game; the API keeps answering JSON."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

TITLES = {"en": "Page not found", "id": "Halaman tidak ditemukan",
          "ms": "Halaman tidak dijumpai", "jv": "Kaca ora ketemu"}


@pytest.mark.parametrize("path", ["/nope", "/static/nope.js", "/rules/extra", "/static/"])
@pytest.mark.parametrize("lang", sorted(TITLES))
def test_unknown_address_is_a_page_in_the_language(client: TestClient, path: str,
                                                    lang: str) -> None:
    r = client.get(path, headers={"Accept-Language": lang})
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert r.headers["content-language"] == lang
    assert f'<html lang="{lang}"' in r.text
    assert f"<h1>{TITLES[lang]}</h1>" in r.text
    assert f"<code>{path}</code>" in r.text
    assert re.search(rf'<a href="/\?lang={lang}">[^<]+</a>', r.text)  # the way back
    assert f'href="/rules?lang={lang}"' in r.text
    assert "detail" not in r.text


def test_language_from_query_and_cookie(client: TestClient) -> None:
    assert TITLES["jv"] in client.get("/nope?lang=jv").text
    client.cookies.set("lang", "ms")
    assert TITLES["ms"] in client.get("/nope").text
    client.cookies.clear()
    assert TITLES["en"] in client.get("/nope", headers={"Accept-Language": "fr"}).text


def test_the_address_is_escaped(client: TestClient) -> None:
    r = client.get("/<script>alert(1)</script>")
    assert r.status_code == 404
    assert "<script>" not in r.text
    assert "&lt;script&gt;" in r.text
    long = client.get("/" + "a" * 5000)
    assert long.status_code == 404 and "a" * 200 not in long.text


@pytest.mark.parametrize("path", ["/api/nope", "/api/games/nope", "/api/games/x/hint"])
def test_the_api_stays_json(client: TestClient, path: str) -> None:
    r = client.get(path, headers={"Accept-Language": "id"})
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("application/json")
    assert r.json()["detail"]["code"] == "not_found"


def test_known_pages_still_answer(client: TestClient) -> None:
    for path in ("/", "/rules", "/keeper", "/replay", "/tutorial", "/static/app.css"):
        assert client.get(path).status_code == 200, path
