"""The review in English words for ``ginrummy review``: the moves and reasons in the hints'
own sentences (the catalogue's ``hint.move.*`` and ``hint.why.*`` keys, read from the web
game's English catalogue, ``ginrummy/web/locales/en.json``, as data: nothing of the web stack
is imported), and the review's notes and grades (:data:`REVIEW_WORDS`: the English of the
``review.*`` keys the review's page will add to the four catalogues).

Everything here reads the review's JSON (:meth:`ginrummy.bots.review.GameReview.to_json`), the
same the page will draw from.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any, Final

__all__ = ["REVIEW_WORDS", "move_words", "why_words", "note_words", "decision_words", "pct"]

#: English of the review's own keys (the grades and :mod:`ginrummy.bots.review.notes`).
REVIEW_WORDS: Final = {
    "review.grade.best": "best",
    "review.grade.good": "good",
    "review.grade.inaccuracy": "inaccuracy",
    "review.grade.mistake": "mistake",
    "review.grade.blunder": "blunder",
    "review.note.breaks_meld": "The {card} breaks your meld {meld}.",
    "review.note.feeds": "The {card} goes with the {taken} your opponent took from the "
                         "discard pile.",
    "review.note.undercut_risk": "Knocking with {k} points of deadwood risked an undercut: "
                                 "about {risk}%.",
    "review.note.missed_gin": "You could have gone gin.",
    "review.note.missed_knock": "You could have knocked with {k} points of deadwood.",
    "review.better": "Better: {move}.",
    "review.deadwood": "Your deadwood: {now} before, {after} after.",
}

_CATALOG = Path(__file__).resolve().parent.parent / "web" / "locales" / "en.json"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_TAKES = ("take", "draw_discard")


@functools.cache
def _catalog() -> dict[str, str]:
    try:
        data = json.loads(_CATALOG.read_text("utf-8"))
    except (OSError, ValueError):  # pragma: no cover - a broken install: codes instead
        return {}
    return {k: v for k, v in data.items() if k.startswith("hint.")}


def _t(key: str, params: dict[str, Any]) -> str:
    text = REVIEW_WORDS.get(key) or _catalog().get(key)
    if text is None:
        return key
    return _PLACEHOLDER.sub(lambda m: str(params.get(m.group(1), "")), text)


def pct(x: float | None) -> str:
    """A chance 0..1 as whole percent, e.g. ``"37"``."""
    return "" if x is None else str(round(x * 100))


def move_words(kind: str, card: str | None) -> str:
    """A move in the hints' words: ``discard the 7H``, ``draw from the stock``."""
    return _t(f"hint.move.{kind}", {"card": card or ""})


def why_words(hint: dict[str, Any]) -> str:
    """The hint's reason in words (the web page's ``hintText`` does the same with the same
    keys)."""
    alt = hint.get("alternative") or {}
    cmp = hint.get("comparison") or {}
    reason = f"take_{hint['reason']}" if hint["kind"] in _TAKES else hint["reason"]
    card = hint.get("card") or alt.get("card") or ""
    params = {"card": card, "now": hint.get("deadwood"), "after": hint.get("deadwood_after"),
              "then": hint.get("then_discard") or "", "alt": alt.get("deadwood_after"),
              "other": cmp.get("card", ""), "low": cmp.get("deadwood"),
              "exp": cmp.get("expected"), "exp_other": cmp.get("expected_other"),
              "danger": pct(cmp.get("danger", hint.get("danger"))),
              "danger_other": pct(cmp.get("danger_other")), "k": hint.get("could_knock"),
              "risk": pct(hint.get("undercut_risk")), "max": hint.get("late_max"),
              "limit": hint.get("knock_limit")}
    return _t(f"hint.why.{reason}", params)


def note_words(note: dict[str, Any]) -> str:
    """A note of :mod:`ginrummy.bots.review.notes` in words."""
    p = dict(note["params"])
    if "meld" in p:
        p["meld"] = " ".join(p["meld"])
    if "risk" in p:
        p["risk"] = pct(p["risk"])
    return _t(f"review.note.{note['code']}", p)


def decision_words(d: dict[str, Any]) -> str:
    """Why a decision got its grade, in sentences: a best move's reason in the hints' words;
    otherwise the deadwood the move played left, the better move and its reason; then the
    notes."""
    parts = []
    played = d.get("played_hint")
    if d["grade"] == "best" and played:
        parts.append(why_words(played))
    elif played and played.get("deadwood_after") is not None:
        parts.append(_t("review.deadwood", {"now": played["deadwood"],
                                            "after": played["deadwood_after"]}))
    if d["grade"] != "best" and d.get("best_hint"):
        b = d["best_hint"]
        parts.append(_t("review.better", {"move": move_words(b["kind"], b.get("card"))}))
        parts.append(why_words(b))
    parts += [note_words(n) for n in d["notes"]]
    return " ".join(p for p in parts if p)
