// POST /contracts/:id/deliveries through app.request() on the real stack (dev server, worker, SQLite
// ledger and vault): the ingest cases (docs/scoring.md §5), evidence checked against the
// contract's machine-checkable criteria, the normalized content sealed in the vault (its hash in the
// contract), and the automatic verifier's result in the view and the event log.
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { dataFile } from '../../store/data-files';
import { before, describe, test } from 'node:test';
import { contentSha256 } from '../../api/ingest';
import { useAppHarness } from '../support/service';
import { dailyMoltbookCheck, dailyMoltbookEvidence } from '../scoring/fixtures';
import { call, matchedContract, type Json, type Matched } from './support';
import { DELIVERY_REF, newAgent } from '../support/fixtures';

const h = useAppHarness();

const CHECKED_CRITERIA = [
  'plain text criterion',
  { text: 'posts daily about health for a week', check: dailyMoltbookCheck },
];

function deliver(m: Matched, body: unknown, rawBody?: string) {
  return call(h().app, m.worker, 'POST', `/contracts/${m.id}/deliveries`, rawBody ? { rawBody } : { body });
}

async function deliveryContent(m: Matched): Promise<Json> {
  const res = await call(h().app, m.client, 'GET', `/contracts/${m.id}/delivery`);
  assert.equal(res.status, 200, res.text);
  return res.json;
}

/** Delivers, and checks the hash chain: the view's and the event's content hash are the stored content's. */
async function deliverAndRead(m: Matched, body: Record<string, unknown>, rawBody?: string) {
  const res = await deliver(m, body, rawBody);
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.status, 'under-review');
  const stored = await deliveryContent(m);
  assert.equal(stored.contentHash, contentSha256(stored.content));
  assert.equal(res.json.delivery.contentHash, stored.contentHash);
  const events = (await call(h().app, undefined, 'GET', `/contracts/${m.id}/events`)).json.events as Json[];
  const delivered = events.find((e) => e.type === 'contract.delivered');
  assert.equal(delivered.contentSha256, stored.contentHash);
  return { view: res.json, stored, events };
}

/** Nothing changed: still matched, no content and no key in the vault. */
async function assertUnchanged(m: Matched) {
  const view = await call(h().app, m.client, 'GET', `/contracts/${m.id}`);
  assert.equal(view.json.status, 'matched');
  assert.equal(view.json.delivery, null);
  assert.equal(await h().vault.getContent(m.id, 'delivery'), undefined);
  assert.equal(await h().vault.get(m.id, 'delivery'), undefined);
}

