// A black-box hostile session against what a neighbour can do to an honest agent (docs/auction.md "A
// full cap never refuses a better quote", docs/security.md "Per address, unverified" and "Behind a
// reverse proxy", docs/agents.md "Webhooks"), through HTTP only, with many keys and a money budget
// given by operator deposits. A crowd of bonded junk quotes fills an auction's cap; a stranger on the
// Client's own address floods forged signatures (claiming fresh keys, then the Client's own keyid), on
// the default service and through a trusted proxy; keys aim webhooks at private targets and share one
// URL and one host. It prints what it tried and what held, and one JSON summary; exit code 1 if
// anything did not hold. The proxy and local-receiver phases start trees of their own (settings the
// session's service does not have), so `--url` runs only the phases on default settings.
//
//   npx tsx bench/hostile/neighbours-session.ts
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signRequest } from '../../sdk/typescript/signer';
import {
  balances,
  budget,
  create,
  DELIVERY,
  fundedKey,
  newKey,
  patient,
  report,
  runSession,
  send,
  sleep,
  terms,
  USDC,
  withService,
  type Answer,
  type Key,
  CREATE_COST,
  TERMS_PRICE,
} from './session-kit';

// The session's own service runs on the defaults: nothing inherited may allow private webhooks or
// name a trusted proxy.
delete process.env.OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE;
delete process.env.OPENCONTRACT_TRUSTED_PROXIES;

const PRICE = TERMS_PRICE;
const CAP = 100; // docs/auction.md: BUDGET.biddersPerContract

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type View = any;
const view = async (who: Key, id: string): Promise<View> =>
  (await patient(who, 'GET', `/contracts/${id}`)).json;
const count = (xs: (number | string)[]) =>
  Object.fromEntries(
    [...new Set(xs)].sort().map((x) => [String(x), xs.filter((y) => y === x).length] as const),
  );
const percentile = (ms: number[], p: number) =>
  ms.length === 0 ? 0 : [...ms].sort((a, b) => a - b)[Math.min(ms.length - 1, Math.floor(ms.length * p))]!;

/** A quote that waits out a 429 (the host bucket of the session's many keys), so the answer is the rule's. */
const quote = (who: Key, id: string, price: bigint) =>
  patient(who, 'POST', `/contracts/${id}/quotes`, { price: price.toString() });

