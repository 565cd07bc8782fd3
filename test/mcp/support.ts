// An MCP client session against `mcp/server.ts`, spawned as a child process over stdio exactly as an
// MCP host would run it, with the agent's key in its environment. Every call is kept for a transcript.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { addressFromPrivateKey, randomPrivateKey } from '../../sdk/typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface TranscriptEntry {
  agent: string;
  tool: string;
  arguments: Record<string, unknown>;
  isError: boolean;
  result: string;
}

export interface McpAgent {
  address: string;
  /** Calls a tool that must succeed; answers its JSON result. */
  call<T = Record<string, unknown>>(tool: string, args?: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must be refused; answers the error text. */
  refused(tool: string, args?: Record<string, unknown>): Promise<string>;
  listTools(): Promise<string[]>;
  close(): Promise<void>;
}

export async function connectMcpAgent(
  apiUrl: string,
  name: string,
  transcript: TranscriptEntry[],
  privateKey: string = randomPrivateKey(),
  env: Record<string, string> = {},
): Promise<McpAgent> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', join(root, 'mcp/server.ts')],
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      OPENCONTRACT_PRIVATE_KEY: privateKey,
      OPENCONTRACT_API_URL: apiUrl,
      ...env,
    },
    stderr: 'inherit',
  });
  const client = new Client({ name: `test-${name}`, version: '1.0.0' });
  await client.connect(transport);
  const invoke = async (tool: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name: tool, arguments: args });
    const content = result.content as { type: string; text: string }[];
    const text = content.map((c) => c.text).join('\n');
    transcript.push({ agent: name, tool, arguments: args, isError: result.isError === true, result: text });
    return { isError: result.isError === true, text };
  };
  return {
    address: addressFromPrivateKey(privateKey),
    async call(tool, args = {}) {
      const { isError, text } = await invoke(tool, args);
      assert.equal(isError, false, `${tool} failed: ${text}`);
      return JSON.parse(text);
    },
    async refused(tool, args = {}) {
      const { isError, text } = await invoke(tool, args);
      assert.equal(isError, true, `${tool} was expected to be refused: ${text}`);
      return text;
    },
    async listTools() {
      return (await client.listTools()).tools.map((t) => t.name);
    },
    close: () => client.close(),
  };
}

/** The transcript as Markdown: each call with its arguments and result. */
export function transcriptMarkdown(entries: TranscriptEntry[]): string {
  return entries
    .map(
      (e, i) =>
        `### ${i + 1}. ${e.agent} → \`${e.tool}\`${e.isError ? ' (tool error)' : ''}\n\n` +
        `\`\`\`json\n${JSON.stringify(e.arguments, null, 2)}\n\`\`\`\n\n\`\`\`\n${e.result}\n\`\`\`\n`,
    )
    .join('\n');
}
