import { randomBytes, randomUUID } from 'node:crypto';
import { BankHttpClient } from '@switch/connector-kit/send';
import { Movimientos, Saldo } from '@switch/core/contracts/bancos';
import { validatorFor } from '@switch/core/contracts/validation';
import type { BankOutcome, OperationRequest, Rail } from '@switch/core/operation';
import type { ExecuteOrder, StatusQuery } from '@switch/connector-kit/bank-port';
import type { Instrumento } from '@switch/core/contracts/fields';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmulator, type Emulator } from '../emulator';
import { BNC_CODES, classify } from './codes';
import { BncConnector, type BncConnectorConfig } from './connector';
import { addDays, envelopeReference, venezuelanDate } from './requests';

const GUID = '4A074C46-DD4E-4E54-8010-B80A6A8758F4';
const MASTER = 'test-master-key';
const ACCOUNT = '01910001482101010049';
const CLIENT_ID = 'J000121532';

let clock = new Date('2025-06-10T15:00:00Z');
const now = () => clock;

const comercio: Instrumento = { tipo: 'cuenta', valor: ACCOUNT, banco: '0191', identificacion: CLIENT_ID, nombre: 'Comercio' };
const telefono = (valor = '04141234567'): Instrumento => ({
  tipo: 'telefono',
  valor,
  banco: '0102',
  identificacion: 'V12345678',
  nombre: 'Ana Pérez',
});
const cuenta = (valor = '01020000000000000001'): Instrumento => ({
  tipo: 'cuenta',
  valor,
  banco: '0102',
  identificacion: 'V12345678',
  nombre: 'Ana Pérez',
});

const shared = (valor: number) => ({ idempotency_key: randomUUID(), monto: { valor, moneda: 'VES' as const }, concepto: 'pedido 42' });

function order(request: OperationRequest, rail: Rail, related: ExecuteOrder['related'] = null, orderRef?: string): ExecuteOrder {
  const txnId = `txn_${randomBytes(16).toString('hex')}`;
  return { txnId, attempt: 1, orderRef: orderRef ?? `${txnId}-1`, mode: 'live', rail, idempotencyKey: randomUUID(), request, related };
}
const pagar = (
  valor: number,
  beneficiario: Instrumento = telefono('04241234567'),
  via: 'pago_movil' | 'credito_inmediato' = 'pago_movil',
) =>
  order(
    { kind: 'pagar', body: { ...shared(valor), ordenante: comercio, beneficiario, via } },
    beneficiario.tipo === 'telefono' && via === 'pago_movil' ? 'pago_movil' : 'credito_inmediato',
  );
const token = (valor: number, pagador: Instrumento = telefono()) =>
  order({ kind: 'token', body: { ...shared(valor), cobrador: comercio, pagador } }, 'debito_inmediato');
const cobrar = (valor: number, otp: string, rail: 'c2p' | 'debito_inmediato', pagador: Instrumento = telefono()) =>
  order({ kind: 'cobrar', body: { ...shared(valor), cobrador: comercio, pagador, otp } }, rail);
const reverso = (related: ExecuteOrder['related']) =>
  order({ kind: 'reverso', body: { idempotency_key: randomUUID(), id: related?.id ?? 'txn_x' } }, 'reverso', related);

function statusOf(o: ExecuteOrder, outcome: BankOutcome): StatusQuery {
  const refs =
    outcome.type === 'settled' || outcome.type === 'accepted'
      ? { referencia: outcome.referencia, endtoend: outcome.endtoend }
      : { referencia: null, endtoend: null };
  return { txnId: o.txnId, attempt: 1, orderRef: o.orderRef, mode: 'live', rail: o.rail, kind: o.request.kind, ...refs };
}

const config = (emu: Emulator, over: Partial<BncConnectorConfig> = {}): BncConnectorConfig => ({
  baseUrl: emu.url,
  clientGuid: GUID,
  masterKey: MASTER,
  clientId: CLIENT_ID,
  account: ACCOUNT,
  terminal: 'TERM0001',
  timeoutMs: 10_000,
  ...over,
});

