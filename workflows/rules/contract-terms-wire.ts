// The wire form of the validated terms (amount as a decimal string) and of their deadlines (ISO-8601).
import type { ContractTerms } from './contract-terms';
import type { Deadlines } from './deadlines';
import { toWire } from './money';

export type ContractTermsWire = Omit<ContractTerms, 'amount'> & { amount: string };

export function termsToWire(terms: ContractTerms): ContractTermsWire {
  return { ...terms, amount: toWire(terms.amount) };
}

/** The deadlines as ISO-8601 UTC strings, for views and responses. */
export function deadlinesToIso(deadlines: Deadlines): Record<keyof Deadlines, string | null> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    match: iso(deadlines.match),
    withdrawal: iso(deadlines.withdrawal),
    delivery: iso(deadlines.delivery),
    review: iso(deadlines.review),
  };
}
