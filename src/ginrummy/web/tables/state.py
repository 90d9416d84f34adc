"""The ``state`` JSON of docs/api.md (and docs/variants.md), for one seat of a table of any
form, built from what the engine lets that seat see only (DESIGN.md principle 6):
:func:`ginrummy.views.table_view` gives the seat's own deal as its
:class:`~ginrummy.views.PlayerView` and every deal it does not play (three players: the deal it
sits out; partnership: the other table) as a :class:`~ginrummy.views.PublicView`; finished
deals are described from the seat's views too. The fairness reveal (deck + salt) is added only
for deals that are over.

Seats in a state are players (the table's seats, docs/tables.md): ``you`` is the asking one.
A standard table's state is the one of docs/api.md (no ``scoring`` nor ``table``: a game
against the computer is answered as before tables existed); the other forms add what
docs/variants.md says.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import Any

from ...actions import ActionKind
from ...cards import CardSet, card_text
from ...game import Game, Seating
from ...hand import HandOutcome, Phase
from ...melds import (
    best_arrangement,
    best_discard_deadwood,
    default_spread,
    evaluate_discards,
    min_deadwood_mask,
)
from ...sheets import HollywoodSheet, PartnershipSheet, StandardSheet, ThreePlayerSheet
from ...variants import inactive_fields
from ...views import PlayerView, PublicView, ViewEvent, public_view_of, table_view, view_of
from .engine import DealInfo, TableEngine, keeps_standard_shape
from .numbering import GAME_OVER, numbers

__all__ = ["HISTORY_SHOWN", "build_state", "ordered_hand", "result_json", "score_json"]

#: the earlier deals' reveals a state carries (``fairness.history``: the last ones; docs/api.md)
HISTORY_SHOWN = 3

_CARD_ACTIONS = (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN)
_EVENT_TEXT = {
    ActionKind.TAKE: "take", ActionKind.PASS: "pass", ActionKind.DRAW_STOCK: "draw stock",
    ActionKind.DRAW_DISCARD: "draw discard", ActionKind.DISCARD: "discard",
    ActionKind.KNOCK: "knock", ActionKind.GIN: "gin", ActionKind.BIG_GIN: "big gin",
}
#: what a seat that sits a deal out holds of it
_NO_ARRANGEMENT = {"melds": [], "deadwood": [], "deadwood_points": 0}


def _c(card: int | None) -> str | None:
    return None if card is None else card_text(card)


# ---------------------------------------------------------------------------------- the hand
def ordered_hand(view: PlayerView, order: Sequence[str] | None) -> list[str]:
    """The person's cards: those in the saved ``order`` first, in that order; then the others
    in suit-and-rank order; the card just drawn last."""
    held = view.hand.texts()
    held_set = set(held)
    out: list[str] = []
    seen: set[str] = set()
    for c in order or ():
        if c in held_set and c not in seen:
            out.append(c)
            seen.add(c)
    drawn = _c(view.drawn_card)
    rest = [c for c in held if c not in seen and c != drawn]
    out.extend(rest)
    if drawn is not None and drawn not in seen and drawn in held_set:
        out.append(drawn)
    return out


def _arrangement(view: PlayerView) -> dict[str, Any]:
    hand = view.hand
    if view.to_act and view.phase is Phase.DISCARD and len(hand) == 11:
        forbidden = CardSet.of([view.taken_card]) if view.taken_card is not None else None
        options = evaluate_discards(hand, forbidden)
        if options:
            return options[0].arrangement.to_json()
    return best_arrangement(hand).to_json()


def _legal(view: PlayerView) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    hand_mask = view.hand.mask
    pile_mask = 0
    for c in view.discard_pile:
        pile_mask |= 1 << c
    for a in view.legal:
        d: dict[str, Any] = {"action": a.text, "type": a.kind.value}
        if a.kind in _CARD_ACTIONS:
            assert a.card is not None
            d["card"] = card_text(a.card)
            kept = CardSet(hand_mask & ~(1 << a.card))
            if a.kind is ActionKind.KNOCK:
                # the spread the engine will show for this knock, as HandState does
                sp = default_spread(kept, CardSet(hand_mask | pile_mask))
                d["melds"] = [m.texts() for m in sp.melds]
                d["deadwood"] = sp.deadwood.texts()
                d["deadwood_points"] = sp.deadwood_points
            elif a.kind is ActionKind.GIN:
                d["melds"] = [m.texts() for m in best_arrangement(kept).melds]
        elif a.kind is ActionKind.BIG_GIN:
            d["melds"] = [m.texts() for m in default_spread(view.hand).melds]
        out.append(d)
    return out


def _knock_gin(view: PlayerView) -> tuple[dict[str, Any], dict[str, Any]]:
    """``state.knock`` and ``state.gin``: allowed, or the reason why not."""
    if view.phase is Phase.DONE:
        r = {"code": "hand_over"}
        return {"allowed": False, "reason": r}, {"allowed": False, "reason": dict(r)}
    fixed: dict[str, Any] | None = None
    if view.knock_limit == 0:
        fixed = {"code": "no_knocking" if view.rules.knock_limit == 0 else "gin_only"}
    if not view.to_act:
        r = {"code": "not_your_turn"}
        return ({"allowed": False, "reason": fixed or r},
                {"allowed": False, "reason": dict(r)})
    if view.phase is not Phase.DISCARD:
        r = {"code": "draw_first"}
        return ({"allowed": False, "reason": fixed or r},
                {"allowed": False, "reason": dict(r)})
    kinds = {a.kind for a in view.legal}
    mask = view.hand.mask
    forbidden = 1 << view.taken_card if view.taken_card is not None else 0
    knock: dict[str, Any] = {"allowed": ActionKind.KNOCK in kinds, "reason": None}
    gin: dict[str, Any] = {"allowed": bool(kinds & {ActionKind.GIN, ActionKind.BIG_GIN}),
                           "reason": None}
    if not knock["allowed"]:
        if fixed is not None:
            knock["reason"] = fixed
        else:
            # the least deadwood a knock (not gin) could show: over the legal discards whose
            # kept 10 cards are not all melded
            best = None
            m = mask & ~forbidden
            while m:
                low = m & -m
                m ^= low
                v = min_deadwood_mask(mask ^ low)
                if v and (best is None or v < best):
                    best = v
            knock["reason"] = {"code": "deadwood_over_limit", "deadwood": best or 0,
                               "limit": view.knock_limit}
    if not gin["allowed"]:
        gin["reason"] = {"code": "not_gin", "deadwood": best_discard_deadwood(mask, forbidden)}
    return knock, gin


# -------------------------------------------------------------------------------- the result
def result_json(outcome: HandOutcome | None, viewer: int | None,
                players: tuple[int, int]) -> dict[str, Any] | None:
    """``state.result`` of a finished deal as the viewer (its engine seat there, ``None``: it
    does not play it) may see it, from its view's ``outcome`` (the others' face-down knock
    discard is not in it); seats are players (``players``: those at engine seats 0, 1)."""
    o = outcome
    if o is None:
        return None
    sd = o.showdown
    hands: list[dict[str, Any]] = []
    breakdown: list[dict[str, Any]] = []
    if sd is not None and o.knocker is not None:
        k = sd.knocker_spread
        kmelds = [m.texts() for m in k.melds]
        hands.append({"seat": o.knocker, "melds": kmelds, "deadwood": k.deadwood.texts(),
                      "deadwood_points": k.deadwood_points, "layoffs": []})
        dfd = sd.defender
        hands.append({"seat": 1 - o.knocker, "melds": [m.texts() for m in dfd.melds],
                      "deadwood": dfd.deadwood.texts(), "deadwood_points": dfd.deadwood_points,
                      "layoffs": [{"card": lo.card, "onto": kmelds[lo.onto]}
                                  for lo in dfd.layoffs]})
        hands.sort(key=lambda h: h["seat"])
        for h in hands:
            h["seat"] = players[h["seat"]]
        breakdown = [{"code": c, "points": p} for c, p in sd.breakdown]
    out: dict[str, Any] = {
        "kind": o.kind, "winner": None if o.winner is None else players[o.winner],
        "points": o.points, "knocker": None if o.knocker is None else players[o.knocker],
        "doubled": bool(sd.doubled) if sd is not None else False, "boxes": o.boxes,
        "hands": hands, "breakdown": breakdown,
    }
    if viewer is not None and o.knocker == viewer and o.knock_discard is not None:
        out["knock_discard"] = card_text(o.knock_discard)  # the viewer's own, face down
    out["players"] = list(players)
    return out


# -------------------------------------------------------------------------------- the events
def _deal_view(game: Game, index: int, seat: int) -> tuple[PlayerView | PublicView, int | None]:
    """Deal ``index`` as ``seat`` sees it, and its engine seat there (``None``: it does not
    play it)."""
    at = game.seatings[index].seat_of(seat)
    h = game.deals[index]
    return (public_view_of(h), None) if at is None else (view_of(h, at), at)


def _action_event(hand: int, players: tuple[int, int], ev: ViewEvent) -> dict[str, Any]:
    d: dict[str, Any] = {"hand": hand, "seat": players[ev.seat], "type": ev.kind.value}
    text = _EVENT_TEXT[ev.kind]
    if ev.card is not None:
        d["card"] = card_text(ev.card)
        if ev.kind in _CARD_ACTIONS:
            text += " " + card_text(ev.card)
    d["text"] = text
    return d


def _deal_events(game: Game, index: int, view: PlayerView | PublicView,
                 auto: set[int] | frozenset[int] = frozenset(), start: int = 0
                 ) -> list[dict[str, Any]]:
    """Deal ``index``'s events from position ``start`` on (0: its ``deal``), without their
    numbers, from ``view``: ``deal``, one per action (cards as the view shows them; ``"by":
    "computer"`` on those in ``auto``, a computer's for a person's seat), ``dead_hand`` and
    ``hand_over`` once over. Those before ``start`` are not made: a state shows the few events
    after its ``since``, and making every event of the deal for each state was about a tenth of
    its cost (benchmarks/results/cpu-action-2026-12-06.md)."""
    s = game.seatings[index]
    out: list[dict[str, Any]] = []
    if start <= 0:
        out.append({"hand": s.hand, "seat": s.dealer, "type": "deal", "dealer": s.dealer,
                    "players": list(s.players), "text": "deal"})
    history = view.history
    for j in range(max(0, start - 1), len(history)):
        d = _action_event(s.hand, s.players, history[j])
        if j in auto:
            d["by"] = "computer"
        out.append(d)
    o = view.outcome
    if o is not None:
        end: list[dict[str, Any]] = []
        if o.kind == "dead":
            end.append({"hand": s.hand, "seat": None, "type": "dead_hand", "text": "dead hand"})
        end.append({"hand": s.hand, "seat": None, "type": "hand_over", "kind": o.kind,
                    "winner": game.winner_of(index), "points": o.points, "text": "hand over"})
        out.extend(end[max(0, start - 1 - len(history)):])
    return out


def _game_over_event(game: Game) -> dict[str, Any]:
    ev: dict[str, Any] = {"hand": game.seatings[-1].hand, "seat": None, "type": "game_over",
                          "winner": game.winner, "text": "game over"}
    if any(len(side) > 1 for side in game.sheet.sides):
        ev["team"] = ev["winner"]  # a team won
    return ev


def _stream(game: Game, seat: int) -> set[int]:
    """The deals whose events ``seat`` sees: those it plays, and a hand's deal it plays none
    of (three players: the one it sits out); not a partnership's other table."""
    plays = {s.hand for s in game.seatings if s.plays(seat)}
    return {i for i, s in enumerate(game.seatings) if s.plays(seat) or s.hand not in plays}