/** 1: ~100 bonded junk quotes fill the cap; honest, lower quotes replace the worst; a worse one is refused. */
async function crowdOut() {
  const client = await fundedKey(CREATE_COST);
  const id = await create(client, terms({ contractType: 'auction' }));
  const v = await view(client, id);
  const bondFor = (price: bigint) => {
    const scaled = (price * BigInt(v.workerStakeBps)) / 10_000n;
    const floor = BigInt(v.minWorkerStake);
    return scaled > floor ? scaled : floor;
  };
  const junkBond = bondFor(PRICE);
  const junk: Key[] = [];
  for (let i = 0; i < CAP; i += 10)
    junk.push(...(await Promise.all(Array.from({ length: 10 }, () => fundedKey(junkBond)))));
  const junkAnswers: number[] = [];
  for (let i = 0; i < CAP; i += 10)
    junkAnswers.push(
      ...(await Promise.all(junk.slice(i, i + 10).map((k) => quote(k, id, PRICE)))).map((a) => a.status),
    );
  const full = (await view(client, id)).quotes?.length;

  // A newcomer no better than the worst standing quote: refused, and nothing of its money moves.
  const late = await fundedKey(junkBond);
  const lateQuote = await quote(late, id, PRICE);
  const lateBalance = await balances(late);

  const honestPrices = [20n, 19n, 18n].map((p) => (p * USDC) / 10n);
  const honest: Key[] = [];
  const honestAnswers: Answer[] = [];
  for (const price of honestPrices) {
    const k = await fundedKey(bondFor(price));
    honest.push(k);
    honestAnswers.push(await quote(k, id, price));
  }
  const junkBalances = await Promise.all(junk.map(balances));
  const replaced = junk.filter((_, i) => junkBalances[i]!.held === 0n);
  const replacedWhole = replaced.every((_, i) => {
    const b = junkBalances[junk.indexOf(replaced[i]!)]!;
    return b.available === junkBond;
  });
  const requote = replaced[0] ? await quote(replaced[0], id, PRICE) : undefined;
  const afterHonest = (await view(client, id)).quotes?.length;

  const award = await patient(client, 'POST', `/contracts/${id}/award`, {});
  const afterAward = await Promise.all(junk.map(balances));
  const junkDeposited = junkBond * BigInt(CAP);
  const junkLeft = afterAward.reduce((s, b) => s + b.available + b.held, 0n);
  const junkHeldAfter = afterAward.reduce((s, b) => s + b.held, 0n);
  const winner = honest[honestPrices.length - 1]!;
  report(
    'bidder-cap crowd-out',
    `${CAP} keys with ${junkBond} each fill an auction's quote cap at the ceiling price; 3 honest lower quotes follow`,
    junkAnswers.every((s) => s === 201) &&
      full === CAP &&
      honestAnswers.every((a) => a.status === 201) &&
      replaced.length === honest.length &&
      replacedWhole &&
      afterHonest === CAP &&
      award.status === 200 &&
      award.json?.worker === winner.address &&
      junkHeldAfter === 0n &&
      junkLeft === junkDeposited,
    `junk quotes ${JSON.stringify(count(junkAnswers))}, ${full} live; honest → ${honestAnswers.map((a) => a.status).join(',')}; ` +
      `${replaced.length} junk bidders replaced, their bonds back (${replacedWhole ? `available ${junkBond}, held 0` : 'NOT released'}); ` +
      `${afterHonest} live after; award → ${award.status} to ${award.json?.worker === winner.address ? 'the lowest honest quote' : award.json?.worker}; ` +
      `junk after the match: held ${junkHeldAfter}, kept ${junkLeft} of ${junkDeposited}`,
  );
  report(
    'a worse quote at a full cap',
    'a newcomer quotes the ceiling price (ties the worst); a replaced junk bidder quotes again at it',
    lateQuote.status === 409 &&
      lateQuote.json?.error?.code === 'bidder_limit' &&
      lateBalance.available === junkBond &&
      lateBalance.held === 0n &&
      requote?.status === 409,
    `newcomer → ${lateQuote.status} ${lateQuote.json?.error?.code}, its balance ${lateBalance.available}/${lateBalance.held}; ` +
      `replaced bidder again → ${requote?.status} ${requote?.json?.error?.code}`,
  );
  return {
    junkKeys: CAP,
    junkBond: junkBond.toString(),
    bondsAtRisk: junkDeposited.toString(),
    attackerSpent: (junkDeposited - junkLeft).toString(),
    honestQuotesDelayed: honestAnswers.filter((a) => a.status !== 201).length,
    costPerHonestQuoteDelayed:
      honestAnswers.some((a) => a.status !== 201) || junkLeft !== junkDeposited
        ? 'see statuses'
        : 'unbounded: no honest quote was delayed, for bonds of ' +
          junkDeposited.toString() +
          ' held until the match',
  };
}

/** A Client with one delivered contract to approve and one open contract to cancel: escrow held, a party at stake. */
async function partyWithSteps() {
  const client = await fundedKey(2n * CREATE_COST);
  const worker = await fundedKey(PRICE);
  // Its first signed request waits out whatever the previous flood left of the address's budget for
  // unverified signatures; its answer carries the Client's ticket.
  await patient(client, 'GET', `/agents/${client.address}/balances`);
  const toApprove = await create(client, terms({ awardMethod: 'direct', worker: worker.address }));
  const accepted = await patient(worker, 'POST', `/contracts/${toApprove}/accept`, {});
  const sent = await patient(worker, 'POST', `/contracts/${toApprove}/deliveries`, DELIVERY);
  if (accepted.status !== 200 || sent.status !== 200)
    throw new Error(`accept ${accepted.status} / deliver ${sent.status}: ${JSON.stringify(sent.json)}`);
  const toCancel = await create(client, terms());
  return { client, toApprove, toCancel };
}

