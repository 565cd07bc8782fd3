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

/**
 * The SDK gives a server 5 s to answer (a fixed limit), which a JVM starting on a busy machine can
 * miss: a start that timed out is tried again, anything else fails at once.
 */
async function startPatiently<T>(start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= attempts || !/did not start within/.test(String(error))) throw error;
    }
  }
}

/** The Java time-skipping test server: timers fire as soon as the workflow waits on nothing else. */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const env = await startPatiently(() =>
    TestWorkflowEnvironment.createTimeSkipping({
      server: { executable: { type: 'existing-path', path: installed(serverPaths.testServer) } },
    }),
  );
  await registerSearchAttributes(env.connection, env.namespace ?? 'default');
  return env;
}

/** The Temporal CLI dev server (real visibility, in memory), with the service's search attributes. */
export function createDevServerEnv(): Promise<TestWorkflowEnvironment> {
  return startPatiently(() =>
    TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'existing-path', path: installed(serverPaths.cli) },
        searchAttributes: [...contractSearchAttributes],
      },
    }),
  );
}
