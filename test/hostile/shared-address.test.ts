// Strangers on a party's own network address (docs/security.md "Shared addresses"): a flood of forged
// signatures from the address is refused after a small budget, without verifying more of them, and
// the party's correctly signed requests from the same address are still answered; behind a trusted
// reverse proxy each forwarded client has its own buckets; a forwarded header from any other peer is
// ignored. An agent presenting its verified-agent ticket (the SDK does) is verified whatever forgeries
// share its address; a leaked ticket bounds forgeries per keyid and costs no other agent anything.
// Dev server, worker and SQLite ledger, through the API.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { signRequest } from '../../sdk/typescript/signer';
import { parseTrustedProxies } from '../../api/http/client-address';
import type { RateLimitSettings } from '../../api/http/rate-limit';
import type { App } from '../../api/app';
import { useAppHarness } from '../support/service';
import { call, fromAddress, matchedContract } from '../api/support';
import { createAgentClient, type AgentClient } from '../../sdk/typescript';
import { mintTicket, TICKET_HEADER, TICKET_LIFETIME_MS, ticketKey } from '../../api/auth/agent-ticket';
import { appBeside, type SideApp } from './side-app';
import { created, pool, tally } from './support';
import { contractBody, FUNDS, newAgent, type TestAgent } from '../support/fixtures';
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

/** The SDK's agent client on `app`, every request arriving from `from`. */
function sdkOn(app: App, agent: TestAgent, from: string): AgentClient {
  return createAgentClient({
    baseUrl: 'http://api.test',
    privateKey: agent.key,
    fetch: (url, init) => Promise.resolve(app.request(url, init, fromAddress(from))),
  });
}

