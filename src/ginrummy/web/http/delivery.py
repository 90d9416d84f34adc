"""How the web game's files travel: static files revalidated by a content hash, and what every
page's ``<head>`` carries besides its own markup (a description, the web app manifest, icons).

- :class:`RevalidatedStatic`: ``/static`` with ``Cache-Control: no-cache`` and an ETag made from
  the file's bytes (SHA-256), so a browser keeps its copy and asks ``If-None-Match`` each
  time (answer: 304, no body) and a new release is seen at once, whatever the files' dates (a
  wheel may give every file the same date). No ``Last-Modified``: a date cannot tell two
  releases apart.
- :func:`head_extras` / :func:`add_head_extras`: the meta description in the page's language,
  ``<link rel="manifest">``, the icons (``static/icons``) and the theme colour.

Compression (gzip) is Starlette's ``GZipMiddleware``, added by
:func:`ginrummy.web.http.app.create_app`.
"""

from __future__ import annotations

import hashlib
import html
import mimetypes
import os
import re
from typing import Final

from starlette.datastructures import Headers
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

__all__ = ["DESCRIPTIONS", "RevalidatedStatic", "add_head_extras", "describe", "head_extras",
           "revalidated_file"]

mimetypes.add_type("application/manifest+json", ".webmanifest")

THEME_COLOR: Final = "#123d26"

