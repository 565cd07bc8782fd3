// Rewrites the contract read model of every running contract (docs/records.md): run against the
// deployment's settings, `npx tsx scripts/rebuild-read-model.ts`.
import { rebuildReadModel } from '../service/read-model-rebuild';
import { loadSettings } from '../service/settings';
import { connectTemporalClient } from '../service/temporal-client';

async function main(): Promise<void> {
  const settings = loadSettings(process.env);
  const { client, connection } = await connectTemporalClient({ codecKey: settings.payloadCodecKey });
  try {
    const signalled = await rebuildReadModel(client);
    console.log(`asked ${signalled.length} running contracts to write their read model again`);
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
