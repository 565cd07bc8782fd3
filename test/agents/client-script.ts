// The Client of the reference-agents test, a process of its own: it knows only its key, the API and
// the Worker it names. It creates a privacy-preserving contract with one machine-checked criterion,
// waits on its feed until reviewing is its next action, disputes, and waits for the settlement,
// printing one JSON line per step (the last: the settled status and payment).
import { untilReached } from '../../agents/runtime';
import { createAgentClient, type FeedEntry } from '../../sdk/typescript';
import { contractBody } from '../support/fixtures';
import { dailyMoltbookCheck } from '../scoring/fixtures';

const agent = createAgentClient({
  baseUrl: process.env.OPENCONTRACT_API_URL!,
  privateKey: process.env.OPENCONTRACT_PRIVATE_KEY!,
});
const say = (event: string, fields: Record<string, unknown> = {}) =>
  console.log(JSON.stringify({ event, ...fields }));

async function main(): Promise<void> {
  const terms = {
    ...contractBody(process.env.OPENCONTRACT_WORKER_ADDRESS!),
    verificationMode: 'privacy-preserving' as const,
    acceptanceCriteria: [{ text: 'posts daily about health for a week', check: dailyMoltbookCheck }],
  };
  // Keyed, so a retry after a dropped connection creates nothing twice.
  const created = await untilReached(
    () => agent.createContract(terms, { idempotencyKey: 'client-script:create' }),
    say,
  );
  const id = created.contractId;
  say('created', { status: created.status });
  let cursor = '0';
  const next = async (): Promise<FeedEntry> => {
    for (;;) {
      const stream = new AbortController();
      try {
        // A dropped stream is opened again after the last entry seen.
        for await (const entry of agent.streamFeed({ lastEventId: cursor, signal: stream.signal })) {
          cursor = entry.id;
          return entry;
        }
      } catch (err) {
        say('stream-lost', { message: err instanceof Error ? err.message : String(err) });
        await new Promise((r) => setTimeout(r, 500));
      } finally {
        stream.abort();
      }
    }
  };
  for (;;) {
    const entry = await next();
    if (entry.contractId !== id) continue;
    const [mine] = (await agent.myContracts({ role: 'client', open: true })).contracts.filter(
      (c) => c.contractId === id,
    );
    if (mine?.nextAction === 'review') break;
  }
  const disputed = await untilReached(
    () => agent.dispute(id, ['not met'], { idempotencyKey: 'client-script:dispute' }),
    say,
  );
  say('disputed', { status: disputed.status });
  for (;;) {
    const entry = await next();
    if (entry.contractId === id && entry.event?.type === 'contract.settled') {
      say('settled', { status: entry.event.status, payment: entry.event.payment });
      return;
    }
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
