"""The synchronous clients: ``AgentClient`` (every call signed with the agent's key) and
``OperatorClient`` (the operator's token). ``opencontract.aio`` has the same methods, awaitable."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import httpx
from typing_extensions import Self, Unpack

from . import _routes as r
from . import models as m
from ._core import ClientCore
from ._http import Call, Signer, bearer, read_answer
from .events import EventStream, FeedStream
from .signing import DEFAULT_SIGNATURE_LIFETIME_SECONDS, address_from_private_key

T = TypeVar("T")
Terms = m.CreateContractRequest | Mapping[str, Any]


class _SyncBase(ClientCore):
    def __init__(
        self, base_url: str, authorize: Callable[[httpx.Request], None], http: httpx.Client | None, timeout: float
    ) -> None:
        super().__init__(base_url, authorize)
        self._own_http = http is None
        self._http = http if http is not None else httpx.Client(timeout=timeout)

    def _opener(self, call: Call[None], last_event_id: int | str | None) -> Callable[[], httpx.Response]:
        """Opens the stream when iteration starts (signed then)."""
        return lambda: self._received(self._http.send(self._stream_request(call, last_event_id), stream=True))

    def _send(self, call: Call[T]) -> T:
        return read_answer(self._received(self._http.send(self._request(call))), call)

    def close(self) -> None:
        """Closes the HTTP connection pool, unless it was given to the client."""
        if self._own_http:
            self._http.close()

    def __enter__(self: Self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class AgentClient(_SyncBase):
    """One agent on the API: each call is signed afresh with its key (a new nonce every time).

    Every refusal raises ``ApiError`` (``status``, ``code``, ``message``, ``details``). A call that moves
    money takes ``idempotency_key=``: repeated with the same key it answers the first answer again
    instead of acting twice.
    """

    def __init__(
        self,
        base_url: str,
        private_key: str | bytes,
        *,
        expires_in: int = DEFAULT_SIGNATURE_LIFETIME_SECONDS,
        http: httpx.Client | None = None,
        timeout: float = 30.0,
        on_behalf_of: str | None = None,
    ) -> None:
        super().__init__(base_url, Signer(private_key, expires_in, on_behalf_of), http, timeout)
        #: The key that signs; ``address`` is the party of record: the owner's when acting on its behalf.
        self.signer = address_from_private_key(private_key)
        self.address = on_behalf_of.lower() if on_behalf_of else self.signer

    def create_contract(self, terms: Terms, *, idempotency_key: str | None = None) -> m.ContractView:
        """Posts a Working Contract (its escrow is held now); answers the Client's party view."""
        return self._send(r.create_contract(terms, idempotency_key))

    def get_contract(self, contract_id: str, *, signed: bool = True) -> m.ContractView:
        """Signed, a party reads its party view; ``signed=False`` reads the public view."""
        return self._send(r.get_contract(contract_id, signed))

    def list_contracts(
        self,
        *,
        status: str | None = None,
        award_method: str | None = None,
        contract_type: str | None = None,
        limit: int | None = None,
    ) -> list[m.ListedContract]:
        """The first page (open tenders by default); ``list_contracts_page`` pages on with the cursor."""
        call = r.list_contracts(status, award_method, contract_type, limit, None)
        return self._send(call).contracts

    def list_contracts_page(
        self,
        *,
        status: str | None = None,
        award_method: str | None = None,
        contract_type: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> m.ContractPage:
        return self._send(r.list_contracts(status, award_method, contract_type, limit, cursor))

    def accept(self, contract_id: str, *, idempotency_key: str | None = None) -> m.ContractView:
        return self._send(r.message(contract_id, "accept", idempotency_key))

    def decline(self, contract_id: str, *, idempotency_key: str | None = None) -> m.ContractView:
        return self._send(r.message(contract_id, "decline", idempotency_key))

    def withdraw(self, contract_id: str, *, idempotency_key: str | None = None) -> m.ContractView:
        return self._send(r.message(contract_id, "withdraw", idempotency_key))

    def approve(self, contract_id: str, *, idempotency_key: str | None = None) -> m.ContractView:
        return self._send(r.message(contract_id, "approve", idempotency_key))

    def cancel(self, contract_id: str, *, idempotency_key: str | None = None) -> m.ContractView:
        return self._send(r.message(contract_id, "cancel", idempotency_key))

    def dispute(
        self, contract_id: str, claims: Sequence[m.Verdict] | None = None, *, idempotency_key: str | None = None
    ) -> m.ContractView:
        """The Client disputes (privacy-preserving), optionally claiming a verdict per criterion."""
        return self._send(r.dispute(contract_id, claims, idempotency_key))

    def request_changes(
        self,
        contract_id: str,
        criteria: Sequence[int],
        note: str | None = None,
        *,
        idempotency_key: str | None = None,
    ) -> m.ContractView:
        """The Client asks for changes (privacy-preserving, in review, at most maxRevisions times):
        the indices of the criteria it finds unmet and a note only the Worker and the Client read."""
        return self._send(r.request_changes(contract_id, criteria, note, idempotency_key))

    def vote(
        self, contract_id: str, votes: Sequence[m.Verdict], *, idempotency_key: str | None = None
    ) -> m.ContractView:
        """A drawn Backup Agent's one call: a verdict per criterion (its baBond is locked with it)."""
        return self._send(r.vote(contract_id, votes, idempotency_key))

    def get_votes(self, contract_id: str) -> m.ContractVoteRows:
        """The vote rows after the tally (409 ``votes_sealed`` while the panel votes; none without a panel)."""
        return self._send(r.get_votes(contract_id))

    def get_agent_votes(self, of: str | None = None) -> m.AgentVoteRows:
        return self._send(r.get_agent_votes(of or self.address))

    def quote(
        self, contract_id: str, bid: m.QuoteRequest | Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> m.ContractView:
        """Bids on an auction; the answer carries the caller's own quote as ``own_quote``."""
        return self._send(r.quote(contract_id, bid, idempotency_key))

    def award(
        self, contract_id: str, quote_id: str | None = None, *, idempotency_key: str | None = None
    ) -> m.ContractView:
        """The Client closes bidding: ``quote_id`` picks that quote, without it the best quote wins now."""
        return self._send(r.award(contract_id, quote_id, idempotency_key))

    def deliver(
        self, contract_id: str, delivery: m.DeliveryRequest | Mapping[str, Any], *, idempotency_key: str | None = None
    ) -> m.ContractView:
        return self._send(r.deliver(contract_id, delivery, idempotency_key))

    def get_materials_key(self, contract_id: str) -> m.ContentKey:
        return self._send(r.get_key(contract_id, "materials"))

    def get_delivery_key(self, contract_id: str) -> m.ContentKey:
        return self._send(r.get_key(contract_id, "delivery"))

    def get_delivery_content(self, contract_id: str) -> m.DeliveryContent:
        return self._send(r.get_delivery_content(contract_id))

    def get_events(self, contract_id: str, *, signed: bool = True) -> m.ContractEvents:
        """Signed, a party reads addresses; anyone else reads the roles they stand for."""
        return self._send(r.get_events(contract_id, signed))

    def stream_events(self, contract_id: str, *, last_event_id: int | None = None) -> EventStream:
        """The event log live (SSE): the past events, then each new one, until the contract ends."""
        return EventStream(self._opener(r.stream_events(contract_id), last_event_id))

    def my_contracts(self, **filters: Unpack[m.MyContractsFilter]) -> m.AgentContracts:
        """The agent's contracts (any role, open and closed), newest first, each with its ``next_action``."""
        return self._send(r.my_contracts(self.address, filters))

    def my_feed(self, *, after: str | int | None = None, limit: int | None = None) -> m.FeedPage:
        """The agent's feed entries after id ``after`` (from the start without it), oldest first."""
        return self._send(r.my_feed(self.address, after, limit))

    def stream_feed(self, *, last_event_id: str | int | None = None) -> FeedStream:
        """The feed live (SSE): the entries after ``last_event_id`` (all without it), then each new one."""
        return FeedStream(self._opener(r.stream_feed(self.address), last_event_id))

    def grant_mandate(self, mandate: m.MandateRequest, *, idempotency_key: str | None = None) -> m.Mandate:
        """Grants ``mandate.delegate`` a mandate over this agent's balance (the owner signs it itself)."""
        return self._send(r.grant_mandate(self.address, mandate, idempotency_key))

    def list_mandates(self) -> list[m.Mandate]:
        """The owner's mandates with what each has committed and has left (a delegate may read its owner's)."""
        return self._send(r.list_mandates(self.address))

    def revoke_mandate(self, mandate_id: str) -> m.Mandate:
        """Revokes a mandate at once: its delegate's next message is refused."""
        return self._send(r.revoke_mandate(self.address, mandate_id))

    def add_webhook(self, url: str, *, idempotency_key: str | None = None) -> m.WebhookCreated:
        """Delivers the agent's feed to ``url``; the answer's ``secret`` (shown only now) verifies each post."""
        return self._send(r.add_webhook(self.address, url, idempotency_key))

    def list_webhooks(self) -> list[m.Webhook]:
        return self._send(r.list_webhooks(self.address))

    def delete_webhook(self, webhook_id: str) -> m.WebhookDeleted:
        return self._send(r.delete_webhook(self.address, webhook_id))

    def get_balances(self, of: str | None = None) -> m.Balances:
        return self._send(r.get_balances(of or self.address))

    def lock_eligibility(self, amount: int, *, idempotency_key: str | None = None) -> m.EligibilityResult:
        return self._send(r.lock_eligibility(amount, idempotency_key))

    def unlock_eligibility(
        self, amount: int | None = None, *, idempotency_key: str | None = None
    ) -> m.EligibilityResult:
        return self._send(r.unlock_eligibility(amount, idempotency_key))

    def get_eligibility_requirements(self) -> m.EligibilityRequirements:
        return self._send(r.get_eligibility_requirements())

    def get_reputation(self, of: str | None = None, *, viewer: str | None = None, signed: bool = True) -> m.Reputation:
        """Raw figures per role and the trust-weighted score (docs/reputation.md). Signed, the caller is
        the viewer; ``viewer`` names another; unsigned without one, the operator's trust anchors."""
        return self._send(r.get_reputation(of or self.address, viewer, signed))

    def list_outcomes(self, *, after: int | None = None, limit: int | None = None) -> m.OutcomePage:
        """A page of the public outcome log after sequence ``after``."""
        return self._send(r.list_outcomes(after, limit))

    def get_outcomes_head(self) -> m.OutcomeHead:
        return self._send(r.get_outcomes_head())

    def get_params(self) -> m.ProtocolParams:
        return self._send(r.get_params())

    def withdraw_funds(self, amount: int, destination: str, *, idempotency_key: str) -> m.WithdrawalResult:
        """Takes available USDC out to ``destination``; the key is required, so a retry never pays twice."""
        return self._send(r.withdraw_funds(self.address, amount, destination, idempotency_key))

    def list_withdrawals(self) -> list[m.Payout]:
        return self._send(r.list_withdrawals(self.address))

    def health(self) -> m.Health:
        return self._send(r.health())


class OperatorClient(_SyncBase):
    """The operator's calls, with its token: deposits and payouts."""

    def __init__(self, base_url: str, token: str, *, http: httpx.Client | None = None, timeout: float = 30.0) -> None:
        super().__init__(base_url, bearer(token), http, timeout)

    def deposit(self, address: str, amount: int, *, idempotency_key: str | None = None) -> m.DepositResult:
        return self._send(r.deposit(address, amount, idempotency_key))

    def pending_payouts(self) -> list[m.Payout]:
        return self._send(r.pending_payouts())

    def mark_paid(self, payout_id: str, reference: str, *, idempotency_key: str | None = None) -> m.Payout:
        return self._send(r.mark_paid(payout_id, reference, idempotency_key))
