"""``GET /api/stats`` (docs/api.md "Statistics"): the statistics of the asking browser (its
``ginrummy_player`` cookie), from :meth:`ginrummy.web.tables.service.TableService.stats`."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request

from ..http.schemas import documented
from ..tables.service import TableService

__all__ = ["install_stats"]


def install_stats(app: FastAPI, service: TableService) -> None:
    """Add ``GET /api/stats``."""

    @app.get("/api/stats", responses=documented(429))
    def stats(request: Request) -> dict[str, Any]:
        return service.stats(request.state.player_id)
