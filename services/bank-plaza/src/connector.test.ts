import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Movimientos, Saldo } from '@switch/core/contracts/bancos';
import { validatorFor } from '@switch/core/contracts/validation';
import type { CobrarBody, PagarBody, TokenBody } from '@switch/core/contracts/operaciones';
import type { BankOutcome, Rail } from '@switch/core/operation';
import type { ExecuteOrder, StatusQuery } from '@switch/connector-kit/bank-port';
import type { Instrumento } from '@switch/core/contracts/fields';
import { startEmulator, type Emulator } from '../emulator';
import { ISO20022_CODES } from '@switch/connector-kit/connector';
import { memoryReferenceBook } from '@switch/connector-kit/references';
import { PLAZA_CODES } from './codes';
import { BancoPlazaConnector, type BancoPlazaOptions } from './connector';

const credentials = { apiKey: 'plaza-key', apiSecret: 'plaza-secret' };
const MERCHANT = { rif: 'J123456789', account: '01380000000000000001', phone: '04140000001' };

const payerPhone = (n: number): Instrumento => ({
  tipo: 'telefono',
  valor: `0414${String(n).padStart(7, '0')}`,
  banco: '0102',
  identificacion: 'V12345678',
  nombre: 'Ana Pagadora',
});
const merchantAccount: Instrumento = {
  tipo: 'cuenta',
  valor: MERCHANT.account,
  banco: '0138',
  identificacion: MERCHANT.rif,
  nombre: 'Tienda',
};
const beneficiaryPhone: Instrumento = { tipo: 'telefono', valor: '04241112233', banco: '0105', identificacion: 'V7654321', nombre: 'Beto' };
const beneficiaryAccount: Instrumento = {
  tipo: 'cuenta',
  valor: '01050000000000000042',
  banco: '0105',
  identificacion: 'E8765432',
  nombre: 'Carla',
};

let payerSeq = 100;
function order(request: ExecuteOrder['request'], rail: Rail, related: ExecuteOrder['related'] = null): ExecuteOrder {
  const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
  return { txnId, attempt: 1, orderRef: `${txnId}-1`, mode: 'test', rail, idempotencyKey: randomUUID(), request, related };
}
const shared = (valor: number) => ({ idempotency_key: randomUUID(), monto: { valor, moneda: 'VES' as const }, concepto: 'Pedido 42' });
const token = (valor: number, pagador: Instrumento): ExecuteOrder =>
  order({ kind: 'token', body: { ...shared(valor), cobrador: merchantAccount, pagador } satisfies TokenBody }, 'debito_inmediato');
const cobrar = (valor: number, pagador: Instrumento, otp: string, rail: 'c2p' | 'debito_inmediato'): ExecuteOrder =>
  order({ kind: 'cobrar', body: { ...shared(valor), cobrador: merchantAccount, pagador, otp } satisfies CobrarBody }, rail);
const pagar = (valor: number, beneficiario: Instrumento, rail: 'pago_movil' | 'credito_inmediato'): ExecuteOrder =>
  order(
    {
      kind: 'pagar',
      body: {
        ...shared(valor),
        ordenante: merchantAccount,
        beneficiario,
        via: rail === 'pago_movil' ? 'pago_movil' : 'credito_inmediato',
      } satisfies PagarBody,
    },
    rail,
  );
const statusOf = (o: ExecuteOrder, outcome: BankOutcome | null = null): StatusQuery => ({
  txnId: o.txnId,
  attempt: 1,
  orderRef: o.orderRef,
  mode: 'test',
  rail: o.rail,
  kind: o.request.kind,
  referencia: outcome && 'referencia' in outcome ? outcome.referencia : null,
  endtoend: outcome && 'endtoend' in outcome ? outcome.endtoend : null,
});

