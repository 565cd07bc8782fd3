// The ledger's logic, written once over SqlDriver and shared by the SQLite and PostgreSQL stores.
// The schema's constraints and triggers (see the store files) are the backstop for every invariant;
// this code checks the same rules first, inside the same transaction, to raise named errors.
import {
  HoldAlreadyResolvedError,
  HoldNotFoundError,
  IdempotencyConflictError,
  InsufficientFundsError,
  InvariantViolationError,
  PartsMismatchError,
} from './errors';
import { commitUnderMandate, SqlMandateRegistry, type MandateRegistry } from './mandates';
import { SqlPanelRegistry, type PanelRegistry } from './panels';
import { big, nullableStr, placeholders, str } from './sql';
import {
  claimOperationsSql,
  insertRows,
  lockAccountsSql,
  ROWS_PER_INSERT,
  TRANSFER_COLUMNS,
  writeAtOnceSql,
  writeResolvingAtOnceSql,
} from './write-sql';
import type { Row, SqlDriver, SqlTx } from './sql';
import { ASSETS } from './types';
import { canonicalBody, normalizeBatch, normalizeOp } from './validate';
import type {
  Asset,
  AuditReport,
  Balances,
  EligibleAgent,
  Hold,
  HoldKind,
  HoldOp,
  Ledger,
  LedgerOp,
  OpInput,
  OpKind,
  OpResult,
  Owner,
  ResolvePart,
  Posting,
  SeatInput,
} from './types';

type TransferType = Posting['type'];

interface HoldFacts {
  owner: Owner;
  asset: Asset;
  amount: bigint;
  kind: HoldKind;
  contractId: string | null;
  /** The operation that closed the hold, stored or earlier in the batch; null while it is open. */
  resolvedBy: string | null;
}

interface NewTransfer {
  type: TransferType;
  asset: Asset;
  debit: Owner;
  credit: Owner | null;
  amount: bigint;
  holdId: string | null;
  closesHold: string | null;
  holdKind: HoldKind | null;
  contractId: string | null;
}

/** A transfer row's columns but its contract, of the row aliased `t`. */
const POSTING_COLUMNS = (t: string) =>
  ['seq', ...TRANSFER_COLUMNS.split(', ')]
    .filter((column) => column !== 'contract_id')
    .map((column) => `${t}.${column}`)
    .join(', ');

const HOLD_COLUMNS = `h.op_id, h.debit_owner, h.asset, h.amount, h.hold_kind, h.contract_id, h.created_at,
  c.op_id AS resolved_by`;
// A hold is found by hold_id (a pending row's hold_id is its op_id), its closing row by (hold_id, closes_hold):
// both stores index these, and the embedded store indexes nothing else by hold or operation id.
const HOLD_FROM = `ledger_transfers h
  LEFT JOIN ledger_transfers c ON c.hold_id = h.hold_id AND c.closes_hold = h.hold_id`;

/** Accounts an operation touches, as [owner, asset] pairs. */
function accountsOf(op: LedgerOp, hold: (id: string) => HoldFacts): Array<[Owner, Asset]> {
  switch (op.kind) {
    case 'deposit':
    case 'mint':
      return [
        ['mint', op.asset],
        [op.to, op.asset],
      ];
    case 'withdraw':
      return [
        [op.from, op.asset],
        ['mint', op.asset],
      ];
    case 'transfer':
      return [
        [op.from, op.asset],
        [op.to, op.asset],
      ];
    case 'hold':
      return [[op.owner, op.asset]];
    case 'void': {
      const h = hold(op.holdId);
      return [[h.owner, h.asset]];
    }
    case 'resolve': {
      const h = hold(op.holdId);
      return [[h.owner, h.asset] as [Owner, Asset], ...op.parts.map((p): [Owner, Asset] => [p.to, h.asset])];
    }
  }
}

const isMandated = (op: LedgerOp): op is HoldOp & { mandate: string } =>
  op.kind === 'hold' && op.mandate !== undefined;

