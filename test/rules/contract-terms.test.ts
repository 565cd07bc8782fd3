import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  contractCode,
  escrowAmount,
  validateContractTerms,
  type ContractTerms,
} from '../../workflows/rules/contract-terms';
import { deadlinesToIso, termsToWire } from '../../workflows/rules/contract-terms-wire';
import type { FieldError } from '../../workflows/rules/field-errors';
import { CLIENT, contractBody, HOUR } from '../support/fixtures';

/** The Worker's address in mixed case: the rules answer it in lower case. */
const WORKER = '0x' + 'AbCdEf'.repeat(6) + 'abcd';
const NOW = Date.parse('2030-01-01T00:00:00Z');
const at = (hours: number) => new Date(NOW + hours * HOUR).toISOString();

/** A valid FDP body (the fixtures' one, with a criterion object and materials); each test breaks one thing. */
function fdpBody(): Record<string, unknown> {
  return contractBody(
    WORKER,
    {
      taskDescription: 'Summarize the attached dataset.',
      acceptanceCriteria: ['Covers every column', { text: 'Under 500 words' }],
      supplementaryMaterials: { uri: 'ipfs://materials', sha256: 'AB'.repeat(32), key: 'k3y' },
    },
    NOW,
  );
}

function fosBody(): Record<string, unknown> {
  const { worker: _worker, ...rest } = fdpBody();
  const { review: _review, ...deadlines } = rest.deadlines as Record<string, string>;
  return { ...rest, awardMethod: 'open', deadlines };
}

function errorsOf(body: unknown, client = CLIENT): FieldError[] {
  const result = validateContractTerms(body, NOW, client);
  assert.equal(result.ok, false, 'expected the body to be refused');
  return result.ok ? [] : result.errors;
}

function termsOf(body: unknown): ContractTerms {
  const result = validateContractTerms(body, NOW, CLIENT.toUpperCase().replace('0X', '0x'));
  assert.ok(result.ok, JSON.stringify(!result.ok && result.errors));
  return result.terms;
}

function assertOneError(body: unknown, field: string, message?: RegExp): void {
  const errors = errorsOf(body);
  assert.deepEqual(
    errors.map((e) => e.field),
    [field],
    JSON.stringify(errors),
  );
  if (message) assert.match(errors[0]!.message, message);
}

describe('validateContractTerms: a valid body', () => {
  test('FDP is normalized: worker lowercase, criteria as objects, deadlines in ms, amount bigint', () => {
    const terms = termsOf(fdpBody());
    assert.deepEqual(terms, {
      client: CLIENT,
      contractType: 'fixed',
      awardMethod: 'direct',
      verificationMode: 'privacy-preserving',
      code: 'FDP',
      worker: WORKER.toLowerCase(),
      taskDescription: 'Summarize the attached dataset.',
      acceptanceCriteria: [{ text: 'Covers every column' }, { text: 'Under 500 words' }],
      supplementaryMaterials: { uri: 'ipfs://materials', sha256: 'ab'.repeat(32), key: 'k3y' },
      amount: 2_500_000n,
      deadlines: {
        match: NOW + HOUR,
        withdrawal: NOW + 7_200_000,
        delivery: NOW + 10_800_000,
        review: NOW + 14_400_000,
      },
    });
  });

  test('open tender defaults to standard mode, and review may be omitted there', () => {
    const terms = termsOf(fosBody());
    assert.equal(terms.verificationMode, 'standard');
    assert.equal(terms.code, 'FOS');
    assert.equal(terms.worker, null);
    assert.equal(terms.deadlines.review, null);
    assert.equal(terms.supplementaryMaterials?.sha256, 'ab'.repeat(32));
  });

  test('the Client may override the verification mode', () => {
    assert.equal(termsOf({ ...fdpBody(), verificationMode: 'standard' }).code, 'FDS');
    assert.equal(
      termsOf({ ...fosBody(), verificationMode: 'privacy-preserving', deadlines: fdpBody().deadlines }).code,
      'FOP',
    );
  });

  test('auction open tender: AOS by default, AOP when overridden', () => {
    assert.equal(termsOf({ ...fosBody(), contractType: 'auction' }).code, 'AOS');
    assert.equal(
      termsOf({
        ...fosBody(),
        contractType: 'auction',
        verificationMode: 'privacy-preserving',
        deadlines: fdpBody().deadlines,
      }).code,
      'AOP',
    );
  });

  test('match may equal withdrawal (the Worker then never has a withdrawal window)', () => {
    const body = fdpBody();
    body.deadlines = { match: at(1), withdrawal: at(1), delivery: at(3), review: at(4) };
    assert.equal(termsOf(body).deadlines.withdrawal, NOW + HOUR);
  });

  test('exactly 10 criteria and a criterion with a machine check are accepted', () => {
    const check = {
      type: 'time_bound',
      milestones: [{ milestoneId: 'm1', deadline: '2030-01-01T02:00:00Z' }],
    };
    const criteria = [
      ...Array.from({ length: 9 }, (_, i) => `criterion ${i}`),
      { text: 'ships on time', check },
    ];
    const terms = termsOf({ ...fdpBody(), acceptanceCriteria: criteria });
    assert.equal(terms.acceptanceCriteria.length, 10);
    assert.deepEqual(terms.acceptanceCriteria[9], { text: 'ships on time', check });
  });

  test('supplementary materials are optional', () => {
    const { supplementaryMaterials: _m, ...body } = fdpBody();
    assert.equal(termsOf(body).supplementaryMaterials, null);
  });

  test('the escrow amount is the price (fixed) or the budget cap (auction)', () => {
    assert.equal(escrowAmount(termsOf(fdpBody())), 2_500_000n);
    assert.equal(
      escrowAmount(termsOf({ ...fosBody(), contractType: 'auction', amount: '9000000' })),
      9_000_000n,
    );
  });
});