def _events_since(engine: TableEngine, since: int, seat: int,
                  shown: tuple[int, PlayerView | PublicView]) -> list[dict[str, Any]]:
    """The events numbered after ``since`` of ``seat``'s stream, with their numbers."""
    g = engine.game
    mine = _stream(g, seat)
    out: list[tuple[int, dict[str, Any]]] = []
    for i, nums in numbers(g, engine.paced):
        if nums[-1] <= since:
            continue
        if i == GAME_OVER:
            out.append((nums[0], _game_over_event(g)))
            continue
        if i not in mine:
            continue
        view = shown[1] if i == shown[0] else _deal_view(g, i, seat)[0]
        first = bisect_right(nums, since)  # a deal's numbers go up: those after ``since``
        out.extend(zip(nums[first:], _deal_events(g, i, view, engine.auto.get(i, frozenset()),
                                                  first), strict=True))
    out.sort(key=lambda x: x[0])
    return [{"seq": n, **ev} for n, ev in out]


def _start(engine: TableEngine, index: int) -> int:
    """The number of the event just before deal ``index``'s ``deal`` event."""
    for i, nums in numbers(engine.game, engine.paced):
        if i == index:
            return nums[0] - 1
    return engine.seq()


# --------------------------------------------------------------------------------- the score
def _deal_lines(game: Game, *, players: bool = False, games: bool = False
                ) -> list[dict[str, Any]]:
    """A score sheet's line per finished deal (winner and knocker as players), with the deal's
    ``players`` (three players) and the ``games`` it was entered in (Hollywood) when asked."""
    lines = []
    for i, s in enumerate(game.seatings):
        o = game.deals[i].outcome
        if o is None:
            continue
        line: dict[str, Any] = {"number": s.number, "hand": s.hand, "dealer": s.dealer}
        if players:
            line["players"] = list(s.players)
        line.update({"winner": game.winner_of(i),
                     "points": o.points if o.winner is not None else 0,
                     "kind": o.kind, "boxes": o.boxes,
                     "knocker": None if o.knocker is None else s.players[o.knocker]})
        if games:
            line["games"] = game.entered.get(i, [])
        lines.append(line)
    return lines


