// The Temporal client the API uses: the connection from temporal.config.ts (envconfig profiles and
// TEMPORAL_* variables) and the encrypting payload codec of service/codec.ts.
import { Client, Connection } from '@temporalio/client';
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

/** Connects from the environment's Temporal settings; close `connection` when done. */
export async function connectTemporalClient(input: {
  codecKey: Uint8Array;
  env?: NodeJS.ProcessEnv;
}): Promise<{ client: Client; connection: Connection; namespace: string }> {
  const config = temporalConnectConfig(input.env);
  const connection = await Connection.connect({
    ...config.connectionOptions,
    channelArgs: RECONNECT_BACKOFF,
  });
  const namespace = config.namespace ?? 'default';
  return {
    client: createTemporalClient({ connection, namespace, codecKey: input.codecKey }),
    connection,
    namespace,
  };
}
