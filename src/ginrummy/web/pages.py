"""The content pages (rules, glossary, tips, FAQ): fragments written elsewhere, wrapped in a
minimal layout with a link back to the game and a language switcher.

Fragments live in ``web/pages/{lang}/{name}.html``; titles in ``web/pages/titles.json``
(``{lang: {name: title}}``; ``{name: {lang: title}}`` is read too). A page missing in a language
falls back to English (marked ``lang="en"``); a page missing everywhere answers 404.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any, Final

from .i18n import DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGES

__all__ = ["PAGE_NAMES", "render_page"]

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
           "language": "Language", "pages": "Help pages", "app": "Gin Rummy"},
    "id": {"back": "Kembali ke permainan",
           "missing": "Halaman ini belum tersedia.",
           "fallback": "Halaman ini belum tersedia dalam bahasa Indonesia; berikut versi "
                       "bahasa Inggris.",
           "language": "Bahasa", "pages": "Halaman bantuan", "app": "Gin Rummy"},
    "ms": {"back": "Kembali ke permainan",
           "missing": "Halaman ini belum tersedia.",
           "fallback": "Halaman ini belum ada dalam bahasa Melayu; ini versi bahasa Inggeris.",
           "language": "Bahasa", "pages": "Halaman bantuan", "app": "Gin Rummy"},
    "jv": {"back": "Bali menyang dolanan",
           "missing": "Kaca iki durung ana.",
           "fallback": "Kaca iki durung ana ing basa Jawa; iki versi basa Inggris.",
           "language": "Basa", "pages": "Kaca pitulung", "app": "Gin Rummy"},
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
    esc = html.escape
    cur_page = ' aria-current="page"'
    cur_lang = ' aria-current="true"'
    nav = "".join(
        f'<a href="/{p}?lang={lang}"{cur_page if p == name else ""}>'
        f"{esc(_title(titles, lang, p, None))}</a>"
        for p in PAGE_NAMES)
    langs = "".join(
        f'<a href="/{name}?lang={code}" hreflang="{code}" lang="{code}"'
        f'{cur_lang if code == lang else ""}>{esc(LANGUAGE_NAMES[code])}</a>'
        for code in LANGUAGES)
    page = f"""<!doctype html>
<html lang="{lang}" data-lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} · {esc(ui["app"])}</title>
<link rel="stylesheet" href="/static/app.css">
</head>
<body class="content-page page-{name}">
<header class="page-head">
  <a class="back" href="/">&larr; {esc(ui["back"])}</a>
  <nav class="page-links" aria-label="{esc(ui["pages"])}">{nav}</nav>
  <nav class="page-langs" aria-label="{esc(ui["language"])}">{langs}</nav>
</header>
<main class="page-content" id="content" lang="{content_lang}">
{note}{fragment}
</main>
</body>
</html>
"""
    return status, page
