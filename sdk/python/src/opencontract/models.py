"""Typed models of the API's bodies and answers (docs/api.md), with pydantic v2.

Attributes are snake_case; the wire is camelCase (each model takes either). Amounts are ``int`` minor
units here and decimal strings on the wire; times are timezone-aware ``datetime`` here and RFC 3339 UTC
with ``Z`` on the wire. Answers keep fields this version does not know (``model_extra``), so a newer
server does not break an older SDK; request bodies refuse unknown fields before anything is sent.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Annotated, Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    TypeAdapter,
)
from pydantic.alias_generators import to_camel
from typing_extensions import TypedDict


def _amount(value: Any) -> Any:
    if isinstance(value, str) and not value.isdecimal():
        raise ValueError("an amount is a decimal string of minor units")
    if isinstance(value, bool):
        raise ValueError("an amount is a whole number of minor units")
    return int(value) if isinstance(value, str) else value


def _rfc3339(value: datetime) -> str:
    return value.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


Amount = Annotated[int, BeforeValidator(_amount), Field(ge=0), PlainSerializer(str, return_type=str)]
"""Minor units (USDC and OCT have 6 decimals): ``int`` in Python, a decimal string on the wire."""
Instant = Annotated[AwareDatetime, PlainSerializer(_rfc3339, return_type=str)]
"""A timezone-aware time, sent as RFC 3339 UTC with ``Z``."""
Verdict = Literal["met", "not met", "unclear"]


class Model(BaseModel):
    """An answer: camelCase on the wire, unknown fields kept."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow", frozen=True)


class Body(BaseModel):
    """A request body: unknown fields refused, as the API refuses them."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")

    def wire(self) -> dict[str, Any]:
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)


# --- request bodies -------------------------------------------------------------------------------


class Criterion(Body):
    text: str
    check: dict[str, Any] | None = None


class ContentRef(Body):
    """An encrypted file: where it is, its sha256, and the key the vault keeps for the readers."""

    uri: str
    sha256: str
    key: str


class Deadlines(Body):
    match: Instant
    withdrawal: Instant
    delivery: Instant | None = None
    """Required without milestones; with them the last milestone's (may be left out)."""
    review: Instant | None = None


class MilestoneDeadlines(Body):
    delivery: Instant
    review: Instant | None = None


class Milestone(Body):
    """One milestone of a plan (docs/protocol.md §6a): worked, reviewed and paid on its own, in order."""

    title: str
    acceptance_criteria: list[str | Criterion]
    share_bps: int
    """Its share of the price in basis points; the shares sum to 10000."""
    deadlines: MilestoneDeadlines


class CreateContractRequest(Body):
    contract_type: Literal["fixed", "auction"]
    award_method: Literal["direct", "open"]
    verification_mode: Literal["standard", "privacy-preserving"] | None = None
    worker: str | None = None
    task_description: str
    acceptance_criteria: list[str | Criterion] | None = None
    """Required without milestones; left out with them (each milestone has its own)."""
    supplementary_materials: ContentRef | None = None
    amount: Amount
    """The fixed price, or the budget cap of an auction."""
    deadlines: Deadlines
    milestones: list[Milestone] | None = None
    """2 to 10 milestones, worked and settled one at a time (docs/protocol.md §6a)."""


class DeliveryRequest(Body):
    uri: str
    sha256: str
    key: str
    content: dict[str, Any] | None = None
    artifact: dict[str, Any] | None = None
    artifacts: dict[str, Any] | None = None
    artifact_ref: str | None = None
    summary: str | None = None
    confidence: float | None = None
    requested_payout: float | None = None
    evidence: dict[str, Any] | None = None


class QuoteRequest(Body):
    price: Amount
    confidence: float | None = None
    message: str | None = None


# --- answers --------------------------------------------------------------------------------------


class Balance(Model):
    available: Amount
    held: Amount


class AssetBalances(Model):
    usdc: Balance = Field(alias="USDC")
    oct: Balance = Field(alias="OCT")