let emu: Emulator;
/** The store's reference book as the service passes it (shared by every connector here, as by replicas). */
const references = memoryReferenceBook();
let plaza: BancoPlazaConnector;
const extra: BancoPlazaConnector[] = [];
const connector = (over: Partial<BancoPlazaOptions> = {}, now?: () => Date) => {
  const c = new BancoPlazaConnector(
    { baseUrl: emu.url, ...credentials, ...MERCHANT, timeoutMs: 5_000, ...over },
    { references, ...(now ? { now } : {}) },
  );
  extra.push(c);
  return c;
};

beforeAll(async () => {
  emu = await startEmulator({ credentials, merchant: { rif: MERCHANT.rif, cuenta: MERCHANT.account }, settleDelayMs: null });
  plaza = connector({ breaker: { volumeThreshold: 10_000 } });
});
afterEach(() => emu.controls.reset());
afterAll(async () => {
  await Promise.all(extra.map((c) => c.close()));
  await emu.close();
});

/** A Débito Inmediato collection up to its acceptance: token, the OTP the bank sent, the debit. */
async function debit(valor: number): Promise<{ o: ExecuteOrder; outcome: BankOutcome }> {
  const pagador = payerPhone(payerSeq++);
  expect((await plaza.execute(token(valor, pagador))).type).toBe('accepted');
  const otp = emu.controls.otpFor(pagador.valor);
  expect(otp).toMatch(/^[0-9]{8}$/);
  const o = cobrar(valor, pagador, otp!, 'debito_inmediato');
  return { o, outcome: await plaza.execute(o) };
}

