// The Worker cannot choose its panel. Each contract gets a secret of the service at
// creation; contract.created publishes only its sha256 (drawCommitment), the draw's seed is
// sha256(contractId:secret:deliveryHash), and contract.panel-drawn reveals the secret. The attack: the
// Worker delivers the SAME delivery hash on two contracts (a hash it could have ground offline) —
// the seeds differ by the secrets it never saw. Before the draw no API read (view, events, public or
// as a party) and no history event without the codec shows the secret; after it an auditor checks the
// commitment and recomputes each panel from the event log and the registry.
// Dev server, real worker, ledger and vault on SQLite, the app in process.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHash } from 'node:crypto';
import { Client } from '@temporalio/client';
import { contractWorkflowId } from '../../workflows/definitions';
import { drawFromCandidates, drawSeed } from '../../workflows/rules/draw';
import type { ContractCreatedEvent, PanelDrawnEvent } from '../../workflows/rules/events';
import { useAppHarness } from '../support/service';
import { call, eligibleAgents } from '../api/support';
import { contractBody, FUNDS, newAgent, type TestAgent } from '../support/fixtures';

const h = useAppHarness();

/** One delivery hash, used on both contracts: what a grinding Worker would pick. */
const GROUND = { uri: 'https://files.example/out.enc', sha256: '5e'.repeat(32), key: 'delivery-key-g' };

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Everything any caller can read of a contract through the API before the draw. */
async function everyRead(id: string, parties: TestAgent[]): Promise<string> {
  const texts: string[] = [];
  for (const who of [undefined, ...parties]) {
    for (const path of [`/contracts/${id}`, `/contracts/${id}/events`, `/contracts/${id}/votes`]) {
      const read = await call(h().app, who, 'GET', path);
      assert.ok(read.status < 500, `${path}: ${read.text}`);
      texts.push(read.text);
    }
  }
  return texts.join('\n');
}

test('the same delivery hash on two contracts: unpredictable seeds, revealed and recomputable after the draw', async () => {
  const client = newAgent();
  const worker = newAgent();
  await h().fund(client.address, FUNDS);
  await h().fund(worker.address, FUNDS);
  const bas = await eligibleAgents(h(), 5);

  const draws: { id: string; created: ContractCreatedEvent; drawn: PanelDrawnEvent; before: string }[] = [];
  for (let i = 0; i < 2; i++) {
    const created = await call(h().app, client, 'POST', '/contracts', {
      body: contractBody(worker.address, { verificationMode: 'standard' }),
    });
    assert.equal(created.status, 201, created.text);
    const id: string = created.json.contractId;
    assert.equal((await call(h().app, worker, 'POST', `/contracts/${id}/accept`, { body: {} })).status, 200);
    const before = await everyRead(id, [client, worker, bas[0]!]);
    // What the server's history shows anyone with Temporal access but without the codec key.
    const raw = new Client({ connection: h().env.connection, namespace: h().env.namespace ?? 'default' });
    const history = JSON.stringify(await raw.workflow.getHandle(contractWorkflowId(id)).fetchHistory());

    const delivered = await call(h().app, worker, 'POST', `/contracts/${id}/deliveries`, {
      body: { ...GROUND, content: { text: 'done' } },
    });
    assert.equal(delivered.status, 200, delivered.text);
    const events = (await call(h().app, client, 'GET', `/contracts/${id}/events`)).json.events as {
      type: string;
    }[];
    const createdEvent = events.find((e) => e.type === 'contract.created') as ContractCreatedEvent;
    const drawn = events.find((e) => e.type === 'contract.panel-drawn') as PanelDrawnEvent;
    assert.ok(drawn.secret !== undefined, 'the draw record reveals the secret');
    assert.ok(!before.includes(drawn.secret), 'no API read showed the secret before the draw');
    assert.ok(!history.includes(drawn.secret), 'the history without the codec does not show it');
    draws.push({ id, created: createdEvent, drawn, before });
  }

  const [a, b] = draws as [(typeof draws)[0], (typeof draws)[0]];
  assert.equal(a.drawn.deliverySha256, b.drawn.deliverySha256, 'the same ground delivery hash');
  assert.notEqual(a.drawn.secret, b.drawn.secret);
  assert.notEqual(a.drawn.seed, b.drawn.seed);
  for (const { id, created, drawn, before } of draws) {
    // The commitment was public from creation; the revealed secret matches it.
    assert.ok(before.includes(created.drawCommitment!), 'the commitment is public before the draw');
    assert.equal(sha256(drawn.secret!), created.drawCommitment);
    // An auditor recomputes the draw from the event log (and the registry it records).
    const recomputed = drawFromCandidates({ ...drawn, deliveryHash: drawn.deliverySha256 });
    assert.equal(recomputed.seed, drawn.seed);
    assert.deepEqual(recomputed.panel, drawn.panel);
    assert.equal(drawn.seed, sha256(`${id}:${drawn.secret}:${drawn.deliverySha256}`));
    assert.deepEqual(
      [...drawn.registryCandidates].sort(),
      bas.map((x) => x.address).sort(),
      'the registry: every eligible agent',
    );
    // What the Worker could compute before the draw (no secret) is not the seed.
    assert.notEqual(Buffer.from(drawSeed(id, drawn.deliverySha256)).toString('hex'), drawn.seed);
    // The view the parties read names the recorded panel.
    const view = (await call(h().app, client, 'GET', `/contracts/${id}`)).json;
    assert.deepEqual(view.backupAgents, drawn.panel);
  }
});