def _standard_score(game: Game) -> dict[str, Any]:
    return {
        "hand_points": list(game.hand_points), "boxes": list(game.boxes),
        "target": game.rules.target,
        "hands": [{"number": s.number, "dealer": s.dealer, "winner": s.winner,
                   "points": s.points, "kind": s.kind, "boxes": s.boxes, "knocker": s.knocker}
                  for s in game.hands],
        "final": game.final().to_json() if game.is_over else None,
    }


def _hollywood_score(game: Game) -> dict[str, Any]:
    sh: Any = game.sheet
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
                      "final": sh.final(j).to_json() if g.is_closed else None})
    totals = list(sh.totals())
    final = None
    if sh.is_over:
        final = {"winner": game.winner, "totals": totals, "margin": game.margin()}
    return {"scoring": game.scoring, "target": game.rules.target,
            "hands": _deal_lines(game, games=True), "games": games, "totals": totals,
            "final": final}


def _three_score(game: Game) -> dict[str, Any]:
    sh: Any = game.sheet
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
    return {"scoring": game.scoring, "target": game.rules.target,
            "hand_points": list(sh.hand_points), "boxes": list(sh.boxes),
            "hands": _deal_lines(game, players=True),
            "next": None if sh.is_over else {"dealer": sh.dealer, "players": list(sh.players)},
            "final": final}


