import { SwitchKeySecurity } from './routes/operations';

/** The OpenAPI document's frame; paths and schemas come from the routes' TypeBox schemas. */
export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payments Switch API',
      version: '1.0.0',
      description: [
        'One integration to collect (`cobrar`) and pay out (`pagar`) in VES over the national bank rails.',
        'The mode comes from the key: `sk_test_` keys run in test mode (simulated bank `bnc` never reaches a network), `sk_live_` keys move real money.',
        'Every money operation needs an `idempotency_key` (UUID). Repeat a request with the same key to retry safely; the same key with another body is refused with 409.',
        'Settlement is asynchronous: read `estado`, not the HTTP status. On `DESCONOCIDA`, query `/switch/v1/consultar` before any refund and never resend with a new key.',
        'AI agents: the same key serves the Model Context Protocol (MCP) server at `/mcp` (Streamable HTTP, stateless, JSON answers; key in `x-switch-key` or `Authorization: Bearer <merchant>:<secret>`). Tools `bancos`, `pagar`, `cobrar_token`, `cobrar`, `consultar`, `reverso`, `saldo`, `movimientos` take the request bodies and queries below and answer the same bodies, with the same validation, idempotency and rate limits. Add it to an agent client as `{"mcpServers":{"switch-pagos":{"type":"http","url":"<base_url>/mcp","headers":{"x-switch-key":"<merchant>:<API_KEY>"}}}}`; for desktop agents over stdio: `{"mcpServers":{"switch-pagos":{"command":"node","args":["<repo>/services/gateway/bin/switch-mcp.js"],"env":{"SWITCH_URL":"<base_url>","SWITCH_KEY":"<merchant>:<API_KEY>"}}}}`. Details and a worked example: `docs/mcp.md` in the repository.',
        'Errors, every one in the body `{"error": CODE, "message": ...}` (400 adds `detail` naming each bad field, 401 is exactly `{"error":"unauthorized"}`): 400 `VALIDATION` (a field; JSON that is malformed, not UTF-8, nested deeper than 32 levels or with a duplicate key; a lone surrogate in any string; a control character in `nombre` or `concepto`; a malformed URL or request); 401 `unauthorized`; 404 `NOT_FOUND`; 405 `METHOD_NOT_ALLOWED` with `allow` on a known path with another method; 408 `REQUEST_TIMEOUT` when the headers or body arrive too slowly; 409 `IDEMPOTENCY_CONFLICT`; 413 `PAYLOAD_TOO_LARGE`; 415 `UNSUPPORTED_MEDIA_TYPE` (not `application/json`, or a charset other than UTF-8); 431 `HEADERS_TOO_LARGE`; 429 `RATE_LIMITED` with `retry-after` (too many requests, or too many refused requests, from an address or for a merchant id; checked before the key); 503 `SERVICE_UNAVAILABLE`.',
        'Every answer carries `cache-control: no-store`. Amounts (`monto.valor`) have at most 2 decimals (`multipleOf: 0.01`, checked exactly on the decimal written).',
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    components: { securitySchemes: SwitchKeySecurity },
    tags: [
      { name: 'operaciones', description: 'Money operations and their state' },
      { name: 'bancos', description: 'Bank catalogue' },
      { name: 'cuentas', description: 'Balances and statements for reconciliation' },
      { name: 'webhooks', description: 'Webhook endpoints of the key mode and their deliveries (SPEC 6.5)' },
    ],
  };
}

/** JSON-Schema keyword of the exact decimals check (shared/src/contracts/monto.ts). */
const MAX_DECIMALS = 'x-max-decimals';

/**
 * The document as served: each `x-max-decimals: n` (read by the server's own check only) is stated
 * in a standard keyword too, `multipleOf: 10^-n`, so tools generating and checking requests know it.
 */
export function publishedDocument<T>(document: T): T {
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (typeof o[MAX_DECIMALS] === 'number' && o.multipleOf === undefined)
        o.multipleOf = Number((10 ** -(o[MAX_DECIMALS] as number)).toFixed(o[MAX_DECIMALS] as number));
      Object.values(o).forEach(walk);
    }
  };
  const copy = JSON.parse(JSON.stringify(document)) as T;
  walk(copy);
  return copy;
}
