// The typed agent SDK: one method per route, every call signed (sdk/typescript/signer.ts), every refusal
// thrown as an AgentApiError carrying the §12 error. Depends on no server code at run time.
import {
  contractEventStream,
  feedStream,
  type StreamEventsOptions,
  type StreamFeedOptions,
} from './event-stream';
import { addressFromPrivateKey, signRequest, type Address } from './signer';
import { carryingTicket } from './ticket';
import type {
  AgentContracts,
  FeedPage,
  MyContractsFilter,
  Mandate,
  MandateRequest,
  Webhook,
  WebhookCreated,
  AgentVoteRows,
  ArbiterVerdictsResult,
  Balances,
  ContentKey,
  ContractEvents,
  ContractVoteRows,
  ContractViewFor,
  CreateContractRequest,
  DeliveryContent,
  DeliveryRequest,
  DepositResult,
  EligibilityRequirements,
  EligibilityResult,
  ListContractsFilter,
  OutcomeHead,
  OutcomePage,
  Reputation,
  ContractPage,
  PartyContractView,
  Payout,
  ProtocolParams,
  QuoteRequest,
  Verdict,
  WithdrawalResult,
} from './types';

export class AgentApiError extends Error {
  override readonly name = 'AgentApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export interface CallOptions {
  /** Sent as `Idempotency-Key`: a repeat returns the first answer instead of acting twice. */
  idempotencyKey?: string;
}

type Fetch = (input: string, init: RequestInit) => Promise<Response>;

interface HttpOptions {
  baseUrl: string;
  fetch?: Fetch;
}

interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  idempotencyKey?: string | undefined;
  /** Extra headers (the operator's token) or signature headers computed from the final URL and body. */
  authorize?: (url: URL, body: string | undefined) => Record<string, string>;
}

/** `path` under the base URL, which may itself carry a path prefix. */
function resolveUrl(baseUrl: string, path: string): URL {
  return new URL(path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
}

async function call<T>({ baseUrl, fetch = globalThis.fetch }: HttpOptions, spec: RequestSpec): Promise<T> {
  const url = resolveUrl(baseUrl, spec.path);
  for (const [name, value] of Object.entries(spec.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    ...(spec.idempotencyKey === undefined ? {} : { 'Idempotency-Key': spec.idempotencyKey }),
    ...spec.authorize?.(url, body),
  };
  const response = await fetch(url.toString(), {
    method: spec.method,
    headers,
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string; details?: unknown } } | undefined)
      ?.error;
    throw new AgentApiError(
      response.status,
      error?.code ?? 'http_error',
      error?.message ?? `HTTP ${response.status}`,
      error?.details,
    );
  }
  return parsed as T;
}

export interface AgentClientOptions extends HttpOptions {
  privateKey: string | Uint8Array;
  /** Signature lifetime in seconds (default 60). */
  expiresIn?: number;
  /**
   * Act as a delegate for this owner (docs/agents.md "Mandates"): every request names the owner in
   * On-Behalf-Of, the owner is the party of record and its balance pays, within the owner's mandate to
   * this key. `address` is then the owner's; `signer` stays the key's own.
   */
  onBehalfOf?: string;
}

