import { Type, type Static } from '@sinclair/typebox';
import { BANCOS } from './bancos';
import { ESTADOS_ESPERADO } from '../esperados';
import { literals, CodigoBanco, Identificacion, Instrumento, NumeroCuenta, NumeroTelefono, Monto } from './fields';
import { Concepto, IdempotencyKey } from './operaciones';

export const EstadoEsperado = literals(ESTADOS_ESPERADO, {
  description:
    'ESPERADO (waiting), RECIBIDO (paid in full), PAGO_PARCIAL (less received: still open for the rest), SOBREPAGO (more received), VENCIDO (expired with nothing received)',
});

export const OrdenId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_.:/-]+$',
  description: "The merchant's own order id",
});

/** `POST /switch/v1/cobros/esperados`. */
export const CobroEsperadoRequest = Type.Object(
  {
    idempotency_key: IdempotencyKey,
    monto: Monto,
    concepto: Concepto,
    orden_id: OrdenId,
    cobrador: Instrumento,
    vence_en: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'ISO 8601 instant after which nothing is awaited; in the future, at most 30 days ahead (default: 24 hours after creation)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CobroEsperadoRequest = Static<typeof CobroEsperadoRequest>;

/** What to show the payer: everything their bank's pago móvil form asks for. */
export const InstruccionesPago = Type.Object({
  telefono: Type.Union([NumeroTelefono, Type.Null()], {
    description: "The merchant's pago móvil phone (null when the account has none: pay by transfer)",
  }),
  banco: CodigoBanco,
  cuenta: NumeroCuenta,
  rif: Type.Union([Identificacion, Type.Null()]),
  monto: Type.Number({ description: 'The exact amount to send, VES' }),
  concepto: Type.String({ description: 'The concept to write, code first: it names this order among payments of the same amount' }),
});

export const CambioEsperado = Type.Object({
  de: EstadoEsperado,
  a: EstadoEsperado,
  motivo: literals(['pago_exacto', 'pago_menor', 'pago_mayor', 'vencimiento'] as const),
  en: Type.String({ description: 'ISO 8601 UTC' }),
});

export const MovimientoRecibido = Type.Object({
  banco: literals(BANCOS),
  referencia: Type.String({ description: 'As the receiving bank booked it' }),
  fecha: Type.String({ format: 'date' }),
  monto: Type.Number(),
});

export const CobroEsperado = Type.Object({
  id: Type.String(),
  estado: EstadoEsperado,
  monto: Type.Number({ description: 'Amount awaited, VES' }),
  moneda: Type.Literal('VES'),
  recibido: Type.Number({ description: 'Sum of the credits matched so far, VES' }),
  concepto: Type.String(),
  orden_id: OrdenId,
  instrucciones: InstruccionesPago,
  vence_en: Type.String(),
  creado_en: Type.String(),
  actualizado_en: Type.String(),
  movimientos: Type.Array(MovimientoRecibido, { description: 'The credits that paid it, each claimed for this payment only' }),
  historial: Type.Array(CambioEsperado),
});
export type CobroEsperado = Static<typeof CobroEsperado>;

export const ESPERADOS_PAGE_MAX = 100;
export const CobrosEsperadosQuery = Type.Object(
  {
    estado: Type.Optional(EstadoEsperado),
    limite: Type.Optional(
      Type.String({ pattern: '^([1-9][0-9]?|100)$', description: `Page size, 1 to ${ESPERADOS_PAGE_MAX} (default 20)` }),
    ),
    cursor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,200}$', description: '`siguiente` of the previous page' })),
  },
  { additionalProperties: false },
);
export type CobrosEsperadosQuery = Static<typeof CobrosEsperadosQuery>;

export const CobrosEsperadosPage = Type.Object({
  cobros: Type.Array(CobroEsperado),
  siguiente: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' }),
});
export type CobrosEsperadosPage = Static<typeof CobrosEsperadosPage>;

export const EVENTOS_ESPERADO = [
  'cobro_esperado.recibido',
  'cobro_esperado.pago_parcial',
  'cobro_esperado.sobrepago',
  'cobro_esperado.vencido',
] as const;
export type EventoEsperado = (typeof EVENTOS_ESPERADO)[number];

/** The webhook body of an expected payment's change: the house envelope, the payment as GET answers it. */
export const WebhookEsperadoBody = Type.Object({
  type: literals(EVENTOS_ESPERADO),
  sentAt: Type.String({ description: 'ISO 8601 UTC with milliseconds' }),
  data: CobroEsperado,
});
export type WebhookEsperadoBody = Static<typeof WebhookEsperadoBody>;
