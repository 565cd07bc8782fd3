// The MCP server driven by the MCP SDK's own Client over stdio (the server spawned as a child process,
// the agent's key in its environment), against the dev server and the real ledger: an FDP contract from
// creation to settled-fully-met and a withdrawal, a refused action as a tool error that names what was
// wrong, and a dispute decided by a one-agent panel. Exact balances after each step that moves money.
// With MCP_TRANSCRIPT=<file> the first session is written there as Markdown.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { useServiceHarness } from '../support/service';
import { DELIVERY, fixedTerms, fund } from '../e2e/support';
import { connectMcpAgent, transcriptMarkdown, type McpAgent, type TranscriptEntry } from './support';
import {
  BA_BOND,
  DISPUTE_BOND,
  ELIGIBILITY_STAKE,
  FEE_SHARE,
  FUNDS,
  PRICE,
  REWARD,
  WORKER_STAKE,
} from '../support/fixtures';
import { eventually } from '../support/eventually';

// One Backup Agent per panel keeps the dispute to three MCP sessions.
const h = useServiceHarness({ params: { baPanelSize: 1 } });

const sessions: McpAgent[] = [];
after(async () => {
  for (const s of sessions) await s.close();
});

async function session(name: string, transcript: TranscriptEntry[]): Promise<McpAgent> {
  const s = await connectMcpAgent(h().url(), name, transcript);
  sessions.push(s);
  return s;
}

interface Balances {
  balances: Record<'USDC' | 'OCT', { available: string; held: string }>;
}
/** [USDC available, USDC held, OCT available] through the agent's own get_balances tool. */
async function balances(a: McpAgent): Promise<[bigint, bigint, bigint]> {
  const { balances: b } = await a.call<Balances>('get_balances');
  return [BigInt(b.USDC.available), BigInt(b.USDC.held), BigInt(b.OCT.available)];
}

function untilStatus(a: McpAgent, id: string, prefix: string): Promise<{ status: string }> {
  return eventually(
    () => a.call<{ status: string }>('get_contract', { contractId: id }),
    (view) => view.status.startsWith(prefix),
    30_000,
  );
}

