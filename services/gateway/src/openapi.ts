import { API_SCHEMAS } from '@switch/core/contracts/api';
import { errorCatalogueMarkdown } from '@switch/core/contracts/errors';
import { WEBHOOK_EVENTS } from '@switch/core/contracts/webhook';
import { EVENTOS_ESPERADO, type EventoEsperado } from '@switch/core/contracts/esperados';
import { SwitchKeySecurity } from './routes/operations';
import { OPERATION_EXAMPLES, type OperationExamples } from './examples';
import { REPLAYED_HEADER } from '@switch/core/contracts/operaciones';
import { EXAMPLE_EXPECTED_ID, exampleExpected } from './sandbox';

export const API_TITLE = 'Switch de pagos API';

/** The OpenAPI document's frame; paths come from the routes' TypeBox schemas, named schemas from packages/core/src/contracts/api.ts. */
export function openApiDocument() {
  return {
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: '1.0.0',
      summary: 'Collect and pay out in VES over the Venezuelan bank rails, with one integration.',
      description: [
        'One integration to collect (`cobrar`) and pay out (`pagar`) in VES over the national bank rails.',
        'The mode comes from the key: `sk_test_` keys run in test mode (simulated bank `bnc` never reaches a network), `sk_live_` keys move real money.',
        `Every money operation needs an \`idempotency_key\` (UUID). Repeat a request with the same key to retry safely: the answer is the original operation's, marked with the header \`${REPLAYED_HEADER}: true\`; the same key with another body is refused with 409.`,
        'Settlement is asynchronous: read `estado`, not the HTTP status. On `DESCONOCIDA`, query `/switch/v1/consultar` before any refund and never resend with a new key.',
        `Try it out: every example here works as it is with a test key (test-mode instruments, the simulated bank). In test mode the id \`txn_ejemplo\` is a sample operation every key can query, read in detail and reverse, \`we_ejemplo\` a sample webhook endpoint and \`txn_ejemplo.v1.we_ejemplo\` its sample delivery: their answers store nothing.`,
        'Webhooks: the switch POSTs the events under `webhooks` to each registered endpoint, signed twice: `x-service-signature` (`sha256=` + hex HMAC-SHA256 of the raw body with the endpoint secret) and the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`.',
        'AI agents: the same key serves the Model Context Protocol (MCP) server at `/mcp` (Streamable HTTP, stateless, JSON answers; key in `x-switch-key` or `Authorization: Bearer <merchant>:<secret>`). Tools `bancos`, `pagar`, `cobrar_token`, `cobrar`, `consultar`, `reverso`, `saldo`, `movimientos` take the request bodies and queries below and answer the same bodies, with the same validation, idempotency and rate limits. Add it to an agent client as `{"mcpServers":{"switch-pagos":{"type":"http","url":"<base_url>/mcp","headers":{"x-switch-key":"<merchant>:<API_KEY>"}}}}`; for desktop agents over stdio: `{"mcpServers":{"switch-pagos":{"command":"node","args":["<repo>/services/gateway/bin/switch-mcp.js"],"env":{"SWITCH_URL":"<base_url>","SWITCH_KEY":"<merchant>:<API_KEY>"}}}}`. Details and a worked example: `docs/mcp.md` in the repository.',
        `Errors, every one in the body \`{"error": CODE, "message": ...}\` (400 adds \`detail\` naming each bad field, 401 is exactly \`{"error":"unauthorized"}\`):\n\n${errorCatalogueMarkdown('merchant')}`,
        'Request bodies: UTF-8 JSON; fields the schema does not name are ignored, but a duplicate key, nesting deeper than 32 levels, a lone surrogate in any string, or a key named `__proto__`, `constructor` or `prototype` at any depth (known field or not) is refused with 400 `VALIDATION` naming its place.',
        'Every answer carries `cache-control: no-store`. Amounts (`monto.valor`) have at most 2 decimals (`multipleOf: 0.01`, checked exactly on the decimal written).',
      ].join('\n\n'),
      license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
    },
    components: { securitySchemes: SwitchKeySecurity },
    tags: [
      { name: 'operaciones', description: 'Money operations and their state' },
      { name: 'bancos', description: 'Bank catalogue' },
      { name: 'cuentas', description: 'Balances and statements for reconciliation' },
      { name: 'cobros', description: 'Pagos móviles payers send: verified against the receiving bank, each movement claimed once' },
      { name: 'sandbox', description: 'Test mode only: make things happen at the banks (a payer sending a pago móvil)' },
      {
        name: 'cobros esperados',
        description: 'Expected payments: a pago móvil the payer pushes, matched against the bank statement in the background',
      },
      {
        name: 'webhooks',
        description:
          'Webhook endpoints of the key mode and their deliveries (SPEC 6.5); the signed events the switch sends are under `webhooks` (SPEC 6)',
      },
    ],
  };
}

