import { describe, expect, it } from 'vitest';
import { CobrarBody, ConsultarBody, PagarBody, ReversoBody, TokenBody, Resultado } from '@switch/core/contracts/operaciones';
import { MOTIVOS_RECHAZO } from '@switch/core/estados';
import { MovimientosQuery, SaldoQuery } from '@switch/core/contracts/bancos';
import { REACCION, resumenError, resumenResultado } from './summaries';
import { switchTools } from './tools';

const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema)) as unknown;

describe('MCP tool catalogue', () => {
  it('takes its input schemas from the REST contracts and answers the Resultado schema', () => {
    const tools = new Map(switchTools('test').map((t) => [t.name, t]));
    const expected = {
      pagar: PagarBody,
      cobrar_token: TokenBody,
      cobrar: CobrarBody,
      reverso: ReversoBody,
      consultar: ConsultarBody,
      saldo: SaldoQuery,
      movimientos: MovimientosQuery,
    };
    for (const [name, schema] of Object.entries(expected)) expect(tools.get(name as 'pagar')!.inputSchema, name).toEqual(plain(schema));
    for (const name of ['pagar', 'cobrar_token', 'cobrar', 'reverso', 'consultar'] as const)
      expect(tools.get(name)!.outputSchema).toEqual(plain(Resultado));
  });

  it('maps each tool to its REST request; GET arguments become query strings', () => {
    const tools = new Map(switchTools('test').map((t) => [t.name, t]));
    expect(tools.get('cobrar_token')!.toRest({ a: 1 })).toEqual({ method: 'POST', path: '/switch/v1/cobrar/token', body: { a: 1 } });
    expect(tools.get('movimientos')!.toRest({ cuenta: '0191', desde: '2026-01-01', limite: 5, cursor: undefined })).toEqual({
      method: 'GET',
      path: '/switch/v1/movimientos',
      query: { cuenta: '0191', desde: '2026-01-01', limite: '5' },
    });
    expect(tools.get('bancos')!.structured([{ banco: 'bnc', capabilities: [] }])).toEqual({ bancos: [{ banco: 'bnc', capabilities: [] }] });
  });

  it('money moving tools are destructive only in live mode; reads are read-only in both', () => {
    for (const mode of ['test', 'live'] as const) {
      for (const tool of switchTools(mode)) {
        const moves = ['pagar', 'cobrar', 'reverso'].includes(tool.name);
        expect(tool.annotations.destructiveHint, `${mode} ${tool.name}`).toBe(moves && mode === 'live');
        expect(tool.annotations.readOnlyHint, `${mode} ${tool.name}`).toBe(
          ['bancos', 'consultar', 'saldo', 'movimientos'].includes(tool.name),
        );
        expect(tool.annotations.idempotentHint).toBe(true);
      }
    }
  });
});

describe('summaries for agents', () => {
  const base = { id: 'txn_1', banco_usado: 'bnc' as const, referencia_banco: null, endtoend: null, motivo_rechazo: null, intentos: 1 };

  it('DESCONOCIDA: query with consultar, never resend with a new key', () => {
    const text = resumenResultado('pagar', { ...base, estado: 'DESCONOCIDA' });
    expect(text).toMatch(/`consultar`/);
    expect(text).toMatch(/NUNCA la reenvíes con una idempotency_key nueva/);
  });

  it('RECHAZADA: the motivo and SPEC 7.2 reaction, for every motivo', () => {
    expect(Object.keys(REACCION).sort()).toEqual([...MOTIVOS_RECHAZO].sort());
    const text = resumenResultado('cobrar', { ...base, estado: 'RECHAZADA', motivo_rechazo: 'OTP_INVALIDO' });
    expect(text).toContain('OTP_INVALIDO');
    expect(text).toContain(REACCION.OTP_INVALIDO);
  });

  it('ACEPTADA: settles later, check with consultar', () => {
    expect(resumenResultado('pagar', { ...base, estado: 'ACEPTADA' })).toMatch(/se liquida después.*`consultar`/);
  });

  it('VALIDATION names every field', () => {
    expect(resumenError(400, { error: 'VALIDATION', detail: { 'monto.valor': 'must be > 0', via: 'must be one of: a, b' } })).toMatch(
      /monto\.valor must be > 0; via must be one of/,
    );
  });
});
