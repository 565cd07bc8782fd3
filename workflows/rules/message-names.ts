// The contract's message names (docs/api.md), as message-rejected events and receipts name them.
export const CONTRACT_MESSAGES = [
  'accept',
  'decline',
  'quote',
  'award',
  'cancel',
  'withdraw',
  'deliver',
  'approve',
  'dispute',
  'vote',
  'appeal',
  'requestChanges',
] as const;
export type ContractMessage = (typeof CONTRACT_MESSAGES)[number];