const accountKey = (owner: Owner, asset: Asset) => `${owner}|${asset}`;

/** The accounts the operations touch, each once, in the one order every batch locks them in. */
function accountsTouched(ops: LedgerOp[], hold: (id: string) => HoldFacts): Array<[Owner, Asset]> {
  const pairs = ops.flatMap((op) => accountsOf(op, hold));
  return [...new Map(pairs.map(([o, a]) => [accountKey(o, a), [o, a] as [Owner, Asset]])).entries()]
    .sort(([k1], [k2]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : 0))
    .map(([, pair]) => pair);
}

/**
 * The resolves of a batch that name holds stored before it (not opened by an earlier operation of the
 * batch), when the one-statement write can join them to their holds; undefined when there are none,
 * or when the batch voids a stored hold or resolves one with no part above zero (those read the holds).
 */
function resolvesOfStoredHolds(ops: LedgerOp[]): Set<LedgerOp> | undefined {
  const opened = new Set<string>();
  const joined = new Set<LedgerOp>();
  for (const op of ops) {
    if (op.kind === 'hold') opened.add(op.id);
    if ((op.kind === 'resolve' || op.kind === 'void') && !opened.has(op.holdId)) {
      if (op.kind === 'void' || !op.parts.some((p) => p.amount > 0n)) return undefined;
      joined.add(op);
    }
  }
  return joined.size > 0 ? joined : undefined;
}

/** The operation rows of `ops`: id, kind, the body as the store keeps it, and the time. */
function operationRows(ops: LedgerOp[], body: (op: LedgerOp) => string, now: string): unknown[][] {
  return ops.map((op) => [op.id, op.kind, body(op), now]);
}

/** Refuses a debit beyond the available balance; with no balances at hand (null) the database's CHECK decides. */
function requireAvailable(
  available: Map<string, bigint> | null,
  owner: Owner,
  asset: Asset,
  amount: bigint,
): void {
  if (available === null) return;
  const has = available.get(accountKey(owner, asset)) ?? 0n;
  if (has < amount) throw new InsufficientFundsError(owner, asset, amount, has);
}

/**
 * Keeps the batch's view of available balances current as its transfers are planned (the database's
 * trigger keeps the stored balances; its CHECK refuses anything this view would have missed).
 */
function trackAvailable(available: Map<string, bigint>, t: NewTransfer): void {
  const add = (owner: Owner, amount: bigint) =>
    available.set(accountKey(owner, t.asset), (available.get(accountKey(owner, t.asset)) ?? 0n) + amount);
  if (t.type === 'posted' || t.type === 'pending') add(t.debit, -t.amount);
  if (t.type === 'void') add(t.debit, t.amount);
  if (t.credit) add(t.credit, t.amount);
}

function rowToHold(row: Row, parts: Map<string, ResolvePart[]>): Hold {
  const id = str(row.op_id);
  const resolvedBy = nullableStr(row.resolved_by);
  return {
    id,
    owner: str(row.debit_owner) as Owner,
    asset: str(row.asset) as Asset,
    amount: big(row.amount),
    kind: str(row.hold_kind) as HoldKind,
    contractId: nullableStr(row.contract_id),
    status: resolvedBy === null ? 'open' : 'resolved',
    resolution: resolvedBy === null ? null : { opId: resolvedBy, parts: parts.get(id) ?? [] },
    createdAt: str(row.created_at),
  };
}

function rowToPosting(row: Row): Posting {
  return {
    seq: big(row.seq),
    opId: str(row.op_id),
    index: Number(row.idx),
    type: str(row.type) as TransferType,
    asset: str(row.asset) as Asset,
    debit: str(row.debit_owner) as Owner,
    credit: nullableStr(row.credit_owner) as Owner | null,
    amount: big(row.amount),
    holdId: nullableStr(row.hold_id),
    holdKind: nullableStr(row.hold_kind) as HoldKind | null,
    contractId: nullableStr(row.contract_id),
    createdAt: str(row.created_at),
  };
}

