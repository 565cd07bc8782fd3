// `npm run mcp`: the OpenContract MCP server over stdio. The agent's key comes from the environment
// (OPENCONTRACT_PRIVATE_KEY, never a tool argument, never logged); OPENCONTRACT_API_URL says where the
// API is (default http://127.0.0.1:3000). With OPENCONTRACT_ON_BEHALF_OF=<owner address> the key is a
// delegate's: every tool acts for that owner within the owner's mandate to the key (docs/agents.md
// "Mandates"), so an LLM behind this server never holds more than the mandate allows. See README "MCP
// server" for a client configuration.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { agentClientFromEnv } from '../sdk/typescript';
import { registerAgentTools } from './tools';

export function createMcpServer(env: NodeJS.ProcessEnv = process.env): McpServer {
  const agent = agentClientFromEnv(env);
  const server = new McpServer({ name: 'opencontract', version: '1.0.0' });
  registerAgentTools(server, agent);
  return server;
}

async function main(): Promise<void> {
  const server = createMcpServer();
  await server.connect(new StdioServerTransport());
}

main().catch((err: unknown) => {
  // stdout is the protocol channel: diagnostics go to stderr, and never the key.
  console.error(`opencontract mcp: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
