"""The security headers of every answer of the web game (docs/api.md "Cookies"), and the bound
on a request's headers (docs/deploy.md): one list for the app's middleware
(:class:`ginrummy.web.http.app.PerRequest`) and for the answers the HTTP protocol gives before the
app sees a request (:mod:`ginrummy.web.http.timeouts`)."""

from __future__ import annotations

__all__ = ["CSP", "HSTS", "MAX_HEADER_BYTES", "security_headers"]

_YEAR = 365 * 24 * 3600
#: sent on every answer served over HTTPS (two years, the usual preload minimum is one)
HSTS = f"max-age={2 * _YEAR}"

# no inline style: the pages set positions through the CSSOM (element.style), which a CSP allows
CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; "
       "script-src 'self'; connect-src 'self'; font-src 'self' data:; "
       "media-src 'self' data: blob:; object-src 'none'; base-uri 'self'; "
       "frame-ancestors 'none'; form-action 'self'")

#: the most bytes a request's line and headers may take together (as h11's default and
#: Node's); a larger request is answered 431 and nothing of it is kept
MAX_HEADER_BYTES = 16 * 1024


def security_headers(https: bool) -> list[tuple[str, str]]:
    """The headers every answer carries (names in lower case): over HTTPS also HSTS.

    >>> [name for name, _ in security_headers(False)]
    ['x-content-type-options', 'referrer-policy', 'x-frame-options', 'content-security-policy']
    """
    out = [("x-content-type-options", "nosniff"), ("referrer-policy", "same-origin"),
           ("x-frame-options", "DENY"), ("content-security-policy", CSP)]
    if https:
        out.insert(0, ("strict-transport-security", HSTS))
    return out