function emptyBalances(): Balances {
  return { USDC: { available: 0n, held: 0n }, OCT: { available: 0n, held: 0n } };
}

export class SqlLedger implements Ledger {
  readonly panels: PanelRegistry;
  readonly mandates: MandateRegistry;

  constructor(private readonly db: SqlDriver) {
    this.panels = new SqlPanelRegistry(db);
    this.mandates = new SqlMandateRegistry(db);
  }

  private readonly storedBody = (op: LedgerOp): string => {
    const body = canonicalBody(op);
    return this.db.storedBody ? this.db.storedBody(body) : body;
  };

  deposit(op: OpInput<'deposit'>) {
    return this.single('deposit', op);
  }
  withdraw(op: OpInput<'withdraw'>) {
    return this.single('withdraw', op);
  }
  transfer(op: OpInput<'transfer'>) {
    return this.single('transfer', op);
  }
  hold(op: OpInput<'hold'>) {
    return this.single('hold', op);
  }
  resolve(op: OpInput<'resolve'>) {
    return this.single('resolve', op);
  }
  voidHold(op: OpInput<'void'>) {
    return this.single('void', op);
  }
  mint(op: OpInput<'mint'>) {
    return this.single('mint', op);
  }

  private async single<K extends OpKind>(kind: K, op: OpInput<K>): Promise<OpResult> {
    const [result] = await this.apply([normalizeOp({ ...op, kind })]);
    return result!;
  }

  async batch(input: LedgerOp[]): Promise<OpResult[]> {
    return this.apply(normalizeBatch(input));
  }

  /**
   * Where the database runs writes inside WITH (PostgreSQL), a batch is first tried as one statement,
   * its own transaction, that assumes every id is new and every balance suffices (writeAtOnce).
   * Anything else — a replay, a conflict, a missing or resolved hold, a refused balance — fails that
   * statement, which writes nothing, and the batch is applied again step by step in a transaction
   * (applyBatch), which reaches the same outcome and names the error.
   */
  private async apply(ops: LedgerOp[]): Promise<OpResult[]> {
    // A hold under a mandate reads its mandate's sums after its row is written: step by step only.
    if (this.db.autocommit && !ops.some(isMandated)) {
      const results = await this.db.autocommit((tx) => this.writeAtOnce(tx, ops)).catch(() => undefined);
      if (results) return results;
    }
    return this.db.write((tx) => this.applyBatch(tx, ops));
  }

  private async applyBatch(tx: SqlTx, ops: LedgerOp[]): Promise<OpResult[]> {
    const now = new Date().toISOString();
    const toApply = await this.claimOperations(tx, ops, now);
    const applied = new Set(toApply);
    const results = ops.map((op): OpResult => ({ id: op.id, kind: op.kind, replayed: !applied.has(op) }));
    if (toApply.length === 0) return results;

    const holdOf = await this.holdsReferenced(tx, toApply);
    const available = await this.lockAccounts(tx, accountsTouched(toApply, holdOf));
    await insertRows(tx, this.transferRows(toApply, holdOf, available, now));
    // After the rows: a hold the batch released (a bid bond moved) no longer counts against the mandate.
    for (const op of toApply) if (isMandated(op)) await commitUnderMandate(tx, op, now);
    return results;
  }

