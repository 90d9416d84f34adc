"""Bearer secrets as the store keeps them: their SHA-256 only (game and seat tokens, invite codes,
score keeper sheets), and the invite code and the seats' own links a table's secret gives.
Shared by the table modules and :mod:`ginrummy.web.api.sheets`."""

from __future__ import annotations

import base64
import hashlib
import hmac

__all__ = ["token_hash", "invite_code", "seat_code"]


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of a bearer token or invite code: what the store keeps instead."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def invite_code(secret: str) -> str:
    """A table's invite code: 16 bytes keyed by its game's secret (hex; unguessable without
    it, and given again to the creator on every state; the store keeps only its hash)."""
    digest = hmac.new(bytes.fromhex(secret), b"invite", hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def seat_code(secret: str, seat: int, holder_hash: str) -> str:
    """The code of a seat's own link back to it from another device (docs/tables.md, "A seat
    follows its person"): 16 bytes keyed by the game's secret, of the seat and the hash of the
    token that holds it now (so it is made again on every state, never stored, and stops
    working once the seat moved to another token)."""
    msg = f"seat:{seat}:{holder_hash}".encode()
    digest = hmac.new(bytes.fromhex(secret), msg, hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
