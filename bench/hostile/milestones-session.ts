// A black-box hostile session against milestones and change requests (docs/protocol.md §3 "Milestones",
// §6a, §7 "Request changes"), through HTTP only: a Client that revises to stall or to avoid paying, a
// Worker that games milestone shares, deadlines and order, and strangers with many keys. It starts the
// real `npm start` tree with a short revision window, gives every key its money by operator deposits
// (the session's whole budget), runs each attack with the honest party's outcome read from the
// balances and statuses the API serves, prints what it tried and what held, and one JSON summary. Exit
// code 1 if anything did not hold. `--url` is for a fresh service started with the same
// OPENCONTRACT_PARAMS.
//
//   npx tsx bench/hostile/milestones-session.ts
import {
  balances,
  create,
  DELIVERY,
  funded,
  fundedKey,
  newKey,
  patient,
  report,
  runSession,
  send,
  sleep,
  USDC,
  type Key,
  phaseTimer,
} from './session-kit';

const SECOND = 1_000;
const REVISION_WINDOW_MS = 5 * SECOND;
const MAX_REVISIONS = 2;
const PRICE = (25n * USDC) / 10n;
const WORKER_STAKE = PRICE / 10n;
/** Two milestones of 5000 bps each: their amounts and their shares of the Worker Stake. */
const HALF = PRICE / 2n;
const STAKE_HALF = WORKER_STAKE / 2n;
const PANEL_FEE = 3n * 200_000n;
const ABSENT_TO_CLIENT_BPS = 8_000n;
const NOTE = 'NOTE-MS7Q: part 1 skips the appendix';
const REDELIVERY = { ...DELIVERY, uri: 'https://files.example/out-v2.enc', sha256: 'ef'.repeat(32) };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type View = any;
const view = async (who: Key | undefined, id: string): Promise<View> =>
  (await patient(who, 'GET', `/contracts/${id}`)).json;
const settled = (v: View) => typeof v?.status === 'string' && /^(settled|cancelled)-/.test(v.status);

/** Reads a contract until `ok`, noting every status (and milestone status) it passes through. */
async function watch(who: Key, id: string, ok: (v: View) => boolean, ms = 60_000) {
  const seen = new Set<string>();
  const until = Date.now() + ms;
  for (;;) {
    const v = await view(who, id);
    seen.add(v.status);
    for (const m of v.milestones ?? []) seen.add(`m${m.index}:${m.status}`);
    if (ok(v)) return { v, seen };
    if (Date.now() > until) throw new Error(`${id}: waited ${ms} ms; status ${v?.status}`);
    await sleep(400);
  }
}
const sleepUntil = (at: number) => sleep(Math.max(0, at - Date.now()));
const money = async (k: Key) => {
  const b = await balances(k);
  return `${b.available}/${b.held}`;
};
const is = async (k: Key, available: bigint, held: bigint) => {
  const b = await balances(k);
  return b.available === available && b.held === held;
};

/** A milestone plan: each entry is [shareBps, delivery s, review s] from `now`; two criteria each. */
function plan(now: number, entries: [number, number, number | null][]) {
  const at = (s: number) => new Date(now + s * SECOND).toISOString();
  return entries.map(([shareBps, delivery, review], i) => ({
    title: `part ${i + 1}`,
    acceptanceCriteria: [`part ${i + 1} complete`, `part ${i + 1} accurate`],
    shareBps,
    deadlines: { delivery: at(delivery), ...(review === null ? {} : { review: at(review) }) },
  }));
}
function milestoneTerms(
  worker: Key,
  now: number,
  entries: [number, number, number | null][],
  extra: Record<string, unknown> = {},
) {
  const at = (s: number) => new Date(now + s * SECOND).toISOString();
  return {
    contractType: 'fixed',
    awardMethod: 'direct',
    worker: worker.address,
    verificationMode: 'privacy-preserving',
    taskDescription: 'A report in two parts.',
    amount: PRICE.toString(),
    deadlines: { match: at(5), withdrawal: at(6) },
    milestones: plan(now, entries),
    ...extra,
  };
}

