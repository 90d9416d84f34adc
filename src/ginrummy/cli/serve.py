"""Run the web game (FastAPI + uvicorn) on this machine."""

from __future__ import annotations

import os
from typing import Annotated

import typer

app = typer.Typer(add_completion=False)


@app.command(help="Serve the web game at http://HOST:PORT (default http://127.0.0.1:8000). "
                  "Games are kept in SQLite in your user data directory unless --database-url "
                  "(or GINRUMMY_DATABASE_URL) names another SQLAlchemy URL.")
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help="SQLAlchemy URL (default: SQLite in the user data directory).",
        show_default=False)] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    from ..web import serve as run

    run(host=host, port=port, database_url=database_url or os.environ.get("GINRUMMY_DATABASE_URL"),
        log_level=log_level)