  /**
   * One statement claims the operation ids, creates and locks the accounts (in the same fixed order)
   * and writes the transfer rows. Resolves of holds stored before the batch are joined to their holds
   * inside that statement (writeResolvingAtOnceSql), so a settle is one round trip; a batch that voids
   * a stored hold, or resolves one with nothing but zero parts, reads its holds first (their amount,
   * owner and kind never change; a resolution that lands meanwhile is refused by the triggers).
   */
  private async writeAtOnce(tx: SqlTx, ops: LedgerOp[]): Promise<OpResult[] | undefined> {
    const now = new Date().toISOString();
    const results = ops.map((op): OpResult => ({ id: op.id, kind: op.kind, replayed: false }));
    const joined = resolvesOfStoredHolds(ops);
    if (joined === undefined) {
      const holdOf = await this.holdsReferenced(tx, ops);
      const rows = this.transferRows(ops, holdOf, null, now);
      if (rows.length > ROWS_PER_INSERT) return undefined; // too many for one statement: step by step
      const { sql, params } = writeAtOnceSql(
        operationRows(ops, this.storedBody, now),
        accountsTouched(ops, holdOf),
        rows,
      );
      await tx.run(sql, params);
      return results;
    }
    const known = ops.filter((op) => !joined.has(op));
    const holdOf = await this.holdsReferenced(tx, known); // no read: they name holds of the batch only
    const rows: unknown[][] = [];
    const parts: unknown[][] = [];
    for (const op of ops) {
      if (op.kind === 'resolve' && joined.has(op)) {
        const total = op.parts.reduce((sum, p) => sum + p.amount, 0n);
        for (const [idx, p] of op.parts.filter((part) => part.amount > 0n).entries()) {
          parts.push([
            rows.length + parts.length,
            op.id,
            idx,
            op.holdId,
            p.to,
            p.amount,
            idx === 0 ? op.holdId : null,
            op.contractId ?? null,
            total,
          ]);
        }
      } else {
        for (const row of this.transferRows([op], holdOf, null, now))
          rows.push([rows.length + parts.length, ...row]);
      }
    }
    if (rows.length + parts.length > ROWS_PER_INSERT) return undefined;
    const { sql, params } = writeResolvingAtOnceSql(
      operationRows(ops, this.storedBody, now),
      accountsTouched(known, holdOf),
      rows,
      parts,
      now,
    );
    await tx.run(sql, params);
    return results;
  }

  /** The transfer rows of `ops`, checked against `available` as they are planned (when given). */
  private transferRows(
    ops: LedgerOp[],
    holdOf: (id: string) => HoldFacts,
    available: Map<string, bigint> | null,
    now: string,
  ): unknown[][] {
    const rows: unknown[][] = [];
    for (const op of ops) {
      const transfers = this.plan(op, holdOf, available);
      if (available) for (const t of transfers) trackAvailable(available, t);
      for (const [i, t] of transfers.entries()) {
        const contractImplied =
          this.db.impliedResolutionContracts === true &&
          (t.type === 'post' || t.type === 'void') &&
          t.contractId === holdOf(t.holdId!).contractId;
        rows.push([
          op.id,
          i,
          t.type,
          t.asset,
          t.debit,
          t.credit,
          t.amount,
          t.holdId,
          t.closesHold,
          t.holdKind,
          contractImplied ? null : t.contractId,
          now,
        ]);
      }
    }
    return rows;
  }

  /**
   * Inserts the batch's operation rows in one statement and returns those that were new. An id that
   * was already stored is a replay when its body is the same, and a conflict otherwise.
   */
  private async claimOperations(tx: SqlTx, ops: LedgerOp[], now: string): Promise<LedgerOp[]> {
    const inserted = new Set(
      (await tx.all(claimOperationsSql(ops.length), operationRows(ops, this.storedBody, now).flat())).map(
        (row) => str(row.id),
      ),
    );
    const prior = ops.filter((op) => !inserted.has(op.id));
    if (prior.length > 0) {
      const bodies = new Map<string, string>();
      for (const row of await tx.all(
        `SELECT id, body FROM ledger_operations WHERE id IN (${placeholders(prior.length)})`,
        prior.map((op) => op.id),
      )) {
        bodies.set(str(row.id), str(row.body));
      }
      for (const op of prior) {
        if (bodies.get(op.id) !== this.storedBody(op)) throw new IdempotencyConflictError(op.id);
      }
    }
    return ops.filter((op) => inserted.has(op.id));
  }

