"""Request signing: RFC 9421 HTTP Message Signatures signed as an EIP-191 personal message.

One profile (docs/security.md §2): label ``sig1``; covered ``"@method"``, ``"@path"``, then ``"@query"``
when the URL has a query, then ``"content-digest"`` when the body has at least one byte, then
``"on-behalf-of"`` when a delegate key names its owner (``On-Behalf-Of``, docs/agents.md "Mandates"); parameters
``created``, ``expires``, ``nonce``, ``keyid`` (the lowercase address) in that order. The digest is
``Content-Digest: sha-256=:<base64>:`` (RFC 9530).
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
import time
from dataclasses import dataclass

from eth_account import Account
from eth_account.messages import encode_defunct

DEFAULT_SIGNATURE_LIFETIME_SECONDS = 60
MAX_SIGNATURE_LIFETIME_SECONDS = 300
_NONCE = re.compile(r"^[A-Za-z0-9._~+/=-]{16,128}$")


def random_private_key() -> str:
    """A fresh secp256k1 key as ``0x`` + 64 hex digits."""
    return "0x" + secrets.token_bytes(32).hex()


def address_from_private_key(private_key: str | bytes) -> str:
    """The agent's address: ``0x`` + 40 lowercase hex digits."""
    address: str = Account.from_key(private_key).address
    return address.lower()


def content_digest(body: bytes) -> str:
    """``sha-256=:<base64 of SHA-256 of the exact body bytes>:``."""
    return f"sha-256=:{base64.b64encode(hashlib.sha256(body).digest()).decode()}:"


def split_target(target: str) -> tuple[str, str]:
    """``(path, query)`` of a request target as sent; ``query`` is ``""`` or ``"?..."`` (a bare ``?`` is none)."""
    path, sep, query = target.partition("?")
    return path, f"?{query}" if sep and query else ""


@dataclass(frozen=True)
class SignedParts:
    """Every intermediate value of one signature, as the shared test vectors list them."""

    address: str
    content_digest: str | None
    signature_base: str
    eip191_hash: str
    signature_input: str
    signature: str
    on_behalf_of: str | None = None

    def headers(self) -> dict[str, str]:
        headers = {"Signature-Input": self.signature_input, "Signature": self.signature}
        if self.content_digest is not None:
            headers["Content-Digest"] = self.content_digest
        if self.on_behalf_of is not None:
            headers["On-Behalf-Of"] = self.on_behalf_of
        return headers


def sign_parts(
    *,
    method: str,
    path: str,
    query: str,
    body: bytes,
    private_key: str | bytes,
    created: int,
    expires: int,
    nonce: str,
    on_behalf_of: str | None = None,
) -> SignedParts:
    """Signs one request from its exact parts (``query`` as sent, with its ``?``, or ``""``)."""
    if not _NONCE.match(nonce):
        raise ValueError("nonce must be 16-128 characters of [A-Za-z0-9._~+/=-]")
    if not created < expires <= created + MAX_SIGNATURE_LIFETIME_SECONDS:
        raise ValueError(f"expires must be 1 to {MAX_SIGNATURE_LIFETIME_SECONDS} seconds after created")
    address = address_from_private_key(private_key)
    digest = content_digest(body) if body else None
    has_query = query not in ("", "?")
    components = [("@method", method.upper()), ("@path", path)]
    if has_query:
        components.append(("@query", query))
    if digest is not None:
        components.append(("content-digest", digest))
    owner = on_behalf_of.lower() if on_behalf_of is not None else None
    if owner is not None:
        components.append(("on-behalf-of", owner))
    params = (
        "(" + " ".join(f'"{name}"' for name, _ in components) + ")"
        f';created={created};expires={expires};nonce="{nonce}";keyid="{address}"'
    )
    base = "\n".join([*(f'"{name}": {value}' for name, value in components), f'"@signature-params": {params}'])
    signed = Account.sign_message(encode_defunct(text=base), private_key)
    return SignedParts(
        address=address,
        content_digest=digest,
        signature_base=base,
        eip191_hash="0x" + bytes(signed.message_hash).hex(),
        signature_input=f"sig1={params}",
        signature=f"sig1=:{base64.b64encode(bytes(signed.signature)).decode()}:",
        on_behalf_of=owner,
    )


def sign_request(
    *,
    method: str,
    target: str,
    body: bytes = b"",
    private_key: str | bytes,
    now: float | None = None,
    nonce: str | None = None,
    expires_in: int = DEFAULT_SIGNATURE_LIFETIME_SECONDS,
    on_behalf_of: str | None = None,
) -> dict[str, str]:
    """The signature headers (``Signature-Input``, ``Signature``, ``Content-Digest`` with a body,
    ``On-Behalf-Of`` for a delegate naming its owner) of a request whose target (path and query, exactly
    as sent) is ``target``. Send ``body`` byte for byte."""
    if not 1 <= expires_in <= MAX_SIGNATURE_LIFETIME_SECONDS:
        raise ValueError(f"expires_in must be 1 to {MAX_SIGNATURE_LIFETIME_SECONDS} seconds")
    created = int(time.time() if now is None else now)
    path, query = split_target(target)
    return sign_parts(
        method=method,
        path=path,
        query=query,
        body=body,
        private_key=private_key,
        created=created,
        expires=created + expires_in,
        nonce=nonce if nonce is not None else secrets.token_urlsafe(16),
        on_behalf_of=on_behalf_of,
    ).headers()
