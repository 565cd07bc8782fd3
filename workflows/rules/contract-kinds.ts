// The kinds of contract (docs/protocol.md §3): type, award method, verification mode and their combination code.
// A leaf module, so deadline and event rules can name a kind without importing the creation rules.
export const CONTRACT_TYPES = ['fixed', 'auction'] as const;
export const AWARD_METHODS = ['direct', 'open'] as const;
export const VERIFICATION_MODES = ['standard', 'privacy-preserving'] as const;
export type ContractType = (typeof CONTRACT_TYPES)[number];
export type AwardMethod = (typeof AWARD_METHODS)[number];
export type VerificationMode = (typeof VERIFICATION_MODES)[number];
export const CONTRACT_CODES = ['FDP', 'FDS', 'FOP', 'FOS', 'AOP', 'AOS'] as const;
export type ContractCode = (typeof CONTRACT_CODES)[number];

/** An auction takes quotes and is awarded; a fixed-price contract is accepted. */
export function isAuction(terms: { contractType: ContractType }): boolean {
  return terms.contractType === 'auction';
}
