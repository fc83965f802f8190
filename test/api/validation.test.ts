import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { idempotencyScope } from '@switch/core/contracts/operaciones';
import { cobrarBody, cuenta, pagarBody, startTestSwitch, telefono, tokenBody, type Footprint, type TestSwitch } from './helpers';

/**
 * SPEC 2, 8 and DESIGN formats: every bad field gives 400 VALIDATION naming it by its dotted path,
 * and a refused request leaves nothing behind (no transaction, no claim, no bank order).
 */
describe('validation of money operations', () => {
  let t: TestSwitch;
  let before: Footprint;
  beforeAll(async () => {
    t = await startTestSwitch({ config: { bodyLimitBytes: 2048 } });
  });
  afterAll(async () => {
    await t.close();
  });

  /** Posts, expects 400 VALIDATION whose detail names exactly `fields`, and that nothing was left behind. */
  async function refused(url: string, body: unknown, fields: string[]): Promise<Record<string, string>> {
    before = t.footprint();
    const res = await t.post(url, body);
    expect(res.statusCode, res.body).toBe(400);
    const json = res.json() as { error: string; detail: Record<string, string> };
    expect(Object.keys(json).sort()).toEqual(['detail', 'error']);
    expect(json.error).toBe('VALIDATION');
    expect(Object.keys(json.detail).sort()).toEqual([...fields].sort());
    for (const reason of Object.values(json.detail)) expect(reason).toMatch(/\S/);
    await t.expectNothingSince(before);
    const key = (body as { idempotency_key?: unknown })?.idempotency_key;
    if (typeof key === 'string') {
      for (const kind of ['token', 'cobrar', 'pagar', 'reverso'] as const) {
        expect(await t.sw.store.idempotency.get(idempotencyScope(t.merchantId, 'test', kind, key))).toBeNull();
      }
    }
    return json.detail;
  }
  async function accepted(url: string, body: unknown): Promise<void> {
    const res = await t.post(url, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(['LIQUIDADA', 'ACEPTADA']).toContain(res.json().estado);
  }

  describe('idempotency_key', () => {
    it.each([
      ['not a UUID', 'abc'],
      ['empty', ''],
      ['a UUID without dashes', randomUUID().replace(/-/g, '')],
      ['a URN, not a UUID', `urn:uuid:${randomUUID()}`],
      ['a number', 12345],
    ])('refuses %s', async (_label, value) => {
      const detail = await refused('/switch/v1/pagar', pagarBody({ idempotency_key: value }), ['idempotency_key']);
      if (typeof value === 'string') expect(detail.idempotency_key).toMatch(/UUID/);
    });
    it('is required', async () => {
      const { idempotency_key: _k, ...body } = pagarBody();
      expect(await refused('/switch/v1/pagar', body, ['idempotency_key'])).toEqual({ idempotency_key: 'is required' });
    });
  });

  describe('monto', () => {
    it.each([
      ['zero', 0],
      ['negative', -5],
      ['3 decimals', 10.005],
      ['3 decimals (small)', 0.001],
      ['a string "10"', '10'],
      ['null', null],
      ['above the maximum', 1e15],
    ])('refuses valor %s', async (_label, valor) => {
      await refused('/switch/v1/pagar', pagarBody({ monto: { valor, moneda: 'VES' } }), ['monto.valor']);
    });
    it.each([0.01, 0.1, 19.99, 1.1, 100, 947376.69, 1234567.89, 4451510.44, 5373260801.24, 999999999999.99])(
      'accepts valor %s',
      async (valor) => {
        await accepted('/switch/v1/pagar', pagarBody({ monto: { valor, moneda: 'VES' } }));
      },
    );
    it('refuses moneda USD and a lower-case ves, naming monto.moneda', async () => {
      await refused('/switch/v1/pagar', pagarBody({ monto: { valor: 1, moneda: 'USD' } }), ['monto.moneda']);
      await refused('/switch/v1/cobrar/token', tokenBody({ monto: { valor: 1, moneda: 'ves' } }), ['monto.moneda']);
    });
    it('defaults moneda to VES', async () => {
      await accepted('/switch/v1/pagar', pagarBody({ monto: { valor: 3 } }));
    });
    it('is required, and valor in it', async () => {
      const { monto: _m, ...body } = pagarBody();
      await refused('/switch/v1/pagar', body, ['monto']);
      await refused('/switch/v1/pagar', pagarBody({ monto: { moneda: 'VES' } }), ['monto.valor']);
      await refused('/switch/v1/pagar', pagarBody({ monto: 10 }), ['monto']);
    });
  });

  describe('Instrumento', () => {
    it.each([
      ['cuenta of 19 digits', cuenta({ valor: '0'.repeat(19) }), 'valor'],
      ['cuenta of 21 digits', cuenta({ valor: '0'.repeat(21) }), 'valor'],
      ['cuenta with a letter', cuenta({ valor: '0191000000000000000A' }), 'valor'],
      ['telefono without leading 0', telefono({ valor: '44141234567' }), 'valor'],
      ['telefono of 10 digits', telefono({ valor: '0414123456' }), 'valor'],
      ['telefono as a cuenta number', telefono({ valor: '01910000000000000001' }), 'valor'],
      ['cuenta as a telefono number', cuenta({ valor: '04141234567' }), 'valor'],
      ['banco of 3 digits', telefono({ banco: '102' }), 'banco'],
      ['banco of 5 digits', telefono({ banco: '01020' }), 'banco'],
      ['identificacion lower case', telefono({ identificacion: 'v12345678' }), 'identificacion'],
      ['identificacion with dashes', telefono({ identificacion: 'V-12345678' }), 'identificacion'],
      ['identificacion with dots', telefono({ identificacion: 'V12.345.678' }), 'identificacion'],
      ['identificacion of 10 digits', telefono({ identificacion: 'V1234567890' }), 'identificacion'],
      ['identificacion with prefix X', telefono({ identificacion: 'X12345678' }), 'identificacion'],
      ['identificacion without digits', telefono({ identificacion: 'V' }), 'identificacion'],
      ['nombre empty', telefono({ nombre: '' }), 'nombre'],
      ['nombre of blanks', telefono({ nombre: '   ' }), 'nombre'],
      ['nombre of 41 characters', telefono({ nombre: 'a'.repeat(41) }), 'nombre'],
      ['nombre of 41 multi-byte characters', telefono({ nombre: 'ñ'.repeat(41) }), 'nombre'],
      ['tipo unknown', telefono({ tipo: 'tarjeta' }), 'tipo'],
    ])('refuses a beneficiario with %s', async (_label, beneficiario, field) => {
      await refused('/switch/v1/pagar', pagarBody({ beneficiario }), [`beneficiario.${field}`]);
    });

    it.each([
      ['ordenante', '/switch/v1/pagar', pagarBody],
      ['cobrador', '/switch/v1/cobrar/token', tokenBody],
      ['pagador', '/switch/v1/cobrar', cobrarBody],
    ] as const)('names the field inside %s', async (field, url, build) => {
      await refused(url, build({ [field]: telefono({ identificacion: 'V-1' }) }), [`${field}.identificacion`]);
      const { nombre: _n, ...withoutNombre } = telefono();
      await refused(url, build({ [field]: withoutNombre }), [`${field}.nombre`]);
    });

    it.each(['V', 'E', 'J', 'G', 'P'])('accepts identificacion with prefix %s', async (prefix) => {
      await accepted('/switch/v1/pagar', pagarBody({ beneficiario: telefono({ identificacion: `${prefix}123456789` }) }));
    });

    it('accepts nombre of 1 and of 40 characters, multi-byte ones included', async () => {
      await accepted('/switch/v1/pagar', pagarBody({ beneficiario: telefono({ nombre: 'A' }) }));
      await accepted('/switch/v1/pagar', pagarBody({ beneficiario: telefono({ nombre: 'a'.repeat(40) }) }));
      await accepted('/switch/v1/pagar', pagarBody({ beneficiario: telefono({ nombre: 'ñ'.repeat(40) }) }));
      await accepted('/switch/v1/pagar', pagarBody({ beneficiario: telefono({ nombre: 'José Núñez Ávila '.repeat(3).slice(0, 40) }) }));
      // 40 characters of three UTF-8 bytes each are 40 characters.
      await accepted('/switch/v1/pagar', pagarBody({ beneficiario: telefono({ nombre: '日'.repeat(40) }) }));
    });
  });

  describe('otp (cobrar)', () => {
    it.each([
      ['5 digits', '12345'],
      ['9 digits', '123456789'],
      ['letters', '12ab5678'],
      ['a number', 12345678],
    ])('refuses an otp of %s', async (_label, otp) => {
      await refused('/switch/v1/cobrar', cobrarBody({ otp }), ['otp']);
    });
    it('is required on cobrar', async () => {
      const { otp: _o, ...body } = cobrarBody();
      await refused('/switch/v1/cobrar', body, ['otp']);
    });
    it.each(['123456', '1234567', '12345678'])('accepts %s', async (otp) => {
      await accepted('/switch/v1/cobrar', cobrarBody({ otp }));
    });
  });

  describe('enumerations', () => {
    it.each([
      ['via', 'paloma', /credito_inmediato.*pago_movil/],
      ['proposito', 'regalo', /transferencia.*nomina.*proveedor/],
      ['canal', 'telegrama', /web/],
      ['banco_preferido', 'banco_inventado', /bnc/],
    ])('refuses an unknown %s, listing the allowed values', async (field, value, allowed) => {
      const detail = await refused('/switch/v1/pagar', pagarBody({ [field]: value }), [field]);
      expect(detail[field]).toMatch(allowed);
    });
    it('refuses an unknown banco_preferido on collections too', async () => {
      await refused('/switch/v1/cobrar/token', tokenBody({ banco_preferido: 'BNC' }), ['banco_preferido']);
    });
  });

  describe('concepto', () => {
    it('is required, not empty and at most 35 characters', async () => {
      const { concepto: _c, ...body } = pagarBody();
      await refused('/switch/v1/pagar', body, ['concepto']);
      await refused('/switch/v1/pagar', pagarBody({ concepto: '' }), ['concepto']);
      await refused('/switch/v1/pagar', pagarBody({ concepto: 'x'.repeat(36) }), ['concepto']);
      await refused('/switch/v1/pagar', pagarBody({ concepto: 'línea\nnueva' }), ['concepto']);
      await accepted('/switch/v1/pagar', pagarBody({ concepto: 'x'.repeat(35) }));
    });
  });

  it('reports every bad field at once', async () => {
    const detail = await refused(
      '/switch/v1/pagar',
      {
        idempotency_key: 'nope',
        monto: { valor: '10', moneda: 'USD' },
        concepto: 'ok',
        canal: 'fax',
        ordenante: cuenta({ valor: '1'.repeat(19), identificacion: 'v1' }),
        beneficiario: telefono({ valor: '4141234567', banco: '102', nombre: 'a'.repeat(41) }),
        proposito: 'x',
        via: 'y',
        banco_preferido: 'z',
      },
      [
        'idempotency_key',
        'monto.valor',
        'monto.moneda',
        'canal',
        'ordenante.valor',
        'ordenante.identificacion',
        'beneficiario.valor',
        'beneficiario.banco',
        'beneficiario.nombre',
        'proposito',
        'via',
        'banco_preferido',
      ],
    );
    expect(detail.idempotency_key).toMatch(/UUID/);
  });

  it('refuses a body that is not an object', async () => {
    for (const body of [[], 'texto', 42, null]) {
      before = t.footprint();
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        headers: { 'x-switch-key': t.key, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('VALIDATION');
      expect(res.json().detail).toBeTypeOf('object');
      await t.expectNothingSince(before);
    }
  });

  it('a non-JSON body → 400 VALIDATION', async () => {
    before = t.footprint();
    const res = await t.inject({
      method: 'POST',
      url: '/switch/v1/pagar',
      headers: { 'x-switch-key': t.key, 'content-type': 'application/json' },
      payload: '{"idempotency_key": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'VALIDATION', detail: { body: expect.any(String) } });
    await t.expectNothingSince(before);
  });

  it('an empty JSON body → 400 VALIDATION', async () => {
    before = t.footprint();
    const res = await t.inject({
      method: 'POST',
      url: '/switch/v1/pagar',
      headers: { 'x-switch-key': t.key, 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'VALIDATION', detail: { body: expect.any(String) } });
    await t.expectNothingSince(before);
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x'])(
    'a %s body → 415 UNSUPPORTED_MEDIA_TYPE',
    async (contentType) => {
      before = t.footprint();
      const res = await t.inject({
        method: 'POST',
        url: '/switch/v1/pagar',
        headers: { 'x-switch-key': t.key, 'content-type': contentType },
        payload: JSON.stringify(pagarBody()),
      });
      expect(res.statusCode, res.body).toBe(415);
      expect(res.json()).toMatchObject({ error: 'UNSUPPORTED_MEDIA_TYPE' });
      await t.expectNothingSince(before);
    },
  );

  it('a body over the limit → 413 PAYLOAD_TOO_LARGE', async () => {
    before = t.footprint();
    const res = await t.post('/switch/v1/pagar', pagarBody({ concepto: 'x', relleno: 'x'.repeat(4096) }));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: 'PAYLOAD_TOO_LARGE' });
    await t.expectNothingSince(before);
  });

  it('an unknown route → 404 NOT_FOUND, with or without a key', async () => {
    for (const [method, url] of [
      ['GET', '/switch/v1/nada'],
      ['POST', '/switch/v2/pagar'],
      ['GET', '/'],
    ] as const) {
      for (const headers of [{}, { 'x-switch-key': t.key }]) {
        const res = await t.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
      }
    }
  });

  it('a known path with another method → 405 METHOD_NOT_ALLOWED naming the allowed methods, with or without a key', async () => {
    for (const [method, url, allow] of [
      ['GET', '/switch/v1/pagar', 'POST'],
      ['DELETE', '/switch/v1/consultar', 'POST'],
      ['POST', '/switch/v1/bancos', 'GET, HEAD'],
    ] as const) {
      for (const headers of [{}, { 'x-switch-key': t.key }]) {
        const res = await t.inject({ method, url, headers });
        expect(res.statusCode, `${method} ${url}`).toBe(405);
        expect(res.headers.allow).toBe(allow);
        expect(res.json()).toMatchObject({ error: 'METHOD_NOT_ALLOWED' });
      }
    }
  });
});
