"""The web game's FastAPI application: JSON API (docs/api.md), the static front end, the
translations and the content pages.

``create_app(database_url)`` builds the app; ``serve(host, port, database_url)`` runs it with
uvicorn (which stops cleanly on SIGTERM; every accepted action is committed before its answer).
"""

from __future__ import annotations

import logging
import math
import os
import re
import secrets
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import anyio.to_thread
from fastapi import FastAPI, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.datastructures import MutableHeaders
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ... import __version__
from ...store import Retention, Store, default_database_url, is_outage
from ..api.games import install_games
from ..api.meta import install_meta
from ..api.replay import install_replay
from ..api.review import install_review
from ..api.sheets import install_keeper
from ..api.stats import install_stats
from ..api.tables import install_tables
from ..api.tutorial import install_tutorial
from ..live.hub import LiveHub
from ..live.streams import StreamGate, StreamLimits, raise_descriptor_limit
from ..review.reviews import Reviews, ReviewSettings
from ..tables.seats import MESSAGE_LIMIT, MESSAGE_WINDOW, Seats
from ..tables.service import TableService
from .delivery import RevalidatedStatic, add_head_extras, revalidated_file
from .encoding import JSONAnswer
from .errors import BadRequest, NotFound, RateLimited, Stale, Unavailable
from .gil import settle_switch_interval
from .headers import CSP, HSTS, MAX_HEADER_BYTES, security_headers
from .heap import settle_heap
from .housekeeping import retention_task
from .i18n import negotiate, valid_language
from .messages import LANGUAGE, language, reason_text
from .pages import PAGE_NAMES, render_not_found, render_page
from .ratelimit import Limiter, RateLimits, make_limiter
from .schemas import (
    error_response,
)
from .text import TextError, printable
from .workers import Workers

__all__ = ["create_app", "serve", "PLAYER_COOKIE", "LANG_COOKIE", "MAX_BODY_BYTES", "CSP", "HSTS"]

WEB_DIR = Path(__file__).resolve().parent.parent  # ginrummy/web: static/, locales/, pages/
STATIC_DIR = WEB_DIR / "static"
LOCALES_DIR = WEB_DIR / "locales"
PAGES_DIR = WEB_DIR / "pages"

log = logging.getLogger("ginrummy.web")

PLAYER_COOKIE = "ginrummy_player"
LANG_COOKIE = "lang"
MAX_BODY_BYTES = 16 * 1024
#: request handlers running at once: the hot paths' threads and anyio's pool together, one
#: database connection each
REQUEST_THREADS = 16
#: of those, the threads of the hot paths (:class:`~ginrummy.web.http.workers.Workers`): actions, a
#: game's state, the live streams' reads and presence; the rest are anyio's (other requests)
HOT_THREADS = 8
_PLAYER_RE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
#: what a bearer token may look like (ours are 43 url-safe characters: 32 random bytes)
_TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
_YEAR = 365 * 24 * 3600



