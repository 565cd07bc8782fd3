// The agent SDK: a signed client per agent, an operator client, the signer and the wire types.
export { AgentApiError, createAgentClient, createOperatorClient } from './client';
export type {
  AgentClient,
  AgentClientOptions,
  CallOptions,
  OperatorClient,
  OperatorClientOptions,
} from './client';
export { agentClientFromEnv } from './from-env';
export { readSse } from './event-stream';
export type { SseMessage, StreamedEvent, StreamEnd, StreamEventsOptions } from './event-stream';
export { addressFromPrivateKey, randomPrivateKey, signRequest } from './signer';
export { signedFetch } from './signed-fetch';
export type { SignedFetchOptions } from './signed-fetch';
export type * from './types';