describe('validateContractTerms: each rule broken once names its field', () => {
  test('no criteria', () =>
    assertOneError({ ...fdpBody(), acceptanceCriteria: [] }, 'acceptanceCriteria', /1 to 10/));
  test('eleven criteria', () =>
    assertOneError(
      { ...fdpBody(), acceptanceCriteria: Array.from({ length: 11 }, (_, i) => `c${i}`) },
      'acceptanceCriteria',
      /1 to 10/,
    ));
  test('an empty criterion', () =>
    assertOneError({ ...fdpBody(), acceptanceCriteria: ['ok', ''] }, 'acceptanceCriteria.1', /empty/));
  test('a blank criterion', () =>
    assertOneError({ ...fdpBody(), acceptanceCriteria: ['  \n'] }, 'acceptanceCriteria.0', /empty/));
  test('a criterion object with empty text', () =>
    assertOneError(
      { ...fdpBody(), acceptanceCriteria: [{ text: '' }] },
      'acceptanceCriteria.0.text',
      /empty/,
    ));
  test('a criterion of the wrong type', () =>
    assertOneError({ ...fdpBody(), acceptanceCriteria: [42] }, 'acceptanceCriteria.0'));
  test('a criterion object with an unknown field', () =>
    assertOneError(
      { ...fdpBody(), acceptanceCriteria: [{ text: 'x', weight: 2 }] },
      'acceptanceCriteria.0.weight',
      /unknown field/,
    ));
  test('a machine check with a bad parameter', () =>
    assertOneError(
      {
        ...fdpBody(),
        acceptanceCriteria: [
          { text: 'x', check: { type: 'time_bound', milestones: [{ milestoneId: 'm1', deadline: 'soon' }] } },
        ],
      },
      'acceptanceCriteria.0.check.milestones.0.deadline',
    ));
  test('a machine check of an unknown type', () => {
    const errors = errorsOf({ ...fdpBody(), acceptanceCriteria: [{ text: 'x', check: { type: 'vibes' } }] });
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0]!.field, /^acceptanceCriteria\.0\.check/);
  });

  test('match not after now', () => {
    const body = fdpBody();
    body.deadlines = { match: at(0), withdrawal: at(2), delivery: at(3), review: at(4) };
    assertOneError(body, 'deadlines.match', /future/);
  });
  test('match in the past', () => {
    const body = fdpBody();
    body.deadlines = { match: at(-1), withdrawal: at(2), delivery: at(3), review: at(4) };
    assertOneError(body, 'deadlines.match');
  });
  test('withdrawal before match', () => {
    const body = fdpBody();
    body.deadlines = { match: at(2), withdrawal: at(1), delivery: at(3), review: at(4) };
    assertOneError(body, 'deadlines.withdrawal', /deadlines.match/);
  });
  test('delivery equal to withdrawal', () => {
    const body = fdpBody();
    body.deadlines = { match: at(1), withdrawal: at(2), delivery: at(2), review: at(4) };
    assertOneError(body, 'deadlines.delivery', /deadlines.withdrawal/);
  });
  test('review equal to delivery', () => {
    const body = fdpBody();
    body.deadlines = { match: at(1), withdrawal: at(2), delivery: at(3), review: at(3) };
    assertOneError(body, 'deadlines.review', /deadlines.delivery/);
  });
  test('review given in standard mode is still ordered', () => {
    const body = fosBody();
    body.deadlines = { match: at(1), withdrawal: at(2), delivery: at(3), review: at(2) };
    assertOneError(body, 'deadlines.review');
  });
  test('review missing in privacy-preserving mode', () => {
    const body = fdpBody();
    body.deadlines = { match: at(1), withdrawal: at(2), delivery: at(3) };
    assertOneError(body, 'deadlines.review', /privacy-preserving/);
  });
  test('a deadline with an offset is the same instant as in UTC', () => {
    const body = fdpBody();
    const utc = termsOf(body).deadlines;
    // Python's datetime.isoformat(): `+00:00`, microseconds; another zone's offset.
    const inUtcPlusOne = (iso: string) =>
      new Date(Date.parse(iso) + HOUR).toISOString().replace('.000Z', '+01:00');
    const d = body.deadlines as Record<string, string>;
    body.deadlines = {
      match: d.match!.replace('.000Z', '.000000+00:00'),
      withdrawal: inUtcPlusOne(d.withdrawal!),
      delivery: d.delivery!.replace('Z', '-00:00').replace('.000', ''),
      review: d.review!,
    };
    assert.deepEqual(termsOf(body).deadlines, utc);
  });
  test('a deadline without a zone, or not a timestamp', () => {
    for (const match of ['2030-01-01T01:00:00', '2030-01-01', 'tomorrow', '2030-01-01T01:00:00+25:00']) {
      const body = fdpBody();
      body.deadlines = { ...(body.deadlines as object), match };
      assertOneError(body, 'deadlines.match', /RFC 3339/);
    }
  });
  test('a deadline missing', () => {
    const body = fdpBody();
    body.deadlines = { match: at(1), delivery: at(3), review: at(4) };
    assertOneError(body, 'deadlines.withdrawal');
  });

  test('direct award without a worker', () => {
    const { worker: _w, ...body } = fdpBody();
    assertOneError(body, 'worker', /name the Worker/);
  });
  test('open tender naming a worker', () =>
    assertOneError({ ...fosBody(), worker: WORKER }, 'worker', /must not/));
  test('worker not an address', () =>
    assertOneError({ ...fdpBody(), worker: '0x1234' }, 'worker', /0x \+ 40 hex/));
  test('worker is the client (whatever the case)', () =>
    assertOneError(
      { ...fdpBody(), worker: CLIENT.replace(/c/g, 'C').replace('0C', '0x') },
      'worker',
      /own Worker/,
    ));
  test('auction with direct award', () =>
    assertOneError({ ...fdpBody(), contractType: 'auction' }, 'awardMethod', /open/));

  test('amount zero', () => assertOneError({ ...fdpBody(), amount: '0' }, 'amount', /greater than 0/));
  test('amount as a number', () =>
    assertOneError({ ...fdpBody(), amount: 2500000 }, 'amount', /decimal string/));
  test('amount with decimals', () => assertOneError({ ...fdpBody(), amount: '2.5' }, 'amount'));
  test('unknown contract type', () =>
    assertOneError({ ...fdpBody(), contractType: 'hourly' }, 'contractType'));
  test('unknown verification mode', () =>
    assertOneError({ ...fdpBody(), verificationMode: 'trust-me' }, 'verificationMode'));
  test('empty task description', () =>
    assertOneError({ ...fdpBody(), taskDescription: ' ' }, 'taskDescription', /empty/));
  test('materials with a bad hash', () =>
    assertOneError(
      { ...fdpBody(), supplementaryMaterials: { uri: 'ipfs://x', sha256: 'xyz', key: 'k' } },
      'supplementaryMaterials.sha256',
    ));
  test('materials without a key', () =>
    assertOneError(
      { ...fdpBody(), supplementaryMaterials: { uri: 'ipfs://x', sha256: 'ab'.repeat(32) } },
      'supplementaryMaterials.key',
    ));
  test('a field the caller does not own (status)', () =>
    assertOneError({ ...fdpBody(), status: 'settled-fully-met' }, 'status', /unknown field/));
  test('not an object at all', () => assertOneError('hello', '(body)'));

  test('several broken rules are all reported', () => {
    const body: Record<string, unknown> = { ...fdpBody(), contractType: 'auction', worker: CLIENT };
    body.deadlines = { match: at(1), withdrawal: at(0.5), delivery: at(3), review: at(4) };
    assert.deepEqual(
      errorsOf(body).map((e) => e.field),
      ['awardMethod', 'worker', 'deadlines.withdrawal'],
    );
  });
});

