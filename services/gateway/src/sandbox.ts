import type { Resultado } from '@switch/shared';

/**
 * Documented test-mode operations every test key can query (`/consultar`) and reverse (`/reverso`),
 * so the `/docs` examples work as they are, with any test key, before the caller has made an
 * operation of its own (docs/decisions.md "Sandbox example operations"). They are answers, not
 * transactions: nothing is stored, no bank is asked, and a live key sees no such id (404).
 */
export const EXAMPLE_TXN_ID = 'txn_ejemplo';
export const EXAMPLE_REVERSO_ID = 'txn_ejemplo_reverso';

/** A pago móvil payout by the simulated bank, settled (what the `pagar` example answers). */
const EXAMPLE_PAYOUT: Resultado = {
  id: EXAMPLE_TXN_ID,
  estado: 'LIQUIDADA',
  banco_usado: 'bnc',
  referencia_banco: 'TEST-6f1c8a52',
  endtoend: null,
  motivo_rechazo: null,
  intentos: 1,
  raw: { simulated: true, ejemplo: true },
};

/** Its reverse: the simulated rail has no cancellation (SPEC 4.8), as bank-sim answers any reverso. */
const EXAMPLE_REVERSE: Resultado = {
  id: EXAMPLE_REVERSO_ID,
  estado: 'RECHAZADA',
  banco_usado: 'bnc',
  referencia_banco: null,
  endtoend: null,
  motivo_rechazo: 'NO_SOPORTADO',
  intentos: 1,
  raw: { simulated: true, ejemplo: true, codigo: 'NS', descripcion: 'El riel simulado no admite reverso' },
};

/** The example operation of that id, in test mode only. */
export function exampleOperation(mode: 'test' | 'live', id: string): Resultado | undefined {
  if (mode !== 'test') return undefined;
  if (id === EXAMPLE_TXN_ID) return structuredClone(EXAMPLE_PAYOUT);
  if (id === EXAMPLE_REVERSO_ID) return structuredClone(EXAMPLE_REVERSE);
  return undefined;
}

/** The answer to reversing the example operation, in test mode only. */
export function exampleReverse(mode: 'test' | 'live', id: string): Resultado | undefined {
  return mode === 'test' && id === EXAMPLE_TXN_ID ? structuredClone(EXAMPLE_REVERSE) : undefined;
}
