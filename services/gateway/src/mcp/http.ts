import type { FastifyInstance, FastifyReply, InjectOptions, LightMyRequestResponse } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Mode } from '@switch/core/contracts/bancos';
import type { KeyCache } from '../key-cache';
import { verifyKey } from '../auth';
import type { Throttle } from '../throttle';
import { REPLAYED_HEADER } from '@switch/core/contracts/operaciones';
import { parseJsonBody, withQuery, type RestPort } from './rest';
import { createMcpServer } from './server';

export const MCP_PATH = '/mcp';

interface McpCaller {
  merchantId: string;
  mode: Mode;
  /** The caller's key as `x-switch-key` spells it, for the REST requests its tool calls make. */
  switchKey: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    mcpCaller: McpCaller;
  }
}

/**
 * The key of an MCP request: `x-switch-key` as on the REST API (SPEC 5.5), or
 * `Authorization: Bearer <merchant>:<secret>` for clients that can only send that.
 */
export function presentedKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const header = headers['x-switch-key'];
  if (typeof header === 'string') return header;
  const authorization = headers.authorization;
  const bearer = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  return bearer?.[1];
}

/**
 * Streamable HTTP at `/mcp`, stateless: every POST gets a new server and transport, answered as plain
 * JSON (no session, no SSE stream to resume), so any gateway replica can take any request. Each tool
 * call is the equivalent REST request injected into this same app with the caller's key, so validation,
 * idempotency, rate limits (keyed on the merchant, not on the injected request's address), isolation
 * and error bodies are the REST API's own.
 */
export function mcpRoutes(
  app: FastifyInstance,
  deps: { keys: KeyCache; throttle: Throttle; inject: (options: InjectOptions) => Promise<LightMyRequestResponse> },
): void {
  app.decorateRequest('mcpCaller', null as unknown as McpCaller);
  // Before the body is read, as on the REST API: no key, no parsing. Same 401 body (SPEC 5.4).
  // A key that fails verification spends its address's budget, as on the REST API; a valid key's
  // budget is spent by the REST requests its tool calls make (one budget for REST and MCP).
  app.addHook('onRequest', async (request, reply) => {
    const switchKey = presentedKey(request.headers);
    const verified = await verifyKey(deps.keys, switchKey, deps.throttle.addressSpent(request));
    if (!verified || !switchKey) return deps.throttle.refuseKey(request, reply, switchKey);
    request.mcpCaller = { ...verified.caller, switchKey };
  });

  app.post(MCP_PATH, { schema: { hide: true } }, async (request, reply) => {
    const caller = request.mcpCaller;
    const log = request.log.child({ merchant: caller.merchantId, mode: caller.mode });
    const server = createMcpServer({ mode: caller.mode, rest: injectedRest(deps.inject, caller.switchKey, request.id), log });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    // The transport writes the answer itself; fastify must not answer too (nor run onSend, hence the id here).
    reply.raw.setHeader('x-request-id', request.id);
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      log.warn({ err: error }, 'mcp request failed');
      if (!reply.raw.headersSent) {
        reply.raw
          .writeHead(500, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }));
      }
    }
  });

  // Stateless mode has no stream to open (GET) and no session to end (DELETE): 405, as the
  // Streamable HTTP transport specifies for a server that offers neither.
  const notAllowed = async (_request: unknown, reply: FastifyReply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Method not allowed: this server is stateless; send JSON-RPC by POST' },
        id: null,
      });
  app.get(MCP_PATH, { schema: { hide: true } }, notAllowed);
  app.delete(MCP_PATH, { schema: { hide: true } }, notAllowed);
}

/** The REST API of this very app, called with the MCP caller's key; the request id ties both log lines. */
function injectedRest(inject: (options: InjectOptions) => Promise<LightMyRequestResponse>, switchKey: string, requestId: string): RestPort {
  return async ({ method, path, body, query }) => {
    const headers: Record<string, string> = { 'x-switch-key': switchKey, 'x-request-id': requestId };
    const options: InjectOptions = { method, url: withQuery(path, query), headers };
    if (method === 'POST') {
      headers['content-type'] = 'application/json';
      options.payload = JSON.stringify(body ?? {});
    }
    const res = await inject(options);
    return { status: res.statusCode, body: parseJsonBody(res.body), replayed: res.headers[REPLAYED_HEADER] === 'true' };
  };
}
