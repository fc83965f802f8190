import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { estatusOutcome, statusOutcome } from './responses';
import { randomUUID } from 'node:crypto';
import { Movimientos, Saldo } from '@switch/core/contracts/bancos';
import { validatorFor } from '@switch/core/contracts/validation';
import type { CobrarBody, PagarBody, TokenBody } from '@switch/core/contracts/operaciones';
import type { BankOutcome, Rail } from '@switch/core/operation';
import type { ExecuteOrder, StatusQuery } from '@switch/connector-kit/bank-port';
import type { Instrumento } from '@switch/core/contracts/fields';
import { startEmulator, type Emulator } from '../emulator';
import { ActivoConnector } from './connector';
import type { ActivoConnectorConfig } from './config';

const API_KEY = 'activo-test-key-0171';
const MERCHANT_ACCOUNT = '01710001000000000001';

let emulator: Emulator;
let activo: ActivoConnector;
const extra: ActivoConnector[] = [];

const connectorFor = (over: Partial<ActivoConnectorConfig> = {}) => {
  const c = new ActivoConnector({
    baseUrl: emulator.url,
    apiKey: API_KEY,
    rif: 'J080066227',
    cuenta: MERCHANT_ACCOUNT,
    telefono: '04140000001',
    timeoutMs: 5_000,
    // Generous so failures provoked by other tests never open the shared connector's breakers.
    breaker: { errorThresholdPercentage: 50, volumeThreshold: 1_000, resetTimeoutMs: 60_000, rollingCountTimeoutMs: 60_000 },
    ...over,
  });
  extra.push(c);
  return c;
};

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, credentials: { apiKey: API_KEY }, merchantAccount: MERCHANT_ACCOUNT, settleDelayMs: null });
  activo = connectorFor();
});

afterAll(async () => {
  await Promise.all(extra.map((c) => c.close()));
  await emulator.close();
});

// ---- order builders -------------------------------------------------------------------------

let seq = 0;
/** A fresh phone per call, so OTPs and ledgers of tests never meet. */
const phone = () => `0414${String(1_000_000 + ++seq).slice(-7)}`;
const account = () => `0102${String(++seq).padStart(16, '0')}`;

const merchant: Instrumento = {
  tipo: 'cuenta',
  valor: MERCHANT_ACCOUNT,
  banco: '0171',
  identificacion: 'J80066227',
  nombre: 'Comercio Activo',
};
const person = (tipo: 'telefono' | 'cuenta' = 'telefono'): Instrumento => ({
  tipo,
  valor: tipo === 'telefono' ? phone() : account(),
  banco: '0102',
  identificacion: 'V12345678',
  nombre: 'Ana Pérez',
});

const shared = (valor: number) => ({ idempotency_key: randomUUID(), monto: { valor, moneda: 'VES' as const }, concepto: 'Pedido 42' });

function order(request: ExecuteOrder['request'], rail: Rail, related: ExecuteOrder['related'] = null): ExecuteOrder {
  const txnId = `tx-${randomUUID()}`;
  return { txnId, attempt: 1, orderRef: `${txnId}-1`, mode: 'test', rail, idempotencyKey: request.body.idempotency_key, request, related };
}
const token = (pagador: Instrumento, valor = 100) =>
  order({ kind: 'token', body: { ...shared(valor), cobrador: merchant, pagador } satisfies TokenBody }, 'debito_inmediato');
const debito = (pagador: Instrumento, otp: string, referencia: string | null, valor = 100) =>
  order({ kind: 'cobrar', body: { ...shared(valor), cobrador: merchant, pagador, otp } satisfies CobrarBody }, 'debito_inmediato', {
    id: 'tx-token',
    referencia,
    rail: 'debito_inmediato',
  });
const c2p = (valor = 25.5, pagador = person(), otp = '12345678') =>
  order({ kind: 'cobrar', body: { ...shared(valor), cobrador: merchant, pagador, otp } satisfies CobrarBody }, 'c2p');
const pagar = (rail: 'pago_movil' | 'credito_inmediato', valor = 40, beneficiario = person(), ordenante = merchant) =>
  order({ kind: 'pagar', body: { ...shared(valor), ordenante, beneficiario, via: rail } satisfies PagarBody }, rail);
