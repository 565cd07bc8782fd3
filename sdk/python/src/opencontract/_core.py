"""What the sync and the async clients hold alike: where the API is and how a call is authorized."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from ._http import Call, Signer, build_request
from .events import stream_headers


class ClientCore:
    def __init__(self, base_url: str, authorize: Callable[[httpx.Request], None]) -> None:
        self.base_url = base_url
        self._authorize = authorize

    def _request(self, call: Call[Any]) -> httpx.Request:
        return build_request(self.base_url, call, self._authorize)

    def _stream_request(self, call: Call[None], last_event_id: int | str | None) -> httpx.Request:
        # Built (and signed) when iteration starts, so a stream opened later still carries a fresh signature.
        headers = stream_headers(last_event_id)
        return build_request(self.base_url, call, self._authorize, accept="text/event-stream", extra_headers=headers)

    def _received(self, response: httpx.Response) -> httpx.Response:
        """Keeps the ticket a signed answer carries (sync and async alike), then hands the answer on."""
        if isinstance(self._authorize, Signer):
            self._authorize.ticket.keep(response)
        return response