describe('ingest through the API', () => {
  let m: Matched;
  before(async () => {
    m = await matchedContract(h());
  });

  test('malformed JSON → 400 malformed_json, nothing stored', async () => {
    for (const raw of ['{"uri": ', 'not json', '{"uri":"x",}']) {
      const res = await deliver(m, undefined, raw);
      assert.equal(res.status, 400, raw);
      assert.equal(res.json.error.code, 'malformed_json');
    }
    await assertUnchanged(m);
  });

  test('a well-formed body not sent as JSON → 415, nothing stored', async () => {
    const res = await call(h().app, m.worker, 'POST', `/contracts/${m.id}/deliveries`, {
      body: DELIVERY_REF,
      headers: { 'Content-Type': 'text/plain' },
    });
    assert.equal(res.status, 415, res.text);
    assert.equal(res.json.error.code, 'unsupported_media_type');
    await assertUnchanged(m);
  });

  test('a field of the wrong type → 400 naming it, nothing stored', async () => {
    const wrong: Record<string, unknown> = {
      uri: 5,
      sha256: 'zz',
      key: 7,
      content: [1],
      artifact: 'text',
      artifacts: null,
      artifactRef: 3,
      summary: { text: 'x' },
      confidence: 'high',
      requestedPayout: '10',
      evidence: 'none',
    };
    for (const [field, value] of Object.entries(wrong)) {
      const res = await deliver(m, { ...DELIVERY_REF, [field]: value });
      assert.equal(res.status, 400, `${field}: ${res.text}`);
      assert.equal(res.json.error.code, 'invalid_input');
      assert.deepEqual(
        res.json.error.details.fields.map((f: Json) => f.field),
        [field],
      );
      assert.match(res.json.error.message, new RegExp(field));
    }
    const unknown = await deliver(m, { ...DELIVERY_REF, status: 'done' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.json.error.details.fields[0].field, 'status');
    const record = await deliver(m, {
      ...DELIVERY_REF,
      evidence: [{ criterionIndex: 0, records: [{ timestamp: 12 }] }],
    });
    assert.equal(record.status, 400);
    assert.equal(record.json.error.details.fields[0].field, 'evidence.0.records.0.timestamp');
    await assertUnchanged(m);
  });

  test('evidence for a criterion without a check or out of range → 400 naming it', async () => {
    for (const criterionIndex of [0, 1, 7]) {
      const res = await deliver(m, { ...DELIVERY_REF, evidence: [{ criterionIndex, records: [] }] });
      assert.equal(res.status, 400, res.text);
      assert.deepEqual(res.json.error.details.fields, [
        {
          field: 'evidence.0.criterionIndex',
          message:
            criterionIndex === 7
              ? 'no criterion 7 (the contract has 2)'
              : `criterion ${criterionIndex} has no machine check`,
        },
      ]);
    }
    await assertUnchanged(m);
  });

  test('every accepted field: content built from the others; requestedPayout and evidence kept out', async () => {
    const fields = {
      artifact: { url: 'https://a.example/x', confidence: 0.4 },
      artifacts: { items: [1, 2] },
      artifactRef: 'ref-42',
      summary: 'what was done',
      confidence: 0.8,
    };
    const { stored } = await deliverAndRead(m, { ...DELIVERY_REF, ...fields, requestedPayout: 2.5 });
    assert.deepEqual(stored.content, fields);
    assert.equal(stored.confidence, 0.8);
    assert.equal(stored.uri, DELIVERY_REF.uri);
    assert.equal(stored.sha256, DELIVERY_REF.sha256);
    // The key went to the vault, sealed; the content likewise: neither is in the file in plain text.
    assert.equal(await h().vault.get(m.id, 'delivery'), DELIVERY_REF.key);
    const vaultFile = dataFile(h().settings.dataDir, 'vault');
    for (const path of [vaultFile, `${vaultFile}-wal`]) {
      if (!existsSync(path)) continue;
      const bytes = readFileSync(path).toString('latin1');
      for (const secret of ['what was done', 'ref-42', 'a.example', DELIVERY_REF.key]) {
        assert.ok(!bytes.includes(secret), `${secret} in ${path}`);
      }
    }
  });
});

describe('content and confidence', () => {
  test('content used as given: the other fields are not part of it', async () => {
    const m = await matchedContract(h());
    const content = { answer: 42, confidence: 0.3 };
    const { stored, view } = await deliverAndRead(m, {
      ...DELIVERY_REF,
      content,
      summary: 'ignored',
      confidence: 0.9,
    });
    assert.deepEqual(stored.content, content);
    assert.equal(stored.confidence, 0.3);
    assert.equal(view.delivery.contentHash, contentSha256(content));
  });

  test('confidence from content.confidence first, then artifact, then artifacts', async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ content: { confidence: 0.7, artifact: { confidence: 0.2 } } }, 0.7],
      [{ artifact: { confidence: 0.6 }, artifacts: { confidence: 0.1 } }, 0.6],
      [
        { content: { confidence: 'high', artifact: { confidence: null }, artifacts: { confidence: 0.5 } } },
        0.5,
      ],
    ];
    for (const [fields, expected] of cases) {
      const m = await matchedContract(h());
      const { stored } = await deliverAndRead(m, { ...DELIVERY_REF, ...fields });
      assert.equal(stored.confidence, expected, JSON.stringify(fields));
    }
  });

  test('missing when none is a finite number (1e999 parses to Infinity)', async () => {
    const m = await matchedContract(h());
    const raw = `{"uri":"${DELIVERY_REF.uri}","sha256":"${DELIVERY_REF.sha256}","key":"k","confidence":1e999,"artifact":{"confidence":"0.9"}}`;
    const { stored } = await deliverAndRead(m, {}, raw);
    assert.equal(stored.confidence, undefined);
    assert.equal('confidence' in stored, false);
    // Stored in canonical JSON, where Infinity is null: the hash is over exactly what is stored.
    assert.deepEqual(stored.content, { artifact: { confidence: '0.9' }, confidence: null });
  });

  test('only the Client (and drawn BAs) read the content; nothing delivered → 404', async () => {
    const m = await matchedContract(h());
    const none = await call(h().app, m.client, 'GET', `/contracts/${m.id}/delivery`);
    assert.equal(none.status, 404, none.text);
    await deliverAndRead(m, { ...DELIVERY_REF, summary: 's' });
    assert.equal((await call(h().app, m.worker, 'GET', `/contracts/${m.id}/delivery`)).status, 403);
    assert.equal((await call(h().app, newAgent(), 'GET', `/contracts/${m.id}/delivery`)).status, 403);
    assert.equal((await call(h().app, undefined, 'GET', `/contracts/${m.id}/delivery`)).status, 401);
  });
});

