"""The leak oracle of tables of people: what one seat may not know now, and a check that a
state (or live message) sent to that seat names none of it (DESIGN.md principle 6)."""

from __future__ import annotations

import json
import re
from typing import Any

from test_web_leak import card_strings

from ginrummy.cards import CardSet
from ginrummy.hand import HandState
from ginrummy.web.http.tokens import seat_code
from ginrummy.web.tables.engine import TableEngine

#: a seat link's code (``table.rejoin``): 16 bytes, URL-safe base64 without padding
_LINK_CODE = re.compile(r"[A-Za-z0-9_-]{22}")


def seat_links(service: Any, game_id: str) -> dict[int, str]:
    """The seats' own link codes of table ``game_id`` as they are now (docs/tables.md, "A seat
    follows its person"), made from the store as the server makes them: seat -> code, for
    each person seat still held."""
    row = service.store.get_game(game_id)
    table = service.tables.get(game_id)
    return {s.seat: seat_code(row.secret, s.seat, s.token_hash) for s in table.seats
            if s.kind == "person" and not s.left and s.token_hash}


def check_seat_link(state: dict[str, Any], seat: int, where: str,
                    links: dict[int, str] | None = None) -> None:
    """Assert that the only seat link ``state`` (sent to ``seat``) carries is that seat's own,
    as ``table.rejoin``: ``{"code", "url"}`` with the url of this game and seat; with
    ``links`` (:func:`seat_links`), that it is the seat's code and no other seat's code is
    anywhere in the state."""
    table = state.get("table")
    link = table.get("rejoin") if isinstance(table, dict) else None
    if link is not None:
        assert isinstance(link, dict) and set(link) == {"code", "url"}, f"{where}: {link}"
        code = link["code"]
        assert isinstance(code, str) and _LINK_CODE.fullmatch(code), f"{where}: {link}"
        assert link["url"] == f"/rejoin/{state.get('game_id')}/{seat}#{code}", \
            f"{where}: seat {seat} was sent the link {link['url']}"
    if links is None:
        return
    if seat in links and link is not None:
        assert link["code"] == links[seat], f"{where}: seat {seat} was sent a link not its own"
    text = json.dumps(state)
    others = [s for s, c in links.items() if s != seat and c in text]
    assert not others, f"{where}: seat {seat} was sent the link of seats {others}"


def hidden_in_deal(h: HandState, seat: int | None) -> set[str]:
    """Cards of deal ``h`` (in play) that engine seat ``seat`` (None: a seat not playing it)
    may not know: the stock and the other hands' cards not taken face up. A finished deal
    hides nothing (its deck is revealed, docs/fairness.md)."""
    if h.is_over:
        return set()
    hidden = set(CardSet.of(h.stock()).texts())
    for s in (0, 1):
        if s != seat:
            hidden |= set(CardSet(h.hands[s] & ~h.known[s]).texts())
    return hidden


def _deals_of(engine: TableEngine, seat: int) -> tuple[tuple[HandState, int | None],
                                                        tuple[HandState, int | None] | None]:
    """``seat``'s shown deal and its engine seat there (its own deal of the current hand, else
    the hand's deal it sits out); the other table's deal (partnership) with None."""
    g = engine.game
    hand = g.seatings[-1].hand
    current = [i for i, s in enumerate(g.seatings) if s.hand == hand]
    mine = [i for i in current if g.seatings[i].plays(seat)]
    i = mine[0] if mine else current[0]
    others = [j for j in current if j != i] if mine else []
    own = (g.deals[i], g.seatings[i].seat_of(seat))
    return own, (None if not others else (g.deals[others[0]], None))


def check_seat_state(state: dict[str, Any], engine: TableEngine, seat: int,
                     where: str, links: dict[int, str] | None = None) -> None:
    """Assert that ``state``, sent to ``seat`` while ``engine`` is as it is now, names no
    card hidden from that seat, and carries no seat link but its own (:func:`check_seat_link`,
    ``links`` as there)."""
    assert state.get("you") == seat, where
    check_seat_link(state, seat, where, links)
    # names are the people's own text, invite and seat link codes random: none is a card
    state = {k: v for k, v in state.items() if k != "seats"}
    if isinstance(state.get("table"), dict):
        state["table"] = {k: v for k, v in state["table"].items()
                          if k not in ("invite", "rejoin")}
    if state.get("phase") == "waiting":
        assert not card_strings(state, 0), where
        return
    (own, at), other = _deals_of(engine, seat)
    body = {k: v for k, v in state.items() if k not in ("fairness", "score", "table",
                                                        "initial_upcard")}
    fair = state["fairness"]
    if not own.is_over:
        assert fair["revealed"] is None, where
    body["fairness"] = {k: v for k, v in fair.items() if k not in ("history", "revealed")}
    hidden = hidden_in_deal(own, at)
    leaked = {c: p for c, p in card_strings(body, state["hand_number"]).items() if c in hidden}
    assert not leaked, f"{where}: seat {seat} was sent hidden cards {leaked}"
    tb = dict(state.get("table") or {})
    o = tb.pop("other", None)
    assert not card_strings(tb, -1), where
    if other is not None and o is not None:
        o = {k: v for k, v in o.items() if k != "revealed"}
        hidden = hidden_in_deal(other[0], None)
        leaked = {c: p for c, p in card_strings(o, -1).items() if c in hidden}
        assert not leaked, f"{where}: seat {seat} was sent the other table's {leaked}"


def check_review_answer(status: int, body: dict[str, Any], finished: set[int],
                        where: str) -> None:
    """Assert that an answer of the review's endpoints (docs/api.md "Review") names nothing of a
    deal in play: a refusal (409 in play, 404) and a review being made (202) name no card at
    all; a review made (200) reviews only ``finished`` deals (their numbers, as the seat's
    ``/record`` lists them: everything in them is revealed), and names no card outside it."""
    if status != 200:
        assert not card_strings(body, -1), f"{where}: {status} names cards: {body}"
        return
    reviewed = {h["hand"] for h in body["review"]["hands"]}
    assert reviewed <= finished, f"{where}: reviewed {sorted(reviewed)}, finished {finished}"
    rest = {k: v for k, v in body.items() if k != "review"}
    assert not card_strings(rest, -1), where


def check_exercise_answer(status: int, body: dict[str, Any], finished: set[int],
                          where: str) -> None:
    """Assert that an answer of the try-again exercise (``GET .../hands/{n}/exercises/{step}``)
    names nothing of a deal in play: a refusal names no card at all; a position (200) is one
    of a ``finished`` deal (everything in it is revealed), with the players of its two engine
    seats, and names no card outside it."""
    if status != 200:
        assert not card_strings(body, -1), f"{where}: {status} names cards: {body}"
        return
    assert body["hand"] in finished, f"{where}: a position of deal {body['hand']}, " \
                                     f"finished {finished}"
    pos = body["position"]
    assert len(pos["players"]) == 2 and pos["seat"] in (0, 1), where
    rest = {k: v for k, v in body.items() if k != "position"}
    assert not card_strings(rest, -1), where
