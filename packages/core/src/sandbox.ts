import type { BancoId } from './contracts/bancos';
import type { EstadoTransaccion, MotivoRechazo } from './estados';

/**
 * The test-mode sandbox's promise to merchants: the cents of `monto.valor` pick an outcome when the
 * request names a bank in `banco_preferido` and that bank's test route answers through its emulator
 * (`npm start`, `npm run stack`, the Kubernetes test overlay: `SWITCH_SANDBOX_BANKS`). Each bank's
 * emulator implements its rows (`services/bank-*\/emulator/`, "Magic values"); the outcome reaches the
 * merchant through the bank's real connector and code table. `test/banks/sandbox.test.ts` runs every
 * row end to end through the REST API. Without `banco_preferido`, test mode routes to `bnc`, the
 * simulated bank, which no amount changes (SPEC 4.10.4).
 */

export type SandboxBank = 'banco_plaza' | 'bancaribe' | 'banco_activo';
export const SANDBOX_BANKS: readonly SandboxBank[] = ['banco_plaza', 'bancaribe', 'banco_activo'];

export interface SandboxValue {
  /** The last two digits of `monto.valor` (`"51"`: 10.51, 1250.51 …). */
  centavos: string;
  /** The request that shows it: a payout by crédito inmediato to an account, a collection, or its token step. */
  operacion: 'pagar' | 'cobrar' | 'cobrar/token';
  /** The first answer's `estado`. */
  estado: EstadoTransaccion;
  /** Where it ends (through `/consultar` or the reconciler), when the first answer is not final. */
  final: EstadoTransaccion | null;
  /** `motivo_rechazo` of the RECHAZADA it shows. */
  motivo_rechazo: MotivoRechazo | null;
  descripcion: string;
}

const rechazo = (centavos: string, motivo: MotivoRechazo, descripcion: string, operacion: SandboxValue['operacion'] = 'pagar') => ({
  centavos,
  operacion,
  estado: 'RECHAZADA' as const,
  final: null,
  motivo_rechazo: motivo,
  descripcion,
});
const tardio = (centavos: string, motivo: MotivoRechazo, descripcion: string): SandboxValue => ({
  centavos,
  operacion: 'pagar',
  estado: 'ACEPTADA',
  final: 'RECHAZADA',
  motivo_rechazo: motivo,
  descripcion: `ACEPTADA, then RECHAZADA at settlement: ${descripcion}`,
});

/** The same three on every bank: an unknown outcome that resolves either way, and a slow settlement. */
const COMUNES: SandboxValue[] = [
  {
    centavos: '81',
    operacion: 'pagar',
    estado: 'DESCONOCIDA',
    final: 'LIQUIDADA',
    motivo_rechazo: null,
    descripcion:
      'The bank executes the order and the connection is cut before it answers: DESCONOCIDA; it settles, and /consultar (or the reconciler) finds it LIQUIDADA. Never resend it with a new key',
  },
  {
    centavos: '82',
    operacion: 'pagar',
    estado: 'DESCONOCIDA',
    final: 'RECHAZADA',
    motivo_rechazo: 'SALDO_INSUFICIENTE',
    descripcion:
      'The bank takes the order and the connection is cut: DESCONOCIDA; the interbank settlement then fails (AM04) and /consultar finds it RECHAZADA. A crédito inmediato; on pago móvil it settles like 81',
  },
  {
    centavos: '83',
    operacion: 'pagar',
    estado: 'ACEPTADA',
    final: 'LIQUIDADA',
    motivo_rechazo: null,
    descripcion:
      'Slow settlement: ACEPTADA, and LIQUIDADA only after SWITCH_EMULATOR_SLOW_SETTLE_MS (default 60 s) instead of the usual few seconds',
  },
];

