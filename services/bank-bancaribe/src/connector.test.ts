import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Movimientos, Saldo } from '@switch/core/contracts/bancos';
import { validatorFor } from '@switch/core/contracts/validation';
import type { BankOutcome } from '@switch/core/operation';
import type { MotivoRechazo } from '@switch/core/estados';
import { startEmulator, DEFAULT_MERCHANT, type Emulator } from '../emulator';
import { CODIGOS_ERROR, ERRORES_CUENTAS, RAZONES_ISO } from '../emulator/catalog';
import { BancaribeConnector } from './connector';
import { c2p, connectorConfig, CREDENTIALS, pagar, ref, reverso, statusOf, token } from '../test/fixtures';

/** What each bank code must become; written out here, apart from codes.ts, so a slip there fails. */
const MOTIVO_DE_CODIGO: Record<string, MotivoRechazo | 'not_processed' | 'unknown'> = {
  '5': 'OTP_INVALIDO',
  '13': 'MONTO_INVALIDO',
  // "Registro no encontrado" does not say an order did not run: unknown, then queried (the kit's rule).
  '25': 'unknown',
  '51': 'SALDO_INSUFICIENTE',
  '56': 'NO_AFILIADO_SERVICIO',
  '61': 'EXCEDE_LIMITE',
  '63': 'FIRMA_AUTH',
  '91': 'not_processed',
  '94': 'DUPLICADA',
  // "Error de sistema" does not say an order did not run either: unknown, then queried.
  '96': 'unknown',
};

const MOTIVO_DE_ERROR_CUENTA: Record<string, MotivoRechazo> = {
  '80049': 'RECHAZO_TECNICO',
  '103000': 'FIRMA_AUTH',
  '701114': 'FIRMA_AUTH',
  '101042': 'FIRMA_AUTH',
  '201025': 'RECHAZO_TECNICO',
  '101032': 'RECHAZO_TECNICO',
  '101128': 'CUENTA_BLOQUEADA',
  '201004': 'CUENTA_NO_EXISTE',
};

const MOTIVO_DE_RAZON_ISO: Record<string, MotivoRechazo | 'unknown'> = {
  AB01: 'unknown',
  AB07: 'BANCO_NO_DISPONIBLE',
  AC01: 'CUENTA_NO_EXISTE',
  AC04: 'CUENTA_NO_EXISTE',
  AC06: 'CUENTA_BLOQUEADA',
  AC09: 'MONTO_INVALIDO',
  AG09: 'RECHAZO_TECNICO',
  AG10: 'BANCO_NO_DISPONIBLE',
  AM02: 'EXCEDE_LIMITE',
  AM03: 'MONTO_INVALIDO',
  AM04: 'SALDO_INSUFICIENTE',
  AM05: 'DUPLICADA',
  BE01: 'BENEFICIARIO_NO_COINCIDE',
  BE20: 'RECHAZO_TECNICO',
  CUST: 'CANCELADA_POR_PAGADOR',
  CH20: 'MONTO_INVALIDO',
  DT03: 'FUERA_DE_HORARIO',
  DU01: 'DUPLICADA',
  FF05: 'RECHAZO_TECNICO',
  FF07: 'RECHAZO_TECNICO',
  RC08: 'CUENTA_NO_EXISTE',
  RJCT: 'DESCONOCIDO',
  TKCM: 'OTP_INVALIDO',
  VE01: 'RECHAZO_TECNICO',
  VE02: 'RECHAZO_TECNICO',
  MD15: 'DESCONOCIDO',
};

function expectRejected(outcome: BankOutcome, motivo: MotivoRechazo, codigo: string): void {
  expect(outcome).toMatchObject({ type: 'rejected', motivo, raw: { codigo, descripcion: expect.any(String) } });
  // The bank's untouched answer travels with the rejection.
  expect((outcome as { raw: Record<string, unknown> }).raw.body).toBeTypeOf('object');
}

