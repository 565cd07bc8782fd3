// Records the history of every contract path (test/workflows/scenarios.ts) under test/histories/<path>.json,
// for the replay test. Run after a deliberate change of workflow code: `npx tsx test/histories/record.ts`
// (every path) or `npx tsx test/histories/record.ts <path> ...` (only those). Before 1.0 the workflow
// has one version: a change re-records every path, and a history of a path no longer in PATHS goes.
// The payloads are sealed with the test-only HISTORY_CODEC_KEY, as every history is in production.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSuite, Harness, HISTORY_CODEC_KEY } from '../workflows/harness';
import { AUCTION_PATHS } from '../workflows/auction-scenarios';
import { PATHS as FIXED_PATHS } from '../workflows/scenarios';
import { HOSTILE_PATHS } from '../hostile/paths';
import { REVISION_PATHS } from '../workflows/revision-scenarios';
import { MILESTONE_PATHS } from '../workflows/milestone-scenarios';
import { historyToFile } from './format';

const PATHS = { ...FIXED_PATHS, ...AUCTION_PATHS, ...HOSTILE_PATHS, ...REVISION_PATHS, ...MILESTONE_PATHS };

async function main(): Promise<void> {
  const suite = await createSuite(HISTORY_CODEC_KEY);
  try {
    const only = process.argv.slice(2);
    const unknown = only.filter((name) => !(name in PATHS));
    if (unknown.length > 0) throw new Error(`unknown paths: ${unknown.join(', ')}`);
    for (const [name, path] of Object.entries(PATHS)) {
      if (only.length > 0 && !only.includes(name)) continue;
      await Harness.run(suite, async (h) => {
        const run = await path(h);
        const history = await run.handle.fetchHistory();
        writeFileSync(join(__dirname, `${name}.json`), historyToFile(history));
        if (run.outcome === null) await run.handle.terminate('recorded');
        console.log(`${name}: ${history.events?.length ?? 0} history events`);
      });
    }
  } finally {
    await suite.teardown();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
