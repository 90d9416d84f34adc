"""Persistence of web games as event logs (DESIGN.md principle 5): SQLite by default, any
SQLAlchemy URL accepted (PostgreSQL for several processes: docs/deploy.md).

This is the store's public face: everything the web layer uses is imported from here. Inside,
one module a job:

* :mod:`~ginrummy.store.schema`: every table, the schema version and every migration;
* :mod:`~ginrummy.store.rows`: the row types (:class:`GameRow`, :class:`DealRow`,
  :class:`TableRow`, :class:`SeatRow`, :class:`MessageRow`, :class:`SheetRow`);
* :mod:`~ginrummy.store.connect`: opening a SQLite file or PostgreSQL;
* :mod:`~ginrummy.store.raw`: the hot statements on the driver's cursor;
* :mod:`~ginrummy.store.writer`: SQLite's group commit;
* :mod:`~ginrummy.store.live`: the live channel (change listeners, LISTEN/NOTIFY);
* :mod:`~ginrummy.store.games`: the game repository (:class:`Store`);
* :mod:`~ginrummy.store.tables`: every game's table, its seats and messages (:class:`TableStore`;
  a game against the computer is a table with one person);
* :mod:`~ginrummy.store.variants` and :mod:`~ginrummy.store.sheets`: the scorings of variant
  games and the score keeper's sheets (:class:`VariantStore`);
* :mod:`~ginrummy.store.stats`: the statistics' reads (:class:`Statistics`);
* :mod:`~ginrummy.store.rated`: the games a person's rating counts (:func:`rated_games`);
* :mod:`~ginrummy.store.reviews`: the reviews of finished games and hands, made once
  (:class:`ReviewStore`);
* :mod:`~ginrummy.store.ratelimits`: rate limits shared through PostgreSQL
  (:class:`RateCounter`);
* :mod:`~ginrummy.store.retention`: what is deleted, and when (:func:`sweep`).
"""

from .connect import default_database_url, is_outage
from .games import Store
from .rated import RatedGame, rated_games
from .ratelimits import RateCounter
from .retention import Retention, Swept, prepare, sweep
from .reviews import ReviewStore
from .rows import (
    DealRow,
    GameRow,
    MessageRow,
    ReviewRow,
    SeatRow,
    SheetRow,
    TableRow,
    seats_of_text,
    seats_text,
    storable_id,
)
from .schema import FINISHED, SCHEMA_VERSION, SchemaError
from .sheets import SheetStore
from .stats import Statistics
from .tables import TableStore
from .variants import VariantStore

__all__ = [
    "Store", "TableStore", "VariantStore", "SheetStore", "Statistics", "RateCounter",
    "ReviewStore", "GameRow", "DealRow", "TableRow", "SeatRow", "MessageRow", "SheetRow",
    "ReviewRow",
    "Retention", "Swept", "sweep", "prepare", "rated_games", "RatedGame",
    "FINISHED", "SCHEMA_VERSION", "SchemaError",
    "default_database_url", "is_outage", "seats_text", "seats_of_text", "storable_id",
]
