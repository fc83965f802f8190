import { Type, type Static } from '@sinclair/typebox';
import { BANCOS } from '../bancos';
import { literals } from './fields';
import { CodigoBanco, NumeroCuenta } from './fields';

const Fecha = Type.String({ format: 'date', description: 'YYYY-MM-DD, Caracas time' });

/** Who sent a credit, as far as the receiving bank tells it (each field null when it does not). */
export const Pagador = Type.Object({
  telefono: Type.Union([Type.String({ pattern: '^0[0-9]{10}$' }), Type.Null()], { description: '11-digit phone with leading 0' }),
  identificacion: Type.Union([Type.String({ pattern: '^[VEJGP][0-9]{1,9}$' }), Type.Null()]),
  banco: Type.Union([CodigoBanco, Type.Null()]),
});
export type Pagador = Static<typeof Pagador>;

/**
 * One credit to a merchant's account as the receiving bank reports it, normalised across banks:
 * `referencia` exactly as that bank writes it (some shorten the payer's reference to its last
 * digits), `fecha`/`hora` the bank's booking in Caracas time.
 */
export const CreditoRecibido = Type.Object({
  banco: literals(BANCOS),
  cuenta: Type.String(),
  referencia: Type.String(),
  fecha: Fecha,
  hora: Type.Union([Type.String({ pattern: '^[0-9]{2}:[0-9]{2}:[0-9]{2}$' }), Type.Null()]),
  monto: Type.Number({ description: 'VES, 2 decimals' }),
  concepto: Type.String(),
  pagador: Pagador,
});
export type CreditoRecibido = Static<typeof CreditoRecibido>;

/**
 * The credits of account `cuenta` booked on day `fecha` (Caracas time); with `referencia`, a bank that
 * can search its operations by reference (Banco Plaza) is asked for that one instead of the day's statement.
 */
export const CreditosQuery = Type.Object({
  cuenta: NumeroCuenta,
  fecha: Fecha,
  referencia: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$' })),
});
export type CreditosQuery = Static<typeof CreditosQuery>;
