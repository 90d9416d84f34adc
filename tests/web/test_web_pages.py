"""Language negotiation, the game page, translations, content pages, static files."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ginrummy.web.http.app import LOCALES_DIR, PAGES_DIR, _set_html_lang
from ginrummy.web.http.i18n import negotiate


def html_lang(text: str) -> tuple[str, str]:
    m = re.search(r"<html\b[^>]*>", text)
    assert m
    lang = re.search(r'\slang="([^"]*)"', m.group(0))
    data = re.search(r'\sdata-lang="([^"]*)"', m.group(0))
    assert lang and data
    return lang.group(1), data.group(1)


@pytest.mark.parametrize("header,expected", [
    ("id-ID,id;q=0.9,en-US;q=0.8,en;q=0.7", "id"),
    ("ms-MY", "ms"),
    ("jv", "jv"),
    ("jv-ID;q=0.4, ms;q=0.6", "ms"),
    ("fr-FR,fr;q=0.9", "en"),
    ("de, id;q=0", "en"),
    ("", "en"),
    ("*", "en"),
    ("garbage;;;q=x,,", "en"),
    ("EN-gb", "en"),
])
def test_negotiate(header: str, expected: str) -> None:
    assert negotiate(header) == expected


def test_cookie_and_query_win() -> None:
    assert negotiate("id", cookie="ms") == "ms"
    assert negotiate("id", cookie="xx") == "id"
    assert negotiate("id", cookie="ms", query="jv") == "jv"


def test_index_lang(client: TestClient) -> None:
    r = client.get("/")
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    assert html_lang(r.text) == ("en", "en")
    r = client.get("/", headers={"Accept-Language": "id-ID,id;q=0.9"})
    assert html_lang(r.text) == ("id", "id") and r.headers["content-language"] == "id"
    client.cookies.set("lang", "ms")
    r = client.get("/", headers={"Accept-Language": "id-ID"})
    assert html_lang(r.text) == ("ms", "ms")
    client.cookies.delete("lang")
    r = client.get("/?lang=jv")
    assert html_lang(r.text) == ("jv", "jv") and "lang=jv" in r.headers.get("set-cookie", "")


def test_meta_language(client: TestClient) -> None:
    assert client.get("/api/meta", headers={"Accept-Language": "ms"}).json()["language"] == "ms"


def test_set_html_lang() -> None:
    assert _set_html_lang('<!doctype html><html lang="en" data-lang="en"><p lang="x">', "id") \
        == '<!doctype html><html lang="id" data-lang="id"><p lang="x">'
    assert _set_html_lang("<html>", "ms") == '<html lang="ms" data-lang="ms">'
    assert _set_html_lang("<html class='a' lang=en>", "jv") == \
        "<html class='a' lang=\"jv\" data-lang=\"jv\">"


def test_locales(client: TestClient) -> None:
    for bad in ("xx", "EN", "..%2Fapp", "en.json"):
        assert client.get(f"/locales/{bad}.json").status_code == 404
    for lang in ("en", "id", "ms", "jv"):
        r = client.get(f"/locales/{lang}.json")
        if (LOCALES_DIR / f"{lang}.json").is_file():
            assert r.status_code == 200 and r.headers["content-type"].startswith(
                "application/json")
        else:
            assert r.status_code == 404


def test_content_pages(client: TestClient) -> None:
    for name in ("rules", "glossary", "tips", "faq"):
        for lang in ("en", "id", "ms", "jv"):
            r = client.get(f"/{name}?lang={lang}")
            exists = (PAGES_DIR / lang / f"{name}.html").is_file()
            en_exists = (PAGES_DIR / "en" / f"{name}.html").is_file()
            assert r.status_code == (200 if exists or en_exists else 404)
            assert html_lang(r.text) == (lang, lang)
            assert 'href="/static/app.css"' in r.text and 'href="/"' in r.text
            for other in ("en", "id", "ms", "jv"):
                assert f'href="/{name}?lang={other}"' in r.text
            if exists:
                assert f'<main class="page-content" id="content" lang="{lang}">' in r.text
            elif en_exists:
                assert '<main class="page-content" id="content" lang="en">' in r.text
    client.cookies.clear()
    r = client.get("/rules", headers={"Accept-Language": "id"})
    assert html_lang(r.text) == ("id", "id")


def test_page_without_fragments(tmp_path: Path) -> None:
    from ginrummy.web.http.pages import render_page

    status, doc = render_page(tmp_path, "rules", "id")
    assert status == 404 and 'lang="id"' in doc and "/static/app.css" in doc
    (tmp_path / "en").mkdir()
    (tmp_path / "en" / "faq.html").write_text("<h1>Questions</h1><p>x</p>", encoding="utf-8")
    (tmp_path / "titles.json").write_text('{"id": {"faq": "Tanya"}}', encoding="utf-8")
    status, doc = render_page(tmp_path, "faq", "id")
    assert status == 200 and "<title>Tanya" in doc and "<h1>Questions</h1>" in doc
    status, doc = render_page(tmp_path, "faq", "en")
    assert "<title>Questions" in doc


def test_static_and_headers(client: TestClient) -> None:
    r = client.get("/static/app.css")
    assert r.status_code == 200 and "text/css" in r.headers["content-type"]
    assert client.get("/static/nope.js").status_code == 404
    r = client.get("/")
    assert "default-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"
    # no API docs page pulling scripts from elsewhere
    assert client.get("/docs").status_code == 404
