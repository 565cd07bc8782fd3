// Strangers on a party's own network address (docs/security.md "Shared addresses"): a flood of forged
// signatures from the address is refused after a small budget, without verifying more of them, and
// the party's correctly signed requests from the same address are still answered; behind a trusted
// reverse proxy each forwarded client has its own buckets; a forwarded header from any other peer is
// ignored. Dev server, worker and SQLite ledger, through the API.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { signRequest } from '../../api/sdk/signer';
import { parseTrustedProxies } from '../../api/client-address';
import type { RateLimitSettings } from '../../api/rate-limit';
import type { App } from '../../api/app';
import { useAppHarness } from '../support/service';
import { call } from '../api/support';
import { appBeside, type SideApp } from './side-app';
import { created, pool, tally } from './support';
import { FUNDS, newAgent, type TestAgent } from '../support/fixtures';
import { usdc } from '../support/balances';

const h = useAppHarness();
/** So slow a refill that no token comes back during a test. */
const SLOW = 0.001;
const BURST = 5;
/** Forgeries admitted together before the first is charged: one per concurrent loop. */
const LOOPS = 4;

const sides: SideApp[] = [];
function side(limits: Partial<RateLimitSettings>, trustedProxies?: string) {
  const made = appBeside(h(), {
    limits: { settings: limits },
    ...(trustedProxies === undefined ? {} : { trustedProxies: parseTrustedProxies(trustedProxies) }),
  });
  sides.push(made);
  return made.app;
}
after(() => sides.forEach((s) => s.close()));

/**
 * A request signed by `forger` that claims `keyid`: well formed and fresh, so the server must recover
 * the signer (a secp256k1 recovery) to learn that it is not `keyid`'s.
 */
function forgedHeaders(forger: TestAgent, keyid: string, path: string): Record<string, string> {
  const headers = signRequest({ method: 'GET', url: path, privateKey: forger.key });
  return {
    ...headers,
    'Signature-Input': headers['Signature-Input'].replace(/keyid="0x[0-9a-f]{40}"/, `keyid="${keyid}"`),
  };
}

function forge(app: App, forger: TestAgent, from: string, extra: Record<string, string> = {}) {
  const claimed = newAgent().address;
  const path = `/agents/${claimed}/balances`;
  return call(app, undefined, 'GET', path, {
    from,
    headers: { ...forgedHeaders(forger, claimed, path), ...extra },
  });
}

describe('forged signatures from a shared address', () => {
  test('a forgery flood from the Client’s own address: the forgeries stop after the budget, the Client’s requests are answered', async () => {
    const app = side({ unverified: { burst: BURST, perSecond: SLOW } });
    const client = newAgent();
    const forger = newAgent();
    await h().fund(client.address, FUNDS);
    const id = await created(h(), client, {});
    const shared = '10.7.7.7';

    // Four concurrent loops of forgeries, each claiming a fresh key, with the Client's reads among them.
    let flooding = true;
    const forgeries: Awaited<ReturnType<typeof forge>>[] = [];
    const loops = Array.from({ length: LOOPS }, async () => {
      while (flooding) forgeries.push(await forge(app, forger, shared));
    });
    const reads = await pool(
      Array.from({ length: 10 }, (_, i) => i),
      1,
      () => call(app, client, 'GET', `/agents/${client.address}/balances`, { from: shared }),
    );
    const cancelled = await call(app, client, 'POST', `/contracts/${id}/cancel`, { body: {}, from: shared });
    flooding = false;
    await Promise.all(loops);

    assert.deepEqual(
      reads.map((r) => r.status),
      Array(10).fill(200),
    );
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.json.status, 'cancelled-by-client');
    assert.deepEqual(await usdc(h(), client), [FUNDS, 0n]);

    // Only the budget was verified (401); every other forgery was refused before its signature was checked.
    const answers = tally(forgeries);
    assert.deepEqual(Object.keys(answers).sort(), ['401 unauthorized', '429 rate_limited']);
    assert.ok(answers['401 unauthorized']! <= BURST + LOOPS, JSON.stringify(answers));
    assert.ok(answers['429 rate_limited']! > 0, JSON.stringify(answers));
  });

  test('behind a trusted proxy every forwarded client has its own buckets; the forger’s flood refuses only the forger', async () => {
    const proxy = '10.0.0.2';
    const app = side(
      { unverified: { burst: BURST, perSecond: SLOW }, address: { burst: BURST, perSecond: SLOW } },
      `${proxy}, 10.0.1.0/24`,
    );
    const forger = newAgent();
    const honest = newAgent();
    // Every request arrives from the proxy; the forger's behind two proxy hops, the client it claimed
    // on the left of the chain ignored (only the right-most untrusted hop counts).
    const viaForger = { 'X-Forwarded-For': '198.51.100.1, 203.0.113.66, 10.0.1.7' };
    const forged = await pool(
      Array.from({ length: 20 }, (_, i) => i),
      LOOPS,
      () => forge(app, forger, proxy, viaForger),
    );
    const answers = tally(forged);
    assert.ok(answers['401 unauthorized']! <= BURST + LOOPS, JSON.stringify(answers));
    assert.ok(answers['429 rate_limited']! >= 20 - BURST - LOOPS, JSON.stringify(answers));

    // A fresh key with no money, behind the same proxy, on another client address (RFC 7239 header).
    const viaHonest = { Forwarded: 'for="[2001:db8:cafe::17]:4711";proto=https, for=10.0.1.7' };
    for (let i = 0; i < 10; i++) {
      const own = await call(app, honest, 'GET', `/agents/${honest.address}/balances`, {
        from: proxy,
        headers: viaHonest,
      });
      assert.equal(own.status, 200, own.text);
    }
    // Unsigned requests too: each forwarded client spends its own address bucket.
    const unsigned = (headers: Record<string, string>) =>
      call(app, undefined, 'GET', '/params', { from: proxy, headers });
    for (let i = 0; i < BURST; i++) assert.equal((await unsigned(viaForger)).status, 200);
    assert.equal((await unsigned(viaForger)).status, 429);
    assert.equal((await unsigned(viaHonest)).status, 200);
  });

  test('a forwarded header from a peer that is not a trusted proxy is ignored', async () => {
    const app = side({ address: { burst: BURST, perSecond: SLOW } }, '10.0.0.2');
    const statuses = [];
    for (let i = 0; i < BURST + 3; i++) {
      const res = await call(app, undefined, 'GET', '/params', {
        from: '10.9.0.1',
        headers: { 'X-Forwarded-For': `203.0.113.${i}`, Forwarded: `for=198.51.100.${i}` },
      });
      statuses.push(res.status);
    }
    assert.deepEqual(statuses, [...Array(BURST).fill(200), 429, 429, 429]);
  });
});
