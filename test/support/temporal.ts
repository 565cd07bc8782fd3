// Temporal servers for tests: the ones scripts/install-servers.mjs installed, never a download.
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { existsSync } from 'node:fs';
import { contractSearchAttributes, serverPaths } from '../../temporal.config';
import { registerSearchAttributes } from '../../service/search-attributes';

// Workers log every state change at INFO; tests only want warnings.
Runtime.install({ logger: new DefaultLogger('WARN') });

function installed(path: string): string {
  if (!existsSync(path)) {
    throw new Error(`Temporal server binary missing at ${path}: run \`npm run servers:install\` first`);
  }
  return path;
}

/** The Java time-skipping test server: timers fire as soon as the workflow waits on nothing else. */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: installed(serverPaths.testServer) } },
  });
  await registerSearchAttributes(env.connection, env.namespace ?? 'default');
  return env;
}

/** The Temporal CLI dev server (real visibility, in memory), with the service's search attributes. */
export function createDevServerEnv(): Promise<TestWorkflowEnvironment> {
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: installed(serverPaths.cli) },
      searchAttributes: [...contractSearchAttributes],
    },
  });
}