def _partnership_score(game: Game) -> dict[str, Any]:
    sh: Any = game.sheet
    hands = []
    run = [0, 0]
    for n, ((w0, p0), (w1, p1)) in enumerate(sh.tables, 1):
        summary = sh.game.hands[n - 1]
        if summary.winner is not None:
            run[summary.winner] += summary.points
        idx = [i for i, s in enumerate(game.seatings) if s.hand == n]
        tables = []
        for i, (w, p) in zip(idx, ((w0, p0), (w1, p1)), strict=True):
            o = game.deals[i].outcome
            tables.append({"players": list(game.seatings[i].players),
                           "dealer": game.seatings[i].dealer, "winner": w, "points": p,
                           "kind": o.kind if o is not None else None})
        hands.append({"number": n, "tables": tables, "team": summary.winner,
                      "net": summary.points, "running": list(run)})
    return {"scoring": game.scoring, "target": game.rules.target,
            "teams": [list(side) for side in sh.sides],
            "hand_points": list(sh.game.hand_points), "boxes": list(sh.game.boxes),
            "hands": hands, "final": sh.final().to_json() if sh.is_over else None}


#: ``state.score`` of each sheet class (docs/api.md; docs/variants.md): the game's sheet, not
#: its scoring's name, chooses the builder.
SCORE_JSON: dict[type[Any], Callable[[Game], dict[str, Any]]] = {
    StandardSheet: _standard_score, HollywoodSheet: _hollywood_score,
    ThreePlayerSheet: _three_score, PartnershipSheet: _partnership_score,
}


def score_json(game: Game) -> dict[str, Any]:
    """``state.score``: the score sheet of the game's scoring."""
    return SCORE_JSON[type(game.sheet)](game)


# ------------------------------------------------------------------------------- the state
def _reveal(game: Game, index: int, info: DealInfo) -> dict[str, Any]:
    s = game.seatings[index]
    return {"hand": s.hand, "deal": s.number, "table": s.table,
            "deck": [card_text(c) for c in game.deals[index].deck], "salt": info.salt,
            "commitment": info.commitment}


def _other_table(game: Game, index: int, view: PublicView, deals: Sequence[DealInfo]
                 ) -> dict[str, Any]:
    """``table.other``: the other table's deal of the hand, public information only."""
    s = game.seatings[index]
    over = view.phase is Phase.DONE
    evs = [{"seat": s.players[e.seat], "type": e.kind.value,
            **({"card": card_text(e.card)} if e.card is not None else {})}
           for e in view.history]
    return {"hand": s.hand, "deal": s.number, "players": list(s.players), "dealer": s.dealer,
            "turn": None if over else s.players[view.current],
            "stock_count": view.stock_count,
            "discard_top": card_text(view.discard_pile[-1]) if view.discard_pile else None,
            "cards": list(view.card_counts), "upcard": card_text(view.upcard),
            "knock_limit": view.knock_limit, "moves": len(view.history), "over": over,
            "events": evs, "result": result_json(view.outcome, None, s.players),
            "commitment": deals[index].commitment,
            "revealed": _reveal(game, index, deals[index]) if over else None}


