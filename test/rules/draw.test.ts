import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { Address } from '../../workflows/rules/address';
import {
  drawCommitment,
  drawFromCandidates,
  drawPanel,
  drawSeed,
  roundSecret,
  type DrawInput,
  type DrawRound,
} from '../../workflows/rules/draw';

const addr = (n: number) => ('0x' + n.toString(16).padStart(40, '0')) as Address;
const CLIENT = addr(1);
const WORKER = addr(2);
const HASH = 'ab'.repeat(32);
const SECRET = 'cd'.repeat(32);
const sha = (data: string | Buffer) => createHash('sha256').update(data).digest();

/** An independent implementation with Node's crypto, as an auditor would write it from docs/rules.md. */
function auditorDraw(
  contractId: string,
  secret: string,
  deliveryHash: string,
  round: DrawRound,
  candidates: Array<{ address: string; stake: bigint }>,
  panelSize: number,
): string[] {
  const seed = sha(`${contractId}:${secret}:${deliveryHash}`);
  const pool = [...candidates].sort((a, b) => (a.address < b.address ? -1 : 1));
  if (pool.length < panelSize) return [];
  const panel: string[] = [];
  for (let j = 0; j < panelSize; j++) {
    const total = pool.reduce((s, c) => s + c.stake, 0n);
    const value = BigInt('0x' + sha(Buffer.concat([seed, Buffer.from(`${round}:${j}`)])).toString('hex'));
    let target = value % total;
    const index = pool.findIndex((c) => (target -= c.stake) < 0n);
    panel.push(pool.splice(index, 1)[0]!.address);
  }
  return panel;
}

function input(over: Partial<DrawInput> = {}): DrawInput {
  return {
    contractId: 'c-1',
    deliveryHash: HASH,
    panelSize: 3,
    round: 'panel',
    registry: [],
    exclude: [CLIENT, WORKER],
    secret: SECRET,
    ...over,
  };
}

const stakes = (entries: Array<[number, bigint]>) =>
  entries.map(([n, stake]) => ({ address: addr(n), stake }));

