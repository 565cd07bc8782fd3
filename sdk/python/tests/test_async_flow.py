"""The async client against the real service: an FOP open tender found through the listing, accepted,
delivered and approved while another task follows the contract's event stream to its end; then the
Worker takes its pay out and the operator marks the payout paid."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from support import DELIVERY, FUNDS, PRICE, WORKER_STAKE, contract_terms

from opencontract import ApiError, random_private_key
from opencontract.aio import AsyncAgentClient, AsyncOperatorClient
from opencontract.events import StreamedEvent
from opencontract.models import PartyContractView


async def balances(agent: AsyncAgentClient) -> tuple[int, int]:
    usdc = (await agent.get_balances()).balances.usdc
    return usdc.available, usdc.held


async def until(read, done, seconds: float = 30):
    async with asyncio.timeout(seconds):
        while not done(value := await read()):
            await asyncio.sleep(0.2)
    return value


@pytest.mark.asyncio
async def test_fop_open_tender_with_the_async_client(service) -> None:
    async with (
        AsyncOperatorClient(service.url, service.operator_token) as operator,
        AsyncAgentClient(service.url, random_private_key()) as client,
        AsyncAgentClient(service.url, random_private_key()) as worker,
        AsyncAgentClient(service.url, random_private_key()) as rival,
    ):
        await asyncio.gather(*(operator.deposit(a.address, FUNDS) for a in (client, worker, rival)))
        created = await client.create_contract(contract_terms())
        assert (created.status, created.contract_code) == ("created", "FOP")
        contract_id = created.contract_id

        async def follow() -> list[StreamedEvent]:
            stream = client.stream_events(contract_id)
            events = [streamed async for streamed in stream]
            assert stream.end is not None and stream.end.reason == "terminal"
            return events

        following = asyncio.create_task(follow())

        listed = await until(
            lambda: worker.list_contracts(), lambda page: any(c.contract_id == contract_id for c in page)
        )
        assert next(c for c in listed if c.contract_id == contract_id).status == "created"
        public = await worker.get_contract(contract_id)
        assert public.view == "public"
        assert public.stake_to_match is not None and public.stake_to_match.worker_stake == WORKER_STAKE

        # Two Workers race to accept; exactly one is matched, the other is refused with nothing held.
        results = await asyncio.gather(worker.accept(contract_id), rival.accept(contract_id), return_exceptions=True)
        refused = [r for r in results if isinstance(r, ApiError)]
        assert len(refused) == 1 and refused[0].status == 409, results
        worker, loser = (rival, worker) if isinstance(results[0], ApiError) else (worker, rival)
        assert await balances(worker) == (FUNDS - WORKER_STAKE, WORKER_STAKE)
        assert await balances(loser) == (FUNDS, 0)

        await worker.deliver(contract_id, DELIVERY)
        await client.approve(contract_id)
        settled = await until(lambda: client.get_contract(contract_id), lambda v: v.status == "settled-fully-met")
        assert isinstance(settled, PartyContractView) and settled.payment == PRICE
        assert await balances(client) == (FUNDS - PRICE, 0)
        assert await balances(worker) == (FUNDS + PRICE, 0)

        streamed = await asyncio.wait_for(following, 30)
        assert [s.event.type for s in streamed] == [e.type for e in (await client.get_events(contract_id)).events]
        assert streamed[0].event.type == "contract.created" and streamed[-1].event.type == "contract.settled"

        # Money out: once per key, then the operator's payout rail marks it paid.
        key = f"payout-{uuid.uuid4()}"
        destination = "0x" + "ab" * 20
        first = await worker.withdraw_funds(PRICE, destination, idempotency_key=key)
        again = await worker.withdraw_funds(PRICE, destination, idempotency_key=key)
        assert first.withdrawal.id == again.withdrawal.id and first.withdrawal.status == "pending"
        assert await balances(worker) == (FUNDS, 0)
        with pytest.raises(ApiError) as short:
            await worker.withdraw_funds(FUNDS + 1, destination, idempotency_key=f"payout-{uuid.uuid4()}")
        assert (short.value.status, short.value.code) == (402, "insufficient_funds")
        assert first.withdrawal.id in [p.id for p in await operator.pending_payouts()]
        paid = await operator.mark_paid(first.withdrawal.id, "bank-ref-1")
        assert (paid.status, paid.reference) == ("paid", "bank-ref-1") and paid.paid_at is not None
        assert [p.status for p in await worker.list_withdrawals()] == ["paid"]