  /**
   * The hold each resolve or void of the batch names: opened before the batch, or by an earlier
   * operation of it (never a later one). Throws HoldNotFoundError for the first that names neither.
   */
  private async holdsReferenced(tx: SqlTx, ops: LedgerOp[]): Promise<(id: string) => HoldFacts> {
    const opened = new Set<string>();
    const wanted = new Set<string>();
    for (const op of ops) {
      if ((op.kind === 'resolve' || op.kind === 'void') && !opened.has(op.holdId)) wanted.add(op.holdId);
      if (op.kind === 'hold') opened.add(op.id);
    }
    const facts = new Map<string, HoldFacts>();
    if (wanted.size > 0) {
      const rows = await tx.all(
        `SELECT h.op_id, h.debit_owner, h.asset, h.amount, h.hold_kind, h.contract_id, c.op_id AS resolved_by
         FROM ${HOLD_FROM} WHERE h.type = 'pending' AND h.hold_id IN (${placeholders(wanted.size)})`,
        [...wanted],
      );
      for (const row of rows) {
        facts.set(str(row.op_id), {
          owner: str(row.debit_owner) as Owner,
          asset: str(row.asset) as Asset,
          amount: big(row.amount),
          kind: str(row.hold_kind) as HoldKind,
          contractId: nullableStr(row.contract_id),
          resolvedBy: nullableStr(row.resolved_by),
        });
      }
    }
    for (const op of ops) {
      if ((op.kind === 'resolve' || op.kind === 'void') && !facts.has(op.holdId))
        throw new HoldNotFoundError(op.holdId);
      if (op.kind === 'hold') {
        facts.set(op.id, {
          owner: op.owner,
          asset: op.asset,
          amount: op.amount,
          kind: op.holdKind,
          contractId: op.contractId ?? null,
          resolvedBy: null,
        });
      }
    }
    return (id) => facts.get(id)!;
  }

  /**
   * Creates missing accounts, locks all of them in one fixed order (so concurrent batches cannot
   * deadlock on each other), and returns each one's available balance at that moment. One statement:
   * the no-op update of an existing row takes its row lock and RETURNING reads it.
   */
  private async lockAccounts(tx: SqlTx, keys: Array<[Owner, Asset]>): Promise<Map<string, bigint>> {
    const rows = await tx.all(lockAccountsSql(keys.length), keys.flat());
    return new Map(
      rows.map((row) => [
        accountKey(str(row.owner) as Owner, str(row.asset) as Asset),
        big(row.credits_posted) - big(row.debits_posted) - big(row.debits_pending),
      ]),
    );
  }

  /** Checks an operation against the current balances and returns the transfer rows it writes. */
  private plan(
    op: LedgerOp,
    hold: (id: string) => HoldFacts,
    available: Map<string, bigint> | null,
  ): NewTransfer[] {
    const posted = (
      asset: Asset,
      debit: Owner,
      credit: Owner,
      amount: bigint,
      contractId?: string,
    ): NewTransfer => ({
      type: 'posted',
      asset,
      debit,
      credit,
      amount,
      holdId: null,
      closesHold: null,
      holdKind: null,
      contractId: contractId ?? null,
    });
    switch (op.kind) {
      case 'deposit':
        return [posted(op.asset, 'mint', op.to, op.amount)];
      case 'mint':
        return [posted(op.asset, 'mint', op.to, op.amount, op.contractId)];
      case 'withdraw':
        requireAvailable(available, op.from, op.asset, op.amount);
        return [posted(op.asset, op.from, 'mint', op.amount)];
      case 'transfer':
        requireAvailable(available, op.from, op.asset, op.amount);
        return [posted(op.asset, op.from, op.to, op.amount, op.contractId)];
      case 'hold':
        requireAvailable(available, op.owner, op.asset, op.amount);
        return [
          {
            type: 'pending',
            asset: op.asset,
            debit: op.owner,
            credit: null,
            amount: op.amount,
            holdId: op.id,
            closesHold: null,
            holdKind: op.holdKind,
            contractId: op.contractId ?? null,
          },
        ];
      case 'void':
      case 'resolve': {
        const h = hold(op.holdId);
        if (h.resolvedBy !== null) throw new HoldAlreadyResolvedError(op.holdId, h.resolvedBy);
        h.resolvedBy = op.id;
        const parts = op.kind === 'void' ? [{ to: h.owner, amount: h.amount }] : op.parts;
        const sum = parts.reduce((total, p) => total + p.amount, 0n);
        if (sum !== h.amount) throw new PartsMismatchError(op.holdId, h.amount, sum);
        const contractId = (op.kind === 'resolve' ? op.contractId : undefined) ?? h.contractId;
        return parts
          .filter((p) => p.amount > 0n)
          .map((p, i) => ({
            type: p.to === h.owner ? 'void' : 'post',
            asset: h.asset,
            debit: h.owner,
            credit: p.to === h.owner ? null : p.to,
            amount: p.amount,
            holdId: op.holdId,
            closesHold: i === 0 ? op.holdId : null,
            holdKind: h.kind,
            contractId,
          }));
      }
    }
  }

