// What every end-to-end target offers the suites (service.ts: the dev server in process; cluster.ts: the
// cluster profile), and the secrets both give their API processes.
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Balances, Ledger } from '../../store/ledger';
import type { createOperatorClient } from '../../sdk/typescript';
import type { Settings } from '../../service/settings';

export const OPERATOR_TOKEN = 'test-operator-token-0123456789';
export const VAULT_MASTER_KEY = '5a'.repeat(32);
export const PAYLOAD_CODEC_KEY = '6b'.repeat(32);
export const CURSOR_KEY = '7c'.repeat(32);

/** For end-to-end tests: the API over HTTP (service/api-server.ts) and a worker, restartable. */
export interface ServiceHarness {
  env: TestWorkflowEnvironment;
  settings: Settings;
  /** The API's base URL (changes on restart: a new free port). */
  url(): string;
  operator(): ReturnType<typeof createOperatorClient>;
  balances(address: string): Promise<Balances>;
  /** Every open hold of the ledger (the invariant "a terminal contract holds nothing pending"). */
  ledger(): Ledger;
  /** Stops the API and the worker (their ledger connections included) and starts them again. */
  restart(): Promise<void>;
  stopApiAndWorker(): Promise<void>;
  startApiAndWorker(): Promise<void>;
  close(): Promise<void>;
}
