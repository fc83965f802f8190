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
        'Errors: 400 `VALIDATION` with `detail` naming each bad field; 401 `unauthorized`; 404 `NOT_FOUND`; 409 `IDEMPOTENCY_CONFLICT`; 413 `PAYLOAD_TOO_LARGE`; 415 `UNSUPPORTED_MEDIA_TYPE`; 429 `RATE_LIMITED` with `retry-after`; 503 `SERVICE_UNAVAILABLE`.',
      ].join('\n\n'),
    },
    servers: [{ url: '/' }],
    components: { securitySchemes: SwitchKeySecurity },
    tags: [
      { name: 'operaciones', description: 'Money operations and their state' },
      { name: 'bancos', description: 'Bank catalogue' },
      { name: 'cuentas', description: 'Balances and statements for reconciliation' },
    ],
  };
}
