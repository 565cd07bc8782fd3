// Privacy (docs/protocol.md §9) and the content-free event log: a full contract lifecycle through the SDK over HTTP
// (materials key, a machine-checkable criterion with evidence, a delivery with content, approval),
// then a scan of everything an operator or a log reader sees WITHOUT the payload codec — every event
// (events query and API route), every history event as the server stores it, the search attributes,
// the memo, the static summary and current details, every worker and API log line — for the task
// text, the criteria text, the delivery content and both keys. None may appear. Every emitted event
// is also validated against the JSON Schema, and no binding fail is followed by a full payment.
import assert from 'node:assert/strict';
import { Client } from '@temporalio/client';
import { DefaultLogger, Runtime, type LogEntry, type Logger } from '@temporalio/worker';
import Ajv2020 from 'ajv/dist/2020';
import { after, before, test } from 'node:test';
import { format } from 'node:util';
import { contentSha256 } from '../../api/ingest';
import { createPayloadCodec } from '../../service/codec';
import { createTemporalClient } from '../../service/temporal-client';
import { contractWorkflowId, eventsQuery } from '../../workflows/definitions';
import { assertNoFullPaymentAfterBindingFail } from '../../workflows/rules/event-invariants';
import type { ContractEvent } from '../../workflows/rules/events';
import { contractEventJsonSchema } from '../../workflows/rules/events-schema';
import { startServiceHarness, type ServiceHarness } from '../support/service';
import { dailyMoltbookCheck, dailyMoltbookEvidence } from '../scoring/fixtures';
import { agent, fund } from './support';
import { HOUR, PRICE } from '../support/fixtures';
import { eventually } from '../support/eventually';

// Every secret carries this marker, so a partial leak is found too.
const MARK = 'QZX7';
const TASK = `${MARK}-task: write a week of daily wellness posts for the clinic`;
const CRITERION_TEXT = `${MARK}-criterion-one: friendly tone, no medical advice`;
const CHECKED_TEXT = `${MARK}-criterion-two: one post a day about health`;
const MATERIALS_KEY = `${MARK}-materials-key-8f3a`;
const DELIVERY_KEY = `${MARK}-delivery-key-c41d`;
const CONTENT_SUMMARY = `${MARK}-summary: seven posts, one day missed`;
const CONTENT_BODY = `${MARK}-artifact-body: Monday post text`;
const SECRETS = [
  MARK,
  TASK,
  CRITERION_TEXT,
  CHECKED_TEXT,
  MATERIALS_KEY,
  DELIVERY_KEY,
  CONTENT_SUMMARY,
  CONTENT_BODY,
];

// Log capture: the Runtime logger (worker, workflow and activity logs at every level) and the console
// (the API). The Runtime is installed by test/support/temporal.ts; workers read its logger at creation.
const logLines: string[] = [];
const collector: Logger = new DefaultLogger('TRACE', (entry: LogEntry) => {
  logLines.push(`${entry.level} ${entry.message} ${format('%o', entry.meta ?? {})}`);
});
(Runtime.instance() as unknown as { logger: Logger }).logger = collector;
const CONSOLE_METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;
const originalConsole = CONSOLE_METHODS.map((m) => console[m]);

let h: ServiceHarness;
before(async () => {
  for (const m of CONSOLE_METHODS) {
    console[m] = (...args: unknown[]) => {
      logLines.push(`console.${m} ${format(...args)}`);
    };
  }
  h = await startServiceHarness();
});
after(async () => {
  await h?.close();
  CONSOLE_METHODS.forEach((m, i) => (console[m] = originalConsole[i]!));
});

/** Every string and byte sequence (as UTF-8 and Latin-1 text) anywhere in a value. */
function texts(value: unknown, out: string[] = [], seen = new Set<unknown>()): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value instanceof Uint8Array) {
    out.push(Buffer.from(value).toString('utf8'), Buffer.from(value).toString('latin1'));
  } else if (typeof value === 'object' && value !== null && !seen.has(value)) {
    seen.add(value);
    const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
    for (const [k, v] of entries) {
      texts(k, out, seen);
      texts(v, out, seen);
    }
  }
  return out;
}

function leaks(where: string, value: unknown): string[] {
  const all = texts(value).join('\n');
  return SECRETS.filter((s) => all.includes(s)).map((s) => `${where}: ${s}`);
}