describe('success paths', () => {
  it('token: the bank sends the payer an OTP → accepted', async () => {
    const pagador = payerPhone(payerSeq++);
    const outcome = await plaza.execute(token(25, pagador));
    expect(outcome).toMatchObject({ type: 'accepted', pending: false, raw: { codigo: '0000' } });
    expect(emu.controls.otpFor(pagador.valor)).not.toBeNull();
  });

  it('Débito Inmediato: accepted with endtoend, pending, then settled after settlement', async () => {
    const before = emu.ledger.balance(MERCHANT.account);
    const { o, outcome } = await debit(150.25);
    expect(outcome).toMatchObject({
      type: 'accepted',
      pending: true,
      referencia: expect.stringMatching(/^[0-9]{12}$/),
      endtoend: expect.stringMatching(/^0138[0-9]{24}$/),
    });
    expect(await plaza.status(statusOf(o, outcome))).toMatchObject({ type: 'accepted', pending: true });
    expect(emu.controls.settleAll()).toBe(1);
    expect(await plaza.status(statusOf(o, outcome))).toMatchObject({
      type: 'settled',
      endtoend: (outcome as { endtoend: string }).endtoend,
      raw: { codigo: '0000' },
    });
    expect(emu.ledger.balance(MERCHANT.account)).toBeCloseTo(before + 150.25, 2);
  });

  it('Débito Inmediato by the payer account works the same (C validation)', async () => {
    const pagador: Instrumento = { tipo: 'cuenta', valor: '01020000000000000777', banco: '0102', identificacion: 'V1', nombre: 'Dora' };
    expect((await plaza.execute(token(10, pagador))).type).toBe('accepted');
    const outcome = await plaza.execute(cobrar(10, pagador, emu.controls.otpFor(pagador.valor)!, 'debito_inmediato'));
    expect(outcome).toMatchObject({ type: 'accepted', pending: true });
  });

  it('C2P: settled at once with the bank reference, and queryable by it', async () => {
    const o = cobrar(80, payerPhone(payerSeq++), '12345678', 'c2p');
    const outcome = await plaza.execute(o);
    expect(outcome).toMatchObject({
      type: 'settled',
      referencia: expect.stringMatching(/^[0-9]{12}$/),
      raw: { codigo: '0000', body: { codigoReverso: expect.any(String) } },
    });
    expect(await plaza.status(statusOf(o, outcome))).toMatchObject({
      type: 'settled',
      referencia: (outcome as { referencia: string }).referencia,
    });
  });

  it('pago móvil: settled at once; a redelivered order is not executed twice (idExterno)', async () => {
    const o = pagar(40, beneficiaryPhone, 'pago_movil');
    const orders = emu.controls.orderCount();
    const first = await plaza.execute(o);
    expect(first).toMatchObject({ type: 'settled', referencia: expect.stringMatching(/^[0-9]{12}$/) });
    const again = await plaza.execute(o);
    expect(again).toMatchObject({ type: 'settled', referencia: (first as { referencia: string }).referencia });
    expect(emu.controls.orderCount()).toBe(orders + 1);
    expect(emu.controls.callsFor(o.orderRef)).toBe(2);
    expect(await plaza.status(statusOf(o, first))).toMatchObject({
      type: 'settled',
      referencia: (first as { referencia: string }).referencia,
    });
  });

  it('Crédito Inmediato to an account: accepted with endtoend, pending, then settled', async () => {
    const o = pagar(300, beneficiaryAccount, 'credito_inmediato');
    const outcome = await plaza.execute(o);
    expect(outcome).toMatchObject({ type: 'accepted', pending: true, referencia: expect.any(String), endtoend: expect.any(String) });
    expect(await plaza.status(statusOf(o, outcome))).toMatchObject({ type: 'accepted', pending: true });
    emu.controls.settleAll();
    expect(await plaza.status(statusOf(o, outcome))).toMatchObject({
      type: 'settled',
      raw: { descripcionSistema: expect.stringMatching(/^ACCP/) },
    });
  });

  it('Crédito Inmediato to a phone, refused at settlement: rejected with the ISO reason kept', async () => {
    const o = pagar(12.42, beneficiaryPhone, 'credito_inmediato');
    const outcome = await plaza.execute(o);
    expect(outcome.type).toBe('accepted');
    emu.controls.settleAll();
    expect(await plaza.status(statusOf(o, outcome))).toMatchObject({
      type: 'rejected',
      motivo: 'SALDO_INSUFICIENTE',
      raw: { codigo: 'RJCT', descripcionSistema: expect.stringMatching(/^AM04/) },
    });
  });

  it('reverso of a C2P → settled, and its status reads the reversal', async () => {
    const c2p = await plaza.execute(cobrar(55, payerPhone(payerSeq++), '87654321', 'c2p'));
    const referencia = (c2p as { referencia: string }).referencia;
    const rev = order({ kind: 'reverso', body: { idempotency_key: randomUUID(), id: 'txn_orig' } }, 'reverso', {
      id: 'txn_orig',
      referencia,
      rail: 'c2p',
    });
    const outcome = await plaza.execute(rev);
    expect(outcome).toMatchObject({ type: 'settled', referencia, raw: { codigo: '0000', body: { codigoAnulacion: expect.any(String) } } });
    expect(await plaza.status(statusOf(rev, outcome))).toMatchObject({ type: 'settled' });
    expect(await plaza.execute(rev)).toMatchObject({ type: 'settled' });
    expect(emu.ledger.orders.get(referencia)?.state).toBe('reversed');
  });

  it('reverso of another rail → NO_SOPORTADO without calling the bank', async () => {
    const calls = emu.controls.callCount();
    const rev = order({ kind: 'reverso', body: { idempotency_key: randomUUID(), id: 'txn_x' } }, 'reverso', {
      id: 'txn_x',
      referencia: '123',
      rail: 'credito_inmediato',
    });
    expect(await plaza.execute(rev)).toMatchObject({ type: 'rejected', motivo: 'NO_SOPORTADO' });
    expect(emu.controls.callCount()).toBe(calls);
  });
});

