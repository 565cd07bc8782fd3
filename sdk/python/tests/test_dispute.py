"""A privacy-preserving dispute decided by a Backup Agent panel, through the sync client against the
real service: three agents lock their eligibility stake, an FDP contract with three criteria is
delivered and disputed, the drawn panel votes (one dissents on one criterion), the tally settles the
contract partially met; then the exact balances of every party and the vote rows. Sealed votes and a
stranger's vote are refused with nothing changed.

This is the only test of the session that locks eligibility, so the three agents are the whole pool
and all of them are drawn."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from support import (
    BA_BOND,
    DELIVERY,
    DISPUTE_BOND,
    ELIGIBILITY_STAKE,
    FEE_SHARE,
    FUNDS,
    PANEL_FEE,
    PRICE,
    REWARD,
    WORKER_STAKE,
    balances_of,
    contract_terms,
    eventually,
)

from opencontract import AgentClient, ApiError
from opencontract.models import PartyContractView, VoteRow

NewAgent = Callable[..., AgentClient]

CRITERIA = ["every section translated", "code blocks untouched", "links still resolve"]
BA_FUNDS = 120_000_000
SLICE = 3_333_333  # floor(baBond 10_000_000 / 3 criteria)
# Criteria met [met, not met, met]: floor(2_500_000 × 2 / 3); the rest of the escrow, the Worker Stake
# and the Dispute Bond go back.
PAYMENT = 1_666_666
MAJORITY = ["met", "not met", "met"]
DISSENT = ["met", "met", "met"]


def expected_rows(contract_id: str, ba: str, votes: list[str]) -> list[tuple]:
    return [
        (
            contract_id,
            ba,
            i,
            vote,
            MAJORITY[i],
            "returned" if vote == MAJORITY[i] else "slashed",
            REWARD if vote == MAJORITY[i] else 0,
        )
        for i, vote in enumerate(votes)
    ]


def rows(vote_rows: Sequence[VoteRow]) -> list[tuple]:
    return sorted(
        (r.contract_id, r.backup_agent, r.criterion_index, r.vote, r.majority_outcome, r.bond_outcome, r.reward)
        for r in vote_rows
    )


def test_dispute_panel_votes_and_settles_partially_met(new_agent: NewAgent) -> None:
    client, worker, stranger = new_agent(), new_agent(), new_agent(funds=BA_BOND)
    bas = [new_agent(funds=BA_FUNDS) for _ in range(3)]
    requirements = client.get_eligibility_requirements()
    assert (requirements.eligibility_stake, requirements.ba_bond) == (ELIGIBILITY_STAKE, BA_BOND)
    for ba in bas:
        assert ba.lock_eligibility(ELIGIBILITY_STAKE).locked == ELIGIBILITY_STAKE
        assert balances_of(ba) == (BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE, 0, 0)

    created = client.create_contract(contract_terms(worker.address, CRITERIA))
    contract_id = created.contract_id
    assert worker.accept(contract_id).status == "matched"
    assert worker.deliver(contract_id, DELIVERY).status == "under-review"

    disputed = client.dispute(contract_id, ["met", "not met", "not met"])
    assert isinstance(disputed, PartyContractView)
    assert disputed.status == "disputed"
    assert sorted(disputed.backup_agents) == sorted(ba.address for ba in bas)
    # The Dispute Bond and the panel fee it brings are held together.
    assert balances_of(client) == (FUNDS - PRICE - DISPUTE_BOND - PANEL_FEE, PRICE + DISPUTE_BOND + PANEL_FEE, 0, 0)
    assert balances_of(worker) == (FUNDS - WORKER_STAKE, WORKER_STAKE, 0, 0)

    ba0, ba1, ba2 = bas
    assert ba0.get_delivery_key(contract_id).key == DELIVERY["key"]
    ba0.vote(contract_id, MAJORITY)
    ba1.vote(contract_id, MAJORITY, idempotency_key=f"vote-{contract_id}")
    # The same vote retried with its key answers again. A vote moves no money: it stakes the bond its
    # seat already holds out of the eligibility stake.
    ba1.vote(contract_id, MAJORITY, idempotency_key=f"vote-{contract_id}")
    seated = (BA_FUNDS - ELIGIBILITY_STAKE, ELIGIBILITY_STAKE, 0, 0)
    assert balances_of(ba0) == seated
    assert balances_of(ba1) == seated

    # Before the tally the ballots are sealed, and a stranger may not vote.
    with pytest.raises(ApiError) as sealed:
        stranger.get_votes(contract_id)
    assert (sealed.value.status, sealed.value.code) == (409, "votes_sealed")
    assert stranger.get_agent_votes(ba0.address).rows == []
    with pytest.raises(ApiError) as off_panel:
        stranger.vote(contract_id, DISSENT)
    assert (off_panel.value.status, off_panel.value.code) == (403, "not_on_panel")
    assert balances_of(stranger) == (BA_BOND, 0, 0, 0)
    still = client.get_contract(contract_id)
    assert isinstance(still, PartyContractView) and still.voting is not None and not still.voting.tallied

    # The last ballot triggers the tally; nobody appeals, and the contract settles when the (short, in
    # these tests) appeal window passes.
    ba2.vote(contract_id, DISSENT)
    settled = eventually(lambda: client.get_contract(contract_id), lambda v: v.status.startswith("settled-"))
    assert isinstance(settled, PartyContractView)
    assert settled.status == "settled-partially-met"
    assert settled.criteria_met == MAJORITY
    assert settled.payment == PAYMENT

    assert balances_of(client) == (FUNDS - PAYMENT - PANEL_FEE, 0, 0, 0)
    assert balances_of(worker) == (FUNDS + PAYMENT, 0, 0, 0)
    # Agreeing BAs: bond returned, a reward per criterion in OCT, a share of the panel fee (all three
    # voted); the eligibility stake stays locked.
    agreeing = (BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE, ELIGIBILITY_STAKE, 3 * REWARD, 0)
    assert balances_of(ba0) == agreeing
    assert balances_of(ba1) == agreeing
    # The dissenter: the criterion-1 slice of its seat's bond slashed from its eligibility stake, two rewards.
    assert balances_of(ba2) == (BA_FUNDS - ELIGIBILITY_STAKE + FEE_SHARE, ELIGIBILITY_STAKE - SLICE, 2 * REWARD, 0)
    assert balances_of(stranger) == (BA_BOND, 0, 0, 0)

    expected = sorted(
        expected_rows(contract_id, ba0.address, MAJORITY)
        + expected_rows(contract_id, ba1.address, MAJORITY)
        + expected_rows(contract_id, ba2.address, DISSENT)
    )
    public_rows = stranger.get_votes(contract_id)
    assert public_rows.contract_id == contract_id
    assert rows(public_rows.rows) == expected
    for ba in bas:
        own = ba.get_agent_votes()
        assert own.address == ba.address
        assert rows(own.rows) == [row for row in expected if row[1] == ba.address]
        assert all(r.milestone_index is None for r in own.rows)  # a contract without milestones

    # The eligibility stake comes back on request.
    released = ba0.unlock_eligibility()
    assert released.released == ELIGIBILITY_STAKE
    assert balances_of(ba0) == (BA_FUNDS + FEE_SHARE, 0, 3 * REWARD, 0)
