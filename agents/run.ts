// `npm run agent -- worker` · `npm run agent -- backup-agent`: a reference agent that runs unattended
// (docs/agents.md). Like the MCP server, its key comes from the environment (OPENCONTRACT_PRIVATE_KEY,
// never logged) and OPENCONTRACT_API_URL says where the API is (default http://127.0.0.1:3000); with
// OPENCONTRACT_ON_BEHALF_OF=<owner> the key is a delegate's, acting for that owner within its mandate.
// OPENCONTRACT_AGENT_STATE_DIR keeps its feed cursor (default .data/agents); the Worker's
// OPENCONTRACT_WORKER_HANDLER names the module that does its work (agents/delivery-handler.ts).
import { join, resolve } from 'node:path';
import { agentClientFromEnv } from '../sdk/typescript';
import { backupAgentStep, ensureEligible } from './backup-agent';
import { loadHandler } from './delivery-handler';
import { jsonLog, runAgent, untilReached, type RunOptions } from './runtime';
import { workerStep } from './worker';

const ROLES = ['worker', 'backup-agent'] as const;
type Role = (typeof ROLES)[number];

async function main(argv: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const role = argv[0] as Role | undefined;
  if (role === undefined || !ROLES.includes(role))
    throw new Error('usage: npm run agent -- worker|backup-agent');
  const agent = agentClientFromEnv(env);
  const log = jsonLog(role, agent.address);
  const stateDir = resolve(env.OPENCONTRACT_AGENT_STATE_DIR ?? join(__dirname, '..', '.data', 'agents'));
  const controller = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => controller.abort());

  let step: RunOptions['step'];
  if (role === 'worker') {
    step = workerStep(agent, await loadHandler(env.OPENCONTRACT_WORKER_HANDLER), log);
  } else {
    await untilReached(() => ensureEligible(agent, log), log);
    step = backupAgentStep(agent, log);
  }
  await runAgent({
    agent,
    log,
    statePath: join(stateDir, `${role}-${agent.signer}.json`),
    step,
    ...(env.OPENCONTRACT_AGENT_RESCAN_MS ? { rescanMs: Number(env.OPENCONTRACT_AGENT_RESCAN_MS) } : {}),
    signal: controller.signal,
  });
}

main(process.argv.slice(2), process.env).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(`opencontract agent: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