const statusOf = (o: ExecuteOrder, got: BankOutcome): StatusQuery => ({
  txnId: o.txnId,
  attempt: 1,
  orderRef: o.orderRef,
  mode: 'test',
  rail: o.rail,
  kind: o.request.kind,
  referencia: 'referencia' in got ? got.referencia : null,
  endtoend: 'endtoend' in got ? got.endtoend : null,
});

const otpOver = async (telefono: string) => {
  const res = await fetch(`${emulator.controlUrl}/__emulator/otp?telefono=${telefono}`);
  return ((await res.json()) as { otp: string }).otp;
};

// ---- success paths ---------------------------------------------------------------------------

describe('ActivoConnector: operations against the emulator', () => {
  it('token asks the bank to send the payer an OTP (accepted, referencia = id_solicitud)', async () => {
    const payer = person();
    const got = await activo.execute(token(payer));
    expect(got).toMatchObject({ type: 'accepted', pending: false, referencia: expect.stringMatching(/^[0-9]+$/) });
    expect((got as unknown as { raw: { body: { id_solicitud: string } } }).raw.body.id_solicitud).toBe(
      (got as { referencia: string }).referencia,
    );
    expect(await otpOver(payer.valor)).toMatch(/^[0-9]{8}$/);
  });

  it('débito inmediato: accepted pending with endtoend, then settled after the CCE settles', async () => {
    const payer = person();
    const before = emulator.ledger.account(MERCHANT_ACCOUNT).contableCents;
    const t = await activo.execute(token(payer, 100));
    const otp = emulator.controls.otpFor({ telefono: payer.valor })!;
    const o = debito(payer, otp, (t as { referencia: string }).referencia, 100);
    const got = await activo.execute(o);
    expect(got).toMatchObject({
      type: 'accepted',
      pending: true,
      referencia: expect.any(String),
      endtoend: expect.stringMatching(/^0171[0-9]{24}$/),
    });
    expect(await activo.status(statusOf(o, got))).toMatchObject({ type: 'accepted', pending: true });
    expect(emulator.controls.settleAll()).toBeGreaterThanOrEqual(1);
    const settled = await activo.status(statusOf(o, got));
    expect(settled).toMatchObject({
      type: 'settled',
      referencia: (got as { referencia: string }).referencia,
      endtoend: (got as { endtoend: string }).endtoend,
    });
    expect(emulator.ledger.account(MERCHANT_ACCOUNT).contableCents - before).toBe(10_000);
  });

  it('débito inmediato with a wrong OTP is OTP_INVALIDO, the bank answer kept in raw', async () => {
    const payer = person();
    const t = await activo.execute(token(payer));
    const got = await activo.execute(debito(payer, '00000001', (t as { referencia: string }).referencia));
    expect(got).toMatchObject({
      type: 'rejected',
      motivo: 'OTP_INVALIDO',
      raw: { codigo: '410', descripcion: expect.any(String), http_status: 200 },
    });
  });

  it('an OTP serves one debit only', async () => {
    const payer = person();
    const t = await activo.execute(token(payer));
    const otp = emulator.controls.otpFor({ telefono: payer.valor })!;
    const ref = (t as { referencia: string }).referencia;
    expect(await activo.execute(debito(payer, otp, ref))).toMatchObject({ type: 'accepted' });
    expect(await activo.execute(debito(payer, otp, ref))).toMatchObject({ type: 'rejected', motivo: 'OTP_INVALIDO' });
  });

  it('débito inmediato without a token reference is OTP_INVALIDO without calling the bank', async () => {
    const before = emulator.controls.requestCount();
    const got = await activo.execute(debito(person(), '12345678', null));
    expect(got).toMatchObject({ type: 'rejected', motivo: 'OTP_INVALIDO', raw: { codigo: 'OTP_INVALIDO' } });
    expect(emulator.controls.requestCount()).toBe(before);
  });

  it('C2P collects at once (settled) and credits the merchant', async () => {
    const before = emulator.ledger.account(MERCHANT_ACCOUNT).contableCents;
    const got = await activo.execute(c2p(25.5));
    expect(got).toMatchObject({ type: 'settled', referencia: expect.any(String), endtoend: null, raw: { codigo: '200' } });
    expect(emulator.ledger.account(MERCHANT_ACCOUNT).contableCents - before).toBe(2_550);
  });

  it('C2P from an account is NO_SOPORTADO without calling the bank', async () => {
    const before = emulator.controls.requestCount();
    expect(await activo.execute(c2p(10, person('cuenta')))).toMatchObject({ type: 'rejected', motivo: 'NO_SOPORTADO' });
    expect(emulator.controls.requestCount()).toBe(before);
  });

  it('pago móvil payout settles at once and the beneficiary phone is credited', async () => {
    const b = person();
    const got = await activo.execute(pagar('pago_movil', 40, b));
    expect(got).toMatchObject({ type: 'settled', referencia: expect.any(String) });
    expect(emulator.ledger.account(`58${b.valor.slice(1)}`).contableCents).toBe(100_000_000 + 4_000);
  });

  it('crédito inmediato is accepted pending, then settled', async () => {
    const o = pagar('credito_inmediato', 40, person('cuenta'));
    const got = await activo.execute(o);
    expect(got).toMatchObject({ type: 'accepted', pending: true, endtoend: expect.stringMatching(/^0171/) });
    expect(emulator.controls.settle(o.orderRef)).toBe(true);
    expect(await activo.status(statusOf(o, got))).toMatchObject({ type: 'settled' });
  });

  it('a crédito inmediato refused at settlement comes back rejected with its ISO reason', async () => {
    const o = pagar('credito_inmediato', 40.61, person('telefono'));
    const got = await activo.execute(o);
    expect(got).toMatchObject({ type: 'accepted', pending: true });
    emulator.controls.settle(o.orderRef);
    expect(await activo.status(statusOf(o, got))).toMatchObject({
      type: 'rejected',
      motivo: 'SALDO_INSUFICIENTE',
      raw: { body: { estatus: 'RJCT', motivo: 'AM04' } },
    });
  });

  it('reverso is NO_SOPORTADO without calling the bank', async () => {
    const before = emulator.controls.requestCount();
    const o = order({ kind: 'reverso', body: { idempotency_key: randomUUID(), id: 'tx-1' } }, 'reverso', {
      id: 'tx-1',
      referencia: '0000000001',
      rail: 'c2p',
    });
    expect(await activo.execute(o)).toMatchObject({
      type: 'rejected',
      motivo: 'NO_SOPORTADO',
      referencia: null,
      raw: { codigo: 'NO_SOPORTADO' },
    });
    expect(emulator.controls.requestCount()).toBe(before);
  });

  it('a repeated orderRef gets the original answer and nothing runs twice', async () => {
    const o = c2p(12);
    const first = await activo.execute(o);
    const orders = emulator.controls.orderCount();
    const again = await activo.execute(o);
    expect(again).toEqual(first);
    expect(emulator.controls.orderCount()).toBe(orders);
    expect(emulator.controls.callsFor(o.orderRef)).toBe(2);
  });

  it('status of a reference the bank never saw is not_processed', async () => {
    const o = c2p(1);
    expect(await activo.status(statusOf(o, { type: 'unknown', raw: {} }))).toMatchObject({ type: 'not_processed', raw: { codigo: '404' } });
  });
});