describe('rejections keep the bank answer', () => {
  const plazaRejections = Object.entries(PLAZA_CODES).filter(
    ([code, e]) => e.meaning === 'rejected' && e.motivo !== 'FIRMA_AUTH' && code !== 'RJCT',
  );
  it.each(plazaRejections)('Plaza code %s → its motivo', async (code, entry) => {
    emu.controls.rejectNext(1, code);
    const orders = emu.controls.orderCount();
    const outcome = await plaza.execute(pagar(20, beneficiaryPhone, 'pago_movil'));
    expect(outcome).toMatchObject({ type: 'rejected', motivo: entry.motivo, raw: { codigo: code, descripcion: expect.any(String) } });
    expect(emu.controls.orderCount()).toBe(orders);
  });

  const isoRejections = Object.entries(ISO20022_CODES).filter(([c, e]) => e.meaning === 'rejected' && c !== 'RJCT');
  it.each(isoRejections)('CCE reason %s → its motivo', async (code, entry) => {
    emu.controls.rejectNext(1, code);
    const outcome = await plaza.execute(pagar(20, beneficiaryAccount, 'credito_inmediato'));
    expect(outcome).toMatchObject({
      type: 'rejected',
      motivo: entry.motivo,
      raw: { codigo: 'RJCT', descripcionSistema: expect.stringMatching(new RegExp(`^${code}`)) },
    });
  });

  it('an unlisted code on an order → unknown (DESCONOCIDA, resolved by a status query), never a rejection; the code is kept', async () => {
    emu.controls.rejectNext(1, '0777');
    expect(await plaza.execute(pagar(20, beneficiaryPhone, 'pago_movil'))).toEqual({
      type: 'unknown',
      raw: expect.objectContaining({ codigo: '0777' }),
    });
  });

  it.each([429, 400, 404, 409, 500, 502, 503])('a bare HTTP %i on an order that may have arrived → unknown', async (status) => {
    emu.controls.failNext(1, status);
    expect(await plaza.execute(pagar(20, beneficiaryAccount, 'credito_inmediato'))).toMatchObject({ type: 'unknown' });
  });

  it('a wrong OTP → OTP_INVALIDO, and nothing is debited', async () => {
    const pagador = payerPhone(payerSeq++);
    await plaza.execute(token(30, pagador));
    const orders = emu.controls.orderCount();
    const outcome = await plaza.execute(cobrar(30, pagador, '11111111', 'debito_inmediato'));
    expect(outcome).toMatchObject({ type: 'rejected', motivo: 'OTP_INVALIDO', raw: { codigo: '0055' } });
    expect(emu.controls.orderCount()).toBe(orders);
  });

  it('magic amount .51 → SALDO_INSUFICIENTE without executing', async () => {
    const orders = emu.controls.orderCount();
    expect(await plaza.execute(cobrar(10.51, payerPhone(payerSeq++), '12345678', 'c2p'))).toMatchObject({
      type: 'rejected',
      motivo: 'SALDO_INSUFICIENTE',
      raw: { codigo: '0051' },
    });
    expect(emu.controls.orderCount()).toBe(orders);
  });

  it('"banco no disponible" (0091, HTTP 503) → not_processed: it may be rerouted', async () => {
    const outcome = await plaza.execute(pagar(10.91, beneficiaryPhone, 'pago_movil'));
    expect(outcome).toMatchObject({ type: 'not_processed', raw: { status: 503, codigo: '0091' } });
  });

  it('C2P with a payer account → NO_SOPORTADO before any call', async () => {
    const calls = emu.controls.callCount();
    const outcome = await plaza.execute(cobrar(10, beneficiaryAccount, '12345678', 'c2p'));
    expect(outcome).toMatchObject({ type: 'rejected', motivo: 'NO_SOPORTADO' });
    expect(emu.controls.callCount()).toBe(calls);
  });
});