  async seat(input: SeatInput): Promise<{ short: Owner[]; replayed: boolean }> {
    const { contractId, bond, seats } = input;
    if (bond <= 0n) throw new RangeError('bond must be positive');
    return this.db.write(async (tx) => {
      const held = await tx.all(
        `SELECT op_id FROM ledger_transfers WHERE type = 'pending' AND hold_id IN (${placeholders(seats.length)})`,
        seats.map((x) => x.holdId),
      );
      if (held.length === seats.length) return { short: [], replayed: true };
      // The owners' accounts first, in the one order every batch locks them: a concurrent seating or
      // unlock of the same agent waits here, then reads what the other left.
      const keys = [...new Set(seats.map((x) => x.owner))].sort().map((o): [Owner, Asset] => [o, 'USDC']);
      await this.lockAccounts(tx, keys);
      const ops: LedgerOp[] = [];
      const short: Owner[] = [];
      for (const { owner, holdId, rewritePrefix } of seats) {
        const open = await tx.all(
          `SELECT h.op_id, h.amount FROM ${HOLD_FROM}
           WHERE h.type = 'pending' AND h.debit_owner = ? AND h.hold_kind = 'eligibility' AND h.asset = 'USDC'
             AND c.op_id IS NULL ORDER BY h.seq`,
          [owner],
        );
        const free = open.reduce((sum, row) => sum + big(row.amount), 0n);
        if (free < bond) {
          short.push(owner);
          continue;
        }
        ops.push(
          ...open.map((row, i): LedgerOp => ({
            kind: 'void',
            id: `${rewritePrefix}:${i}`,
            holdId: str(row.op_id),
          })),
        );
        if (free > bond) {
          ops.push({
            kind: 'hold',
            id: `${rewritePrefix}:rest`,
            owner,
            asset: 'USDC',
            amount: free - bond,
            holdKind: 'eligibility',
          });
        }
        ops.push({
          kind: 'hold',
          id: holdId,
          owner,
          asset: 'USDC',
          amount: bond,
          holdKind: 'ba-bond',
          contractId,
        });
      }
      if (short.length > 0) return { short, replayed: false };
      await this.applyBatch(tx, normalizeBatch(ops));
      return { short: [], replayed: false };
    });
  }

  // ---- read side ----

  async balances(owner: Owner): Promise<Balances> {
    const rows = await this.db.read((tx) =>
      tx.all(
        'SELECT asset, credits_posted, debits_posted, debits_pending FROM ledger_accounts WHERE owner = ?',
        [owner],
      ),
    );
    const balances = emptyBalances();
    for (const row of rows) {
      const held = big(row.debits_pending);
      balances[str(row.asset) as Asset] = {
        available: big(row.credits_posted) - big(row.debits_posted) - held,
        held,
      };
    }
    return balances;
  }

  async getHold(id: string): Promise<Hold | undefined> {
    const [hold] = await this.queryHolds('h.hold_id = ?', [id]);
    return hold;
  }

  holdsByContract(contractId: string): Promise<Hold[]> {
    return this.queryHolds('h.contract_id = ?', [contractId]);
  }

  openContractHolds(): Promise<Hold[]> {
    return this.queryHolds('h.contract_id IS NOT NULL AND c.op_id IS NULL', []);
  }

