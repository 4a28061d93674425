"""Seat tokens (DESIGN.md, Storage): 256 random bits, stored as SHA-256, compared in
constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32  # 256 bits; the contract asks for at least 128


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    return hmac.compare_digest(token_hash(token), stored_hash)


def new_game_id() -> str:
    return secrets.token_hex(8)
