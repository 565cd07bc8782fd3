"""A whole FDP contract through the sync client against the real service: create, accept, deliver,
approve, settled fully met, with the exact balances the API answers at each step, the event log read
and streamed, idempotent retries, and refusals raised with the API's code."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from support import DELIVERY, FUNDS, PRICE, WORKER_STAKE, balances_of, contract_terms, eventually

from opencontract import AgentClient, ApiError
from opencontract.models import CreateContractRequest, PartyContractView, PublicContractView

NewAgent = Callable[..., AgentClient]


def test_fdp_direct_award_to_settled_fully_met(new_agent: NewAgent) -> None:
    client, worker = new_agent(), new_agent()

    key = f"create-{uuid.uuid4()}"
    terms = contract_terms(worker.address)
    created = client.create_contract(terms, idempotency_key=key)
    assert isinstance(created, PartyContractView)
    assert (created.status, created.contract_code, created.role) == ("created", "FDP", "client")
    assert created.price == PRICE and created.escrowed_funds == PRICE
    assert created.deadlines.match.tzinfo is not None
    contract_id = created.contract_id
    assert balances_of(client) == (FUNDS - PRICE, PRICE, 0, 0)
    # The same request with the same key answers the same contract and holds nothing more; the key
    # with another request is refused.
    assert client.create_contract(terms, idempotency_key=key).contract_id == contract_id
    with pytest.raises(ApiError) as reused:
        client.create_contract({**terms, "task_description": "another task"}, idempotency_key=key)
    assert (reused.value.status, reused.value.code) == (422, "idempotency_key_reused")
    assert balances_of(client) == (FUNDS - PRICE, PRICE, 0, 0)

    # The named Worker may not read the materials before it accepts; a stranger reads the public view.
    with pytest.raises(ApiError) as refused:
        worker.get_materials_key(contract_id)
    assert refused.value.status == 403
    assert isinstance(client.get_contract(contract_id, signed=False), PublicContractView)

    matched = worker.accept(contract_id)
    assert matched.status == "matched"
    assert balances_of(worker) == (FUNDS - WORKER_STAKE, WORKER_STAKE, 0, 0)
    assert worker.get_materials_key(contract_id).key == "materials-secret-key"

    delivered = worker.deliver(contract_id, DELIVERY)
    assert delivered.status == "under-review"
    assert client.get_delivery_key(contract_id).key == DELIVERY["key"]
    assert client.get_delivery_content(contract_id).content["summary"] == "translated"

    client.approve(contract_id, idempotency_key=f"approve-{contract_id}")
    settled = eventually(lambda: client.get_contract(contract_id), lambda v: v.status == "settled-fully-met")
    assert isinstance(settled, PartyContractView)
    assert settled.criteria_met == ["met", "met"]
    assert settled.payment == PRICE

    assert balances_of(client) == (FUNDS - PRICE, 0, 0, 0)
    assert balances_of(worker) == (FUNDS + PRICE, 0, 0, 0)

    logged = [e.type for e in client.get_events(contract_id).events if e.type.startswith("contract.")]
    assert logged == [
        "contract.created",
        "contract.matched",
        "contract.delivered",
        "contract.resolved",
        "contract.settled",
    ]
    stream = client.stream_events(contract_id)
    streamed = list(stream)
    assert [s.position for s in streamed] == list(range(1, len(streamed) + 1))
    assert [s.event.type for s in streamed] == [e.type for e in client.get_events(contract_id).events]
    assert stream.end is not None and stream.end.reason == "terminal"
    # Resuming after the last position reads nothing more.
    resumed = client.stream_events(contract_id, last_event_id=len(streamed))
    assert list(resumed) == []
    assert resumed.end is not None and resumed.end.reason == "terminal"


def test_refusals_carry_the_api_code_and_change_nothing(new_agent: NewAgent) -> None:
    poor = new_agent(funds=PRICE - 1)
    worker = new_agent()
    with pytest.raises(ApiError) as refused:
        poor.create_contract(contract_terms(worker.address))
    assert (refused.value.status, refused.value.code) == (402, "insufficient_funds")
    assert balances_of(poor) == (PRICE - 1, 0, 0, 0)

    with pytest.raises(ApiError) as unknown:
        poor.get_contract("c-" + "x" * 26)
    assert unknown.value.status == 404

    past = contract_terms(worker.address)
    past["deadlines"]["match"] = past["deadlines"]["review"]
    with pytest.raises(ApiError) as bad:
        new_agent().create_contract(past)
    assert (bad.value.status, bad.value.code) == (400, "invalid_input")
    assert any(f["field"].startswith("deadlines") for f in bad.value.details["fields"])


def test_bodies_are_checked_before_anything_is_sent(new_agent: NewAgent) -> None:
    client = new_agent(funds=0)
    with pytest.raises(ValueError, match="status"):
        client.create_contract({**contract_terms(), "status": "settled-fully-met"})
    # The wire form: amounts as decimal strings, times as RFC 3339 UTC with Z, camelCase names.
    wire = CreateContractRequest.model_validate(contract_terms(client.address)).wire()
    assert wire["amount"] == str(PRICE)
    assert wire["deadlines"]["match"].endswith("Z")
    assert wire["acceptanceCriteria"] and wire["awardMethod"] == "direct"


def test_auction_quotes_and_the_clients_pick(new_agent: NewAgent) -> None:
    client, cheap, picked = new_agent(), new_agent(), new_agent()
    terms = {**contract_terms(), "contract_type": "auction", "amount": 5_000_000}
    del terms["supplementary_materials"]
    created = client.create_contract(terms)
    assert created.contract_code == "AOP"
    contract_id = created.contract_id

    assert cheap.quote(contract_id, {"price": 2_000_000}).own_quote.price == 2_000_000
    answer = picked.quote(contract_id, {"price": 2_200_000, "confidence": 0.8, "message": "can start today"})
    assert isinstance(answer, PublicContractView) and answer.own_quote is not None
    assert (answer.own_quote.price, answer.own_quote.confidence) == (2_200_000, 0.8)
    with pytest.raises(ApiError) as own_auction:
        client.quote(contract_id, {"price": 1_000_000})
    assert (own_auction.value.status, own_auction.value.code) == (403, "client_cannot_quote")

    owner_view = client.get_contract(contract_id)
    assert isinstance(owner_view, PartyContractView) and owner_view.quotes is not None
    assert sorted(q.price for q in owner_view.quotes) == [2_000_000, 2_200_000]
    # The Client picks the dearer quote; the cheaper bidder holds nothing.
    matched = client.award(contract_id, answer.own_quote.quote_id)
    assert isinstance(matched, PartyContractView)
    assert (matched.status, matched.worker, matched.price) == ("matched", picked.address, 2_200_000)
    assert balances_of(client) == (FUNDS - 2_200_000, 2_200_000, 0, 0)
    assert balances_of(picked) == (FUNDS - 220_000, 220_000, 0, 0)
    assert balances_of(cheap) == (FUNDS, 0, 0, 0)
