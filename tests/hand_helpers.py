"""Helpers for HandState tests: crafted decks, state snapshots, scripted play."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ginrummy.cards import parse_card, parse_cards
from ginrummy.hand import HandState
from ginrummy.rules import Rules


def make_deck(non_dealer: str, dealer: str, upcard: str, stock_top: str = "") -> list[int]:
    """A deck in deal order (R-2.2, R-2.3): the non-dealer's 10 cards and the dealer's 10 are
    dealt alternately, then the upcard, then ``stock_top`` (top of the stock first), then every
    other card in ascending order."""
    nd = parse_cards(non_dealer)
    de = parse_cards(dealer)
    up = parse_card(upcard)
    top = parse_cards(stock_top)
    assert len(nd) == 10 and len(de) == 10
    used = [*nd, *de, up, *top]
    assert len(set(used)) == len(used), "a card is given twice"
    deck: list[int] = []
    for a, b in zip(nd, de, strict=True):
        deck += [a, b]
    deck.append(up)
    deck += top
    deck += [c for c in range(52) if c not in set(used)]
    return deck


def deal(non_dealer: str, dealer: str, upcard: str, stock_top: str = "",
         rules: Rules | None = None, dealer_seat: int = 0) -> HandState:
    return HandState(rules or Rules.preset("standard"), dealer_seat,
                     make_deck(non_dealer, dealer, upcard, stock_top))


def play(h: HandState, actions: Iterable[str]) -> HandState:
    for a in actions:
        h.apply(a)
    return h


def snapshot(h: HandState) -> dict[str, Any]:
    """Every attribute of the state, with mutable containers copied (to compare before/after)."""
    names = getattr(type(h), "__slots__", None) or list(vars(h))
    out: dict[str, Any] = {}
    for name in names:
        v = getattr(h, name)
        if isinstance(v, list):
            v = tuple(v)
        elif isinstance(v, dict):
            v = tuple(sorted(v.items()))
        elif isinstance(v, set):
            v = frozenset(v)
        out[name] = v
    return out


def texts(actions: Iterable[Any]) -> list[str]:
    return [a.text for a in actions]