/** A funded Client and Worker, a two-milestone direct contract created and accepted. */
async function accepted(
  entries: [number, number, number | null][],
  extra: Record<string, unknown> = {},
  clientFunds = PRICE,
) {
  const client = await fundedKey(clientFunds);
  const worker = await fundedKey(WORKER_STAKE);
  const now = Date.now();
  const id = await create(client, milestoneTerms(worker, now, entries, extra));
  const acc = await patient(worker, 'POST', `/contracts/${id}/accept`, {});
  if (acc.status !== 200) throw new Error(`accept: ${acc.status} ${JSON.stringify(acc.json)}`);
  return { id, client, worker, now };
}
const deliver = (w: Key, id: string, body: object = DELIVERY) =>
  patient(w, 'POST', `/contracts/${id}/deliveries`, body);
const revise = (c: Key, id: string, body: object = { criteria: [1] }) =>
  patient(c, 'POST', `/contracts/${id}/revisions`, body);
const approve = (c: Key, id: string) => patient(c, 'POST', `/contracts/${id}/approve`, {});
const code = (res: { status: number; json: View }) => `${res.status} ${res.json?.error?.code ?? ''}`.trim();

/**
 * The Client revises to stall: it asks for changes just before the delivery deadline and again the
 * moment the review resumes (each moves the deadlines by the window), is refused a third, then never answers. The Worker
 * does not redeliver. Its delivery must stand, the review time out into approval and pay milestone 1
 * no later than the terms' review deadline + maxRevisions × revisionWindow; never `cancelled-absent`.
 * Then milestone 2 is delivered, the Client stays silent past its review deadline and revises: 409.
 */
async function reviseToStall() {
  // m1: delivery +10 s, review +14 s; m2: delivery +30 s, review +34 s. The first request at +9 s moves
  // m1 to +14/+18 s, the second (at +14 s, the review resumed) to +19/+23 s: the terms' +14 s + 2 windows.
  const { id, client, worker, now } = await accepted([
    [5000, 10, 14],
    [5000, 30, 34],
  ]);
  const first = await deliver(worker, id);
  await sleepUntil(now + 9 * SECOND);
  const r1 = await revise(client, id, { criteria: [0], note: NOTE });
  // A change request sends the contract back to `matched`: the Client may ask again only once the review
  // resumes, when the moved delivery deadline has passed with the Worker's delivery standing.
  const resumed1 = await watch(client, id, (v) => v.status === 'under-review');
  const r2 = await revise(client, id);
  const resumed2 = await watch(client, id, (v) => v.status === 'under-review');
  const r3 = await revise(client, id);
  const movedReview = Date.parse(r2.json?.deadlines?.review ?? '');
  const m1 = await watch(
    client,
    id,
    (v) => v.milestones?.[0]?.status !== 'pending' && v.currentMilestone === 1,
  );
  const m1SettledAfterMs = Date.now() - now;
  const bound = 14 * SECOND + MAX_REVISIONS * REVISION_WINDOW_MS;
  const workerAfterM1 = await balances(worker);
  const d2 = await deliver(worker, id);
  const end = await watch(client, id, settled);
  const late = await revise(client, id);
  const seen = new Set([...resumed1.seen, ...resumed2.seen, ...m1.seen, ...end.seen]);
  const clientOk = await is(client, 0n, 0n);
  const workerOk = await is(worker, WORKER_STAKE + PRICE, 0n);
  report(
    'revise to stall',
    'the Client revises just before the delivery deadline and again as soon as the review resumes, a third time, then never answers; the Worker never redelivers',
    first.status === 200 &&
      r1.status === 200 &&
      r2.status === 200 &&
      r2.json?.revisionCount === 2 &&
      r3.status === 409 &&
      r3.json?.error?.code === 'revisions_exhausted' &&
      m1.v.milestones[0].status === 'settled-fully-met' &&
      m1.v.milestones[0].payment === HALF.toString() &&
      workerAfterM1.available === HALF + STAKE_HALF &&
      m1SettledAfterMs <= bound + 4 * SECOND &&
      ![...seen].some((s) => s.includes('cancelled')) &&
      d2.status === 200 &&
      end.v.status === 'settled-fully-met' &&
      late.status === 409 &&
      clientOk &&
      workerOk,
    `revisions → ${code(r1)}, ${code(r2)} (review moved to +${Math.round((movedReview - now) / SECOND)} s; each time the delivery stood and the review resumed), third → ${code(r3)}; ` +
      `milestone 1 ${m1.v.milestones[0].status} paid ${m1.v.milestones[0].payment} at +${Math.round(m1SettledAfterMs / SECOND)} s ` +
      `(bound: terms' review + ${MAX_REVISIONS} × window = +${bound / SECOND} s); statuses seen ${[...seen].join(',')}; ` +
      `milestone 2 delivered → ${d2.status}, the Client silent: ${end.v.status}; revise after the review deadline → ${code(late)}; ` +
      `client ${await money(client)}, worker ${await money(worker)} (stake + price)`,
  );
  return { m1SettledAfterSeconds: Math.round(m1SettledAfterMs / SECOND), boundSeconds: bound / SECOND };
}

