import { Type, type Static } from '@sinclair/typebox';
import { literals, CodigoBanco, NumeroCuenta } from './fields';
import { ESTADOS, MOTIVOS_RECHAZO } from '../estados';

/** Bank routing identifiers (SPEC 2.3 `banco_preferido`, 2.4 `banco_usado`). */
export const BANCOS = ['banco_plaza', 'bnc', 'bancaribe', 'banco_activo'] as const;
export type BancoId = (typeof BANCOS)[number];

/** Central-bank codes of the banks the switch routes through. */
export const CODIGO_BCV: Readonly<Record<BancoId, string>> = {
  banco_plaza: '0138',
  bnc: '0191',
  bancaribe: '0114',
  banco_activo: '0171',
};

/** What a bank can do for the switch (SPEC 2.5), plus `reverso` which the catalogue does not list. */
export const CAPABILITIES = ['cobrar', 'pagar', 'token', 'consultar', 'saldo', 'movimientos'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export type Mode = 'test' | 'live';
export const MODES: readonly Mode[] = ['test', 'live'];

export function isBancoId(value: string): value is BancoId {
  return (BANCOS as readonly string[]).includes(value);
}

/** One magic amount of the test-mode sandbox (packages/core/src/sandbox.ts). */
export const SandboxValor = Type.Object({
  centavos: Type.String({ pattern: '^[0-9]{2}$', description: 'The last two digits of `monto.valor` (`51`: 10.51, 1250.51 …)' }),
  operacion: Type.Union([Type.Literal('pagar'), Type.Literal('cobrar'), Type.Literal('cobrar/token')], {
    description: 'The request that shows it (`pagar`: a crédito inmediato to an account)',
  }),
  estado: literals(ESTADOS),
  final: Type.Union([literals(ESTADOS), Type.Null()], { description: 'Where it ends through /consultar, when `estado` is not final' }),
  motivo_rechazo: Type.Union([literals(MOTIVOS_RECHAZO), Type.Null()]),
  descripcion: Type.String(),
});

/** Entry of GET /switch/v1/bancos (SPEC 2.5). */
export const BancoCatalogo = Type.Object({
  banco: literals(BANCOS),
  capabilities: Type.Array(literals(CAPABILITIES)),
  sandbox: Type.Optional(
    Type.Array(SandboxValor, {
      description:
        'Test mode only, for a bank whose test route answers through its emulator: the magic amounts that provoke each outcome when `banco_preferido` names this bank',
    }),
  ),
});
export type BancoCatalogo = Static<typeof BancoCatalogo>;

const Fecha = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const Importe = Type.Number({ description: 'Amount in the account currency, 2 decimals' });

export const SaldoQuery = Type.Object({
  cuenta: NumeroCuenta,
  moneda: Type.Optional(Type.Literal('VES', { default: 'VES' })),
});
export type SaldoQuery = Static<typeof SaldoQuery>;

/** GET /saldo body (left open by SPEC 4.6): what a treasurer reconciles against. */
export const Saldo = Type.Object({
  cuenta: Type.String(),
  banco: literals(BANCOS),
  moneda: Type.Literal('VES'),
  disponible: Importe,
  contable: Importe,
  bloqueado: Importe,
  consultado_en: Type.String({ format: 'date-time', description: 'When the bank gave the figures (UTC)' }),
  raw: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type Saldo = Static<typeof Saldo>;

export const MovimientosQuery = Type.Object({
  cuenta: NumeroCuenta,
  desde: Fecha,
  hasta: Type.Optional(Fecha),
  limite: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'Page size' })),
  cursor: Type.Optional(Type.String({ maxLength: 200, description: 'Opaque cursor from a previous page' })),
});
export type MovimientosQuery = Static<typeof MovimientosQuery>;

export const Movimiento = Type.Object({
  fecha: Fecha,
  hora: Type.Union([Type.String({ pattern: '^[0-9]{2}:[0-9]{2}:[0-9]{2}$' }), Type.Null()]),
  referencia: Type.String(),
  concepto: Type.String(),
  tipo: Type.Union([Type.Literal('credito'), Type.Literal('debito')]),
  monto: Importe,
  saldo: Type.Union([Importe, Type.Null()], { description: 'Balance after the movement, when the bank gives it' }),
});
export type Movimiento = Static<typeof Movimiento>;

/** GET /movimientos body (left open by SPEC 4.7): one page of a statement, oldest first. */
export const Movimientos = Type.Object({
  cuenta: Type.String(),
  banco: literals(BANCOS),
  moneda: Type.Literal('VES'),
  desde: Fecha,
  hasta: Fecha,
  movimientos: Type.Array(Movimiento),
  siguiente: Type.Union([Type.String(), Type.Null()], { description: 'Cursor of the next page, null on the last' }),
});
export type Movimientos = Static<typeof Movimientos>;

const FechaCaracas = Type.String({ format: 'date', description: 'YYYY-MM-DD, Caracas time' });

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
  fecha: FechaCaracas,
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
  fecha: FechaCaracas,
  referencia: Type.Optional(Type.String({ pattern: '^[0-9]{1,20}$' })),
});
export type CreditosQuery = Static<typeof CreditosQuery>;
