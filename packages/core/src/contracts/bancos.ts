import { literals } from './fields';
import { Type, type Static } from '@sinclair/typebox';
import { BANCOS, CAPABILITIES } from '../bancos';
import { ESTADOS } from '../estados';
import { MOTIVOS_RECHAZO } from '../estados';
import { NumeroCuenta } from './fields';

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