class HeaderLimit:
    """Pure ASGI middleware, the outermost: a request whose line and headers take more than
    ``limit`` bytes gets 431 ``headers_too_large`` (JSON, with the security headers) before any
    other work: no cookie is read, no limit counts it, nothing of it is kept.

    ``ginrummy serve``'s HTTP protocol refuses such a request already while reading it
    (:class:`~ginrummy.web.http.timeouts.TimedHttpToolsProtocol`, with the same bound, counted on
    the wire): this is the app's own bound under any ASGI server."""

    def __init__(self, app: ASGIApp, limit: int = MAX_HEADER_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            # as on the wire: "GET /path?query HTTP/1.1", then "name: value" lines
            size = len(scope.get("raw_path") or b"") + len(scope.get("query_string", b"")) + 16
            for k, v in scope.get("headers", ()):
                size += len(k) + len(v) + 4
                if size > self.limit:
                    resp = error_response(431, "headers_too_large", "headers_too_large",
                                          {"limit": self.limit})
                    for name, value in security_headers(scope.get("scheme") == "https"):
                        resp.headers[name] = value
                    resp.headers["Cache-Control"] = "no-store"
                    resp.headers["Connection"] = "close"
                    await resp(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class BodyLimit:
    """Pure ASGI middleware: a request body over ``limit`` bytes gets 413 before any parsing; an
    API request body that is not UTF-8 text gets 422 ``malformed``."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        # the 413 answer is made only when it is sent (made for every request, it was about
        # 1% of the servers' CPU in benchmarks/tables_load.py)
        def too_big() -> JSONResponse:
            return error_response(413, "too_large", "too_large", {"limit": self.limit})

        for k, v in scope.get("headers", []):
            if k == b"content-length":
                try:
                    n = int(v)
                except ValueError:
                    n = self.limit + 1
                if n > self.limit:
                    await too_big()(scope, receive, send)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            msg = await receive()
            if msg["type"] != "http.request":
                return  # the client went away
            body = msg.get("body", b"")
            size += len(body)
            if size > self.limit:
                await too_big()(scope, receive, send)
                return
            chunks.append(body)
            if not msg.get("more_body", False):
                break
        data = b"".join(chunks)
        if data and scope.get("path", "").startswith("/api/"):
            try:  # the API's bodies are JSON, hence UTF-8 (docs/api.md: 422 malformed)
                data.decode("utf-8")
            except UnicodeDecodeError as e:
                await error_response(422, "malformed", "not_utf8",
                                     {"byte": e.start})(scope, receive, send)
                return
        done = False

        async def replay() -> Message:
            nonlocal done
            if not done:
                done = True
                return {"type": "http.request", "body": data, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _finite(obj: Any) -> Any:
    """``obj`` with every infinite or NaN float replaced by its text (JSON has neither)."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return str(obj)
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_finite(v) for v in obj]
    return obj


#: what marks a part of a validation error's ``loc`` as pydantic's name of a type or validator
_INTERNAL_LOC = re.compile(r"[\[\]()<>]")


def _plain_error(error: dict[str, Any]) -> dict[str, Any]:
    """One of FastAPI's validation errors without Python's internals (issue 21 item 5): a
    ``loc`` part that names a type or its validators rather than a field, an index or a named
    choice (pydantic names an unnamed union member so, e.g. ``function-after[functools.partial(
    <function max_length_validator at 0x7f...>)]``) is said as ``value``; ``ctx`` keeps only
    numbers, words and refused-text errors (:class:`~ginrummy.web.http.text.TextError`, worded by
    their reason)."""
    out = dict(error)
    out["loc"] = ["value" if isinstance(p, str) and _INTERNAL_LOC.search(p) else p
                  for p in error.get("loc", ())]
    ctx = error.get("ctx")
    if isinstance(ctx, dict):
        out["ctx"] = {k: v for k, v in ctx.items()
                      if isinstance(v, str | int | float | bool | TextError) or v is None}
    out.pop("url", None)
    return out


def _player_cookie(pid: str, secure: bool = False) -> str:
    r = Response()
    r.set_cookie(PLAYER_COOKIE, pid, max_age=10 * _YEAR, httponly=True, samesite="lax", path="/",
                 secure=secure)
    return r.headers["set-cookie"]


def _secure_cookies(headers: Any) -> list[tuple[bytes, bytes]]:
    """The raw headers of an answer with ``; Secure`` added to each ``Set-Cookie`` without it."""
    out = []
    for k, v in headers:
        if k.lower() == b"set-cookie" and b"secure" not in [
                a.strip().lower() for a in v.split(b";")]:
            v = v + b"; Secure"
        out.append((k, v))
    return out


class PerRequest:
    """Pure ASGI middleware: the browser's player id (cookie ``ginrummy_player``, made on the
    first ``/`` or ``/api/`` answer; ``request.state.player_id``), the per-client limit on API
    requests (429), and the security headers of every answer. (As a ``BaseHTTPMiddleware`` it
    cost about 0.5 ms of the event loop per request.)

    Served over HTTPS (``scope["scheme"]``: the connection's, or the scheme a trusted proxy
    forwarded, which uvicorn's proxy headers middleware puts there), every cookie set gets
    ``Secure`` and every answer ``Strict-Transport-Security`` (:data:`HSTS`); over plain HTTP
    neither, as a browser would drop a Secure cookie there and ignores HSTS."""

    def __init__(self, app: ASGIApp, limiter: Limiter | None = None) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookies = "; ".join(v.decode("latin-1") for k, v in scope.get("headers", ())
                            if k == b"cookie")
        pid = cookie_parser(cookies).get(PLAYER_COOKIE) if cookies else None
        new_player = not (pid and _PLAYER_RE.match(pid))
        if new_player:
            pid = secrets.token_urlsafe(18)
        scope.setdefault("state", {})["player_id"] = pid
        # the language of this request's messages (docs/api.md "Reasons")
        LANGUAGE.set(_scope_language(scope, cookies))
        path = scope.get("path", "")
        is_api = path.startswith("/api/")
        set_cookie = new_player and (is_api or path == "/")
        https = scope.get("scheme") == "https"

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if https:
                    message["headers"] = _secure_cookies(message.get("headers", []))
                h = MutableHeaders(scope=message)
                if set_cookie:
                    h.append("set-cookie", _player_cookie(pid or "", secure=https))
                for name, value in security_headers(https):
                    h.setdefault(name, value)
                if is_api:
                    h.setdefault("Cache-Control", "no-store")
            await send(message)

        try:
            if is_api and self.limiter is not None:
                client = scope.get("client")
                key = client[0] if client else "unknown"
                if self.limiter.blocking:  # counted in the database: not on the event loop
                    wait = await anyio.to_thread.run_sync(self.limiter.hit, key)
                else:
                    wait = self.limiter.hit(key)
                if wait:
                    await _rate_limited(wait)(scope, receive, send_with_headers)
                    return
            await self.app(scope, receive, send_with_headers)
        except Exception as e:
            if started:  # an answer under way (a live stream): it ends here
                raise
            # a failure is answered here, as JSON with the security headers (Starlette's own
            # answer, outside this middleware, is a bare text/plain 500): 503 while the
            # database is away, whose next request may well succeed, else 500
            await _failed(e, path)(scope, receive, send_with_headers)


def _bearer(authorization: str | None) -> str | None:
    """The bearer token of an ``Authorization`` header, or ``None`` (no token: the routes answer
    404) when there is none or it cannot be one of ours (:data:`_TOKEN_RE`): an over-long or
    odd token is refused before any work, and nothing keeps it."""
    if not authorization or len(authorization) > 200:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    if scheme.lower() != "bearer":
        return None
    token = token.strip()
    return token if _TOKEN_RE.match(token) else None


def _client_ip(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _set_html_lang(doc: str, lang: str) -> str:
    m = re.search(r"<html\b[^>]*>", doc, re.I)
    if not m:
        return doc
    tag = m.group(0)
    for attr in ("lang", "data-lang"):
        pat = re.compile(rf"(\s{attr}\s*=\s*)(\"[^\"]*\"|'[^']*'|[^\s>]+)", re.I)
        if pat.search(tag):
            tag = pat.sub(lambda mm: f'{mm.group(1)}"{lang}"', tag, count=1)
        else:
            tag = tag[:-1].rstrip("/").rstrip() + f' {attr}="{lang}">'
    return doc[:m.start()] + tag + doc[m.end():]


def _language(request: Request, query: str | None = None) -> str:
    return negotiate(request.headers.get("accept-language"), request.cookies.get(LANG_COOKIE),
                     query)


def _remember_language(response: Response, query: str | None) -> None:
    lang = valid_language(query)
    if lang:
        response.set_cookie(LANG_COOKIE, lang, max_age=_YEAR, samesite="lax", path="/")


def _html_page(doc: str, language: str, query: str | None, *, status: int = 200,
               no_cache: bool = False) -> Response:
    """An HTML page in ``language``, remembering the language asked for in ``?lang=``."""
    resp = HTMLResponse(doc, status_code=status)
    resp.headers["Content-Language"] = language
    resp.headers["Vary"] = "Accept-Language, Cookie"
    if no_cache:
        resp.headers["Cache-Control"] = "no-cache"
    _remember_language(resp, query)
    return resp


def _static_page(request: Request, query: str | None, file: str, missing: str) -> Response:
    """A page of the front end (``file`` in the static folder: the game, the score keeper) in
    the person's language; 503 saying ``missing`` when it is not installed."""
    language = _language(request, query)
    try:
        doc = (STATIC_DIR / file).read_text(encoding="utf-8")
    except OSError:
        return HTMLResponse(f"<!doctype html><title>Gin Rummy</title><p>{missing}</p>",
                            status_code=503)
    doc = add_head_extras(doc, language, file)  # description, manifest, icons
    return _html_page(_set_html_lang(doc, language), language, query, no_cache=True)


def create_app(database_url: str | None = None, *, rate_limits: RateLimits | None = None,
               max_body: int = MAX_BODY_BYTES, retention: Retention | None = None,
               live_limits: StreamLimits | None = None,
               reviews: ReviewSettings | None = None) -> FastAPI:
    """The web game.

    :param database_url: any SQLAlchemy URL; default ``$GINRUMMY_DATABASE_URL``, else a SQLite
        file in the user's data directory.
    :param rate_limits: per-client limits (default: ``$GINRUMMY_RATE_LIMITS``, see
        :meth:`RateLimits.from_env`, else 30 new games and 600 API requests a minute).
    :param max_body: largest accepted request body in bytes.
    :param retention: what the server deletes and when (default: :meth:`Retention.from_env`;
        docs/retention.md), swept in the background while the app runs.
    :param live_limits: the bounds on live streams (default: ``$GINRUMMY_LIVE_LIMITS``, see
        :meth:`StreamLimits.from_env`; docs/deploy.md).
    :param reviews: the review pool and search (default: ``$GINRUMMY_REVIEWS``, see
        :meth:`ReviewSettings.from_env`; docs/api.md "Review").
    """
    limits = rate_limits or RateLimits.from_env(os.environ.get("GINRUMMY_RATE_LIMITS"))
    keep = retention or Retention.from_env()
    url = database_url or os.environ.get("GINRUMMY_DATABASE_URL") or default_database_url()
    # a database connection for each request thread (PostgreSQL; docs/deploy.md)
    store = Store(url, pool_size=REQUEST_THREADS)
    workers = Workers(HOT_THREADS)
    service = TableService(store)
    reviewer = Reviews(service, store, reviews or ReviewSettings.from_env())
    hub = LiveHub()
    # counted in PostgreSQL and shared by every process; in memory with SQLite (one process)
    counter = None
    if store.postgres:
        from ...store import RateCounter

        counter = RateCounter(store.engine)
    create_by_ip = make_limiter("create_ip", limits.creates, limits.window, counter)
    create_by_player = make_limiter("create_player", limits.creates, limits.window, counter)
    requests_by_ip = make_limiter("requests_ip", limits.requests, limits.window, counter)
    # the quick messages' own limit per seat, whatever the others (docs/tables.md)
    by_seat = make_limiter("messages", MESSAGE_LIMIT, MESSAGE_WINDOW, counter)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # The handlers run in anyio's thread pool and are CPU-bound under the GIL: with its
        # default 40 threads, requests share the interpreter and all finish late; fewer answer
        # first come, first served, yet enough of them to ride out a slow disk flush of the
        # store (benchmarks/load.py: 200 games on 2 cores, 8 to 40 threads compared).
        anyio.to_thread.current_default_thread_limiter().total_tokens = \
            REQUEST_THREADS - HOT_THREADS
        async with retention_task(store, keep):  # docs/retention.md
            yield
        workers.close()
        reviewer.close()
        store.close()

    # redirect_slashes off: Starlette answers "/api/games/" with a 307 to an address built from
    # the request's Host header; an address with a slash too many names nothing (404), as any
    # other (issue 21 item 6)
    app = FastAPI(title="Gin Rummy", version=__version__, lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url="/api/openapi.json",
                  default_response_class=JSONAnswer, redirect_slashes=False)
    app.state.store = store
    app.state.service = service
    app.state.live = hub
    app.state.workers = workers
    app.state.reviews = reviewer
    app.add_middleware(BodyLimit, limit=max_body)

    # text answers over 500 bytes gzipped for clients that accept it (level 6: most of the
    # gain of 9 for less CPU); event streams and images are left alone by Starlette
    app.add_middleware(GZipMiddleware, minimum_size=500, compresslevel=6)
    app.add_middleware(PerRequest, limiter=requests_by_ip)  # sees every answer but the next's
    app.add_middleware(HeaderLimit)  # outermost: oversized headers cost nothing more

    # (the handlers run on the event loop, in the request's context: its language)
    @app.exception_handler(Stale)
    async def _stale(_request: Request, exc: Stale) -> JSONResponse:
        return error_response(409, "stale", "stale", state=exc.state)

    @app.exception_handler(NotFound)
    async def _not_found(_request: Request, exc: NotFound) -> JSONResponse:
        # a game, table or invite that does not exist, or not for this token
        return error_response(404, "not_found", exc.reason, exc.params)

    @app.exception_handler(Unavailable)
    async def _unavailable(_request: Request, exc: Unavailable) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.reason, exc.params)

    @app.exception_handler(RateLimited)
    async def _over(_request: Request, exc: RateLimited) -> JSONResponse:
        return _rate_limited(exc.seconds, exc.reason)

    @app.exception_handler(BadRequest)
    async def _bad(_request: Request, exc: BadRequest) -> JSONResponse:
        return error_response(422, exc.code, exc.reason, exc.params)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> Response:
        if not request.url.path.startswith("/api/"):
            if exc.status_code == 404:  # an address that names nothing: a page, not JSON
                language = _language(request, request.query_params.get("lang"))
                doc = render_not_found(PAGES_DIR, language, request.url.path)
                return _html_page(doc, language, None, status=404, no_cache=True)
            return await http_exception_handler(request, exc)
        if exc.status_code == 400:  # FastAPI could not read the body (e.g. not UTF-8)
            return error_response(422, "malformed", "body_unreadable")
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code,
                                                                 f"http_{exc.status_code}")
        reason, params = {404: ("no_page", {}), 405: ("method_not_allowed", {})}.get(
            exc.status_code, ("other", {"text": str(exc.detail)}))
        resp = error_response(exc.status_code, code, reason, params)
        resp.headers.update(exc.headers or {})
        return resp

    @app.exception_handler(RequestValidationError)
    async def _malformed(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # FastAPI's own 422 detail, made JSON-safe: it echoes the input, and a body such as
        # {"seq": 1e400} or NaN would otherwise break the answer (500)
        # and a lone surrogate in the input (refused by schemas.Body) cannot be encoded at all,
        # nor input nested thousands deep: text.printable mends the one and bounds the other
        # its reason: a refused name's own (text.TextError), else the parts at fault
        errors = [_plain_error(e) for e in exc.errors()]
        own = [e["ctx"]["error"] for e in errors
               if isinstance((e.get("ctx") or {}).get("error"), TextError)]
        if own:
            reason = {"code": own[0].reason, "params": dict(own[0].params)}
        else:
            where = sorted({".".join(str(p) for p in e.get("loc", ())[1:] if p != "body")
                            or str(e.get("loc", ("body",))[0]) for e in errors})[:8]
            reason = {"code": "body_invalid", "params": {"fields": where}}
        return JSONAnswer({"detail": _finite(jsonable_encoder(printable(errors))),
                             "message": printable(reason_text(reason["code"],
                                                              reason["params"])),
                             "reason": printable(reason)},
                            status_code=422, headers={"Content-Language": language(),
                                                      "Vary": "Accept-Language, Cookie"})

    # ------------------------------------------------------------------------------ the API
    def _limited(request: Request, reason: str) -> Response | None:
        """429 when the client made too many games, tables, joins or sheets (per address and
        per browser), else None."""
        pid = request.state.player_id
        for limiter, key in ((create_by_ip, _client_ip(request)), (create_by_player, pid)):
            if limiter is not None:
                wait = limiter.hit(key)
                if wait:
                    return _rate_limited(wait, reason)
        return None

    install_meta(app, language=_language)  # /api/meta
    install_games(app, service, workers, bearer=_bearer,
                  limited=_limited)  # /api/games: create, read, act, resign, order, hint, record
    install_stats(app, service)  # /api/stats

    # ------------------------------------------------------------------------- the front end
    @app.get("/", response_class=HTMLResponse)
    def index(request: Request, lang: str | None = Query(default=None)) -> Response:
        return _static_page(request, lang, "index.html", "The game page is not installed.")

    @app.get("/locales/{lang}.json")
    def locale(lang: str, request: Request) -> Response:
        code = valid_language(lang)
        path = LOCALES_DIR / f"{code}.json"
        if code is None or code != lang or not path.is_file():
            return error_response(404, "not_found", "no_translations", {"lang": lang[:20]})
        return revalidated_file(path, "application/json; charset=utf-8", request.headers)

    def _page_route(name: str) -> Callable[..., Response]:
        def page(request: Request, lang: str | None = Query(default=None)) -> Response:
            language = _language(request, lang)
            status, doc = render_page(PAGES_DIR, name, language)
            return _html_page(doc, language, lang, status=status)

        page.__name__ = f"page_{name}"
        return page

    for name in PAGE_NAMES:
        app.get(f"/{name}", response_class=HTMLResponse)(_page_route(name))

    install_keeper(app, service.vstore, page=_static_page, bearer=_bearer,  # /keeper
                   creation_limit=lambda request: _limited(request, "too_many_sheets"))
    install_tables(app, Seats(service, by_seat), hub, workers, bearer=_bearer, limited=_limited,
                   page=_static_page, gate=StreamGate(live_limits))  # tables, /join, live
    install_replay(app, service, page=_static_page, bearer=_bearer)  # /replay
    install_review(app, reviewer, bearer=_bearer, page=_static_page)  # /review, try again
    install_tutorial(app, page=_static_page)  # /tutorial
    STATIC_DIR.mkdir(parents=True, exist_ok=True)
    app.mount("/static", RevalidatedStatic(directory=STATIC_DIR), name="static")
    return app


#: seconds a client is asked to wait (``Retry-After``) while the database is away
UNAVAILABLE_RETRY = 2


def _failed(e: Exception, path: str) -> JSONResponse:
    """The answer to a request that failed: 503 ``unavailable`` (``Retry-After``) when the
    database cannot be reached (:func:`ginrummy.store.is_outage`), else 500 ``internal``;
    logged (an outage in one line, anything else with its traceback)."""
    if is_outage(e):
        log.warning("%s: database unavailable (%s)", path, type(e).__name__)
        resp = error_response(503, "unavailable", "unavailable",
                              {"seconds": UNAVAILABLE_RETRY})
        resp.headers["Retry-After"] = str(UNAVAILABLE_RETRY)
        return resp
    log.error("%s: failed", path, exc_info=e)
    return error_response(500, "internal", "internal")


def _rate_limited(wait: float, reason: str = "too_many_requests") -> JSONResponse:
    seconds = max(1, int(wait + 0.999))
    resp = error_response(429, "rate_limited", reason, {"seconds": seconds})
    resp.headers["Retry-After"] = str(seconds)
    return resp


def _scope_language(scope: Scope, cookies: str) -> str:
    """The language of a request's messages: ``?lang=``, the ``lang`` cookie, then
    ``Accept-Language`` (:func:`ginrummy.web.http.i18n.negotiate`; English by default)."""
    query = None
    qs = scope.get("query_string", b"")
    if b"lang=" in qs:
        for k, v in parse_qsl(qs.decode("latin-1")):
            if k == "lang":
                query = v
    accept = next((v.decode("latin-1") for k, v in scope.get("headers", ())
                   if k == b"accept-language"), None)
    cookie = cookie_parser(cookies).get(LANG_COOKIE) if cookies else None
    return negotiate(accept, cookie, query)


#: seconds ``serve`` (and each worker) waits for the computer players before it listens anyway:
#: bounds the start on a machine too loaded to compile in time (the warm-up then goes on in the
#: background and the first expert decisions wait for it, as before issue 11).
WARMUP_WAIT_S = 20.0


def _warm_bots() -> bool:
    """Compile the expert's kernel (or load it from numba's disk cache) and build its tables
    *before* the server listens, so that no expert decision waits for them: the first start on a
    machine compiles (about 10 s on an idle core, announced on stderr), later starts load the
    cache (about 1 s); benchmarks/results/bots-2026-12-02.md measures both. Waits at most
    :data:`WARMUP_WAIT_S`; returns whether the players were ready by then."""
    import threading
    import time

    from ...bots import warmup

    t0 = time.perf_counter()
    done = threading.Event()

    def run() -> None:
        try:
            warmup()
        except Exception as e:  # numba missing or broken: the expert falls back to plain Python
            log.warning("computer players not warmed up: %s", type(e).__name__)
            return
        done.set()
        print(f"Computer players ready ({time.perf_counter() - t0:.1f} s)", file=sys.stderr,
              flush=True)

    print("Preparing the computer players (the first start on a machine compiles them)",
          file=sys.stderr, flush=True)
    worker = threading.Thread(target=run, name="warm-bots", daemon=True)
    worker.start()
    worker.join(WARMUP_WAIT_S)
    if worker.is_alive():
        print(f"Computer players still preparing after {WARMUP_WAIT_S:.0f} s: serving anyway "
              "(the first expert moves wait for them)", file=sys.stderr, flush=True)
    return done.is_set()


def app_from_env() -> FastAPI:
    """The app of one uvicorn worker process (``ginrummy serve --workers N``): the database of
    ``$GINRUMMY_DATABASE_URL``; the computer players are warmed up before it is returned (the
    parent process compiled the kernel into the disk cache: each worker only loads it)."""
    app = create_app(os.environ.get("GINRUMMY_DATABASE_URL"))
    _warm_bots()
    _settle_process()
    return app


def _settle_process() -> None:
    """What a serving process sets once its app is ready, after the warm-up (whose tables live
    as long as the process): start-up's objects out of the collector's full collections, and a
    1 ms turn at the interpreter's lock (the 250-table tail)."""
    settle_heap()
    settle_switch_interval()


def _is_sqlite(url: str) -> bool:
    from sqlalchemy.engine import make_url

    return make_url(url).get_backend_name() == "sqlite"


def serve(host: str = "127.0.0.1", port: int = 8000, database_url: str | None = None,
          *, log_level: str = "info", workers: int = 1, forwarded_allow_ips: str | None = None,
          header_timeout: float | None = None, body_timeout: float | None = None,
          keep_alive_timeout: float = 5.0) -> None:
    """Run the web game with uvicorn until interrupted (Ctrl-C or SIGTERM stop it cleanly).

    :param database_url: as for :func:`create_app` (default ``$GINRUMMY_DATABASE_URL``, else a
        SQLite file in the user's data directory).
    :param workers: server processes (uvicorn workers on one socket); more than one needs
        PostgreSQL (docs/deploy.md).
    :param forwarded_allow_ips: the proxies whose ``X-Forwarded-For``/``-Proto`` are believed
        (comma-separated addresses or networks, or ``*``); ``None`` or empty: none, every
        client is the connection's own address (so a client cannot choose its rate-limit key).
    :param header_timeout: seconds a client has to send a request's headers (default
        :data:`~ginrummy.web.http.timeouts.HEADER_TIMEOUT`); ``body_timeout``: then its body.
    :param keep_alive_timeout: seconds an idle connection is kept between requests.
    :raises ValueError: ``workers`` > 1 on SQLite; a timeout that is not positive.
    """
    import signal
    import threading

    import uvicorn

    from .timeouts import BODY_TIMEOUT, HEADER_TIMEOUT, TimedHttpToolsProtocol

    url = database_url or os.environ.get("GINRUMMY_DATABASE_URL") or default_database_url()
    # every live stream holds a descriptor: the soft limit (often 1,024) up to the hard one,
    # before the workers start (they inherit it)
    raise_descriptor_limit()
    if workers < 1:
        raise ValueError("workers must be at least 1")
    if workers > 1 and _is_sqlite(url):
        raise ValueError("--workers above 1 needs PostgreSQL: a SQLite database serves one "
                         "process (give --database-url postgresql+psycopg://...; "
                         "see docs/deploy.md)")
    for name, value, default in (("GINRUMMY_HEADER_TIMEOUT", header_timeout, HEADER_TIMEOUT),
                                 ("GINRUMMY_BODY_TIMEOUT", body_timeout, BODY_TIMEOUT)):
        v = default if value is None else value
        if not v > 0:
            raise ValueError(f"timeouts must be positive: {v}")
        os.environ[name] = repr(float(v))  # read by every worker's protocol
    trusted = (forwarded_allow_ips or "").strip()
    options: dict[str, Any] = {
        "host": host, "port": port, "log_level": log_level, "timeout_graceful_shutdown": 10,
        "timeout_keep_alive": keep_alive_timeout, "http": TimedHttpToolsProtocol,
        # uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: behind no
        # proxy that lets any local client pick its own address (and rate-limit key)
        "proxy_headers": bool(trusted), "forwarded_allow_ips": trusted or "",
    }

    if workers > 1:
        os.environ["GINRUMMY_DATABASE_URL"] = url
        Store(url).close()  # the schema, once, before the workers (and a bad URL fails here)
        _warm_bots()  # compiles into the disk cache once, before the workers load it
        uvicorn.run("ginrummy.web.http.app:app_from_env", factory=True, workers=workers, **options)
        return

    app = create_app(url)
    _warm_bots()  # the server listens only once the expert is ready (issue 11)
    _settle_process()

    def _stopped(_sig: int, _frame: object) -> None:
        raise SystemExit(0)

    # uvicorn stops gracefully on SIGTERM (open requests answered, the store closed), then
    # raises the signal again: with the default action the process would end "killed by
    # SIGTERM" (status 143) after a clean stop. This handler makes it the normal end: status 0.
    # (Before uvicorn takes over the signal, a SIGTERM simply ends the process, also with 0.)
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _stopped) if main else None
    try:
        uvicorn.run(app, **options)
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