describe('drawPanel', () => {
  test('the seed is sha256(contractId:secret:deliveryHash)', () => {
    const expected = sha(`c-1:${SECRET}:${HASH}`).toString('hex');
    assert.equal(Buffer.from(drawSeed('c-1', HASH, SECRET)).toString('hex'), expected);
    assert.equal(drawPanel(input()).seed, expected);
  });

  test('a stake-weighted pick per seat, recomputable with any sha256 and integer arithmetic', () => {
    const registry = stakes(Array.from({ length: 12 }, (_, i) => [100 + i, BigInt(100 + 37 * i)]));
    for (const round of ['panel', 'appeal'] as const) {
      for (let k = 0; k < 20; k++) {
        const record = drawPanel(input({ contractId: `c-${k}`, round, registry, panelSize: 5 }));
        assert.deepEqual(record.panel, auditorDraw(`c-${k}`, SECRET, HASH, round, registry, 5));
      }
    }
  });

  test('never draws the Client or the Worker, whatever their case', () => {
    const upper = (a: string) => '0x' + a.slice(2).toUpperCase();
    const record = drawPanel(
      input({
        registry: stakes([
          [1, 10n],
          [2, 10n],
          [11, 10n],
          [12, 10n],
          [13, 10n],
        ]),
        exclude: [upper(CLIENT), WORKER],
      }),
    );
    assert.deepEqual(
      record.candidates.map((c) => c.address),
      [addr(11), addr(12), addr(13)],
    );
    assert.deepEqual([...record.panel].sort(), [addr(11), addr(12), addr(13)]);
  });

  test('a panel is seated only in full: fewer candidates than seats seat nobody', () => {
    const two = drawPanel(
      input({
        registry: stakes([
          [7, 5n],
          [8, 5n],
        ]),
      }),
    );
    assert.deepEqual(two.panel, []);
    assert.equal(two.candidates.length, 2);
    const zeroStake = drawPanel(
      input({
        registry: stakes([
          [7, 5n],
          [8, 5n],
          [9, 0n],
        ]),
      }),
    );
    assert.deepEqual(zeroStake.panel, []);
    assert.deepEqual(drawPanel(input()).panel, []);
  });

  test('refuses a registry listing an agent twice, a bad hash, an empty contract ID, a zero panel', () => {
    assert.throws(
      () =>
        drawPanel(
          input({
            registry: stakes([
              [7, 5n],
              [7, 6n],
              [8, 1n],
            ]),
          }),
        ),
      /twice/,
    );
    assert.throws(() => drawSeed('c', 'xyz'), /64 hex/);
    assert.throws(() => drawSeed('', HASH), /contractId/);
    assert.throws(() => drawPanel(input({ panelSize: 0 })), /panelSize/);
  });

  test('the round secrets form a hash chain checked against the creation commitment', () => {
    const panelSecret = roundSecret(SECRET, 'panel');
    const appealSecret = roundSecret(SECRET, 'appeal');
    const published = drawCommitment(panelSecret);
    assert.equal(sha(panelSecret).toString('hex'), published);
    assert.equal(sha(appealSecret).toString('hex'), panelSecret);
    assert.notEqual(appealSecret, panelSecret);
  });

  test('another contract, delivery or round draws another panel', () => {
    const registry = stakes(Array.from({ length: 40 }, (_, i) => [200 + i, 1000n]));
    const draw = (over: Partial<DrawInput>) => drawPanel(input({ registry, ...over })).panel;
    assert.notDeepEqual(draw({ contractId: 'c-6' }), draw({ contractId: 'c-7' }));
    assert.notDeepEqual(
      draw({ contractId: 'c-6' }),
      draw({ contractId: 'c-6', deliveryHash: 'cd'.repeat(32) }),
    );
    assert.notDeepEqual(draw({ contractId: 'c-6' }), draw({ contractId: 'c-6', round: 'appeal' }));
  });
});