export function createAgentClient(agentOptions: AgentClientOptions) {
  const options = { ...agentOptions, fetch: carryingTicket(agentOptions.fetch ?? globalThis.fetch) };
  const signer: Address = addressFromPrivateKey(options.privateKey);
  const address = (options.onBehalfOf?.toLowerCase() as Address | undefined) ?? signer;
  const sign = (method: string) => (url: URL, body: string | undefined) =>
    ({
      ...signRequest({
        method,
        url,
        ...(body === undefined ? {} : { body }),
        privateKey: options.privateKey,
        ...(options.expiresIn === undefined ? {} : { expiresIn: options.expiresIn }),
        ...(options.onBehalfOf === undefined ? {} : { onBehalfOf: options.onBehalfOf }),
      }),
    }) as Record<string, string>;
  const get = <T>(path: string, query?: RequestSpec['query'], signed = true) =>
    call<T>(options, {
      method: 'GET',
      path,
      ...(query ? { query } : {}),
      ...(signed ? { authorize: sign('GET') } : {}),
    });
  const post = <T>(path: string, body: unknown, opts: CallOptions = {}) =>
    call<T>(options, {
      method: 'POST',
      path,
      body,
      idempotencyKey: opts.idempotencyKey,
      authorize: sign('POST'),
    });
  /** Opens a signed GET of an SSE route (the stream readers add Accept and Last-Event-ID). */
  const openSigned = (path: string) => (headers: Record<string, string>, signal?: AbortSignal) => {
    const url = resolveUrl(options.baseUrl, path);
    return options.fetch(url.toString(), {
      method: 'GET',
      headers: { ...headers, ...sign('GET')(url, undefined) },
      ...(signal ? { signal } : {}),
    });
  };
  const streamFailure = (status: number, code: string, message: string) =>
    new AgentApiError(status, code, message);
  const contract = (id: string, rest = '') => `/contracts/${encodeURIComponent(id)}${rest}`;
  const message = (name: string) => (id: string, opts?: CallOptions) =>
    post<ContractViewFor>(contract(id, `/${name}`), undefined, opts);

  return {
    /** The party of record: the key's own address, or the owner's when acting on its behalf. */
    address,
    /** The key that signs. */
    signer,
    createContract: (body: CreateContractRequest, opts?: CallOptions) =>
      post<PartyContractView>('/contracts', body, opts),
    /** Signed by default, so a party gets the party view; `{ signed: false }` reads the public view. */
    getContract: (id: string, opts: { signed?: boolean } = {}) =>
      get<ContractViewFor>(contract(id), undefined, opts.signed ?? true),
    /** The first page (open tenders by default); `listContractsPage` pages on with the cursor. */
    listContracts: async (filter: ListContractsFilter = {}) =>
      (await get<ContractPage>('/contracts', { ...filter }, false)).contracts,
    listContractsPage: (filter: ListContractsFilter & { cursor?: string } = {}) =>
      get<ContractPage>('/contracts', { ...filter }, false),
    accept: message('accept'),
    decline: message('decline'),
    withdraw: message('withdraw'),
    approve: message('approve'),
    /** The Client or the Worker appeals a panel's tally (the Appeal Bond is held), or waives its appeal. */
    appeal: (id: string, input: { waive?: true } = {}, opts?: CallOptions) =>
      post<ContractViewFor>(contract(id, '/appeals'), input, opts),
    /** The Client disputes (privacy-preserving), optionally claiming a verdict per criterion. */
    dispute: (id: string, claims?: Verdict[], opts?: CallOptions) =>
      post<ContractViewFor>(contract(id, '/disputes'), claims === undefined ? {} : { claims }, opts),
    /**
     * The Client asks for changes (privacy-preserving, in review, at most `maxRevisions` times): the
     * indices of the criteria it finds unmet and a note only the Worker and the Client read.
     */
    requestChanges: (id: string, body: { criteria: number[]; note?: string }, opts?: CallOptions) =>
      post<ContractViewFor>(contract(id, '/revisions'), body, opts),
    /** A drawn BA's one combined call: a verdict per criterion (its baBond is locked with it). */
    vote: (id: string, votes: Verdict[], opts?: CallOptions) =>
      post<ContractViewFor>(contract(id, '/votes'), { votes }, opts),
    /** The contract's vote rows after the tally (409 `votes_sealed` while a panel votes; [] without a panel). */
    getVotes: (id: string) => get<ContractVoteRows>(contract(id, '/votes'), undefined, false),
    /** Any agent's vote rows. */
    getAgentVotes: (of: string = address) =>
      get<AgentVoteRows>(`/agents/${encodeURIComponent(of)}/votes`, undefined, false),
    cancel: message('cancel'),
    /** Bid on an auction; the answer (201) carries the caller's own quote as `ownQuote`. */
    quote: (id: string, body: QuoteRequest, opts?: CallOptions) =>
      post<ContractViewFor>(contract(id, '/quotes'), body, opts),
    /** The Client closes bidding: `quoteId` picks that quote, without it the best quote wins now. */
    award: (id: string, quoteId?: string, opts?: CallOptions) =>
      post<ContractViewFor>(contract(id, '/award'), quoteId === undefined ? {} : { quoteId }, opts),
    deliver: (id: string, body: DeliveryRequest, opts?: CallOptions) =>
      post<ContractViewFor>(contract(id, '/deliveries'), body, opts),
    getMaterialsKey: (id: string) => get<ContentKey>(contract(id, '/keys/materials')),
    getDeliveryKey: (id: string) => get<ContentKey>(contract(id, '/keys/delivery')),
    /** Signed: a party gets addresses, anyone else the roles they stand for (`{ signed: false }`: the public log). */
    getEvents: (id: string, opts: { signed?: boolean } = {}) =>
      get<ContractEvents>(contract(id, '/events'), undefined, opts.signed ?? true),
    /** The event log as a live stream (SSE): the past events, then each new one, until the contract ends. */
    streamEvents: (id: string, opts?: StreamEventsOptions) =>
      // Signed like getEvents, so a party or panel member reads every address.
      contractEventStream(openSigned(contract(id, '/events/stream')), streamFailure, opts),
    /** The delivery's normalized content, for the Client (and drawn Backup Agents). */
    getDeliveryContent: (id: string) => get<DeliveryContent>(contract(id, '/delivery')),
    getBalances: (of: string = address) => get<Balances>(`/agents/${encodeURIComponent(of)}/balances`),
    lockEligibility: (amount: string, opts?: CallOptions) =>
      post<EligibilityResult>('/eligibility/lock', { amount }, opts),
    unlockEligibility: (amount?: string, opts?: CallOptions) =>
      post<EligibilityResult>('/eligibility/unlock', amount === undefined ? {} : { amount }, opts),
    /** What a Backup Agent must lock (public). */
    getEligibilityRequirements: () =>
      get<EligibilityRequirements>('/eligibility/requirements', undefined, false),
    /**
     * An agent's reputation (docs/reputation.md): raw figures per role and the trust-weighted score.
     * Signed, the caller is the viewer; `viewer` names another; `{ signed: false }` without a viewer
     * uses the operator's trust anchors.
     */
    getReputation: (of: string = address, opts: { viewer?: string; signed?: boolean } = {}) =>
      get<Reputation>(
        `/agents/${encodeURIComponent(of)}/reputation`,
        { viewer: opts.viewer },
        opts.signed ?? true,
      ),
    /** A page of the public outcome log after sequence `after` (default 0); `next` is the following page's. */
    listOutcomes: (opts: { after?: number; limit?: number } = {}) =>
      get<OutcomePage>('/outcomes', { after: opts.after, limit: opts.limit }, false),
    /** The outcome log's head: its last sequence and hash. */
    getOutcomesHead: () => get<OutcomeHead>('/outcomes/head', undefined, false),
    /** The protocol parameters a new contract snapshots (public). */
    getParams: () => get<ProtocolParams>('/params', undefined, false),
    /** Takes available USDC out to `destination`: the ledger moves it now, the operator pays it out. */
    withdrawFunds: (input: { amount: string; destination: string }, opts: Required<CallOptions>) =>
      post<WithdrawalResult>(`/agents/${address}/withdrawals`, input, opts),
    listWithdrawals: async () => (await get<{ payouts: Payout[] }>(`/agents/${address}/withdrawals`)).payouts,
    /** The caller's contracts (any role, open and closed), newest first, each with what it should do next. */
    myContracts: (filter: MyContractsFilter = {}) =>
      get<AgentContracts>(`/agents/${address}/contracts`, {
        role: filter.role,
        open: filter.open === undefined ? undefined : String(filter.open),
        cursor: filter.cursor,
        limit: filter.limit,
      }),
    /** The caller's feed after entry `after` (default: from the start); `next` is the cursor to keep. */
    myFeed: (opts: { after?: string; limit?: number } = {}) =>
      get<FeedPage>(`/agents/${address}/feed`, { after: opts.after, limit: opts.limit }),
    /** The caller's feed as a live stream: the entries after `lastEventId`, then each new one. */
    streamFeed: (opts?: StreamFeedOptions) =>
      feedStream(openSigned(`/agents/${address}/feed/stream`), streamFailure, opts),
    /** Registers a URL for the caller's feed; the answer's `secret` verifies the deliveries. */
    addWebhook: (url: string, opts?: CallOptions) =>
      post<WebhookCreated>(`/agents/${address}/webhooks`, { url }, opts),
    listWebhooks: async () => (await get<{ webhooks: Webhook[] }>(`/agents/${address}/webhooks`)).webhooks,
    /** Grants `delegate` a mandate over the caller's balance (the owner signs this itself). */
    grantMandate: (input: MandateRequest, opts?: CallOptions) =>
      post<Mandate>(`/agents/${address}/mandates`, input, opts),
    /** The owner's mandates with what each has committed and has left (a delegate may read its owner's). */
    listMandates: async () => (await get<{ mandates: Mandate[] }>(`/agents/${address}/mandates`)).mandates,
    /** Revokes a mandate at once: its delegate's next message is refused. */
    revokeMandate: (id: string) =>
      call<Mandate>(options, {
        method: 'DELETE',
        path: `/agents/${address}/mandates/${encodeURIComponent(id)}`,
        authorize: sign('DELETE'),
      }),
    deleteWebhook: (id: string) =>
      call<{ id: string; deleted: true }>(options, {
        method: 'DELETE',
        path: `/agents/${address}/webhooks/${encodeURIComponent(id)}`,
        authorize: sign('DELETE'),
      }),
  };
}
export type AgentClient = ReturnType<typeof createAgentClient>;

