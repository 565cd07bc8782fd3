import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_PARAMS,
  InvalidParamsError,
  paramsFromWire,
  paramsToWire,
  parseParamsOverrides,
} from '../../workflows/rules/params';
import { HOUR } from '../support/fixtures';

function paramErrors(json: string): { param: string; message: string }[] {
  try {
    parseParamsOverrides(json);
  } catch (e) {
    assert.ok(e instanceof InvalidParamsError, String(e));
    return e.issues;
  }
  assert.fail(`expected ${json} to be refused`);
}

describe('protocol parameters', () => {
  test('defaults are exactly the table of docs/protocol.md §2', () => {
    assert.deepEqual(DEFAULT_PARAMS, {
      version: 1,
      workerStakeBps: 1000,
      withdrawalSlashBps: 2000,
      absentSlashClientBps: 8000,
      disputeBondBps: 500,
      baPanelSize: 3,
      baEligibilityStake: 100_000_000n,
      baBond: 10_000_000n,
      unclearSlashBps: 5000,
      rewardPerCriterion: 1_000_000n,
      unclearRewardBps: 5000,
      baVotingWindow: 72 * HOUR,
      baRecruitmentWindow: 72 * HOUR,
      appealWindow: 24 * HOUR,
      appealBondBps: 1000,
      appealPanelSize: 5,
      minWorkerStake: 100_000n,
      maxRevisions: 2,
      revisionWindow: 48 * HOUR,
      panelFeePerSeat: 200_000n,
    });
  });

  test('no overrides (unset or blank) gives the defaults', () => {
    assert.deepEqual(parseParamsOverrides(undefined), DEFAULT_PARAMS);
    assert.deepEqual(parseParamsOverrides('  '), DEFAULT_PARAMS);
    assert.deepEqual(parseParamsOverrides('{}'), DEFAULT_PARAMS);
  });

  test('applies the example overrides of docs/api.md "Settings"', () => {
    const params = parseParamsOverrides('{"baVotingWindow": 12000, "baBond": "10000000"}');
    assert.deepEqual(params, { ...DEFAULT_PARAMS, baVotingWindow: 12_000, baBond: 10_000_000n });
  });

  test('minWorkerStake: no stake is zero, so a floor of 0 (or none) stops the start', () => {
    assert.deepEqual(paramErrors('{"minWorkerStake": "0"}'), [
      { param: 'minWorkerStake', message: 'must be greater than 0' },
    ]);
    assert.equal(parseParamsOverrides('{"minWorkerStake": "1"}').minWorkerStake, 1n);
  });

  test('applies every kind of override', () => {
    const params = parseParamsOverrides(
      '{"workerStakeBps": 0, "baPanelSize": 5, "rewardPerCriterion": "0", "baEligibilityStake": "20", "baBond": "20"}',
    );
    assert.deepEqual(params, {
      ...DEFAULT_PARAMS,
      workerStakeBps: 0,
      baPanelSize: 5,
      rewardPerCriterion: 0n,
      baEligibilityStake: 20n,
      baBond: 20n,
    });
  });

  const refused: [string, string, RegExp][] = [
    ['{"workerStakeBps": 10001}', 'workerStakeBps', /≤ 10000/],
    ['{"unclearSlashBps": -1}', 'unclearSlashBps', /≥ 0/],
    ['{"absentSlashClientBps": 12.5}', 'absentSlashClientBps', /integer/],
    ['{"baPanelSize": 0}', 'baPanelSize', /≥ 1/],
    ['{"baBond": 10000000}', 'baBond', /decimal string/],
    ['{"baBond": "0"}', 'baBond', /greater than 0/],
    ['{"rewardPerCriterion": "1.5"}', 'rewardPerCriterion', /integer decimal string/],
    ['{"baVotingWindow": "12000"}', 'baVotingWindow', /number/],
    ['{"baVotingWindow": 0}', 'baVotingWindow', /≥ 1 ms/],
    ['{"baEligibilityStake": "9999999"}', 'baEligibilityStake', /at least baBond/],
    ['{"baVotingWindows": 1}', 'baVotingWindows', /unknown field/],
    ['{"version": 1}', 'version', /unknown field/],
    ['{"baBond": ', 'OPENCONTRACT_PARAMS', /not valid JSON/],
    ['[1]', 'OPENCONTRACT_PARAMS', /JSON object/],
    ['null', 'OPENCONTRACT_PARAMS', /JSON object/],
  ];
  for (const [json, param, message] of refused) {
    test(`refuses ${json} naming ${param}`, () => {
      const issues = paramErrors(json);
      assert.equal(issues.length, 1, JSON.stringify(issues));
      assert.equal(issues[0]!.param, param);
      assert.match(issues[0]!.message, message);
    });
  }

  test('the error message names every bad parameter', () => {
    assert.throws(
      () => parseParamsOverrides('{"baPanelSize": 0, "workerStakeBps": 20000}'),
      (e: Error) => /baPanelSize/.test(e.message) && /workerStakeBps/.test(e.message),
    );
  });
});

describe('wire form', () => {
  test('amounts travel as decimal strings and come back as bigint', () => {
    const wire = paramsToWire(DEFAULT_PARAMS);
    assert.equal(wire.baBond, '10000000');
    assert.equal(wire.baEligibilityStake, '100000000');
    assert.equal(wire.rewardPerCriterion, '1000000');
    const viaJson = JSON.parse(JSON.stringify(wire)) as unknown;
    assert.deepEqual(paramsFromWire(viaJson), DEFAULT_PARAMS);
  });

  test('a snapshot of another version or with a missing parameter is refused', () => {
    const wire = paramsToWire(DEFAULT_PARAMS);
    assert.throws(() => paramsFromWire({ ...wire, version: 2 }), /version/);
    const { baBond: _dropped, ...missing } = wire;
    assert.throws(() => paramsFromWire(missing), /baBond/);
  });
});
