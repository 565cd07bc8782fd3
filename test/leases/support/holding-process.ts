// A stand-in API process for the presence tests: opens the API's stores on PostgreSQL as an API process does
// (store/index.ts: presence, heartbeat and all), reserves one Idempotency-Key and one event-stream slot, says
// `ready <holder>` on stdout and holds them until it is killed.
// argv: <PostgresPoolOptions as JSON> <idempotency scope as JSON> <request hash>
import { openPostgresApiStores } from '../../../store';

async function main(): Promise<void> {
  const [options, scope, hash] = process.argv.slice(2) as [string, string, string];
  const stores = await openPostgresApiStores(JSON.parse(options), new Uint8Array(32));
  const reserved = await stores.idempotency.reserve(JSON.parse(scope), hash);
  const slot = await stores.streamSlots.acquire('agent:held', { perCaller: 1, total: 1 });
  if (reserved.kind !== 'reserved' || slot === undefined)
    throw new Error(`could not hold: ${reserved.kind}, ${slot}`);
  process.stdout.write(`ready ${stores.lease.holder}\n`);
  setInterval(() => undefined, 60_000);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