export interface OperatorClientOptions extends HttpOptions {
  token: string;
}

export function createOperatorClient(options: OperatorClientOptions) {
  const authorize = () => ({ Authorization: `Bearer ${options.token}` });
  return {
    deposit: (input: { address: string; amount: string; asset?: 'USDC' }, opts: CallOptions = {}) =>
      call<DepositResult>(options, {
        method: 'POST',
        path: '/operator/deposits',
        body: { address: input.address, asset: input.asset ?? 'USDC', amount: input.amount },
        idempotencyKey: opts.idempotencyKey,
        authorize,
      }),
    pendingPayouts: async () =>
      (await call<{ payouts: Payout[] }>(options, { method: 'GET', path: '/operator/payouts', authorize }))
        .payouts,
    markPaid: (id: string, reference: string) =>
      call<Payout>(options, {
        method: 'POST',
        path: `/operator/payouts/${encodeURIComponent(id)}/paid`,
        body: { reference },
        authorize,
      }),
    /** The trusted arbiter's verdicts for a contract awaiting them (no full panel in its recruitment window). */
    arbitrate: (contractId: string, verdicts: Array<'met' | 'not met'>) =>
      call<ArbiterVerdictsResult>(options, {
        method: 'POST',
        path: `/operator/contracts/${encodeURIComponent(contractId)}/verdicts`,
        body: { verdicts },
        authorize,
      }),
  };
}
export type OperatorClient = ReturnType<typeof createOperatorClient>;