#: each page's meta description, per language (GLOSSARY.md's words).
DESCRIPTIONS: Final[dict[str, dict[str, str]]] = {
    "en": {
        "game": "Play Gin Rummy in your browser against a strong, visibly fair computer: exact "
                "rules and scoring, hints, hand replays; in English, Indonesian, Malay and "
                "Javanese.",
        "keeper": "Keep the score of Gin Rummy played with real cards: standard, Hollywood, "
                  "three players and partnership, boxes and bonuses counted for you.",
        "replay": "Step through a finished hand of Gin Rummy with both hands face up, and see "
                  "missed gins, missed knocks and undercuts.",
        "review": "Review your Gin Rummy game: every decision graded by the computer's search, "
                  "your accuracy, your mistakes and what they cost, and your luck apart from "
                  "your skill.",
        "practice": "Practise your own Gin Rummy mistakes: the positions where you went "
                    "wrong in your reviewed games, to play again and see how each move "
                    "compares.",
        "tutorial": "Learn Gin Rummy in a few minutes: melds, deadwood, knocking, gin and the "
                    "undercut, step by step.",
        "rules": "The complete rules of Gin Rummy as played here: melds, deadwood, knocking, "
                 "gin, undercuts, scoring and the variants.",
        "glossary": "The words of Gin Rummy explained: knock, gin, deadwood, meld, lay off, "
                    "undercut, box, shutout and more.",
        "tips": "Strategy tips for Gin Rummy: what to keep, what to discard, when to knock and "
                "how to avoid an undercut.",
        "faq": "Answers to common questions about this Gin Rummy game: the computer, fairness, "
               "scoring and your saved games.",
        "not_found": "This page does not exist: go back to the Gin Rummy game or read the "
                     "rules.",
    },
    "id": {
        "game": "Main Gin Rummy di browser melawan komputer yang tangguh dan terbukti adil: "
                "aturan dan skor yang tepat, petunjuk, putar ulang ronde; dalam bahasa "
                "Inggris, Indonesia, Melayu, dan Jawa.",
        "keeper": "Catat skor Gin Rummy yang dimainkan dengan kartu sungguhan: standar, "
                  "Hollywood, tiga pemain dan berpasangan, box dan bonus dihitung untukmu.",
        "replay": "Putar ulang ronde Gin Rummy yang sudah selesai langkah demi langkah dengan "
                  "kartu kedua pemain terbuka, lengkap dengan gin terlewat, ketukan terlewat, "
                  "dan undercut.",
        "review": "Tinjau permainan Gin Rummy-mu: setiap keputusan dinilai oleh pencarian "
                  "komputer, akurasimu, kesalahanmu dan harganya, serta keberuntungan terpisah "
                  "dari keterampilan.",
        "practice": "Latih lagi kesalahan Gin Rummy-mu sendiri: posisi tempat kamu keliru di "
                    "permainan yang sudah diulas, untuk dimainkan lagi dan dibandingkan "
                    "langkah demi langkah.",
        "tutorial": "Belajar Gin Rummy dalam beberapa menit: kombinasi, kartu mati, mengetuk, "
                    "gin, dan undercut, langkah demi langkah.",
        "rules": "Aturan lengkap Gin Rummy seperti dimainkan di sini: kombinasi, kartu mati, "
                 "mengetuk, gin, undercut, skor, dan variasinya.",
        "glossary": "Istilah Gin Rummy dijelaskan: ketuk, gin, kartu mati, kombinasi, "
                    "menempel, undercut, box, shutout, dan lainnya.",
        "tips": "Kiat strategi Gin Rummy: kartu yang disimpan, kartu yang dibuang, kapan "
                "mengetuk, dan cara menghindari undercut.",
        "faq": "Jawaban atas pertanyaan umum tentang permainan Gin Rummy ini: komputer, "
               "keadilan, skor, dan permainan yang tersimpan.",
        "not_found": "Halaman ini tidak ada: kembali ke permainan Gin Rummy atau baca "
                     "aturannya.",
    },
    "ms": {
        "game": "Main Gin Rummy dalam pelayar menentang komputer yang kuat dan terbukti adil: "
                "peraturan dan pemarkahan yang tepat, petunjuk, main semula pusingan; dalam "
                "bahasa Inggeris, Indonesia, Melayu dan Jawa.",
        "keeper": "Catat mata Gin Rummy yang dimainkan dengan kad sebenar: standard, Hollywood, "
                  "tiga pemain dan berpasangan, box dan bonus dikira untuk anda.",
        "replay": "Main semula pusingan Gin Rummy yang sudah tamat langkah demi langkah dengan "
                  "kad kedua-dua pemain terbuka, berserta gin terlepas, knock terlepas dan "
                  "undercut.",
        "review": "Semak permainan Gin Rummy anda: setiap keputusan dinilai oleh carian "
                  "komputer, ketepatan anda, kesilapan anda dan kosnya, serta nasib berasingan "
                  "daripada kemahiran.",
        "practice": "Latih semula kesilapan Gin Rummy anda sendiri: kedudukan di mana anda "
                    "tersilap dalam permainan yang telah diulas, untuk dimainkan semula dan "
                    "dibandingkan langkah demi langkah.",
        "tutorial": "Belajar Gin Rummy dalam beberapa minit: meld, deadwood, Knock, gin dan "
                    "undercut, langkah demi langkah.",
        "rules": "Peraturan lengkap Gin Rummy seperti yang dimainkan di sini: meld, deadwood, "
                 "Knock, gin, undercut, pemarkahan dan variasinya.",
        "glossary": "Istilah Gin Rummy dijelaskan: Knock, gin, deadwood, meld, menyambung, "
                    "undercut, box, shutout dan banyak lagi.",
        "tips": "Petua strategi Gin Rummy: kad yang disimpan, kad yang dibuang, bila perlu "
                "Knock dan cara mengelakkan undercut.",
        "faq": "Jawapan kepada soalan lazim tentang permainan Gin Rummy ini: komputer, "
               "keadilan, pemarkahan dan permainan yang disimpan.",
        "not_found": "Halaman ini tiada: kembali ke permainan Gin Rummy atau baca "
                     "peraturannya.",
    },
    "jv": {
        "game": "Dolanan Gin Rummy ing browser nglawan komputer sing kuwat lan kabukten adil: "
                "aturan lan skor sing pas, pituduh, puter maneh babak; nganggo basa Inggris, "
                "Indonesia, Melayu lan Jawa.",
        "keeper": "Cathet skor Gin Rummy sing dimainake nganggo kertu tenan: standar, "
                  "Hollywood, telung pemain lan pasangan, box lan bonus diitung kanggo "
                  "sampeyan.",
        "replay": "Puter maneh babak Gin Rummy sing wis rampung langkah siji-siji kanthi kertu "
                  "loro-lorone menga, karo gin kliwat, ketukan kliwat lan undercut.",
        "review": "Priksa maneh dolanan Gin Rummy sampeyan: saben keputusan dibiji karo "
                  "panggoletan komputer, akurasi sampeyan, kaluputan sampeyan lan regane, uga "
                  "begja dipisah saka kaprigelan.",
        "practice": "Latihan maneh kaluputan Gin Rummy sampeyan dhewe: posisi ing ngendi "
                    "sampeyan kleru ing dolanan sing wis ditinjau, kanggo dimainake maneh lan "
                    "dibandhingake langkah siji-siji.",
        "tutorial": "Sinau Gin Rummy mung sawetara menit: kombinasi, kertu mati, ngetuk, gin "
                    "lan undercut, langkah siji-siji.",
        "rules": "Aturan jangkep Gin Rummy kaya sing dimainake ing kene: kombinasi, kertu "
                 "mati, ngetuk, gin, undercut, skor lan variasine.",
        "glossary": "Tembung-tembung Gin Rummy diterangake: ngetuk, gin, kertu mati, "
                    "kombinasi, nempel, undercut, box, shutout lan liyane.",
        "tips": "Tips strategi Gin Rummy: kertu sing disimpen, kertu sing dibuwang, kapan "
                "ngetuk lan carane nyingkiri undercut.",
        "faq": "Wangsulan pitakonan umum babagan dolanan Gin Rummy iki: komputer, keadilan, "
               "skor lan dolanan sing disimpen.",
        "not_found": "Kaca iki ora ana: bali menyang dolanan Gin Rummy utawa wacanen aturane.",
    },
}

