// A black-box hostile session against a running service, through HTTP only: many keys, a money
// budget given by the operator's deposits, aimed at the rules that keep strangers from crowding out,
// locking out or crashing an honest party. It starts the real `npm start` tree in a temporary
// directory (or drives `--url <base>` with `--operator-token <token>`), runs each attack, and prints
// what it tried and what held, as lines and as one JSON summary. Exit code 1 if anything did not hold.
//
//   npx tsx bench/hostile/session.ts
import { signRequest } from '../../sdk/typescript/signer';
import {
  balances,
  create,
  DELIVERY,
  deposit,
  newKey,
  report,
  runSession,
  send,
  target,
  terms,
  USDC,
  type Key,
} from './session-kit';

/** 1: a Client short of the Dispute Bond fails three times, deposits, and disputes. */
async function poorClientDisputes(bas: Key[]) {
  const client = newKey();
  const worker = newKey();
  await deposit(client, (25n * USDC) / 10n);
  await deposit(worker, USDC);
  const id = await create(
    client,
    terms({ awardMethod: 'direct', worker: worker.address, verificationMode: 'privacy-preserving' }),
  );
  await send(worker, 'POST', `/contracts/${id}/accept`, {});
  const delivered = await send(worker, 'POST', `/contracts/${id}/deliveries`, DELIVERY);
  const fails = [];
  for (let i = 0; i < 3; i++)
    fails.push((await send(client, 'POST', `/contracts/${id}/disputes`, {})).status);
  await deposit(client, USDC);
  const disputed = await send(client, 'POST', `/contracts/${id}/disputes`, {});
  const b = await balances(client);
  const exact =
    b.available === (35n * USDC) / 10n - (25n * USDC) / 10n - 125_000n &&
    b.held === (25n * USDC) / 10n + 125_000n;
  report(
    'failed locks count against a party',
    `delivery ${delivered.status}; disputes short of the bond → ${fails.join(',')}; deposit; dispute again`,
    fails.every((s) => s === 402) && disputed.status === 200 && disputed.json.status === 'disputed' && exact,
    `dispute after deposit → ${disputed.status} ${disputed.json?.status ?? disputed.json?.error?.code}; client ${b.available}/${b.held} (panel of ${bas.length} eligible)`,
  );
}

/** 1b and 3: bait bidders quote then move their money; a quote of "1" from a zero balance. */
async function baitBidders(): Promise<{ id: string; winner: Key }> {
  const client = newKey();
  await deposit(client, 5n * USDC);
  const id = await create(client, terms({ contractType: 'auction', amount: (5n * USDC).toString() }));
  const bait = newKey();
  await deposit(bait, USDC);
  const quoted = await send(bait, 'POST', `/contracts/${id}/quotes`, { price: (1n * USDC).toString() });
  const takeAll = await send(
    bait,
    'POST',
    `/agents/${bait.address}/withdrawals`,
    { amount: USDC.toString(), destination: 'acct-bait' },
    { headers: { 'Idempotency-Key': 'w-all' } },
  );
  const freeBalance = await balances(bait);
  const takeFree = await send(
    bait,
    'POST',
    `/agents/${bait.address}/withdrawals`,
    { amount: freeBalance.available.toString(), destination: 'acct-bait' },
    { headers: { 'Idempotency-Key': 'w-free' } },
  );
  const zero = newKey();
  const one = await send(zero, 'POST', `/contracts/${id}/quotes`, { price: '1' });
  const pick = await send(client, 'POST', `/contracts/${id}/award`, {
    quoteId: quoted.json?.ownQuote?.quoteId,
  });
  const b = await balances(bait);
  report(
    'bait bidder moves its money before the owner pick',
    `quote ${quoted.status} (bond ${quoted.json?.ownQuote?.bidBond}); withdraw everything → ${takeAll.status}; withdraw the free part → ${takeFree.status}; owner pick`,
    quoted.status === 201 &&
      takeAll.status === 402 &&
      pick.status === 200 &&
      pick.json.status === 'matched' &&
      b.held === 100_000n &&
      b.available === 0n,
    `award → ${pick.status} ${pick.json?.status}, stake ${pick.json?.workerStake}; bait ${b.available}/${b.held}`,
  );
  report(
    'a quote of "1" wins for free',
    'an agent with no money quotes 1 minor unit',
    one.status === 402,
    `→ ${one.status} ${one.json?.error?.code}: ${one.json?.error?.message}`,
  );
  return { id, winner: bait };
}

