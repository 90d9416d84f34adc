"""The ``state`` JSON of a variant table (docs/variants.md), from one player's side only.

The player's own deal is described from :func:`ginrummy.views.view_of` for its engine seat,
exactly as a standard game (:mod:`ginrummy.web.state`). A deal the player does not play (three
players: the player deals and sits out; partnership: the other table) is described from public
information only: the face-up discards and pickups, card counts, who won and how many points, and
the shown-down hands at the end; never a stock card or a face-down knock discard.

Seats in this state are *players* (the table's seats, docs/tables.md): 0, 1, 2 (three players)
and 0, 1, 2, 3 (partnership: A, B, C the partner of A, D); ``you`` is the asking one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import ActionKind
from ..cards import card_text
from ..game import FinalScore, Game, Seating
from ..hand import HandState, Phase
from ..variants import inactive_fields
from ..views import PlayerView, view_of
from .engines import TableEngine
from .numbering import GAME_OVER, deal_start, event_order
from .state import (
    HISTORY_SHOWN,
    YOU,
    DealInfo,
    _arrangement,
    _knock_gin,
    _legal,
    build_state,
    deal_event_count,
    ordered_hand,
    result_json,
)

__all__ = ["build_variant_state", "build_table_state", "public_events", "public_result",
           "variant_score", "stream", "other_index"]

PERSON = YOU

_EVENT_TEXT = {
    ActionKind.TAKE: "take", ActionKind.PASS: "pass", ActionKind.DRAW_STOCK: "draw stock",
    ActionKind.DRAW_DISCARD: "draw discard", ActionKind.DISCARD: "discard",
    ActionKind.KNOCK: "knock", ActionKind.GIN: "gin", ActionKind.BIG_GIN: "big gin",
}
_CARD_ACTIONS = (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN)
_HIDDEN = (ActionKind.DRAW_STOCK, ActionKind.KNOCK, ActionKind.GIN)


def stream(m: Game, seat: int) -> list[int]:
    """The deals whose events ``seat`` sees: those it plays, and a deal of a hand it plays
    no deal of (three players: the deal it sits out); not a partnership's other table."""
    plays = {s.hand for s in m.seatings if s.plays(seat)}
    return [i for i, s in enumerate(m.seatings) if s.plays(seat) or s.hand not in plays]


def other_index(m: Game, seat: int) -> int | None:
    """The deal of the current hand that ``seat`` does not play while it plays another (a
    partnership's other table), if dealt."""
    if not m.deals:
        return None
    hand = m.seatings[-1].hand
    current = [i for i, s in enumerate(m.seatings) if s.hand == hand]
    if not any(m.seatings[i].plays(seat) for i in current):
        return None
    others = [i for i in current if not m.seatings[i].plays(seat)]
    return others[-1] if others else None


# -------------------------------------------------------------------------------------- views
def _seat_view(m: Game, index: int, seat: int) -> PlayerView:
    """Deal ``index`` from ``seat``'s side: its own view if it plays it, else engine seat 0's,
    of which only public parts are used."""
    s = m.seatings[index]
    at = s.seat_of(seat)
    return view_of(m.deals[index], 0 if at is None else at)


def public_events(h: HandState, s: Seating) -> list[tuple[int, ActionKind, int | None]]:
    """A deal's events as anyone at the table sees them: ``(player, kind, card)``, with stock
    cards and face-down knock discards hidden (R-3.4, R-4.3)."""
    out = []
    for e in view_of(h, 0).history:
        card = None if e.kind in _HIDDEN else e.card
        out.append((s.players[e.seat], e.kind, card))
    return out


def _event_json(seq: int, hand: int, player: int, kind: ActionKind, card: int | None
                ) -> dict[str, Any]:
    d: dict[str, Any] = {"seq": seq, "hand": hand, "seat": player, "type": kind.value}
    text = _EVENT_TEXT[kind]
    if card is not None:
        d["card"] = card_text(card)
        if kind in _CARD_ACTIONS:
            text += " " + card_text(card)
    d["text"] = text
    return d


