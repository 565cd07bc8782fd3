// An independent in-memory model of the ledger's rules, for the property tests: plain maps of
// balances and holds, no SQL. It decides each batch's outcome in the order the ledger checks:
// id conflicts, then unknown holds, then each operation in turn (funds, already resolved, parts).
import { isDeepStrictEqual } from 'node:util';
import type { Asset, HoldKind, LedgerErrorCode, LedgerOp, Owner } from '../../store/ledger';

export interface ModelHold {
  owner: Owner;
  asset: Asset;
  amount: bigint;
  kind: HoldKind;
  resolved: boolean;
}

export type Outcome = { replayed: boolean[] } | { code: LedgerErrorCode };

const key = (owner: Owner, asset: Asset) => `${owner}|${asset}`;

export class LedgerModel {
  posted = new Map<string, bigint>();
  held = new Map<string, bigint>();
  holds = new Map<string, ModelHold>();
  applied = new Map<string, LedgerOp>();

  posting(owner: Owner, asset: Asset): bigint {
    return this.posted.get(key(owner, asset)) ?? 0n;
  }

  heldBy(owner: Owner, asset: Asset): bigint {
    return this.held.get(key(owner, asset)) ?? 0n;
  }

  available(owner: Owner, asset: Asset): bigint {
    return this.posting(owner, asset) - this.heldBy(owner, asset);
  }

  private move(from: Owner, to: Owner, asset: Asset, amount: bigint): void {
    this.posted.set(key(from, asset), this.posting(from, asset) - amount);
    this.posted.set(key(to, asset), this.posting(to, asset) + amount);
  }

  private addHeld(owner: Owner, asset: Asset, amount: bigint): void {
    this.held.set(key(owner, asset), this.heldBy(owner, asset) + amount);
  }

  private clone(): LedgerModel {
    const copy = new LedgerModel();
    copy.posted = new Map(this.posted);
    copy.held = new Map(this.held);
    copy.holds = new Map([...this.holds].map(([id, h]) => [id, { ...h }]));
    copy.applied = new Map(this.applied);
    return copy;
  }

  /** Applies a batch all-or-nothing and says what the ledger must answer. */
  apply(ops: LedgerOp[]): Outcome {
    const toApply: LedgerOp[] = [];
    const replayed: boolean[] = [];
    for (const op of ops) {
      const prior = this.applied.get(op.id);
      if (prior === undefined) {
        toApply.push(op);
        replayed.push(false);
      } else if (isDeepStrictEqual(prior, op)) {
        replayed.push(true);
      } else {
        return { code: 'IdempotencyConflict' };
      }
    }
    const known = new Set(this.holds.keys());
    for (const op of toApply) {
      if ((op.kind === 'resolve' || op.kind === 'void') && !known.has(op.holdId))
        return { code: 'HoldNotFound' };
      if (op.kind === 'hold') known.add(op.id);
    }
    const next = this.clone();
    for (const op of toApply) {
      const code = next.applyOne(op);
      if (code) return { code };
      next.applied.set(op.id, op);
    }
    Object.assign(this, next);
    return { replayed };
  }

  private applyOne(op: LedgerOp): LedgerErrorCode | undefined {
    switch (op.kind) {
      case 'deposit':
      case 'mint':
        this.move('mint', op.to, op.asset, op.amount);
        return;
      case 'withdraw':
        if (this.available(op.from, op.asset) < op.amount) return 'InsufficientFunds';
        this.move(op.from, 'mint', op.asset, op.amount);
        return;
      case 'transfer':
        if (this.available(op.from, op.asset) < op.amount) return 'InsufficientFunds';
        this.move(op.from, op.to, op.asset, op.amount);
        return;
      case 'hold':
        if (this.available(op.owner, op.asset) < op.amount) return 'InsufficientFunds';
        this.addHeld(op.owner, op.asset, op.amount);
        this.holds.set(op.id, {
          owner: op.owner,
          asset: op.asset,
          amount: op.amount,
          kind: op.holdKind,
          resolved: false,
        });
        return;
      case 'void':
      case 'resolve': {
        const hold = this.holds.get(op.holdId)!;
        if (hold.resolved) return 'HoldAlreadyResolved';
        const parts = op.kind === 'void' ? [{ to: hold.owner, amount: hold.amount }] : op.parts;
        if (parts.reduce((sum, p) => sum + p.amount, 0n) !== hold.amount) return 'PartsMismatch';
        this.addHeld(hold.owner, hold.asset, -hold.amount);
        for (const part of parts) this.move(hold.owner, part.to, hold.asset, part.amount);
        hold.resolved = true;
        return;
      }
    }
  }
}