def _phase(game: Game, view: PlayerView | PublicView, own: PlayerView | None) -> str:
    if game.is_over:
        return "game-over"
    if view.phase is Phase.DONE:
        return "hand-over"
    if own is None or not own.to_act:
        return "opponent"
    if own.phase is Phase.OFFER:
        return "offer"
    if own.phase is Phase.DISCARD:
        return "discard"
    return "draw"  # ordinary draw, forced stock draw, or the fiftieth-card choice


def build_state(engine: TableEngine, seat: int, since: int | None, *, game_id: str,
                deals: Sequence[DealInfo], level: str, preset: str,
                hand_order: Sequence[str] | None) -> dict[str, Any]:
    """The full ``state`` of docs/api.md for player ``seat``, from its views only, with the
    events numbered after ``since`` (``None``: those of its deal in play, its end included)."""
    g = engine.game
    assert g.deals and len(deals) == len(g.deals)
    tv = table_view(g, seat)
    index = tv.deal
    assert index is not None
    s: Seating = g.seatings[index]
    own = tv.own
    view: PlayerView | PublicView = own if own is not None else tv.others[index]
    over = view.phase is Phase.DONE
    if own is not None:
        legal = _legal(own)
        knock, gin = _knock_gin(own)
        hand = ordered_hand(own, hand_order)
        arrangement = _arrangement(own)
        opponent = {"card_count": own.opponent_card_count, "known": own.opponent_known.texts()}
        drawn, taken = _c(own.drawn_card), _c(own.taken_card)
    else:  # the seat sits this deal out (three players): public information only
        legal = []
        r = {"code": "hand_over" if over else "not_your_turn"}
        knock, gin = {"allowed": False, "reason": r}, {"allowed": False, "reason": dict(r)}
        hand = []
        arrangement = dict(_NO_ARRANGEMENT)
        opponent = {"card_count": 0, "known": []}
        drawn = taken = None
    if not g.is_over and g.hand_over():
        legal.append({"action": "next hand", "type": "next_hand"})
    if since is None:
        since = _start(engine, index)
    done = [i for i in range(len(g.deals)) if i != index and g.deals[i].is_over]
    standard = keeps_standard_shape(g.scoring)  # answered as docs/api.md was written for it
    state: dict[str, Any] = {
        "game_id": game_id,
        "seq": engine.seq(),
        "phase": _phase(g, view, own),
        "you": seat,
        "dealer": s.dealer,
        "turn": None if over else s.players[view.current],
        "level": level,
        "hand_number": s.hand,
        "rules": {"preset": preset, **g.rules.to_dict()},
        "knock_limit": view.knock_limit,
        "knock_limit_reason": "upcard" if g.rules.oklahoma else "rules",
        "rules_inactive": list(inactive_fields(g.rules, g.scoring)),  # docs/variants.md
        "initial_upcard": card_text(view.upcard),
        "hand": hand,
        "drawn": drawn,
        "taken_from_discard": taken,
        "arrangement": arrangement,
        "opponent": opponent,
        "stock_count": view.stock_count,
        "discard_pile": [card_text(c) for c in view.discard_pile],
        "legal": legal,
        "knock": knock,
        "gin": gin,
        "events": _events_since(engine, max(0, since), seat, (index, view)),
        "result": result_json(view.outcome, None if own is None else own.seat, s.players),
        "score": score_json(g),
        "fairness": {
            "commitment": deals[index].commitment,
            "revealed": _reveal(g, index, deals[index]) if over else None,
            # the last few finished deals' reveals; all of them: the record (docs/api.md)
            "history": [_reveal(g, i, deals[i]) for i in done[-HISTORY_SHOWN:]],
            "history_total": len(done),
        },
    }
    if not standard:
        state["scoring"] = g.scoring
        table: dict[str, Any] = {
            "scoring": g.scoring, "players": g.seats, "seats": list(s.players),
            "dealer": s.dealer, "sitting_out": None if s.plays(s.dealer) else s.dealer,
            "spectating": own is None, "deal": s.number, "hand": s.hand,
        }
        if g.sheet.deals_per_hand > 1:  # two tables at once: the teams and the other table
            table["teams"] = [list(side) for side in g.sheet.sides]
            other = [i for i in tv.others if i != index] if own is not None else []
            table["other"] = (_other_table(g, other[0], tv.others[other[0]], deals)
                              if other else None)
        state["table"] = table
    return state
