"""The score keeper on the web (docs/variants.md): the ``/keeper`` page and the ``/api/sheets``
endpoints. A sheet holds the outcome of each hand of a game played with real cards; the server
scores it with :func:`ginrummy.keeper.score_sheet` under the chosen preset and scoring (the page
holds no rules). Sheets are stored (:mod:`ginrummy.store.variants`) and owned through a token,
like games.
"""

from __future__ import annotations

import hmac
import re
import secrets
from collections.abc import Callable
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Header, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Discriminator, Field, StrictBool, StrictInt, Tag

from ...errors import RulesError
from ...keeper import MAX_HAND_POINTS, SheetInputError, score_sheet, sheet_csv
from ...rules import PRESETS, Rules, check_new_target
from ...store import SheetRow, VariantStore
from ...variants import PLAYER_COUNT, SCORINGS, check_table, fit_to_table
from ..http.encoding import JSONAnswer
from ..http.errors import from_engine
from ..http.schemas import Body, error_response
from ..http.text import Name, Text
from ..http.tokens import token_hash

__all__ = ["install_keeper", "MAX_HANDS"]

#: the most hands a sheet keeps (a game needs far fewer).
MAX_HANDS = 400
_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class NewSheet(Body):
    """``POST /api/sheets``."""

    model_config = ConfigDict(extra="ignore")

    scoring: Text = Field(default="standard", max_length=32)
    preset: Text = Field(default="standard", max_length=64)
    rules: dict[str, Any] | None = Field(default=None, max_length=40)
    players: list[Name] = Field(min_length=2, max_length=4)
    first_dealer: Name | None = None


#: a card as text ("7H", "10S", "7♥")
_Card = Annotated[Text, Field(max_length=8)]


def _cards_form(value: Any) -> str | None:
    """Which form of :data:`_Cards` a value has (``text`` or ``list``; None: neither)."""
    return "text" if isinstance(value, str) else "list" if isinstance(value, list) else None


#: cards as one text (spaces or commas between) or a list of card texts; at most 11 cards. The
#: two forms are named (``text``, ``list``): a refusal's ``loc`` says which, in words, where
#: pydantic would name its validators (issue 21 item 5)
_Cards = Annotated[Annotated[Text, Field(max_length=120), Tag("text")]
                   | Annotated[list[_Card], Field(max_length=11), Tag("list")],
                   Discriminator(_cards_form)]
_Points = Annotated[StrictInt, Field(ge=0, le=MAX_HAND_POINTS)]
_Kind = Literal["knock", "gin", "big_gin", "undercut"]


class TableHand(BaseModel):
    """One table's hand in the format of :mod:`ginrummy.keeper`: only these fields, with these
    types and lengths (the keeper checks how they go together)."""

    model_config = ConfigDict(extra="forbid")

    winner: Name | None = None
    points: _Points | None = None
    kind: _Kind | None = None
    dead: StrictBool | None = None
    knocker: Name | None = None
    result: _Kind | None = None
    knocker_deadwood: _Points | None = None
    defender_deadwood: _Points | None = None
    upcard: _Card | None = None
    melds: list[_Cards] | None = Field(default=None, max_length=4)
    deadwood: _Cards | None = None
    defender: _Cards | None = None
    knocker_cards: _Cards | None = None


class Hand(TableHand):
    """A hand: one table's, or (partnership) ``{"tables": [hand, hand]}``."""

    tables: list[TableHand] | None = Field(default=None, min_length=2, max_length=2)


class HandIn(Body):
    """``POST /api/sheets/{id}/hands``: one hand in the format of :mod:`ginrummy.keeper`;
    ``seq`` (optional) is the sheet's ``seq`` it was entered on."""

    model_config = ConfigDict(extra="ignore")

    hand: Hand
    seq: StrictInt | None = Field(default=None, ge=0, le=10**9)


def _answer(row: SheetRow) -> dict[str, Any]:
    return {"sheet_id": row.id, "seq": row.seq, "input": row.data,
            "sheet": score_sheet(row.data)}


