// A refused delivery must not lock the Worker out. The key and content reach the
// write-once vault only once the workflow has accepted the delivery, and ingest refuses what the
// workflow would refuse (a confidence outside [0, 1]) with 400 naming the field. After a refusal the
// corrected delivery is accepted, the Client approves, the contract settles with exact balances.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Client } from '@temporalio/client';
import { createTemporalClient } from '../../service/temporal-client';
import { deliverUpdate } from '../../workflows/definitions';
import { useAppHarness } from '../support/service';
import { call, matchedContract, type Matched } from '../api/support';
import { appBeside, assertNothingHeld, type SideApp } from './side-app';
import { DELIVERY_REF, FUNDS, PRICE } from '../support/fixtures';

const h = useAppHarness();

async function assertNothingDelivered(m: Matched): Promise<void> {
  const view = await call(h().app, m.client, 'GET', `/contracts/${m.id}`);
  assert.equal(view.json.status, 'matched');
  assert.equal(view.json.delivery, null);
  assert.equal(await h().vault.get(m.id, 'delivery'), undefined);
  assert.equal(await h().vault.getContent(m.id, 'delivery'), undefined);
}

/** The corrected delivery is taken, the Client approves: settled, the price moved once, nothing held. */
async function settlesAfterCorrection(app: SideApp['app'], m: Matched): Promise<void> {
  const corrected = await call(app, m.worker, 'POST', `/contracts/${m.id}/deliveries`, {
    body: { ...DELIVERY_REF, key: 'corrected-key', content: { text: 'done', confidence: 0.9 } },
  });
  assert.equal(corrected.status, 200, corrected.text);
  assert.equal(corrected.json.status, 'under-review');
  assert.equal(await h().vault.get(m.id, 'delivery'), 'corrected-key');
  const key = await call(app, m.client, 'GET', `/contracts/${m.id}/keys/delivery`);
  assert.equal(key.status, 200, key.text);
  assert.equal(key.json.key, 'corrected-key');

  const approved = await call(app, m.client, 'POST', `/contracts/${m.id}/approve`, { body: {} });
  assert.equal(approved.status, 200, approved.text);
  assert.equal(approved.json.status, 'settled-fully-met');
  const client = await h().balances(m.client.address);
  const worker = await h().balances(m.worker.address);
  assert.deepEqual([client.USDC.available, client.USDC.held], [FUNDS - PRICE, 0n]);
  assert.deepEqual([worker.USDC.available, worker.USDC.held], [FUNDS + PRICE, 0n]);
  await assertNothingHeld(h(), [m.client.address, m.worker.address]);
}

test('a confidence outside [0, 1] is refused by ingest with 400 naming it; the corrected delivery settles', async () => {
  const m = await matchedContract(h());
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ confidence: 1.5 }, 'confidence'],
    [{ content: { text: 'x', confidence: -0.1 } }, 'content.confidence'],
    [{ artifact: { confidence: 2 } }, 'artifact.confidence'],
    [{ content: { artifacts: { confidence: 9 } } }, 'content.artifacts.confidence'],
  ];
  for (const [fields, field] of cases) {
    const res = await call(h().app, m.worker, 'POST', `/contracts/${m.id}/deliveries`, {
      body: { ...DELIVERY_REF, ...fields },
    });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.json.error.code, 'invalid_input');
    assert.deepEqual(
      res.json.error.details.fields.map((f: { field: string }) => f.field),
      [field],
    );
    await assertNothingDelivered(m);
  }
  await settlesAfterCorrection(h().app, m);
});

// A refusal the route cannot foresee (here: the input is altered on its way to the workflow, which
// then refuses it) must leave the vault as empty as a refusal by ingest does.
let side: SideApp | undefined;
after(() => side?.close());

function alteringClient(real: Client): Client {
  const workflow = new Proxy(real.workflow, {
    get(target, prop, receiver) {
      if (prop !== 'getHandle') return Reflect.get(target, prop, receiver);
      return (...args: Parameters<Client['workflow']['getHandle']>) => {
        const handle = target.getHandle(...args);
        return new Proxy(handle, {
          get(t, p, r) {
            if (p !== 'executeUpdate') return Reflect.get(t, p, r);
            return (def: { name: string }, options: { args: [Record<string, unknown>] }) =>
              t.executeUpdate(
                def as never,
                {
                  ...options,
                  args:
                    def.name === deliverUpdate.name ? [{ ...options.args[0], confidence: 7 }] : options.args,
                } as never,
              );
          },
        });
      };
    },
  });
  return new Proxy(real, { get: (t, p, r) => (p === 'workflow' ? workflow : Reflect.get(t, p, r)) });
}

test('a delivery the workflow refuses leaves no key behind: the corrected one is taken', async () => {
  const m = await matchedContract(h());
  const real = createTemporalClient({
    connection: h().env.connection,
    namespace: h().env.namespace ?? 'default',
    codecKey: h().settings.payloadCodecKey,
  });
  side = appBeside(h(), { temporal: alteringClient(real), vault: h().vault });
  const refused = await call(side.app, m.worker, 'POST', `/contracts/${m.id}/deliveries`, {
    body: { ...DELIVERY_REF, key: 'first-key', content: { text: 'draft' } },
  });
  assert.equal(refused.status, 400, refused.text);
  assert.equal(refused.json.error.details.field, 'confidence');
  await assertNothingDelivered(m);
  await settlesAfterCorrection(h().app, m);
});
