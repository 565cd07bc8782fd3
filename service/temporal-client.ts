// The Temporal client the API uses: the connection from temporal.config.ts (envconfig profiles and
// TEMPORAL_* variables) and the encrypting payload codec of service/codec.ts.
import {
  Client,
  Connection,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
  type GrpcRetryOptions,
} from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { temporalConnectConfig } from '../temporal.config';
import { createPayloadCodec } from './codec';

/** The data converter of the service's clients (the API, tools). */
export function contractDataConverter(codecKey: Uint8Array): DataConverter {
  return { payloadCodecs: [createPayloadCodec(codecKey)] };
}

/** The worker's: a payload not sealed under the key decodes as nothing (service/codec.ts). */
export function workerDataConverter(codecKey: Uint8Array): DataConverter {
  return { payloadCodecs: [createPayloadCodec(codecKey, { refuseUnsealed: true })] };
}

/** A client on an existing connection (tests hand in the test environment's). */
export function createTemporalClient(input: {
  connection: Connection;
  namespace: string;
  codecKey: Uint8Array;
}): Client {
  return new Client({
    connection: input.connection,
    namespace: input.namespace,
    dataConverter: contractDataConverter(input.codecKey),
  });
}

/**
 * How soon the client dials a frontend that went away again: from 100 ms, ×1.6, at most every second
 * (gRPC's own: from 1 s, ×1.6, up to 120 s, so after a 10 s server restart the next dial could come 6 s
 * late, and the calls waiting on the connection with it). A dial to a loopback or LAN frontend costs little.
 */
export const RECONNECT_BACKOFF = {
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 1000,
};

const GRPC_UNAVAILABLE = 14;

/**
 * The SDK's retry of a failed gRPC call, except that a frontend that does not answer (UNAVAILABLE: restarting,
 * unreachable) is tried again at most a second apart, 20 times (about 18 s in all; the SDK's 10 tries up to
 * 5 s apart make about 20 s): a call waiting out a server restart goes through within a second of its return,
 * not up to 5 s later. Other retryable failures (RESOURCE_EXHAUSTED first) back off as the SDK does.
 */
export function unavailableRetry(): GrpcRetryOptions {
  const sdk = defaultGrpcRetryOptions();
  const unavailable = defaultGrpcRetryOptions({ maxAttempts: 20 });
  return {
    delayFunction: (attempt, status) =>
      status.code === GRPC_UNAVAILABLE
        ? Math.min(1000, unavailable.delayFunction(attempt, status))
        : sdk.delayFunction(attempt, status),
    retryableDecider: (attempt, status) =>
      (status.code === GRPC_UNAVAILABLE ? unavailable : sdk).retryableDecider(attempt, status),
  };
}

/** Connects from the environment's Temporal settings; close `connection` when done. */
export async function connectTemporalClient(input: {
  codecKey: Uint8Array;
  env?: NodeJS.ProcessEnv;
}): Promise<{ client: Client; connection: Connection; namespace: string }> {
  const config = temporalConnectConfig(input.env);
  const connection = await Connection.connect({
    ...config.connectionOptions,
    channelArgs: RECONNECT_BACKOFF,
    interceptors: [makeGrpcRetryInterceptor(unavailableRetry())],
  });
  const namespace = config.namespace ?? 'default';
  return {
    client: createTemporalClient({ connection, namespace, codecKey: input.codecKey }),
    connection,
    namespace,
  };
}
