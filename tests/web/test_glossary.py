"""One word per concept per language (../shared/GLOSSARY.md, issue 13 item 12).

Each language lists, per concept, the words the glossary rejected. A test fails when one of them
comes back in a catalog (``web/locales/{lang}.json``) or a content page (``web/pages/{lang}``).
Placeholders (``{deadwood}``) and English glosses marked ``<span lang="en">`` are not text of
the language and are left out of the check. The positive checks make sure the glossary's own
words are the ones in use, so the rejected-word checks cannot pass on empty files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import ginrummy.web

WEB = Path(ginrummy.web.__file__).parent
LOCALES = WEB / "locales"
PAGES = WEB / "pages"

#: concept -> rejected words (regular expressions, case-insensitive), per language.
REJECTED: dict[str, dict[str, str]] = {
    "id": {
        "run is 'urutan' (seri is only a tie)": r"\bserinya\b",
        "deadwood is 'kartu mati'": r"\bdeadwood\b",
        "meld is 'kombinasi'": r"\bmelds?\b",
        "knock is 'ketuk'": r"\bknock\w*",
        "box stays 'box'": r"\bkotak\b",
        "upcard is 'kartu terbuka'": r"\bupcard\b",
        "dealer is 'pembagi'": r"\bdealer\b|\bbandar\b",
        "hand is 'ronde'": r"\bbabak\b|\bputaran\b",
        "dead hand is 'ronde batal'": r"\bronde mati\b",
        "tap is 'sentuh', never 'ketuk'": r"\bketuk(?:lah)? (?:kartu|tombol)",
        "lay off is 'menempel'": r"\blay ?off\b|\bmelekatkan\b",
        "game bonus is 'bonus permainan'": r"\bbonus game\b",
    },
    "ms": {
        "pass is 'pass' (Lepas reads 'you are free')": r"\blepas\b",
        "upcard is 'kad terbuka'": r"\bupcard\b",
        "box stays 'box'": r"\bkotak\b",
        "dealer is 'pengedar', deal 'mengedar'": r"\bpembahagi\b|\bmembahagi\b|\bbandar\b",
        "hand is 'pusingan'": r"\bronde\b|\bbabak\b",
        "dead hand is 'pusingan batal'": r"\bpusingan mati\b",
        "lay off is 'menyambung'": r"\btempelan\b|\bmenempel\w*",
        "meld is 'meld'": r"\bkombinasi\b",
        "discard pile is 'timbunan buangan'": r"\btimbunan stok\b|\blonggokan\b",
        "diamonds are 'daiman', as in the cards' names": r"\bwajik\b",
    },
    "jv": {
        "upcard is 'kertu menga'": r"\bkabuka\b|\bkertu (?:sing )?mbukak\w*|\btumpukan kebukak\b",
        "deadwood is 'kertu mati'": r"\bdeadwood\b",
        "meld is 'kombinasi'": r"\bmelds?\b",
        "knock is 'ngetuk'": r"\bknock\w*",
        "box stays 'box'": r"\bkotak\b|\bkothak\b",
        "dealer is 'pambagi', deal 'mbagi'": r"\bbandar\b|\bngedum\b|\bpembagi\b|\bdealer\b",
        "hand is 'babak'": r"\bronde\b|\bputaran\b",
        "dead hand is 'babak batal'": r"\bbabak mati\b",
        "pass is 'liwat'": r"\blewat\b",
        "discard pile is 'tumpukan buwangan'": r"\btumpukan buangan\b",
        "game is 'dolanan'": r"\bgame\b",
        "card is 'kertu'": r"\bkartu\b",
        "spades are 'sekop', as in the cards' names": r"\bwaru\b",
        "one spelling: without e-acute / e-grave": r"[éèÉÈ]",
        "one register: sampeyan, not kowe/panjenengan": r"\bkow[eé]\b|\bpanjenengan\b|\bsliramu\b",
        "one register: no kok- verbs": r"\bkok(?:jupuk|cekel|deleh|dolani|butuh|katon|klumpuk"
                                         r"|menang|urup|buwang|tempel)\w*",
        "one register: no -mu possessives": r"\b(?!(?:ke)?temu\b|ilmu\b|tamu\b|jamu\b)\w{2,}mu\b",
        "one register: ngoko verbs, no krama": r"\b(?:mendhet|saged|menawi|punika|mboten|wonten"
                                               r"|sampun|badhe|kaliyan|dipun\w*)\b",
    },
}

#: words the glossary chose, each of which must be in use in the language's catalog.
CHOSEN: dict[str, tuple[str, ...]] = {
    "id": ("kartu mati", "kombinasi", "urutan", "seri", "stok", "tumpukan buangan",
           "kartu terbuka", "lewat", "pembagi", "ronde", "menempel", "box", "bonus permainan",
           "sentuh", "pengetuk", "ronde batal", "pemula"),
    "ms": ("deadwood", "meld", "run", "seri", "stok", "timbunan buangan", "kad terbuka",
           "pass", "pengedar", "pusingan", "menyambung", "box", "bonus permainan", "sentuh",
           "pusingan batal", "pemula"),
    "jv": ("kertu mati", "kombinasi", "urutan", "imbang", "stok", "tumpukan buwangan",
           "kertu menga", "liwat", "pambagi", "babak", "nempel", "box", "bonus dolanan",
           "tutul", "sampeyan", "sing ngetuk", "babak batal", "sing lagi sinau"),
}

_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_EN_SPAN = re.compile(r'<span lang="en">.*?</span>', re.S)
_TAG = re.compile(r"<[^>]+>")


def catalog(lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((LOCALES / f"{lang}.json").read_text(encoding="utf-8"))
    return data


def catalog_texts(lang: str) -> dict[str, str]:
    """Each catalog string without its placeholders, by key."""
    return {k: _PLACEHOLDER.sub(" ", v) for k, v in catalog(lang).items()}


def page_texts(lang: str) -> dict[str, str]:
    """Each content page's text in ``lang`` (tags and English glosses left out), by file name."""
    return {p.name: _TAG.sub(" ", _EN_SPAN.sub(" ", p.read_text(encoding="utf-8")))
            for p in sorted((PAGES / lang).glob("*.html"))}


