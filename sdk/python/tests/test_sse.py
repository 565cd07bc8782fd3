"""The text/event-stream parser the event stream reader uses, on the format's corner cases."""

from __future__ import annotations

import pytest

from opencontract import ApiError
from opencontract.events import SseMessage, SseParser, _interpret_event, _interpret_feed, _Stream


def parse(text: str) -> list[SseMessage]:
    parser = SseParser()
    return [m for line in text.split("\n") if (m := parser.feed(line)) is not None]


def test_fields_comments_and_blank_line_dispatch() -> None:
    text = ': a comment\nid: 3\nevent: end\ndata: {"reason":\ndata:  "terminal"}\n\ndata\n\nretry: 10\n\n'
    assert parse(text) == [SseMessage("end", '{"reason":\n "terminal"}', "3"), SseMessage("message", "", None)]


def test_a_message_without_its_blank_line_is_not_dispatched() -> None:
    assert parse("id: 1\ndata: {}") == []


def test_an_error_message_is_raised_with_its_code() -> None:
    stream = _Stream(_interpret_event)
    for line in ["event: error", 'data: {"code":"temporal_unavailable"}']:
        assert stream._line(line) is None
    with pytest.raises(ApiError) as failed:
        stream._line("")
    assert (failed.value.status, failed.value.code) == (503, "temporal_unavailable")


def test_events_carry_their_position_and_the_end_its_reason() -> None:
    stream = _Stream(_interpret_event)
    event = (
        '{"type":"contract.created","contractId":"c-1","at":"2030-01-01T00:00:00.000Z","actor":"system","amount":"5"}'
    )
    lines = ["id: 7", f"data: {event}", "", "event: end", 'data: {"reason":"time-limit"}', ""]
    items = [item for line in lines if (item := stream._line(line)) is not None]
    assert [(i.position, i.event.type, i.event.model_extra) for i in items] == [
        (7, "contract.created", {"amount": "5"})
    ]
    assert stream.end is not None and stream.end.reason == "time-limit"


def test_feed_entries_are_read_with_their_id_and_a_time_limit_ends_the_stream() -> None:
    stream = _Stream(_interpret_feed)
    entry = (
        '{"id":"12","agent":"0xab","contractId":"c-1","type":"agent.named","at":"2030-01-01T00:00:00.000Z",'
        '"role":"worker","nextAction":{"action":"accept","deadline":"2030-01-02T00:00:00.000Z"}}'
    )
    lines = ["id: 12", f"data: {entry}", "", ": keep-alive", "", "event: end", 'data: {"reason":"time-limit"}', ""]
    items = [item for line in lines if (item := stream._line(line)) is not None]
    assert [(i.id, i.type, i.role, i.next_action and i.next_action.action) for i in items] == [
        ("12", "agent.named", "worker", "accept")
    ]
    assert stream.end is not None and stream.end.reason == "time-limit"
