"""Reading a contract's event stream (``GET /contracts/:id/events/stream``, Server-Sent Events): a
parser of the text/event-stream format and iterators of the contract's events, sync and async.

Iterate a stream for its events, the past ones first; once the iteration stops, ``stream.end`` says
why: ``terminal`` (the contract is finished), ``time-limit`` (open it again with
``last_event_id=`` the last position to go on) or ``closed`` (the connection ended).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

import httpx

from .errors import ApiError
from .models import ContractEvent


@dataclass(frozen=True)
class SseMessage:
    event: str
    data: str
    id: str | None = None


@dataclass
class SseParser:
    """Fields, comments and blank-line dispatch of the WHATWG text/event-stream format, a line at a time."""

    _event: str | None = None
    _data: list[str] = field(default_factory=list)
    _id: str | None = None

    def feed(self, line: str) -> SseMessage | None:
        if line == "":
            message = None
            if self._data:
                message = SseMessage(self._event or "message", "\n".join(self._data), self._id)
            self._event, self._data, self._id = None, [], None
            return message
        if line.startswith(":"):
            return None
        name, colon, value = line.partition(":")
        value = value[1:] if colon and value.startswith(" ") else value
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id":
            self._id = value
        return None


@dataclass(frozen=True)
class StreamedEvent:
    position: int
    """1-based position in the contract's log: pass it as ``last_event_id`` to resume after it."""
    event: ContractEvent


@dataclass(frozen=True)
class StreamEnd:
    reason: Literal["terminal", "time-limit", "closed"]


def _interpret(message: SseMessage) -> StreamedEvent | StreamEnd | None:
    if message.event == "message":
        return StreamedEvent(int(message.id or 0), ContractEvent.model_validate_json(message.data))
    if message.event == "end":
        return StreamEnd(json.loads(message.data)["reason"])
    if message.event == "error":
        raise ApiError(503, json.loads(message.data).get("code", "stream_failed"), "the event stream failed")
    return None


def stream_headers(last_event_id: int | None) -> dict[str, str]:
    return {} if last_event_id is None else {"Last-Event-ID": str(last_event_id)}


class _Stream:
    """What both iterators share: the answer's status, then each line read into an event or the end."""

    def __init__(self) -> None:
        self._parser = SseParser()
        self.end: StreamEnd | None = None

    def _opened(self, response: httpx.Response) -> bool:
        """False when there is nothing to read (204: the contract had already ended)."""
        if response.status_code == 204:
            self.end = StreamEnd("terminal")
        elif not response.is_success:
            raise ApiError.from_response(response)
        return self.end is None

    def _line(self, line: str) -> StreamedEvent | None:
        message = self._parser.feed(line)
        item = None if message is None else _interpret(message)
        if isinstance(item, StreamEnd):
            self.end = item
            return None
        return item


class EventStream(_Stream):
    """A contract's events as they happen (sync). Use it in a ``for`` loop; ``close()`` stops early."""

    def __init__(self, open_response: Callable[[], httpx.Response]) -> None:
        super().__init__()
        self._open = open_response
        self._response: httpx.Response | None = None

    def __iter__(self) -> Iterator[StreamedEvent]:
        self._response = response = self._open()
        try:
            if not response.is_success:
                response.read()
            if not self._opened(response):
                return
            for line in response.iter_lines():
                item = self._line(line)
                if item is not None:
                    yield item
                elif self.end is not None:
                    return
            self.end = StreamEnd("closed")
        finally:
            response.close()

    def close(self) -> None:
        if self._response is not None:
            self._response.close()


class AsyncEventStream(_Stream):
    """A contract's events as they happen (async). Use it in an ``async for`` loop; ``aclose()`` stops early."""

    def __init__(self, open_response: Callable[[], Awaitable[httpx.Response]]) -> None:
        super().__init__()
        self._open = open_response
        self._response: httpx.Response | None = None

    async def __aiter__(self) -> AsyncIterator[StreamedEvent]:
        self._response = response = await self._open()
        try:
            if not response.is_success:
                await response.aread()
            if not self._opened(response):
                return
            async for line in response.aiter_lines():
                item = self._line(line)
                if item is not None:
                    yield item
                elif self.end is not None:
                    return
            self.end = StreamEnd("closed")
        finally:
            await response.aclose()

    async def aclose(self) -> None:
        if self._response is not None:
            await self._response.aclose()
