import { describe, expect, it } from 'vitest';
import type { OperationRequest } from '@switch/core/operation';
import type { Answer, MoneyOperations } from './operations';
import { EXAMPLE_REVERSO_ID, EXAMPLE_TXN_ID, withExampleOperations } from './sandbox';

/** Operations that record what reached them and answer a fixed, recognisable result. */
function recording() {
  const reached: string[] = [];
  const answer: Answer = {
    resultado: {
      id: 'txn_real',
      estado: 'LIQUIDADA',
      banco_usado: 'bnc',
      referencia_banco: 'R1',
      endtoend: null,
      motivo_rechazo: null,
      intentos: 1,
    },
    replayed: false,
  };
  const operations: MoneyOperations = {
    run: async (_caller, request) => {
      reached.push(`run ${request.kind}`);
      return answer;
    },
    query: async (_caller, id) => {
      reached.push(`query ${id}`);
      return answer.resultado;
    },
  };
  return { reached, operations };
}

const reverso = (id: string): OperationRequest => ({
  kind: 'reverso',
  body: { idempotency_key: '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60', id },
});
const test = { merchantId: 'm1', mode: 'test' as const };
const live = { merchantId: 'm1', mode: 'live' as const };

describe('withExampleOperations', () => {
  it('answers the example ids with a test key without reaching the operations', async () => {
    const { reached, operations } = recording();
    const withExamples = withExampleOperations(operations);
    expect((await withExamples.query(test, EXAMPLE_TXN_ID)).estado).toBe('LIQUIDADA');
    expect((await withExamples.query(test, EXAMPLE_REVERSO_ID)).motivo_rechazo).toBe('NO_SOPORTADO');
    expect(await withExamples.run(test, reverso(EXAMPLE_TXN_ID))).toMatchObject({ resultado: { id: EXAMPLE_REVERSO_ID }, replayed: false });
    expect(reached).toEqual([]);
  });

  it('hands every live request, and every other id, to the operations as it came', async () => {
    const { reached, operations } = recording();
    const withExamples = withExampleOperations(operations);
    await withExamples.query(live, EXAMPLE_TXN_ID);
    await withExamples.run(live, reverso(EXAMPLE_TXN_ID));
    await withExamples.query(test, 'txn_otra');
    await withExamples.run(test, reverso(EXAMPLE_REVERSO_ID));
    expect(reached).toEqual([`query ${EXAMPLE_TXN_ID}`, 'run reverso', 'query txn_otra', 'run reverso']);
  });
});
