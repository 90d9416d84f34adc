"""Headers for the open internet (issue 14 item 10): over HTTPS (directly, or behind a proxy
whose forwarded scheme uvicorn trusts) every cookie is ``Secure`` and every answer carries HSTS;
over plain HTTP neither (a browser would drop a Secure cookie there). The CSP allows no inline
style or script."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from ginrummy.web.http.app import CSP


def _client(make_client: Callable[..., TestClient], scheme: str) -> TestClient:
    c = make_client()
    c.base_url = c.base_url.copy_with(scheme=scheme)
    return c


@pytest.mark.parametrize("path", ["/", "/?lang=id", "/rules?lang=ms", "/keeper?lang=jv"])
def test_over_https_cookies_are_secure_and_hsts_is_sent(
        make_client: Callable[..., TestClient], path: str) -> None:
    c = _client(make_client, "https")
    r = c.get(path)
    assert r.status_code == 200
    assert r.headers["strict-transport-security"].startswith("max-age=")
    assert int(r.headers["strict-transport-security"].split("=")[1].split(";")[0]) >= 15552000
    cookies = r.headers.get_list("set-cookie")
    assert cookies, "the page sets a cookie"
    for cookie in cookies:
        assert "secure" in [a.strip().lower() for a in cookie.split(";")], cookie


def test_over_https_api_answers_carry_hsts_and_a_secure_player_cookie(
        make_client: Callable[..., TestClient]) -> None:
    c = _client(make_client, "https")
    r = c.post("/api/games", json={"level": "easy"})
    assert r.status_code == 201 and "strict-transport-security" in r.headers
    (cookie,) = r.headers.get_list("set-cookie")
    assert cookie.startswith("ginrummy_player=") and "; secure" in cookie.lower()
    assert "httponly" in cookie.lower()
    assert "strict-transport-security" in c.get("/api/games/nope").headers  # errors too


def test_over_http_no_secure_cookie_and_no_hsts(make_client: Callable[..., TestClient]) -> None:
    c = _client(make_client, "http")
    r = c.get("/?lang=id")
    assert "strict-transport-security" not in r.headers
    for cookie in r.headers.get_list("set-cookie"):
        assert "secure" not in cookie.lower(), cookie


def test_csp_allows_no_inline_style_or_script(client: TestClient) -> None:
    r = client.get("/")
    csp = r.headers["content-security-policy"]
    assert csp == CSP and "unsafe-inline" not in csp and "unsafe-eval" not in csp
    directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
    assert directives["style-src"] == "'self'" and directives["script-src"] == "'self'"