describe('authentication failures → FIRMA_AUTH', () => {
  it('wrong secret (bad signature)', async () => {
    const outcome = await connector({ apiSecret: 'not-the-secret' }).execute(pagar(10, beneficiaryPhone, 'pago_movil'));
    expect(outcome).toMatchObject({ type: 'rejected', motivo: 'FIRMA_AUTH', raw: { status: 401, codigo: '0401' } });
  });

  it('wrong api-key', async () => {
    const outcome = await connector({ apiKey: 'someone-else' }).execute(pagar(10, beneficiaryPhone, 'pago_movil'));
    expect(outcome).toMatchObject({ type: 'rejected', motivo: 'FIRMA_AUTH', raw: { codigo: '0401' } });
  });

  it('a nonce not above the last accepted one, twice in a row', async () => {
    await plaza.execute(token(10, payerPhone(payerSeq++)));
    const orders = emu.controls.orderCount();
    const behind = connector({}, () => new Date(Date.now() - 3_600_000));
    const outcome = await behind.execute(pagar(10, beneficiaryPhone, 'pago_movil'));
    expect(outcome).toMatchObject({ type: 'rejected', motivo: 'FIRMA_AUTH', raw: { codigo: '0402' } });
    expect(emu.controls.orderCount()).toBe(orders);
  });

  it('a single nonce refusal (calls crossing on the wire) is retried once with a fresh nonce', async () => {
    emu.controls.rejectNext(1, '0402');
    const orders = emu.controls.orderCount();
    const o = pagar(10, beneficiaryPhone, 'pago_movil');
    expect(await plaza.execute(o)).toMatchObject({ type: 'settled' });
    expect(emu.controls.callsFor(o.orderRef)).toBe(2);
    expect(emu.controls.orderCount()).toBe(orders + 1);
  });

  it('a status query refused for auth leaves the state alone (unknown)', async () => {
    const o = pagar(10, beneficiaryAccount, 'credito_inmediato');
    await plaza.execute(o);
    expect(await connector({ apiSecret: 'wrong' }).status(statusOf(o))).toMatchObject({ type: 'unknown', raw: { codigo: '0401' } });
  });
});

describe('faults', () => {
  it('timeout after acceptance → unknown; one order at the bank; no second call; status resolves it', async () => {
    const o = pagar(60, beneficiaryPhone, 'pago_movil');
    const orders = emu.controls.orderCount();
    emu.controls.timeoutAfterAccept(1);
    const outcome = await plaza.execute(o);
    expect(outcome.type).toBe('unknown');
    expect(emu.controls.orderCount()).toBe(orders + 1);
    expect(emu.controls.callsFor(o.orderRef)).toBe(1);
    expect(await plaza.status(statusOf(o))).toMatchObject({ type: 'settled', referencia: expect.any(String) });
    expect(emu.controls.callsFor(o.orderRef)).toBe(1);
  });

  it('a slow answer past the timeout → unknown, and the bank still executes it', async () => {
    // The HTTP client checks its answer timeout on a coarse (~1 s) tick: the delay stays well past it.
    const impatient = connector({ timeoutMs: 100 });
    const o = pagar(61, beneficiaryAccount, 'credito_inmediato');
    const orders = emu.controls.orderCount();
    emu.controls.delayNext(1, 3_000);
    expect((await impatient.execute(o)).type).toBe('unknown');
    expect(emu.controls.orderCount()).toBe(orders);
    await vi.waitFor(() => expect(emu.controls.orderCount()).toBe(orders + 1), { timeout: 10_000, interval: 100 });
    expect(await plaza.status(statusOf(o))).toMatchObject({ type: 'accepted', pending: true });
  });

  it('refused connection → not_processed', async () => {
    await emu.controls.refuseConnections(true);
    try {
      const outcome = await plaza.execute(pagar(10, beneficiaryPhone, 'pago_movil'));
      expect(outcome, JSON.stringify(outcome)).toMatchObject({ type: 'not_processed', raw: { reason: 'ECONNREFUSED' } });
    } finally {
      await emu.controls.refuseConnections(false);
    }
    expect((await plaza.execute(pagar(10, beneficiaryPhone, 'pago_movil'))).type).toBe('settled');
  });

  it('an HTTP 500 without a bank code → unknown for a money order', async () => {
    emu.controls.failNext(1, 500);
    expect(await plaza.execute(pagar(10, beneficiaryAccount, 'credito_inmediato'))).toMatchObject({
      type: 'unknown',
      raw: { status: 500 },
    });
  });

  it('the breaker opens after repeated failures, then closes after its reset timeout', async () => {
    const guarded = connector({
      breaker: { volumeThreshold: 2, errorThresholdPercentage: 50, resetTimeoutMs: 300, rollingCountTimeoutMs: 10_000 },
    });
    emu.controls.failNext(2, 502);
    expect((await guarded.execute(pagar(10, beneficiaryPhone, 'pago_movil'))).type).toBe('unknown');
    expect((await guarded.execute(pagar(10, beneficiaryPhone, 'pago_movil'))).type).toBe('unknown');
    expect(guarded.breakers.state('p2p')).toBe('open');
    const calls = emu.controls.callCount();
    expect(await guarded.execute(pagar(10, beneficiaryPhone, 'pago_movil'))).toMatchObject({
      type: 'not_processed',
      raw: { reason: expect.stringMatching(/circuit breaker open/) },
    });
    expect(emu.controls.callCount()).toBe(calls);
    await vi.waitFor(() => expect(guarded.breakers.state('p2p')).toBe('half_open'), { timeout: 5_000, interval: 50 });
    expect((await guarded.execute(pagar(10, beneficiaryPhone, 'pago_movil'))).type).toBe('settled');
    expect(guarded.breakers.state('p2p')).toBe('closed');
  });
});

