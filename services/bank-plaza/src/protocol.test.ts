import { describe, expect, it } from 'vitest';
import { ReplicaNonce } from '@switch/connector-kit/references';
import { authHeaders, parseBody, plazaJson, readResult, sign, signatureMatches } from './protocol';

describe('Banco Plaza signature (PROTOCOLS §2.2)', () => {
  const body = '{"moneda":"VES","canal":"23","monto":10.00}';

  it('matches the documented test vector', () => {
    expect(sign('secret123', '/v1/cce/debinm/tokenDI', '1718000000000', body)).toBe(
      '5e41d15992377cfba5777a10365be8b90b4890e4d382ebc450674d001497b7ef7f5cb3fb1cc9fdccc828137a52961729',
    );
  });

  it('changes with any byte of path, nonce or body', () => {
    const good = sign('secret123', '/v1/cce/debinm/tokenDI', '1718000000000', body);
    expect(sign('secret123', '/v1/cce/debinm/tokenDI/J00123456789', '1718000000000', body)).not.toBe(good);
    expect(sign('secret123', '/v1/cce/debinm/tokenDI', '1718000000001', body)).not.toBe(good);
    expect(sign('secret123', '/v1/cce/debinm/tokenDI', '1718000000000', body.replace('10.00', '10'))).not.toBe(good);
    expect(sign('secret124', '/v1/cce/debinm/tokenDI', '1718000000000', body)).not.toBe(good);
  });

  it('verifies in either case of hex and refuses a wrong one', () => {
    const s = sign('k', '/p', '1', '');
    expect(signatureMatches('k', '/p', '1', '', s.toUpperCase())).toBe(true);
    expect(signatureMatches('k', '/p', '2', '', s)).toBe(false);
    expect(signatureMatches('k', '/p', '1', '', 'abc')).toBe(false);
  });

  it('puts key, nonce and signature in the three headers', () => {
    const h = authHeaders({ apiKey: 'key', apiSecret: 'secret123' }, '/v1/cce/debinm/tokenDI', '1718000000000', body);
    expect(h).toEqual({
      'api-key': 'key',
      nonce: '1718000000000',
      'api-signature': sign('secret123', '/v1/cce/debinm/tokenDI', '1718000000000', body),
    });
  });
});

describe('body bytes', () => {
  it('prints amounts with two decimals, as the vector body', () => {
    expect(plazaJson({ moneda: 'VES', canal: '23', monto: 10 })).toBe('{"moneda":"VES","canal":"23","monto":10.00}');
    expect(plazaJson({ monto: 1234567.5, nested: { monto: 0.1 } })).toBe('{"monto":1234567.50,"nested":{"monto":0.10}}');
  });

  it('leaves other numbers and look-alike strings alone', () => {
    expect(plazaJson({ monto: 'texto', cantidad: 3, concepto: 'monto 10' })).toBe('{"monto":"texto","cantidad":3,"concepto":"monto 10"}');
  });

  it('parses JSON, keeps text, and reads an empty body as null', () => {
    expect(parseBody('{"a":1}')).toEqual({ a: 1 });
    expect(parseBody('<html>')).toBe('<html>');
    expect(parseBody('  ')).toBeNull();
  });
});

describe('nonces', () => {
  it('strictly increase even within one millisecond and when the clock steps back', () => {
    let t = 1_000;
    const nonces = new ReplicaNonce(() => t, 7);
    const a = nonces.next();
    const b = nonces.next();
    t = 500;
    const c = nonces.next();
    t = 5_000;
    const d = nonces.next();
    // microseconds (ms × 1000, +1 per call within one) followed by the 3-digit replica id
    expect([a, b, c, d]).toEqual(['1000000007', '1000001007', '1000002007', '5000000007']);
    expect(BigInt(b) > BigInt(a) && BigInt(c) > BigInt(b) && BigInt(d) > BigInt(c)).toBe(true);
  });

  it('never match between replicas, whatever their clocks', () => {
    const one = new ReplicaNonce(() => 1_000, 1);
    const two = new ReplicaNonce(() => 1_000, 2);
    const all = new Set<string>();
    for (let i = 0; i < 10_000; i++) all.add(one.next()).add(two.next());
    expect(all.size).toBe(20_000);
  });
});

describe('business result', () => {
  it('is read from the response headers, any case', () => {
    const r = readResult(
      { codigorespuesta: '0051', descripcioncliente: 'Saldo insuficiente', descripcionsistema: 'x', fechahora: '2024-01-01' },
      null,
    );
    expect(r).toEqual({ codigo: '0051', descripcionCliente: 'Saldo insuficiente', descripcionSistema: 'x', fechaHora: '2024-01-01' });
  });

  it('falls back on the body where a query repeats the fields there', () => {
    const r = readResult({}, { codigoRespuesta: '0000', descripcionSistema: 'ACCP' });
    expect(r.codigo).toBe('0000');
    expect(r.descripcionSistema).toBe('ACCP');
    expect(r.descripcionCliente).toBeNull();
  });
});
