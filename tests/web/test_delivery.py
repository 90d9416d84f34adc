"""How the files travel (issue 13, Lighthouse items): gzip for text answers, static files that a
browser revalidates by a content ETag (304 without a body; a new release seen at once), a meta
description on every page in every language, and a web app manifest with icons."""

from __future__ import annotations

import json
import os
import re
import struct
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.routing import Mount

from ginrummy.web.http.app import STATIC_DIR
from ginrummy.web.http.delivery import DESCRIPTIONS, RevalidatedStatic
from ginrummy.web.http.i18n import LANGUAGES

GZ = {"Accept-Encoding": "gzip"}
PAGES = {"/": "game", "/keeper": "keeper", "/replay": "replay", "/review": "review",
         "/practice": "practice", "/tutorial": "tutorial",
         "/rules": "rules", "/glossary": "glossary", "/tips": "tips", "/faq": "faq",
         "/no-such-page": "not_found"}


@pytest.mark.parametrize("path", ["/", "/rules", "/static/app.js", "/static/app.css",
                                  "/static/cards.js", "/locales/id.json", "/api/meta"])
def test_text_is_gzipped(client: TestClient, path: str) -> None:
    r = client.get(path, headers=GZ)
    assert r.status_code == 200
    assert r.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in r.headers["vary"].lower()
    assert r.num_bytes_downloaded < len(r.content) * 0.6  # what went over the wire
    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == r.content


def test_the_game_state_is_gzipped(client: TestClient) -> None:
    created = client.post("/api/games", json={"level": "easy"}, headers=GZ)
    assert created.status_code == 201 and created.headers["content-encoding"] == "gzip"
    gid, token = created.json()["game_id"], created.json()["token"]
    r = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}", **GZ})
    assert r.headers["content-encoding"] == "gzip" and r.json()["game_id"] == gid


def test_images_are_not_gzipped(client: TestClient) -> None:
    r = client.get("/static/icons/icon-192.png", headers=GZ)
    assert r.status_code == 200 and "content-encoding" not in r.headers


@pytest.mark.parametrize("path", ["/static/app.js", "/static/keeper.css", "/static/icons/icon.svg",
                                  "/static/manifest.webmanifest", "/locales/jv.json"])
def test_static_files_revalidate_by_etag(client: TestClient, path: str) -> None:
    r = client.get(path, headers=GZ)
    assert r.status_code == 200
    etag = r.headers["etag"]
    assert re.fullmatch(r'W/"[0-9a-f]{32}"', etag)
    assert r.headers["cache-control"] == "no-cache"
    assert "last-modified" not in r.headers  # a date cannot tell two releases apart
    for asked in (etag, etag.removeprefix("W/"), f'"nope", {etag}', "*"):
        again = client.get(path, headers={"If-None-Match": asked, **GZ})
        assert again.status_code == 304, asked
        assert again.content == b"" and again.headers["etag"] == etag
        assert again.headers["cache-control"] == "no-cache"
    other = client.get(path, headers={"If-None-Match": '"0123"'})
    assert other.status_code == 200 and other.content == r.content


def test_a_new_release_is_seen_whatever_the_dates(tmp_path: Path) -> None:
    """Same name, same size, same date (a wheel can give every file one date), new bytes: a
    new ETag, so the browser's If-None-Match gets the new file, not 304."""
    f = tmp_path / "app.js"
    f.write_text("console.log(1);", encoding="utf-8")
    os.utime(f, ns=(315532800 * 10**9, 315532800 * 10**9))
    app = Starlette(routes=[Mount("/static", RevalidatedStatic(directory=tmp_path))])
    with TestClient(app) as c:
        first = c.get("/static/app.js")
        tag = first.headers["etag"]
        assert c.get("/static/app.js", headers={"If-None-Match": tag}).status_code == 304
        f.write_text("console.log(2);", encoding="utf-8")  # same size
        os.utime(f, ns=(315532800 * 10**9, 315532800 * 10**9))  # same date
        second = c.get("/static/app.js", headers={"If-None-Match": tag})
        assert second.status_code == 200 and second.text == "console.log(2);"
        assert second.headers["etag"] != tag


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_has_a_description_in_its_language(client: TestClient, lang: str) -> None:
    seen = set()
    for path, page in PAGES.items():
        r = client.get(f"{path}?lang={lang}")
        assert r.status_code in (200, 404), path
        found = re.findall(r'<meta name="description" content="([^"]+)">', r.text)
        assert len(found) == 1, path
        text = found[0].replace("&#x27;", "'").replace("&amp;", "&")
        assert text == DESCRIPTIONS[lang][page], path
        assert 50 <= len(text) <= 200, (path, len(text))
        seen.add(text)
        head = r.text.split("</head>")[0]
        assert '<link rel="manifest" href="/static/manifest.webmanifest">' in head, path
        assert head.count('rel="icon"') == 1, path
        assert 'name="theme-color"' in head, path
    assert len(seen) == len(PAGES)  # each page described for itself


def test_descriptions_cover_every_page_and_language() -> None:
    for lang in LANGUAGES:
        assert set(DESCRIPTIONS[lang]) == set(DESCRIPTIONS["en"])
        if lang != "en":  # translated, not copied
            assert all(DESCRIPTIONS[lang][k] != DESCRIPTIONS["en"][k] for k in DESCRIPTIONS[lang])


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def test_manifest_makes_the_game_installable(client: TestClient) -> None:
    r = client.get("/static/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    m = json.loads(r.text)
    assert m["name"] and m["short_name"] and len(m["short_name"]) <= 12
    assert m["start_url"] == "/" and m["scope"] == "/" and m["display"] == "standalone"
    assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", m["background_color"])
    sizes = {}
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200, icon["src"]
        assert got.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            w, h = _png_size(got.content)
            assert f"{w}x{h}" == icon["sizes"], icon["src"]
            sizes.setdefault(icon.get("purpose", "any"), set()).add(w)
        else:
            assert got.text.lstrip().startswith("<svg")
    assert {192, 512} <= sizes["any"]  # what Chrome asks for to install
    assert 512 in sizes["maskable"]
    apple = client.get("/static/icons/icon-180.png")
    assert apple.status_code == 200 and _png_size(apple.content) == (180, 180)


def test_icons_are_packaged_files() -> None:
    for name in ("icon.svg", "icon-180.png", "icon-192.png", "icon-512.png",
                 "icon-maskable-512.png"):
        assert (STATIC_DIR / "icons" / name).is_file(), name
    assert (STATIC_DIR / "manifest.webmanifest").is_file()