describe('the MCP server over stdio, against the dev server', () => {
  test('FDP from creation to settled-fully-met, a withdrawal, and refusals as tool errors', async () => {
    const transcript: TranscriptEntry[] = [];
    const client = await session('client', transcript);
    const worker = await session('worker', transcript);
    const tools = await client.listTools();
    for (const name of ['list_open_contracts', 'get_contract', 'get_contract_events', 'create_contract']) {
      assert.ok(tools.includes(name), name);
    }
    for (const name of [
      'accept_contract',
      'quote',
      'award',
      'deliver',
      'approve',
      'dispute',
      'request_changes',
      'vote',
    ]) {
      assert.ok(tools.includes(name), name);
    }
    for (const name of ['my_contracts', 'my_feed', 'add_webhook', 'list_webhooks', 'delete_webhook']) {
      assert.ok(tools.includes(name), name);
    }
    for (const name of ['lock_eligibility', 'unlock_eligibility', 'get_balances', 'withdraw_funds']) {
      assert.ok(tools.includes(name), name);
    }
    await fund(h(), client.address);
    await fund(h(), worker.address);

    const created = await client.call<{ contractId: string; status: string; contractCode: string }>(
      'create_contract',
      fixedTerms(worker.address),
    );
    assert.equal(created.status, 'created');
    assert.equal(created.contractCode, 'FDP');
    const id = created.contractId;
    assert.deepEqual(await balances(client), [FUNDS - PRICE, PRICE, 0n]);
    // "What do I have to do now?": the named Worker finds the contract and its next action by itself.
    const mine = await eventually(
      () => worker.call<{ contracts: { contractId: string; nextAction: string | null }[] }>('my_contracts'),
      (page) => page.contracts.length === 1,
      30_000,
    );
    assert.deepEqual(
      mine.contracts.map((c) => [c.contractId, c.nextAction]),
      [[id, 'accept']],
    );
    const feed = await worker.call<{ entries: { type: string; contractId: string }[] }>('my_feed');
    assert.ok(feed.entries.some((e) => e.type === 'agent.named' && e.contractId === id));

    await worker.call('accept_contract', { contractId: id });
    assert.deepEqual(await balances(worker), [FUNDS - WORKER_STAKE, WORKER_STAKE, 0n]);
    // Accepting twice is refused, with the reason, and moves nothing.
    const again = await worker.refused('accept_contract', { contractId: id });
    assert.match(again, /^409 /);
    assert.deepEqual(await balances(worker), [FUNDS - WORKER_STAKE, WORKER_STAKE, 0n]);

    const materials = await worker.call<{ key: string }>('get_materials_key', { contractId: id });
    assert.equal(materials.key, 'materials-secret-key');
    const delivered = await worker.call<{ status: string }>('deliver', { contractId: id, ...DELIVERY });
    assert.equal(delivered.status, 'under-review');
    const seen = await client.call<{ key: { key: string } }>('get_delivery', { contractId: id });
    assert.equal(seen.key.key, DELIVERY.key);
    // A change request sends the delivery back; the Worker delivers again.
    const revised = await client.call<{ status: string; revisionCount: number }>('request_changes', {
      contractId: id,
      criteria: [1],
      note: 'mention section 3 too',
    });
    assert.deepEqual([revised.status, revised.revisionCount], ['matched', 1]);
    const redelivered = await worker.call<{ status: string }>('deliver', {
      contractId: id,
      ...DELIVERY,
      sha256: 'de'.repeat(32),
    });
    assert.equal(redelivered.status, 'under-review');
    await client.call('approve', { contractId: id });
    assert.equal((await untilStatus(client, id, 'settled-')).status, 'settled-fully-met');
    assert.deepEqual(await balances(client), [FUNDS - PRICE, 0n, 0n]);
    assert.deepEqual(await balances(worker), [FUNDS + PRICE, 0n, 0n]);
    const { events } = await client.call<{ events: { type: string }[] }>('get_contract_events', {
      contractId: id,
    });
    assert.deepEqual(
      events.map((e) => e.type).filter((t) => t.startsWith('contract.')),
      [
        'contract.created',
        'contract.matched',
        'contract.delivered',
        'contract.delivered',
        'contract.resolved',
        'contract.settled',
      ],
    );

    // The Client reads the Worker's reputation: its trust is weighed from the Client, who paid it.
    const reputation = await eventually(
      () =>
        client.call<{ raw: { worker: { contracts: number; volume: string } }; trust: { score: number } }>(
          'get_reputation',
          { address: worker.address },
        ),
      (r) => r.raw.worker.contracts === 1,
    );
    assert.equal(reputation.raw.worker.volume, PRICE.toString());
    assert.ok(reputation.trust.score > 0);

    // The Worker takes 2 USDC out; more than it has is refused as insufficient funds.
    const tooMuch = await worker.refused('withdraw_funds', {
      amount: (FUNDS + PRICE + 1n).toString(),
      destination: 'bank:DE89 3704',
    });
    assert.match(tooMuch, /^402 insufficient_funds: /);
    const out = await worker.call<{ withdrawal: { status: string; amount: string } }>('withdraw_funds', {
      amount: '2000000',
      destination: 'bank:DE89 3704',
    });
    assert.deepEqual([out.withdrawal.status, out.withdrawal.amount], ['pending', '2000000']);
    assert.deepEqual(await balances(worker), [FUNDS + PRICE - 2_000_000n, 0n, 0n]);
    assert.equal((await worker.call<unknown[]>('list_withdrawals')).length, 1);
    // A bad argument is refused by the tool's own schema, naming the field.
    const bad = await worker.refused('withdraw_funds', { amount: '-1', destination: 'x' });
    assert.match(bad, /amount/);

    if (process.env.MCP_TRANSCRIPT) writeFileSync(process.env.MCP_TRANSCRIPT, transcriptMarkdown(transcript));
  });

  test('a dispute decided by the panel: the Backup Agent votes through its own MCP session', async () => {
    const transcript: TranscriptEntry[] = [];
    const client = await session('client', transcript);
    const worker = await session('worker', transcript);
    const ba = await session('backup-agent', transcript);
    await fund(h(), client.address);
    await fund(h(), worker.address);
    await fund(h(), ba.address, ELIGIBILITY_STAKE + BA_BOND);
    const required = await ba.call<{ eligibilityStake: string; baBond: string }>(
      'get_eligibility_requirements',
    );
    assert.deepEqual(required, { eligibilityStake: '100000000', baBond: '10000000', baPanelSize: 1 });
    await ba.call('lock_eligibility', { amount: required.eligibilityStake });
    assert.deepEqual(await balances(ba), [BA_BOND, ELIGIBILITY_STAKE, 0n]);

    const { contractId: id } = await client.call<{ contractId: string }>(
      'create_contract',
      fixedTerms(worker.address),
    );
    await worker.call('accept_contract', { contractId: id });
    await worker.call('deliver', { contractId: id, ...DELIVERY });
    const disputed = await client.call<{ status: string; backupAgents: string[] }>('dispute', {
      contractId: id,
    });
    assert.equal(disputed.status, 'disputed');
    assert.deepEqual(disputed.backupAgents, [ba.address]);
    // The Dispute Bond and the panel fee of its one seat, held together.
    assert.deepEqual(await balances(client), [
      FUNDS - PRICE - DISPUTE_BOND - FEE_SHARE,
      PRICE + DISPUTE_BOND + FEE_SHARE,
      0n,
    ]);
    // Sealed until the tally.
    assert.match(await client.refused('get_votes', { contractId: id }), /^409 votes_sealed/);

    await ba.call('vote', { contractId: id, votes: ['met', 'not met'] });
    await client.call('appeal', { contractId: id, waive: true });
    await worker.call('appeal', { contractId: id, waive: true });
    assert.equal((await untilStatus(client, id, 'settled-')).status, 'settled-partially-met');
    // Criteria Met [met, not met]: floor(2_500_000 × 1 / 2) to the Worker; the rest, the stake and the bond back.
    const payment = 1_250_000n;
    assert.deepEqual(await balances(client), [FUNDS - payment - FEE_SHARE, 0n, 0n]);
    assert.deepEqual(await balances(worker), [FUNDS + payment, 0n, 0n]);
    // The BA: bond back, one reward per criterion, the panel fee (it voted); the eligibility stake stays locked.
    assert.deepEqual(await balances(ba), [BA_BOND + FEE_SHARE, ELIGIBILITY_STAKE, 2n * REWARD]);
    const votes = await client.call<{ rows: { vote: string }[] }>('get_votes', { contractId: id });
    assert.deepEqual(
      votes.rows.map((r) => r.vote),
      ['met', 'not met'],
    );
  });
});
