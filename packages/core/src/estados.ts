/** Normalised rejection reasons, the same for every bank (SPEC 7.2). */
export const MOTIVOS_RECHAZO = [
  'SALDO_INSUFICIENTE',
  'OTP_INVALIDO',
  'CUENTA_NO_EXISTE',
  'CUENTA_BLOQUEADA',
  'CUENTA_NO_DEBITO',
  'CUENTA_NO_CREDITO',
  'MONTO_INVALIDO',
  'EXCEDE_LIMITE',
  'BENEFICIARIO_NO_COINCIDE',
  'NO_AFILIADO_SERVICIO',
  'BANCO_NO_DISPONIBLE',
  'DUPLICADA',
  'FUERA_DE_HORARIO',
  'CANCELADA_POR_PAGADOR',
  'PENDIENTE_BCV',
  'RECHAZO_TECNICO',
  'FIRMA_AUTH',
  'NO_SOPORTADO',
  'BLOQUEO_RIESGO',
  'DESCONOCIDO',
] as const;
export type MotivoRechazo = (typeof MOTIVOS_RECHAZO)[number];

/**
 * The one transition table (SPEC 3). Every state change of a transaction is checked here; nothing
 * else in the code base decides whether a move is allowed.
 */
export const ESTADOS = ['ACEPTADA', 'PENDIENTE', 'LIQUIDADA', 'RECHAZADA', 'ERROR', 'DESCONOCIDA'] as const;
export type EstadoTransaccion = (typeof ESTADOS)[number];

/** `null` is "(new)": the transaction exists but no outcome has been recorded yet. */
export type EstadoOrigen = EstadoTransaccion | null;

export const FINAL_STATES: ReadonlySet<EstadoTransaccion> = new Set(['LIQUIDADA', 'RECHAZADA']);

export type TransitionCause =
  | 'bank_outcome' // the bank answered the order
  | 'routing' // no capable bank: rejected before any bank was asked
  | 'risk' // live-mode controls
  | 'status_query' // settlement confirmed/refused by /consultar or the reconciler
  | 'order_deadline'; // the bank never answered the order within its deadline: it may have moved money

interface Move {
  readonly from: readonly EstadoOrigen[];
  readonly to: readonly EstadoTransaccion[];
  readonly causes: readonly TransitionCause[];
  readonly why: string;
}

/**
 * ERROR is in the contract's vocabulary (SPEC 3) but no move enters it: every case where nothing
 * reached a bank ends as RECHAZADA `BANCO_NO_DISPONIBLE` (or a payout is rerouted), and a switch
 * failure is retried until it passes, never shown as a state (docs/decisions/0010-states-and-error.md). SPEC 3 does not
 * show when PENDIENTE is entered; we enter it from ACEPTADA or DESCONOCIDA when the bank says "in
 * settlement".
 */
export const TRANSITIONS: readonly Move[] = [
  {
    from: [null],
    to: ['ACEPTADA', 'LIQUIDADA', 'RECHAZADA', 'DESCONOCIDA'],
    causes: ['bank_outcome', 'routing', 'risk'],
    why: 'first outcome of an operation (SPEC 3 rows "(new)")',
  },
  {
    from: [null],
    to: ['DESCONOCIDA'],
    causes: ['order_deadline'],
    why: 'no answer to the order within its deadline: the bank may have moved the money (SPEC 3 "time-out after sending")',
  },
  {
    from: ['ACEPTADA'],
    to: ['PENDIENTE', 'LIQUIDADA', 'RECHAZADA'],
    causes: ['status_query'],
    why: 'settlement progressed, confirmed or refused',
  },
  {
    from: ['PENDIENTE'],
    to: ['LIQUIDADA', 'RECHAZADA'],
    causes: ['status_query'],
    why: 'settlement confirmed or refused',
  },
  {
    from: ['DESCONOCIDA'],
    to: ['ACEPTADA', 'PENDIENTE', 'LIQUIDADA', 'RECHAZADA'],
    causes: ['status_query'],
    why: 'outcome resolved from bank evidence',
  },
];

export function isFinal(estado: EstadoOrigen): boolean {
  return estado !== null && FINAL_STATES.has(estado);
}

export function canTransition(from: EstadoOrigen, to: EstadoTransaccion, cause: TransitionCause): boolean {
  return TRANSITIONS.some((m) => m.from.includes(from) && m.to.includes(to) && m.causes.includes(cause));
}
