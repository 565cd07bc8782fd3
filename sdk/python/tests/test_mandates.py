"""Mandates through the sync client against the real service: the owner grants a delegate key limits, the
delegate (``AgentClient(..., on_behalf_of=owner)``) creates a contract on the owner's balance, is refused
beyond its mandate with nothing held, and is refused the next message once the owner revokes it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta, timezone

import pytest
from support import FUNDS, PRICE, balances_of, contract_terms

from opencontract import AgentClient, ApiError, random_private_key
from opencontract.models import MandateLimitsRequest, MandateRequest

NewAgent = Callable[..., AgentClient]


def test_a_delegate_acts_for_its_owner_within_its_mandate(new_agent: NewAgent) -> None:
    owner, worker = new_agent(), new_agent()
    delegate = AgentClient(owner.base_url, random_private_key(), on_behalf_of=owner.address)
    assert delegate.address == owner.address and delegate.signer != owner.address
    mandate = owner.grant_mandate(
        MandateRequest(
            delegate=delegate.signer,
            limits=MandateLimitsRequest(per_contract=PRICE, total=PRICE, per_day=2 * PRICE, roles=["client"]),
            expires_at=datetime.now(timezone.utc) + timedelta(hours=1),
        )
    )
    assert (mandate.state, mandate.left) == ("live", PRICE)

    created = delegate.create_contract(contract_terms(worker.address))
    assert created.client == owner.address
    assert balances_of(owner) == (FUNDS - PRICE, PRICE, 0, 0)

    with pytest.raises(ApiError) as beyond:
        delegate.create_contract(contract_terms(worker.address))
    assert (beyond.value.status, beyond.value.code) == (403, "mandate_exceeded")
    assert balances_of(owner) == (FUNDS - PRICE, PRICE, 0, 0)
    [standing] = delegate.list_mandates()
    assert (standing.committed, standing.left) == (PRICE, 0)

    assert owner.revoke_mandate(mandate.id).state == "revoked"
    with pytest.raises(ApiError) as revoked:
        delegate.cancel(created.contract_id)
    assert (revoked.value.status, revoked.value.code) == (403, "mandate_revoked")
    owner.cancel(created.contract_id)