/** JSON-Schema keyword of the exact decimals check (packages/core/src/contracts/fields.ts). */
const MAX_DECIMALS = 'x-max-decimals';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Key-order-independent JSON, for comparing schemas. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
const withoutDescription = (schema: Json): Json => {
  const { description: _d, ...rest } = schema;
  return rest;
};

export interface PublishOptions {
  /** The base URL merchants reach this switch at (the `servers` entry). */
  baseUrl: string;
}

/**
 * The document as served, from what @fastify/swagger generated:
- each `x-max-decimals: n` (read by the server's own check only) is stated in a standard keyword
 *   too, `multipleOf: 10^-n`, so tools generating and checking requests know it; a conditional
 *   branch states that it leaves other fields open (`additionalProperties: true`);
 * - every schema equal to one of the contracts' named schemas (API_SCHEMAS) becomes a `$ref` to its
 *   `components.schemas` entry, named schemas inside named schemas included;
 * - examples (./examples.ts) of the body, the parameters and the success answer, the replay header of money operations, the webhooks, the server and contact.
 */
export function publishedDocument<T>(document: T, options: PublishOptions): T {
  const doc = JSON.parse(JSON.stringify(document)) as Json;
  statePrecision(doc);
  const components = (doc.components ?? {}) as Json;
  const schemas = (components.schemas ?? {}) as Record<string, Json>;
  for (const schema of Object.values(schemas)) delete schema.$id;
  nameSchemas(doc, schemas);
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Json>>;
  for (const item of Object.values(paths)) for (const operation of Object.values(item)) decorateOperation(operation);
  doc.webhooks = { ...webhooks(), ...expectedPaymentWebhooks() };
  doc.servers = [{ url: options.baseUrl, description: 'This switch (the mode comes from the key: test or live)' }];
  (doc.info as Json).contact = { name: 'Switch de pagos', url: `${options.baseUrl}/docs` };
  return doc as T;
}

function statePrecision(node: unknown): void {
  if (Array.isArray(node)) node.forEach(statePrecision);
  else if (isObject(node)) {
    if (typeof node[MAX_DECIMALS] === 'number' && node.multipleOf === undefined)
      node.multipleOf = Number((10 ** -(node[MAX_DECIMALS] as number)).toFixed(node[MAX_DECIMALS] as number));
    // A conditional branch adds a rule to some properties (Instrumento: `valor` by `tipo`); it closes
    // nothing. Said explicitly (`additionalProperties: true` is JSON Schema's default), because tools
    // that check examples as if every object listing `properties` were closed (Redocly) would
    // otherwise read the branch as refusing the other fields.
    for (const branch of ['then', 'else'] as const) {
      const b = node[branch];
      if (isObject(b) && b.properties !== undefined && b.additionalProperties === undefined) b.additionalProperties = true;
    }
    Object.values(node).forEach(statePrecision);
  }
}

/**
 * Replaces, bottom-up, every schema equal to a named one by its `$ref`. A named schema is compared
 * in its own published form (its inner named schemas already references), so the smaller ones are
 * settled first; a description of its own at the place of use stays beside the `$ref`.
 */