def _deal_events(m: Game, index: int, seat: int) -> list[dict[str, Any]]:
    """Deal ``index``'s events without their numbers nor ``game_over``, as ``seat`` sees them
    (its own draws named only when it plays the deal)."""
    h = m.deals[index]
    s = m.seatings[index]
    out: list[dict[str, Any]] = [{"hand": s.hand, "seat": s.dealer, "type": "deal",
                                  "dealer": s.dealer, "players": list(s.players),
                                  "text": "deal"}]
    if s.plays(seat):
        evs: list[tuple[int, ActionKind, int | None]] = [
            (s.players[e.seat], e.kind, e.card) for e in _seat_view(m, index, seat).history]
    else:
        evs = public_events(h, s)
    for player, kind, card in evs:
        ev = _event_json(0, s.hand, player, kind, card)
        del ev["seq"]
        out.append(ev)
    o = h.outcome
    if o is not None:
        if o.kind == "dead":
            out.append({"hand": s.hand, "seat": None, "type": "dead_hand", "text": "dead hand"})
        out.append({"hand": s.hand, "seat": None, "type": "hand_over",
                    "kind": o.kind, "winner": m.winner_of(index), "points": o.points,
                    "text": "hand over"})
    return out


def _game_over_event(m: Game) -> dict[str, Any]:
    ev: dict[str, Any] = {"hand": m.seatings[-1].hand, "seat": None, "type": "game_over",
                          "winner": m.winner, "text": "game over"}
    if m.scoring == "partnership":
        ev["team"] = ev["winner"]
    return ev


def _events_since(m: Game, since: int, seat: int, order: list[tuple[int, int]]
                  ) -> list[dict[str, Any]]:
    """The events numbered after ``since`` of ``seat``'s stream, with their numbers."""
    mine = set(stream(m, seat))
    rendered: dict[int, list[dict[str, Any]]] = {}
    out: list[dict[str, Any]] = []
    for n in range(max(0, since), len(order)):
        i, k = order[n]
        if i == GAME_OVER:
            ev = _game_over_event(m)
        elif i in mine:
            if i not in rendered:
                rendered[i] = _deal_events(m, i, seat)
            ev = dict(rendered[i][k])
        else:
            continue
        out.append({"seq": n + 1, **ev})
    return out


# ------------------------------------------------------------------------------------- results
def public_result(m: Game, index: int, seat: int = PERSON) -> dict[str, Any] | None:
    """``result`` of a finished deal with players for seats, as ``seat`` sees it; a deal
    ``seat`` did not play carries no knock discard."""
    s = m.seatings[index]
    view = _seat_view(m, index, seat)
    res = result_json(view)
    if res is None:
        return None
    if not s.plays(seat):
        res.pop("knock_discard", None)
    for k in ("winner", "knocker"):
        if res.get(k) is not None:
            res[k] = s.players[res[k]]
    for hd in res.get("hands", []):
        hd["seat"] = s.players[hd["seat"]]
    res["players"] = list(s.players)
    return res


def _final_json(f: FinalScore) -> dict[str, Any]:
    return f.to_json()


def _sheet_hands(m: Game, *, players: bool = False, games: bool = False
                 ) -> list[dict[str, Any]]:
    """A score sheet's line per finished deal (winner and knocker as players), with the deal's
    ``players`` (three players) and the ``games`` it was entered in (Hollywood) when asked."""
    hands = []
    for i, s in enumerate(m.seatings):
        o = m.deals[i].outcome
        if o is None:
            continue
        line: dict[str, Any] = {"number": s.number, "hand": s.hand, "dealer": s.dealer}
        if players:
            line["players"] = list(s.players)
        line.update({"winner": m.winner_of(i), "points": o.points if o.winner is not None else 0,
                     "kind": o.kind, "boxes": o.boxes,
                     "knocker": None if o.knocker is None else s.players[o.knocker]})
        if games:
            line["games"] = m.entered.get(i, [])
        hands.append(line)
    return hands


def _hollywood_score(m: Game) -> dict[str, Any]:
    sh: Any = m.sheet
    hands = _sheet_hands(m, games=True)
    games = []
    for j, g in enumerate(sh.games):
        run = [0, 0]
        lines = []
        for number, seat, pts in g.lines:
            run[seat] += pts
            lines.append({"hand": number, "seat": seat, "points": pts, "total": run[seat]})
        games.append({"number": j + 1, "hand_points": list(g.hand_points),
                      "entries": list(g.entries), "boxes": list(g.boxes), "lines": lines,
                      "closed_after": g.closed_at, "winner": g.winner,
                      "final": _final_json(sh.final(j)) if g.is_closed else None})
    totals = list(sh.totals())
    final = None
    if sh.is_over:
        final = {"winner": m.winner, "totals": totals, "margin": m.margin()}
    return {"scoring": "hollywood", "target": m.rules.target, "hands": hands, "games": games,
            "totals": totals, "final": final}


