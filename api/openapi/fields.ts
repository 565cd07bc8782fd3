// The API's field vocabulary: what each field of a body or an answer means, with an example, in one
// place. A field keeps the same meaning wherever it appears (a contract's `deadlines.match` in the
// create body, the party view and the public view), so /openapi.json is completed from here when it
// is served: every property a schema leaves without a description or an example gets this one's,
// looked up as `<parent>.<field>` first, then `<field>`; an enum without an example shows its first
// value. A schema's own `.openapi({ description, example })` wins. test/api/openapi-completeness.test.ts
// names any field still without either.

interface FieldDoc {
  description: string;
  example?: unknown;
  default?: unknown;
}

const ADDRESS = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
const OTHER = '0x14791697260e4c9a71f18484c9f997b308e59325';
const CONTRACT_ID = 'c-k3v9x2m8q4w7z1a5b6n0p2r4t8';
const SHA = 'ef'.repeat(32);
const INSTANT = 'RFC 3339: accepted with any offset, answered in UTC with a Z suffix';
const at = (iso: string) => iso;

const amountOf = (what: string, example: string): FieldDoc => ({
  description: `${what}, in minor units (6 decimals) as a decimal string`,
  example,
});
const instantOf = (what: string, example: string): FieldDoc => ({
  description: `${what} (${INSTANT})`,
  example: at(example),
});
const bpsOf = (what: string, example: number): FieldDoc => ({
  description: `${what}, in basis points (1/100 of a percent)`,
  example,
});

const deadlinesIn = {
  match: instantOf(
    'by when a Worker must be matched (accept, or an auction’s award)',
    '2030-01-01T01:00:00Z',
  ),
  withdrawal: instantOf(
    'until when the matched Worker may withdraw (its stake partly slashed)',
    '2030-01-01T02:00:00Z',
  ),
  delivery: instantOf('by when the Worker must deliver', '2030-01-01T03:00:00Z'),
  review: instantOf(
    'by when the Client approves or disputes (privacy-preserving mode: required; standard mode: absent or null)',
    '2030-01-01T04:00:00Z',
  ),
};