function nameSchemas(doc: Json, schemas: Record<string, Json>): void {
  const names = Object.keys(API_SCHEMAS).filter((n) => schemas[n]);
  const known = new Map<string, string>(); // canonical form without description -> name
  const replace = (node: unknown, self?: string): unknown => {
    if (Array.isArray(node)) return node.map((n) => replace(n));
    if (!isObject(node)) return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) out[k] = replace(v);
    const name = known.get(canonical(withoutDescription(out)));
    if (!name || name === self) return out;
    const ref: Json = { $ref: `#/components/schemas/${name}` };
    if (typeof out.description === 'string' && out.description !== schemas[name]?.description) ref.description = out.description;
    return ref;
  };
  for (const name of names.sort((a, b) => canonical(schemas[a]).length - canonical(schemas[b]).length)) {
    schemas[name] = replace(schemas[name], name) as Json;
    known.set(canonical(withoutDescription(schemas[name]!)), name);
  }
  // The schema of a response repeats the response's description: said once, on the response.
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const operation of Object.values(item)) {
      for (const response of Object.values((operation.responses ?? {}) as Record<string, Json>)) {
        for (const media of Object.values((response.content ?? {}) as Record<string, Json>)) {
          const schema = media.schema as Json | undefined;
          if (schema && schema.description === response.description) delete schema.description;
        }
      }
    }
  }
  doc.paths = replace(doc.paths);
}

/**
 * The request budget of the key that made the request (the IETF httpapi "RateLimit header fields"
 * draft's names). Sent with every answer to a valid key; a 429 for a key that failed verification
 * (too many from its address) carries `retry-after` only.
 */
const RATE_LIMIT_HEADERS: Json = {
  'ratelimit-limit': {
    description:
      'Requests a minute this key may make on this gateway (`SWITCH_RATE_LIMIT_PER_MINUTE`, divided among the gateway replicas).',
    schema: { type: 'integer', minimum: 1 },
  },
  'ratelimit-remaining': {
    description: 'Requests this key has left in the current minute.',
    schema: { type: 'integer', minimum: 0 },
  },
  'ratelimit-reset': {
    description: 'Seconds until the current minute ends and the budget is whole again.',
    schema: { type: 'integer', minimum: 1 },
  },
};
const RETRY_AFTER_HEADER: Json = {
  description: 'Seconds to wait before retrying (until the current one-minute window ends).',
  schema: { type: 'integer', minimum: 1 },
};

const MONEY_OPERATIONS = new Set(['cobrarToken', 'cobrar', 'pagar', 'reverso']);