/**
 * Change requests are privacy-preserving only: a standard-mode milestone contract refuses one (409)
 * and nothing moves; its Worker then never delivers and is absent: the escrow and both panel fees go
 * back, the whole stake is slashed (80 % to the Client). Returns what went to the Treasury.
 */
async function reviseInStandardMode() {
  const { id, client, worker } = await accepted(
    [
      [5000, 9, null],
      [5000, 20, null],
    ],
    { verificationMode: 'standard' },
    PRICE + 2n * PANEL_FEE,
  );
  const refused = await revise(client, id);
  const heldAfter = await is(client, 0n, PRICE + 2n * PANEL_FEE);
  const end = await watch(client, id, settled);
  const toClient = (WORKER_STAKE * ABSENT_TO_CLIENT_BPS) / 10_000n;
  const clientOk = await is(client, PRICE + 2n * PANEL_FEE + toClient, 0n);
  const workerOk = await is(worker, 0n, 0n);
  report(
    'revise in standard mode',
    'a standard-mode two-milestone contract: the Client asks for changes (the panel decides there); the Worker then never delivers',
    refused.status === 409 &&
      refused.json?.error?.code === 'standard_mode' &&
      heldAfter &&
      end.v.status === 'cancelled-absent' &&
      clientOk &&
      workerOk,
    `revise → ${code(refused)}, nothing moved: ${heldAfter}; ${end.v.status}; client ${await money(client)} ` +
      `(escrow + 2 panel fees back + ${toClient} of the stake), worker ${await money(worker)}`,
  );
  return WORKER_STAKE - toClient;
}

/**
 * The Client tries not to pay: it holds exactly the price, cancels after milestone 1's delivery,
 * disputes without the bond, asks for changes on the milestone it already settled. Each is refused
 * with nothing moved; once it approves both milestones the Worker holds its stake and the price.
 */