  async holdsOf(owner: Owner, filter: { kind?: HoldKind; open?: boolean } = {}): Promise<Hold[]> {
    const holds = await this.queryHolds(
      filter.kind ? 'h.debit_owner = ? AND h.hold_kind = ?' : 'h.debit_owner = ?',
      filter.kind ? [owner, filter.kind] : [owner],
    );
    if (filter.open === undefined) return holds;
    return holds.filter((h) => (h.status === 'open') === filter.open);
  }

  private queryHolds(where: string, params: unknown[]): Promise<Hold[]> {
    return this.db.read(async (tx) => {
      const rows = await tx.all(
        `SELECT ${HOLD_COLUMNS} FROM ${HOLD_FROM} WHERE h.type = 'pending' AND ${where} ORDER BY h.seq`,
        params,
      );
      const resolved = rows
        .filter((r) => r.resolved_by !== null && r.resolved_by !== undefined)
        .map((r) => str(r.op_id));
      const parts = new Map<string, ResolvePart[]>();
      if (resolved.length > 0) {
        const partRows = await tx.all(
          `SELECT hold_id, debit_owner, credit_owner, amount FROM ledger_transfers
           WHERE type IN ('post', 'void') AND hold_id IN (${placeholders(resolved.length)}) ORDER BY seq`,
          resolved,
        );
        for (const row of partRows) {
          const list = parts.get(str(row.hold_id)) ?? [];
          list.push({
            to: (nullableStr(row.credit_owner) ?? str(row.debit_owner)) as Owner,
            amount: big(row.amount),
          });
          parts.set(str(row.hold_id), list);
        }
      }
      return rows.map((row) => rowToHold(row, parts));
    });
  }

  /** The rows naming the contract, and the resolution rows that take it from their hold (impliedResolutionContracts). */
  async postingsByContract(contractId: string): Promise<Posting[]> {
    const rows = await this.db.read((tx) =>
      this.db.impliedResolutionContracts
        ? tx.all(
            `SELECT ${POSTING_COLUMNS('t')}, t.contract_id FROM ledger_transfers t WHERE t.contract_id = ?
             UNION ALL
             SELECT ${POSTING_COLUMNS('r')}, h.contract_id FROM ledger_transfers h
               JOIN ledger_transfers r ON r.hold_id = h.hold_id AND r.type IN ('post', 'void') AND r.contract_id IS NULL
             WHERE h.contract_id = ? AND h.type = 'pending'
             ORDER BY seq`,
            [contractId, contractId],
          )
        : tx.all('SELECT * FROM ledger_transfers WHERE contract_id = ? ORDER BY seq', [contractId]),
    );
    return rows.map(rowToPosting);
  }

  async eligibleAgents(minStake: bigint): Promise<EligibleAgent[]> {
    const rows = await this.db.read((tx) =>
      tx.all(
        `SELECT h.debit_owner AS owner,
           SUM(CASE WHEN h.hold_kind = 'eligibility' THEN h.amount ELSE 0 END) AS free,
           SUM(CASE WHEN h.hold_kind = 'ba-bond' THEN h.amount ELSE 0 END) AS seated
         FROM ledger_transfers h
         WHERE h.type = 'pending' AND h.hold_kind IN ('eligibility', 'ba-bond') AND h.asset = 'USDC'
           AND h.debit_owner LIKE 'agent:%'
           AND NOT EXISTS (SELECT 1 FROM ledger_transfers c WHERE c.hold_id = h.op_id AND c.closes_hold = h.op_id)
         GROUP BY h.debit_owner HAVING SUM(h.amount) >= ? ORDER BY h.debit_owner`,
        [minStake],
      ),
    );
    return rows.map((row) => ({
      address: str(row.owner).slice('agent:'.length),
      stake: big(row.free),
      seated: big(row.seated),
    }));
  }