/** The contract's view once it has settled or been cancelled (or after 30 s, whatever it is then). */
async function final(who: Key, id: string): Promise<View> {
  const until = Date.now() + 30_000;
  for (;;) {
    const v = await view(who, id);
    if (/^(settled-|cancelled)/.test(v?.status ?? '') || Date.now() > until) return v;
    await sleep(300);
  }
}

type Forgery = 'fresh keyids' | 'the Client’s keyid' | 'both';

/**
 * Four loops of badly signed requests at the Client's contract for `ms`, from `attackerHeaders`'s
 * address; meanwhile the Client reads its party view every 100 ms and approves and cancels, from
 * `clientHeaders`'s. Each forgery is signed for another path (so it never verifies), by a fresh key
 * or with its keyid rewritten to the Client's. With `perSecond` the loops together send about that many
 * forgeries a second; without, as fast as the service answers. Once both steps are done the Client has
 * nothing at stake: its last second of reads, and its next contract's create, show what that costs it.
 */
async function flood(
  forgery: Forgery,
  attackerHeaders: Record<string, string>,
  clientHeaders: Record<string, string>,
  perSecond?: number,
  ms = 6_000,
) {
  const { client, toApprove, toCancel } = await partyWithSteps();
  let stop = false;
  const attacker: (number | string)[] = [];
  const loop = async (n: number) => {
    while (!stop) {
      const own = forgery === 'the Client’s keyid' || (forgery === 'both' && n % 2 === 1);
      const signed = signRequest({ method: 'POST', url: '/elsewhere', privateKey: newKey().key, body: '{}' });
      const forged = own
        ? {
            ...signed,
            'Signature-Input': signed['Signature-Input'].replace(
              /keyid="[^"]*"/,
              `keyid="${client.address}"`,
            ),
          }
        : signed;
      const path = n < 2 ? `/contracts/${toApprove}/approve` : `/contracts/${toApprove}`;
      const method = n < 2 ? 'POST' : 'GET';
      const answer = await send(undefined, method, path, method === 'POST' ? {} : undefined, {
        headers: { ...forged, ...attackerHeaders },
      }).catch(() => undefined);
      attacker.push(answer?.status ?? 'network');
      if (perSecond !== undefined) await sleep(4_000 / perSecond);
    }
  };
  const started = Date.now();
  const loops = [0, 1, 2, 3].map(loop);
  const party: Answer[] = [];
  const unstaked: Answer[] = [];
  const asParty = async (method: string, path: string, body?: unknown) => {
    const answer = await send(client, method, path, body, { headers: clientHeaders });
    (cancel?.status === 200 ? unstaked : party).push(answer);
    return answer;
  };
  let approve: Answer | undefined;
  let cancel: Answer | undefined;
  await sleep(1_000); // the address's unverified bucket is empty by now
  const until = Date.now() + ms;
  while (Date.now() < until) {
    await asParty('GET', `/contracts/${toApprove}`);
    const left = until - Date.now();
    if (!approve && left < ms / 2) approve = await asParty('POST', `/contracts/${toApprove}/approve`, {});
    if (!cancel && left < ms / 4) cancel = await asParty('POST', `/contracts/${toCancel}/cancel`, {});
    await sleep(100);
  }
  const nextCreate = await asParty('POST', '/contracts', terms());
  stop = true;
  await Promise.all(loops);
  // What a refused step costs the Client: its next try once the forgeries stop.
  const approvedLater =
    approve?.status === 200 ? approve : await patient(client, 'POST', `/contracts/${toApprove}/approve`, {});
  const cancelledLater =
    cancel?.status === 200 ? cancel : await patient(client, 'POST', `/contracts/${toCancel}/cancel`, {});
  const [approved, cancelled] = [await final(client, toApprove), await final(client, toCancel)];
  const ms2xx = party.filter((a) => a.status < 300).map((a) => a.ms);
  return {
    forgeries: attacker.length,
    forgeriesPerSecond: Math.round(attacker.length / ((Date.now() - started) / 1000)),
    attackerStatuses: count(attacker),
    attacker429: attacker.filter((s) => s === 429).length,
    partyStatuses: count(party.map((a) => a.status)),
    party429: party.filter((a) => a.status === 429).length,
    partyAll2xx: party.every((a) => a.status >= 200 && a.status < 300),
    partyP50ms: percentile(ms2xx, 0.5),
    partyP95ms: percentile(ms2xx, 0.95),
    partyMaxMs: Math.max(0, ...party.map((a) => a.ms)),
    approve: approve?.status,
    cancel: cancel?.status,
    unstakedStatuses: count(unstaked.map((a) => a.status)),
    nextCreate: nextCreate.status,
    stepsDoneAfterwards: approvedLater.status === 200 && cancelledLater.status === 200,
    settled: `${approved?.status} / ${cancelled?.status}`,
  };
}
type Flood = Awaited<ReturnType<typeof flood>>;
const describe = (f: Flood) =>
  `${f.forgeries} forgeries (${f.forgeriesPerSecond}/s) → ${JSON.stringify(f.attackerStatuses)}; ` +
  `the Client's ${Object.values(f.partyStatuses).reduce((a, b) => a + b, 0)} requests → ${JSON.stringify(f.partyStatuses)}, ` +
  `p50 ${f.partyP50ms} ms, p95 ${f.partyP95ms} ms, max ${f.partyMaxMs} ms; approve ${f.approve}, cancel ${f.cancel}; contracts ${f.settled}; ` +
  `then, nothing at stake: reads ${JSON.stringify(f.unstakedStatuses)}, its next create ${f.nextCreate}`;