class Balances(Model):
    address: str
    balances: AssetBalances


class EligibilityResult(Balances):
    locked: Amount | None = None
    released: Amount | None = None


class DepositResult(Balances):
    deposited: Amount
    asset: Literal["USDC"]


class Payout(Model):
    id: str
    address: str
    amount: Amount
    destination: str
    status: Literal["pending", "paid"]
    requested_at: Instant
    paid_at: Instant | None
    reference: str | None


class WithdrawalResult(Balances):
    withdrawal: Payout


class ContractDeadlines(Model):
    match: Instant
    withdrawal: Instant
    delivery: Instant
    review: Instant | None


class NextDeadline(Model):
    kind: str
    at: Instant


class ContractCriterion(Model):
    text: str
    check: dict[str, Any] | None = None


class Quote(Model):
    quote_id: str
    bidder: str
    price: Amount
    confidence: float | None
    message: str | None
    submitted_at: Instant


class StakeToMatch(Model):
    worker_stake_bps: int
    worker_stake: Amount | None
    rule: str


class MilestoneView(Model):
    """One milestone as a view shows it: ``pending`` until its turn, then the contract's status, then how it ended."""

    index: int
    title: str
    share_bps: int
    acceptance_criteria: list[ContractCriterion]
    status: str
    amount: Amount | None
    deadlines: dict[str, Any]
    criteria_met: list[Verdict] | None = None
    payment: Amount | None = None


class _ContractFields(Model):
    contract_id: str
    status: str
    contract_code: str
    contract_type: Literal["fixed", "auction"]
    award_method: Literal["direct", "open"]
    verification_mode: Literal["standard", "privacy-preserving"]
    task_description: str
    acceptance_criteria: list[ContractCriterion]
    price: Amount | None
    budget: Amount | None
    worker_stake: Amount | None
    deadlines: ContractDeadlines
    next_deadline: NextDeadline | None
    created_at: Instant
    quote_count: int | None
    own_quote: Quote | None = None
    stake_to_match: StakeToMatch | None = None
    revision_count: int = 0
    """Change requests the Client has made (privacy-preserving mode; the current milestone's)."""
    max_revisions: int = 0
    milestones: list[MilestoneView] | None = None
    """The milestones in order, or None without them."""
    current_milestone: int | None = None


class PublicContractView(_ContractFields):
    """What anyone may read of a contract."""

    view: Literal["public"]


class Delivered(Model):
    uri: str
    sha256: str
    content_hash: str
    delivered_at: Instant
    round: int = 0
    """0, or n for a redelivery after the n-th change request."""


class Revision(Model):
    """A change request: the criteria found unmet, the note (the Client and the Worker only), the deadlines it set."""

    requested_at: Instant
    criteria: list[int]
    note: str | None
    delivery_deadline: Instant
    review_deadline: Instant


class FileRef(Model):
    uri: str
    sha256: str


class Voting(Model):
    drawn_at: Instant
    ends_at: Instant
    tallied: bool


class KeyReaders(Model):
    materials: list[str]
    delivery: list[str]


class PartyContractView(_ContractFields):
    """A party's view (the Client, the Worker, a drawn Backup Agent), read signed."""

    view: Literal["party"]
    role: Literal["client", "worker", "backup-agent"]
    client: str
    worker: str | None
    criteria_met: list[Verdict] | None
    backup_agents: list[str]
    escrowed_funds: Amount
    dispute_bond: Amount | None
    payment: Amount | None
    materials: FileRef | None
    delivery: Delivered | None
    cancellation_reason: str | None
    params_version: int
    worker_stake_bps: int
    dispute_claims: list[Verdict] | None
    voting: Voting | None
    key_readers: KeyReaders
    auto_verification: dict[str, Any] | None
    quotes: list[Quote] | None = None
    winning_quote_id: str | None
    revisions: list[Revision] = []


ContractView = Annotated[PartyContractView | PublicContractView, Field(discriminator="view")]
"""The party view for a signed party, the public view for anyone else: test ``view.view``."""
contract_view = TypeAdapter(ContractView)


