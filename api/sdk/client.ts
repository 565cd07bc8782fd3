// The typed agent SDK: one method per route, every call signed (api/sdk/signer.ts), every refusal
// thrown as an AgentApiError carrying the §12 error. Depends on no server code at run time.
import { addressFromPrivateKey, signRequest, type Address } from './signer';
import type {
  Balances,
  ContentKey,
  ContractEvents,
  ContractViewFor,
  CreateContractRequest,
  DeliveryRequest,
  DepositResult,
  EligibilityResult,
  ListContractsFilter,
  ListedContract,
  PartyContractView,
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
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  idempotencyKey?: string | undefined;
  /** Extra headers (the operator's token) or signature headers computed from the final URL and body. */
  authorize?: (url: URL, body: string | undefined) => Record<string, string>;
}

async function call<T>({ baseUrl, fetch = globalThis.fetch }: HttpOptions, spec: RequestSpec): Promise<T> {
  const url = new URL(spec.path.replace(/^\//, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
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
}

export function createAgentClient(options: AgentClientOptions) {
  const address: Address = addressFromPrivateKey(options.privateKey);
  const sign = (method: string) => (url: URL, body: string | undefined) =>
    ({
      ...signRequest({
        method,
        url,
        ...(body === undefined ? {} : { body }),
        privateKey: options.privateKey,
        ...(options.expiresIn === undefined ? {} : { expiresIn: options.expiresIn }),
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
  const contract = (id: string, rest = '') => `/contracts/${encodeURIComponent(id)}${rest}`;
  const message = (name: string) => (id: string, opts?: CallOptions) =>
    post<ContractViewFor>(contract(id, `/${name}`), undefined, opts);

  return {
    address,
    createContract: (body: CreateContractRequest, opts?: CallOptions) =>
      post<PartyContractView>('/contracts', body, opts),
    /** Signed by default, so a party gets the party view; `{ signed: false }` reads the public view. */
    getContract: (id: string, opts: { signed?: boolean } = {}) =>
      get<ContractViewFor>(contract(id), undefined, opts.signed ?? true),
    listContracts: async (filter: ListContractsFilter = {}) =>
      (await get<{ contracts: ListedContract[] }>('/contracts', { ...filter }, false)).contracts,
    accept: message('accept'),
    decline: message('decline'),
    withdraw: message('withdraw'),
    approve: message('approve'),
    cancel: message('cancel'),
    deliver: (id: string, body: DeliveryRequest, opts?: CallOptions) =>
      post<ContractViewFor>(contract(id, '/deliveries'), body, opts),
    getMaterialsKey: (id: string) => get<ContentKey>(contract(id, '/keys/materials')),
    getDeliveryKey: (id: string) => get<ContentKey>(contract(id, '/keys/delivery')),
    getEvents: (id: string) => get<ContractEvents>(contract(id, '/events'), undefined, false),
    getBalances: (of: string = address) => get<Balances>(`/agents/${encodeURIComponent(of)}/balances`),
    lockEligibility: (amount: string, opts?: CallOptions) =>
      post<EligibilityResult>('/eligibility/lock', { amount }, opts),
    unlockEligibility: (amount?: string, opts?: CallOptions) =>
      post<EligibilityResult>('/eligibility/unlock', amount === undefined ? {} : { amount }, opts),
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
  };
}
export type OperatorClient = ReturnType<typeof createOperatorClient>;