  audit(): Promise<AuditReport> {
    return this.db.read(async (tx) => {
      const problems: string[] = [];
      const accounts = await tx.all(
        'SELECT owner, asset, debits_posted, credits_posted, debits_pending FROM ledger_accounts',
      );
      const recomputed = new Map<string, Row>();
      for (const row of await tx.all(
        `SELECT owner, asset, SUM(dp) AS dp, SUM(cp) AS cp, SUM(dpend) AS dpend FROM (
           SELECT debit_owner AS owner, asset,
             CASE WHEN type IN ('posted', 'post') THEN amount ELSE 0 END AS dp,
             0 AS cp,
             CASE type WHEN 'pending' THEN amount WHEN 'posted' THEN 0 ELSE -amount END AS dpend
           FROM ledger_transfers
           UNION ALL
           SELECT credit_owner, asset, 0, amount, 0 FROM ledger_transfers WHERE credit_owner IS NOT NULL
         ) t GROUP BY owner, asset`,
      )) {
        recomputed.set(`${str(row.owner)}|${str(row.asset)}`, row);
      }

      const assets = Object.fromEntries(
        ASSETS.map((a) => [a, { sum: 0n, mint: 0n }]),
      ) as AuditReport['assets'];
      for (const row of accounts) {
        const owner = str(row.owner);
        const asset = str(row.asset) as Asset;
        const name = `${owner}/${asset}`;
        const [dp, cp, dpend] = [big(row.debits_posted), big(row.credits_posted), big(row.debits_pending)];
        const again = recomputed.get(`${owner}|${asset}`);
        recomputed.delete(`${owner}|${asset}`);
        const [rdp, rcp, rdpend] = again ? [big(again.dp), big(again.cp), big(again.dpend)] : [0n, 0n, 0n];
        if (dp !== rdp || cp !== rcp || dpend !== rdpend) {
          problems.push(`${name}: stored ${dp}/${cp}/${dpend} but transfers give ${rdp}/${rcp}/${rdpend}`);
        }
        const balance = cp - dp;
        assets[asset].sum += balance;
        if (owner === 'mint') assets[asset].mint = balance;
        else if (balance - dpend < 0n) problems.push(`${name}: available ${balance - dpend} is below zero`);
        if (dpend < 0n) problems.push(`${name}: held ${dpend} is below zero`);
      }
      for (const key of recomputed.keys())
        problems.push(`${key}: transfers name an account that does not exist`);
      for (const [asset, { sum }] of Object.entries(assets)) {
        if (sum !== 0n) problems.push(`${asset}: balances sum to ${sum}, not zero`);
      }

      let openHolds = 0;
      for (const row of await tx.all(
        `SELECT h.op_id, h.amount, COALESCE(SUM(r.amount), 0) AS resolved, COUNT(DISTINCT r.op_id) AS ops,
           COUNT(r.closes_hold) AS closers
         FROM ledger_transfers h
         LEFT JOIN ledger_transfers r ON r.hold_id = h.op_id AND r.type IN ('post', 'void')
         WHERE h.type = 'pending' GROUP BY h.op_id, h.amount`,
      )) {
        const [amount, resolved, ops, closers] = [
          big(row.amount),
          big(row.resolved),
          big(row.ops),
          big(row.closers),
        ];
        if (resolved === 0n && ops === 0n) openHolds += 1;
        else if (resolved !== amount || ops !== 1n || closers !== 1n) {
          problems.push(`hold ${str(row.op_id)}: ${amount} resolved as ${resolved} by ${ops} operation(s)`);
        }
      }

      const [counts] = await tx.all(
        `SELECT (SELECT COUNT(*) FROM ledger_transfers) AS transfers,
                (SELECT COUNT(*) FROM ledger_operations
                  WHERE id NOT IN (SELECT op_id FROM ledger_transfers)) AS empty_ops`,
      );
      if (big(counts?.empty_ops) !== 0n)
        problems.push(`${big(counts?.empty_ops)} operation(s) without transfers`);
      if (problems.length > 0) throw new InvariantViolationError(problems);
      return { assets, accounts: accounts.length, transfers: Number(big(counts?.transfers)), openHolds };
    });
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