class ListedContract(Model):
    contract_id: str
    status: str
    contract_code: str | None
    next_deadline: Instant | None
    created_at: Instant
    closed_at: Instant | None
    quote_count: int | None


class ContractPage(Model):
    contracts: list[ListedContract]
    next_cursor: str | None
    """Pass back as ``cursor`` (with the same filters) for the next page; ``None`` on the last."""


class ContentKey(Model):
    contract_id: str
    kind: Literal["materials", "delivery"]
    uri: str
    sha256: str
    key: str


class DeliveryContent(Model):
    contract_id: str
    uri: str
    sha256: str
    content_hash: str
    content: dict[str, Any]
    confidence: float | None = None


class ContractEvent(Model):
    """One event of a contract's content-free log; its other fields depend on ``type``."""

    type: str
    contract_id: str
    at: Instant
    actor: str


class ContractEvents(Model):
    contract_id: str
    events: list[ContractEvent]


class VoteRow(Model):
    contract_id: str
    backup_agent: str
    criterion_index: int
    vote: Literal["met", "not met", "unclear", "no vote"]
    majority_outcome: Verdict
    bond_outcome: Literal["returned", "slashed", "partially slashed"]
    reward: Amount
    """OCT minor units minted for this row."""


class ContractVoteRows(Model):
    contract_id: str
    rows: list[VoteRow]


class AgentVoteRow(VoteRow):
    milestone_index: int | None
    """The milestone whose panel this row is of (0-based); None for a contract without milestones."""


class AgentVoteRows(Model):
    address: str
    rows: list[AgentVoteRow]


class OutcomeCriterion(Model):
    outcome: Verdict
    score: float | None
    """The automatic verifier's score, for a machine-checked criterion."""


class OutcomeRecord(Model):
    """One record of the public, hash-chained outcome log (docs/reputation.md)."""

    sequence: int
    prev_hash: str
    hash: str
    contract_id: str
    milestone_index: int | None
    role: Literal["client", "worker", "backup-agent"]
    party: str
    counterparty: str | None
    amount: Amount
    criteria_total: int
    criteria_met: int
    criteria_unclear: int
    criteria: list[OutcomeCriterion]
    ending: str
    disputed: bool
    appealed_by: Literal["client", "worker"] | None
    revisions_requested: int
    difficulty: Literal["trivial", "standard", "challenging", "expert"]
    votes: list[Literal["met", "not met", "unclear", "no vote"]] | None
    ended_at: str


class OutcomePage(Model):
    records: list[OutcomeRecord]
    next: int | None
    """The ``after`` of the next page; None at the head."""


class OutcomeHead(Model):
    sequence: int
    hash: str


class WorkerFigures(Model):
    contracts: int
    volume: Amount
    credit: float
    withdrawals: int
    absences: int
    disputes_lost: int


class ClientFigures(Model):
    contracts: int
    volume: Amount
    reviews_timed_out: int
    disputes_raised: int
    disputes_upheld: int


class BackupAgentFigures(Model):
    seats: int
    votes_cast: int
    votes_coherent: int
    missed_votes: int


class RawReputation(Model):
    worker: WorkerFigures
    client: ClientFigures
    backup_agent: BackupAgentFigures
    counterparties: int


class Trust(Model):
    score: float | None
    """Personalized PageRank × graph size from the viewer, × the share of the agent's paid record that
    traces back to the viewer's money; None without a viewer (see ``reason``)."""
    from_: Literal["viewer", "anchors"] | None = Field(default=None, alias="from")
    viewer: str | None
    reason: str | None


class Reputation(Model):
    address: str
    through: int
    raw: RawReputation
    trust: Trust


class EligibilityRequirements(Model):
    eligibility_stake: Amount
    ba_bond: Amount
    ba_panel_size: int


