"""The ``state`` JSON of docs/api.md, built from one seat's view only.

Everything about the deal in play comes from :func:`ginrummy.views.view_of` for the asking seat
(``state.you``; 0 for the person playing the computer), never from the raw
:class:`~ginrummy.hand.HandState` (DESIGN.md principle 6); the score sheet comes from the
:class:`~ginrummy.game.Game`. Finished deals are described from the same seat's views too. The
fairness reveal (deck + salt) is added only for deals that are over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..actions import ActionKind
from ..cards import CardSet, card_text
from ..game import Game
from ..hand import HandState, Phase
from ..melds import (
    best_arrangement,
    best_discard_deadwood,
    default_spread,
    evaluate_discards,
    min_deadwood_mask,
)
from ..variants import inactive_fields
from ..views import PlayerView, ViewEvent, view_of

__all__ = ["YOU", "DealInfo", "build_state", "game_seq", "deal_event_count", "ordered_hand",
           "result_json"]

#: the creator's seat (the person playing the computer); the computer is seat 1.
YOU = 0

_CARD_ACTIONS = (ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN)
_EVENT_TEXT = {
    ActionKind.TAKE: "take", ActionKind.PASS: "pass", ActionKind.DRAW_STOCK: "draw stock",
    ActionKind.DRAW_DISCARD: "draw discard", ActionKind.DISCARD: "discard",
    ActionKind.KNOCK: "knock", ActionKind.GIN: "gin", ActionKind.BIG_GIN: "big gin",
}


@dataclass(frozen=True)
class DealInfo:
    """What the server keeps about a deal besides the engine's state: its fairness data."""

    number: int
    salt: str
    commitment: str


def _texts(cs: CardSet) -> list[str]:
    return cs.texts()


def _c(card: int | None) -> str | None:
    return None if card is None else card_text(card)


# ------------------------------------------------------------------------------------ sequence
def deal_event_count(game: Game, index: int) -> int:
    """Events of deal ``index`` (0-based): ``deal``, one per action, then ``dead_hand`` (dead
    hand), ``hand_over`` and ``game_over`` (the game's last deal) once over."""
    h = game.deals[index]
    n = 1 + len(h.history)
    if h.is_over:
        assert h.outcome is not None
        n += 2 if h.outcome.kind == "dead" else 1
        if game.is_over and index == len(game.deals) - 1:
            n += 1
    return n


def game_seq(game: Game) -> int:
    """The game's sequence number: how many events it has had."""
    return sum(deal_event_count(game, i) for i in range(len(game.deals)))


def _event_json(seq: int, hand: int, ev: ViewEvent) -> dict[str, Any]:
    d: dict[str, Any] = {"seq": seq, "hand": hand, "seat": ev.seat, "type": ev.kind.value}
    text = _EVENT_TEXT[ev.kind]
    if ev.card is not None:
        d["card"] = card_text(ev.card)
        if ev.kind in _CARD_ACTIONS:
            text += " " + card_text(ev.card)
    d["text"] = text
    return d


def _deal_events(game: Game, index: int, base: int, view: PlayerView, since: int = 0
                 ) -> list[dict[str, Any]]:
    """Deal ``index``'s events (its first has seq ``base + 1``) with a seq above ``since``."""
    number = index + 1
    h = game.deals[index]
    out: list[dict[str, Any]] = []
    if base + 1 > since:
        out.append({"seq": base + 1, "hand": number, "seat": h.dealer, "type": "deal",
                    "dealer": h.dealer, "text": "deal"})
    seq = base + 1
    skip = min(len(view.history), max(0, since - seq))  # the actions at or below since
    seq += skip
    for ev in view.history[skip:]:
        seq += 1
        out.append(_event_json(seq, number, ev))
    o = view.outcome
    if o is not None:
        if o.kind == "dead":
            seq += 1
            out.append({"seq": seq, "hand": number, "seat": None, "type": "dead_hand",
                        "text": "dead hand"})
        seq += 1
        out.append({"seq": seq, "hand": number, "seat": None, "type": "hand_over",
                    "kind": o.kind, "winner": o.winner, "points": o.points,
                    "text": "hand over"})
        if game.is_over and index == len(game.deals) - 1:
            seq += 1
            out.append({"seq": seq, "hand": number, "seat": None, "type": "game_over",
                        "winner": game.winner, "text": "game over"})
    return out