describe('Bancaribe connector against the emulator', () => {
  let emulator: Emulator;
  let connector: BancaribeConnector;

  beforeAll(async () => {
    emulator = await startEmulator({ credentials: CREDENTIALS, settleDelayMs: 0 });
    connector = new BancaribeConnector(connectorConfig(emulator));
  });
  afterEach(() => emulator.controls.reset());
  afterAll(async () => {
    await connector.close();
    await emulator.close();
  });

  describe('never a false final answer', () => {
    it('an unlisted code on an order → unknown, never a rejection', async () => {
      emulator.controls.rejectNext(1, '777');
      expect(
        await connector.execute(pagar(ref('unk'), 10, 'pago_movil', { tipo: 'telefono', valor: '04241112299', banco: '0105' })),
      ).toMatchObject({ type: 'unknown' });
    });

    it.each([429, 400, 404])('a bare HTTP %i on an order → unknown', async (status) => {
      emulator.controls.failNext(1, status);
      expect(
        await connector.execute(
          pagar(ref('bare'), 10, 'credito_inmediato', { tipo: 'cuenta', valor: '01050000000000000042', banco: '0105' }),
        ),
      ).toMatchObject({ type: 'unknown' });
    });
  });

  describe('collections', () => {
    it('collects by C2P: settled with the bank secuencial, money moved payer → merchant', async () => {
      const merchantBefore = emulator.ledger.balance(DEFAULT_MERCHANT.cuenta);
      const payerBefore = emulator.ledger.balance('tel:04241112233');
      const o = c2p(ref('c2p'), 150.25, { telefono: '04241112233' });
      const outcome = await connector.execute(o);
      expect(outcome).toMatchObject({
        type: 'settled',
        referencia: expect.stringMatching(/^[0-9]+$/),
        endtoend: null,
        raw: { codigo: '0' },
      });
      expect(emulator.ledger.balance(DEFAULT_MERCHANT.cuenta)).toBeCloseTo(merchantBefore + 150.25, 2);
      expect(emulator.ledger.balance('tel:04241112233')).toBeCloseTo(payerBefore - 150.25, 2);
      expect(emulator.ledger.order(o.orderRef)).toMatchObject({ type: 'C2P', estatus: 'APROBADA', cents: 15025 });
    });

    it("checks the payer's C2P key when his bank issued one", async () => {
      const telefono = '04167778899';
      const clave = emulator.controls.issueC2pKey(telefono);
      const wrong = await connector.execute(c2p(ref('c2p-key'), 20, { telefono, otp: clave === '87654321' ? '12345678' : '87654321' }));
      expectRejected(wrong, 'OTP_INVALIDO', '5');
      expect(await connector.execute(c2p(ref('c2p-key'), 20, { telefono, otp: clave }))).toMatchObject({ type: 'settled' });
    });

    it('sends one order per reference: a repeat gets the original answer, not a second debit', async () => {
      const o = c2p(ref('c2p-dup'), 10);
      const first = await connector.execute(o);
      const count = emulator.controls.orderCount();
      expect(await connector.execute(o)).toEqual(first);
      expect(emulator.controls.orderCount()).toBe(count);
      expect(emulator.controls.callCount(o.orderRef)).toBe(2);
    });

    it('answers the token step and immediate debit with NO_SOPORTADO without calling the bank', async () => {
      const before = emulator.controls.requestCount();
      expect(await connector.execute(token(ref('token')))).toMatchObject({
        type: 'rejected',
        motivo: 'NO_SOPORTADO',
        raw: { codigo: 'NO_SOPORTADO' },
      });
      expect(await connector.execute({ ...c2p(ref('di'), 10), rail: 'debito_inmediato' })).toMatchObject({
        type: 'rejected',
        motivo: 'NO_SOPORTADO',
      });
      expect(emulator.controls.requestCount()).toBe(before);
    });

    it('books a magic-amount rejection, so its status says the same', async () => {
      const o = c2p(ref('c2p-51'), 10.51);
      expectRejected(await connector.execute(o), 'SALDO_INSUFICIENTE', '51');
      expect(await connector.status(statusOf(o))).toMatchObject({ type: 'rejected', motivo: 'SALDO_INSUFICIENTE', raw: { codigo: '51' } });
    });

    it('reads the status of a C2P by our reference', async () => {
      const o = c2p(ref('c2p-status'), 12);
      const done = await connector.execute(o);
      expect(await connector.status(statusOf(o))).toMatchObject({
        type: 'settled',
        referencia: (done as { referencia: string }).referencia,
      });
    });
  });

  describe('rejection codes', () => {
    const codes = Object.keys(CODIGOS_ERROR).filter((c) => c !== '0');

    it('knows the expected outcome of every codigoError the bank has', () => {
      expect(Object.keys(MOTIVO_DE_CODIGO).sort()).toEqual(codes.sort());
    });

    for (const [label, build] of [
      ['C2P', (r: string) => c2p(r, 10)],
      ['pago móvil', (r: string) => pagar(r, 10, 'pago_movil', { tipo: 'telefono', valor: '04125556677' })],
      ['crédito inmediato', (r: string) => pagar(r, 10, 'credito_inmediato', { tipo: 'cuenta', valor: '01020000000000001234' })],
    ] as const) {
      it(`maps each codigoError of a ${label} to its motivo, keeping the bank's code and text`, async () => {
        for (const code of codes) {
          emulator.controls.rejectNext(1, code);
          const outcome = await connector.execute(build(ref(`rej-${code}`)));
          const expected = MOTIVO_DE_CODIGO[code] as MotivoRechazo | 'not_processed' | 'unknown';
          if (expected === 'not_processed' || expected === 'unknown')
            expect(outcome, code).toMatchObject({ type: expected, raw: { codigo: code } });
          else expectRejected(outcome, expected, code);
        }
      });
    }
  });

  describe('merchant accounts (edge)', () => {
    it("a live payout and its status use the order's registered account and phone, not the configured ones", async () => {
      // The connector is configured with another phone: only the order's registered account is the bank's merchant.
      const other = new BancaribeConnector(
        connectorConfig(emulator, {
          comercio: { ...DEFAULT_MERCHANT, rif: 'J12114', ip: '10.0.0.1', terminal: 'T01', telefono: '04140009999' },
        }),
      );
      try {
        const account = { cuenta: DEFAULT_MERCHANT.cuenta, telefono: DEFAULT_MERCHANT.telefono, rif: DEFAULT_MERCHANT.rif };
        const o = {
          ...pagar(ref('p2p-own'), 6.5, 'pago_movil', { tipo: 'telefono', valor: '04125550066' }),
          mode: 'live' as const,
          account,
        };
        const paid = await other.execute(o);
        expect(paid).toMatchObject({ type: 'settled' });
        expect(await other.status({ ...statusOf(o), account })).toMatchObject({ type: 'settled' });
        // Asked with the configured phone the bank does not know this merchant's payment: never settled.
        expect(await other.status(statusOf(o))).toMatchObject({ type: 'unknown', raw: { codigo: '63' } });
      } finally {
        await other.close();
      }
    });
  });

  describe('payouts', () => {
    it('pays by pago móvil: settled at once, merchant debited, beneficiary credited', async () => {
      const before = emulator.ledger.balance(DEFAULT_MERCHANT.cuenta);
      const o = pagar(ref('p2p'), 35.5, 'pago_movil', { tipo: 'telefono', valor: '04125550001' });
      const outcome = await connector.execute(o);
      expect(outcome).toMatchObject({
        type: 'settled',
        referencia: expect.any(String),
        raw: { codigo: '0', body: { codigoConfirmacion: expect.stringMatching(/^[1-9][0-9]{5}$/) } },
      });
      expect(emulator.ledger.balance(DEFAULT_MERCHANT.cuenta)).toBeCloseTo(before - 35.5, 2);
      expect(emulator.ledger.balance('tel:04125550001')).toBeCloseTo(1_000_035.5, 2);
      expect(await connector.status(statusOf(o))).toMatchObject({
        type: 'settled',
        referencia: (outcome as { referencia: string }).referencia,
      });
    });

    it('leaves an unconfirmed pago móvil open, and its status resolves it', async () => {
      const o = pagar(ref('p2p-98'), 7.98, 'pago_movil', { tipo: 'telefono', valor: '04125550002' });
      expect(await connector.execute(o)).toMatchObject({ type: 'unknown', raw: { codigo: '0', codigoConfirmacion: '-1' } });
      expect(await connector.status(statusOf(o))).toMatchObject({ type: 'rejected', motivo: 'RECHAZO_TECNICO', raw: { codigo: '96' } });
    });

    it('sends a crédito inmediato: accepted, pending until the CCE settles it', async () => {
      const cuenta = '01020000000000005678';
      const o = pagar(ref('ci'), 250, 'credito_inmediato', { tipo: 'cuenta', valor: cuenta });
      const accepted = await connector.execute(o);
      expect(accepted).toMatchObject({
        type: 'accepted',
        pending: true,
        referencia: expect.any(String),
        endtoend: expect.stringMatching(/^0114[0-9]{24}$/),
      });
      const { referencia, endtoend } = accepted as { referencia: string; endtoend: string };
      expect(await connector.status(statusOf(o, referencia, endtoend))).toMatchObject({
        type: 'accepted',
        pending: true,
        raw: { estatus: 'AC00' },
      });
      expect(emulator.controls.settleAll()).toBeGreaterThanOrEqual(1);
      expect(await connector.status(statusOf(o, referencia, endtoend))).toMatchObject({
        type: 'settled',
        referencia,
        endtoend,
        raw: { estatus: 'ACCP' },
      });
      expect(emulator.ledger.balance(cuenta)).toBeCloseTo(1_000_250, 2);
    });

    it('finds a crédito inmediato by our reference when the bank secuencial is unknown', async () => {
      const o = pagar(ref('ci-ref'), 5, 'credito_inmediato', { tipo: 'telefono', valor: '04145550003' });
      expect((await connector.execute(o)).type).toBe('accepted');
      emulator.controls.settle(o.orderRef);
      expect(await connector.status(statusOf(o))).toMatchObject({ type: 'settled' });
      // A phone travels as the CCE's CELE instrument and is credited.
      expect(emulator.ledger.balance('tel:04145550003')).toBeCloseTo(1_000_005, 2);
    });

    it('maps each ISO 20022 reason of a rejected crédito inmediato, refunding the merchant', async () => {
      expect(Object.keys(MOTIVO_DE_RAZON_ISO).sort()).toEqual([...RAZONES_ISO].sort());
      for (const razon of RAZONES_ISO) {
        const o = pagar(ref(`ci-${razon}`), 3, 'credito_inmediato', { tipo: 'cuenta', valor: '01340000000000001111' });
        const before = emulator.ledger.balance(DEFAULT_MERCHANT.cuenta);
        expect((await connector.execute(o)).type).toBe('accepted');
        expect(emulator.controls.settle(o.orderRef, { estatus: 'RJCT', codigoRechazo: razon })).toBe(true);
        const outcome = await connector.status(statusOf(o));
        const expected = MOTIVO_DE_RAZON_ISO[razon] as MotivoRechazo | 'unknown';
        if (expected === 'unknown') expect(outcome, razon).toMatchObject({ type: 'unknown', raw: { codigo: razon } });
        else expect(outcome, razon).toMatchObject({ type: 'rejected', motivo: expected, raw: { codigo: razon, estatus: 'RJCT' } });
        expect(emulator.ledger.balance(DEFAULT_MERCHANT.cuenta)).toBeCloseTo(before, 2);
      }
    });

    it('settles as a magic amount says (.78 → AM04)', async () => {
      const o = pagar(ref('ci-78'), 4.78, 'credito_inmediato', { tipo: 'cuenta', valor: '01340000000000002222' });
      await connector.execute(o);
      emulator.controls.settleAll();
      expect(await connector.status(statusOf(o))).toMatchObject({ type: 'rejected', motivo: 'SALDO_INSUFICIENTE' });
    });

    it('answers not_processed for an order the bank does not have', async () => {
      expect(
        await connector.status(statusOf(pagar(ref('ghost'), 1, 'credito_inmediato', { tipo: 'cuenta', valor: '01020000000000001234' }))),
      ).toMatchObject({ type: 'not_processed', raw: { codigo: '25' } });
      expect(await connector.status(statusOf(c2p(ref('ghost'), 1)))).toMatchObject({ type: 'not_processed' });
      expect(
        await connector.status(statusOf(pagar(ref('ghost'), 1, 'pago_movil', { tipo: 'telefono', valor: '04125550009' }))),
      ).toMatchObject({ type: 'not_processed' });
    });
  });

  describe('reversal', () => {
    it('voids a C2P with anulacion "S": settled, payer refunded, status settled; a second void is DUPLICADA', async () => {
      const o = c2p(ref('c2p-void'), 40, { telefono: '04243334455' });
      const paid = (await connector.execute(o)) as { referencia: string };
      const payerAfterPayment = emulator.ledger.balance('tel:04243334455');
      const r = reverso(ref('void'), { referencia: paid.referencia, rail: 'c2p' });
      const voided = await connector.execute(r);
      expect(voided).toMatchObject({ type: 'settled', referencia: expect.any(String) });
      expect(emulator.ledger.balance('tel:04243334455')).toBeCloseTo(payerAfterPayment + 40, 2);
      expect(emulator.ledger.order(o.orderRef)?.estatus).toBe('ANULADA');
      expect(await connector.status(statusOf(r))).toMatchObject({
        type: 'settled',
        referencia: (voided as { referencia: string }).referencia,
      });
      expectRejected(await connector.execute(reverso(ref('void-again'), { referencia: paid.referencia, rail: 'c2p' })), 'DUPLICADA', '94');
    });

    it('a C2P answered "error de sistema" (96) is unknown, and its status query resolves it from the bank\'s record', async () => {
      const o = c2p(ref('c2p-96'), 10.96);
      expect(await connector.execute(o)).toMatchObject({ type: 'unknown', raw: { codigo: '96' } });
      expect(await connector.status(statusOf(o))).toMatchObject({ type: 'rejected', motivo: 'RECHAZO_TECNICO', raw: { codigo: '96' } });
    });

    it('a void answered "registro no encontrado" (25) is an unknown outcome to query, never a final rejection', async () => {
      const outcome = await connector.execute(reverso(ref('void-ghost'), { referencia: '999999', rail: 'c2p' }));
      expect(outcome).toMatchObject({ type: 'unknown', raw: { codigo: '25' } });
    });

    it('answers NO_SOPORTADO for other rails and for a C2P without secuencial', async () => {
      const before = emulator.controls.requestCount();
      for (const rail of ['pago_movil', 'credito_inmediato'] as const) {
        expect(await connector.execute(reverso(ref('rev'), { referencia: '700001', rail }))).toMatchObject({
          type: 'rejected',
          motivo: 'NO_SOPORTADO',
        });
      }
      expect(await connector.execute(reverso(ref('rev'), { referencia: null, rail: 'c2p' }))).toMatchObject({
        type: 'rejected',
        motivo: 'NO_SOPORTADO',
      });
      expect(emulator.controls.requestCount()).toBe(before);
    });
  });

  describe('balance and statement', () => {
    const validSaldo = validatorFor(Saldo);
    const validMovimientos = validatorFor(Movimientos);

    it('reads the balance in the shared Saldo shape', async () => {
      const result = await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(validSaldo(result.value), JSON.stringify(validSaldo.errors)).toBe(true);
      expect(result.value).toMatchObject({
        cuenta: DEFAULT_MERCHANT.cuenta,
        banco: 'bancaribe',
        moneda: 'VES',
        disponible: emulator.ledger.balance(DEFAULT_MERCHANT.cuenta),
      });
    });

    it('maps the balance service errors', async () => {
      expect(await connector.saldo('test', { cuenta: '01140000000000009999' })).toMatchObject({
        ok: false,
        motivo: 'CUENTA_NO_EXISTE',
        raw: { codigo: '201004', status: 400 },
      });
      for (const [code, motivo] of Object.entries(MOTIVO_DE_ERROR_CUENTA)) {
        emulator.controls.rejectNext(1, code);
        expect(await connector.saldo('test', { cuenta: DEFAULT_MERCHANT.cuenta }), code).toMatchObject({
          ok: false,
          motivo,
          raw: { codigo: code, descripcion: ERRORES_CUENTAS[code] },
        });
      }
    });

    it('reads the statement in the shared Movimientos shape, paged locally', async () => {
      const cuenta = '01140000000000004321';
      // Two lines on the account: a crédito inmediato received and settled, twice.
      for (const n of [1, 2]) {
        const o = pagar(ref(`mov-${n}`), 10 * n, 'credito_inmediato', { tipo: 'cuenta', valor: cuenta, banco: '0114' });
        await connector.execute(o);
        emulator.controls.settle(o.orderRef);
      }
      const desde = '2020-01-01';
      const all = await connector.movimientos('test', { cuenta, desde });
      expect(all.ok).toBe(true);
      if (!all.ok) return;
      expect(validMovimientos(all.value), JSON.stringify(validMovimientos.errors)).toBe(true);
      expect(all.value.movimientos.map((m) => [m.tipo, m.monto])).toEqual([
        ['credito', 10],
        ['credito', 20],
      ]);
      expect(all.value.movimientos[1]?.saldo).toBeCloseTo(1_000_030, 2);
      expect(all.value.siguiente).toBeNull();

      const first = await connector.movimientos('test', { cuenta, desde, limite: 1 });
      if (!first.ok) throw new Error('first page failed');
      expect(first.value.movimientos).toHaveLength(1);
      expect(first.value.siguiente).toEqual(expect.any(String));
      const second = await connector.movimientos('test', { cuenta, desde, limite: 1, cursor: first.value.siguiente as string });
      if (!second.ok) throw new Error('second page failed');
      expect(second.value.movimientos[0]?.monto).toBe(20);
      expect(second.value.siguiente).toBeNull();
      expect(await connector.movimientos('test', { cuenta, desde, cursor: 'forged' })).toMatchObject({ ok: false, motivo: 'DESCONOCIDO' });
    });

    it('gives an empty page for a range without lines', async () => {
      const r = await connector.movimientos('test', { cuenta: DEFAULT_MERCHANT.cuenta, desde: '2001-01-01', hasta: '2001-01-31' });
      expect(r).toMatchObject({ ok: true, value: { movimientos: [], siguiente: null, desde: '2001-01-01', hasta: '2001-01-31' } });
    });
  });
});
