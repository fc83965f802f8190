import { describe, expect, it } from 'vitest';
import {
  canTransition,
  ESTADOS,
  FINAL_STATES,
  isFinal,
  TRANSITIONS,
  type EstadoOrigen,
  type EstadoTransaccion,
  type TransitionCause,
} from './estados';

const CAUSES: TransitionCause[] = ['bank_outcome', 'routing', 'risk', 'status_query', 'order_deadline'];
const ORIGINS: EstadoOrigen[] = [null, ...ESTADOS];

describe('transition table (SPEC 3)', () => {
  // Every row of SPEC 3's "Moves shown", with the cause that triggers it.
  const specMoves: [EstadoOrigen, EstadoTransaccion, TransitionCause, string][] = [
    [null, 'ACEPTADA', 'bank_outcome', 'pagar credito_inmediato / cobrar / token accepted'],
    [null, 'LIQUIDADA', 'bank_outcome', 'pagar pago_movil, cobrar settled at once'],
    [null, 'RECHAZADA', 'bank_outcome', 'cobrar with a bad OTP, any bank rejection'],
    [null, 'RECHAZADA', 'routing', 'no capable bank (SPEC 4.10.6)'],
    [null, 'DESCONOCIDA', 'bank_outcome', 'time-out or cut after sending'],
    [null, 'DESCONOCIDA', 'order_deadline', 'no answer to the order within its deadline'],
    ['ACEPTADA', 'LIQUIDADA', 'status_query', 'settlement confirmed'],
    ['PENDIENTE', 'LIQUIDADA', 'status_query', 'settlement confirmed'],
    ['ACEPTADA', 'RECHAZADA', 'status_query', 'settlement refused'],
    ['PENDIENTE', 'RECHAZADA', 'status_query', 'settlement refused'],
    ['DESCONOCIDA', 'LIQUIDADA', 'status_query', 'outcome resolved'],
    ['DESCONOCIDA', 'RECHAZADA', 'status_query', 'outcome resolved'],
    ['DESCONOCIDA', 'ACEPTADA', 'status_query', 'outcome resolved'],
    ['DESCONOCIDA', 'PENDIENTE', 'status_query', 'outcome resolved'],
  ];
  it.each(specMoves)('allows %s -> %s by %s (%s)', (from, to, cause) => {
    expect(canTransition(from, to, cause)).toBe(true);
  });

  it('knows exactly two final states, LIQUIDADA and RECHAZADA', () => {
    expect([...FINAL_STATES].sort()).toEqual(['LIQUIDADA', 'RECHAZADA']);
    expect(isFinal('LIQUIDADA')).toBe(true);
    expect(isFinal('RECHAZADA')).toBe(true);
    for (const e of ['ACEPTADA', 'PENDIENTE', 'ERROR', 'DESCONOCIDA'] as const) expect(isFinal(e)).toBe(false);
    expect(isFinal(null)).toBe(false);
  });

  it.each(['LIQUIDADA', 'RECHAZADA'] as const)('never moves out of the final state %s, by any cause, to any state', (from) => {
    for (const to of ESTADOS) for (const cause of CAUSES) expect(canTransition(from, to, cause), `${from}->${to} by ${cause}`).toBe(false);
  });

  it('no row of the table starts from a final state', () => {
    for (const move of TRANSITIONS) for (const from of move.from) expect(isFinal(from)).toBe(false);
  });

  const refused: [EstadoOrigen, EstadoTransaccion, TransitionCause][] = [
    ['LIQUIDADA', 'RECHAZADA', 'status_query'],
    ['RECHAZADA', 'LIQUIDADA', 'status_query'],
    ['LIQUIDADA', 'ACEPTADA', 'bank_outcome'],
    ['ACEPTADA', 'ERROR', 'bank_outcome'],
    [null, 'ERROR', 'bank_outcome'],
    [null, 'LIQUIDADA', 'order_deadline'],
    ['ACEPTADA', 'DESCONOCIDA', 'order_deadline'],
    ['ACEPTADA', 'DESCONOCIDA', 'bank_outcome'],
    [null, 'PENDIENTE', 'bank_outcome'],
    [null, 'PENDIENTE', 'status_query'],
    ['PENDIENTE', 'ACEPTADA', 'status_query'],
    ['DESCONOCIDA', 'ERROR', 'status_query'],
    // A settlement confirmation is only ever a status query's job, not a new order's outcome.
    ['ACEPTADA', 'LIQUIDADA', 'bank_outcome'],
    // A first outcome never comes from a status query: there is nothing to ask about yet.
    [null, 'LIQUIDADA', 'status_query'],
  ];
  it.each(refused)('refuses %s -> %s by %s', (from, to, cause) => {
    expect(canTransition(from, to, cause)).toBe(false);
  });

  it('allows exactly the moves of the table and nothing else', () => {
    const allowed = new Set<string>();
    for (const m of TRANSITIONS) for (const f of m.from) for (const t of m.to) for (const c of m.causes) allowed.add(`${f}|${t}|${c}`);
    const expected = new Set(specMoves.map(([f, t, c]) => `${f}|${t}|${c}`));
    for (const from of ORIGINS)
      for (const to of ESTADOS)
        for (const cause of CAUSES) {
          const key = `${from}|${to}|${cause}`;
          expect(canTransition(from, to, cause), key).toBe(allowed.has(key));
        }
    // Every SPEC move is in the table.
    for (const key of expected) expect(allowed.has(key), key).toBe(true);
    // ERROR is contract vocabulary only: no move enters or leaves it (docs/decisions/0010-states-and-error.md).
    for (const key of allowed) expect(key.split('|').slice(0, 2)).not.toContain('ERROR');
  });
});
