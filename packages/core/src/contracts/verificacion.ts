import { Type, type Static } from '@sinclair/typebox';
import { BANCOS } from './bancos';
import { MOTIVOS_RECHAZO } from '../estados';
import { CodigoBanco, Identificacion, Instrumento, NumeroTelefono, literals, Monto } from './fields';
import { IdempotencyKey } from './operaciones';

const Fecha = Type.String({ format: 'date', description: 'YYYY-MM-DD, the day the payer sees on the receipt (Caracas time)' });

/** POST /switch/v1/cobros/verificar: a pago móvil the payer says they sent to the merchant. */
export const VerificarBody = Type.Object({
  idempotency_key: IdempotencyKey,
  monto: Monto,
  banco_pagador: Type.String({ ...CodigoBanco, description: "The payer's bank, 4-digit central bank code" }),
  telefono_pagador: Type.Optional(
    Type.String({ ...NumeroTelefono, description: "The payer's phone (11 digits, leading 0); this or identificacion_pagador" }),
  ),
  identificacion_pagador: Type.Optional(
    Type.String({ ...Identificacion, description: "The payer's id (V12345678); this or telefono_pagador" }),
  ),
  referencia: Type.String({
    pattern: '^[0-9]{4,20}$',
    description:
      "The reference as the payer's receipt shows it, 4 to 20 digits (the last digits are enough: each bank's minimum in docs/pago-movil.md)",
  }),
  fecha: Fecha,
  /** Where the payment went: the merchant's receiving account (tipo cuenta) or pago móvil phone (tipo telefono); live: a registered one. */
  cobrador: Instrumento,
});
export type VerificarBody = Static<typeof VerificarBody>;

export const ESTADOS_VERIFICACION = ['VERIFICADO', 'MONTO_DISTINTO', 'NO_ENCONTRADO', 'YA_RECLAMADO', 'RECHAZADA'] as const;
export type EstadoVerificacion = (typeof ESTADOS_VERIFICACION)[number];

/** The movement a verification found, as the receiving bank booked it. */
export const MovimientoVerificado = Type.Object({
  referencia: Type.String({ description: 'As the receiving bank books it (some keep only the last digits)' }),
  fecha: Type.String({ format: 'date', description: 'The bank booking day (Caracas); the next day for a late-night payment' }),
  hora: Type.Union([Type.String(), Type.Null()]),
  monto: Type.Number(),
});

/** The answer of a verification. */
export const Verificacion = Type.Object({
  id: Type.String({ description: 'The verification, `ver_…`: the same for every repeat of the request under its idempotency_key' }),
  estado: literals(ESTADOS_VERIFICACION, {
    description:
      'VERIFICADO: found, amount and payer match, and the movement is now claimed by this verification. MONTO_DISTINTO: found with another amount (`monto_recibido`). NO_ENCONTRADO: not in the statement (yet): ask again after `reintentar_despues` (null: it will not appear). YA_RECLAMADO: another verification or expected payment holds that movement (`reclamado_por`). RECHAZADA: the bank could not be asked (`motivo_rechazo`)',
  }),
  banco: Type.Union([literals(BANCOS), Type.Null()], { description: 'The receiving bank that was asked' }),
  monto_declarado: Type.Number({ description: 'The amount of the request' }),
  monto_recibido: Type.Union([Type.Number(), Type.Null()], {
    description: 'The amount the bank booked (VERIFICADO, MONTO_DISTINTO, YA_RECLAMADO)',
  }),
  movimiento: Type.Union([MovimientoVerificado, Type.Null()]),
  reintentar_despues: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'NO_ENCONTRADO: when to ask again' }),
  reclamado_por: Type.Union(
    [
      Type.Object({
        tipo: Type.Union([Type.Literal('verificacion'), Type.Literal('esperado')]),
        id: Type.String(),
      }),
      Type.Null(),
    ],
    { description: 'YA_RECLAMADO: the verification or expected payment that holds the movement' },
  ),
  motivo_rechazo: Type.Union([literals(MOTIVOS_RECHAZO), Type.Null()], { description: 'RECHAZADA: why the bank could not be asked' }),
  verificado_en: Type.String({ format: 'date-time' }),
});
export type Verificacion = Static<typeof Verificacion>;
