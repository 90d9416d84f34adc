"""Persistence of web games as event logs (DESIGN.md principle 5): SQLite by default, any
SQLAlchemy URL accepted. See :mod:`ginrummy.store.db`."""

from . import tables as _tables  # noqa: F401 - its tables join the schema
from .db import DealRow, GameRow, Store, default_database_url, is_outage

__all__ = ["DealRow", "GameRow", "Store", "default_database_url", "is_outage"]
