"""An agent's own contracts, feed, feed stream and webhooks through the SDK, against the real service: a
Worker named in a direct award finds the contract with ``next_action`` accept, reads its feed in order with
stable ids (paged by ``after=``), resumes the stream with exactly the entries it missed, receives the same
entries by webhook (each signature verified), and a stranger is refused every one of these with a 403."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from support import DELIVERY, FUNDS, contract_terms, eventually

from opencontract import AgentClient, ApiError, random_private_key
from opencontract import _routes as r
from opencontract.aio import AsyncAgentClient, AsyncOperatorClient
from opencontract.events import FeedStream
from opencontract.models import FeedEntry
from opencontract.webhooks import verify

NewAgent = Callable[..., AgentClient]


def whole_feed(agent: AgentClient, limit: int | None = None) -> list[FeedEntry]:
    """Every entry, page after page from ``after=next``."""
    entries: list[FeedEntry] = []
    after = "0"
    while page := agent.my_feed(after=after, limit=limit).entries:
        entries.extend(page)
        after = page[-1].id
    return entries


def settled_feed(agent: AgentClient, contract_id: str) -> list[FeedEntry]:
    """The agent's feed once it holds the contract's whole event log, ``contract.settled`` last."""
    log = [e.type for e in agent.get_events(contract_id).events]

    def logged(entries: list[FeedEntry]) -> list[str]:
        return [str(e.event["type"]) for e in entries if e.type == "contract.event" and e.event is not None]

    return eventually(lambda: whole_feed(agent), lambda entries: logged(entries) == log, seconds=60)


def take(stream: FeedStream, count: int) -> list[FeedEntry]:
    taken: list[FeedEntry] = []
    for entry in stream:
        taken.append(entry)
        if len(taken) == count:
            break
    stream.close()
    return taken


def test_the_named_worker_finds_its_contract_and_reads_its_feed_in_order(new_agent: NewAgent) -> None:
    client, worker = new_agent(), new_agent()
    created = client.create_contract(contract_terms(worker.address))
    contract_id = created.contract_id

    row = eventually(
        lambda: [c for c in worker.my_contracts().contracts if c.contract_id == contract_id],
        lambda rows: len(rows) == 1,
    )[0]
    assert (row.role, row.roles, row.status, row.next_action) == ("worker", ["worker"], "created", "accept")
    assert row.action_deadline == created.deadlines.match
    own = client.my_contracts(role="client", open=True).contracts
    assert [(c.contract_id, c.role, c.next_action) for c in own] == [(contract_id, "client", None)]
    assert worker.my_contracts(role="client").contracts == []

    # The stream from the start, left after its first entry.
    first = take(worker.stream_feed(), 1)[0]
    assert first.contract_id == contract_id

    worker.accept(contract_id)
    worker.deliver(contract_id, DELIVERY)
    client.approve(contract_id)
    entries = settled_feed(worker, contract_id)
    assert entries[0] == first
    named = [e for e in entries if e.type == "agent.named"]
    assert [(e.role, e.next_action and e.next_action.action) for e in named] == [("worker", "accept")]
    ids = [int(e.id) for e in entries]
    assert ids == sorted(set(ids)), "ids are unique and increasing"
    assert whole_feed(worker, limit=2) == entries, "pages of 2 from after=next read the same entries"
    assert worker.my_feed(after=first.id).entries == entries[1:]
    assert worker.my_feed(after=entries[-1].id).entries == []
    assert worker.my_feed(after=entries[-1].id).next == entries[-1].id
    closed = eventually(lambda: worker.my_contracts(open=False).contracts, lambda rows: len(rows) == 1)
    assert (closed[0].contract_id, closed[0].status, closed[0].next_action) == (contract_id, "settled-fully-met", None)

    # Resumed after the first entry, the stream gives exactly the entries missed since, in order.
    missed = entries[1:]
    assert take(worker.stream_feed(last_event_id=first.id), len(missed)) == missed
    assert take(worker.stream_feed(last_event_id=int(entries[-3].id)), 2) == entries[-2:]


class _Receiver(BaseHTTPRequestHandler):
    posts: list[tuple[bytes, dict[str, str]]]

    def do_POST(self) -> None:  # noqa: N802 (the http.server naming)
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.posts.append((body, dict(self.headers.items())))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def receiver() -> Iterator[tuple[str, list[tuple[bytes, dict[str, str]]]]]:
    """A webhook receiver on loopback (the test service allows private targets): its URL and its posts."""
    posts: list[tuple[bytes, dict[str, str]]] = []
    handler = type("Receiver", (_Receiver,), {"posts": posts})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook", posts
    server.shutdown()
    server.server_close()


@pytest.mark.asyncio
async def test_webhooks_are_created_deliver_the_feed_signed_and_are_deleted(service, receiver) -> None:
    url, posts = receiver
    async with (
        AsyncOperatorClient(service.url, service.operator_token) as operator,
        AsyncAgentClient(service.url, random_private_key()) as client,
        AsyncAgentClient(service.url, random_private_key()) as worker,
    ):
        await asyncio.gather(*(operator.deposit(a.address, FUNDS) for a in (client, worker)))
        created = await worker.add_webhook(url)
        assert created.id.startswith("wh_") and created.secret.startswith("whsec_") and created.url == url
        listed = await worker.list_webhooks()
        assert [(w.id, w.url, w.failures, w.abandoned) for w in listed] == [(created.id, url, 0, 0)]
        assert "secret" not in (listed[0].model_extra or {})

        contract_id = (await client.create_contract(contract_terms(worker.address))).contract_id
        await worker.accept(contract_id)

        def verified() -> dict[str, FeedEntry]:
            """The posts so far, each verified with the secret, deduplicated by webhook-id."""
            delivered: dict[str, FeedEntry] = {}
            for body, headers in list(posts):
                payload = verify(created.secret, body, headers)
                delivered.setdefault(headers["webhook-id"], FeedEntry.model_validate(payload["data"]))
            return delivered

        async with asyncio.timeout(60):
            while True:
                entries = (await worker.my_feed()).entries
                delivered = verified()
                if len(entries) >= 3 and list(delivered) == [e.id for e in entries]:
                    break
                await asyncio.sleep(0.2)
        assert list(delivered.values()) == entries
        assert all(e.contract_id == contract_id for e in entries)

        # The stream, resumed after the first entry, gives the rest (async).
        stream = worker.stream_feed(last_event_id=entries[0].id)
        resumed: list[FeedEntry] = []
        async for entry in stream:
            resumed.append(entry)
            if len(resumed) == len(entries) - 1:
                break
        await stream.aclose()
        assert resumed == entries[1:]

        assert (await worker.delete_webhook(created.id)).deleted is True
        assert await worker.list_webhooks() == []
        with pytest.raises(ApiError) as gone:
            await worker.delete_webhook(created.id)
        assert (gone.value.status, gone.value.code) == (404, "webhook_not_found")


def test_a_stranger_is_refused_another_agents_contracts_feed_stream_and_webhooks(new_agent: NewAgent) -> None:
    owner, stranger = new_agent(funds=0), new_agent(funds=0)
    calls = {
        "contracts": r.my_contracts(owner.address, {}),
        "feed": r.my_feed(owner.address, None, None),
        "add webhook": r.add_webhook(owner.address, "http://127.0.0.1:9/hook", None),
        "list webhooks": r.list_webhooks(owner.address),
        "delete webhook": r.delete_webhook(owner.address, "wh_0"),
    }
    for name, call in calls.items():
        with pytest.raises(ApiError) as refused:
            stranger._send(call)
        assert (refused.value.status, refused.value.code) == (403, "not_allowed"), name
    with pytest.raises(ApiError) as refused:
        list(FeedStream(stranger._opener(r.stream_feed(owner.address), None)))
    assert (refused.value.status, refused.value.code) == (403, "not_allowed")
    assert owner.list_webhooks() == [] and owner.my_feed().entries == []
