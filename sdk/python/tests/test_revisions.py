"""A change request through the sync client against the real service: the Client sends the delivery
back with the criteria it finds unmet and a note, the Worker reads the note in its party view and
delivers again, the Client approves; the Worker is paid in full. The Worker may not ask for changes,
and a stranger's public view carries the count but not the note."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support import DELIVERY, FUNDS, PRICE, balances_of, contract_terms, eventually

from opencontract import AgentClient, ApiError
from opencontract.models import PartyContractView, PublicContractView

NewAgent = Callable[..., AgentClient]

NOTE = "NOTE-PY: section 3 is missing"


def test_change_request_then_redelivery_paid_in_full(new_agent: NewAgent) -> None:
    client, worker, stranger = new_agent(), new_agent(), new_agent()
    contract_id = client.create_contract(contract_terms(worker.address)).contract_id
    worker.accept(contract_id)
    worker.deliver(contract_id, DELIVERY)

    with pytest.raises(ApiError) as refused:
        worker.request_changes(contract_id, [0])
    assert (refused.value.status, refused.value.code) == (403, "not_client")

    revised = client.request_changes(contract_id, [1], NOTE)
    assert isinstance(revised, PartyContractView)
    assert (revised.status, revised.revision_count) == ("matched", 1)

    seen = worker.get_contract(contract_id)
    assert isinstance(seen, PartyContractView)
    assert [(r.criteria, r.note) for r in seen.revisions] == [([1], NOTE)]
    public = stranger.get_contract(contract_id)
    assert isinstance(public, PublicContractView)
    assert public.revision_count == 1
    assert NOTE not in public.model_dump_json()

    redelivered = worker.deliver(contract_id, {**DELIVERY, "sha256": "de" * 32, "key": "second-key"})
    assert redelivered.status == "under-review"
    assert client.get_delivery_key(contract_id).key == "second-key"

    client.approve(contract_id)
    eventually(lambda: client.get_contract(contract_id), lambda v: v.status == "settled-fully-met")
    assert balances_of(client) == (FUNDS - PRICE, 0, 0, 0)
    assert balances_of(worker) == (FUNDS + PRICE, 0, 0, 0)