describe('status queries', () => {
  it.each([
    ['0007', 200],
    ['0007', 400],
    ['0777', 422],
  ] as const)('an unlisted code %s (HTTP %i) on a pending Crédito Inmediato → unknown, never rejected', async (code, status) => {
    const o = pagar(10, beneficiaryAccount, 'credito_inmediato');
    const first = await plaza.execute(o);
    expect(first).toMatchObject({ type: 'accepted', pending: true });
    emu.controls.answerQueriesNext(1, code, status);
    expect(await plaza.status(statusOf(o, first))).toMatchObject({ type: 'unknown' });
    // The money still settles; the next query says so.
    emu.controls.settleAll();
    expect(await plaza.status(statusOf(o, first))).toMatchObject({ type: 'settled' });
  });

  it('an unlisted code on a pending Débito Inmediato → unknown', async () => {
    const { o, outcome } = await debit(21);
    emu.controls.answerQueriesNext(1, '0007');
    expect(await plaza.status(statusOf(o, outcome))).toMatchObject({ type: 'unknown' });
  });

  it.each([429, 500, 503])('a bare HTTP %i to a status query → unknown', async (status) => {
    const o = pagar(10, beneficiaryAccount, 'credito_inmediato');
    await plaza.execute(o);
    emu.controls.failNext(1, status);
    expect(await plaza.status(statusOf(o))).toMatchObject({ type: 'unknown' });
  });

  it('an order the bank never saw → not_processed', async () => {
    // A CCE order never given a reference was never sent: the book says so without asking the bank.
    const calls = emu.controls.callCount();
    expect(await plaza.status(statusOf(pagar(10, beneficiaryAccount, 'credito_inmediato')))).toMatchObject({ type: 'not_processed' });
    expect(emu.controls.callCount()).toBe(calls);
    // One given a reference but lost on the way: the bank's 404 / 0025.
    const lost = pagar(10, beneficiaryAccount, 'credito_inmediato');
    await emu.controls.refuseConnections(true);
    try {
      expect(await plaza.execute(lost)).toMatchObject({ type: 'not_processed' });
    } finally {
      await emu.controls.refuseConnections(false);
    }
    expect(await plaza.status(statusOf(lost))).toMatchObject({ type: 'not_processed', raw: { status: 404, codigo: '0025' } });
    expect(await plaza.status(statusOf(pagar(10, beneficiaryPhone, 'pago_movil')))).toMatchObject({ type: 'not_processed' });
    expect(await plaza.status(statusOf(cobrar(10, payerPhone(1), '12345678', 'debito_inmediato')))).toMatchObject({
      type: 'not_processed',
    });
  });

  it('a Débito Inmediato found by referencia_c alone (its answer was lost)', async () => {
    const { o } = await debit(20);
    expect(await plaza.status(statusOf(o))).toMatchObject({ type: 'accepted', pending: true, endtoend: expect.any(String) });
  });

  it('a C2P whose answer was lost has no reference to ask by → unknown', async () => {
    expect(await plaza.status(statusOf(cobrar(10, payerPhone(2), '12345678', 'c2p')))).toMatchObject({ type: 'unknown' });
  });

  it('a refused connection during a query → unknown (no evidence either way)', async () => {
    const o = pagar(10, beneficiaryAccount, 'credito_inmediato');
    await plaza.execute(o);
    await emu.controls.refuseConnections(true);
    try {
      expect((await plaza.status(statusOf(o))).type).toBe('unknown');
    } finally {
      await emu.controls.refuseConnections(false);
    }
  });
});