export const SANDBOX: Readonly<Record<SandboxBank, readonly SandboxValue[]>> = {
  banco_plaza: [
    rechazo('51', 'SALDO_INSUFICIENTE', 'Refused at once, code 0051'),
    rechazo('13', 'MONTO_INVALIDO', 'Refused at once, code 0013'),
    rechazo('30', 'RECHAZO_TECNICO', 'Refused at once, code 0030 (format error at the bank)'),
    rechazo('56', 'NO_AFILIADO_SERVICIO', 'Refused at once, code 0056'),
    rechazo('61', 'EXCEDE_LIMITE', 'Refused at once, code 0061'),
    rechazo('44', 'CUENTA_BLOQUEADA', 'Refused at once, RJCT AC06'),
    rechazo('45', 'FUERA_DE_HORARIO', 'Refused at once, RJCT DT03'),
    rechazo('46', 'CANCELADA_POR_PAGADOR', 'Refused at once, RJCT CUST'),
    rechazo('47', 'DESCONOCIDO', 'Refused at once with a reason the CCE does not describe, RJCT MD15'),
    rechazo('55', 'OTP_INVALIDO', 'The débito inmediato is refused, code 0055 (the token step accepts the amount)', 'cobrar'),
    rechazo(
      '91',
      'BANCO_NO_DISPONIBLE',
      'Not processed, code 0091: a collection is RECHAZADA; a payout is rerouted to the next bank (see banco_usado)',
      'cobrar/token',
    ),
    tardio('41', 'CUENTA_NO_EXISTE', 'AC01'),
    tardio('42', 'SALDO_INSUFICIENTE', 'AM04'),
    tardio('43', 'BENEFICIARIO_NO_COINCIDE', 'BE01'),
    ...COMUNES,
  ],
  bancaribe: [
    rechazo('51', 'SALDO_INSUFICIENTE', 'Refused at once, codigoError 51'),
    rechazo('13', 'MONTO_INVALIDO', 'Refused at once, codigoError 13'),
    rechazo('56', 'NO_AFILIADO_SERVICIO', 'Refused at once, codigoError 56'),
    rechazo('61', 'EXCEDE_LIMITE', 'Refused at once, codigoError 61'),
    rechazo('05', 'OTP_INVALIDO', 'The C2P is refused, codigoError 5', 'cobrar'),
    rechazo(
      '91',
      'BANCO_NO_DISPONIBLE',
      'Not processed, codigoError 91: a collection is RECHAZADA; a payout is rerouted to the next bank (see banco_usado)',
      'cobrar',
    ),
    tardio('71', 'CUENTA_NO_EXISTE', 'AC01'),
    tardio('73', 'CUENTA_BLOQUEADA', 'AC06'),
    tardio('74', 'BENEFICIARIO_NO_COINCIDE', 'BE01'),
    tardio('75', 'EXCEDE_LIMITE', 'AM02'),
    tardio('76', 'BANCO_NO_DISPONIBLE', 'AG10'),
    tardio('78', 'SALDO_INSUFICIENTE', 'AM04'),
    tardio('79', 'RECHAZO_TECNICO', 'VE01'),
    tardio('84', 'FUERA_DE_HORARIO', 'DT03'),
    tardio('85', 'CANCELADA_POR_PAGADOR', 'CUST'),
    tardio('86', 'DESCONOCIDO', 'MD15'),
    ...COMUNES,
  ],
  banco_activo: [
    rechazo('51', 'SALDO_INSUFICIENTE', 'Refused at once, 422 AM04'),
    rechazo('53', 'NO_AFILIADO_SERVICIO', 'Refused at once, code 412'),
    rechazo('54', 'EXCEDE_LIMITE', 'Refused at once, code 413'),
    rechazo('55', 'CUENTA_NO_EXISTE', 'Refused at once, 422 AC01'),
    rechazo('59', 'CUENTA_BLOQUEADA', 'Refused at once, 422 AC06'),
    rechazo('64', 'MONTO_INVALIDO', 'Refused at once, code 406'),
    rechazo('65', 'BENEFICIARIO_NO_COINCIDE', 'Refused at once, code 416'),
    rechazo('66', 'FUERA_DE_HORARIO', 'Refused at once, code 418'),
    rechazo('67', 'CANCELADA_POR_PAGADOR', 'Refused at once, 422 CUST'),
    rechazo('68', 'DESCONOCIDO', 'Refused at once with a reason the CCE does not describe, 422 MD15'),
    rechazo('52', 'OTP_INVALIDO', 'The débito inmediato is refused, code 410 (the token step accepts the amount)', 'cobrar'),
    rechazo(
      '56',
      'BANCO_NO_DISPONIBLE',
      'Not processed, code 503: a collection is RECHAZADA; a payout is rerouted to the next bank (see banco_usado)',
      'cobrar/token',
    ),
    tardio('61', 'SALDO_INSUFICIENTE', 'AM04'),
    tardio('62', 'CUENTA_NO_EXISTE', 'AC01'),
    tardio('63', 'BANCO_NO_DISPONIBLE', 'AB07'),
    ...COMUNES,
  ],
};

/** SPEC 7.2 reasons no test-mode amount provokes, and why (docs/sandbox.md). */
export const SANDBOX_NOT_BY_AMOUNT: Readonly<Partial<Record<MotivoRechazo, string>>> = {
  FIRMA_AUTH: 'a credential problem of the switch with the bank, not of one request',
  NO_SOPORTADO: 'a /reverso of an operation whose rail has no cancellation',
  BLOQUEO_RIESGO: 'the risk engine evaluates live money only (SPEC 4.10.5)',
  DUPLICADA:
    'a bank refusing the switch’s own reference as a duplicate makes the switch ask for the original (DESIGN money-safety rule 3), so it shows as DESCONOCIDA, never RECHAZADA; a repeated idempotency_key returns the original result instead',
  PENDIENTE_BCV: 'no bank code of these three maps to it',
  CUENTA_NO_DEBITO: 'no bank code of these three maps to it',
  CUENTA_NO_CREDITO: 'no bank code of these three maps to it',
};

/** The sandbox rows of a bank, when its test route is an emulator here. */
export function sandboxFor(banco: BancoId, sandboxBanks: readonly BancoId[]): readonly SandboxValue[] | null {
  return sandboxBanks.includes(banco) && (SANDBOX_BANKS as readonly string[]).includes(banco) ? SANDBOX[banco as SandboxBank] : null;
}
