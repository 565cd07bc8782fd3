// Where the service finds Temporal, and which Temporal servers the project runs itself.
// Connection settings come from @temporalio/envconfig: a profile in the Temporal config file
// (TEMPORAL_CONFIG_FILE, TEMPORAL_PROFILE) and the TEMPORAL_ADDRESS / TEMPORAL_NAMESPACE / TEMPORAL_API_KEY /
// TEMPORAL_TLS* environment variables, so the same code runs on the embedded dev server, a self-hosted
// cluster or Temporal Cloud.
import { loadClientConnectConfig, type ClientConnectConfig } from '@temporalio/envconfig';
import { SearchAttributeType } from '@temporalio/common';
import { join } from 'node:path';
import { dataDirOf } from './store/data-files';
import { contractSearchAttributes } from './workflows/search-attributes';

export const TASK_QUEUE = process.env.OPENCONTRACT_TASK_QUEUE ?? 'opencontract';

const projectRoot = __dirname;

/** The servers scripts/install-servers.mjs installs (keep the versions in step with it). */
export const serverPaths = {
  cli: process.env.TEMPORAL_CLI_PATH ?? join(projectRoot, '.temporal/cli/v1.5.1/temporal'),
  testServer:
    process.env.TEMPORAL_TEST_SERVER_PATH ??
    join(projectRoot, '.temporal/test-server/1.38.0/temporal-test-server'),
};

/** The embedded dev server's Web UI port (OPENCONTRACT_TEMPORAL_UI_PORT). */
export function embeddedUiPort(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.OPENCONTRACT_TEMPORAL_UI_PORT ?? 8233);
}

/** The embedded default: a dev server the service starts itself, persisted under .data/. */
export const embedded = {
  dataDir: dataDirOf(),
  port: Number(process.env.OPENCONTRACT_TEMPORAL_PORT ?? 7233),
  uiPort: embeddedUiPort(),
  namespace: 'default',
};

/**
 * True when the operator pointed the service at a Temporal cluster of its own (an address, profile or config
 * file in the environment); otherwise the service starts its embedded dev server.
 */
export function usesExternalCluster(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.TEMPORAL_ADDRESS || env.TEMPORAL_PROFILE || env.TEMPORAL_CONFIG_FILE);
}

export function temporalConnectConfig(env: NodeJS.ProcessEnv = process.env): ClientConnectConfig {
  const config = loadClientConnectConfig({
    overrideEnvVars: Object.fromEntries(
      Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
  });
  if (!usesExternalCluster(env)) {
    config.connectionOptions.address = `127.0.0.1:${embedded.port}`;
    config.namespace = embedded.namespace;
  }
  return config;
}

/** `--search-attribute Name=Type` pairs for the dev server, from the typed keys the workflows use. */
export function devServerSearchAttributeArgs(): string[] {
  const names: Record<string, string> = {
    [SearchAttributeType.KEYWORD]: 'Keyword',
    [SearchAttributeType.DATETIME]: 'Datetime',
    [SearchAttributeType.TEXT]: 'Text',
    [SearchAttributeType.INT]: 'Int',
    [SearchAttributeType.DOUBLE]: 'Double',
    [SearchAttributeType.BOOL]: 'Bool',
    [SearchAttributeType.KEYWORD_LIST]: 'KeywordList',
  };
  return contractSearchAttributes.flatMap((key) => ['--search-attribute', `${key.name}=${names[key.type]}`]);
}

export { contractSearchAttributes };
