// The deterministic, auditable, stake-weighted Backup Agent draw. docs/rules.md says how to recompute it.
//
// Every drawable agent of the registry is a candidate (no party gets priority), weighted by its free
// eligibility stake at the draw; seats are filled one by one without replacement: seat j takes the
// candidate whose cumulative stake (candidates in address order) first exceeds
// uint256(sha256(seed ‖ "<round>:<j>")) mod (the stake still in the pool). Integer arithmetic only, so
// any language recomputes it exactly. A panel is seated only in full: with fewer candidates than seats
// the draw seats nobody.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { normalizeAddress, type Address } from './address';
import { CANONICAL_SHA256_RE } from './sha256';

/** The first panel of a contract, or the appeal panel drawn after its tally. */
export type DrawRound = 'panel' | 'appeal';

export interface DrawCandidate {
  address: Address;
  /** Free eligibility stake at the draw (minor units): the candidate's weight. */
  stake: bigint;
}

export interface DrawInput {
  contractId: string;
  /** sha256 of the delivery (64 hex), as recorded with the delivery. */
  deliveryHash: string;
  panelSize: number;
  round: DrawRound;
  /** Every drawable agent with its free eligibility stake (rules/seats.drawableAgents). */
  registry: readonly { address: string; stake: bigint }[];
  /** Never drawn: the Client, the Worker and, for an appeal, the first panel. */
  exclude: readonly string[];
  /** The round's draw secret (64 hex), revealed in the record (roundSecret). */
  secret: string | null;
}

/** Everything the event log must record so anyone can recompute the panel. */
export interface DrawRecord {
  contractId: string;
  deliveryHash: string;
  panelSize: number;
  round: DrawRound;
  /** The round's revealed draw secret. */
  secret: string | null;
  /** hex sha256(contractId + ':' + secret + ':' + deliveryHash). */
  seed: string;
  /** Sorted by address, de-duplicated, excluded agents and zero stakes removed. */
  candidates: DrawCandidate[];
  /** In draw order; empty when the candidates cannot fill every seat. */
  panel: Address[];
}

/** The commitment published at creation: hex sha256 of a secret's 64 hex characters (as UTF-8). */
export function drawCommitment(secret: string): string {
  return bytesToHex(sha256(utf8ToBytes(checkedHex(secret, 'secret'))));
}

/**
 * The secret of each round, from the one secret the service draws at creation (a hash chain): the
 * appeal round uses that secret, the first panel its commitment hash, and contract.created publishes
 * the commitment of the first panel's. Revealing the first panel's secret thus proves nothing about
 * the appeal's, and each revealed secret is checked against the one before: sha256(panel) is the
 * creation commitment, sha256(appeal) is the panel's secret.
 */
export function roundSecret(secret: string, round: DrawRound): string {
  return round === 'appeal' ? checkedHex(secret, 'secret') : drawCommitment(secret);
}

function checkedHex(value: string, name: string): string {
  const hex = value.toLowerCase();
  if (!CANONICAL_SHA256_RE.test(hex)) throw new RangeError(`${name} must be 64 hex characters, got ${value}`);
  return hex;
}

/**
 * The seed: sha256(contractId:secret:deliveryHash). The secret is the service's, unknown to every
 * party until the draw, so no delivery hash the Worker can choose steers the panel.
 */
export function drawSeed(contractId: string, deliveryHash: string, secret: string | null = null): Uint8Array {
  if (contractId === '') throw new RangeError('contractId must not be empty');
  const hash = checkedHex(deliveryHash, 'deliveryHash');
  const mixed = secret === null ? '' : `${checkedHex(secret, 'secret')}:`;
  return sha256(utf8ToBytes(`${contractId}:${mixed}${hash}`));
}

/** Seat j's draw value: uint256(sha256(seed ‖ UTF-8 "<round>:<j>")). */
export function seatValue(seed: Uint8Array, round: DrawRound, seat: number): bigint {
  return BigInt('0x' + bytesToHex(sha256(concatBytes(seed, utf8ToBytes(`${round}:${seat}`)))));
}

function stakeOf(value: bigint | string, field: string): bigint {
  const stake = typeof value === 'bigint' ? value : /^(0|[1-9][0-9]*)$/.test(value) ? BigInt(value) : -1n;
  if (stake < 0n) throw new RangeError(`${field} must be a non-negative whole number, got ${value}`);
  return stake;
}

function candidatesFrom(
  pool: readonly { address: string; stake: bigint | string }[],
  excluded: ReadonlySet<Address>,
): DrawCandidate[] {
  const byAddress = new Map<Address, bigint>();
  pool.forEach((c, i) => {
    const address = normalizeAddress(c.address);
    const stake = stakeOf(c.stake, `registry[${i}].stake`);
    if (byAddress.has(address)) throw new RangeError(`registry lists ${address} twice`);
    if (!excluded.has(address) && stake > 0n) byAddress.set(address, stake);
  });
  return [...byAddress.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([address, stake]) => ({ address, stake }));
}

/** Stake-weighted sampling without replacement, in integer arithmetic (see the header). */
function pickWeighted(
  seed: Uint8Array,
  round: DrawRound,
  candidates: readonly DrawCandidate[],
  count: number,
): Address[] {
  const pool = [...candidates];
  const panel: Address[] = [];
  let total = pool.reduce((s, c) => s + c.stake, 0n);
  for (let seat = 0; seat < count; seat++) {
    const target = seatValue(seed, round, seat) % total;
    let cumulative = 0n;
    const index = pool.findIndex((c) => (cumulative += c.stake) > target);
    const [picked] = pool.splice(index, 1);
    panel.push(picked!.address);
    total -= picked!.stake;
  }
  return panel;
}

/**
 * Draws from a candidate list (what an auditor runs against the event log's record). The list is
 * normalized first, so its order does not matter: only the seed and the candidates decide the panel.
 */
export function drawFromCandidates(record: {
  contractId: string;
  deliveryHash: string;
  panelSize: number;
  round: DrawRound;
  secret?: string | null;
  candidates: readonly { address: string; stake: bigint | string }[];
}): DrawRecord {
  if (!Number.isInteger(record.panelSize) || record.panelSize < 1) {
    throw new RangeError(`panelSize must be a positive integer, got ${record.panelSize}`);
  }
  const secret = record.secret == null ? null : record.secret.toLowerCase();
  const seed = drawSeed(record.contractId, record.deliveryHash, secret);
  const candidates = candidatesFrom(record.candidates, new Set());
  const seated = candidates.length >= record.panelSize;
  return {
    contractId: record.contractId,
    deliveryHash: record.deliveryHash.toLowerCase(),
    panelSize: record.panelSize,
    round: record.round,
    secret,
    seed: bytesToHex(seed),
    candidates,
    panel: seated ? pickWeighted(seed, record.round, candidates, record.panelSize) : [],
  };
}

/** The draw at delivery, dispute or appeal: excluded agents are removed before anything else. */
export function drawPanel(input: DrawInput): DrawRecord {
  const excluded = new Set(input.exclude.map(normalizeAddress));
  return drawFromCandidates({ ...input, candidates: candidatesFrom(input.registry, excluded) });
}
