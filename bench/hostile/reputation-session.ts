// A black-box hostile session against reputation (docs/reputation.md), through HTTP only: inflate a
// score with a ring of self-dealing keys (then with a bridge bought by one real job), poison a viewer's
// trust (pay the viewer, so it would vouch for the payer; pay a Worker the viewer trusts from keys it
// does not, to dilute it), break the chain (write to the log, page it with hostile parameters, end a
// contract twice), and make the independent auditor disagree with the service (address case, a churned
// viewer cache, endings racing the audit). It starts the real `npm start` tree, gives every key its money
// by operator deposits, prints what it tried and what held, and one JSON summary; exit code 1 if
// anything did not hold.
//
//   npx tsx bench/hostile/reputation-session.ts [--url <base> --operator-token <token>]
import { audit } from '../../scripts/audit/auditor';
import { verifyChain, type ChainedOutcome } from '../../workflows/rules/outcomes';
import {
  create,
  DELIVERY,
  fundedKey,
  newKey,
  patient,
  report,
  runSession,
  send,
  sleep,
  target,
  terms,
  USDC,
  type Key,
} from './session-kit';

const HONEST = 4;
const HONEST_JOBS = 12;
const RING = 6;
const RING_JOBS = 30;
const RING_PRICE = 20n * USDC;
/** What each key is given: the dearest job it may pay for, its stake and fees, with room to spare. */
const FUNDS = 200n * USDC;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const settled = (v: Json) => typeof v?.status === 'string' && v.status.startsWith('settled-');