test('a full lifecycle leaves no content and no key in anything an operator or a log reader sees', async () => {
  const client = agent(h);
  const worker = agent(h);
  await fund(h, client.address);
  await fund(h, worker.address);
  const now = Date.now();
  const at = (hours: number) => new Date(now + hours * HOUR).toISOString();

  const created = await client.createContract({
    contractType: 'fixed',
    awardMethod: 'direct',
    worker: worker.address,
    verificationMode: 'privacy-preserving',
    taskDescription: TASK,
    acceptanceCriteria: [CRITERION_TEXT, { text: CHECKED_TEXT, check: dailyMoltbookCheck }],
    supplementaryMaterials: {
      uri: 'https://files.example/brief.enc',
      sha256: '1f'.repeat(32),
      key: MATERIALS_KEY,
    },
    amount: PRICE.toString(),
    deadlines: { match: at(1), withdrawal: at(2), delivery: at(3), review: at(4) },
  });
  const id = created.contractId;

  // The live stream, open for the whole life.
  const streamed: ContractEvent[] = [];
  const streaming = (async () => {
    const stream = client.streamEvents(id);
    for (;;) {
      const { value, done } = await stream.next();
      if (done) return value;
      streamed.push(value.event);
    }
  })();

  await worker.accept(id);
  assert.equal((await worker.getMaterialsKey(id)).key, MATERIALS_KEY);
  const content = { summary: CONTENT_SUMMARY, artifact: { body: CONTENT_BODY, confidence: 0.85 } };
  const delivered = await worker.deliver(id, {
    uri: 'https://files.example/posts.enc',
    sha256: '2e'.repeat(32),
    key: DELIVERY_KEY,
    ...content,
    evidence: [{ criterionIndex: 1, records: dailyMoltbookEvidence }],
  });
  assert.equal(delivered.status, 'under-review');
  assert.ok(delivered.view === 'party');
  assert.equal(delivered.autoVerification?.verdict, 'pass');
  assert.equal(delivered.delivery?.contentHash, contentSha256(content));
  assert.equal((await client.getDeliveryKey(id)).key, DELIVERY_KEY);
  const stored = await client.getDeliveryContent(id);
  assert.deepEqual(stored.content, content);
  assert.equal(stored.confidence, 0.85);
  const approved = await client.approve(id);
  assert.equal(approved.status, 'settled-fully-met');

  const end = await streaming;
  assert.deepEqual(end, { reason: 'terminal' });

  // The event log: API route, events query, and the stream agree.
  const { events } = await client.getEvents(id);
  const codecClient = createTemporalClient({
    connection: h.env.connection,
    namespace: h.env.namespace ?? 'default',
    codecKey: h.settings.payloadCodecKey,
  });
  const queried = await codecClient.workflow.getHandle(contractWorkflowId(id)).query(eventsQuery);
  assert.deepEqual(queried, events);
  assert.deepEqual(streamed, events);
  assert.deepEqual(
    events.map((e) => e.type),
    [
      'contract.created',
      'contract.matched',
      'contract.delivered',
      'agent.verified',
      'agent.verified',
      'contract.resolved',
      'contract.settled',
    ],
  );
  assert.deepEqual(
    events.filter((e) => e.type === 'agent.verified').map((e) => [e.role, e.verdict, e.criteria]),
    [
      ['auto-verifier', 'pass', ['c2']],
      ['client', 'pass', ['c1', 'c2']],
    ],
  );
  const validate = new Ajv2020({ strict: true, allErrors: true }).compile(contractEventJsonSchema);
  for (const event of events) assert.ok(validate(event), `${event.type}: ${JSON.stringify(validate.errors)}`);
  assertNoFullPaymentAfterBindingFail(events);

  // What the server stores and shows, read WITHOUT the codec.
  const raw = new Client({ connection: h.env.connection, namespace: h.env.namespace ?? 'default' });
  const handle = raw.workflow.getHandle(contractWorkflowId(id));
  const history = await handle.fetchHistory();
  const description = await handle.describe();
  const rawDescription = await raw.workflowService.describeWorkflowExecution({
    namespace: h.env.namespace ?? 'default',
    execution: { workflowId: contractWorkflowId(id) },
  });
  const staticSummary = await description.staticSummary();
  const staticDetails = await description.staticDetails();
  const metadata = (await codecClient.workflow
    .getHandle(contractWorkflowId(id))
    .query('__temporal_workflow_metadata')) as {
    currentDetails?: string;
  };
  // The scans look at real material: a long history, the attributes, a summary, details, log lines.
  assert.ok((history.events?.length ?? 0) > 20);
  assert.equal(description.typedSearchAttributes.getAll().length >= 4, true);
  assert.match(String(staticSummary), new RegExp(id));
  assert.match(metadata.currentDetails ?? '', /settled-fully-met/);
  assert.ok(logLines.length > 0, 'the worker logged its state changes');

  // Control: the same scan over the history decoded WITH the codec does find the content.
  const codec = createPayloadCodec(h.settings.payloadCodecKey);
  const payloads: Parameters<typeof codec.decode>[0] = [];
  const collect = (value: unknown, seen = new Set<unknown>()): void => {
    if (typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    const p = value as { metadata?: unknown; data?: unknown };
    if (p.metadata && p.data instanceof Uint8Array) payloads.push(p as never);
    else for (const v of Object.values(value)) collect(v, seen);
  };
  collect(history);
  const decoded = await codec.decode(payloads);
  for (const secret of [TASK, CHECKED_TEXT]) {
    assert.ok(
      leaks('decoded', decoded).includes(`decoded: ${secret}`),
      `control: ${secret} in decoded payloads`,
    );
  }

  // The delivery content and the keys never entered the workflow at all, not even sealed.
  for (const secret of [CONTENT_SUMMARY, CONTENT_BODY, MATERIALS_KEY, DELIVERY_KEY]) {
    assert.ok(!leaks('decoded', decoded).includes(`decoded: ${secret}`), `${secret} in a workflow payload`);
  }

  const found = [
    ...leaks('events (API)', events),
    ...leaks('events (query)', queried),
    ...leaks('history (raw)', history),
    ...leaks('search attributes', [description.searchAttributes, description.typedSearchAttributes.getAll()]),
    ...leaks('memo', description.memo ?? {}),
    ...leaks('describe (raw)', rawDescription),
    ...leaks('static summary/details', [staticSummary, staticDetails]),
    ...leaks('current details', metadata.currentDetails ?? ''),
    ...leaks('log lines', logLines),
  ];
  assert.deepEqual(found, []);

  // The books: the Worker was paid in full, nothing stays held.
  await eventually(
    () => h.balances(client.address),
    (b) => b.USDC.held === 0n,
  );
});
