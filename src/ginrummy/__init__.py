"""ginrummy: an exact, fast Gin Rummy engine, computer players and a web game.

The engine modules (cards, melds, rules, actions, hand, scoring, game, views, records) have no
runtime dependencies and do no I/O.

>>> import ginrummy
>>> ginrummy.best_arrangement(ginrummy.CardSet.parse("7C 7D 7H 8S 9S TS 2D")).deadwood_points
2
"""

from .actions import Action, ActionKind
from .cards import CardSet, card_text, parse_card, parse_cards
from .errors import GinRummyError, IllegalActionError, InvalidNotationError, RulesError
from .hand import HandOutcome, HandState, Phase
from .melds import (
    Arrangement,
    DiscardOption,
    DiscardOptions,
    LayoffResult,
    best_arrangement,
    best_layoff,
    default_spread,
    evaluate_discards,
    is_big_gin,
    is_meld,
    min_deadwood,
)
from .rules import PRESETS, Rules
from .scoring import Showdown, score_showdown

__version__ = "0.1.0"

__all__ = [
    "Action", "ActionKind", "Arrangement", "CardSet", "DiscardOption", "DiscardOptions",
    "GinRummyError", "HandOutcome", "HandState", "IllegalActionError", "InvalidNotationError",
    "LayoffResult",
    "PRESETS", "Phase", "Rules", "RulesError", "Showdown", "best_arrangement", "best_layoff",
    "card_text", "default_spread", "evaluate_discards", "is_big_gin", "is_meld", "min_deadwood",
    "parse_card", "parse_cards", "score_showdown",
]