async function avoidPaying() {
  const { id, client, worker } = await accepted([
    [5000, 20, 25],
    [5000, 30, 35],
  ]);
  await deliver(worker, id);
  const cancel = await patient(client, 'POST', `/contracts/${id}/cancel`, {});
  const dispute = await patient(client, 'POST', `/contracts/${id}/disputes`, {});
  const unmoved =
    (await is(client, 0n, PRICE)) &&
    (await is(worker, 0n, WORKER_STAKE)) &&
    (await view(client, id)).status === 'under-review';
  const a1 = await approve(client, id);
  const settledM1 = await revise(client, id);
  const earlyDispute = await patient(client, 'POST', `/contracts/${id}/disputes`, {});
  const afterM1 = (await is(client, 0n, HALF)) && (await is(worker, HALF + STAKE_HALF, STAKE_HALF));
  await deliver(worker, id);
  const a2 = await approve(client, id);
  const clientOk = await is(client, 0n, 0n);
  const workerOk = await is(worker, WORKER_STAKE + PRICE, 0n);
  report(
    'avoid paying',
    'a Client holding exactly the price cancels after milestone 1 is delivered, disputes with no bond, revises the milestone it settled',
    cancel.status === 409 &&
      dispute.status === 402 &&
      unmoved &&
      a1.status === 200 &&
      settledM1.status === 409 &&
      earlyDispute.status === 409 &&
      afterM1 &&
      a2.json?.status === 'settled-fully-met' &&
      clientOk &&
      workerOk,
    `cancel → ${code(cancel)}, dispute → ${code(dispute)}, nothing moved: ${unmoved}; approve → ${a1.status}; ` +
      `revise on settled milestone 1 (current is milestone 2, undelivered) → ${code(settledM1)}, dispute → ${code(earlyDispute)}; ` +
      `after milestone 1 client/worker as expected: ${afterM1}; end ${a2.json?.status}; client ${await money(client)}, worker ${await money(worker)}`,
  );
}

/**
 * The Worker (as a Client of its own contracts, or the one writing the plan) games shares and
 * deadlines: each bad plan is a 400 naming the field, and nothing is held.
 */
async function badPlans() {
  const client = await fundedKey(PRICE);
  const worker = newKey();
  const cases: [string, (now: number) => object, string][] = [
    [
      'shares summing to 9000',
      (now) =>
        milestoneTerms(worker, now, [
          [5000, 20, 25],
          [4000, 30, 35],
        ]),
      'milestones',
    ],
    [
      'shares summing to 11000 (one over)',
      (now) =>
        milestoneTerms(worker, now, [
          [6000, 20, 25],
          [5000, 30, 35],
        ]),
      'milestones',
    ],
    [
      'a milestone with share 0',
      (now) =>
        milestoneTerms(worker, now, [
          [10000, 20, 25],
          [0, 30, 35],
        ]),
      'milestones.1.shareBps',
    ],
    [
      'a negative share',
      (now) =>
        milestoneTerms(worker, now, [
          [12000, 20, 25],
          [-2000, 30, 35],
        ]),
      'milestones.1.shareBps',
    ],
    [
      "milestone 2's delivery before milestone 1's review",
      (now) =>
        milestoneTerms(worker, now, [
          [5000, 20, 25],
          [5000, 22, 35],
        ]),
      'milestones.1.deadlines.delivery',
    ],
    [
      'a review before its delivery',
      (now) =>
        milestoneTerms(worker, now, [
          [5000, 20, 18],
          [5000, 30, 35],
        ]),
      'milestones.0.deadlines.review',
    ],
    [
      '11 milestones',
      (now) =>
        milestoneTerms(
          worker,
          now,
          Array.from({ length: 11 }, (_, i): [number, number, number] => [
            i < 10 ? 909 : 10000 - 909 * 10,
            20 + 10 * i,
            25 + 10 * i,
          ]),
        ),
      'milestones',
    ],
    ['one milestone', (now) => milestoneTerms(worker, now, [[10000, 20, 25]]), 'milestones'],
    [
      'milestones and top-level criteria',
      (now) =>
        milestoneTerms(
          worker,
          now,
          [
            [5000, 20, 25],
            [5000, 30, 35],
          ],
          { acceptanceCriteria: ['sneaked in'] },
        ),
      'acceptanceCriteria',
    ],
  ];
  const answers: string[] = [];
  let allHeld = true;
  for (const [name, body, field] of cases) {
    const res = await send(client, 'POST', '/contracts', body(Date.now()));
    const named = JSON.stringify(res.json ?? {}).includes(field);
    const ok = res.status === 400 && named;
    allHeld &&= ok;
    answers.push(
      `${name} → ${res.status}${named ? ` names ${field}` : ` (no ${field}: ${JSON.stringify(res.json)})`}`,
    );
  }
  const nothingHeld = await is(client, PRICE, 0n);
  report(
    'bad milestone plans',
    `${cases.length} plans gaming shares, deadlines, count and criteria`,
    allHeld && nothingHeld,
    `${answers.join('; ')}; client ${await money(client)} (nothing held: ${nothingHeld})`,
  );
}