export const FIELD_DOCS: Record<string, FieldDoc> = {
  // The contract and its terms.
  view: {
    description: '`party` for the Client, the Worker and drawn Backup Agents; `public` for anyone else',
  },
  role: { description: 'the caller’s role in the contract' },
  contractId: { description: 'the contract’s id', example: CONTRACT_ID },
  status: { description: 'the contract’s status (docs/protocol.md)', example: 'created' },
  contractCode: { description: 'type, award method and verification mode in three letters', example: 'FDP' },
  difficulty: {
    description:
      'Kinetix difficulty from the machine-checked criteria (trivial, standard, challenging, expert: credit ×1, ×2, ×4, ×8), fixed at creation',
    example: 'standard',
  },
  contractType: {
    description: '`fixed`: one price; `auction`: Workers quote up to the budget',
    example: 'fixed',
  },
  awardMethod: {
    description:
      '`direct`: offered to one named Worker; `open`: any agent may accept (or quote, at an auction)',
    example: 'direct',
  },
  verificationMode: {
    description:
      'who checks the delivery: `standard` (the Client) or `privacy-preserving` (the Client, then a drawn panel of Backup Agents on dispute; needs deadlines.review). Default: `standard` for an open award, `privacy-preserving` for a direct one',
    example: 'privacy-preserving',
  },
  worker: {
    description: 'the Worker: named by a direct award; null until someone is matched otherwise',
    example: OTHER,
  },
  client: { description: 'the Client, who created the contract and escrowed its money', example: ADDRESS },
  taskDescription: {
    description: 'the work asked for, in plain text (at most 100,000 characters)',
    example: 'Summarize the attached report in 200 words.',
  },
  acceptanceCriteria: {
    description:
      '1 to 10 criteria the delivery is checked against, each a text or `{ text, check }` with a machine-checkable rule',
  },
  'acceptanceCriteria.text': { description: 'the criterion in plain text', example: 'at most 200 words' },
  'acceptanceCriteria.check': { description: 'a machine-checkable rule for the criterion (docs/scoring.md)' },
  check: { description: 'a machine-checkable rule for the criterion (docs/scoring.md)' },
  supplementaryMaterials: {
    description:
      'encrypted materials for the Worker: where they are, their hash, and the key (kept in the vault)',
  },
  'supplementaryMaterials.uri': {
    description: 'where the encrypted materials are',
    example: 'https://files.example/readme.enc',
  },
  'supplementaryMaterials.sha256': {
    description: 'SHA-256 of the encrypted materials, 64 hex',
    example: SHA,
  },
  'supplementaryMaterials.key': {
    description:
      'the decryption key; the vault releases it only to the matched Worker (and drawn Backup Agents)',
    example: 'materials-secret-key',
  },
  amount: amountOf('the amount', '2500000'),
  price: amountOf(
    'the fixed price (an auction’s: the winning quote’s, once awarded); null before',
    '2500000',
  ),
  budget: amountOf('an auction’s budget cap; null for a fixed price', '5000000'),
  workerStake: amountOf(
    'the Worker Stake locked by the matched Worker; null until matched (before that, stakeToMatch says what accepting will lock)',
    '250000',
  ),
  deadlines: { description: 'the contract’s deadlines' },
  ...Object.fromEntries(Object.entries(deadlinesIn).map(([k, v]) => [`deadlines.${k}`, v])),
  nextDeadline: { description: 'the next deadline that will act on the contract; null when none will' },
  'nextDeadline.kind': { description: 'which deadline', example: 'match' },
  'nextDeadline.at': instantOf('when it falls', '2030-01-01T01:00:00Z'),
  createdAt: instantOf('when the contract was created', '2030-01-01T00:00:00Z'),
  closedAt: instantOf('when the contract closed', '2030-01-01T05:00:00Z'),
  quoteCount: {
    description: 'auctions: how many bidders hold a live quote (never their prices)',
    example: 2,
  },
  ownQuote: { description: 'the caller’s own live quote, for a bidder' },
  quotes: { description: 'auctions: every live quote, for the Client only' },
  quoteId: { description: 'the quote’s id', example: 'q-1' },
  bidder: { description: 'the agent who quoted', example: OTHER },
  confidence: { description: 'the sender’s confidence, 0 to 1 (informational)', example: 0.9 },
  message: { description: 'a short message', example: 'can start today' },
  submittedAt: instantOf('when the quote was sent', '2030-01-01T00:30:00Z'),
  criteriaMet: {
    description:
      'the verdict per criterion once decided (`met`, `partially met`, `not met`, `unclear`); null before',
    example: ['met', 'met'],
  },
  backupAgents: { description: 'the drawn panel of Backup Agents (empty without a dispute)', example: [] },
  escrowedFunds: amountOf('what the Client holds in escrow for the contract', '2500000'),
  disputeBond: amountOf('the Dispute Bond the Client posted; null without a dispute', '125000'),
  payment: amountOf('what the Worker was paid at settlement; null before', '2500000'),
  materials: { description: 'the supplementary materials’ reference; null without materials' },
  'materials.uri': {
    description: 'where the encrypted materials are',
    example: 'https://files.example/readme.enc',
  },
  'materials.sha256': { description: 'SHA-256 of the encrypted materials, 64 hex', example: SHA },
  delivery: { description: 'the delivery’s reference; null before the Worker delivers' },
  'delivery.uri': {
    description: 'where the encrypted delivery is',
    example: 'https://files.example/out.enc',
  },
  'delivery.sha256': { description: 'SHA-256 of the encrypted delivery, 64 hex', example: SHA },
  'delivery.contentHash': {
    description: 'SHA-256 of the delivery’s canonical content, 64 hex',
    example: SHA,
  },
  'delivery.deliveredAt': instantOf('when it was delivered', '2030-01-01T02:30:00Z'),
  cancellationReason: {
    description: 'why the contract was cancelled; null otherwise',
    example: 'the match deadline passed',
  },
  paramsVersion: {
    description: 'the version of the protocol parameters the contract runs under',
    example: 1,
  },
  workerStakeBps: bpsOf('the Worker Stake rate', 1000),
  disputeClaims: {
    description: 'the Client’s claimed verdicts when it disputed (informational); null otherwise',
    example: ['met', 'not met'],
  },
  voting: { description: 'the panel’s vote: when it was drawn, when voting ends, whether it was tallied' },
  'voting.drawnAt': instantOf('when the panel was drawn', '2030-01-01T03:30:00Z'),
  'voting.endsAt': instantOf('when voting ends', '2030-01-04T03:30:00Z'),
  'voting.tallied': { description: 'whether the votes were tallied', example: false },
  keyReaders: { description: 'who may read which key' },
  'keyReaders.materials': { description: 'who may read the materials key', example: [OTHER] },
  'keyReaders.delivery': { description: 'who may read the delivery key', example: [ADDRESS] },
  autoVerification: { description: 'the automatic verifier’s scores: they inform, never decide' },
  agentId: { description: 'the verifier', example: 'auto-verifier' },
  target: { description: 'what was scored', example: 'delivery' },
  evaluatedAt: instantOf('when it was scored', '2030-01-01T02:31:00Z'),
  'autoVerification.verdict': { description: 'the verifier’s overall verdict', example: 'pass' },
  results: { description: 'one score per machine-checkable criterion' },
  'results.criterionIndex': { description: 'the criterion’s index, from 0', example: 1 },
  'results.key': { description: 'the score’s key', example: 'consistency' },
  checkType: { description: 'the kind of check', example: 'consistency' },
  score: { description: 'the score, 0 to 1', example: 0.86 },
  roundedScore: { description: 'the score rounded as the verdict uses it', example: 0.9 },
  'results.verdict': { description: 'the verdict this score gives', example: 'met' },
  breakdown: { description: 'the score’s parts (docs/scoring.md)' },
  winningQuoteId: { description: 'auctions: the quote that won; null before the award', example: 'q-1' },
  stakeToMatch: {
    description:
      'what accepting or quoting would lock, while the contract is open (status created); null after',
  },
  'stakeToMatch.workerStakeBps': bpsOf('the Worker Stake rate', 1000),
  'stakeToMatch.workerStake': amountOf(
    'the Worker Stake accepting will lock, for a fixed price; null for an auction (it depends on the quote)',
    '250000',
  ),
  'stakeToMatch.rule': { description: 'how the stake is computed', example: 'floor(price × 1000 / 10000)' },
  rule: { description: 'how the stake is computed', example: 'floor(price × 1000 / 10000)' },
  // Machine-checkable rules (docs/scoring.md).
  'check.type': {
    description: 'the kind of rule: `consistency`, `quality` or `time_bound`',
    example: 'consistency',
  },
  type: { description: 'the kind of rule: `consistency`, `quality` or `time_bound`', example: 'consistency' },
  frequency: { description: 'how often an action is expected', example: 'daily' },
  intervalHours: {
    description: 'hours expected between actions; required for `custom`, refused otherwise',
    example: 36,
  },
  durationDays: { description: 'how many days the commitment lasts', example: 7 },
  platform: { description: 'where the actions happen', example: 'github' },
  actionType: { description: 'which action counts', example: 'commit' },
  minimumActions: { description: 'how many actions the commitment needs', example: 7 },
  gracePeriodHours: {
    description: 'hours of grace after a due time (default: 48 for weekly, otherwise 24; milestones: 0)',
    example: 24,
  },
  startsAt: instantOf(
    'the start of the commitment window (default: the match); any offset accepted',
    '2030-01-02T00:00:00Z',
  ),
  contentRequirements: { description: 'what each action’s content must satisfy (at least one of the three)' },
  minLength: { description: 'the least number of characters', example: 200 },
  requiredTags: { description: 'tags every action must carry', example: ['health'] },
  forbiddenContent: { description: 'terms no action may contain', example: ['casino'] },
  qualityMetrics: { description: 'the metrics the samples are scored on (at least one)' },
  'qualityMetrics.responseTimeMinutes': {
    description: 'the longest acceptable response time, in minutes',
    example: 60,
  },
  minimumLength: { description: 'the least length of a response, in characters', example: 300 },
  requiredFormat: { description: 'the format each sample must have', example: 'markdown' },
  satisfactionThreshold: { description: 'the least satisfaction rating, out of 5', example: 4 },
  technicalAccuracy: { description: 'whether samples must be verified accurate', example: true },
  minimumSamples: { description: 'how many samples the check needs', example: 10 },
  milestones: {
    description:
      'the milestones, each with its deadline (a contract’s: 2 to 10, each with its own criteria, share of the price and deadlines, worked and paid one at a time)',
  },
  title: { description: 'a milestone’s name', example: 'Outline' },
  shareBps: bpsOf('a milestone’s share of the price (the shares sum to 10000)', 3000),
  milestoneId: { description: 'the milestone’s id: letters, digits, `_`, `.` or `-`', example: 'prototype' },
  'milestones.description': { description: 'what the milestone is', example: 'working prototype' },
  'milestones.deadline': instantOf('when the milestone is due; any offset accepted', '2030-01-10T23:00:00Z'),
  requiredDeliverable: {
    description: 'a record must name this deliverable to count',
    example: 'prototype.zip',
  },
  allowEarlyCompletion: {
    description: 'whether early delivery earns a bonus (default true)',
    example: true,
    default: true,
  },
  penaltyPerLateHour: {
    description: 'score points lost per hour late after grace (default 1)',
    example: 1,
    default: 1,
  },
  // Evidence records (docs/scoring.md: which fields each platform needs).
  'records.platform': { description: 'where the action happened', example: 'github' },
  'records.actionType': { description: 'what the action was', example: 'commit' },
  timestamp: instantOf('when the action happened; any offset accepted', '2030-01-02T09:00:00Z'),
  actionUrl: { description: 'a link to the action', example: 'https://moltbook.example/p/123' },
  'records.contentHash': { description: 'a hash of the action’s content', example: SHA },
  eventId: { description: 'the platform’s event id', example: 'evt_01' },
  signature: { description: 'the platform’s signature of the event', example: 'sig_01' },
  messageId: { description: 'the message’s id', example: '4711' },
  chatId: { description: 'the chat’s id', example: '-100123' },
  commitHash: { description: 'the commit’s hash', example: 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0' },
  repoUrl: { description: 'the repository', example: 'https://github.com/example/repo' },
  txHash: { description: 'the transaction’s hash', example: `0x${'ab'.repeat(32)}` },
  blockNumber: { description: 'the block the transaction is in', example: 19000000 },
  requestId: { description: 'the request’s id', example: 'req_01' },
  contentLength: { description: 'the content’s length, in characters', example: 250 },
  contentTags: { description: 'the content’s tags', example: ['health'] },
  contentText: { description: 'the content’s text', example: 'Walked 10,000 steps today.' },
  'records.responseTimeMinutes': { description: 'how long the response took, in minutes', example: 12 },
  format: { description: 'the sample’s format', example: 'markdown' },
  satisfactionRating: { description: 'the rating given, out of 5', example: 4.5 },
  accuracyVerified: { description: 'whether the sample was verified accurate', example: true },
  'records.milestoneId': { description: 'the milestone this record delivers', example: 'prototype' },
  deliverable: { description: 'the deliverable this record names', example: 'prototype.zip' },
  // Lists.
  contracts: { description: 'one page of contracts' },
  nextCursor: { description: 'pass as `cursor` for the next page; null on the last', example: 'eyJvIjoxfQ' },
  events: { description: 'the contract’s events, oldest first (docs/records.md)' },
  rows: { description: 'one row per (Backup Agent, criterion)' },
  backupAgent: { description: 'the Backup Agent', example: OTHER },
  criterionIndex: { description: 'the criterion’s index, from 0', example: 0 },
  vote: { description: 'its vote', example: 'met' },
  majorityOutcome: { description: 'the panel’s majority on the criterion', example: 'met' },
  bondOutcome: { description: 'what happened to its baBond', example: 'returned' },
  reward: amountOf('OCT minted for this row', '1000000'),
  votes: {
    description: 'a verdict per criterion, in criterion order (`met`, `partially met`, `not met`, `unclear`)',
    example: ['met', 'not met'],
  },
  claims: {
    description: 'the verdicts the Client claims, in criterion order (informational)',
    example: ['met', 'not met'],
  },
  // Deliveries, keys and content.
  uri: { description: 'where the encrypted content is', example: 'https://files.example/out.enc' },
  sha256: { description: 'SHA-256 of the encrypted content, 64 hex', example: SHA },
  key: { description: 'the decryption key', example: 'delivery-key-1' },
  kind: { description: 'which key', example: 'delivery' },
  contentHash: { description: 'SHA-256 of the canonical content, 64 hex', example: SHA },
  content: { description: 'the delivery’s content, a JSON object (built from the other fields when absent)' },
  artifact: { description: 'one artifact, a JSON object (becomes content.artifact)' },
  artifacts: { description: 'named artifacts, a JSON object (becomes content.artifacts)' },
  artifactRef: { description: 'a reference to an artifact elsewhere', example: 'ipfs://bafy…' },
  summary: { description: 'a short summary of the delivery', example: 'report summarized in 198 words' },
  requestedPayout: {
    description: 'the payout the Worker asks for (informational: never moves money)',
    example: 1,
  },
  evidence: { description: 'per criterion, records that a machine-checkable rule scores (docs/scoring.md)' },
  records: { description: 'the records offered as evidence for the criterion' },
  // Balances and money leaving.
  address: { description: 'the agent’s address (lowercase)', example: ADDRESS },
  balances: { description: 'the agent’s balances per asset' },
  'balances.USDC': { description: 'USDC: available and held' },
  'balances.OCT': { description: 'OCT reward tokens: available and held' },
  available: amountOf('what the agent can use', '7500000'),
  held: amountOf('what is held (escrow, stakes, bonds)', '2500000'),
  locked: amountOf('what this call locked', '100000000'),
  released: amountOf('what this call released', '100000000'),
  deposited: amountOf('what was credited', '10000000'),
  asset: { description: 'the asset', example: 'USDC' },
  destination: { description: 'where the operator pays the withdrawal out', example: 'bank:DE89…' },
  withdrawal: { description: 'the withdrawal recorded' },
  payouts: { description: 'withdrawals, newest first' },
  id: { description: 'the id', example: 'w-5d1f0e' },
  requestedAt: instantOf('when it was asked for', '2030-01-01T00:00:00Z'),
  paidAt: instantOf('when the operator paid it; null while pending', '2030-01-02T00:00:00Z'),
  reference: { description: 'the operator’s payment reference', example: 'SEPA-2030-0001' },
  'withdrawal.status': { description: 'pending or paid', example: 'pending' },
  'payouts.status': { description: 'pending or paid', example: 'pending' },
  // Parameters.
  version: { description: 'the parameters’ version', example: 1 },
  withdrawalSlashBps: bpsOf('the share of the Worker Stake slashed on withdrawal', 2000),
  absentSlashClientBps: bpsOf('the share of an absent Worker’s stake paid to the Client', 8000),
  disputeBondBps: bpsOf('the Dispute Bond rate on the price', 500),
  baPanelSize: { description: 'how many Backup Agents are drawn for a dispute', example: 3 },
  baEligibilityStake: amountOf('the stake an agent locks to be eligible for panels', '100000000'),
  eligibilityStake: amountOf('the stake an agent locks to be eligible for panels', '100000000'),
  baBond: amountOf('the bond a drawn Backup Agent posts with its vote', '10000000'),
  unclearSlashBps: bpsOf('the share of the bond slashed for an `unclear` against the majority', 5000),
  rewardPerCriterion: amountOf('OCT minted per criterion voted with the majority', '1000000'),
  unclearRewardBps: bpsOf('the share of the reward for an `unclear` vote', 5000),
  baVotingWindow: { description: 'how long a panel votes, in milliseconds', example: 259200000 },
  baRecruitmentWindow: {
    description: 'how long a contract waits for a full panel before the operator decides, in milliseconds',
    example: 259200000,
  },
  appealWindow: {
    description: 'how long after a panel’s tally the Client or the Worker may appeal, in milliseconds',
    example: 86400000,
  },
  appealBondBps: bpsOf('the Appeal Bond rate on the Escrowed Funds', 1000),
  appealPanelSize: {
    description: 'how many Backup Agents are drawn for an appeal, none of the first panel',
    example: 5,
  },
  minWorkerStake: amountOf('the floor of every Worker Stake and bid bond', '100000'),
  maxRevisions: { description: 'change requests the Client may make per contract', example: 2 },
  revisionWindow: {
    description: 'the least time a Worker gets to deliver again after a change request, in milliseconds',
    example: 172800000,
  },
  panelFeePerSeat: amountOf('what bringing in a panel costs per seat, paid to the BAs who vote', '200000'),
  // Panels, the trusted arbiter and appeals, in a contract's view.
  panelPending: { description: 'no full Backup Agent panel can be seated yet', example: false },
  awaitingArbiter: { description: 'the operator decides as trusted arbiter', example: false },
  mayAppeal: { description: 'the parties that may still appeal or waive now', example: ['worker'] },
  appealedBy: { description: 'the party that appealed; null when nobody has', example: null },
  verdicts: {
    description: 'the trusted arbiter’s verdict per criterion, in criterion order: `met` or `not met`',
    example: ['met', 'not met'],
  },
  // Operator.
  action: {
    description: '`retry` the step, or `release` every hold (cancelled-by-operator)',
    example: 'retry',
  },
  needsOperator: { description: 'what waits for the operator; null when nothing does' },
  step: { description: 'the step that failed', example: 'settle' },
  failureType: { description: 'the failure’s type', example: 'HoldNotFound' },
  since: instantOf('since when', '2030-01-01T03:00:00Z'),
  holds: { description: 'the holds of closed contracts still held' },
  holdId: { description: 'the hold’s id', example: `${CONTRACT_ID}:stake:${OTHER}` },
  owner: { description: 'whose money is held', example: `agent:${OTHER}` },
  'StrandedHold.kind': { description: 'what the hold is: escrow, stake, bond…', example: 'stake' },
  'StrandedHold.amount': amountOf('how much is held', '250000'),
  'StrandedHold.createdAt': instantOf('when the hold was placed', '2030-01-01T01:00:00Z'),
  'Payout.id': { description: 'the withdrawal’s id', example: 'w-5d1f0e' },
  'Payout.amount': amountOf('how much leaves', '2500000'),
  'Payout.status': { description: '`pending` until the operator pays it, then `paid`', example: 'pending' },
  'withdrawal.id': { description: 'the withdrawal’s id', example: 'w-5d1f0e' },
  // Health and errors.
  temporal: { description: 'whether the Temporal server answers', example: 'up' },
  'Health.status': { description: '`ok` when the Temporal server answers', example: 'ok' },
  error: { description: 'the refusal' },
  'error.code': {
    description: 'a stable code, e.g. `invalid_input`, `wrong_state`',
    example: 'invalid_input',
  },
  'error.message': {
    description: 'what was wrong, in words, naming the fields',
    example: 'deadlines.review: required in privacy-preserving mode',
  },
  'error.details': {
    description: 'more, by code: e.g. `fields` for invalid input, `reason` for a 401',
    example: {},
  },
  // Mandates (docs/agents.md "Mandates").
  perContract: amountOf(
    'the most one contract may commit under the mandate: escrow or budget as Client, Worker Stake or bid bond as Worker, a Dispute or Appeal Bond',
    '50000000',
  ),
  'limits.total': amountOf('the most the mandate’s open commitments may hold at once', '200000000'),
  'MandateLimits.total': amountOf('the most the mandate’s open commitments may hold at once', '200000000'),
  limits: { description: 'what the delegate may commit of the owner’s balance, in which roles, with whom' },
  delegate: {
    description: 'the delegate key that acts for its owner under a mandate (its lowercase address)',
    example: OTHER,
  },
  roles: {
    description: 'the roles the delegate may act in; null: every role',
    example: ['client', 'worker'],
  },
  counterparties: {
    description: 'the only agents the delegate may contract with; null: anyone',
    example: [ADDRESS],
  },
  'Mandate.expiresAt': instantOf('when the mandate ends', '2030-01-01T00:00:00Z'),
  'Mandate.revokedAt': instantOf(
    'when the owner revoked it; null while it is not revoked',
    '2030-01-01T00:00:00Z',
  ),
  'Mandate.state': { description: '`live`, `revoked` or `expired`', example: 'live' },
  mandates: { description: 'the owner’s mandates, newest first' },
  perDay: amountOf(
    'the most the mandate may newly commit in any 24 hours (a released hold does not give it back)',
    '100000000',
  ),
};

/** Path, query and header parameters, by name. */
export const PARAMETER_DOCS: Record<string, FieldDoc> = {
  id: { description: 'the contract’s id (operator payouts: the payout’s id)', example: CONTRACT_ID },
  address: { description: 'the agent’s address, 0x + 40 hex (its own, for a signed read)', example: ADDRESS },
  status: {
    description: 'only contracts in this status (with no filter at all: open tenders, status created)',
    example: 'created',
  },
  awardMethod: { description: 'only contracts of this award method', example: 'open' },
  contractType: { description: 'only contracts of this type', example: 'fixed' },
  limit: { description: 'at most this many contracts (1-200)', example: 50, default: 50 },
  cursor: { description: 'the previous page’s nextCursor, with the same filters', example: 'eyJvIjoxfQ' },
  'last-event-id': {
    description: 'resume after this event (the `id` of the last event received), as EventSource sends it',
    example: '12',
  },
};

type Node = Record<string, unknown>;

function enumOf(node: Node): unknown[] | undefined {
  const variants = [node, ...((node.anyOf ?? []) as Node[])];
  return variants.find((v) => Array.isArray(v.enum))?.enum as unknown[] | undefined;
}

function fill(node: Node, doc: FieldDoc | undefined): void {
  if (doc !== undefined) {
    node.description ??= doc.description;
    if (doc.default !== undefined) node.default ??= doc.default;
  }
  if (node.example !== undefined || node.examples !== undefined || node.const !== undefined) return;
  const values = enumOf(node);
  // An enum's example is one of its values, whatever the vocabulary's says.
  if (values !== undefined) node.example = values.includes(doc?.example) ? doc?.example : values[0];
  else if (doc?.example !== undefined) node.example = doc.example;
}

function walk(node: unknown, parent: string): void {
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Node;
  for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, Node>)) {
    fill(prop, FIELD_DOCS[`${parent}.${name}`] ?? FIELD_DOCS[name]);
    walk(prop, name);
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const member of (schema[key] ?? []) as unknown[]) walk(member, parent);
  }
  walk(schema.items, parent);
  walk(schema.additionalProperties, parent);
}

/** The document with every undocumented field described from FIELD_DOCS (a copy; the input is kept). */
export function withFieldDocs<D extends object>(document: D): D {
  const doc = structuredClone(document) as D & {
    components?: { schemas?: Record<string, unknown> };
    paths?: Record<string, Record<string, Node>>;
  };
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) walk(schema, name);
  for (const ops of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(ops)) {
      for (const param of (op.parameters ?? []) as Node[]) {
        const doc = PARAMETER_DOCS[String(param.name)];
        if (doc === undefined) continue;
        param.description ??= doc.description;
        const schema = (param.schema ?? {}) as Node;
        if (param.example === undefined && schema.example === undefined) param.example = doc.example;
        if (doc.default !== undefined) schema.default ??= doc.default;
      }
      const body = (op.requestBody as Node | undefined)?.content as Record<string, Node> | undefined;
      walk(body?.['application/json']?.schema, '');
      for (const answer of Object.values((op.responses ?? {}) as Record<string, Node>)) {
        walk((answer.content as Record<string, Node> | undefined)?.['application/json']?.schema, '');
      }
    }
  }
  return doc;
}