// ---- rejections ------------------------------------------------------------------------------

describe('ActivoConnector: rejection codes', () => {
  const cases: [string, () => ExecuteOrder, string][] = [
    ['402', () => c2p(), 'SALDO_INSUFICIENTE'],
    ['410', () => c2p(), 'OTP_INVALIDO'],
    ['412', () => pagar('pago_movil'), 'NO_AFILIADO_SERVICIO'],
    ['413', () => pagar('pago_movil'), 'EXCEDE_LIMITE'],
    ['414', () => c2p(), 'CUENTA_NO_EXISTE'],
    ['415', () => c2p(), 'CUENTA_BLOQUEADA'],
    ['416', () => pagar('pago_movil'), 'BENEFICIARIO_NO_COINCIDE'],
    ['418', () => c2p(), 'FUERA_DE_HORARIO'],
    ['406', () => c2p(), 'MONTO_INVALIDO'],
    ['409', () => c2p(), 'DUPLICADA'],
    ['422', () => c2p(), 'DESCONOCIDO'],
    ['AM04', () => pagar('credito_inmediato'), 'SALDO_INSUFICIENTE'],
    ['AC01', () => pagar('credito_inmediato', 5, person('cuenta')), 'CUENTA_NO_EXISTE'],
    ['AC06', () => pagar('credito_inmediato'), 'CUENTA_BLOQUEADA'],
    ['BE01', () => pagar('credito_inmediato'), 'BENEFICIARIO_NO_COINCIDE'],
    ['AM02', () => pagar('credito_inmediato'), 'EXCEDE_LIMITE'],
    ['CUST', () => pagar('credito_inmediato'), 'CANCELADA_POR_PAGADOR'],
    ['VE01', () => pagar('credito_inmediato'), 'RECHAZO_TECNICO'],
    ['DT03', () => pagar('credito_inmediato'), 'FUERA_DE_HORARIO'],
    ['ZZ77', () => pagar('credito_inmediato'), 'DESCONOCIDO'],
  ];

  it.each(cases)('bank code %s → its motivo, with the bank answer in raw', async (code, make, motivo) => {
    emulator.controls.rejectNext(1, code);
    const got = await activo.execute(make());
    const iso = /^[A-Z]/.test(code);
    expect(got).toMatchObject({
      type: 'rejected',
      motivo,
      raw: { codigo: iso ? '422' : code, descripcion: expect.any(String), body: expect.any(Object) },
    });
    if (iso) expect(got.raw).toMatchObject({ motivo: code });
  });

  it('an order answered "error de sistema" (500) is an unknown outcome to query, never a final rejection', async () => {
    emulator.controls.rejectNext(1, '500');
    expect(await activo.execute(c2p())).toMatchObject({ type: 'unknown', raw: { codigo: '500' } });
  });

  it('an order answered "operación no encontrada" (404) is an unknown outcome to query, never a final rejection', async () => {
    emulator.controls.rejectNext(1, '404');
    expect(await activo.execute(c2p())).toMatchObject({ type: 'unknown', raw: { codigo: '404' } });
    emulator.controls.rejectNext(1, '404');
    expect(await activo.execute(pagar('credito_inmediato'))).toMatchObject({ type: 'unknown', raw: { codigo: '404' } });
  });

  it('the bank saying it did not process (503) is not_processed, and leaves no order', async () => {
    emulator.controls.rejectNext(1, '503');
    const o = pagar('pago_movil');
    expect(await activo.execute(o)).toMatchObject({ type: 'not_processed', raw: { codigo: '503', http_status: 503 } });
    expect(emulator.ledger.orders.has(o.orderRef)).toBe(false);
  });

  it('magic amounts pick outcomes: .51 insufficient funds on C2P and P2P, .56 not processed', async () => {
    expect(await activo.execute(c2p(10.51))).toMatchObject({ type: 'rejected', motivo: 'SALDO_INSUFICIENTE', raw: { codigo: '402' } });
    expect(await activo.execute(pagar('pago_movil', 10.51))).toMatchObject({ type: 'rejected', motivo: 'SALDO_INSUFICIENTE' });
    expect(await activo.execute(pagar('credito_inmediato', 10.51))).toMatchObject({
      type: 'rejected',
      motivo: 'SALDO_INSUFICIENTE',
      raw: { codigo: '422', motivo: 'AM04' },
    });
    expect(await activo.execute(pagar('pago_movil', 10.56))).toMatchObject({ type: 'not_processed' });
  });

  it('the WSO2 gateway failing to reach the bank (101503) is not_processed', async () => {
    expect(await activo.execute(pagar('pago_movil', 3.73))).toMatchObject({
      type: 'not_processed',
      raw: { codigo: '101503', http_status: 503 },
    });
  });
});