describe('BNC connector against the emulator', () => {
  let emu: Emulator;
  let bnc: BncConnector;
  const connectors: BncConnector[] = [];
  const make = (over: Partial<BncConnectorConfig> = {}, http?: BankHttpClient) => {
    const c = new BncConnector(config(emu, over), { now, http });
    connectors.push(c);
    return c;
  };

  beforeAll(async () => {
    emu = await startEmulator({
      port: 0,
      credentials: { clientGuid: GUID, masterKey: MASTER, clientId: CLIENT_ID, account: ACCOUNT },
      now,
    });
    bnc = make();
  });
  afterAll(async () => {
    for (const c of connectors) await c.close();
    await emu.close();
  });

  describe('never a false final answer', () => {
    it('an unlisted code on an order → unknown, never a rejection', async () => {
      emu.controls.rejectNext(1, 'ZZ99', 'MobPayment/SendP2P');
      expect(await bnc.execute(pagar(10))).toMatchObject({ type: 'unknown' });
    });

    it.each([429, 400, 404, 408])('a bare HTTP %i on an order → unknown', async (status) => {
      emu.controls.failNext(1, status, 'SIMF/CreditBeginner');
      expect(await bnc.execute(pagar(10, cuenta('01050000000000000042'), 'credito_inmediato'))).toMatchObject({ type: 'unknown' });
    });
  });

  describe('orders', () => {
    it('token: asks BNC to send the payer an OTP → accepted', async () => {
      const outcome = await bnc.execute(token(50, telefono('04141110001')));
      expect(outcome).toMatchObject({ type: 'accepted', pending: false });
      expect(emu.controls.otpFor('04141110001')).toMatch(/^[0-9]{8}$/);
    });

    it('cobrar by Débito Inmediato with the OTP → accepted pending; settles asynchronously', async () => {
      const payer = telefono('04141110002');
      await bnc.execute(token(75.5, payer));
      const o = cobrar(75.5, emu.controls.otpFor(payer.valor)!, 'debito_inmediato', payer);
      const merchantBefore = emu.ledger.balanceOf(ACCOUNT);

      const outcome = await bnc.execute(o);
      expect(outcome).toMatchObject({
        type: 'accepted',
        pending: true,
        referencia: expect.any(String),
        endtoend: expect.stringMatching(/^0191/),
      });
      expect(await bnc.status(statusOf(o, outcome))).toMatchObject({ type: 'accepted', pending: true });

      emu.controls.settleAll();
      expect(await bnc.status(statusOf(o, outcome))).toMatchObject({
        type: 'settled',
        referencia: (outcome as { referencia: string }).referencia,
      });
      expect(emu.ledger.balanceOf(ACCOUNT)).toBe(merchantBefore + 75.5);
    });

    it('cobrar by Débito Inmediato with a wrong or expired OTP → OTP_INVALIDO (TKCM)', async () => {
      const payer = telefono('04141110003');
      await bnc.execute(token(10, payer));
      const otp = emu.controls.otpFor(payer.valor)!;
      const wrong = await bnc.execute(cobrar(10, otp === '11111111' ? '22222222' : '11111111', 'debito_inmediato', payer));
      expect(wrong).toMatchObject({ type: 'rejected', motivo: 'OTP_INVALIDO', raw: { codigo: 'TKCM' } });

      clock = new Date(clock.getTime() + 121_000);
      const expired = await bnc.execute(cobrar(10, otp, 'debito_inmediato', payer));
      expect(expired).toMatchObject({ type: 'rejected', motivo: 'OTP_INVALIDO', raw: { codigo: 'TKCM' } });
    });

    it('cobrar by C2P → settled at once, the payer debited', async () => {
      const payer = telefono('04141110004');
      const outcome = await bnc.execute(cobrar(30, '123456', 'c2p', payer));
      expect(outcome).toMatchObject({
        type: 'settled',
        referencia: expect.stringMatching(/^[0-9]+$/),
        raw: { status: 'OK', codigo: '000000' },
      });
      expect(emu.ledger.balanceOf('584141110004')).toBe(1_000_000 - 30);
    });

    it('pagar by Pago Móvil → settled; the same order again is refused DUPLICADA by the bank (its Reference), not paid twice, and its status finds the original', async () => {
      const o = pagar(21.3);
      const first = await bnc.execute(o);
      const orders = emu.controls.orderCount();
      const duplicates = emu.controls.stats().duplicates;
      const again = await bnc.execute(o);
      expect(first).toMatchObject({ type: 'settled', referencia: expect.any(String) });
      expect(again).toMatchObject({ type: 'rejected', motivo: 'DUPLICADA', raw: { status: 'KO', codigo: 'G94' } });
      expect(emu.controls.orderCount()).toBe(orders);
      expect(emu.controls.stats().duplicates).toBe(duplicates + 1);
      // What the bank worker asks next: the status by the same order (no bank reference from the refusal).
      const status = await bnc.status({ ...statusOf(o, again), referencia: null });
      expect(status).toMatchObject({ type: 'settled', referencia: (first as { referencia: string }).referencia });
    });

    it('pagar by Pago Móvil redelivered on another day: OperationRef makes BNC answer SwAlreadySent', async () => {
      const o = pagar(22.4);
      const first = await bnc.execute(o);
      const paid = [...emu.ledger.orders.values()].filter((x) => x.kind === 'p2p').length;
      clock = new Date(clock.getTime() + 24 * 3600_000);
      const again = await bnc.execute(o);
      expect(again).toMatchObject({
        type: 'settled',
        referencia: (first as { referencia: string }).referencia,
        raw: { value: { SwAlreadySent: true } },
      });
      expect([...emu.ledger.orders.values()].filter((x) => x.kind === 'p2p')).toHaveLength(paid);
    });

    it('pagar by Crédito Inmediato → accepted; a settlement rejection comes back through status', async () => {
      const o = pagar(40, cuenta(), 'credito_inmediato');
      const outcome = await bnc.execute(o);
      expect(outcome).toMatchObject({ type: 'accepted', pending: true, referencia: expect.any(String), endtoend: expect.any(String) });
      emu.controls.settle((outcome as { referencia: string }).referencia, 'AC01');
      expect(await bnc.status(statusOf(o, outcome))).toMatchObject({
        type: 'rejected',
        motivo: 'CUENTA_NO_EXISTE',
        raw: { codigo: 'AC01' },
      });
    });

    it('pagar by Crédito Inmediato to a phone, rejected at settlement by the magic amount .77 (AM04)', async () => {
      const o = pagar(40.77, telefono('04241110005'), 'credito_inmediato');
      const outcome = await bnc.execute(o);
      expect(outcome.type).toBe('accepted');
      emu.controls.settleAll();
      expect(await bnc.status(statusOf(o, outcome))).toMatchObject({ type: 'rejected', motivo: 'SALDO_INSUFICIENTE' });
    });

    it('reverso of a C2P collection → settled; a second reversal is refused as duplicate', async () => {
      const payer = telefono('04141110006');
      const c2p = cobrar(18, '654321', 'c2p', payer);
      const collected = (await bnc.execute(c2p)) as { referencia: string };
      const related = { id: c2p.txnId, referencia: collected.referencia, rail: 'c2p' as const };

      expect(await bnc.execute(reverso(related))).toMatchObject({ type: 'settled', referencia: expect.any(String) });
      expect(emu.ledger.balanceOf('584141110006')).toBe(1_000_000);
      expect(await bnc.execute(reverso(related))).toMatchObject({ type: 'rejected', motivo: 'DUPLICADA', raw: { codigo: 'G94' } });
    });

    it('reverso of anything but C2P → NO_SOPORTADO without calling BNC', async () => {
      const calls = emu.controls.stats().calls;
      const outcome = await bnc.execute(reverso({ id: 'txn_p2p', referencia: '12345', rail: 'pago_movil' }));
      expect(outcome).toMatchObject({ type: 'rejected', motivo: 'NO_SOPORTADO', raw: { codigo: 'NO_SOPORTADO' } });
      expect(emu.controls.stats().calls).toBe(calls);
    });
  });

  describe('rejections keep the bank answer', () => {
    const nonIso = Object.keys(BNC_CODES).filter(
      (c) => !/^[A-Z]{4}$|^[A-Z]{2}[0-9]{2}$/.test(c) && !['000000', 'EPIRWK', 'SMF001'].includes(c),
    );
    const iso = Object.keys(BNC_CODES).filter((c) => /^[A-Z]{4}$|^[A-Z]{2}[0-9]{2}$/.test(c) && !['ACCP', 'AC00'].includes(c));
    const expected = (code: string, family: 'p2p' | 'simf') => {
      const c = classify(code, family);
      return c.disposition === 'reject' ? { type: 'rejected', motivo: c.motivo } : { type: c.disposition };
    };

    it.each(nonIso)('Pago Móvil answered %s', async (code) => {
      emu.controls.rejectNext(1, code, 'MobPayment/SendP2P');
      const outcome = await bnc.execute(pagar(10));
      expect(outcome).toMatchObject(expected(code, 'p2p'));
      expect(outcome.raw).toMatchObject({
        codigo: code,
        status: 'KO',
        descripcion: expect.any(String),
        body: expect.objectContaining({ status: 'KO' }),
      });
    });

    it.each(iso)('Crédito Inmediato answered RJCT %s', async (code) => {
      emu.controls.rejectNext(1, code, 'SIMF/CreditBeginner');
      const outcome = await bnc.execute(pagar(10, cuenta(), 'credito_inmediato'));
      expect(outcome).toMatchObject(expected(code, 'simf'));
      expect(outcome.raw).toMatchObject({ codigo: code, status: 'OK', value: expect.objectContaining({ Status: 'RJCT', Code: code }) });
    });

    it('C2P reads G41 as a blocked instrument and G55 (magic .55) as a wrong payer key', async () => {
      emu.controls.rejectNext(1, 'G41', 'MobPayment/SendC2P');
      expect(await bnc.execute(cobrar(10, '123456', 'c2p'))).toMatchObject({
        type: 'rejected',
        motivo: 'CUENTA_BLOQUEADA',
        raw: { codigo: 'G41' },
      });
      expect(await bnc.execute(cobrar(10.55, '123456', 'c2p'))).toMatchObject({
        type: 'rejected',
        motivo: 'OTP_INVALIDO',
        raw: { codigo: 'G55' },
      });
    });

    it('magic amounts pick the insufficient-funds answer (.51) on every rail', async () => {
      expect(await bnc.execute(pagar(10.51))).toMatchObject({ type: 'rejected', motivo: 'SALDO_INSUFICIENTE', raw: { codigo: 'G51' } });
      expect(await bnc.execute(pagar(10.51, cuenta(), 'credito_inmediato'))).toMatchObject({
        type: 'rejected',
        motivo: 'SALDO_INSUFICIENTE',
        raw: { codigo: 'AM04' },
      });
    });
  });

  describe('authentication', () => {
    it('a WorkingKey revoked by the bank (EPIRWK): logs on again and retries once; the order runs once', async () => {
      await bnc.saldo('live', { cuenta: ACCOUNT });
      emu.controls.revokeWorkingKeys();
      const before = emu.controls.stats();
      const orders = emu.controls.orderCount();
      const o = pagar(11);
      const outcome = await bnc.execute(o);
      const after = emu.controls.stats();
      expect(outcome).toMatchObject({ type: 'settled', raw: { relogon: true } });
      expect(after.logons).toBe(before.logons + 1);
      expect(after.refusals.EPIRWK).toBe((before.refusals.EPIRWK ?? 0) + 1);
      expect(emu.controls.callsFor(envelopeReference(o.orderRef))).toBe(2);
      expect(emu.controls.orderCount()).toBe(orders + 1);
    });

    it('EPIRWK again with a fresh key → FIRMA_AUTH, nothing executed', async () => {
      emu.controls.rejectNext(2, 'EPIRWK', 'MobPayment/SendP2P');
      const orders = emu.controls.orderCount();
      const outcome = await bnc.execute(pagar(12));
      expect(outcome).toMatchObject({ type: 'rejected', motivo: 'FIRMA_AUTH', raw: { codigo: 'EPIRWK', relogon: true } });
      expect(emu.controls.orderCount()).toBe(orders);
    });

    it('a new Venezuelan day: logs on before the first call instead of waiting for EPIRWK', async () => {
      await bnc.saldo('live', { cuenta: ACCOUNT });
      const before = emu.controls.stats();
      // Midnight in Caracas is 04:00Z: the key issued "today" is dead from then on.
      clock = new Date(`${addDays(venezuelanDate(clock), 1)}T04:00:00Z`);
      expect(await bnc.execute(pagar(13))).toMatchObject({ type: 'settled' });
      const after = emu.controls.stats();
      expect(after.logons).toBe(before.logons + 1);
      expect(after.refusals.EPIRWK ?? 0).toBe(before.refusals.EPIRWK ?? 0);
    });

    it('a wrong MasterKey or ClientGUID → FIRMA_AUTH, the order never sent', async () => {
      const orders = emu.controls.orderCount();
      expect(await make({ masterKey: 'not-the-key' }).execute(pagar(14))).toMatchObject({
        type: 'rejected',
        motivo: 'FIRMA_AUTH',
        raw: { etapa: 'logon', codigo: 'EPIHV' },
      });
      expect(await make({ clientGuid: '11111111-2222-3333-4444-555555555555' }).execute(pagar(14))).toMatchObject({
        type: 'rejected',
        motivo: 'FIRMA_AUTH',
        raw: { codigo: 'EPICNF' },
      });
      expect(emu.controls.orderCount()).toBe(orders);
    });

    it('a request whose Validation BNC cannot verify → FIRMA_AUTH (EPIHV)', async () => {
      class Tampering extends BankHttpClient {
        override send(req: Parameters<BankHttpClient['send']>[0]) {
          if (!req.url.endsWith('/Auth/LogOn') && req.body)
            req = { ...req, body: req.body.replace(/"Validation":"[0-9a-f]{4}/, '"Validation":"0000') };
          return super.send(req);
        }
      }
      const tampering = new Tampering();
      const outcome = await make({}, tampering).execute(pagar(15));
      await tampering.close();
      expect(outcome).toMatchObject({ type: 'rejected', motivo: 'FIRMA_AUTH', raw: { codigo: 'EPIHV' } });
    });

    it('EPIONA (no permission) → FIRMA_AUTH', async () => {
      emu.controls.rejectNext(1, 'EPIONA', 'MobPayment/SendC2P');
      expect(await bnc.execute(cobrar(16, '123456', 'c2p'))).toMatchObject({
        type: 'rejected',
        motivo: 'FIRMA_AUTH',
        raw: { codigo: 'EPIONA' },
      });
    });
  });

  describe('transport failures', () => {
    it('no answer after BNC took the order → unknown; one order at the bank, no second call', async () => {
      const impatient = make({ timeoutMs: 300 });
      await impatient.saldo('live', { cuenta: ACCOUNT });
      emu.controls.timeoutAfterAccept(1, 'hang', 'MobPayment/SendP2P');
      const orders = emu.controls.orderCount();
      const o = pagar(17);
      expect(await impatient.execute(o)).toMatchObject({ type: 'unknown' });
      expect(emu.controls.orderCount()).toBe(orders + 1);
      expect(emu.controls.callsFor(envelopeReference(o.orderRef))).toBe(1);
      // The statement resolves it: BNC marked the movement with our Reference.
      expect(await impatient.status(statusOf(o, { type: 'unknown', raw: {} }))).toMatchObject({
        type: 'settled',
        referencia: expect.any(String),
      });
    });

    it('connection refused → not_processed', async () => {
      await bnc.saldo('live', { cuenta: ACCOUNT });
      await emu.controls.refuseConnections(true);
      try {
        expect(await bnc.execute(pagar(18))).toMatchObject({ type: 'not_processed', raw: { reason: 'ECONNREFUSED' } });
      } finally {
        await emu.controls.refuseConnections(false);
      }
    });

    it('HTTP 5xx without a BNC answer → unknown for a money order', async () => {
      emu.controls.failNext(1, 503, 'MobPayment/SendP2P');
      expect(await bnc.execute(pagar(19))).toMatchObject({ type: 'unknown', raw: { http_status: 503, codigo: 'HTTP503' } });
    });

    it('the breaker opens after repeated failures, keeps calls away from BNC, and closes after its reset', async () => {
      const guarded = make({
        breaker: { errorThresholdPercentage: 50, volumeThreshold: 3, resetTimeoutMs: 200, rollingCountTimeoutMs: 10_000 },
      });
      await guarded.saldo('live', { cuenta: ACCOUNT });
      emu.controls.failNext(3, 500, 'MobPayment/SendP2P');
      for (let i = 0; i < 3; i++) expect((await guarded.execute(pagar(20))).type).toBe('unknown');
      expect(guarded.breakers.state('MobPayment/SendP2P')).toBe('open');

      const reached = emu.controls.stats().byPath['MobPayment/SendP2P'];
      expect(await guarded.execute(pagar(20))).toMatchObject({
        type: 'not_processed',
        raw: { reason: expect.stringContaining('circuit breaker open') },
      });
      expect(emu.controls.stats().byPath['MobPayment/SendP2P']).toBe(reached);

      await vi.waitFor(() => expect(guarded.breakers.state('MobPayment/SendP2P')).toBe('half_open'), { timeout: 10_000, interval: 20 });
      expect(await guarded.execute(pagar(20))).toMatchObject({ type: 'settled' });
      expect(guarded.breakers.state('MobPayment/SendP2P')).toBe('closed');
    });
  });

  describe('status', () => {
    it('C2P and P2P are found in the statement by the Reference BNC marks them with', async () => {
      const o = cobrar(23, '123456', 'c2p', telefono('04141110007'));
      const outcome = await bnc.execute(o);
      expect(await bnc.status(statusOf(o, outcome))).toMatchObject({
        type: 'settled',
        referencia: (outcome as { referencia: string }).referencia,
      });
    });

    it('an order BNC never saw → not_processed (SIMF: SMF001; P2P: no movement)', async () => {
      const simf = pagar(24, cuenta(), 'credito_inmediato');
      expect(await bnc.status(statusOf(simf, { type: 'unknown', raw: {} }))).toMatchObject({
        type: 'not_processed',
        raw: { codigo: 'SMF001' },
      });
      const p2p = pagar(24);
      expect(await bnc.status(statusOf(p2p, { type: 'unknown', raw: {} }))).toMatchObject({ type: 'not_processed' });
    });

    it('a SIMF order found by our Reference when its answer was lost', async () => {
      const o = pagar(25, cuenta(), 'credito_inmediato');
      emu.controls.timeoutAfterAccept(1, 'destroy', 'SIMF/CreditBeginner');
      expect((await bnc.execute(o)).type).toBe('unknown');
      expect(await bnc.status(statusOf(o, { type: 'unknown', raw: {} }))).toMatchObject({ type: 'accepted', pending: true });
    });

    it('a status query that fails teaches nothing: unknown, never a rejection', async () => {
      emu.controls.failNext(1, 500, 'SIMF/GetStatusTrans');
      const o = pagar(26, cuenta(), 'credito_inmediato');
      expect(await bnc.status(statusOf(o, { type: 'unknown', raw: {} }))).toMatchObject({ type: 'unknown' });
    });
  });

  describe('reads', () => {
    it('saldo: the merchant account balance in the shared shape', async () => {
      const r = await bnc.saldo('live', { cuenta: ACCOUNT });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(validatorFor(Saldo)(r.value)).toBe(true);
      expect(r.value).toMatchObject({ cuenta: ACCOUNT, banco: 'bnc', disponible: emu.ledger.balanceOf(ACCOUNT) });
      expect(await bnc.saldo('live', { cuenta: '01910000000000000099' })).toMatchObject({ ok: false, motivo: 'CUENTA_NO_EXISTE' });
    });

    it('movimientos: statement lines in the shared shape, paged locally', async () => {
      const today = new Date(clock.getTime() - 4 * 3600_000).toISOString().slice(0, 10);
      await bnc.execute(cobrar(31, '123456', 'c2p', telefono('04141110008')));
      await bnc.execute(pagar(32));
      const first = await bnc.movimientos('live', { cuenta: ACCOUNT, desde: today, limite: 1 });
      expect(first.ok).toBe(true);
      if (!first.ok) return;
      expect(validatorFor(Movimientos)(first.value)).toBe(true);
      expect(first.value.movimientos).toHaveLength(1);
      expect(first.value.siguiente).not.toBeNull();

      const all = await bnc.movimientos('live', { cuenta: ACCOUNT, desde: today });
      if (!all.ok) throw new Error('movimientos failed');
      expect(all.value.movimientos).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ tipo: 'credito', monto: 31 }),
          expect.objectContaining({ tipo: 'debito', monto: 32 }),
        ]),
      );
      const second = await bnc.movimientos('live', { cuenta: ACCOUNT, desde: today, limite: 1, cursor: first.value.siguiente! });
      if (!second.ok) throw new Error('second page failed');
      expect(second.value.movimientos[0]).toEqual(all.value.movimientos[1]);
    });

    it('movimientos over more than 31 days asks BNC in 31-day windows', async () => {
      const calls = emu.controls.stats().byPath['Position/HistoryByDate'] ?? 0;
      const hasta = new Date(clock.getTime() - 4 * 3600_000).toISOString().slice(0, 10);
      const desde = new Date(Date.parse(`${hasta}T00:00:00Z`) - 40 * 86_400_000).toISOString().slice(0, 10);
      const r = await bnc.movimientos('live', { cuenta: ACCOUNT, desde, hasta });
      expect(r.ok).toBe(true);
      expect(emu.controls.stats().byPath['Position/HistoryByDate']).toBe(calls + 2);

      const tooLong = await bnc.movimientos('live', { cuenta: ACCOUNT, desde: '2020-01-01', hasta });
      expect(tooLong).toMatchObject({ ok: false, motivo: 'EXCEDE_LIMITE' });
      expect(emu.controls.stats().byPath['Position/HistoryByDate']).toBe(calls + 2);
    });
  });
  describe('merchants under the ClientGUID (ChildClientID)', () => {
    const CHILD = { clientId: 'J000000191', account: '01910000000000000191' };
    const OTHER = { clientId: 'J000000292', account: '01910000000000000292' };
    const own = { cuenta: CHILD.account, telefono: null, rif: CHILD.clientId };
    const other = { cuenta: OTHER.account, telefono: null, rif: OTHER.clientId };
    const forChild = <T extends ExecuteOrder>(o: T, account: ExecuteOrder['account'] = own): T => ({ ...o, account });
    const statusFor = (o: ExecuteOrder, outcome: BankOutcome, account = own): StatusQuery => ({ ...statusOf(o, outcome), account });

    beforeAll(() => {
      emu.controls.addChild(CHILD, 5_000);
      emu.controls.addChild(OTHER, 5_000);
    });

    it("a live order acts as the registered holder: its money moves in the child's own account, not the switch's", async () => {
      const [parentBefore, childBefore] = [emu.ledger.balanceOf(ACCOUNT), emu.ledger.balanceOf(CHILD.account)];
      const paid = await bnc.execute(forChild(pagar(41, telefono('04241230041'))));
      expect(paid).toMatchObject({ type: 'settled' });
      const collected = await bnc.execute(forChild(cobrar(100, '123456', 'c2p', telefono('04141230042'))));
      expect(collected).toMatchObject({ type: 'settled' });
      expect(emu.ledger.balanceOf(CHILD.account)).toBeCloseTo(childBefore - 41 + 100, 2);
      expect(emu.ledger.balanceOf(ACCOUNT)).toBeCloseTo(parentBefore, 2);
    });

    it("status queries ask as the order's merchant about its account: another merchant's view does not find it", async () => {
      const p2p = forChild(pagar(42, telefono('04241230043')));
      const paid = await bnc.execute(p2p);
      expect(await bnc.status(statusFor(p2p, paid))).toMatchObject({ type: 'settled' });
      // Asked as the switch (no account) or as another child, BNC shows no such movement.
      expect(await bnc.status(statusOf(p2p, paid))).toMatchObject({ type: 'not_processed' });
      expect(await bnc.status(statusFor(p2p, paid, other))).toMatchObject({ type: 'not_processed' });

      const ci = forChild(pagar(43, cuenta('01050000000000000043'), 'credito_inmediato'));
      const accepted = await bnc.execute(ci);
      expect(accepted).toMatchObject({ type: 'accepted', pending: true });
      emu.controls.settleAll();
      expect(await bnc.status(statusFor(ci, accepted))).toMatchObject({ type: 'settled' });
      expect(await bnc.status(statusOf(ci, accepted))).toMatchObject({ type: 'not_processed', raw: { codigo: 'SMF001' } });
    });

    it("a C2P reversal finds the original in the child's statement and refunds from the child's account", async () => {
      const payer = telefono('04141230044');
      const collected = await bnc.execute(forChild(cobrar(44, '123456', 'c2p', payer)));
      const before = emu.ledger.balanceOf(CHILD.account);
      const related = { id: 'txn_c2p', referencia: (collected as { referencia: string }).referencia, rail: 'c2p' as const };
      expect(await bnc.execute(forChild(reverso(related)))).toMatchObject({ type: 'settled' });
      expect(emu.ledger.balanceOf(CHILD.account)).toBeCloseTo(before - 44, 2);
    });

    it("balance and statement read the child's account as the child", async () => {
      const saldo = await bnc.saldo('live', { cuenta: CHILD.account }, { merchantId: 'm', account: own });
      expect(saldo).toMatchObject({ ok: true, value: { cuenta: CHILD.account, disponible: emu.ledger.balanceOf(CHILD.account) } });
      // As the switch (no registered account), the child's account is not among its accounts.
      expect(await bnc.saldo('live', { cuenta: CHILD.account })).toMatchObject({ ok: false, motivo: 'CUENTA_NO_EXISTE' });
      const today = venezuelanDate(clock);
      const lines = await bnc.movimientos('live', { cuenta: CHILD.account, desde: today }, { merchantId: 'm', account: own });
      expect(lines.ok && lines.value.movimientos.length).toBeGreaterThan(0);
    });

    it('a merchant BNC does not know under this ClientGUID → EPIMC2, FIRMA_AUTH, nothing moved, never rerouted', async () => {
      const before = emu.controls.orderCount();
      const stranger = { cuenta: '01910000000000000393', telefono: null, rif: 'J000000393' };
      expect(await bnc.execute(forChild(pagar(45), stranger))).toMatchObject({
        type: 'rejected',
        motivo: 'FIRMA_AUTH',
        raw: { codigo: 'EPIMC2' },
      });
      expect(emu.controls.orderCount()).toBe(before);
    });

    it('credentials without the child permission → EPIMC1, FIRMA_AUTH', async () => {
      const strict = await startEmulator({
        port: 0,
        credentials: { clientGuid: GUID, masterKey: MASTER, clientId: CLIENT_ID, account: ACCOUNT },
        children: [CHILD],
        childPermission: false,
        now,
      });
      const c = new BncConnector(config(strict), { now });
      try {
        expect(await c.execute(forChild(pagar(46)))).toMatchObject({ type: 'rejected', motivo: 'FIRMA_AUTH', raw: { codigo: 'EPIMC1' } });
        // The switch's own merchant (no child) is still served.
        expect(await c.execute(pagar(46))).toMatchObject({ type: 'settled' });
      } finally {
        await c.close();
        await strict.close();
      }
    });

    it("the switch's own account is the parent (no ChildClientID); a registered account without a RIF is refused before sending", async () => {
      const before = emu.ledger.balanceOf(ACCOUNT);
      expect(await bnc.execute(forChild(pagar(47), { cuenta: ACCOUNT, telefono: null }))).toMatchObject({ type: 'settled' });
      expect(await bnc.execute(forChild(pagar(48), { cuenta: ACCOUNT, telefono: null, rif: 'J121532' }))).toMatchObject({
        type: 'settled',
      });
      expect(emu.ledger.balanceOf(ACCOUNT)).toBeCloseTo(before - 47 - 48, 2);
      const calls = emu.controls.stats().calls;
      expect(await bnc.execute(forChild(pagar(49), { cuenta: CHILD.account, telefono: null }))).toMatchObject({
        type: 'rejected',
        motivo: 'FIRMA_AUTH',
        raw: { codigo: 'FORMATO' },
      });
      expect(emu.controls.stats().calls).toBe(calls);
    });

    it('an order answered SMF001 ("operación no encontrada") is unknown, never a reroute', async () => {
      emu.controls.rejectNext(1, 'SMF001', 'SIMF/CreditBeginner');
      expect(await bnc.execute(forChild(pagar(50, cuenta('01050000000000000050'), 'credito_inmediato')))).toMatchObject({
        type: 'unknown',
        raw: { codigo: 'SMF001' },
      });
    });
  });
});