/**
 * The Worker jumps ahead: a second delivery while milestone 1 is under review, naming milestone 2,
 * must not touch milestone 2. Then, milestone 1 paid, it is absent on milestone 2: milestone 1's
 * payment stands, the rest of the escrow goes back, the second stake share is slashed. Returns what
 * went to the Treasury.
 */
async function jumpAheadThenAbsent() {
  const { id, client, worker } = await accepted([
    [5000, 9, 12],
    [5000, 16, 20],
  ]);
  await deliver(worker, id);
  const ahead = await deliver(worker, id, { ...REDELIVERY, milestone: 1 });
  // The same without the extra field: a delivery acts on the current milestone, which is under review.
  const again = await deliver(worker, id, REDELIVERY);
  const v = await view(client, id);
  const untouched =
    v.currentMilestone === 0 &&
    v.milestones[1].status === 'pending' &&
    v.status === 'under-review' &&
    ahead.status >= 400 &&
    again.status === 409 &&
    v.delivery?.sha256 === DELIVERY.sha256;
  const a1 = await approve(client, id);
  const end = await watch(client, id, settled);
  const slashToClient = (STAKE_HALF * ABSENT_TO_CLIENT_BPS) / 10_000n;
  const clientOk = await is(client, HALF + slashToClient, 0n);
  const workerOk = await is(worker, WORKER_STAKE - STAKE_HALF + HALF, 0n);
  report(
    'jump ahead, then absent',
    'the Worker delivers again naming milestone 2 while milestone 1 is under review; after milestone 1 is paid it never delivers milestone 2',
    untouched &&
      a1.status === 200 &&
      end.v.status === 'settled-partially-met' &&
      end.v.milestones[0].payment === HALF.toString() &&
      end.v.milestones[1].status === 'cancelled-absent' &&
      clientOk &&
      workerOk,
    `second delivery naming milestone 2 → ${code(ahead)}, without the field → ${code(again)}; milestone 2 untouched (${v.milestones[1].status}, current ${v.currentMilestone}): ${untouched}; ` +
      `approve → ${a1.status}; end ${end.v.status}, milestones ${end.v.milestones.map((m: View) => `${m.status}:${m.payment}`).join(' ')}; ` +
      `client ${await money(client)} (half back + ${slashToClient}), worker ${await money(worker)} (milestone 1 + its stake share)`,
  );
  return STAKE_HALF - slashToClient;
}

/**
 * Strangers with many keys act on a milestone contract under a change request: each refused, nothing
 * changes; the Client's note reaches the Worker's party view and nothing a stranger reads.
 */