#: the front end's HTML files and the description each one gets.
_FILE_PAGES: Final = {"index.html": "game", "keeper.html": "keeper", "replay.html": "replay",
                      "review.html": "review", "practice.html": "practice",
                      "tutorial.html": "tutorial"}


def describe(lang: str, page: str) -> str:
    """Page ``page``'s description in ``lang`` (English when the language has none)."""
    texts = DESCRIPTIONS.get(lang) or DESCRIPTIONS["en"]
    return texts.get(page) or DESCRIPTIONS["en"][page]


def head_extras(lang: str, page: str) -> str:
    """The tags every page's ``<head>`` gets: description, manifest, icons."""
    return (f'<meta name="description" content="{html.escape(describe(lang, page))}">\n'
            '<link rel="manifest" href="/static/manifest.webmanifest">\n'
            '<link rel="icon" href="/static/icons/icon.svg" type="image/svg+xml">\n'
            '<link rel="apple-touch-icon" href="/static/icons/icon-180.png">\n')


_ICON = re.compile(r'<link rel="icon"[^>]*>\n?')


def add_head_extras(doc: str, lang: str, file: str) -> str:
    """``doc`` (a front-end HTML file) with :func:`head_extras` before its ``</head>`` (an icon
    of its own is replaced by ours). Unchanged if it has a description already."""
    page = _FILE_PAGES.get(file)
    at = doc.find("</head>")
    if page is None or at < 0 or 'name="description"' in doc[:at]:
        return doc
    head = _ICON.sub("", doc[:at])
    return head + head_extras(lang, page) + doc[at:]


_ETAGS: dict[tuple[str, int, int, int, int], str] = {}


def content_etag(path: str, st: os.stat_result) -> str:
    """A weak ETag of the file's bytes (SHA-256; weak because the same bytes also go out
    gzipped), kept per (path, mtime, ctime, size, inode): a file written again, even with its
    old date and size, gets a new ctime, hence its tag is computed again."""
    key = (path, st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
    tag = _ETAGS.get(key)
    if tag is None:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 16), b""):
                h.update(chunk)
        tag = f'W/"{h.hexdigest()[:32]}"'
        if len(_ETAGS) > 4096:  # files replaced in place many times: start afresh
            _ETAGS.clear()
        _ETAGS[key] = tag
    return tag


def _not_modified(etag: str, request_headers: Headers) -> bool:
    asked = request_headers.get("if-none-match")
    if not asked:
        return False
    mine = etag.removeprefix("W/")
    return asked.strip() == "*" or mine in [t.strip().removeprefix("W/")
                                            for t in asked.split(",")]


def revalidated_file(path: str | os.PathLike[str], media_type: str,
                     request_headers: Headers) -> Response:
    """A file answer with the content ETag and ``Cache-Control: no-cache``; 304 when the
    request's ``If-None-Match`` holds that ETag."""
    st = os.stat(path)
    etag = content_etag(os.fspath(path), st)
    headers = {"etag": etag, "cache-control": "no-cache"}
    if _not_modified(etag, request_headers):
        return Response(status_code=304, headers=headers)
    response = FileResponse(path, media_type=media_type, stat_result=st, headers=headers)
    del response.headers["last-modified"]
    return response


class RevalidatedStatic(StaticFiles):
    """Static files with ``Cache-Control: no-cache`` and an ETag of their bytes (see the
    module docstring); ``If-None-Match`` with that tag gets 304."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        response = FileResponse(full_path, status_code=status_code, stat_result=stat_result)
        response.headers["etag"] = content_etag(os.fspath(full_path), stat_result)
        del response.headers["last-modified"]
        response.headers["cache-control"] = "no-cache"
        if status_code == 200 and _not_modified(response.headers["etag"], Headers(scope=scope)):
            return NotModifiedResponse(response.headers)
        return response
