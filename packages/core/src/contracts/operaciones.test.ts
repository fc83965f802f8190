import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprint, idempotencyScope } from './operaciones';

describe('canonical JSON and fingerprints', () => {
  const a = {
    idempotency_key: '6f1c2a8e-3b7d-4e0a-9c5f-1d2e3f4a5b6c',
    monto: { valor: 10.5, moneda: 'VES' },
    concepto: 'pago',
    beneficiario: { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V1', nombre: 'Ana' },
  };
  const reordered = {
    beneficiario: { nombre: 'Ana', identificacion: 'V1', banco: '0102', valor: '04141234567', tipo: 'telefono' },
    concepto: 'pago',
    monto: { moneda: 'VES', valor: 10.5 },
    idempotency_key: '6f1c2a8e-3b7d-4e0a-9c5f-1d2e3f4a5b6c',
  };

  it('does not depend on key order, at any depth', () => {
    expect(canonicalJson(reordered)).toBe(canonicalJson(a));
    expect(fingerprint(reordered)).toBe(fingerprint(a));
  });

  it('sorts keys and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }] })).toBe('{"a":[{"c":"x","d":null}],"b":1}');
  });

  it('keeps array order (it is meaningful)', () => {
    expect(fingerprint({ x: [1, 2] })).not.toBe(fingerprint({ x: [2, 1] }));
  });

  it('treats an undefined field as absent', () => {
    expect(fingerprint({ ...a, canal: undefined })).toBe(fingerprint(a));
  });

  it('gives different bodies different fingerprints', () => {
    expect(fingerprint({ ...a, monto: { valor: 10.51, moneda: 'VES' } })).not.toBe(fingerprint(a));
    expect(fingerprint({ ...a, concepto: 'pago ' })).not.toBe(fingerprint(a));
    expect(fingerprint({ ...a, beneficiario: { ...a.beneficiario, nombre: 'Anа' } })).not.toBe(fingerprint(a));
    // A string "10" is not the number 10.
    expect(fingerprint({ v: '10' })).not.toBe(fingerprint({ v: 10 }));
    expect(fingerprint(a)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('idempotency scope', () => {
  const key = '6F1C2A8E-3B7D-4E0A-9C5F-1D2E3F4A5B6C';
  it('separates merchant, mode and operation kind, and ignores the case of the UUID', () => {
    const base = idempotencyScope('m1', 'test', 'token', key);
    expect(idempotencyScope('m1', 'test', 'token', key.toLowerCase())).toBe(base);
    expect(idempotencyScope('m2', 'test', 'token', key)).not.toBe(base);
    expect(idempotencyScope('m1', 'live', 'token', key)).not.toBe(base);
    expect(idempotencyScope('m1', 'test', 'cobrar', key)).not.toBe(base);
  });
});