// ---- authentication ---------------------------------------------------------------------------

describe('ActivoConnector: authentication', () => {
  it('a wrong API key is FIRMA_AUTH with the gateway fault in raw', async () => {
    const wrong = connectorFor({ apiKey: 'not-the-key' });
    expect(await wrong.execute(pagar('pago_movil'))).toMatchObject({
      type: 'rejected',
      motivo: 'FIRMA_AUTH',
      raw: { http_status: 401, codigo: '900901' },
    });
    expect(await wrong.saldo('test', { cuenta: MERCHANT_ACCOUNT })).toMatchObject({ ok: false, motivo: 'FIRMA_AUTH' });
  });

  it('a missing API key is FIRMA_AUTH', async () => {
    const none = connectorFor({ apiKey: '' });
    expect(await none.execute(token(person()))).toMatchObject({ type: 'rejected', motivo: 'FIRMA_AUTH', raw: { codigo: '900902' } });
  });

  it('a key the bank revoked is FIRMA_AUTH; a status query refused that way says nothing about the order', async () => {
    const o = c2p(7);
    const done = await activo.execute(o);
    const mine = connectorFor({ apiKey: 'rotated-key' });
    emulator.controls.setApiKey('another-key');
    try {
      expect(await mine.execute(c2p(7))).toMatchObject({ type: 'rejected', motivo: 'FIRMA_AUTH' });
      expect(await mine.status(statusOf(o, done))).toMatchObject({
        type: 'unknown',
        raw: { codigo: '900901', motivo_switch: 'FIRMA_AUTH' },
      });
    } finally {
      emulator.controls.setApiKey(API_KEY);
    }
  });
});

