import { describe, expect, it } from 'vitest';
import { envelope } from './protocol';
import { interpretConsultaCredito, interpretConsultaPago, interpretOrder, type Answer } from './responses';

const answer = (status: number, json: unknown): Answer => ({ status, json, text: JSON.stringify(json) });

describe('reading a money order answer', () => {
  it('takes a payout as settled only with a confirmation code', () => {
    const ok = { success: true, codigoConfirmacion: '123456', codigoError: '0', descripcionError: 'OK', secuencial: '9' };
    expect(interpretOrder(answer(200, ok), 'pagoB2p')).toMatchObject({ type: 'settled', referencia: '9' });
    for (const codigoConfirmacion of ['0', '-1']) {
      expect(interpretOrder(answer(200, { ...ok, success: false, codigoConfirmacion }), 'pagoB2p')).toMatchObject({
        type: 'unknown',
        raw: { codigo: '0', codigoConfirmacion },
      });
    }
  });

  it('believes only the gateway proof that the backend was not reached', () => {
    const fault = (code: number) => ({ fault: { code, message: 'x' } });
    expect(interpretOrder(answer(503, fault(101503)), 'c2p').type).toBe('not_processed');
    expect(interpretOrder(answer(503, fault(303001)), 'credito').type).toBe('not_processed');
    expect(interpretOrder(answer(429, fault(900800)), 'pagoB2p').type).toBe('not_processed');
    expect(interpretOrder(answer(504, fault(101504)), 'c2p').type).toBe('unknown');
    expect(interpretOrder(answer(500, fault(101500)), 'c2p').type).toBe('unknown');
    expect(interpretOrder({ status: 502, json: undefined, text: '<html>Bad gateway</html>' }, 'pagoB2p')).toMatchObject({
      type: 'unknown',
      raw: { status: 502, codigo: '502', body: '<html>Bad gateway</html>' },
    });
  });

  it('calls an unreadable success answer unknown: the order may have run', () => {
    expect(interpretOrder(answer(200, { hello: 'world' }), 'c2p').type).toBe('unknown');
  });

  it('a bare 4xx (429 included) without a business code is unknown, keeping the bank body; refused credentials are FIRMA_AUTH', () => {
    expect(interpretOrder(answer(400, { message: 'bad' }), 'c2p')).toMatchObject({
      type: 'unknown',
      raw: { status: 400, body: { message: 'bad' } },
    });
    expect(interpretOrder(answer(429, { message: 'slow down' }), 'pagoB2p')).toMatchObject({ type: 'unknown' });
    expect(interpretOrder(answer(200, { codigoError: '777', descripcionError: 'nuevo' }), 'pagoB2p')).toMatchObject({
      type: 'unknown',
      raw: { codigo: '777' },
    });
    expect(interpretOrder(answer(403, { fault: { code: 900908, message: 'Resource forbidden' } }), 'c2p')).toMatchObject({
      type: 'rejected',
      motivo: 'FIRMA_AUTH',
    });
  });

  it('reads an enveloped rejection with its code and description', () => {
    const body = envelope('registrarPagoC2pApiResponse', { codigoError: 51, descripcionError: 'FONDOS INSUFICIENTES', secuencial: 0 });
    expect(interpretOrder(answer(200, body), 'c2p')).toEqual({
      type: 'rejected',
      motivo: 'SALDO_INSUFICIENTE',
      referencia: '0',
      raw: { status: 200, codigo: '51', descripcion: 'FONDOS INSUFICIENTES', body },
    });
  });
});

describe('reading a status answer', () => {
  const credito = (out: Record<string, unknown>) =>
    answer(200, envelope('consultarCreditoInmediatoAPIResponse', { codigoError: 0, secuencial: 5, ...out }));

  it('an unlisted code in a status answer → unknown, never rejected (the money may still settle)', () => {
    expect(interpretConsultaCredito(credito({ codigoError: 7 })).type).toBe('unknown');
    expect(interpretConsultaCredito(credito({ codigoError: '0007' })).type).toBe('unknown');
    expect(interpretConsultaCredito(credito({ estatus: 'XYZ' })).type).toBe('unknown');
    expect(interpretConsultaPago(answer(200, { codigoError: '0007', lista: [] }), null, 'r').type).toBe('unknown');
  });

  it('follows the ISO 20022 status of a crédito inmediato', () => {
    expect(interpretConsultaCredito(credito({ estatus: 'ACCP', endToEndId: 'E2E' }))).toMatchObject({
      type: 'settled',
      referencia: '5',
      endtoend: 'E2E',
    });
    expect(interpretConsultaCredito(credito({ estatus: 'AC00' }))).toMatchObject({ type: 'accepted', pending: true });
    expect(interpretConsultaCredito(credito({ estatus: 'RJCT', codigoRechazo: 'AC01' }))).toMatchObject({
      type: 'rejected',
      motivo: 'CUENTA_NO_EXISTE',
      raw: { codigo: 'AC01' },
    });
    expect(interpretConsultaCredito(credito({ estatus: 'RJCT', codigoRechazo: 'AB01' })).type).toBe('unknown');
    expect(interpretConsultaCredito(credito({ estatus: 'RJCT' }))).toMatchObject({ type: 'rejected', motivo: 'DESCONOCIDO' });
  });

  it('never finalises on a failed query', () => {
    expect(interpretConsultaCredito(answer(200, envelope('consultarCreditoInmediatoAPIResponse', { codigoError: 96 }))).type).toBe(
      'unknown',
    );
    expect(interpretConsultaCredito(answer(401, { fault: { code: 900901, message: 'Invalid Credentials' } })).type).toBe('unknown');
    expect(interpretConsultaPago(answer(200, { codigoError: '63', lista: [] }), null, 'r').type).toBe('unknown');
    expect(interpretConsultaCredito(answer(200, envelope('consultarCreditoInmediatoAPIResponse', { codigoError: 25 }))).type).toBe(
      'not_processed',
    );
  });

  it('finds a payment by our reference or by the bank secuencial', () => {
    const lista = [
      { referencia: '700001', factura: 'a-1', estatus: 'APROBADA', codigoError: '0' },
      { referencia: '700002', factura: 'b-1', estatus: 'RECHAZADA', codigoError: '51' },
    ];
    const a = answer(200, { codigoError: '0', lista });
    expect(interpretConsultaPago(a, null, 'a-1')).toMatchObject({ type: 'settled', referencia: '700001' });
    expect(interpretConsultaPago(a, '700002', 'x-1')).toMatchObject({ type: 'rejected', motivo: 'SALDO_INSUFICIENTE' });
    expect(interpretConsultaPago(a, null, 'c-1').type).toBe('not_processed');
  });
});