/** Loops of forgeries from `from` until `stop`; each claims `keyid()`'s key (default: a fresh one). */
function flooding(app: App, from: string, keyid: () => string = () => newAgent().address) {
  const forger = newAgent();
  let on = true;
  const answers: Awaited<ReturnType<typeof call>>[] = [];
  const loops = Array.from({ length: LOOPS }, async () => {
    while (on) {
      const claimed = keyid();
      const path = `/agents/${claimed}/balances`;
      answers.push(
        await call(app, undefined, 'GET', path, { from, headers: forgedHeaders(forger, claimed, path) }),
      );
    }
  });
  return {
    answers,
    /** Resolves once the flood has been refused at least once: the address's buckets are empty. */
    async refused() {
      while (!answers.some((a) => a.status === 429)) await new Promise((r) => setTimeout(r, 5));
    },
    async stop() {
      on = false;
      await Promise.all(loops);
      return tally(answers);
    },
  };
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
    const party = newAgent();
    await h().fund(party.address, FUNDS);
    const id = await created(h(), party, {});
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
    assert.equal((await forge(app, forger, proxy, viaForger)).status, 429, 'the flood is still refused');

    // A Client behind the same proxy, forwarded as its own address, cancels its contract: answered.
    const cancelled = await call(app, party, 'POST', `/contracts/${id}/cancel`, {
      body: {},
      from: proxy,
      headers: { 'X-Forwarded-For': '198.51.100.9' },
    });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.json.status, 'cancelled-by-client');
    assert.deepEqual(await usdc(h(), party), [FUNDS, 0n]);

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

  test('forgeries of the Client’s own keyid from its own address: the Client’s reads, approve and cancel through the SDK are answered', async () => {
    const app = side({ unverified: { burst: BURST, perSecond: SLOW } });
    const shared = '10.7.7.8';
    const { id, client, worker } = await matchedContract(h());
    const delivered = await call(h().app, worker, 'POST', `/contracts/${id}/deliveries`, {
      body: { uri: 'https://x.example/d.enc', sha256: 'cd'.repeat(32), key: 'delivery-key' },
    });
    assert.equal(delivered.status, 200, delivered.text);
    const toCancel = await created(h(), client, {});
    const sdk = sdkOn(app, client, shared);
    await sdk.getBalances(); // one earlier request: the answer carries the ticket

    const flood = flooding(app, shared, () => client.address);
    await flood.refused();
    const reads = await pool(
      Array.from({ length: 10 }, (_, i) => i),
      1,
      () => sdk.getBalances(),
    );
    // Without its ticket the Client is refused like the forgeries: that bucket is the forgers' now.
    const bare = await call(app, client, 'GET', `/agents/${client.address}/balances`, { from: shared });
    const approved = await sdk.approve(id);
    const cancelled = await sdk.cancel(toCancel);
    const answers = await flood.stop();

    assert.equal(reads.length, 10);
    assert.equal(bare.status, 429, bare.text);
    assert.equal(approved.status, 'settled-fully-met');
    assert.equal(cancelled.status, 'cancelled-by-client');
    // Forgeries without a ticket: verified only within the address's budget and the keyid's, then refused.
    assert.deepEqual(Object.keys(answers).sort(), ['401 unauthorized', '429 rate_limited']);
    assert.ok(answers['401 unauthorized']! <= 2 * (BURST + LOOPS), JSON.stringify(answers));
  });

  test('an agent with nothing at stake, after one earlier request, creates a contract during a fresh-key forgery flood from its address', async () => {
    const app = side({ unverified: { burst: BURST, perSecond: SLOW } });
    const shared = '10.7.7.9';
    const client = newAgent();
    await h().fund(client.address, FUNDS);
    const sdk = sdkOn(app, client, shared);
    await sdk.getBalances();

    const flood = flooding(app, shared);
    await flood.refused();
    const bare = await call(app, client, 'GET', `/agents/${client.address}/balances`, { from: shared });
    const view = await sdk.createContract(
      contractBody(undefined, { verificationMode: 'privacy-preserving' }),
    );
    const answers = await flood.stop();

    assert.equal(bare.status, 429, 'without its ticket it waits like the forgeries');
    assert.equal(view.status, 'created');
    const escrow = BigInt(view.escrowedFunds);
    assert.deepEqual(await usdc(h(), client), [FUNDS - escrow, escrow]);
    assert.ok(answers['401 unauthorized']! <= BURST + LOOPS, JSON.stringify(answers));
  });

  test('a stolen ticket: its forgeries spend that keyid’s bucket only; no other agent, key or address is refused', async () => {
    const app = side({ unverified: { burst: BURST, perSecond: SLOW } });
    const victim = newAgent();
    const bystander = newAgent();
    const thief = '10.8.8.8';
    const own = (agent: TestAgent, from: string, headers: Record<string, string> = {}) =>
      call(app, agent, 'GET', `/agents/${agent.address}/balances`, { from, headers });
    const first = await own(victim, '10.7.7.10');
    assert.equal(first.status, 200, first.text);
    const stolen = first.headers.get(TICKET_HEADER)!;
    assert.match(stolen, /^v1\.\d+\.[A-Za-z0-9_-]{22}$/);

    const forger = newAgent();
    const path = `/agents/${victim.address}/balances`;
    const forged = await pool(
      Array.from({ length: 30 }, (_, i) => i),
      LOOPS,
      () =>
        call(app, undefined, 'GET', path, {
          from: thief,
          headers: { ...forgedHeaders(forger, victim.address, path), [TICKET_HEADER]: stolen },
        }),
    );
    const answers = tally(forged);
    // Verified within the keyid's bucket; then back on the thief address's own buckets, refused there.
    assert.ok(answers['401 unauthorized']! <= 2 * (BURST + LOOPS), JSON.stringify(answers));
    assert.ok(answers['429 rate_limited']! >= 30 - 2 * (BURST + LOOPS), JSON.stringify(answers));

    // The victim, with or without its ticket, from its own address: answered.
    assert.equal((await own(victim, '10.7.7.10', { [TICKET_HEADER]: stolen })).status, 200);
    assert.equal((await own(victim, '10.7.7.10')).status, 200);
    // Another agent on the thief's own address, with its ticket, is answered: nothing of it was spent.
    const bystanderTicket = (await own(bystander, '10.7.7.11')).headers.get(TICKET_HEADER)!;
    assert.equal((await own(bystander, thief, { [TICKET_HEADER]: bystanderTicket })).status, 200);
  });

  test('a garbage, expired or other keyid’s ticket gives no way past the address’s buckets', async () => {
    const app = side({ unverified: { burst: BURST, perSecond: SLOW } });
    const shared = '10.7.7.12';
    const agent = newAgent();
    const other = newAgent();
    const key = ticketKey(h().settings.cursorKey);
    const otherTicket = (await call(app, other, 'GET', `/agents/${other.address}/balances`)).headers.get(
      TICKET_HEADER,
    )!;
    const flood = flooding(app, shared);
    await flood.refused();
    const withTicket = (ticket: string) =>
      call(app, agent, 'GET', `/agents/${agent.address}/balances`, {
        from: shared,
        headers: { [TICKET_HEADER]: ticket },
      });
    const statuses = [
      (await withTicket('v1.9999999999.AAAAAAAAAAAAAAAAAAAAAA')).status,
      (await withTicket(mintTicket(key, agent.address, Date.now() - TICKET_LIFETIME_MS - 1000))).status,
      (await withTicket(otherTicket)).status,
      (await withTicket(mintTicket(key, agent.address, Date.now()))).status,
    ];
    await flood.stop();
    assert.deepEqual(statuses, [429, 429, 429, 200]);
  });
});