class ProtocolParams(Model):
    version: int
    worker_stake_bps: int
    withdrawal_slash_bps: int
    absent_slash_client_bps: int
    dispute_bond_bps: int
    ba_panel_size: int
    ba_eligibility_stake: Amount
    ba_bond: Amount
    unclear_slash_bps: int
    reward_per_criterion: Amount
    unclear_reward_bps: int
    ba_voting_window: int
    """Milliseconds."""


class Health(Model):
    status: Literal["ok", "unavailable"]
    temporal: Literal["up", "down"]


# --- an agent's own contracts, feed and webhooks (docs/agents.md) ----------------------------------

AgentRole = Literal["client", "worker", "bidder", "backup-agent"]
ActionKind = Literal["accept", "deliver", "review", "vote", "appeal"]


class MyContractsFilter(TypedDict, total=False):
    """What ``my_contracts`` takes: a role, open or closed only, the ``next_cursor`` of a page, a page size."""

    role: AgentRole
    open: bool
    cursor: str
    limit: int


class AgentContract(Model):
    """One contract the agent takes part in, with what it is expected to do there now."""

    contract_id: str
    role: AgentRole
    """The main role (client, worker, backup-agent, bidder, in that order), or the role filtered by."""
    roles: list[AgentRole]
    status: str
    next_action: ActionKind | None
    action_deadline: Instant | None
    """The action is possible strictly before it."""


class AgentContracts(Model):
    contracts: list[AgentContract]
    next_cursor: str | None
    """Pass back as ``cursor`` (with the same filters) for the next page; ``None`` on the last."""


class NextAction(Model):
    action: ActionKind
    deadline: Instant


class FeedEntry(Model):
    """One entry of the agent's feed. ``id`` is a decimal string, stable and increasing per agent: the
    ``after=`` cursor, the stream's ``last_event_id`` and the webhook's ``webhook-id``."""

    id: str
    agent: str
    contract_id: str
    type: Literal["contract.event", "agent.named", "agent.drawn", "agent.reminder"]
    at: Instant
    event: dict[str, Any] | None = None
    """``contract.event``: the contract's event (``type``, ``contractId``, ``at``, ``actor``, …)."""
    role: AgentRole | None = None
    next_action: NextAction | None = None


class FeedPage(Model):
    entries: list[FeedEntry]
    next: str
    """The last entry's id (``after`` when there was none): ask again with ``after=next``."""


class Webhook(Model):
    """A subscription and how its deliveries go (the secret is shown only when it is created)."""

    id: str
    url: str
    created_at: Instant
    delivered_through: str
    """The last feed entry id delivered or given up on."""
    failures: int
    last_error: str | None
    last_failure_at: Instant | None
    last_success_at: Instant | None
    abandoned: int


class WebhookCreated(Model):
    id: str
    url: str
    created_at: Instant
    secret: str
    """The Standard Webhooks signing secret (``whsec_…``): keep it, it is shown only here."""


class WebhookDeleted(Model):
    id: str
    deleted: Literal[True]


MandateRole = Literal["client", "worker", "backup-agent"]


class MandateLimitsRequest(Body):
    """What a delegate key may commit of its owner's balance (amounts in minor units)."""

    per_contract: Amount
    total: Amount
    per_day: Amount
    roles: list[MandateRole] | None = None
    counterparties: list[str] | None = None


class MandateRequest(Body):
    """A mandate the owner grants to ``delegate`` until ``expires_at`` (docs/agents.md "Mandates")."""

    delegate: str
    limits: MandateLimitsRequest
    expires_at: Instant


class MandateLimits(Model):
    per_contract: Amount
    total: Amount
    per_day: Amount
    roles: list[MandateRole] | None
    counterparties: list[str] | None


class Mandate(Model):
    """A mandate with what it has committed (open holds) and what it may still commit."""

    id: str
    owner: str
    delegate: str
    limits: MandateLimits
    expires_at: Instant
    created_at: Instant
    revoked_at: Instant | None
    state: Literal["live", "revoked", "expired"]
    committed: Amount
    committed_last_day: Amount
    left: Amount
