import { Type, type Static } from '@sinclair/typebox';
import { literals } from './fields';
import { WEBHOOK_EVENTS } from './webhook';
import { EVENTOS_ESPERADO } from './esperados';

/** The wire shapes of a merchant's webhook endpoints and deliveries (merchant API and panel, SPEC 6.1, 6.5). */

export const WebhookUrl = Type.String({
  minLength: 8,
  maxLength: 2048,
  pattern: '^https?://',
  description: 'http(s) URL; https in live mode',
});
export const WebhookEvents = Type.Array(literals(WEBHOOK_EVENTS), { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true });

export const EndpointCreateBody = Type.Object(
  {
    url: WebhookUrl,
    events: Type.Optional(
      Type.Array(literals(WEBHOOK_EVENTS), {
        minItems: 1,
        maxItems: WEBHOOK_EVENTS.length,
        uniqueItems: true,
        description: 'Default: every event',
      }),
    ),
  },
  { additionalProperties: false },
);
export const EndpointUpdateBody = Type.Object(
  { events: Type.Optional(WebhookEvents), active: Type.Optional(Type.Boolean({ description: 'false disables the endpoint' })) },
  { additionalProperties: false, minProperties: 1 },
);

/** An endpoint as shown: never its secret (shown once, on creation and rotation). */
export const EndpointView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(literals(WEBHOOK_EVENTS)),
  active: Type.Boolean(),
  rotacion_hasta: Type.Union([Type.String(), Type.Null()], { description: 'Until when the previous secret still signs, after a rotation' }),
  creado: Type.String(),
});
export type EndpointView = Static<typeof EndpointView>;
export const EndpointWithSecret = Type.Object({
  ...EndpointView.properties,
  secret: Type.String({ description: 'whsec_…: shown only in this answer; verify x-service-signature with it' }),
});

/** The answer to deleting an endpoint. */
export const EndpointDeleted = Type.Object({ id: Type.String(), eliminado: Type.Literal(true) });

export const DeliveryView = Type.Object({
  id: Type.String(),
  endpoint_id: Type.String(),
  transaccion_id: Type.String(),
  evento: literals([...WEBHOOK_EVENTS, ...EVENTOS_ESPERADO] as const),
  url: Type.String(),
  estado: literals(['pending', 'delivered', 'exhausted'] as const),
  proximo_intento: Type.Union([Type.String(), Type.Null()]),
  intentos: Type.Array(
    Type.Object({
      n: Type.Integer(),
      en: Type.String(),
      codigo_http: Type.Union([Type.Integer(), Type.Null()]),
      latencia_ms: Type.Number(),
      error: Type.Union([Type.String(), Type.Null()], {
        description:
          'Why the attempt failed, as a category: `HTTP <status>` (your receiver answered), `destination refused`, `timeout`, `connection refused`, `connection closed`, `name not resolved`, `TLS error`, `connection failed`, `endpoint removed or inactive`',
      }),
    }),
  ),
  creada: Type.String(),
});
export type DeliveryView = Static<typeof DeliveryView>;