def _events_since(game: Game, since: int, current_view: PlayerView) -> list[dict[str, Any]]:
    seat = current_view.seat
    out: list[dict[str, Any]] = []
    base = 0
    last = len(game.deals) - 1
    for i in range(len(game.deals)):
        n = deal_event_count(game, i)
        if base + n > since:
            view = current_view if i == last else view_of(game.deals[i], seat)
            out.extend(e for e in _deal_events(game, i, base, view, since) if e["seq"] > since)
        base += n
    return out


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


def result_json(view: PlayerView) -> dict[str, Any] | None:
    """``state.result`` of a finished deal, from the viewer's view (the opponent's face-down
    knock discard is not in it)."""
    o = view.outcome
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
        breakdown = [{"code": c, "points": p} for c, p in sd.breakdown]
    out: dict[str, Any] = {
        "kind": o.kind, "winner": o.winner, "points": o.points, "knocker": o.knocker,
        "doubled": bool(sd.doubled) if sd is not None else False, "boxes": o.boxes,
        "hands": hands, "breakdown": breakdown,
    }
    if o.knocker == view.seat and o.knock_discard is not None:
        out["knock_discard"] = card_text(o.knock_discard)  # the viewer's own, face down
    return out


def _score(game: Game) -> dict[str, Any]:
    return {
        "hand_points": list(game.hand_points), "boxes": list(game.boxes),
        "target": game.rules.target,
        "hands": [{"number": s.number, "dealer": s.dealer, "winner": s.winner,
                   "points": s.points, "kind": s.kind, "boxes": s.boxes, "knocker": s.knocker}
                  for s in game.hands],
        "final": game.final().to_json() if game.is_over else None,
    }


#: the earlier deals' reveals a state carries (``fairness.history``: the last ones; docs/api.md)
HISTORY_SHOWN = 3


def _reveal(game: Game, index: int, info: DealInfo) -> dict[str, Any]:
    h = game.deals[index]
    return {"hand": info.number, "deck": [card_text(c) for c in h.deck], "salt": info.salt,
            "commitment": info.commitment}


def _phase(game: Game, h: HandState, view: PlayerView) -> str:
    if game.is_over:
        return "game-over"
    if h.is_over:
        return "hand-over"
    if not view.to_act:
        return "opponent"
    if view.phase is Phase.OFFER:
        return "offer"
    if view.phase is Phase.DISCARD:
        return "discard"
    return "draw"  # ordinary draw, forced stock draw, or the fiftieth-card choice


def build_state(*, game_id: str, game: Game, deals: Sequence[DealInfo], level: str, preset: str,
                since: int, hand_order: Sequence[str] | None, seat: int = YOU
                ) -> dict[str, Any]:
    """The full ``state`` object of docs/api.md for ``seat`` (0 or 1), from its view only."""
    assert game.current is not None and len(deals) == len(game.deals)
    h = game.current
    view = view_of(h, seat)
    seq = game_seq(game)
    index = len(game.deals) - 1
    legal = _legal(view)
    if h.is_over and not game.is_over:
        legal.append({"action": "next hand", "type": "next_hand"})
    knock, gin = _knock_gin(view)
    rules = {"preset": preset, **game.rules.to_dict()}
    revealed = _reveal(game, index, deals[index]) if h.is_over else None
    return {
        "game_id": game_id,
        "seq": seq,
        "phase": _phase(game, h, view),
        "you": seat,
        "dealer": view.dealer,
        "turn": view.current if not h.is_over else None,
        "level": level,
        "hand_number": index + 1,
        "rules": rules,
        "knock_limit": view.knock_limit,
        "knock_limit_reason": "upcard" if game.rules.oklahoma else "rules",
        "rules_inactive": list(inactive_fields(game.rules)),  # docs/variants.md
        "initial_upcard": card_text(view.upcard),
        "hand": ordered_hand(view, hand_order),
        "drawn": _c(view.drawn_card),
        "taken_from_discard": _c(view.taken_card),
        "arrangement": _arrangement(view),
        "opponent": {"card_count": view.opponent_card_count,
                     "known": view.opponent_known.texts()},
        "stock_count": view.stock_count,
        "discard_pile": [card_text(c) for c in view.discard_pile],
        "legal": legal,
        "knock": knock,
        "gin": gin,
        "events": _events_since(game, max(0, since), view),
        "result": result_json(view),
        "score": _score(game),
        "fairness": {
            "commitment": deals[index].commitment,
            "revealed": revealed,
            # the last few earlier deals' reveals; all of them: GET /api/games/{id}/record
            "history": [_reveal(game, i, deals[i])
                        for i in range(max(0, index - HISTORY_SHOWN), index)],
            "history_total": index,
        },
    }
