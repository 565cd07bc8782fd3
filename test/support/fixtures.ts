// What the tests share: time units, amounts under the default parameters (workflows/rules/params.ts),
// fixed agent addresses and agents with keys, hashes and references, and one valid contract body.
import { addressFromPrivateKey, randomPrivateKey } from '../../sdk/typescript/signer';

export const SECOND = 1_000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** USDC minor units (6 decimals): what a test funds a Client with. */
export const FUNDS = 10_000_000n;
/** What a Worker is funded with in the workflow tests: enough for its stake. */
export const WORKER_FUNDS = 1_000_000n;
/** The price of the contract body below. */
export const PRICE = 2_500_000n;
/** An auction's budget. */
export const BUDGET = 5_000_000n;
/** workerStakeBps (10%) of PRICE. */
export const WORKER_STAKE = 250_000n;
/** disputeBondBps (5%) of PRICE. */
export const DISPUTE_BOND = 125_000n;
/** baEligibilityStake. */
export const ELIGIBILITY_STAKE = 100_000_000n;
/** What a Backup Agent is funded with: its eligibility stake and more. */
export const BA_FUNDS = 200_000_000n;
/** baBond. */
export const BA_BOND = 10_000_000n;
/** panelFeePerSeat: one seat's share of a panel fee. */
export const FEE_SHARE = 200_000n;
/** panelFeePerSeat × baPanelSize: the fee of a first panel (standard mode at creation, or with a dispute). */
export const PANEL_FEE = 3n * FEE_SHARE;
/** panelFeePerSeat × appealPanelSize: the fee of an appeal panel. */
export const APPEAL_FEE = 5n * FEE_SHARE;
/** rewardPerCriterion: OCT minor units per vote that matches a decisive majority. */
export const REWARD = 1_000_000n;

/** A fixed address made of one byte repeated (typed as the rules' Address). */
const address = (byte: string) => `0x${byte.repeat(20)}` as const;

/** Fixed agents, for tests that sign nothing (rules, ledger, workflows). */
export const CLIENT = address('c1');
export const WORKER = address('a7');
export const OTHER = address('b0');
export const POOR = address('d3');
export const STRANGER = address('e5');
/** Backup Agents. */
export const BA1 = address('1b');
export const BA2 = address('2b');
export const BA3 = address('3b');
export const BAS = [BA1, BA2, BA3] as const;

/** An agent with a key, for tests that sign requests. */
export interface TestAgent {
  key: string;
  address: string;
}

export function newAgent(): TestAgent {
  const key = randomPrivateKey();
  return { key, address: addressFromPrivateKey(key) };
}

export const SHA_A = 'a'.repeat(64);
export const SHA_B = 'b'.repeat(64);
/** A Worker's delivery reference as the API takes it (the key goes to the vault). */
export const DELIVERY_REF = {
  uri: 'https://files.example/out.enc',
  sha256: 'ef'.repeat(32),
  key: 'delivery-key-1',
};

/** Supplementary materials as a Client attaches them (the key goes to the vault). */
export const MATERIALS = {
  uri: 'https://files.example/readme.enc',
  sha256: 'ab'.repeat(32),
  key: 'materials-secret-key',
};

/**
 * A valid fixed-price contract body (docs/protocol.md §3): direct to `worker`, or an open tender when it is
 * undefined; deadlines 1 to 4 hours after `now`; `overrides` replace top-level fields.
 */
export function contractBody<Overrides extends object = Record<never, never>>(
  worker: string | undefined,
  overrides: Overrides = {} as Overrides,
  now = Date.now(),
) {
  const at = (hours: number) => new Date(now + hours * HOUR).toISOString();
  return {
    contractType: 'fixed' as const,
    awardMethod: worker === undefined ? ('open' as const) : ('direct' as const),
    ...(worker === undefined ? { verificationMode: 'privacy-preserving' as const } : { worker }),
    taskDescription: 'Summarize the attached report in 200 words.',
    acceptanceCriteria: ['at most 200 words', 'mentions every section'],
    amount: PRICE.toString(),
    deadlines: { match: at(1), withdrawal: at(2), delivery: at(3), review: at(4) },
    ...overrides,
  };
}