async function strangers(n = 6) {
  const { id, client, worker } = await accepted([
    [5000, 30, 35],
    [5000, 45, 50],
  ]);
  await deliver(worker, id);
  const asked = await revise(client, id, { criteria: [0, 1], note: NOTE });
  const before = await view(client, id);
  const keys = Array.from({ length: n }, newKey);
  const refusals = new Map<string, number>();
  const count = (what: string, status: number) =>
    refusals.set(`${what} ${status}`, (refusals.get(`${what} ${status}`) ?? 0) + 1);
  for (const k of keys) {
    count('revise', (await revise(k, id, { criteria: [0], note: 'stranger' })).status);
    count('approve', (await approve(k, id)).status);
    count('deliver', (await deliver(k, id, REDELIVERY)).status);
    count('dispute', (await patient(k, 'POST', `/contracts/${id}/disputes`, {})).status);
  }
  count('worker revise', (await revise(worker, id)).status);
  count('client deliver', (await deliver(client, id, REDELIVERY)).status);
  const after = await view(client, id);
  const unchanged =
    after.status === before.status &&
    after.revisionCount === 1 &&
    after.currentMilestone === 0 &&
    after.delivery?.sha256 === DELIVERY.sha256 &&
    (await is(client, 0n, PRICE)) &&
    (await is(worker, 0n, WORKER_STAKE));
  const onlyRefused = [...refusals.keys()].every((k) => / 40[34]$/.test(k));
  const reads = {
    publicView: await view(keys[0]!, id),
    anonymousView: await view(undefined, id),
    publicEvents: (await patient(keys[1]!, 'GET', `/contracts/${id}/events`)).json,
    strangerFeed: (await patient(keys[2]!, 'GET', `/agents/${keys[2]!.address}/feed`)).json,
    partyEvents: (await patient(worker, 'GET', `/contracts/${id}/events`)).json,
  };
  const leaked = Object.entries(reads)
    .filter(([, v]) => JSON.stringify(v ?? null).includes('NOTE-MS7Q'))
    .map(([k]) => k);
  const workerSees = JSON.stringify(await view(worker, id)).includes('NOTE-MS7Q');
  await deliver(worker, id, REDELIVERY);
  await approve(client, id);
  await deliver(worker, id);
  const end = await approve(client, id);
  const strangersUntouched = (await Promise.all(keys.map((k) => is(k, 0n, 0n)))).every(Boolean);
  const partiesOk = (await is(client, 0n, 0n)) && (await is(worker, WORKER_STAKE + PRICE, 0n));
  report(
    'strangers with many keys',
    `${n} stranger keys revise, approve, deliver and dispute on a milestone contract under a change request; the Worker revises, the Client delivers`,
    asked.status === 200 &&
      unchanged &&
      onlyRefused &&
      leaked.length === 0 &&
      workerSees &&
      end.json?.status === 'settled-fully-met' &&
      strangersUntouched &&
      partiesOk,
    `answers ${[...refusals].map(([k, c]) => `${k}×${c}`).join(', ')}; contract unchanged: ${unchanged}; the note in ` +
      `${leaked.join(',') || 'none of public view, anonymous view, public events, stranger feed, party events'} ` +
      `(in the Worker's party view: ${workerSees}); end ${end.json?.status}; client ${await money(client)}, worker ${await money(worker)}`,
  );
  return { strangerKeys: n };
}

/** Every key is terminal: nothing held, and the agents lost exactly what the rules sent to the Treasury. */
async function books(expectedToTreasury: bigint) {
  const rows = await Promise.all([...funded.values()].map(async (f) => ({ f, b: await balances(f.key) })));
  const deposited = rows.reduce((s, r) => s + r.f.deposited, 0n);
  const remaining = rows.reduce((s, r) => s + r.b.available + r.b.held, 0n);
  const held = rows.filter((r) => r.b.held !== 0n);
  report(
    'the books',
    `${rows.length} funded keys, every contract ended`,
    held.length === 0 && deposited - remaining === expectedToTreasury,
    `deposited ${deposited}, left with the agents ${remaining} (net to the Treasury ${deposited - remaining}, ` +
      `the absent slashes' Treasury shares ${expectedToTreasury}); keys still holding: ${held.length}`,
  );
  return {
    keys: rows.length,
    deposited: deposited.toString(),
    netToTreasury: (deposited - remaining).toString(),
  };
}

async function main() {
  const params = { revisionWindow: REVISION_WINDOW_MS, maxRevisions: MAX_REVISIONS };
  await runSession({ OPENCONTRACT_PARAMS: JSON.stringify(params) }, async () => {
    const { timings, timed } = phaseTimer();
    // The long waits (deadlines passing) of independent attacks overlap; each has its own keys.
    const [stall, standardSlash, , absentSlash, many] = await Promise.all([
      timed('reviseToStall', reviseToStall),
      timed('reviseInStandardMode', reviseInStandardMode),
      timed('avoidPaying', avoidPaying),
      timed('jumpAheadThenAbsent', jumpAheadThenAbsent),
      timed('strangers', () => strangers()),
      timed('badPlans', badPlans),
    ]);
    const ledger = await books(standardSlash + absentSlash);
    return { params, secondsPerAttack: timings, stall, ...many, money: ledger };
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