describe('balance and statement', () => {
  it('saldo has the shared shape and the ledger balance', async () => {
    const r = await plaza.saldo('test', { cuenta: MERCHANT.account });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(validatorFor(Saldo)(r.value)).toBe(true);
    expect(r.value).toMatchObject({ cuenta: MERCHANT.account, banco: 'banco_plaza', disponible: emu.ledger.balance(MERCHANT.account) });
  });

  it('movimientos has the shared shape, oldest first, paged locally', async () => {
    const cuenta = '01380000000000000555';
    for (const valor of [11, 12, 13]) await plaza.execute(pagar(valor, beneficiaryAccount, 'credito_inmediato'));
    // The P2P from a dedicated account gives it three movements.
    const from = connector({ account: cuenta, breaker: { volumeThreshold: 10_000 } });
    for (const valor of [1, 2, 3]) expect((await from.execute({ ...pagar(valor, beneficiaryPhone, 'pago_movil') })).type).toBe('settled');
    const desde = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const first = await from.movimientos('test', { cuenta, desde, limite: 2 });
    expect(first.ok).toBe(true);
    if (!first.ok) return;
    expect(validatorFor(Movimientos)(first.value)).toBe(true);
    expect(first.value.movimientos.map((m) => [m.tipo, m.monto])).toEqual([
      ['debito', 1],
      ['debito', 2],
    ]);
    expect(first.value.siguiente).not.toBeNull();
    const second = await from.movimientos('test', { cuenta, desde, limite: 2, cursor: first.value.siguiente! });
    expect(second.ok && second.value.movimientos.map((m) => m.monto)).toEqual([3]);
    expect(second.ok && second.value.siguiente).toBeNull();
  });

  it('an account the bank does not have → CUENTA_NO_EXISTE with the answer kept', async () => {
    expect(await plaza.saldo('test', { cuenta: '01380000000000099999' })).toMatchObject({
      ok: false,
      motivo: 'CUENTA_NO_EXISTE',
      raw: { codigo: '0014' },
    });
  });
});

