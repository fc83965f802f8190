import { describe, expect, it } from 'vitest';
import { bankForAccount, candidateBanks, catalogue, railFor, type RoutingTable } from './routing';
import { CAPABILITIES, CODIGO_BCV, type BancoId } from './contracts/bancos';
import type { OperationRequest } from './operation';
import type { Instrumento } from './contracts/fields';

const cuenta: Instrumento = {
  tipo: 'cuenta',
  valor: '01910000000000000001',
  banco: '0191',
  identificacion: 'J123456789',
  nombre: 'Ordenante',
};
const telefono: Instrumento = {
  tipo: 'telefono',
  valor: '04141234567',
  banco: '0102',
  identificacion: 'V12345678',
  nombre: 'Beneficiario',
};
const monto = { valor: 10, moneda: 'VES' as const };
const key = '6f1c2a8e-3b7d-4e0a-9c5f-1d2e3f4a5b6c';

function pagar(
  beneficiario: Instrumento,
  extra: { via?: 'pago_movil' | 'credito_inmediato'; banco_preferido?: BancoId } = {},
): OperationRequest {
  return { kind: 'pagar', body: { idempotency_key: key, monto, concepto: 'pago', ordenante: cuenta, beneficiario, ...extra } };
}
const token = (banco_preferido?: BancoId): OperationRequest => ({
  kind: 'token',
  body: {
    idempotency_key: key,
    monto,
    concepto: 'cobro',
    cobrador: cuenta,
    pagador: telefono,
    ...(banco_preferido ? { banco_preferido } : {}),
  },
});
const cobrar: OperationRequest = {
  kind: 'cobrar',
  body: { idempotency_key: key, monto, concepto: 'cobro', cobrador: cuenta, pagador: telefono, otp: '12345678' },
};

describe('railFor (SPEC 4.3)', () => {
  it('a cuenta destination always goes by credito_inmediato, even with via pago_movil', () => {
    expect(railFor(pagar(cuenta, { via: 'pago_movil' }))).toBe('credito_inmediato');
    expect(railFor(pagar(cuenta, { via: 'credito_inmediato' }))).toBe('credito_inmediato');
    expect(railFor(pagar(cuenta))).toBe('credito_inmediato');
  });

  it('a telefono destination goes by pago_movil only when via is pago_movil', () => {
    expect(railFor(pagar(telefono, { via: 'pago_movil' }))).toBe('pago_movil');
    expect(railFor(pagar(telefono, { via: 'credito_inmediato' }))).toBe('credito_inmediato');
    expect(railFor(pagar(telefono))).toBe('credito_inmediato');
  });

  it('collections: token is an immediate debit; cobrar after a token too, without one a C2P', () => {
    expect(railFor(token())).toBe('debito_inmediato');
    expect(railFor(cobrar, true)).toBe('debito_inmediato');
    expect(railFor(cobrar, false)).toBe('c2p');
    expect(railFor({ kind: 'reverso', body: { idempotency_key: key, id: 'txn_1' } })).toBe('reverso');
  });
});

describe('candidateBanks', () => {
  const table: RoutingTable = {
    test: [
      { banco: 'bnc', capabilities: [...CAPABILITIES] },
      { banco: 'banco_plaza', capabilities: ['pagar', 'consultar'] },
      { banco: 'bancaribe', capabilities: ['cobrar', 'pagar', 'token'] },
    ],
    live: [{ banco: 'banco_activo', capabilities: ['pagar'] }],
  };

  it('without a preference, keeps the configured order of the capable banks', () => {
    expect(candidateBanks(table, 'test', pagar(telefono))).toEqual(['bnc', 'banco_plaza', 'bancaribe']);
    expect(candidateBanks(table, 'test', token())).toEqual(['bnc', 'bancaribe']);
  });

  it('puts banco_preferido first when it is enabled and capable', () => {
    expect(candidateBanks(table, 'test', pagar(telefono, { banco_preferido: 'banco_plaza' }))).toEqual(['banco_plaza', 'bnc', 'bancaribe']);
    expect(candidateBanks(table, 'test', token('bancaribe'))).toEqual(['bancaribe', 'bnc']);
  });

  it('ignores banco_preferido when that bank is not capable of the operation', () => {
    // banco_plaza has no token capability here.
    expect(candidateBanks(table, 'test', token('banco_plaza'))).toEqual(['bnc', 'bancaribe']);
  });

  it('ignores banco_preferido when that bank is not enabled in the mode', () => {
    expect(candidateBanks(table, 'test', pagar(telefono, { banco_preferido: 'banco_activo' }))).toEqual([
      'bnc',
      'banco_plaza',
      'bancaribe',
    ]);
    expect(candidateBanks(table, 'live', pagar(telefono, { banco_preferido: 'bnc' }))).toEqual(['banco_activo']);
  });

  it('ignores banco_preferido when that bank is excluded, and never returns an excluded bank', () => {
    const excluded = new Set<BancoId>(['bnc']);
    expect(candidateBanks(table, 'test', pagar(telefono, { banco_preferido: 'bnc' }), excluded)).toEqual(['banco_plaza', 'bancaribe']);
    expect(candidateBanks(table, 'test', pagar(telefono), new Set<BancoId>(['bnc', 'banco_plaza']))).toEqual(['bancaribe']);
  });

  it('is empty when no enabled bank is capable', () => {
    expect(candidateBanks(table, 'live', token())).toEqual([]);
    expect(candidateBanks({ test: [], live: [] }, 'test', pagar(telefono))).toEqual([]);
    expect(candidateBanks(table, 'test', pagar(telefono), new Set<BancoId>(['bnc', 'banco_plaza', 'bancaribe']))).toEqual([]);
  });

  it('the catalogue lists the banks of the mode only, with copies of their capabilities', () => {
    const list = catalogue(table, 'live');
    expect(list).toEqual([{ banco: 'banco_activo', capabilities: ['pagar'] }]);
    list[0]!.capabilities.push('cobrar');
    expect(table.live[0]!.capabilities).toEqual(['pagar']);
  });

  it('bankForAccount picks the account holder bank when it can serve, else the fallback when able', () => {
    const codeOf = (b: BancoId) => CODIGO_BCV[b];
    const reads: RoutingTable = {
      test: [
        { banco: 'bnc', capabilities: ['saldo', 'movimientos'] },
        { banco: 'banco_plaza', capabilities: ['saldo'] },
      ],
      live: [],
    };
    expect(bankForAccount(reads, 'test', `0138${'0'.repeat(16)}`, 'saldo', codeOf, 'bnc')).toBe('banco_plaza');
    expect(bankForAccount(reads, 'test', `0138${'0'.repeat(16)}`, 'movimientos', codeOf, 'bnc')).toBe('bnc');
    expect(bankForAccount(reads, 'test', `0102${'0'.repeat(16)}`, 'saldo', codeOf)).toBeNull();
    expect(bankForAccount(reads, 'live', `0191${'0'.repeat(16)}`, 'saldo', codeOf, 'bnc')).toBeNull();
  });
});
