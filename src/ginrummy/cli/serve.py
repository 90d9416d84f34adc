"""Run the web game (FastAPI + uvicorn) on this machine."""

from __future__ import annotations

import os
from typing import Annotated

import typer

app = typer.Typer(add_completion=False)


@app.command(help="Serve the web game at http://HOST:PORT (default http://127.0.0.1:8000). "
                  "Games are kept in SQLite in your user data directory unless --database-url "
                  "(or GINRUMMY_DATABASE_URL) names another SQLAlchemy URL. Several processes "
                  "(--workers) or machines need PostgreSQL: see docs/deploy.md.")
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="TCP port.")] = 8000,
    database_url: Annotated[str | None, typer.Option(
        "--database-url", help="SQLAlchemy URL (default: SQLite in the user data directory).",
        show_default=False)] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
    workers: Annotated[int, typer.Option(
        min=1, max=256, help="Server processes on this port (more than 1 needs PostgreSQL).")
    ] = 1,
    forwarded_allow_ips: Annotated[str | None, typer.Option(
        "--forwarded-allow-ips",
        help="Reverse proxies whose X-Forwarded-For/-Proto headers are trusted: comma-separated "
             "addresses or networks, or '*'. Default: none (each client is the address that "
             "connects).", show_default=False)] = None,
    header_timeout: Annotated[float, typer.Option(
        min=0.1, help="Seconds a client has to send a request's headers.")] = 10.0,
    body_timeout: Annotated[float, typer.Option(
        min=0.1, help="Seconds a client then has to send the request's body.")] = 30.0,
    keep_alive_timeout: Annotated[float, typer.Option(
        min=0.1, help="Seconds an idle connection is kept open between requests.")] = 5.0,
) -> None:
    from ..web import serve as run
    from ..web.http.app import _is_sqlite

    url = database_url or os.environ.get("GINRUMMY_DATABASE_URL")
    if workers > 1 and (url is None or _is_sqlite(url)):
        raise typer.BadParameter(
            "more than one process needs PostgreSQL: SQLite serves one process. Give "
            "--database-url postgresql+psycopg://USER@HOST/DB (docs/deploy.md).",
            param_hint="--workers")
    run(host=host, port=port, database_url=url, log_level=log_level, workers=workers,
        forwarded_allow_ips=forwarded_allow_ips, header_timeout=header_timeout,
        body_timeout=body_timeout, keep_alive_timeout=keep_alive_timeout)