// ---- faults ------------------------------------------------------------------------------------

describe('ActivoConnector: faults', () => {
  it('an answer cut after the bank took the order is unknown; one order at the bank, no second call', async () => {
    const before = emulator.controls.orderCount();
    emulator.controls.timeoutAfterAccept(1);
    const o = pagar('pago_movil', 9);
    const got = await activo.execute(o);
    expect(got.type).toBe('unknown');
    expect(emulator.controls.orderCount()).toBe(before + 1);
    expect(emulator.ledger.orders.get(o.orderRef)?.estatus).toBe('ACCP');
    expect(emulator.controls.callsFor(o.orderRef)).toBe(1);
    // Only a status query resolves it.
    expect(await activo.status(statusOf(o, got))).toMatchObject({ type: 'settled' });
  });

  it('an answer slower than the timeout is unknown', async () => {
    const impatient = connectorFor({ timeoutMs: 200 });
    emulator.controls.delayNext(1, 10_000);
    const o = pagar('credito_inmediato', 9);
    expect(await impatient.execute(o)).toMatchObject({ type: 'unknown' });
    expect(emulator.ledger.orders.has(o.orderRef)).toBe(true);
  });

  it('a refused connection is not_processed', async () => {
    const o = pagar('pago_movil', 8);
    await emulator.controls.refuseConnections(true);
    try {
      expect(await activo.execute(o)).toMatchObject({ type: 'not_processed', raw: { reason: 'ECONNREFUSED' } });
    } finally {
      await emulator.controls.refuseConnections(false);
    }
    expect(emulator.controls.callsFor(o.orderRef)).toBe(0);
    expect(await activo.execute(o)).toMatchObject({ type: 'settled' });
  });

  it('a 5xx without proof of "not processed" is unknown for a money order', async () => {
    emulator.controls.failNext(1, 500);
    expect(await activo.execute(pagar('credito_inmediato', 6))).toMatchObject({ type: 'unknown', raw: { http_status: 500 } });
    emulator.controls.failNext(1, 502);
    expect(await activo.execute(c2p(6))).toMatchObject({ type: 'unknown', raw: { http_status: 502 } });
  });

  it('the breaker opens after repeated failures, then calls never reach the bank; it closes after its reset time', async () => {
    const guarded = connectorFor({
      breaker: { errorThresholdPercentage: 50, volumeThreshold: 3, resetTimeoutMs: 300, rollingCountTimeoutMs: 60_000 },
    });
    emulator.controls.failNext(3, 503);
    for (let i = 0; i < 3; i++) expect((await guarded.execute(pagar('pago_movil', 2))).type).toBe('unknown');
    expect(guarded.breakers.state('p2p')).toBe('open');
    const before = emulator.controls.requestCount();
    const o = pagar('pago_movil', 2);
    expect(await guarded.execute(o)).toMatchObject({
      type: 'not_processed',
      raw: { reason: expect.stringContaining('circuit breaker open') },
    });
    expect(emulator.controls.requestCount()).toBe(before);
    // Other operations have their own breaker.
    expect(await guarded.execute(c2p(2))).toMatchObject({ type: 'settled' });
    await vi.waitFor(() => expect(guarded.breakers.state('p2p')).toBe('half_open'), { timeout: 5_000, interval: 50 });
    expect(await guarded.execute(o)).toMatchObject({ type: 'settled' });
    expect(guarded.breakers.state('p2p')).toBe('closed');
  });
});