function decorateOperation(operation: Json): void {
  const id = operation.operationId as string | undefined;
  const examples: OperationExamples | undefined = id ? OPERATION_EXAMPLES[id] : undefined;
  const responses = (operation.responses ?? {}) as Record<string, Json>;
  // The success answer: 200, or 201/202 for a route that creates or queues.
  const ok = Object.entries(responses).find(([status]) => /^2\d\d$/.test(status))?.[1];
  if (examples?.request) {
    const media = ((operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.['application/json'];
    if (media) media.examples = examples.request;
  }
  for (const parameter of (operation.parameters ?? []) as Json[]) {
    const example = examples?.parameters?.[parameter.name as string];
    if (example !== undefined) parameter.example = example;
  }
  // JSON, or the CSV of an export.
  const okContent = ok?.content as Record<string, Json> | undefined;
  const okMedia = okContent?.['application/json'] ?? okContent?.['text/csv'];
  if (okMedia && examples) okMedia.examples = examples.response;
  // Every answer to a valid key states its request budget; a 429 says when to come back.
  if (ok && responses['401']) ok.headers = { ...RATE_LIMIT_HEADERS };
  const limited = responses['429'];
  if (limited) limited.headers = { 'retry-after': RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS };
  if (ok && id && MONEY_OPERATIONS.has(id)) {
    ok.headers = {
      ...(ok.headers as Json | undefined),
      [REPLAYED_HEADER]: {
        description:
          'Present (`true`) when this answer is a replay: the idempotency_key was already used by an earlier request with the same body, and this is that operation (no new one was created). Absent on the first answer.',
        schema: { type: 'string', enum: ['true'] },
      },
    };
  }
}

const ESTADO_DEL_EVENTO = {
  'transaccion.aprobada': 'ACEPTADA',
  'transaccion.liquidada': 'LIQUIDADA',
  'transaccion.rechazada': 'RECHAZADA',
};
const WEBHOOK_SUMMARY = {
  'transaccion.aprobada': 'A transaction entered ACEPTADA',
  'transaccion.liquidada': 'A transaction entered LIQUIDADA',
  'transaccion.rechazada': 'A transaction entered RECHAZADA',
};
const OPERATION_ID = {
  'transaccion.aprobada': 'eventoTransaccionAprobada',
  'transaccion.liquidada': 'eventoTransaccionLiquidada',
  'transaccion.rechazada': 'eventoTransaccionRechazada',
};

const SIGNATURE_SCHEME = [
  'Each delivery is signed twice with the endpoint secret given at registration (`whsec_` followed by base64); verify either, over the RAW body bytes as received, comparing in constant time:',
  '1. `x-service-signature: sha256=<hex>`: lowercase hex HMAC-SHA256 of the raw body, keyed with the secret exactly as issued (SPEC 6).',
  '2. Standard Webhooks (https://www.standardwebhooks.com): `webhook-signature: v1,<base64>` is the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the secret as that specification defines it; reject a `webhook-timestamp` outside your tolerance (e.g. 5 minutes) to refuse replays. Its libraries verify these headers.',
  'Answer 2xx quickly. Any other answer, or none within the timeout, is retried: immediately, then after 30 s, 2 min, 5 min, 15 min and 1 h (6 attempts), with the same body bytes and `webhook-id`. The same state change may arrive more than once: deduplicate by `data.id` + `type` (or by `webhook-id`).',
].join('\n\n');

function webhooks(): Json {
  const header = (name: string, description: string, schema: Json, example: string): Json => ({
    name,
    in: 'header',
    required: true,
    description,
    schema,
    example,
  });
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event,
      {
        post: {
          operationId: OPERATION_ID[event],
          tags: ['webhooks'],
          summary: WEBHOOK_SUMMARY[event],
          description: `Sent to each endpoint subscribed to \`${event}\` when one of your transactions, in the endpoint's mode, enters ${ESTADO_DEL_EVENTO[event]}. Token operations send it too (\`data.operacion\` names the operation kind).\n\n${SIGNATURE_SCHEME}`,
          security: [],
          parameters: [
            header('x-service-event', "The event, the body's `type`", { type: 'string', enum: [event] }, event),
            header(
              'x-service-signature',
              '`sha256=` + lowercase hex HMAC-SHA256 of the raw body with the endpoint secret',
              { type: 'string', pattern: '^sha256=[0-9a-f]{64}$' },
              'sha256=5e2bf0e8e1bd9d5c21a6c0a0b1b94f1a3d6a2f2c4b7e1f0a9c8d7e6f5a4b3c2d',
            ),
            header(
              'webhook-id',
              'Id of the delivery, the same on every attempt (Standard Webhooks)',
              { type: 'string' },
              'msg_2b7e1f0a9c8d7e6f',
            ),
            header(
              'webhook-timestamp',
              'Seconds since the Unix epoch when this attempt was signed (Standard Webhooks)',
              { type: 'string', pattern: '^[0-9]+$' },
              '1795532578',
            ),
            header(
              'webhook-signature',
              'Space-separated `v1,<base64 signature>` entries (Standard Webhooks)',
              { type: 'string' },
              'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
            ),
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { $ref: '#/components/schemas/WebhookEvento' },
                examples: {
                  [OPERATION_ID[event]]: {
                    summary: `${event} of a pago móvil payout`,
                    value: {
                      type: event,
                      sentAt: '2026-11-24T15:02:58.123Z',
                      data: {
                        id: 'txn_5d7f9b1d3f5a7c9e1b3d5f7a9c1e3b5d',
                        estado: ESTADO_DEL_EVENTO[event],
                        monto: 150.5,
                        moneda: 'VES',
                        concepto: 'Pago a proveedor',
                        banco: 'bnc',
                        referencia: 'TEST-6f1c8a52',
                        operacion: 'pagar',
                      },
                    },
                  },
                },
              },
            },
          },
          responses: {
            '200': { description: 'Received: any 2xx acknowledges the delivery' },
            '400': { description: 'Not accepted (e.g. the signature did not verify): any non-2xx answer is retried on the schedule' },
          },
        },
      },
    ]),
  );
}

