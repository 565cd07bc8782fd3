"""What the sync and the async clients share: a call described once (method, path, query, body, how to
read the answer), turned into the exact request to send, and its answer into a model or an ApiError."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar
from urllib.parse import quote, urlencode

import httpx
from pydantic import BaseModel, TypeAdapter

from .errors import ApiError
from .models import Body
from .signing import DEFAULT_SIGNATURE_LIFETIME_SECONDS, sign_request

T = TypeVar("T")


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    read: Callable[[Any], T]
    query: Mapping[str, Any] = field(default_factory=dict)
    body: Body | Mapping[str, Any] | None = None
    authorized: bool = True
    """Carries the client's credentials (the signature, or the operator's token)."""
    idempotency_key: str | None = None


def answer(model: type[T] | TypeAdapter[T]) -> Callable[[Any], T]:
    """Reads a JSON answer as ``model`` (a pydantic model or a TypeAdapter)."""
    if isinstance(model, TypeAdapter):
        return model.validate_python
    assert issubclass(model, BaseModel)
    return model.model_validate


def path_segment(value: str) -> str:
    return quote(value, safe="")


def _wire_query(query: Mapping[str, Any]) -> str:
    pairs = [(name, str(value)) for name, value in query.items() if value is not None]
    return urlencode(pairs, quote_via=quote) if pairs else ""


def _body_bytes(body: Body | Mapping[str, Any] | None) -> bytes | None:
    if body is None:
        return None
    wire = body.wire() if isinstance(body, Body) else body
    # Compact and UTF-8 as is: the digest is over exactly these bytes.
    return json.dumps(wire, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


TICKET_HEADER = "OpenContract-Ticket"


@dataclass
class Ticket:
    """The latest verified-agent ticket the service answered: presented on every signed request, so a
    stranger's forgeries from the same network address never refuse this agent (docs/security.md
    "Shared addresses"). Opaque here; the signature still authenticates."""

    latest: str | None = None

    def keep(self, response: httpx.Response) -> None:
        self.latest = response.headers.get(TICKET_HEADER, self.latest)


@dataclass(frozen=True)
class Signer:
    private_key: str | bytes
    expires_in: int = DEFAULT_SIGNATURE_LIFETIME_SECONDS
    on_behalf_of: str | None = None
    ticket: Ticket = field(default_factory=Ticket, compare=False)

    def __call__(self, request: httpx.Request) -> None:
        if self.ticket.latest is not None:
            request.headers[TICKET_HEADER] = self.ticket.latest
        request.headers.update(
            sign_request(
                method=request.method,
                target=request.url.raw_path.decode("ascii"),
                body=request.content,
                private_key=self.private_key,
                expires_in=self.expires_in,
                on_behalf_of=self.on_behalf_of,
            )
        )


def bearer(token: str) -> Callable[[httpx.Request], None]:
    def authorize(request: httpx.Request) -> None:
        request.headers["Authorization"] = f"Bearer {token}"

    return authorize


def build_request(
    base_url: str,
    call: Call[Any],
    authorize: Callable[[httpx.Request], None] | None,
    accept: str = "application/json",
    extra_headers: Mapping[str, str] | None = None,
) -> httpx.Request:
    """The request as it will be sent; signed over its final path, query and body bytes."""
    query = _wire_query(call.query)
    url = base_url.rstrip("/") + call.path + (f"?{query}" if query else "")
    content = _body_bytes(call.body)
    headers = {"Accept": accept, **(extra_headers or {})}
    if content is not None:
        headers["Content-Type"] = "application/json"
    if call.idempotency_key is not None:
        headers["Idempotency-Key"] = call.idempotency_key
    request = httpx.Request(call.method, url, content=content, headers=headers)
    if authorize is not None and call.authorized:
        authorize(request)
    return request


def read_answer(response: httpx.Response, call: Call[T]) -> T:
    if not response.is_success:
        raise ApiError.from_response(response)
    return call.read(response.json() if response.content else None)