def _three_score(m: Game) -> dict[str, Any]:
    sh: Any = m.sheet
    hands = _sheet_hands(m, players=True)
    final = None
    settlements = []
    if sh.is_over:
        w = sh.winner
        net = [0, 0, 0]
        for opp, f in sorted(sh.settlements().items()):
            d = f.to_json()
            d["opponent"] = opp
            d["winner"] = w
            d["players"] = [w, opp]
            settlements.append(d)
            net[w] += f.margin
            net[opp] -= f.margin
        final = {"winner": w, "net": net, "settlements": settlements}
    return {"scoring": "three_player", "target": m.rules.target,
            "hand_points": list(sh.hand_points), "boxes": list(sh.boxes), "hands": hands,
            "next": None if sh.is_over else {"dealer": sh.dealer, "players": list(sh.players)},
            "final": final}


def _partnership_score(m: Game) -> dict[str, Any]:
    sh: Any = m.sheet
    hands = []
    run = [0, 0]
    for n, ((w0, p0), (w1, p1)) in enumerate(sh.tables, 1):
        summary = sh.game.hands[n - 1]
        if summary.winner is not None:
            run[summary.winner] += summary.points
        idx = [i for i, s in enumerate(m.seatings) if s.hand == n]
        tables = []
        for i, (w, p) in zip(idx, ((w0, p0), (w1, p1)), strict=True):
            o = m.deals[i].outcome
            tables.append({"players": list(m.seatings[i].players),
                           "dealer": m.seatings[i].dealer, "winner": w, "points": p,
                           "kind": o.kind if o is not None else None})
        hands.append({"number": n, "tables": tables, "team": summary.winner,
                      "net": summary.points, "running": list(run)})
    return {"scoring": "partnership", "target": m.rules.target, "teams": [[0, 2], [1, 3]],
            "hand_points": list(sh.game.hand_points), "boxes": list(sh.game.boxes),
            "hands": hands, "final": _final_json(sh.final()) if sh.is_over else None}


def variant_score(m: Game) -> dict[str, Any]:
    if m.scoring == "hollywood":
        return _hollywood_score(m)
    if m.scoring == "three_player":
        return _three_score(m)
    return _partnership_score(m)


# ------------------------------------------------------------------------------------ the state
def _reveal(m: Game, index: int, info: DealInfo) -> dict[str, Any]:
    s = m.seatings[index]
    return {"hand": s.hand, "deal": s.number, "table": s.table,
            "deck": [card_text(c) for c in m.deals[index].deck], "salt": info.salt,
            "commitment": info.commitment}


def _other_table(m: Game, deals: Sequence[DealInfo], seat: int) -> dict[str, Any] | None:
    i = other_index(m, seat)
    if i is None:
        return None
    h = m.deals[i]
    s = m.seatings[i]
    evs = [{"seat": p, "type": k.value, **({"card": card_text(c)} if c is not None else {})}
           for p, k, c in public_events(h, s)]
    return {"hand": s.hand, "deal": s.number, "players": list(s.players), "dealer": s.dealer,
            "turn": None if h.is_over else s.players[h.current],
            "stock_count": h.stock_count,
            "discard_top": card_text(h.discard_pile[-1]) if h.discard_pile else None,
            "cards": [len(h.hand(0)), len(h.hand(1))],
            "upcard": card_text(h.upcard), "knock_limit": h.knock_limit,
            "moves": len(h.history), "over": h.is_over, "events": evs,
            "result": public_result(m, i, seat) if h.is_over else None,
            "commitment": deals[i].commitment,
            "revealed": _reveal(m, i, deals[i]) if h.is_over else None}


def _phase(m: Game, h: HandState, view: PlayerView, plays: bool) -> str:
    if m.is_over:
        return "game-over"
    if h.is_over:
        return "hand-over"
    if not plays or not view.to_act:
        return "opponent"
    if view.phase is Phase.OFFER:
        return "offer"
    if view.phase is Phase.DISCARD:
        return "discard"
    return "draw"