describe('replicas sharing one API key', () => {
  it('four connectors with clocks 2 s apart, 400 concurrent payouts → 0 nonce refusals, every order settled once', async () => {
    const skews = [-2_000, -700, 0, 2_000];
    const replicas = skews.map((skew, i) =>
      connector({ replica: i, breaker: { volumeThreshold: 10_000 } }, () => new Date(Date.now() + skew)),
    );
    const calls = emu.controls.callCount();
    const orders = emu.controls.orderCount();
    const payouts = Array.from({ length: 400 }, (_, _i) => pagar(10, beneficiaryPhone, 'pago_movil'));
    const outcomes = await Promise.all(payouts.map((o, i) => replicas[i % replicas.length]!.execute(o)));
    expect(outcomes.filter((o) => o.type !== 'settled')).toEqual([]);
    // A refused nonce would have been re-sent: one call per order means none was refused.
    expect(emu.controls.callCount() - calls).toBe(400);
    expect(emu.controls.orderCount() - orders).toBe(400);
  });

  it('give every Crédito Inmediato its own reference through the shared book', async () => {
    const replicas = [connector({ replica: 1 }), connector({ replica: 2 })];
    const payouts = Array.from({ length: 40 }, () => pagar(10, beneficiaryAccount, 'credito_inmediato'));
    const outcomes = await Promise.all(payouts.map((o, i) => replicas[i % 2]!.execute(o)));
    expect(outcomes.every((o) => o.type === 'accepted')).toBe(true);
    const refs = await Promise.all(payouts.map((o) => references.find('banco_plaza:J123456789:referencia', o.orderRef)));
    expect(new Set(refs).size).toBe(40);
  });
});

describe('merchant accounts (edge)', () => {
  it("a live order's registered account is the one debited, not the connector's configured account", async () => {
    const own = '01380000000000000077';
    const o = { ...pagar(12.5, beneficiaryAccount, 'credito_inmediato'), account: { cuenta: own, telefono: null } };
    const outcome = await plaza.execute(o);
    expect(outcome.type).toBe('accepted');
    const sent = [...emu.ledger.orders.values()].filter((x) => x.kind === 'pagoO');
    expect(sent.map((x) => x.from)).toContain(own);
    expect(sent.every((x) => x.from !== MERCHANT.account || x.monto !== 12.5)).toBe(true);
  });

  it("a Crédito Inmediato's status is asked about the order's registered account (the emulator answers per account)", async () => {
    const own = { cuenta: '01380000000000000078', telefono: null, rif: 'J000000078' };
    const o = { ...pagar(13.25, beneficiaryAccount, 'credito_inmediato'), mode: 'live' as const, account: own };
    expect(await plaza.execute(o)).toMatchObject({ type: 'accepted' });
    const sent = [...emu.ledger.orders.values()].find((x) => x.kind === 'pagoO' && x.from === own.cuenta);
    expect(sent).toBeDefined();
    // The holder's RIF names the originator; the path's {rif} stays the API client's.
    expect(emu.controls.lastRequest('pagoO')).toMatchObject({
      path: `/v1/cce/pagoO/J00123456789`,
      body: { identificacion_o: 'J00000000078', cuenta_origen: own.cuenta },
    });
    emu.controls.settleAll();
    expect(await plaza.status({ ...statusOf(o), mode: 'live', account: own })).toMatchObject({ type: 'settled' });
    // Asked about the connector's configured account instead, the bank has no such credit.
    expect(await plaza.status({ ...statusOf(o), mode: 'live' })).toMatchObject({ type: 'not_processed', raw: { codigo: '0025' } });
  });

  it("an immediate debit's status is asked about the order's registered collecting account", async () => {
    const own = { cuenta: '01380000000000000079', telefono: null, rif: 'J000000079' };
    const pagador = payerPhone(payerSeq++);
    expect((await plaza.execute({ ...token(9, pagador), mode: 'live', account: own })).type).toBe('accepted');
    const otp = emu.controls.otpFor(pagador.valor)!;
    const o = { ...cobrar(9, pagador, otp, 'debito_inmediato'), mode: 'live' as const, account: own };
    const accepted = await plaza.execute(o);
    expect(accepted).toMatchObject({ type: 'accepted' });
    expect(emu.controls.lastRequest('cobroDI')).toMatchObject({
      body: { cuenta_cobrador: own.cuenta, identificacion_b: 'J00000000079' },
    });
    emu.controls.settleAll();
    expect(await plaza.status({ ...statusOf(o, accepted), mode: 'live', account: own })).toMatchObject({ type: 'settled' });
    expect(await plaza.status({ ...statusOf(o, accepted), mode: 'live' })).toMatchObject({ type: 'not_processed' });
  });
});