/** 2: free keys fill the auction; then funded keys at the floor, and what that costs. */
async function freeQuotes() {
  const client = newKey();
  await deposit(client, 5n * USDC);
  const id = await create(client, terms({ contractType: 'auction', amount: (5n * USDC).toString() }));
  const free = await Promise.all(
    Array.from({ length: 100 }, () => send(newKey(), 'POST', `/contracts/${id}/quotes`, { price: '1' })),
  );
  const freeStatuses = new Map<number, number>();
  for (const f of free) freeStatuses.set(f.status, (freeStatuses.get(f.status) ?? 0) + 1);
  const honest = newKey();
  await deposit(honest, USDC);
  const mine = await send(honest, 'POST', `/contracts/${id}/quotes`, { price: (2n * USDC).toString() });
  report(
    'free quotes fill the auction',
    '100 keys with no money quote, then a funded bidder',
    (freeStatuses.get(201) ?? 0) === 0 && mine.status === 201,
    `free keys → ${JSON.stringify([...freeStatuses])}; honest → ${mine.status}; quoteCount ${mine.json?.quoteCount}`,
  );
  const awarded = await send(client, 'POST', `/contracts/${id}/award`, {});
  const hb = await balances(honest);
  report(
    'the Client closes the auction',
    'award the best quote',
    awarded.status === 200 && awarded.json.worker === honest.address && hb.held === 200_000n,
    `award → ${awarded.status} ${awarded.json?.status}; honest ${hb.available}/${hb.held}`,
  );
}

/** 4: deep bodies, forged cursors, concurrent unlocks. */
async function inputs(matched: { id: string; winner: Key }) {
  const deep = `{"uri":"${DELIVERY.uri}","sha256":"${DELIVERY.sha256}","key":"k","content":{"a":${'['.repeat(20_000)}1${']'.repeat(20_000)}}}`;
  const deepRes = await send(matched.winner, 'POST', `/contracts/${matched.id}/deliveries`, undefined, {
    raw: deep,
  });
  const real = await send(matched.winner, 'POST', `/contracts/${matched.id}/deliveries`, DELIVERY);
  report(
    'a delivery nested 20,000 deep',
    'the matched Worker sends it, then its real delivery',
    deepRes.status === 400 && real.status === 200,
    `deep → ${deepRes.status} ${deepRes.json?.error?.code}; real → ${real.status} ${real.json?.status}`,
  );
  const forged = Buffer.from(
    JSON.stringify({ filter: '[null,null]', source: 'open', token: 'AAAA' }),
  ).toString('base64url');
  const cursors = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      send(undefined, 'GET', `/contracts?cursor=${forged}${i % 2 ? '.AAAA' : ''}`),
    ),
  );
  const slowest = Math.max(...cursors.map((c) => c.ms));
  report(
    'forged listing cursors',
    '20 forged cursors, unsigned',
    cursors.every((c) => c.status === 400) && slowest < 2_000,
    `statuses ${[...new Set(cursors.map((c) => c.status))]}; slowest ${slowest} ms`,
  );
  const ba = newKey();
  await deposit(ba, 200n * USDC);
  const codes = new Map<number, number>();
  for (let round = 0; round < 5; round++) {
    await send(ba, 'POST', '/eligibility/lock', { amount: (100n * USDC).toString() });
    const unlocks = await Promise.all(
      Array.from({ length: 4 }, () => send(ba, 'POST', '/eligibility/unlock', {})),
    );
    for (const u of unlocks) codes.set(u.status, (codes.get(u.status) ?? 0) + 1);
  }
  const b = await balances(ba);
  report(
    'concurrent eligibility unlocks',
    '5 rounds of lock, then 4 concurrent unlocks by one agent',
    !codes.has(500) && b.available === 200n * USDC && b.held === 0n,
    `statuses ${JSON.stringify([...codes])}; agent ${b.available}/${b.held}`,
  );
}