// ---- reads -----------------------------------------------------------------------------------

describe('ActivoConnector: saldo and movimientos', () => {
  it('saldo has the shared shape, amounts read from comma decimals', async () => {
    const cuenta = '01710001000000000777';
    emulator.ledger.account(cuenta).disponibleCents = 123_456;
    emulator.ledger.account(cuenta).contableCents = 130_000;
    const got = await activo.saldo('test', { cuenta });
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    expect(validatorFor(Saldo)(got.value)).toBe(true);
    expect(got.value).toMatchObject({
      cuenta,
      banco: 'banco_activo',
      moneda: 'VES',
      disponible: 1234.56,
      contable: 1300,
      bloqueado: 65.44,
    });
  });

  it('saldo of an account the bank does not have is CUENTA_NO_EXISTE', async () => {
    expect(await activo.saldo('test', { cuenta: '01710001000000009999' })).toMatchObject({
      ok: false,
      motivo: 'CUENTA_NO_EXISTE',
      raw: { codigo: '414' },
    });
  });

  it('movimientos has the shared shape and pages locally', async () => {
    const cuenta = '01710001000000000888';
    const mine = connectorFor({ cuenta });
    // The ordenante is the merchant's phone, so the payout comes from the configured account.
    const ordenante: Instrumento = { ...merchant, tipo: 'telefono', valor: '04140000001' };
    for (const v of [1, 2, 3]) expect((await mine.execute(pagar('credito_inmediato', v, person(), ordenante))).type).toBe('accepted');
    emulator.controls.settleAll();
    const today = new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10);
    const page1 = await mine.movimientos('test', { cuenta, desde: today, limite: 2 });
    expect(page1.ok).toBe(true);
    if (!page1.ok) return;
    expect(validatorFor(Movimientos)(page1.value)).toBe(true);
    expect(page1.value.movimientos.map((m) => [m.tipo, m.monto])).toEqual([
      ['debito', 1],
      ['debito', 2],
    ]);
    expect(page1.value.siguiente).not.toBeNull();
    const page2 = await mine.movimientos('test', { cuenta, desde: today, limite: 2, cursor: page1.value.siguiente! });
    expect(page2.ok && page2.value.movimientos.map((m) => m.monto)).toEqual([3]);
    expect(page2.ok && page2.value.siguiente).toBeNull();
    expect(await mine.movimientos('test', { cuenta, desde: today, cursor: 'garbage' })).toMatchObject({ ok: false });
  });

  it('a read while the bank is down is BANCO_NO_DISPONIBLE', async () => {
    emulator.controls.failNext(1, 503);
    expect(await activo.saldo('test', { cuenta: MERCHANT_ACCOUNT })).toMatchObject({ ok: false, motivo: 'BANCO_NO_DISPONIBLE' });
  });
});

describe('never a false final answer', () => {
  it('an unlisted code on an order → unknown, never a rejection', async () => {
    emulator.controls.rejectNext(1, '777');
    expect(await activo.execute(pagar('pago_movil'))).toMatchObject({ type: 'unknown' });
  });

  it.each([429, 400, 404])('a bare HTTP %i on an order → unknown', async (status) => {
    emulator.controls.failNext(1, status);
    expect(await activo.execute(pagar('credito_inmediato'))).toMatchObject({ type: 'unknown' });
  });

  it('an unlisted code to a status query → unknown, never rejected', () => {
    const answer = (status: number, body: Record<string, unknown>) => ({
      kind: 'response' as const,
      status,
      headers: {},
      body: JSON.stringify(body),
    });
    const never = () => {
      throw new Error('not a success');
    };
    expect(statusOutcome(answer(200, { code: '0007', descripcion: 'nuevo' }), never).type).toBe('unknown');
    expect(statusOutcome(answer(400, { code: '0007' }), never).type).toBe('unknown');
    expect(
      estatusOutcome({ kind: 'answer', status: 200, code: '200', descripcion: null, body: { estatus: 'XYZ' } } as never, {}).type,
    ).toBe('unknown');
  });
});