const stepsAnswered = (f: Flood) =>
  f.partyAll2xx &&
  f.approve === 200 &&
  f.cancel === 200 &&
  f.settled === 'settled-fully-met / cancelled-by-client';

/** 2: forgeries from the Client's own address, on the default service. */
async function sharedAddress() {
  const fresh = await flood('fresh keyids', {}, {});
  report(
    'forgeries from a shared address (fresh keyids)',
    '4 loops of badly signed requests claiming fresh keys, from the Client’s address; the Client reads, approves, cancels',
    stepsAnswered(fresh) && fresh.attacker429 > 0,
    describe(fresh),
  );
  // An agent with nothing at stake on the forger's address still carries its verified-agent ticket (as
  // the SDKs do): the same flood, once the Client's contracts are closed, on its reads and its next create.
  report(
    'a Client with nothing at stake on the forger’s address',
    'the same flood, after the Client’s approve and cancel: its reads and its next contract’s create',
    Object.keys(fresh.unstakedStatuses).every((s) => s.startsWith('2')) && fresh.nextCreate === 201,
    `reads ${JSON.stringify(fresh.unstakedStatuses)}; next create ${fresh.nextCreate}`,
  );
  // Forgeries of a staked keyid from the party's own address empty the per-(address, keyid) bucket;
  // the party's own requests carry its ticket and skip it. Held only if the Client's steps are
  // answered during the flood.
  const own = await flood('the Client’s keyid', {}, {});
  const ownPaced = await flood('the Client’s keyid', {}, {}, 20, 14_000);
  for (const [f, how] of [
    [own, 'as fast as the service answers'],
    [ownPaced, 'at about 20 a second for 15 s'],
  ] as const)
    report(
      `forgeries of the Client’s own keyid from its address, ${how}`,
      '4 loops of badly signed requests claiming the Client’s keyid, from its address; the Client reads, approves, cancels',
      stepsAnswered(f),
      `${describe(f)}; the Client got ${f.party429} × 429 while at stake (its steps ${f.stepsDoneAfterwards ? 'done' : 'NOT done'} once the flood stopped)`,
    );
  return { fresh, own, ownPaced };
}

/** 2, behind a trusted proxy: the attacker and the Client forwarded from distinct client addresses. */
async function behindProxy() {
  return withService({ OPENCONTRACT_TRUSTED_PROXIES: '127.0.0.1' }, async () => {
    const attacker = { 'X-Forwarded-For': '203.0.113.7', Forwarded: 'for=203.0.113.7' };
    const clientAddress = { 'X-Forwarded-For': '198.51.100.9' };
    const both = await flood('both', attacker, clientAddress);
    report(
      'forgeries through a trusted proxy',
      'OPENCONTRACT_TRUSTED_PROXIES=127.0.0.1; 4 loops forging fresh keyids and the Client’s keyid from 203.0.113.7; the Client at 198.51.100.9',
      stepsAnswered(both) &&
        Object.keys(both.unstakedStatuses).every((s) => s.startsWith('2')) &&
        both.nextCreate === 201 &&
        both.attacker429 > 0,
      describe(both),
    );
    return both;
  });
}