describe('capture resistance (seeded, 3000 draws each)', () => {
  const DRAWS = 3000;
  function draws(registry: Array<{ address: Address; stake: bigint }>, panelSize = 3): Address[][] {
    return Array.from({ length: DRAWS }, (_, k) => {
      const secret = sha(`secret-${k}`).toString('hex');
      return drawPanel(input({ contractId: `capture-${k}`, secret, registry, panelSize })).panel;
    });
  }

  test('three puppets at the minimum stake beside three agents with ten times as much are rarely seated', () => {
    const puppets = [addr(0x51), addr(0x52), addr(0x53)];
    const honest = [addr(0x61), addr(0x62), addr(0x63)];
    const registry = [
      ...puppets.map((address) => ({ address, stake: 100_000_000n })),
      ...honest.map((address) => ({ address, stake: 1_000_000_000n })),
    ];
    const panels = draws(registry);
    const puppetSeats = (p: Address[]) => p.filter((a) => puppets.includes(a)).length;
    const allPuppets = panels.filter((p) => puppetSeats(p) === 3).length;
    const majority = panels.filter((p) => puppetSeats(p) >= 2).length;
    // Measured with these seeds: all three puppets in 1 of 3,000 draws, a puppet majority in 70.
    assert.ok(allPuppets / DRAWS < 0.005, `all-puppet panels ${allPuppets}/${DRAWS}`);
    assert.ok(majority / DRAWS < 0.04, `puppet majorities ${majority}/${DRAWS}`);
  });

  test('a group holding 10% of the stake wins a majority no more often than the binomial bound', () => {
    // 4 agents of 25 each (10%) among 18 of 50 each: the binomial bound for 2 of 3 at p = 0.1.
    const group = Array.from({ length: 4 }, (_, i) => addr(0x100 + i));
    const registry = [
      ...group.map((address) => ({ address, stake: 25n })),
      ...Array.from({ length: 18 }, (_, i) => ({ address: addr(0x200 + i), stake: 50n })),
    ];
    const bound = 3 * 0.1 ** 2 * 0.9 + 0.1 ** 3; // 0.028
    const sigma = Math.sqrt((bound * (1 - bound)) / DRAWS);
    const won = draws(registry).filter((p) => p.filter((a) => group.includes(a)).length >= 2).length;
    assert.ok(won / DRAWS <= bound + 3 * sigma, `majorities ${won}/${DRAWS}, bound ${bound}`);
  });

  test("a group's share of seats tracks its share of free stake (±0.03 absolute)", () => {
    const registry = Array.from({ length: 30 }, (_, i) => ({
      address: addr(0x300 + i),
      stake: BigInt(100 + 30 * i),
    }));
    const total = registry.reduce((s, c) => s + c.stake, 0n);
    const panels = draws(registry);
    const seats = panels.flat();
    for (const [from, to] of [
      [0, 10],
      [10, 20],
      [20, 30],
      [0, 3],
      [27, 30],
    ] as const) {
      const group = new Set(registry.slice(from, to).map((c) => c.address));
      const stakeShare = Number(registry.slice(from, to).reduce((s, c) => s + c.stake, 0n)) / Number(total);
      const seatShare = seats.filter((a) => group.has(a)).length / seats.length;
      assert.ok(
        Math.abs(seatShare - stakeShare) <= 0.03,
        `agents ${from}-${to}: seats ${seatShare}, stake ${stakeShare}`,
      );
      // The first seat is exactly proportional to stake: within four standard deviations.
      const firstShare = panels.filter((p) => group.has(p[0]!)).length / DRAWS;
      const sigma = Math.sqrt((stakeShare * (1 - stakeShare)) / DRAWS);
      assert.ok(
        Math.abs(firstShare - stakeShare) <= 4 * sigma,
        `first seat ${firstShare}, stake ${stakeShare}`,
      );
    }
  });
});

describe('draw properties', () => {
  const candidate = fc.record({
    n: fc.integer({ min: 0, max: 60 }),
    stake: fc.bigInt({ min: 0n, max: 10n ** 12n }),
  });
  const drawInput = fc.record({
    contractId: fc.string({ minLength: 1, maxLength: 20 }),
    deliveryHash: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
    panelSize: fc.integer({ min: 1, max: 6 }),
    round: fc.constantFrom<DrawRound>('panel', 'appeal'),
    registry: fc
      .uniqueArray(candidate, { selector: (c) => c.n, maxLength: 15 })
      .map((cs) => cs.map((c) => ({ address: addr(c.n), stake: c.stake }))),
    exclude: fc.array(fc.integer({ min: 0, max: 60 }).map(addr), { minLength: 2, maxLength: 2 }),
    secret: fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b).toString('hex')),
  });

  test('deterministic, independent of input order, recomputable from the wire record', () => {
    fc.assert(
      fc.property(drawInput, (i) => {
        const record = drawPanel(i);
        assert.deepEqual(drawPanel({ ...i, registry: [...i.registry].reverse() }), record);
        const wire = record.candidates.map((c) => ({ address: c.address, stake: c.stake.toString() }));
        assert.deepEqual(drawFromCandidates({ ...record, candidates: wire }), record);
      }),
    );
  });

  test('the panel: excluded and stakeless never drawn, no duplicates, full or empty', () => {
    fc.assert(
      fc.property(drawInput, (i) => {
        const { panel } = drawPanel(i);
        const drawable = i.registry.filter((c) => c.stake > 0n && !i.exclude.includes(c.address));
        assert.ok(panel.every((a) => drawable.some((c) => c.address === a)));
        assert.equal(new Set(panel).size, panel.length);
        assert.equal(panel.length, drawable.length >= i.panelSize ? i.panelSize : 0);
      }),
    );
  });
});