describe('the automatic verifier on delivery', () => {
  test('scores the checked criterion: view (scores, breakdown) and agent.verified (keys only)', async () => {
    const m = await matchedContract(h(), undefined, { acceptanceCriteria: CHECKED_CRITERIA });
    const { view, events } = await deliverAndRead(m, {
      ...DELIVERY_REF,
      summary: 'a week of posts',
      evidence: [{ criterionIndex: 1, records: dailyMoltbookEvidence }],
    });
    const auto = view.autoVerification;
    assert.equal(auto.agentId, 'opencontract:auto-verifier');
    assert.equal(auto.target, DELIVERY_REF.sha256);
    assert.equal(auto.verdict, 'pass');
    assert.equal(auto.evaluatedAt, view.delivery.deliveredAt);
    assert.equal(auto.results.length, 1);
    const [c2] = auto.results;
    // The daily-posts worked example (docs/scoring.md §4): 89.667, rounded 90.
    assert.deepEqual([c2.criterionIndex, c2.key, c2.checkType], [1, 'c2', 'consistency']);
    assert.equal(c2.roundedScore, 90);
    assert.ok(Math.abs(c2.score - 89.6666667) < 1e-6, String(c2.score));
    assert.equal(c2.verdict, 'met');
    assert.deepEqual(
      [c2.breakdown.actionsCounted, c2.breakdown.actionsRequired, c2.breakdown.timelinessScore],
      [6, 7, 100],
    );

    const verified = events.filter((e) => e.type === 'agent.verified');
    assert.deepEqual(verified, [
      {
        type: 'agent.verified',
        contractId: m.id,
        at: verified[0].at,
        actor: 'auto-verifier',
        agentId: 'opencontract:auto-verifier',
        target: DELIVERY_REF.sha256,
        verdict: 'pass',
        criteria: ['c2'],
        role: 'auto-verifier',
      },
    ]);
    // It informs and does not decide: the contract still waits for the Client.
    const client = await call(h().app, m.client, 'GET', `/contracts/${m.id}`);
    assert.equal(client.json.status, 'under-review');
    assert.equal(client.json.criteriaMet, null);
    assert.equal(client.json.autoVerification.verdict, 'pass');
    // Not in the public view.
    const anonymous = await call(h().app, undefined, 'GET', `/contracts/${m.id}`);
    assert.equal(anonymous.json.autoVerification, undefined);
  });

  test('a checked criterion without evidence scores as nothing done → not met → fail', async () => {
    const m = await matchedContract(h(), undefined, { acceptanceCriteria: CHECKED_CRITERIA });
    const { view, events } = await deliverAndRead(m, { ...DELIVERY_REF, summary: 'nothing to show' });
    assert.equal(view.autoVerification.verdict, 'fail');
    assert.equal(view.autoVerification.results[0].verdict, 'not met');
    assert.equal(view.autoVerification.results[0].roundedScore, 20);
    const verified = events.find((e) => e.type === 'agent.verified');
    assert.equal(verified.verdict, 'fail');
    assert.deepEqual(verified.criteria, ['c2']);
  });

  test('no machine-checkable criterion: no automatic verdict', async () => {
    const m = await matchedContract(h());
    const { view, events } = await deliverAndRead(m, { ...DELIVERY_REF, summary: 's' });
    assert.equal(view.autoVerification, null);
    assert.equal(events.filter((e) => e.type === 'agent.verified').length, 0);
  });
});
