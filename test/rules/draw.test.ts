import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Address } from '../../workflows/rules/address';
import { drawFromCandidates, drawPanel, drawRank, drawSeed } from '../../workflows/rules/draw';

const addr = (n: number) => ('0x' + n.toString(16).padStart(40, '0')) as Address;
const CLIENT = addr(1);
const WORKER = addr(2);
const HASH = 'ab'.repeat(32);

/** An independent implementation with Node's crypto, as an auditor would write it. */
function auditorRank(contractId: string, deliveryHash: string, address: string): string {
  const seed = createHash('sha256').update(`${contractId}:${deliveryHash}`, 'utf8').digest();
  return createHash('sha256')
    .update(Buffer.concat([seed, Buffer.from(address.slice(2), 'hex')]))
    .digest('hex');
}

describe('drawPanel', () => {
  test('the seed is sha256(contractId + ":" + deliveryHash)', () => {
    const expected = createHash('sha256').update(`c-1:${HASH}`).digest('hex');
    assert.equal(Buffer.from(drawSeed('c-1', HASH)).toString('hex'), expected);
    assert.equal(
      drawPanel({
        contractId: 'c-1',
        deliveryHash: HASH,
        panelSize: 3,
        priorityPool: [],
        registry: [],
        exclude: [],
      }).seed,
      expected,
    );
  });

  test('picks the lowest ranks, recomputable with any sha256', () => {
    const registry = Array.from({ length: 10 }, (_, i) => addr(100 + i));
    const record = drawPanel({
      contractId: 'c-1',
      deliveryHash: HASH,
      panelSize: 3,
      priorityPool: [],
      registry,
      exclude: [CLIENT, WORKER],
    });
    const expected = [...registry]
      .sort((a, b) => auditorRank('c-1', HASH, a).localeCompare(auditorRank('c-1', HASH, b)))
      .slice(0, 3);
    assert.deepEqual(record.panel, expected);
    assert.equal(drawRank(drawSeed('c-1', HASH), registry[0]!), auditorRank('c-1', HASH, registry[0]!));
  });

  test('never draws the Client or the Worker, whatever their case', () => {
    const upper = (a: string) => '0x' + a.slice(2).toUpperCase();
    const record = drawPanel({
      contractId: 'c-2',
      deliveryHash: HASH,
      panelSize: 3,
      priorityPool: [upper(WORKER), addr(10)],
      registry: [CLIENT, WORKER, addr(11), addr(12)],
      exclude: [upper(CLIENT), WORKER],
    });
    assert.deepEqual(record.priorityCandidates, [addr(10)]);
    assert.deepEqual(record.registryCandidates, [addr(11), addr(12)]);
    assert.deepEqual([...record.panel].sort(), [addr(10), addr(11), addr(12)]);
  });

  test('the priority pool is drawn from first, then the registry fills the panel', () => {
    const record = drawPanel({
      contractId: 'c-3',
      deliveryHash: HASH,
      panelSize: 3,
      priorityPool: [addr(20), addr(21)],
      registry: [addr(20), addr(30), addr(31), addr(32), addr(33)],
      exclude: [CLIENT, WORKER],
    });
    assert.deepEqual(record.panel.slice(0, 2).sort(), [addr(20), addr(21)]);
    assert.ok([addr(30), addr(31), addr(32), addr(33)].includes(record.panel[2]!));
    assert.deepEqual(record.registryCandidates, [addr(30), addr(31), addr(32), addr(33)]);
  });

  test('a priority pool larger than the panel fills it alone', () => {
    const pool = Array.from({ length: 6 }, (_, i) => addr(40 + i));
    const record = drawPanel({
      contractId: 'c-4',
      deliveryHash: HASH,
      panelSize: 3,
      priorityPool: pool,
      registry: [addr(99)],
      exclude: [],
    });
    assert.equal(record.panel.length, 3);
    assert.ok(record.panel.every((a) => pool.includes(a)));
  });

  test('fewer eligible than the panel size: all of them; none: an empty panel', () => {
    const few = drawPanel({
      contractId: 'c-5',
      deliveryHash: HASH,
      panelSize: 3,
      priorityPool: [],
      registry: [addr(7), addr(7), CLIENT],
      exclude: [CLIENT, WORKER],
    });
    assert.deepEqual(few.panel, [addr(7)]);
    const none = drawPanel({
      contractId: 'c-5',
      deliveryHash: HASH,
      panelSize: 3,
      priorityPool: [],
      registry: [CLIENT, WORKER],
      exclude: [CLIENT, WORKER],
    });
    assert.deepEqual(none.panel, []);
  });

  test('another contract or another delivery draws another panel', () => {
    const registry = Array.from({ length: 40 }, (_, i) => addr(200 + i));
    const draw = (contractId: string, hash: string) =>
      drawPanel({ contractId, deliveryHash: hash, panelSize: 3, priorityPool: [], registry, exclude: [] })
        .panel;
    assert.notDeepEqual(draw('c-6', HASH), draw('c-7', HASH));
    assert.notDeepEqual(draw('c-6', HASH), draw('c-6', 'cd'.repeat(32)));
  });

  test('refuses a bad delivery hash or an empty contract ID', () => {
    assert.throws(() => drawSeed('c', 'xyz'), /64 hex/);
    assert.throws(() => drawSeed('', HASH), /contractId/);
  });
});

describe('draw properties', () => {
  const address = fc.integer({ min: 0, max: 500 }).map(addr);
  const input = fc.record({
    contractId: fc.string({ minLength: 1, maxLength: 20 }),
    deliveryHash: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
    panelSize: fc.integer({ min: 0, max: 6 }),
    priorityPool: fc.array(address, { maxLength: 8 }),
    registry: fc.array(address, { maxLength: 15 }),
    exclude: fc.array(address, { minLength: 2, maxLength: 2 }),
  });

  test('deterministic, independent of input order, recomputable from the record', () => {
    fc.assert(
      fc.property(input, (i) => {
        const record = drawPanel(i);
        const shuffled = drawPanel({
          ...i,
          priorityPool: [...i.priorityPool].reverse(),
          registry: [...i.registry].reverse(),
        });
        assert.deepEqual(shuffled, record);
        const viaJson = JSON.parse(JSON.stringify(record)) as typeof record;
        assert.deepEqual(drawFromCandidates(viaJson), record);
      }),
    );
  });

  test('the panel: excluded never drawn, no duplicates, size min(panelSize, eligible), priority first', () => {
    fc.assert(
      fc.property(input, (i) => {
        const { panel, priorityCandidates, registryCandidates } = drawPanel(i);
        assert.ok(panel.every((a) => !i.exclude.includes(a)));
        assert.equal(new Set(panel).size, panel.length);
        const eligible = new Set([...i.priorityPool, ...i.registry].filter((a) => !i.exclude.includes(a)));
        assert.equal(panel.length, Math.min(i.panelSize, eligible.size));
        const fromPriority = Math.min(i.panelSize, priorityCandidates.length);
        assert.ok(panel.slice(0, fromPriority).every((a) => priorityCandidates.includes(a)));
        assert.ok(panel.slice(fromPriority).every((a) => registryCandidates.includes(a)));
      }),
    );
  });
});