/** A direct-award job, accepted, delivered, approved and settled: one ending, two outcome records. */
async function job(client: Key, worker: Key, amount: bigint): Promise<string> {
  const id = await create(
    client,
    terms({ awardMethod: 'direct', worker: worker.address, amount: amount.toString() }),
  );
  for (const [who, path, body] of [
    [worker, `/contracts/${id}/accept`, {}],
    [worker, `/contracts/${id}/deliveries`, DELIVERY],
    [client, `/contracts/${id}/approve`, {}],
  ] as const) {
    const res = await patient(who, 'POST', path, body);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.json)}`);
  }
  for (const until = Date.now() + 60_000; ; await sleep(300)) {
    if (settled((await patient(client, 'GET', `/contracts/${id}`)).json)) return id;
    if (Date.now() > until) throw new Error(`${id} did not settle`);
  }
}

/** The log's head, once it holds at least `sequence` records (the endings above appended theirs). */
async function head(atLeast = 0): Promise<{ sequence: number; hash: string }> {
  for (const until = Date.now() + 60_000; ; await sleep(300)) {
    const res = await send(undefined, 'GET', '/outcomes/head');
    if (res.status === 200 && res.json.sequence >= atLeast) return res.json;
    if (Date.now() > until) throw new Error(`the head stayed below ${atLeast}`);
  }
}

async function allRecords(): Promise<ChainedOutcome[]> {
  const records: ChainedOutcome[] = [];
  for (let after: number | null = 0; after !== null;) {
    const res = await send(undefined, 'GET', `/outcomes?after=${after}&limit=1000`);
    if (res.status !== 200) throw new Error(`GET /outcomes: ${res.status}`);
    records.push(...res.json.records);
    after = res.json.next;
  }
  return records;
}

async function reputation(of: Key | string, viewer: Key): Promise<Json> {
  const address = typeof of === 'string' ? of : of.address;
  return (await send(undefined, 'GET', `/agents/${address}/reputation?viewer=${viewer.address}`)).json;
}
const score = async (of: Key, viewer: Key): Promise<number> => (await reputation(of, viewer)).trust.score;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const usdc = (minor: bigint | string) => Number(BigInt(minor) / USDC);

let counter = 0;
const pick = <T>(xs: readonly T[]) => xs[(counter = (counter * 7 + 3) % 9973) % xs.length]!;

async function trades(keys: Key[], count: number, amount: (i: number) => bigint) {
  for (let i = 0; i < count; i++) {
    const client = pick(keys);
    let worker = pick(keys);
    while (worker === client) worker = pick(keys);
    await job(client, worker, amount(i));
  }
}

async function attacks(): Promise<Record<string, unknown>> {
  const honest = await Promise.all(Array.from({ length: HONEST }, () => fundedKey(FUNDS)));
  const ring = await Promise.all(Array.from({ length: RING }, () => fundedKey(FUNDS)));
  const viewer = honest[0]!;
  await trades(honest, HONEST_JOBS, (i) => BigInt(2 + (i % 5)) * USDC);
  await trades(ring, RING_JOBS, () => RING_PRICE);
  await head(2 * (HONEST_JOBS + RING_JOBS));

  // ---- Inflate a score: a ring trading among itself, seen from an honest viewer.
  const workerVolume = async (keys: Key[]) =>
    (await Promise.all(keys.map((k) => reputation(k, viewer)))).reduce(
      (s, r) => s + usdc(r.raw.worker.volume),
      0,
    );
  const honestScores = async () =>
    (await Promise.all(honest.slice(1).map((k) => score(k, viewer)))).filter((s) => s > 0);
  const ringScores = () => Promise.all(ring.map((k) => score(k, viewer)));
  const [ringVolume, honestVolume] = [await workerVolume(ring), await workerVolume(honest)];
  const isolated = await ringScores();
  report(
    'inflate: isolated ring',
    `${RING} keys, ${RING_JOBS} jobs of ${usdc(RING_PRICE)} USDC among themselves; ${HONEST} honest keys, ${HONEST_JOBS} small jobs`,
    isolated.every((s) => s === 0) && ringVolume > honestVolume,
    `ring raw Worker volume ${ringVolume} USDC vs honest ${honestVolume}; ring scores from an honest viewer ${JSON.stringify(isolated)}, median honest Worker ${median(await honestScores())}`,
  );

  // A bridge: an honest Client pays one ring key for one small real job, then the ring trades on; an
  // honest newcomer does the same job for the same Client, for reference.
  const newcomer = await fundedKey(FUNDS);
  await job(honest[1]!, ring[0]!, 2n * USDC);
  await job(honest[1]!, newcomer, 2n * USDC);
  await trades(ring, 10, () => RING_PRICE);
  await head(2 * (HONEST_JOBS + RING_JOBS + 12));
  const bridged = await ringScores();
  const medianHonest = median(await honestScores());
  const newcomerScore = await score(newcomer, viewer);
  report(
    'inflate: a bridge bought with one real job',
    'an honest Client pays ring key 0 for a 2 USDC job; the ring trades 10 more jobs',
    bridged.every((s) => s <= medianHonest / 100) && bridged[0]! < newcomerScore,
    `ring scores / median honest Worker (${medianHonest}): ${bridged.map((s) => (s / medianHonest).toExponential(2)).join(', ')}; the same job done by a clean newcomer: ${(newcomerScore / medianHonest).toExponential(2)}`,
  );

  // ---- Poison a viewer's trust.
  // Pay the viewer: if being paid vouched for the payer, the attacker would earn the viewer's trust.
  const attacker = await fundedKey(FUNDS);
  await job(attacker, viewer, 50n * USDC);
  await head(2 * (HONEST_JOBS + RING_JOBS + 13));
  const attackerScore = await score(attacker, viewer);
  report(
    'poison: pay the viewer',
    'a fresh key hires the viewer for a 50 USDC job, to be vouched for by it',
    attackerScore === 0,
    `the payer's score from the viewer: ${attackerScore}`,
  );
  // Dilute a Worker the viewer trusts: hire it for much more than its honest record, from ring keys.
  const trusted = honest[2]!;
  const before = await score(trusted, viewer);
  const honestPaid = usdc((await reputation(trusted, viewer)).raw.worker.volume);
  for (let i = 0; i < 3; i++) await job(ring[1 + i]!, trusted, RING_PRICE);
  await head(2 * (HONEST_JOBS + RING_JOBS + 16));
  const after = await score(trusted, viewer);
  report(
    'poison: dilute a trusted Worker by paying it from untrusted keys',
    `ring keys hire honest key 2 (paid ${honestPaid} USDC by honest Clients) for 3 × ${usdc(RING_PRICE)} USDC`,
    after >= before / 2,
    `its score from the viewer ${before} → ${after} (× ${(after / before).toFixed(3)}), at a cost to the ring of ${3 * usdc(RING_PRICE)} USDC paid to it: the coverage counts only what the viewer's money traces to (docs/reputation.md §5)`,
  );
  const other = newKey();
  const asOther = await send(other, 'GET', `/agents/${ring[0]!.address}/reputation`);
  report(
    'poison: read as a stranger',
    'a signed key no one has paid reads a ring key (its own viewpoint), and with viewer= a malformed address',
    asOther.status === 200 &&
      asOther.json.trust.score === 0 &&
      (await send(other, 'GET', `/agents/${ring[0]!.address}/reputation?viewer=0xnothex`)).status === 400,
    `score ${asOther.json.trust?.score} from ${other.address.slice(0, 10)}…`,
  );

  // ---- Break the chain.
  const headBefore = await head();
  const writes = await Promise.all(
    (['POST', 'PUT', 'DELETE', 'PATCH'] as const).flatMap((m) => [
      send(attacker, m, '/outcomes', { sequence: 1, amount: '1' }),
      send(attacker, m, '/outcomes/head', { sequence: 0 }),
    ]),
  );
  const headAfterWrites = await head();
  report(
    'chain: write to the log',
    'POST/PUT/DELETE/PATCH on /outcomes and /outcomes/head, signed',
    writes.every((w) => w.status >= 400 && w.status < 500) && headAfterWrites.hash === headBefore.hash,
    `statuses ${[...new Set(writes.map((w) => w.status))].join(', ')}; head unchanged: ${headAfterWrites.hash === headBefore.hash}`,
  );
  const params = [
    'after=-1',
    'after=abc',
    'after=1e30',
    'after=99999999999999999',
    'limit=0',
    'limit=1001',
    'limit=99999',
    'after=1&after=2',
    'limit=1.5',
  ];
  const paged = await Promise.all(params.map((p) => send(undefined, 'GET', `/outcomes?${p}`)));
  report(
    'chain: hostile paging',
    params.join(' '),
    paged.every((r) => r.status < 500 && (r.status !== 200 || r.json.records.length <= 1000)),
    params
      .map(
        (p, i) =>
          `${p} → ${paged[i]!.status}${paged[i]!.status === 200 ? ` (${paged[i]!.json.records.length})` : ''}`,
      )
      .join('; '),
  );
  const twice = await job(honest[3]!, honest[1]!, 3n * USDC);
  const again = await Promise.all([
    send(honest[3]!, 'POST', `/contracts/${twice}/approve`, {}),
    send(honest[3]!, 'POST', `/contracts/${twice}/cancel`, {}),
    send(honest[1]!, 'POST', `/contracts/${twice}/deliveries`, { ...DELIVERY, sha256: 'ef'.repeat(32) }),
  ]);
  // The same delivery again is a retry, answered with the contract as it is: no new ending.
  const retry = await send(honest[1]!, 'POST', `/contracts/${twice}/deliveries`, DELIVERY);
  const records = await allRecords();
  const keys = records.map((r) => `${r.contractId}:${r.milestoneIndex}:${r.role}:${r.party}`);
  const problems = verifyChain(records);
  const last = records.at(-1);
  const finalHead = await head();
  report(
    'chain: end a contract twice, then read it all back',
    'approve, cancel, deliver something else and retry the delivery on a settled contract; every page of the log checked',
    again.every((a) => a.status >= 400 && a.status < 500) &&
      settled(retry.json) &&
      new Set(keys).size === keys.length &&
      records.filter((r) => r.contractId === twice).length === 2 &&
      problems.length === 0 &&
      last?.sequence === finalHead.sequence &&
      last.hash === finalHead.hash,
    `repeats answered ${again.map((a) => a.status).join(', ')}, the retry ${retry.status} (${retry.json?.status}); ${records.length} records, ${new Set(keys).size} distinct (contract, milestone, role, party); chain problems ${problems.length}; head ${finalHead.sequence} matches the last page`,
  );

  // ---- Make the auditor disagree.
  const lower = await reputation(ring[0]!, viewer);
  const upper = await send(
    undefined,
    'GET',
    `/agents/0x${ring[0]!.address.slice(2).toUpperCase()}/reputation?viewer=0x${viewer.address.slice(2).toUpperCase()}`,
  );
  report(
    'auditor: address case',
    'the same agent and viewer read with upper-case hex',
    upper.status === 400 ||
      (JSON.stringify(upper.json.raw) === JSON.stringify(lower.raw) &&
        upper.json.trust.score === lower.trust.score),
    `${upper.status}: ${upper.status === 200 ? `raw equal ${JSON.stringify(upper.json.raw) === JSON.stringify(lower.raw)}, score ${upper.json.trust.score} vs ${lower.trust.score}` : JSON.stringify(upper.json)}`,
  );
  // Churn the read model's per-viewer cache (more viewers than it keeps) while endings land, then audit
  // while two more contracts end.
  const churn = Array.from({ length: 300 }, () => newKey());
  const reads = (async () => {
    for (const v of churn)
      await send(undefined, 'GET', `/agents/${ring[0]!.address}/reputation?viewer=${v.address}`);
  })();
  await Promise.all([reads, job(honest[1]!, honest[2]!, 4n * USDC), job(ring[2]!, ring[3]!, RING_PRICE)]);
  const [racing] = await Promise.all([
    audit(target.base),
    job(honest[2]!, honest[3]!, 2n * USDC),
    job(ring[4]!, ring[5]!, RING_PRICE),
  ]);
  report(
    'auditor: endings racing the audit, after 300 viewers churned the cache',
    'npm run audit (the module) while two contracts end',
    racing.differences.length === 0,
    `${racing.records} records, ${racing.agents} agents: ${racing.differences.length} differences ${racing.differences.slice(0, 3).join(' | ')}`,
  );
  const final = await audit(target.base, undefined, finalHead);
  report(
    'auditor: the whole log at the end, against the head kept before the last endings',
    'npm run audit (the module) with the earlier head',
    final.differences.length === 0,
    `${final.records} records, ${final.contracts} contracts, ${final.agents} agents: ${final.differences.length} differences ${final.differences.slice(0, 3).join(' | ')}`,
  );
  return { records: final.records, agents: final.agents };
}

void runSession({}, attacks);