def install_keeper(app: FastAPI, vstore: VariantStore, *,
                   page: Callable[[Request, str | None, str, str], Response],
                   bearer: Callable[[str | None], str | None],
                   creation_limit: Callable[[Request], Response | None] | None = None) -> None:
    """Add the page and the endpoints to ``app`` (helpers passed by :mod:`ginrummy.web.http.app`:
    ``page(request, lang, file, missing)`` serves a page of the front end;
    ``creation_limit(request)`` is the 429 answer when the client has made too many things
    lately, else None: the limit on new games, applied to new sheets)."""
    store = vstore.sheets

    def owned(sheet_id: str, authorization: str | None) -> SheetRow | None:
        token = bearer(authorization)
        if not token or not _ID_RE.match(sheet_id) or len(token) > 256:
            return None
        row = store.get(sheet_id)
        if row is None or not hmac.compare_digest(row.token_hash, token_hash(token)):
            return None
        return row

    @app.get("/keeper", response_class=HTMLResponse)
    def keeper_page(request: Request, lang: str | None = Query(default=None)) -> Response:
        return page(request, lang, "keeper.html", "The score keeper is not installed.")

    @app.post("/api/sheets", status_code=201)
    def new_sheet(body: NewSheet, request: Request) -> Response:
        limited = creation_limit(request) if creation_limit is not None else None
        if limited is not None:
            return limited
        if body.scoring not in SCORINGS:
            return error_response(422, "sheet", "unknown_scoring",
                                  {"scoring": repr(body.scoring)[:60], "choices": list(SCORINGS)})
        if body.preset not in PRESETS:
            return error_response(422, "rules", "unknown_preset",
                                  {"preset": body.preset[:60], "choices": list(PRESETS)})
        names = list(body.players)  # each a valid name, stripped (text.valid_name)
        if len(names) != PLAYER_COUNT[body.scoring]:
            return error_response(422, "sheet", "sheet_players",
                                  {"n": PLAYER_COUNT[body.scoring], "scoring": body.scoring})
        try:
            ov = fit_to_table({k: v for k, v in (body.rules or {}).items() if k != "preset"},
                              body.scoring)
            rules = Rules.preset(body.preset, **ov)
            check_new_target(rules.target)
            check_table(rules, body.scoring)
        except RulesError as e:
            return error_response(422, "rules", *from_engine(e))
        except TypeError as e:
            return error_response(422, "rules", "other", {"text": str(e)})
        data: dict[str, Any] = {"rules": {"preset": body.preset, **ov}, "scoring": body.scoring,
                                "players": names, "hands": []}
        if body.first_dealer is not None:
            data["first_dealer"] = body.first_dealer
        try:
            score_sheet(data)
        except SheetInputError as e:
            return error_response(422, "sheet", *from_engine(e))
        token = secrets.token_urlsafe(32)
        row = SheetRow(secrets.token_urlsafe(16), token_hash(token),
                       getattr(request.state, "player_id", None), data)
        store.insert(row)
        return JSONAnswer({"token": token, **_answer(row)}, status_code=201)

    # the CSV route first: "{sheet_id}" alone would also match "abc.csv"
    @app.get("/api/sheets/{sheet_id}.csv")
    def sheet_as_csv(sheet_id: str, authorization: str | None = Header(default=None)
                     ) -> Response:
        row = owned(sheet_id, authorization)
        if row is None:
            return error_response(404, "not_found", "no_sheet")
        text = sheet_csv(score_sheet(row.data))
        return Response("\ufeff" + text, media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="gin-rummy-{sheet_id[:8]}.csv"'})

    @app.get("/api/sheets/{sheet_id}")
    def get_sheet(sheet_id: str, authorization: str | None = Header(default=None)) -> Response:
        row = owned(sheet_id, authorization)
        if row is None:
            return error_response(404, "not_found", "no_sheet")
        return JSONAnswer(_answer(row))

    @app.post("/api/sheets/{sheet_id}/hands")
    def add_hand(sheet_id: str, body: HandIn,
                 authorization: str | None = Header(default=None)) -> Response:
        row = owned(sheet_id, authorization)
        if row is None:
            return error_response(404, "not_found", "no_sheet")
        if body.seq is not None and body.seq != row.seq:
            return error_response(409, "stale", "sheet_stale", **_answer(row))
        hands = list(row.data.get("hands", []))
        if len(hands) >= MAX_HANDS:
            return error_response(422, "sheet", "sheet_full", {"max": MAX_HANDS})
        rules = Rules.from_dict(row.data["rules"])
        hand = body.hand.model_dump(exclude_unset=True)  # the fields sent, nested ones too
        if rules.oklahoma and _needs_upcard(hand):
            return error_response(422, "sheet", "sheet_upcard", {"hand": len(hands) + 1})
        data = {**row.data, "hands": [*hands, hand]}
        try:
            score_sheet(data)
        except SheetInputError as e:
            return error_response(422, "sheet", *from_engine(e))
        if not store.add_hand(row.id, row.seq, hand):
            fresh = store.get(row.id)
            assert fresh is not None
            return error_response(409, "stale", "sheet_stale", **_answer(fresh))
        row.data, row.seq = data, row.seq + 1
        return JSONAnswer(_answer(row))

    @app.delete("/api/sheets/{sheet_id}/hands/last")
    def undo_hand(sheet_id: str, authorization: str | None = Header(default=None)) -> Response:
        row = owned(sheet_id, authorization)
        if row is None:
            return error_response(404, "not_found", "no_sheet")
        hands = list(row.data.get("hands", []))
        if not hands:
            return error_response(422, "sheet", "nothing_to_undo")
        data = {**row.data, "hands": hands[:-1]}
        if not store.remove_last_hand(row.id, row.seq):
            return error_response(409, "stale", "sheet_stale")
        row.data, row.seq = data, row.seq + 1
        return JSONAnswer(_answer(row))


def _needs_upcard(hand: dict[str, Any]) -> bool:
    """A knock, gin or undercut scored from deadwood or cards needs the Oklahoma upcard."""
    def one(h: Any) -> bool:
        return isinstance(h, dict) and "knocker" in h and not h.get("upcard")

    if isinstance(hand.get("tables"), list):
        return any(one(t) for t in hand["tables"])
    return one(hand)
