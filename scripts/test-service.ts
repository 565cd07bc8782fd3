// The whole stack for tests written in another language (the Python SDK's): a Temporal dev server, the
// contract worker, a SQLite ledger and stores in a temp dir, and the API on a free port of 127.0.0.1 —
// the same stack the e2e suites start (test/support/service.ts). Prints one JSON line on stdout,
// `{ "url", "operatorToken" }`, once the API answers; stops and removes everything when stdin closes or
// on SIGTERM/SIGINT. `OPENCONTRACT_PARAMS` (JSON) overrides protocol parameters, as for the service.
import { startDevServiceHarness } from '../test/support/service';

async function main(): Promise<void> {
  const params = process.env.OPENCONTRACT_PARAMS;
  const harness = await startDevServiceHarness(params ? { params: JSON.parse(params) as object } : {});
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= harness.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
    return stopping;
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.resume();
  process.stdout.write(
    `${JSON.stringify({ url: harness.url(), operatorToken: harness.settings.operatorToken })}\n`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