/** A local receiver: every connection counted, every post kept with its path, webhook-id and time. */
async function receiver() {
  const posts: { path: string; id: string; at: number }[] = [];
  let connections = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      posts.push({ path: req.url ?? '', id: String(req.headers['webhook-id']), at: Date.now() });
      res.writeHead(204).end();
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    posts,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const addHook = (k: Key, url: string) => send(k, 'POST', `/agents/${k.address}/webhooks`, { url });
const feedLength = async (k: Key) =>
  (await patient(k, 'GET', `/agents/${k.address}/feed?after=0&limit=500`)).json.entries.length as number;

/** 3a: private targets on the default settings; 5 keys × 10 subscriptions to one public-looking URL. */
async function webhookTargets() {
  const listener = await receiver();
  const p = listener.port;
  const targets = [
    `https://127.0.0.1:${p}/h`,
    `http://127.0.0.1:${p}/h`,
    `https://localhost:${p}/h`,
    `https://2130706433:${p}/h`,
    `https://0x7f.1:${p}/h`,
    `https://0.0.0.0:${p}/h`,
    `https://[::1]:${p}/h`,
    `https://[::ffff:127.0.0.1]:${p}/h`,
    `https://[::ffff:7f00:1]:${p}/h`,
    `https://[::]:${p}/h`,
    'https://10.0.0.1/h',
    'https://172.16.0.1/h',
    'https://192.168.1.1/h',
    'https://100.64.0.1/h',
    'https://169.254.169.254/latest/meta-data/',
    'https://[fe80::1]/h',
    'https://[fd00:ec2::254]/h',
    'https://100.100.100.200/h',
  ];
  const k = await fundedKey(CREATE_COST);
  const answers = await Promise.all(targets.map((url) => addHook(k, url)));
  await create(k, terms()); // an event that would be posted, had any target been taken
  await sleep(3_000);
  const taken = await patient(k, 'GET', `/agents/${k.address}/webhooks`);
  report(
    'webhooks at private targets',
    `${targets.length} loopback, private, link-local, metadata and IPv6 loopback/mapped targets at a local listener, default settings`,
    answers.every((a) => a.status >= 400 && a.status < 500) &&
      taken.json?.webhooks?.length === 0 &&
      listener.connections() === 0,
    `statuses ${JSON.stringify(count(answers.map((a) => a.status)))} (${[...new Set(answers.map((a) => a.json?.error?.code))].join(',')}); ` +
      `subscriptions ${taken.json?.webhooks?.length}; connections to the listener ${listener.connections()}`,
  );
  await listener.close();

  const url = 'https://93.184.216.34/neighbours';
  const keys = await Promise.all(Array.from({ length: 5 }, () => fundedKey(CREATE_COST)));
  const perKey: Answer[][] = [];
  for (const key of keys) {
    const mine: Answer[] = [];
    for (let i = 0; i < 10; i++) mine.push(await addHook(key, url));
    perKey.push(mine);
  }
  const eleventh = await addHook(keys[0]!, `${url}?again`);
  await create(keys[0]!, terms());
  await sleep(5_000);
  const state = (await patient(keys[0]!, 'GET', `/agents/${keys[0]!.address}/webhooks`)).json?.webhooks ?? [];
  const errors = [...new Set(state.map((w: { lastError?: string }) => w.lastError ?? 'none'))] as string[];
  report(
    'one URL, many keys (registration)',
    '5 keys × 10 subscriptions to one public-looking, unreachable URL; the first key an 11th',
    perKey[0]!.every((a) => a.status === 201) &&
      perKey
        .slice(1)
        .every((m) => m.every((a) => a.status === 409 && a.json?.error?.code === 'webhook_url_taken')) &&
      eleventh.status === 409 &&
      errors.every((e) => /^[a-z_0-9]+$/.test(e)),
    `per key ${perKey.map((m) => JSON.stringify(count(m.map((a) => a.status)))).join(' ')}; 11th → ${eleventh.status} ${eleventh.json?.error?.code}; ` +
      `delivery state of the first key's 10: lastError ${errors.join(',')}, failures ${state.map((w: { failures?: number }) => w.failures ?? 0).join(',')}`,
  );
}

/** 3b: with private targets allowed, a local receiver counts posts: one per event per URL, the host rate holding. */
async function webhookDeliveries() {
  const [burst, perSecond] = [4, 2];
  return withService(
    { OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE: '1', OPENCONTRACT_WEBHOOK_HOST_RATE: `${burst}/${perSecond}` },
    async () => {
      const listener = await receiver();
      const shared = `http://127.0.0.1:${listener.port}/one`;
      const keys = await Promise.all(Array.from({ length: 5 }, () => fundedKey(3n * CREATE_COST)));
      const registered: number[] = [];
      for (const key of keys)
        for (let i = 0; i < 10; i++) registered.push((await addHook(key, shared)).status);
      // The other keys each take a URL of their own on the same host, and make events there too.
      for (const [i, key] of keys.entries())
        if (i > 0) await addHook(key, `http://127.0.0.1:${listener.port}/k${i}`);
      for (const key of keys) for (let i = 0; i < 3; i++) await create(key, terms());
      const expected = async () => (await Promise.all(keys.map(feedLength))).reduce((a, b) => a + b, 0);
      const until = Date.now() + 90_000;
      let want = await expected();
      while (Date.now() < until && new Set(listener.posts.map((q) => `${q.path} ${q.id}`)).size < want) {
        await sleep(1_000);
        want = await expected();
      }
      await sleep(3_000); // any duplicate would come now
      await listener.close();
      const onShared = listener.posts.filter((q) => q.path === '/one');
      const sharedIds = new Set(onShared.map((q) => q.id));
      const sharedFeed = await feedLength(keys[0]!);
      const times = listener.posts.map((q) => q.at).sort((a, b) => a - b);
      // The token bucket's bound over every window [t_i, t_j]: burst + rate × span (+1 for the edges).
      let worst = 0;
      for (let i = 0; i < times.length; i++)
        for (let j = i; j < times.length; j++)
          worst = Math.max(worst, j - i + 1 - (burst + (perSecond * (times[j]! - times[i]!)) / 1000 + 1));
      const seconds = times.length > 1 ? (times[times.length - 1]! - times[0]!) / 1000 : 0;
      report(
        'one post per event per URL',
        `OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE=1: 5 keys × 10 subscriptions to one local URL; the first key makes ${sharedFeed} feed entries`,
        registered.slice(0, 10).every((s) => s === 201) &&
          registered.slice(10).every((s) => s === 409) &&
          onShared.length === sharedIds.size &&
          sharedIds.size === sharedFeed,
        `registrations ${JSON.stringify(count(registered))}; posts to the URL ${onShared.length}, distinct events ${sharedIds.size}, feed entries ${sharedFeed}`,
      );
      report(
        'webhook posts per target host',
        `OPENCONTRACT_WEBHOOK_HOST_RATE=${burst}/${perSecond}: 5 keys' URLs on one host, ${want} feed entries in all`,
        worst <= 0 && new Set(listener.posts.map((q) => `${q.path} ${q.id}`)).size === want,
        `${listener.posts.length} posts over ${seconds.toFixed(1)} s (${(listener.posts.length / Math.max(seconds, 1)).toFixed(1)}/s); ` +
          `most posts over the bucket's bound in any window: ${Math.max(0, Math.ceil(worst))}; every entry arrived: ${new Set(listener.posts.map((q) => `${q.path} ${q.id}`)).size}/${want}`,
      );
      return {
        posts: listener.posts.length,
        sharedUrlPosts: onShared.length,
        sharedUrlEvents: sharedIds.size,
        seconds,
      };
    },
  );
}

void runSession({}, async () => {
  const auction = await crowdOut();
  const sameAddress = await sharedAddress();
  const proxy = await behindProxy();
  await webhookTargets();
  const webhooks = await webhookDeliveries();
  return { budget: budget().toString(), auction, sameAddress, proxy, webhooks };
});
