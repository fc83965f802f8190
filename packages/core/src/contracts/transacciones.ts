import { Type, type Static } from '@sinclair/typebox';
import { BANCOS } from './bancos';
import { OPERATION_KINDS, EstadoSchema, Resultado } from './operaciones';
import { literals } from './fields';

/** The wire shapes of a merchant's transaction list and detail (GET /switch/v1/transacciones and the panel). */

const Fecha = (description: string) => Type.String({ format: 'date', description });
export const TRANSACTION_PAGE_DEFAULT = 20;
export const TRANSACTION_PAGE_MAX = 100;

/** Query strings are not coerced (the gateway's validator), so `limite` is a digit string. */
export const TransaccionesQuery = Type.Object(
  {
    operacion: Type.Optional(literals(OPERATION_KINDS, { description: 'Operation kind' })),
    estado: Type.Optional(EstadoSchema),
    banco: Type.Optional(literals(BANCOS, { description: 'banco_usado (routing id)' })),
    desde: Type.Optional(Fecha('First day, YYYY-MM-DD (Venezuelan calendar day, UTC-4), inclusive')),
    hasta: Type.Optional(Fecha('Last day, YYYY-MM-DD (Venezuelan calendar day, UTC-4), inclusive; not before `desde`')),
    id: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$', description: 'One transaction id' })),
    idempotency_key: Type.Optional(Type.String({ format: 'uuid', description: 'The idempotency_key of the operation' })),
    limite: Type.Optional(
      Type.String({ pattern: '^([1-9][0-9]?|100)$', description: `Page size, 1 to ${TRANSACTION_PAGE_MAX} (default 20)` }),
    ),
    cursor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,200}$', description: '`siguiente` of the previous page' })),
  },
  { additionalProperties: false },
);
export type TransaccionesQuery = Static<typeof TransaccionesQuery>;

/** One line of the list: enough to find an operation; the detail has the rest. */
export const TransaccionResumen = Type.Object({
  id: Type.String(),
  operacion: literals(OPERATION_KINDS),
  estado: EstadoSchema,
  banco_usado: Type.Union([literals(BANCOS), Type.Null()]),
  monto: Type.Number(),
  moneda: Type.String(),
  concepto: Type.Union([Type.String(), Type.Null()]),
  contraparte: Type.Union([Type.String(), Type.Null()], {
    description:
      'Who paid (cobrar, token: the pagador) or was paid (pagar: the beneficiario): their nombre, else their account or phone; null for a reverso',
  }),
  idempotency_key: Type.String(),
  referencia_banco: Type.Union([Type.String(), Type.Null()]),
  motivo_rechazo: Type.Union([Type.String(), Type.Null()]),
  creada: Type.String({ description: 'ISO 8601 UTC' }),
  actualizada: Type.String({ description: 'ISO 8601 UTC' }),
});
export type TransaccionResumen = Static<typeof TransaccionResumen>;

export const TransaccionesPage = Type.Object({
  transacciones: Type.Array(TransaccionResumen),
  siguiente: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' }),
});
export type TransaccionesPage = Static<typeof TransaccionesPage>;

/** The detail: the Resultado, what was asked, the state history with causes, the bank's answers and evidence. */
export const TransaccionDetalle = Type.Object({
  resultado: Resultado,
  operacion: literals(OPERATION_KINDS),
  idempotency_key: Type.String(),
  solicitud: Type.Record(Type.String(), Type.Unknown(), {
    description: "The request body as accepted, without a cobrar's `otp` (never shown nor kept in clear)",
  }),
  historial: Type.Array(
    Type.Object({
      desde: Type.Union([EstadoSchema, Type.Null()]),
      hacia: EstadoSchema,
      en: Type.String(),
      causa: Type.String(),
      motivo: Type.Union([Type.String(), Type.Null()]),
      raw: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
    }),
  ),
  intentos: Type.Array(
    Type.Object({
      n: Type.Integer(),
      banco: Type.String(),
      via: Type.String(),
      enviado: Type.String(),
      resultado: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  evidencia: Type.Array(Type.Object({ en: Type.String(), resultado: Type.String(), raw: Type.Record(Type.String(), Type.Unknown()) })),
  creada: Type.String(),
  actualizada: Type.String(),
  reverso: Type.Optional(
    Type.String({ description: "The id of this operation's reverso, when it has one (an operation has at most one)" }),
  ),
  reverso_de: Type.Optional(Type.String({ description: 'A reverso: the id of the operation it reverses' })),
});
export type TransaccionDetalle = Static<typeof TransaccionDetalle>;
