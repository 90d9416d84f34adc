"""The content pages (rules, glossary, tips, FAQ): fragments written elsewhere, wrapped in a
minimal layout with a link back to the game and a language switcher.

Fragments live in ``web/pages/{lang}/{name}.html``; titles in ``web/pages/titles.json``
(``{lang: {name: title}}``; ``{name: {lang: title}}`` is read too). A page missing in a language
falls back to English (marked ``lang="en"``); a page missing everywhere answers 404.
:func:`render_not_found` is the same layout for an address that names no page at all.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any, Final

from .delivery import THEME_COLOR, head_extras
from .i18n import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES

__all__ = ["PAGE_NAMES", "render_not_found", "render_page"]

PAGE_NAMES: Final = ("rules", "glossary", "tips", "faq")

_DEFAULT_TITLES: Final = {
    "en": {"rules": "Rules", "glossary": "Glossary", "tips": "Strategy tips", "faq": "FAQ"},
    "id": {"rules": "Aturan", "glossary": "Glosarium", "tips": "Kiat strategi",
           "faq": "Tanya jawab"},
    "ms": {"rules": "Peraturan", "glossary": "Glosari", "tips": "Petua strategi",
           "faq": "Soalan lazim"},
    "jv": {"rules": "Aturan", "glossary": "Glosarium", "tips": "Tips strategi",
           "faq": "Pitakonan"},
}
_UI: Final = {
    "en": {"back": "Back to the game", "missing": "This page is not available yet.",
           "fallback": "",
           "language": "Language", "pages": "Help pages", "app": "Gin Rummy",
           "nf_title": "Page not found", "nf_text": "There is no page at this address:",
           "nf_hint": "Check the address, or go back to the game or read the rules.",
           "nf_rules": "The rules"},
    "id": {"back": "Kembali ke permainan",
           "missing": "Halaman ini belum tersedia.",
           "fallback": "Halaman ini belum tersedia dalam bahasa Indonesia; berikut versi "
                       "bahasa Inggris.",
           "language": "Bahasa", "pages": "Halaman bantuan", "app": "Gin Rummy",
           "nf_title": "Halaman tidak ditemukan", "nf_text": "Tidak ada halaman di alamat ini:",
           "nf_hint": "Periksa alamatnya, atau kembali ke permainan atau baca aturannya.",
           "nf_rules": "Aturan permainan"},
    "ms": {"back": "Kembali ke permainan",
           "missing": "Halaman ini belum tersedia.",
           "fallback": "Halaman ini belum ada dalam bahasa Melayu; ini versi bahasa Inggeris.",
           "language": "Bahasa", "pages": "Halaman bantuan", "app": "Gin Rummy",
           "nf_title": "Halaman tidak dijumpai", "nf_text": "Tiada halaman di alamat ini:",
           "nf_hint": "Semak alamat itu, atau kembali ke permainan atau baca peraturannya.",
           "nf_rules": "Peraturan permainan"},
    "jv": {"back": "Bali menyang dolanan",
           "missing": "Kaca iki durung ana.",
           "fallback": "Kaca iki durung ana ing basa Jawa; iki versi basa Inggris.",
           "language": "Basa", "pages": "Kaca pitulung", "app": "Gin Rummy",
           "nf_title": "Kaca ora ketemu", "nf_text": "Ora ana kaca ing alamat iki:",
           "nf_hint": "Priksa alamate, utawa bali menyang dolanan utawa wacanen aturane.",
           "nf_rules": "Aturan dolanan"},
}
_H1 = re.compile(r"<h1[^>]*>(.*?)</h1>", re.S | re.I)
_TAG = re.compile(r"<[^>]+>")


def _titles(pages_dir: Path) -> dict[str, Any]:
    try:
        data = json.loads((pages_dir / "titles.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _title(titles: dict[str, Any], lang: str, name: str, fragment: str | None) -> str:
    for a, b in ((lang, name), (name, lang)):
        v = titles.get(a)
        if isinstance(v, dict) and isinstance(v.get(b), str):
            return str(v[b])
    if fragment:
        m = _H1.search(fragment)
        if m:
            t = html.unescape(_TAG.sub("", m.group(1))).strip()
            if t:
                return t
    return _DEFAULT_TITLES.get(lang, _DEFAULT_TITLES["en"])[name]


def _read(pages_dir: Path, lang: str, name: str) -> str | None:
    try:
        return (pages_dir / lang / f"{name}.html").read_text(encoding="utf-8")
    except OSError:
        return None


def render_page(pages_dir: Path, name: str, lang: str) -> tuple[int, str]:
    """``(status, html)`` of content page ``name`` in ``lang``."""
    ui = _UI.get(lang, _UI["en"])
    titles = _titles(pages_dir)
    fragment = _read(pages_dir, lang, name)
    content_lang = lang
    note = ""
    status = 200
    if fragment is None and lang != DEFAULT_LANGUAGE:
        fragment = _read(pages_dir, DEFAULT_LANGUAGE, name)
        if fragment is not None:
            content_lang = DEFAULT_LANGUAGE
            note = f'<p class="page-note" role="note">{html.escape(ui["fallback"])}</p>'
    if fragment is None:
        status = 404
        fragment = f"<p>{html.escape(ui['missing'])}</p>"
    title = _title(titles, lang, name, fragment if status == 200 else None)
    return status, _layout(titles, lang, name, title, note + _scrollable_tables(fragment, title),
                           content_lang)


_TABLE = re.compile(r"<table\b.*?</table>", re.S | re.I)
_H2 = re.compile(r"<h2[^>]*>(.*?)</h2>", re.S | re.I)


def _scrollable_tables(fragment: str, title: str) -> str:
    """Each table in a region that scrolls sideways on a narrow screen and that the keyboard
    can reach (focusable, named after the section heading above it; WCAG 2.1.1)."""

    def wrap(m: re.Match[str]) -> str:
        headings = _H2.findall(fragment, 0, m.start())
        label = html.unescape(_TAG.sub("", headings[-1])).strip() if headings else title
        return (f'<div class="table-scroll" tabindex="0" role="region" '
                f'aria-label="{html.escape(label or title)}">{m.group(0)}</div>')

    return _TABLE.sub(wrap, fragment)


def render_not_found(pages_dir: Path, lang: str, path: str) -> str:
    """The HTML of the 404 page in ``lang`` for the address ``path`` (shown escaped, at most
    120 characters), with links back to the game and to the rules."""
    ui = _UI.get(lang, _UI["en"])
    esc = html.escape
    shown = path if len(path) <= 120 else path[:119] + "\u2026"
    fragment = (f'<h1>{esc(ui["nf_title"])}</h1>\n'
                f'<p>{esc(ui["nf_text"])} <code>{esc(shown)}</code></p>\n'
                f'<p>{esc(ui["nf_hint"])}</p>\n'
                f'<ul class="not-found-links">'
                f'<li><a href="/?lang={lang}">{esc(ui["back"])}</a></li>'
                f'<li><a href="/rules?lang={lang}">{esc(ui["nf_rules"])}</a></li></ul>')
    return _layout(_titles(pages_dir), lang, None, ui["nf_title"], fragment, lang)


def _layout(titles: dict[str, Any], lang: str, name: str | None, title: str, body: str,
            content_lang: str) -> str:
    """A whole content page: head, the links back, to the other pages and languages, ``body``.
    ``name`` is the page shown (None: no such page; its language links then go to the rules)."""
    ui = _UI.get(lang, _UI["en"])
    esc = html.escape
    cur_page = ' aria-current="page"'
    cur_lang = ' aria-current="true"'
    nav = "".join(
        f'<a href="/{p}?lang={lang}"{cur_page if p == name else ""}>'
        f"{esc(_title(titles, lang, p, None))}</a>"
        for p in PAGE_NAMES)
    here = name or "rules"
    langs = "".join(
        f'<a href="/{here}?lang={code}" hreflang="{code}" lang="{code}"'
        f'{cur_lang if code == lang and name else ""}>{esc(LANGUAGE_NAMES[code])}</a>'
        for code in LANGUAGES)
    return f"""<!doctype html>
<html lang="{lang}" data-lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="{THEME_COLOR}">
<title>{esc(title)} · {esc(ui["app"])}</title>
{head_extras(lang, name or "not_found")}<link rel="stylesheet" href="/static/app.css">
</head>
<body class="content-page page-{name or "not-found"}">
<header class="page-head">
  <a class="back" href="/">&larr; {esc(ui["back"])}</a>
  <nav class="page-links" aria-label="{esc(ui["pages"])}">{nav}</nav>
  <nav class="page-langs" aria-label="{esc(ui["language"])}">{langs}</nav>
</header>
<main class="page-content" id="content" lang="{content_lang}">
{body}
</main>
</body>
</html>
"""
