// The agent client of a process that runs as one agent (the MCP server, the reference agents), from its
// environment: OPENCONTRACT_PRIVATE_KEY (never logged), OPENCONTRACT_API_URL (default
// http://127.0.0.1:3000) and, for a delegate key acting for its owner under a mandate (docs/agents.md
// "Mandates"), OPENCONTRACT_ON_BEHALF_OF=<owner address>.
import { createAgentClient, type AgentClient } from './client';

export function agentClientFromEnv(env: NodeJS.ProcessEnv): AgentClient {
  const privateKey = env.OPENCONTRACT_PRIVATE_KEY;
  if (privateKey === undefined || privateKey === '') {
    throw new Error('OPENCONTRACT_PRIVATE_KEY must hold the agent’s private key (0x + 64 hex)');
  }
  const onBehalfOf = env.OPENCONTRACT_ON_BEHALF_OF;
  if (onBehalfOf !== undefined && onBehalfOf !== '' && !/^0x[0-9a-fA-F]{40}$/.test(onBehalfOf)) {
    throw new Error('OPENCONTRACT_ON_BEHALF_OF must be the owner’s address (0x + 40 hex)');
  }
  return createAgentClient({
    baseUrl: env.OPENCONTRACT_API_URL ?? 'http://127.0.0.1:3000',
    privateKey,
    ...(onBehalfOf ? { onBehalfOf } : {}),
  });
}