def build_variant_state(*, game_id: str, engine: TableEngine, deals: Sequence[DealInfo],
                        level: str, preset: str, since: int | None,
                        hand_order: Sequence[str] | None, seat: int = PERSON) -> dict[str, Any]:
    """The ``state`` of a variant table for player ``seat``, from its views only; the events
    numbered after ``since`` (``None``: those of ``seat``'s deal in play)."""
    m = engine.game
    index = engine.shown(seat)
    h = m.deals[index]
    s = m.seatings[index]
    plays = s.plays(seat)
    view = _seat_view(m, index, seat)
    order = event_order(m, engine.paced)
    if since is None:
        since = deal_start(order, index)
    if plays:
        legal = _legal(view)
        knock, gin = _knock_gin(view)
        hand = ordered_hand(view, hand_order)
        arrangement = _arrangement(view)
        opponent = {"card_count": view.opponent_card_count,
                    "known": view.opponent_known.texts()}
        drawn = None if view.drawn_card is None else card_text(view.drawn_card)
        taken = None if view.taken_card is None else card_text(view.taken_card)
    else:  # the seat sits out (three players): public information only
        legal = []
        r = {"code": "hand_over" if h.is_over else "not_your_turn"}
        knock, gin = {"allowed": False, "reason": r}, {"allowed": False, "reason": dict(r)}
        hand = []
        arrangement = {"melds": [], "deadwood": [], "deadwood_points": 0}
        opponent = {"card_count": 0, "known": []}
        drawn = taken = None
    if not m.is_over and m.hand_over():
        legal.append({"action": "next hand", "type": "next_hand"})
    done = [i for i in range(len(m.deals)) if i != index and m.deals[i].is_over]
    # the last few finished deals' reveals; all of them: the record (docs/api.md)
    history = [_reveal(m, i, deals[i]) for i in done[-HISTORY_SHOWN:]]
    table: dict[str, Any] = {
        "scoring": m.scoring, "players": m.seats, "seats": list(s.players),
        "dealer": s.dealer, "sitting_out": s.dealer if m.scoring == "three_player" else None,
        "spectating": not plays, "deal": s.number, "hand": s.hand,
    }
    if m.scoring == "partnership":
        table["teams"] = [[0, 2], [1, 3]]
        table["other"] = _other_table(m, deals, seat)
    seq = len(order)
    return {
        "game_id": game_id,
        "seq": seq,
        "phase": _phase(m, h, view, plays),
        "you": seat,
        "dealer": s.dealer,
        "turn": None if h.is_over else s.players[h.current],
        "level": level,
        "hand_number": s.hand,
        "rules": {"preset": preset, **m.rules.to_dict()},
        "rules_inactive": list(inactive_fields(m.rules, m.scoring)),
        "scoring": m.scoring,
        "knock_limit": h.knock_limit,
        "knock_limit_reason": "upcard" if m.rules.oklahoma else "rules",
        "initial_upcard": card_text(h.upcard),
        "hand": hand,
        "drawn": drawn,
        "taken_from_discard": taken,
        "arrangement": arrangement,
        "opponent": opponent,
        "stock_count": h.stock_count,
        "discard_pile": [card_text(c) for c in h.discard_pile],
        "legal": legal,
        "knock": knock,
        "gin": gin,
        "events": _events_since(m, max(0, since), seat, order),
        "result": public_result(m, index, seat),
        "score": variant_score(m),
        "table": table,
        "fairness": {
            "commitment": deals[index].commitment,
            "revealed": _reveal(m, index, deals[index]) if h.is_over else None,
            "history": history,
            "history_total": len(done),
        },
    }



def build_table_state(engine: TableEngine, seat: int, since: int | None, *, game_id: str,
                      deals: Sequence[DealInfo], level: str, preset: str,
                      hand_order: Sequence[str] | None) -> dict[str, Any]:
    """The ``state`` JSON for ``seat`` with the events after ``since`` (``None``: those of
    its deal in play)."""
    g = engine.game
    if g.scoring == "standard":
        if since is None:  # the events of the deal in play (its end included)
            since = engine.seq() - deal_event_count(g, len(g.deals) - 1)
        return build_state(game_id=game_id, game=g, deals=deals, level=level, preset=preset,
                           since=since, hand_order=hand_order, seat=seat)
    return build_variant_state(game_id=game_id, engine=engine, deals=deals, level=level,
                               preset=preset, since=since, hand_order=hand_order, seat=seat)
