import { Type, type Static } from '@sinclair/typebox';
import { CodigoBanco, Identificacion, Instrumento, NumeroTelefono, Monto } from './fields';

/** POST /switch/v1/sandbox/pago-movil-entrante (test keys only): make a payer's pago móvil arrive. */
export const PagoMovilEntranteBody = Type.Object({
  monto: Monto,
  banco_pagador: Type.String({ ...CodigoBanco, description: "The payer's bank, 4-digit central bank code" }),
  telefono_pagador: Type.String({ ...NumeroTelefono, description: "The payer's phone (11 digits, leading 0)" }),
  identificacion_pagador: Type.Optional(Type.String({ ...Identificacion, description: "The payer's id (V12345678)" })),
  /** The merchant's receiving account or pago móvil phone: the same `cobrador` a verification names. */
  cobrador: Instrumento,
  fecha: Type.Optional(
    Type.String({ format: 'date', description: 'The day the payer sends it (Caracas), default today; not in the future' }),
  ),
  hora: Type.Optional(
    Type.String({
      pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
      description: 'HH:MM the payer sends it (Caracas), default now; from 23:30 on, the bank books it the next day',
    }),
  ),
});
export type PagoMovilEntranteBody = Static<typeof PagoMovilEntranteBody>;

/** What the payer sees on their receipt, and where the receiving bank booked it. */
export const PagoMovilEntrante = Type.Object({
  referencia: Type.String({ description: "The reference on the payer's receipt (12 digits)" }),
  fecha: Type.String({ format: 'date', description: "The day on the payer's receipt" }),
  hora: Type.String({ description: "HH:MM on the payer's receipt" }),
  monto: Type.Number(),
  banco: Type.String({ description: 'The receiving bank that booked it (its routing id)' }),
  cuenta: Type.String({ description: 'The receiving account it was booked on' }),
  fecha_banco: Type.String({ format: 'date', description: 'The day the receiving bank booked it' }),
});
export type PagoMovilEntrante = Static<typeof PagoMovilEntrante>;
