"""Reading the API's Server-Sent Events streams: a parser of the text/event-stream format, and iterators,
sync and async, of a contract's events (``GET /contracts/:id/events/stream``) and of an agent's feed
(``GET /agents/:address/feed/stream``).

Iterate a stream for its items, the past ones first; once the iteration stops, ``stream.end`` says
why: ``terminal`` (the contract is finished), ``time-limit`` (open it again with ``last_event_id=``
the last position or entry id seen to go on) or ``closed`` (the connection ended).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Generic, Literal, TypeVar

import httpx

from .errors import ApiError
from .models import ContractEvent, FeedEntry

T = TypeVar("T")


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


def _interpret_event(message: SseMessage) -> StreamedEvent | StreamEnd | None:
    if message.event == "message":
        return StreamedEvent(int(message.id or 0), ContractEvent.model_validate_json(message.data))
    return _control(message)


def _interpret_feed(message: SseMessage) -> FeedEntry | StreamEnd | None:
    if message.event == "message":
        return FeedEntry.model_validate_json(message.data)
    return _control(message)


def _control(message: SseMessage) -> StreamEnd | None:
    """The messages every stream shares: its end and its failure."""
    if message.event == "end":
        return StreamEnd(json.loads(message.data)["reason"])
    if message.event == "error":
        raise ApiError(503, json.loads(message.data).get("code", "stream_failed"), "the event stream failed")
    return None


def stream_headers(last_event_id: int | str | None) -> dict[str, str]:
    return {} if last_event_id is None else {"Last-Event-ID": str(last_event_id)}


class _Stream(Generic[T]):
    """What both iterators share: the answer's status, then each line read into an item or the end."""

    def __init__(self, interpret: Callable[[SseMessage], T | StreamEnd | None]) -> None:
        self._interpret = interpret
        self._parser = SseParser()
        self.end: StreamEnd | None = None

    def _opened(self, response: httpx.Response) -> bool:
        """False when there is nothing to read (204: the contract had already ended)."""
        if response.status_code == 204:
            self.end = StreamEnd("terminal")
        elif not response.is_success:
            raise ApiError.from_response(response)
        return self.end is None

    def _line(self, line: str) -> T | None:
        message = self._parser.feed(line)
        item = None if message is None else self._interpret(message)
        if isinstance(item, StreamEnd):
            self.end = item
            return None
        return item


class SyncStream(_Stream[T]):
    """A stream read synchronously. Use it in a ``for`` loop; ``close()`` stops early."""

    def __init__(
        self, open_response: Callable[[], httpx.Response], interpret: Callable[[SseMessage], T | StreamEnd | None]
    ) -> None:
        super().__init__(interpret)
        self._open = open_response
        self._response: httpx.Response | None = None

    def __iter__(self) -> Iterator[T]:
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


class AsyncStream(_Stream[T]):
    """A stream read asynchronously. Use it in an ``async for`` loop; ``aclose()`` stops early."""

    def __init__(
        self,
        open_response: Callable[[], Awaitable[httpx.Response]],
        interpret: Callable[[SseMessage], T | StreamEnd | None],
    ) -> None:
        super().__init__(interpret)
        self._open = open_response
        self._response: httpx.Response | None = None

    async def __aiter__(self) -> AsyncIterator[T]:
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


class EventStream(SyncStream[StreamedEvent]):
    """A contract's events as they happen (sync), each with its position in the log."""

    def __init__(self, open_response: Callable[[], httpx.Response]) -> None:
        super().__init__(open_response, _interpret_event)


class AsyncEventStream(AsyncStream[StreamedEvent]):
    """A contract's events as they happen (async), each with its position in the log."""

    def __init__(self, open_response: Callable[[], Awaitable[httpx.Response]]) -> None:
        super().__init__(open_response, _interpret_event)


class FeedStream(SyncStream[FeedEntry]):
    """An agent's feed entries as they come (sync): resume with ``last_event_id=`` the last ``entry.id``."""

    def __init__(self, open_response: Callable[[], httpx.Response]) -> None:
        super().__init__(open_response, _interpret_feed)


class AsyncFeedStream(AsyncStream[FeedEntry]):
    """An agent's feed entries as they come (async): resume with ``last_event_id=`` the last ``entry.id``."""

    def __init__(self, open_response: Callable[[], Awaitable[httpx.Response]]) -> None:
        super().__init__(open_response, _interpret_feed)
