import { describe, expect, it } from 'vitest';
import { activoHeaders, PATHS, readAnswer } from './protocol';

describe('Banco Activo protocol', () => {
  it('authenticates with the WSO2 apikey header on JSON calls', () => {
    expect(activoHeaders('k-123')).toEqual({ apikey: 'k-123', 'content-type': 'application/json', accept: 'application/json' });
  });

  it('uses the paths seen in public integrations for C2P and P2P', () => {
    expect(PATHS.c2p).toBe('/cobro/c2p/1.0.0/c2p');
    expect(PATHS.p2p).toBe('/pago/p2p/1.0.0/p2p');
    for (const p of Object.values(PATHS)) expect(p).toMatch(/^\/[a-z]+\/[a-z0-9]+\/1\.0\.0\/[a-z0-9]+$/);
  });

  it('reads a business answer with either spelling of the description', () => {
    expect(readAnswer(200, '{"code":"200","nroReferencia":"123","descripcion":"ok"}')).toMatchObject({
      kind: 'answer',
      code: '200',
      descripcion: 'ok',
    });
    expect(readAnswer(200, '{"code":"402","description":"Fondos insuficientes"}')).toMatchObject({
      kind: 'answer',
      code: '402',
      descripcion: 'Fondos insuficientes',
    });
    expect(readAnswer(200, '{"code":200}')).toMatchObject({ kind: 'answer', code: '200' });
  });

  it('recognises a WSO2 gateway fault', () => {
    const a = readAnswer(401, '{"fault":{"code":900901,"message":"Invalid Credentials","description":"x"}}');
    expect(a).toEqual({
      kind: 'fault',
      status: 401,
      fault: { code: '900901', message: 'Invalid Credentials', description: 'x' },
      body: expect.any(Object),
    });
  });

  it('anything else is unreadable, kept verbatim', () => {
    expect(readAnswer(500, '<html>boom</html>')).toEqual({ kind: 'unreadable', status: 500, body: '<html>boom</html>' });
    expect(readAnswer(200, '[1]')).toMatchObject({ kind: 'unreadable' });
    expect(readAnswer(200, '{"ok":true}')).toMatchObject({ kind: 'unreadable' });
  });
});
