// Delivery ingest (docs/scoring.md §5): parse, validate each field's type, normalize the content,
// extract the confidence.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  contentSha256,
  canonicalJson,
  extractConfidence,
  normalizeDeliveryBody,
  parseDeliveryBody,
} from '../../api/ingest';

const HASH = 'AB'.repeat(32);
const ref = { uri: 'https://store.example/d/1', sha256: HASH, key: 'k-secret' };

function ok(body: unknown) {
  const r = parseDeliveryBody(JSON.stringify(body));
  if (!r.ok) assert.fail(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.delivery;
}

function fails(raw: string) {
  const r = parseDeliveryBody(raw);
  if (r.ok) assert.fail('expected a rejection');
  return r.error;
}

describe('parseDeliveryBody: envelope', () => {
  test('malformed JSON → malformed_json (400), no details', () => {
    for (const raw of ['', '{', '{"uri": "x",}', 'undefined', "{'a':1}"]) {
      assert.deepEqual(fails(raw), {
        code: 'malformed_json',
        message: 'the body is not valid JSON',
        details: [],
      });
    }
  });

  test('a body that is not an object is refused as a whole', () => {
    for (const raw of ['[]', 'null', '"x"', '3']) {
      const e = fails(raw);
      assert.equal(e.code, 'invalid_field');
      assert.deepEqual(e.details, [{ field: '', message: 'the body must be a JSON object' }]);
    }
  });

  test('the reference and key: sha256 lowercased; each missing or wrong one is named', () => {
    const d = ok(ref);
    assert.deepEqual(d.ref, { uri: ref.uri, sha256: 'ab'.repeat(32) });
    assert.equal(d.key, 'k-secret');
    assert.deepEqual(
      fails('{}')
        .details.map((x) => x.field)
        .sort(),
      ['key', 'sha256', 'uri'],
    );
    assert.deepEqual(
      fails(JSON.stringify({ ...ref, sha256: 'abc' })).details.map((x) => x.field),
      ['sha256'],
    );
    assert.deepEqual(
      fails(JSON.stringify({ ...ref, sha256: 'g'.repeat(64) })).details.map((x) => x.field),
      ['sha256'],
    );
    assert.deepEqual(
      fails(JSON.stringify({ ...ref, uri: 7 })).details.map((x) => x.field),
      ['uri'],
    );
    assert.deepEqual(
      fails(JSON.stringify({ ...ref, key: '' })).details.map((x) => x.field),
      ['key'],
    );
  });

  test('an unknown field is named', () => {
    const e = fails(JSON.stringify({ ...ref, status: 'settled-fully-met' }));
    assert.deepEqual(e.details, [{ field: 'status', message: 'unknown field' }]);
    assert.equal(e.message, 'invalid status');
  });

  const wrongTypes: [string, unknown][] = [
    ['content', 'text'],
    ['content', [1, 2]],
    ['content', null],
    ['artifact', 5],
    ['artifacts', []],
    ['artifactRef', { a: 1 }],
    ['summary', 12],
    ['confidence', '0.9'],
    ['requestedPayout', '100'],
    ['evidence', {}],
  ];
  for (const [field, value] of wrongTypes) {
    test(`${field} of the wrong type (${JSON.stringify(value)}) → invalid_field naming ${field}`, () => {
      const e = fails(JSON.stringify({ ...ref, [field]: value }));
      assert.equal(e.code, 'invalid_field');
      assert.deepEqual(
        e.details.map((x) => x.field),
        [field],
      );
    });
  }

  test('requestedPayout is informational and kept as given; a non-finite one is refused', () => {
    assert.equal(ok({ ...ref, requestedPayout: 2.5 }).requestedPayout, 2.5);
    assert.equal(ok(ref).requestedPayout, undefined);
    assert.deepEqual(
      fails(`{"uri":"u","sha256":"${HASH}","key":"k","requestedPayout":1e999}`).details.map((x) => x.field),
      ['requestedPayout'],
    );
  });

  test('evidence is validated and returned; errors name the nested field', () => {
    const evidence = [
      { criterionIndex: 0, records: [{ milestoneId: 'm', timestamp: '2025-02-01T00:00:00Z' }] },
    ];
    assert.deepEqual(ok({ ...ref, evidence }).evidence, evidence);
    const e = fails(
      JSON.stringify({ ...ref, evidence: [{ criterionIndex: 0, records: [{ timestamp: 'soon' }] }] }),
    );
    assert.deepEqual(
      e.details.map((x) => x.field),
      ['evidence.0.records.0.timestamp'],
    );
  });
});

describe('parseDeliveryBody: content', () => {
  test('content is used as given; the other fields do not change it', () => {
    const content = { answer: 42, nested: { confidence: 0.1 } };
    const d = ok({ ...ref, content, summary: 'ignored', artifact: { x: 1 }, confidence: 0.9 });
    assert.deepEqual(d.content, content);
    assert.equal(d.confidence, undefined);
  });

  test('each content field is accepted and built into the content', () => {
    assert.deepEqual(ok({ ...ref, artifact: { file: 'a.md' } }).content, { artifact: { file: 'a.md' } });
    assert.deepEqual(ok({ ...ref, artifacts: { files: ['a', 'b'] } }).content, {
      artifacts: { files: ['a', 'b'] },
    });
    assert.deepEqual(ok({ ...ref, artifactRef: 'ipfs://x' }).content, { artifactRef: 'ipfs://x' });
    assert.deepEqual(ok({ ...ref, summary: 'done' }).content, { summary: 'done' });
    assert.deepEqual(ok({ ...ref, confidence: 0.7 }).content, { confidence: 0.7 });
  });

  test('content built from all the others together; without any, an empty object', () => {
    const d = ok({
      ...ref,
      artifact: { a: 1 },
      artifacts: { b: 2 },
      artifactRef: 'r',
      summary: 's',
      confidence: 0.5,
      requestedPayout: 10,
    });
    assert.deepEqual(d.content, {
      artifact: { a: 1 },
      artifacts: { b: 2 },
      artifactRef: 'r',
      summary: 's',
      confidence: 0.5,
    });
    assert.equal(d.confidence, 0.5);
    assert.deepEqual(ok(ref).content, {});
  });
});

describe('confidence extraction', () => {
  test('from content.confidence first', () => {
    assert.equal(ok({ ...ref, content: { confidence: 0.8, artifact: { confidence: 0.2 } } }).confidence, 0.8);
  });

  test('then content.artifact.confidence', () => {
    assert.equal(
      ok({ ...ref, content: { artifact: { confidence: 0.6 }, artifacts: { confidence: 0.1 } } }).confidence,
      0.6,
    );
    assert.equal(ok({ ...ref, artifact: { confidence: 0.6 } }).confidence, 0.6);
  });

  test('then content.artifacts.confidence', () => {
    assert.equal(ok({ ...ref, content: { artifacts: { confidence: 0.3 } } }).confidence, 0.3);
    assert.equal(ok({ ...ref, artifacts: { confidence: 0.3 } }).confidence, 0.3);
  });

  test('a place that is not a finite number is skipped for the next one', () => {
    assert.equal(
      ok({ ...ref, content: { confidence: 'high', artifact: { confidence: 0.4 } } }).confidence,
      0.4,
    );
  });

  test('missing when none is a finite number: strings, null, NaN, ±Infinity, non-objects', () => {
    assert.equal(
      ok({ ...ref, content: { confidence: '0.9', artifact: { confidence: null }, artifacts: 'x' } })
        .confidence,
      undefined,
    );
    assert.equal(ok({ ...ref, content: { artifact: [0.5] } }).confidence, undefined);
    assert.equal(ok(ref).confidence, undefined);
    // JSON cannot carry NaN; 1e999 parses to Infinity and is a JSON number.
    const r = parseDeliveryBody(`{"uri":"u","sha256":"${HASH}","key":"k","confidence":1e999}`);
    assert.ok(r.ok);
    assert.equal(r.delivery.content.confidence, Infinity);
    assert.equal(r.delivery.confidence, undefined);
    assert.equal(extractConfidence({ confidence: NaN }), undefined);
    assert.equal(
      extractConfidence({ confidence: -Infinity, artifacts: { confidence: Infinity } }),
      undefined,
    );
    assert.equal(extractConfidence({ confidence: 0 }), 0);
  });

  test('normalizeDeliveryBody takes an already-parsed body', () => {
    const r = normalizeDeliveryBody({ ...ref, confidence: 0.25 });
    assert.ok(r.ok);
    assert.equal(r.delivery.confidence, 0.25);
    assert.equal(normalizeDeliveryBody(undefined).ok, false);
  });
});

describe('content hash', () => {
  test('canonical: key order and whitespace do not matter', () => {
    assert.equal(canonicalJson({ b: [1, { d: 2, c: 'x' }], a: null }), '{"a":null,"b":[1,{"c":"x","d":2}]}');
    assert.equal(contentSha256({ a: 1, b: 2 }), contentSha256(JSON.parse('{ "b": 2, "a": 1 }')));
    assert.notEqual(contentSha256({ a: 1 }), contentSha256({ a: 2 }));
    assert.match(contentSha256({}), /^[0-9a-f]{64}$/);
    assert.equal(contentSha256({}), '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
  });
});
