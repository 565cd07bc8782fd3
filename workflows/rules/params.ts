// The protocol parameter set of docs/protocol.md §2: defaults, validation, deployment overrides and wire form.
import { z } from 'zod';
import { fieldErrorsFromZod } from './field-errors';
import { amountSchema, toWire } from './money';

export const PARAMS_VERSION = 1 as const;

export interface ProtocolParams {
  version: typeof PARAMS_VERSION;
  workerStakeBps: number;
  withdrawalSlashBps: number;
  absentSlashClientBps: number;
  disputeBondBps: number;
  baPanelSize: number;
  baEligibilityStake: bigint;
  baBond: bigint;
  unclearSlashBps: number;
  rewardPerCriterion: bigint;
  unclearRewardBps: number;
  /** Milliseconds the panel has to vote, from the moment it is drawn. */
  baVotingWindow: number;
  /** Milliseconds a contract waits for a full panel before the operator decides as trusted arbiter. */
  baRecruitmentWindow: number;
  /** Milliseconds after a tally in which the Client or the Worker may appeal. */
  appealWindow: number;
  /** Appeal Bond as basis points of the Escrowed Funds. */
  appealBondBps: number;
  /** Backup Agents drawn for an appeal, none of the first panel. */
  appealPanelSize: number;
  /** Floor of every Worker Stake and bid bond, so no match is free (rules/holds workerStakeFor). */
  minWorkerStake: bigint;
  /** Change requests the Client may make per contract (docs/protocol.md §7). */
  maxRevisions: number;
  /** Milliseconds: the least time a Worker gets to deliver again after a change request. */
  revisionWindow: number;
  /** What bringing in a panel costs per seat, paid to the seated BAs who vote (rules/panel-fee). */
  panelFeePerSeat: bigint;
}

/** The same set with amounts as decimal strings: the form that travels in workflow payloads. */
export type ProtocolParamsWire = {
  [K in keyof ProtocolParams]: ProtocolParams[K] extends bigint ? string : ProtocolParams[K];
};

const HOUR_MS = 3_600_000;

export const DEFAULT_PARAMS: Readonly<ProtocolParams> = Object.freeze({
  version: PARAMS_VERSION,
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
  baVotingWindow: 72 * HOUR_MS,
  baRecruitmentWindow: 72 * HOUR_MS,
  appealWindow: 24 * HOUR_MS,
  appealBondBps: 1000,
  appealPanelSize: 5,
  minWorkerStake: 100_000n,
  maxRevisions: 2,
  revisionWindow: 48 * HOUR_MS,
  panelFeePerSeat: 200_000n,
});

/** A Client may ask for changes at most this many times under any deployment's parameters. */
export const MAX_REVISIONS_CAP = 10;

export const MAX_PANEL_SIZE = 100;
export const MAX_VOTING_WINDOW_MS = 365 * 24 * HOUR_MS;

const windowField = z
  .number()
  .int('must be an integer number of milliseconds')
  .min(1, 'must be ≥ 1 ms')
  .max(MAX_VOTING_WINDOW_MS, 'must be at most 365 days');
const panelSizeField = z.number().int('must be an integer').min(1, 'must be ≥ 1').max(MAX_PANEL_SIZE);
const bpsField = z.number().int('must be an integer').min(0, 'must be ≥ 0').max(10_000, 'must be ≤ 10000');
const positiveAmount = amountSchema.refine((n) => n > 0n, 'must be greater than 0');

/** Every parameter except the version, with amounts as decimal strings and durations as ms. */
const paramFields = {
  workerStakeBps: bpsField,
  withdrawalSlashBps: bpsField,
  absentSlashClientBps: bpsField,
  disputeBondBps: bpsField,
  baPanelSize: panelSizeField,
  baEligibilityStake: positiveAmount,
  baBond: positiveAmount,
  unclearSlashBps: bpsField,
  rewardPerCriterion: amountSchema,
  unclearRewardBps: bpsField,
  baVotingWindow: windowField,
  baRecruitmentWindow: windowField,
  appealWindow: windowField,
  appealBondBps: bpsField,
  appealPanelSize: panelSizeField,
  minWorkerStake: positiveAmount,
  maxRevisions: z
    .number()
    .int('must be an integer')
    .min(0, 'must be ≥ 0')
    .max(MAX_REVISIONS_CAP, `must be ≤ ${MAX_REVISIONS_CAP}`),
  revisionWindow: windowField,
  panelFeePerSeat: amountSchema,
};

/**
 * A seat holds baBond of its agent's eligibility stake, so the stake that makes an agent eligible
 * must cover at least one seat.
 */
function checkCrossFieldRules(p: Omit<ProtocolParams, 'version'>, ctx: z.RefinementCtx): void {
  if (p.baEligibilityStake < p.baBond) {
    ctx.addIssue({
      code: 'custom',
      path: ['baEligibilityStake'],
      message: `must be at least baBond (${p.baBond}) so an eligible agent can hold a seat`,
    });
  }
}

export const protocolParamsWireSchema = z
  .object({ version: z.literal(PARAMS_VERSION), ...paramFields })
  .strict()
  .superRefine(checkCrossFieldRules);

const overridesSchema = z.object(paramFields).partial().strict();

export class InvalidParamsError extends Error {
  constructor(readonly issues: { param: string; message: string }[]) {
    super(`invalid protocol parameters: ${issues.map((i) => `${i.param}: ${i.message}`).join('; ')}`);
    this.name = 'InvalidParamsError';
  }
}

/** The shared flattener's field errors (an unknown key under its own name), named as parameters. */
function issuesOf(error: z.ZodError): { param: string; message: string }[] {
  return fieldErrorsFromZod(error).map(({ field, message }) => ({
    param: field || '(parameter set)',
    message,
  }));
}

export function paramsToWire(params: ProtocolParams): ProtocolParamsWire {
  return {
    ...params,
    baEligibilityStake: toWire(params.baEligibilityStake),
    baBond: toWire(params.baBond),
    rewardPerCriterion: toWire(params.rewardPerCriterion),
    minWorkerStake: toWire(params.minWorkerStake),
    panelFeePerSeat: toWire(params.panelFeePerSeat),
  };
}

/** Validates a wire snapshot (e.g. from a workflow payload) and restores the bigint amounts. */
export function paramsFromWire(wire: unknown): ProtocolParams {
  const parsed = protocolParamsWireSchema.safeParse(wire);
  if (!parsed.success) throw new InvalidParamsError(issuesOf(parsed.error));
  return parsed.data;
}

/**
 * The deployment's parameters: the defaults with the overrides of `OPENCONTRACT_PARAMS` applied.
 * Undefined or blank → the defaults. Throws InvalidParamsError naming each bad parameter.
 */
export function parseParamsOverrides(json: string | undefined): ProtocolParams {
  if (json === undefined || json.trim() === '') return { ...DEFAULT_PARAMS };
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new InvalidParamsError([
      { param: 'OPENCONTRACT_PARAMS', message: `not valid JSON (${(e as Error).message})` },
    ]);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InvalidParamsError([
      { param: 'OPENCONTRACT_PARAMS', message: 'must be a JSON object of overrides' },
    ]);
  }
  const overrides = overridesSchema.safeParse(raw);
  if (!overrides.success) throw new InvalidParamsError(issuesOf(overrides.error));
  return paramsFromWire({ ...paramsToWire(DEFAULT_PARAMS), ...raw });
}
