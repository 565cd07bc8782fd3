"""Every route of the API as a Call, declared once for the sync and the async clients (docs/api.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import models as m
from ._http import Call, answer, path_segment

_view = answer(m.contract_view)


def _contract(contract_id: str, rest: str = "") -> str:
    return f"/contracts/{path_segment(contract_id)}{rest}"


def _agent(address: str, rest: str) -> str:
    return f"/agents/{path_segment(address)}{rest}"


def _body(model: type[m.Body], body: m.Body | Mapping[str, Any]) -> m.Body:
    """A body model, or a mapping (snake_case or camelCase keys) validated into one before it is sent."""
    return body if isinstance(body, model) else model.model_validate(body)


def create_contract(terms: m.CreateContractRequest | Mapping[str, Any], key: str | None) -> Call[m.ContractView]:
    return Call("POST", "/contracts", _view, body=_body(m.CreateContractRequest, terms), idempotency_key=key)


def get_contract(contract_id: str, signed: bool) -> Call[m.ContractView]:
    return Call("GET", _contract(contract_id), _view, authorized=signed)


def list_contracts(
    status: str | None, award_method: str | None, contract_type: str | None, limit: int | None, cursor: str | None
) -> Call[m.ContractPage]:
    query = {"status": status, "awardMethod": award_method, "contractType": contract_type, "limit": limit}
    return Call("GET", "/contracts", answer(m.ContractPage), query={**query, "cursor": cursor}, authorized=False)


def message(contract_id: str, name: str, key: str | None) -> Call[m.ContractView]:
    """accept, decline, withdraw, approve, cancel: a body-less message to the contract."""
    return Call("POST", _contract(contract_id, f"/{name}"), _view, idempotency_key=key)


def dispute(contract_id: str, claims: Sequence[m.Verdict] | None, key: str | None) -> Call[m.ContractView]:
    body = {} if claims is None else {"claims": list(claims)}
    return Call("POST", _contract(contract_id, "/disputes"), _view, body=body, idempotency_key=key)


def request_changes(
    contract_id: str, criteria: Sequence[int], note: str | None, key: str | None
) -> Call[m.ContractView]:
    body: dict[str, object] = {"criteria": list(criteria)}
    if note is not None:
        body["note"] = note
    return Call("POST", _contract(contract_id, "/revisions"), _view, body=body, idempotency_key=key)


def vote(contract_id: str, votes: Sequence[m.Verdict], key: str | None) -> Call[m.ContractView]:
    return Call("POST", _contract(contract_id, "/votes"), _view, body={"votes": list(votes)}, idempotency_key=key)


def get_votes(contract_id: str) -> Call[m.ContractVoteRows]:
    return Call("GET", _contract(contract_id, "/votes"), answer(m.ContractVoteRows), authorized=False)


def get_agent_votes(address: str) -> Call[m.AgentVoteRows]:
    return Call("GET", _agent(address, "/votes"), answer(m.AgentVoteRows), authorized=False)


def quote(contract_id: str, bid: m.QuoteRequest | Mapping[str, Any], key: str | None) -> Call[m.ContractView]:
    body = _body(m.QuoteRequest, bid)
    return Call("POST", _contract(contract_id, "/quotes"), _view, body=body, idempotency_key=key)


def award(contract_id: str, quote_id: str | None, key: str | None) -> Call[m.ContractView]:
    body = {} if quote_id is None else {"quoteId": quote_id}
    return Call("POST", _contract(contract_id, "/award"), _view, body=body, idempotency_key=key)


def deliver(contract_id: str, delivery: m.DeliveryRequest | Mapping[str, Any], key: str | None) -> Call[m.ContractView]:
    body = _body(m.DeliveryRequest, delivery)
    return Call("POST", _contract(contract_id, "/deliveries"), _view, body=body, idempotency_key=key)


def get_key(contract_id: str, kind: str) -> Call[m.ContentKey]:
    return Call("GET", _contract(contract_id, f"/keys/{kind}"), answer(m.ContentKey))


def get_events(contract_id: str, signed: bool) -> Call[m.ContractEvents]:
    return Call("GET", _contract(contract_id, "/events"), answer(m.ContractEvents), authorized=signed)


def stream_events(contract_id: str) -> Call[None]:
    return Call("GET", _contract(contract_id, "/events/stream"), lambda _: None)


def get_delivery_content(contract_id: str) -> Call[m.DeliveryContent]:
    return Call("GET", _contract(contract_id, "/delivery"), answer(m.DeliveryContent))


def get_balances(address: str) -> Call[m.Balances]:
    return Call("GET", _agent(address, "/balances"), answer(m.Balances))


def lock_eligibility(amount: int, key: str | None) -> Call[m.EligibilityResult]:
    body = {"amount": str(amount)}
    return Call("POST", "/eligibility/lock", answer(m.EligibilityResult), body=body, idempotency_key=key)


def unlock_eligibility(amount: int | None, key: str | None) -> Call[m.EligibilityResult]:
    body = {} if amount is None else {"amount": str(amount)}
    return Call("POST", "/eligibility/unlock", answer(m.EligibilityResult), body=body, idempotency_key=key)


def get_eligibility_requirements() -> Call[m.EligibilityRequirements]:
    return Call("GET", "/eligibility/requirements", answer(m.EligibilityRequirements), authorized=False)


def get_reputation(address: str, viewer: str | None, signed: bool) -> Call[m.Reputation]:
    return Call(
        "GET", _agent(address, "/reputation"), answer(m.Reputation), query={"viewer": viewer}, authorized=signed
    )


def list_outcomes(after: int | None, limit: int | None) -> Call[m.OutcomePage]:
    query = {"after": after, "limit": limit}
    return Call("GET", "/outcomes", answer(m.OutcomePage), query=query, authorized=False)


def get_outcomes_head() -> Call[m.OutcomeHead]:
    return Call("GET", "/outcomes/head", answer(m.OutcomeHead), authorized=False)


def get_params() -> Call[m.ProtocolParams]:
    return Call("GET", "/params", answer(m.ProtocolParams), authorized=False)


def withdraw_funds(address: str, amount: int, destination: str, key: str) -> Call[m.WithdrawalResult]:
    body = {"amount": str(amount), "destination": destination}
    return Call("POST", _agent(address, "/withdrawals"), answer(m.WithdrawalResult), body=body, idempotency_key=key)


def list_withdrawals(address: str) -> Call[list[m.Payout]]:
    return Call(
        "GET", _agent(address, "/withdrawals"), lambda data: [m.Payout.model_validate(p) for p in data["payouts"]]
    )


def health() -> Call[m.Health]:
    return Call("GET", "/health", answer(m.Health), authorized=False)


def deposit(address: str, amount: int, key: str | None) -> Call[m.DepositResult]:
    body = {"address": address, "asset": "USDC", "amount": str(amount)}
    return Call("POST", "/operator/deposits", answer(m.DepositResult), body=body, idempotency_key=key)


def pending_payouts() -> Call[list[m.Payout]]:
    return Call("GET", "/operator/payouts", lambda data: [m.Payout.model_validate(p) for p in data["payouts"]])


def mark_paid(payout_id: str, reference: str, key: str | None) -> Call[m.Payout]:
    path = f"/operator/payouts/{path_segment(payout_id)}/paid"
    return Call("POST", path, answer(m.Payout), body={"reference": reference}, idempotency_key=key)


def my_contracts(address: str, filters: m.MyContractsFilter) -> Call[m.AgentContracts]:
    query: dict[str, Any] = {**filters}
    if "open" in filters:
        query["open"] = str(filters["open"]).lower()
    return Call("GET", _agent(address, "/contracts"), answer(m.AgentContracts), query=query)


def my_feed(address: str, after: str | int | None, limit: int | None) -> Call[m.FeedPage]:
    return Call("GET", _agent(address, "/feed"), answer(m.FeedPage), query={"after": after, "limit": limit})


def stream_feed(address: str) -> Call[None]:
    return Call("GET", _agent(address, "/feed/stream"), lambda _: None)


def add_webhook(address: str, url: str, key: str | None) -> Call[m.WebhookCreated]:
    body = {"url": url}
    return Call("POST", _agent(address, "/webhooks"), answer(m.WebhookCreated), body=body, idempotency_key=key)


def list_webhooks(address: str) -> Call[list[m.Webhook]]:
    return Call(
        "GET", _agent(address, "/webhooks"), lambda data: [m.Webhook.model_validate(w) for w in data["webhooks"]]
    )


def delete_webhook(address: str, webhook_id: str) -> Call[m.WebhookDeleted]:
    path = _agent(address, f"/webhooks/{path_segment(webhook_id)}")
    return Call("DELETE", path, answer(m.WebhookDeleted))


def grant_mandate(address: str, mandate: m.MandateRequest, key: str | None) -> Call[m.Mandate]:
    return Call("POST", _agent(address, "/mandates"), answer(m.Mandate), body=mandate, idempotency_key=key)


def list_mandates(address: str) -> Call[list[m.Mandate]]:
    return Call(
        "GET", _agent(address, "/mandates"), lambda data: [m.Mandate.model_validate(x) for x in data["mandates"]]
    )


def revoke_mandate(address: str, mandate_id: str) -> Call[m.Mandate]:
    return Call("DELETE", _agent(address, f"/mandates/{path_segment(mandate_id)}"), answer(m.Mandate))
