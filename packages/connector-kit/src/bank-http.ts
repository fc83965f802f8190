import { Agent, request } from 'undici';

/**
 * What one HTTP call to a bank came to, classified for money safety:
 * - `response`: the bank answered (any status); the connector reads it;
 * - `not_sent`: provably never reached the bank (refused, no route, connect timeout, breaker open):
 *   the only failure after which a payout may be rerouted;
 * - `unknown`: the request may have reached the bank but no complete answer came (timeout or cut
 *   after sending): the order becomes DESCONOCIDA and is never resent.
 */
export type BankHttpResult =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: string }
  | { kind: 'not_sent'; reason: string }
  | { kind: 'unknown'; reason: string };

export interface BankHttpRequest {
  url: string;
  method: 'GET' | 'POST' | 'DELETE' | 'PUT';
  headers?: Record<string, string>;
  body?: string;
  /** Time allowed for the answer once the request is sent. */
  timeoutMs: number;
}

const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

export class BankHttpClient {
  private readonly agent: Agent;
  constructor(options: { connectTimeoutMs?: number; connections?: number } = {}) {
    this.agent = new Agent({
      connect: { timeout: options.connectTimeoutMs ?? 3_000 },
      connections: options.connections ?? 64,
      keepAliveTimeout: 10_000,
    });
  }

  async send(req: BankHttpRequest): Promise<BankHttpResult> {
    try {
      const res = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        dispatcher: this.agent,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      });
      const body = await res.body.text();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      return { kind: 'response', status: res.statusCode, headers, body };
    } catch (error) {
      const code = errorCode(error);
      if (code && NOT_SENT_CODES.has(code)) return { kind: 'not_sent', reason: code };
      return { kind: 'unknown', reason: code ?? (error instanceof Error ? error.message : String(error)) };
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function errorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}
