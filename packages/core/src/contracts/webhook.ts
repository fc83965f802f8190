import { Type, type Static } from '@sinclair/typebox';
import { EstadoSchema } from './resultado';
import { OPERATION_KINDS } from '../operation';

export const WEBHOOK_EVENTS = ['transaccion.aprobada', 'transaccion.liquidada', 'transaccion.rechazada'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Body of each webhook delivery (SPEC 6); `operacion` is the extra field naming the operation kind. */
export const WebhookBody = Type.Object({
  type: Type.Union(WEBHOOK_EVENTS.map((e) => Type.Literal(e))),
  sentAt: Type.String({ description: 'ISO 8601 UTC with milliseconds' }),
  data: Type.Object({
    id: Type.String(),
    estado: EstadoSchema,
    monto: Type.Number(),
    moneda: Type.String(),
    concepto: Type.String(),
    banco: Type.Union([Type.String(), Type.Null()]),
    referencia: Type.Union([Type.String(), Type.Null()]),
    operacion: Type.Union(OPERATION_KINDS.map((k) => Type.Literal(k))),
    reverso_de: Type.Optional(
      Type.String({
        description:
          "Only when `operacion` is `reverso`: the id of the operation reversed; `monto` is the amount moved back and `referencia` the reverso's own bank reference",
      }),
    ),
  }),
});
export type WebhookBody = Static<typeof WebhookBody>;

/** The event a state entry announces; other states (PENDIENTE, ERROR, DESCONOCIDA) send none. */
export const EVENT_FOR_STATE: Partial<Record<Static<typeof EstadoSchema>, WebhookEvent>> = {
  ACEPTADA: 'transaccion.aprobada',
  LIQUIDADA: 'transaccion.liquidada',
  RECHAZADA: 'transaccion.rechazada',
};

/**
 * The webhook an announced write calls for: an entry into a state that has one, with its result
 * (the fields of a transaction event that decide it).
 */
export function webhookEventOf(event: {
  transition: { to: Static<typeof EstadoSchema> } | null;
  resultado: object | null;
}): WebhookEvent | undefined {
  return event.transition && event.resultado ? EVENT_FOR_STATE[event.transition.to] : undefined;
}