describe('contractCode', () => {
  test('all six combinations', () => {
    const cases = [
      ['fixed', 'direct', 'privacy-preserving', 'FDP'],
      ['fixed', 'direct', 'standard', 'FDS'],
      ['fixed', 'open', 'privacy-preserving', 'FOP'],
      ['fixed', 'open', 'standard', 'FOS'],
      ['auction', 'open', 'privacy-preserving', 'AOP'],
      ['auction', 'open', 'standard', 'AOS'],
    ] as const;
    for (const [contractType, awardMethod, verificationMode, code] of cases) {
      assert.equal(contractCode({ contractType, awardMethod, verificationMode }), code);
    }
  });

  test('auction with direct award has no code', () => {
    assert.throws(() =>
      contractCode({ contractType: 'auction', awardMethod: 'direct', verificationMode: 'standard' }),
    );
  });
});

describe('terms wire form', () => {
  test('survives JSON with the amount as a decimal string', () => {
    const terms = termsOf(fdpBody());
    const wire = JSON.parse(JSON.stringify(termsToWire(terms))) as ReturnType<typeof termsToWire>;
    assert.equal(wire.amount, '2500000');
    assert.deepEqual({ ...wire, amount: BigInt(wire.amount) }, terms);
  });

  test('deadlines render as ISO-8601 UTC', () => {
    const terms = termsOf(fosBody());
    assert.deepEqual(deadlinesToIso(terms.deadlines), {
      match: '2030-01-01T01:00:00.000Z',
      withdrawal: '2030-01-01T02:00:00.000Z',
      delivery: '2030-01-01T03:00:00.000Z',
      review: null,
    });
  });
});
