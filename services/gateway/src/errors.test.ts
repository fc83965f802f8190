import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConsultarBody, PagarBody } from '@switch/core/contracts/operaciones';
import { validatorFor } from '@switch/core/contracts/validation';
import { sendError, validationDetail } from './errors';

const valid = {
  idempotency_key: '6f1c2a8e-3b7d-4e0a-9c5f-1d2e3f4a5b6c',
  monto: { valor: 10.5, moneda: 'VES' },
  concepto: 'pago',
  ordenante: { tipo: 'cuenta', valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Comercio' },
  beneficiario: { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
};

/** The detail the gateway would answer for `body` against `schema`, with real ajv errors. */
function detailOf(schema: Parameters<typeof validatorFor>[0], body: unknown): Record<string, string> {
  const check = validatorFor(schema);
  expect(check(body)).toBe(false);
  return validationDetail(check.errors as never, 'body');
}

describe('validationDetail', () => {
  it('names a bad nested field by its dotted path', () => {
    expect(Object.keys(detailOf(PagarBody, { ...valid, monto: { valor: -1 } }))).toEqual(['monto.valor']);
  });

  it('names a missing field by its path, as required', () => {
    const { concepto: _c, ...rest } = valid;
    expect(detailOf(PagarBody, rest)).toEqual({ concepto: 'is required' });
    const { nombre: _n, ...instrumento } = valid.beneficiario;
    expect(detailOf(PagarBody, { ...valid, beneficiario: instrumento })).toEqual({ 'beneficiario.nombre': 'is required' });
  });

  it('says a non-UUID key must be a UUID, a URN included', () => {
    expect(detailOf(PagarBody, { ...valid, idempotency_key: 'abc' })).toEqual({ idempotency_key: 'must be a UUID' });
    expect(detailOf(PagarBody, { ...valid, idempotency_key: `urn:uuid:${valid.idempotency_key}` })).toEqual({
      idempotency_key: 'must be a UUID',
    });
  });

  it('lists the allowed values of an enumeration once, instead of one error per literal', () => {
    const detail = detailOf(PagarBody, { ...valid, via: 'paloma' });
    expect(detail).toEqual({ via: 'must be one of: credito_inmediato, pago_movil' });
    expect(detailOf(PagarBody, { ...valid, monto: { valor: 1, moneda: 'USD' } })).toEqual({ 'monto.moneda': 'must be one of: VES' });
  });

  it('names valor, not the if/then rule, for an instrument value of the wrong shape', () => {
    const detail = detailOf(PagarBody, { ...valid, beneficiario: { ...valid.beneficiario, valor: '4141234567' } });
    expect(Object.keys(detail)).toEqual(['beneficiario.valor']);
    expect(detail['beneficiario.valor']).toMatch(/pattern/);
  });

  it('reports every bad field at once', () => {
    const detail = detailOf(PagarBody, {
      ...valid,
      idempotency_key: 'x',
      monto: { valor: 0 },
      ordenante: { ...valid.ordenante, identificacion: 'v123' },
      beneficiario: { ...valid.beneficiario, nombre: '' },
    });
    expect(Object.keys(detail).sort()).toEqual(['beneficiario.nombre', 'idempotency_key', 'monto.valor', 'ordenante.identificacion']);
  });

  it('names the root when the value itself is wrong', () => {
    expect(detailOf(ConsultarBody, 'text')).toEqual({ body: expect.any(String) });
    expect(validationDetail([{ keyword: 'type', instancePath: '', message: 'must be object', params: {} }], 'query')).toEqual({
      query: 'must be object',
    });
  });

  it('keeps the first reason of a field and falls back to "is invalid"', () => {
    expect(
      validationDetail(
        [
          { keyword: 'minLength', instancePath: '/a/b', message: 'first', params: {} },
          { keyword: 'pattern', instancePath: '/a/b', message: 'second', params: {} },
          { keyword: 'custom', instancePath: '/c', params: {} },
          { keyword: 'if', instancePath: '/d', message: 'must match "then" schema', params: {} },
        ],
        'body',
      ),
    ).toEqual({ 'a.b': 'first', c: 'is invalid' });
  });
});

const services = resolve(__dirname, '../..');

/** The TypeScript sources (tests aside) of the services that answer HTTP. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('errors are answered through the catalogue only', () => {
  it('no route writes an error code of its own: no literal `error: CODE` body, no hand-set error status', () => {
    const offenders: string[] = [];
    for (const file of ['gateway/src', 'panel/src'].flatMap((dir) => sources(join(services, dir)))) {
      const text = readFileSync(file, 'utf8');
      const literal = /\berror: '(?:[A-Z][A-Z_]{3,}|unauthorized)'/.exec(text);
      if (literal) offenders.push(`${relative(services, file)}: ${literal[0]}`);
    }
    expect(offenders).toEqual([]);
  });

  it('a code outside the catalogue does not compile in a reply (`npm run typecheck` checks this file)', () => {
    // @ts-expect-error: NOT_A_CODE is no catalogue code.
    const unknownReply = () => sendError(null as never, 'NOT_A_CODE');
    expect(unknownReply).toBeTypeOf('function');
  });
});