/** 7: a payee with a line break and a bidi override. */
async function destinations() {
  const agent = newKey();
  await deposit(agent, USDC);
  const bad = await send(
    agent,
    'POST',
    `/agents/${agent.address}/withdrawals`,
    { amount: '1000', destination: 'acct\nPAID \u202E1' },
    { headers: { 'Idempotency-Key': 'bad' } },
  );
  const b = await balances(agent);
  report(
    'a withdrawal destination with a newline and U+202E',
    'withdraw to it',
    bad.status === 400 && b.available === USDC,
    `→ ${bad.status} ${bad.json?.error?.message}`,
  );
}

/** 6: strangers' streams from many keys against the Client's own stream of its contract. */
async function streams() {
  const client = newKey();
  await deposit(client, 5n * USDC);
  const id = await create(client, terms());
  const path = `/contracts/${id}/events/stream`;
  const open: Response[] = [];
  const codes = new Map<number, number>();
  for (let k = 0; k < 3; k++) {
    const key = newKey();
    for (let i = 0; i < 10; i++) {
      const res = await fetch(target.base + path, {
        headers: { ...signRequest({ method: 'GET', url: path, privateKey: key.key }) },
      });
      codes.set(res.status, (codes.get(res.status) ?? 0) + 1);
      if (res.status === 200) open.push(res);
      else await res.text();
    }
  }
  const own = await fetch(target.base + path, {
    headers: { ...signRequest({ method: 'GET', url: path, privateKey: client.key }) },
  });
  report(
    'stream slots taken by unfunded keys',
    '3 keys open 10 streams each, then the Client streams its contract',
    own.status === 200,
    `strangers → ${JSON.stringify([...codes])}; Client → ${own.status}`,
  );
  for (const res of [...open, own]) await res.body?.cancel();
}

/** 5: an unsigned flood and signed reads from one address; keys minted on one host. */
async function rates() {
  const honest = newKey();
  await deposit(honest, USDC);
  const flood = Array.from({ length: 900 }, () => send(undefined, 'GET', '/params'));
  const reads = Array.from({ length: 10 }, () => send(honest, 'GET', `/agents/${honest.address}/balances`));
  const [flooded, served] = [await Promise.all(flood), await Promise.all(reads)];
  report(
    'an unsigned flood from the honest agent’s address',
    '900 unsigned reads and 10 signed reads at once',
    served.every((r) => r.status === 200),
    `flood → ${flooded.filter((r) => r.status === 429).length} refused; signed → ${served.map((r) => r.status).join(',')}`,
  );
  const keys = Array.from({ length: 10 }, newKey);
  const started = Date.now();
  const answers = await Promise.all(
    keys.flatMap((k) => Array.from({ length: 160 }, () => send(k, 'GET', `/agents/${k.address}/balances`))),
  );
  const seconds = (Date.now() - started) / 1000;
  const ok = answers.filter((a) => a.status === 200).length;
  const budget = Math.floor(480 + 80 * seconds);
  report(
    'keys minted on one host',
    `10 fresh keys send 1,600 signed reads at once (${seconds.toFixed(1)} s)`,
    ok <= budget,
    `served ${ok} against the host budget ${budget} (480 + 80/s), ${answers.length - ok} refused 429`,
  );
  // A party at stake is not refused by its host's emptied budget.
  const after = await send(honest, 'GET', `/agents/${honest.address}/balances`);
  return after.status;
}

async function main() {
  await runSession({ OPENCONTRACT_SSE_MAX_TOTAL: '24' }, async () => {
    const bas = Array.from({ length: 3 }, newKey);
    for (const ba of bas) {
      await deposit(ba, 200n * USDC);
      await send(ba, 'POST', '/eligibility/lock', { amount: (100n * USDC).toString() });
    }
    await poorClientDisputes(bas);
    const matched = await baitBidders();
    await freeQuotes();
    await inputs(matched);
    await destinations();
    await streams();
    return { honestReadAfterFlood: await rates() };
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