def offences(lang: str, texts: dict[str, str]) -> list[str]:
    """Every rejected word found in ``texts``: "where: concept: 'word'"."""
    found = []
    for where, text in texts.items():
        for concept, pattern in REJECTED[lang].items():
            for m in re.finditer(pattern, text, re.I):
                found.append(f"{where}: {concept}: {m.group(0)!r}")
    return found


@pytest.mark.parametrize("lang", sorted(REJECTED))
def test_catalog_uses_one_word_per_concept(lang: str) -> None:
    assert offences(lang, catalog_texts(lang)) == []


@pytest.mark.parametrize("lang", sorted(REJECTED))
def test_pages_use_one_word_per_concept(lang: str) -> None:
    texts = page_texts(lang)
    assert set(texts) >= {"rules.html", "glossary.html", "tips.html", "faq.html"}
    assert offences(lang, texts) == []


@pytest.mark.parametrize("lang", sorted(CHOSEN))
def test_glossary_words_are_in_use(lang: str) -> None:
    text = " ".join(catalog_texts(lang).values()).lower()
    missing = [w for w in CHOSEN[lang] if not re.search(rf"\b{re.escape(w)}\b", text)]
    assert missing == []


def test_the_beginner_level_has_the_glossary_name() -> None:
    names = {lang: catalog(lang)["level.beginner"].lower() for lang in ("id", "ms", "jv")}
    assert names == {"id": "pemula", "ms": "pemula", "jv": "sing lagi sinau"}


def test_indonesian_seri_is_only_a_tie() -> None:
    """id: "seri" names a tie (after a knock), never a run ("urutan")."""
    en = catalog("en")
    for key, text in catalog_texts("id").items():
        if re.search(r"\bseri\b", text, re.I):
            assert re.search(r"\btie|\bequal", en[key], re.I), (key, text)
        if re.search(r"\bruns?\b", en[key]) and "command" not in en[key]:
            assert re.search(r"\burutan", text, re.I), (key, text)
    for name, text in page_texts("id").items():
        for sentence in re.split(r"(?<=[.!?:;])\s", text):
            if re.search(r"\bseri\b", sentence, re.I):
                assert not re.search(r"urutan|jenis yang sama", sentence, re.I), (name, sentence)


@pytest.mark.parametrize("lang", ["id", "ms", "jv"])  # (the English page names no suits)
def test_suits_have_the_cards_names_on_the_rules_page(lang: str) -> None:
    """One name per suit: the one in the cards' names ("8 sekop") is the rules page's."""
    names = [catalog(lang)[f"suit.{s}"] for s in "SHDC"]
    rules = page_texts(lang)["rules.html"].lower()
    for name, symbol in zip(names, "♠♥♦♣", strict=True):
        assert f"{name.lower()} {symbol}" in rules, (lang, name, symbol)


def test_the_checker_catches_the_old_words() -> None:
    """The words issue 13 saw are caught (so the checks above can fail)."""
    samples = {
        "ms": ["Lepas", "Ambil upcard, atau lepas", "Bonus kotak"],
        "jv": ["Jupuk kertu sing kabuka", "kertu mbukak", "Kothak", "Cacah deadwood",
               "kowé njupuk kertumu", "kertu sing kokjupuk", "nilainé"],
        "id": ["Jumlah deadwood", "Kotak", "Ketuk kartu itu"],
    }
    for lang, texts in samples.items():
        for t in texts:
            assert offences(lang, {"sample": t}), (lang, t)
    assert offences("jv", {"ok": "kertu sing sampeyan jupuk ketemu"}) == []
