"""Bearer secrets as the store keeps them: their SHA-256 only (game and seat tokens, invite codes,
score keeper sheets). Shared by :mod:`ginrummy.web.service` and :mod:`ginrummy.web.keeper_api`."""

from __future__ import annotations

import hashlib

__all__ = ["token_hash"]


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of a bearer token or invite code: what the store keeps instead."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()
