"""Bad input to the engine gets the library's own errors (never AttributeError or TypeError),
and a deck published as card texts (a fairness record) deals like its card ints."""

from __future__ import annotations

import random

import pytest

from ginrummy import HandState, Rules
from ginrummy.cards import card_text, parse_card
from ginrummy.errors import IllegalActionError, InvalidNotationError

STANDARD = Rules.preset("standard")


def _deck(seed: int) -> list[int]:
    d = list(range(52))
    random.Random(seed).shuffle(d)
    return d


def test_a_deck_of_card_texts_deals_like_its_ints() -> None:
    d = _deck(3)
    a = HandState(STANDARD, 1, d)
    b = HandState(STANDARD, 1, [card_text(c) for c in d])
    assert a.deck == b.deck and a.hands == b.hands and a.upcard == b.upcard


@pytest.mark.parametrize("deck", [[None] * 52, [True] * 52, [1.5] * 52, _deck(1)[:51],
                                  _deck(1)[:51] + [_deck(1)[0]], ["ZZ"] + _deck(1)[1:]])
def test_bad_decks_are_refused_clearly(deck: list[object]) -> None:
    with pytest.raises(InvalidNotationError):
        HandState(STANDARD, 0, deck)  # type: ignore[arg-type]


def test_not_an_action_is_an_illegal_action_and_changes_nothing() -> None:
    h = HandState(STANDARD, 0, _deck(2))
    before = (list(h.history), h.phase, h.current)
    for bad in (None, 7, object()):
        with pytest.raises(IllegalActionError, match="not an action"):
            h.apply(bad)  # type: ignore[arg-type]
    assert (list(h.history), h.phase, h.current) == before


@pytest.mark.parametrize("bad", [None, 7, b"7H", ["7H"]])
def test_parse_card_refuses_what_is_not_text(bad: object) -> None:
    with pytest.raises(InvalidNotationError, match="not a card"):
        parse_card(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "words"), [
    ("discard 2S 8S", "discard names one card"),
    ("discard ZZ", "not a card: 'ZZ' in 'discard ZZ'"),  # as written, not lower-cased
    ("Knock zz: 4S5S6S", "not a card: 'zz'"),
    ("draw", "unknown action"),
])
def test_action_texts_that_cannot_be_read_are_named(text: str, words: str) -> None:
    from ginrummy.actions import Action

    with pytest.raises(InvalidNotationError) as e:
        Action.parse(text)
    assert words in str(e.value)
