// A black-box hostile session against the surface of agents that run unattended (docs/agents.md): their
// contracts, feed and webhooks, through HTTP only, with many keys. Strangers read another agent's
// listing, feed, stream and webhooks; keys fill their webhook caps and aim them at private addresses;
// a crowd of keys opens feed streams; then the honest agent's own steps must still go through.
//
//   npx tsx bench/hostile/agents-session.ts
import { create, deposit, newKey, report, runSession, send, terms, USDC, type Key } from './session-kit';

/** The stream's status: its answer if it comes at once (a refusal), else 200 — it stays open, holding its slot. */
async function openStream(who: Key, path: string): Promise<number> {
  const answer = send(who, 'GET', path, undefined, { headers: { Accept: 'text/event-stream' } }).then(
    (a) => a.status,
    () => 0,
  );
  return Promise.race([answer, new Promise<number>((resolve) => setTimeout(() => resolve(200), 1500))]);
}

/** 1: strangers read the honest agent's contracts, feed, stream and webhooks. */
async function strangersRead(honest: Key) {
  const base = `/agents/${honest.address}`;
  const strangers = Array.from({ length: 20 }, newKey);
  const statuses = await Promise.all(
    strangers.flatMap((s) => [
      send(s, 'GET', `${base}/contracts`).then((a) => a.status),
      send(s, 'GET', `${base}/feed?after=0`).then((a) => a.status),
      send(s, 'GET', `${base}/webhooks`).then((a) => a.status),
      send(s, 'POST', `${base}/webhooks`, { url: 'https://93.184.216.34/hook' }).then((a) => a.status),
    ]),
  );
  const unsigned = await send(undefined, 'GET', `${base}/feed?after=0`);
  const leaked = statuses.filter((s) => s < 400).length;
  report(
    'strangers read an agent',
    '20 keys read its contracts, feed and webhooks and add a webhook on it; one unsigned feed read',
    leaked === 0 && unsigned.status === 401,
    `statuses ${[...new Set(statuses)].join(',')}; unsigned ${unsigned.status}`,
  );
}

/** 2: keys fill their webhook caps, past it, and aim webhooks at private and plain-http targets. */
async function webhookCaps() {
  const keys = Array.from({ length: 10 }, newKey);
  const counts = await Promise.all(
    keys.map(async (k) => {
      const answers = [];
      for (let i = 0; i < 12; i++)
        answers.push(
          (
            await send(k, 'POST', `/agents/${k.address}/webhooks`, {
              url: `https://93.184.216.34/${k.address}/h${i}`,
            })
          ).status,
        );
      return answers;
    }),
  );
  const accepted = counts.map((a) => a.filter((s) => s === 201).length);
  const privateTargets = [
    'https://127.0.0.1/x',
    'https://10.0.0.1/x',
    'https://[::1]/x',
    'http://93.184.216.34/x',
    'https://169.254.169.254/x',
  ];
  const k = newKey();
  const refused = await Promise.all(
    privateTargets.map((url) =>
      send(k, 'POST', `/agents/${k.address}/webhooks`, { url }).then((a) => a.status),
    ),
  );
  report(
    'webhook caps and forged targets',
    '10 keys add 12 webhooks each; one key aims at loopback, private, link-local, metadata and plain-http URLs',
    accepted.every((n) => n === 10) && refused.every((s) => s >= 400 && s < 500),
    `accepted per key ${[...new Set(accepted)].join(',')}; forged targets → ${refused.join(',')}`,
  );
}

/** 3: a crowd of keys opens feed streams; the honest agent's own stream and steps still go through. */
async function streamCrowd(honest: Key, worker: Key) {
  const crowd = Array.from({ length: 30 }, newKey);
  const crowdStatuses = await Promise.all(
    crowd.map((c) => openStream(c, `/agents/${c.address}/feed/stream`)),
  );
  const id = await create(honest, terms({ awardMethod: 'direct', worker: worker.address }));
  const own = await openStream(honest, `/agents/${honest.address}/feed/stream`);
  const accepted = await send(worker, 'POST', `/contracts/${id}/accept`, {});
  const listed = await send(worker, 'GET', `/agents/${worker.address}/contracts`);
  report(
    'a crowd of feed streams',
    '30 keys open their feed streams at once; the honest Client, its escrow held, streams its feed; its Worker accepts and lists',
    own === 200 && accepted.status === 200 && listed.status === 200,
    `crowd → ${[...new Set(crowdStatuses)].join(',')}; own stream ${own}; accept ${accepted.status}; listing ${listed.status}`,
  );
}

void runSession({ OPENCONTRACT_WEBHOOK_ALLOW_PRIVATE: '0' }, async () => {
  const honest = newKey();
  const worker = newKey();
  await deposit(honest, 10n * USDC);
  await deposit(worker, 10n * USDC);
  await strangersRead(honest);
  await webhookCaps();
  await streamCrowd(honest, worker);
  return {};
});
