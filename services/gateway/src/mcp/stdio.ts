import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { parseSwitchKey } from '@switch/usecases/onboarding';
import { readSettings } from '@switch/platform/config/env';
import { McpSettings } from './config';
import { remoteRest } from './remote';
import { createMcpServer } from './server';

/**
 * `switch-mcp`: the MCP server over stdio for desktop agents, talking to the switch at `SWITCH_URL`
 * with `SWITCH_KEY` through its REST API. stdout belongs to the protocol: every diagnostic goes to
 * stderr. A key the switch refuses stops it at start with a clear message, rather than leaving the
 * agent with tools that can only fail.
 */
async function main(): Promise<void> {
  const { url, key } = readSettings(McpSettings);
  const parsed = parseSwitchKey(key);
  if (!key || !parsed) {
    return fail('SWITCH_KEY must be set to `<merchant>:sk_test_...` or `<merchant>:sk_live_...` (the x-switch-key of the merchant API)');
  }
  const rest = remoteRest(url, key);
  const check = await rest({ method: 'GET', path: '/switch/v1/bancos' }).catch((error: unknown) => error as Error);
  if (check instanceof Error) {
    // The switch may come up later: tools then say it is unreachable, call by call.
    process.stderr.write(`switch-mcp: ${url} is not reachable yet (${check.message}); starting anyway\n`);
  } else if (check.status === 401) {
    return fail(`the switch at ${url} refused SWITCH_KEY (401 unauthorized): the key is wrong, revoked or of an inactive merchant`);
  }
  const server = createMcpServer({ mode: parsed.mode, rest });
  await server.connect(new StdioServerTransport());
  process.stderr.write(`switch-mcp: ${parsed.mode} mode, merchant ${parsed.merchantId}, switch ${url}\n`);
}

function fail(message: string): void {
  process.stderr.write(`switch-mcp: ${message}\n`);
  process.exitCode = 1;
}

main().catch((error: unknown) => {
  fail(`failed to start: ${error instanceof Error ? error.message : String(error)}`);
});