const EXPECTED_EVENT: Record<EventoEsperado, { operationId: string; estado: string; summary: string }> = {
  'cobro_esperado.recibido': {
    operationId: 'eventoCobroEsperadoRecibido',
    estado: 'RECIBIDO',
    summary: 'An expected payment was paid in full',
  },
  'cobro_esperado.pago_parcial': {
    operationId: 'eventoCobroEsperadoPagoParcial',
    estado: 'PAGO_PARCIAL',
    summary: 'Part of an expected payment arrived (sent again on each further part)',
  },
  'cobro_esperado.sobrepago': {
    operationId: 'eventoCobroEsperadoSobrepago',
    estado: 'SOBREPAGO',
    summary: 'More than an expected payment arrived',
  },
  'cobro_esperado.vencido': {
    operationId: 'eventoCobroEsperadoVencido',
    estado: 'VENCIDO',
    summary: 'An expected payment expired with nothing received',
  },
};

/**
 * The events of expected payments: the same envelope (`type`, `sentAt`, `data`), signatures and retry
 * schedule as the transaction events, `data` the expected payment as GET /cobros/esperados/{id} answers it.
 */
function expectedPaymentWebhooks(): Json {
  // The transaction events' headers, the event's name in `x-service-event`.
  const headers = ((Object.values(webhooks())[0] as Json).post as Json).parameters as Json[];
  const headersOf = (event: string) =>
    headers.map((h) => (h.name === 'x-service-event' ? { ...h, schema: { type: 'string', enum: [event] }, example: event } : h));
  return Object.fromEntries(
    EVENTOS_ESPERADO.map((event) => {
      const e = EXPECTED_EVENT[event];
      return [
        event,
        {
          post: {
            operationId: e.operationId,
            tags: ['webhooks'],
            summary: e.summary,
            description: `Sent to each active endpoint of your mode when one of your expected payments (POST /cobros/esperados) enters ${e.estado}; every endpoint gets these, whatever transaction events it subscribed to.\n\n${SIGNATURE_SCHEME}`,
            security: [],
            parameters: headersOf(event),
            requestBody: {
              required: true,
              content: {
                'application/json': {
                  schema: { $ref: '#/components/schemas/WebhookCobroEsperado' },
                  examples: {
                    [e.operationId]: {
                      summary: `${event} of an order`,
                      value: {
                        type: event,
                        sentAt: '2026-11-24T15:02:58.123Z',
                        // The sandbox's example payment (services/gateway/src/sandbox.ts) as it would be in this state.
                        data: {
                          ...exampleExpected('test', EXAMPLE_EXPECTED_ID),
                          id: 'esp_5d7f9b1d3f5a7c9e1b3d5f7a',
                          estado: e.estado,
                          recibido: e.estado === 'VENCIDO' ? 0 : e.estado === 'PAGO_PARCIAL' ? 200 : e.estado === 'SOBREPAGO' ? 300 : 250.5,
                          vence_en: '2026-11-24T18:00:00.000Z',
                          movimientos: [],
                          historial: [],
                        },
                      },
                    },
                  },
                },
              },
            },
            responses: {
              '200': { description: 'Received: any 2xx acknowledges the delivery' },
              '400': { description: 'Not accepted (e.g. the signature did not verify): any non-2xx answer is retried on the schedule' },
            },
          },
        },
      ];
    }),
  );
}
