"""ginrummy: an exact, fast Gin Rummy engine, computer players and a web game.

The engine modules (cards, melds, rules, actions, hand, scoring, sheets, game, views, records)
have no runtime dependencies and do no I/O. :class:`Game` plays every form of the game (standard,
Hollywood, three players, partnership); :func:`table_view` and :func:`view_of` are what a player
may know.

>>> import ginrummy
>>> ginrummy.best_arrangement(ginrummy.CardSet.parse("7C 7D 7H 8S 9S TS 2D")).deadwood_points
2
"""

from .actions import Action, ActionKind
from .cards import CardSet, card_text, parse_card, parse_cards
from .errors import GinRummyError, IllegalActionError, InvalidNotationError, RulesError
from .game import DealPlan, Game, Seating
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
from .records import GameRecord, HandRecord
from .rules import PRESETS, Rules
from .scoring import Showdown, score_showdown
from .variants import PLAYER_COUNT, SCORINGS
from .views import PlayerView, PublicView, TableView, public_view_of, table_view, view_of

__version__ = "0.1.0"

__all__ = [
    "Action", "ActionKind", "Arrangement", "CardSet", "DealPlan", "DiscardOption",
    "DiscardOptions", "Game", "GameRecord", "GinRummyError", "HandOutcome", "HandRecord",
    "HandState", "IllegalActionError", "InvalidNotationError", "LayoffResult", "PLAYER_COUNT",
    "PRESETS", "Phase", "PlayerView", "PublicView", "Rules", "RulesError", "SCORINGS", "Seating",
    "Showdown", "TableView", "best_arrangement", "best_layoff", "card_text", "default_spread",
    "evaluate_discards", "is_big_gin", "is_meld", "min_deadwood", "parse_card", "parse_cards",
    "public_view_of", "score_showdown", "table_view", "view_of",
]
