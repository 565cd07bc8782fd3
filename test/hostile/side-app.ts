// Hostile-agent test helpers: a second API app beside a harness's (same Temporal, ledger and
// records; stores of its own unless given), and the invariant every attack test ends on.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentOwner } from '../../store/ledger';
import type { App, AppDeps } from '../../api/app';
import { closeApiStores, openApiStores } from '../../store';
import { appOn, TASK_QUEUE, type AppHarness } from '../support/service';

export interface SideApp {
  app: App;
  close(): void;
}

/** Another API process on the harness's Temporal, ledger and records; `deps` replaces any part. */
export function appBeside(h: AppHarness, deps: Partial<AppDeps> = {}): SideApp {
  const dir = mkdtempSync(join(tmpdir(), 'oc-side-'));
  const stores = openApiStores(dir, h.settings.vaultMasterKey);
  const app = appOn(
    h.env,
    h.settings,
    { ledger: h.ledger, records: h.records, stores, taskQueue: TASK_QUEUE },
    deps,
  );
  return {
    app,
    close() {
      closeApiStores(stores);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** No open hold is left on any of `addresses`. */
export async function assertNothingHeld(h: AppHarness, addresses: readonly string[]): Promise<void> {
  for (const address of addresses) {
    const holds = await h.ledger.holdsOf(agentOwner(address), { open: true });
    assert.deepEqual(holds, [], `${address} still has open holds`);
  }
}
