import { afterAll, describe, expect, it } from 'vitest';
import type { ExecuteOrder, StatusQuery } from './bank-port';
import { BankHttpClient, GuardedSend } from './send';
import { BankConnectorKit, saldoRead, type BankDefinition } from './connector';
import { FormatError } from './formats';

const order = {
  txnId: 'txn_1',
  attempt: 1,
  orderRef: 'txn_1-1',
  mode: 'test',
  rail: 'pago_movil',
  idempotencyKey: 'k',
  related: null,
} as unknown as ExecuteOrder;
const query = {
  txnId: 'txn_1',
  attempt: 1,
  orderRef: 'txn_1-1',
  mode: 'test',
  rail: 'pago_movil',
  kind: 'pagar',
  referencia: null,
  endtoend: null,
} as StatusQuery;

function kitWith(bank: Partial<BankDefinition>, send: GuardedSend): BankConnectorKit {
  const full: BankDefinition = {
    banco: 'bnc',
    capabilities: ['pagar'],
    execute: async () => ({ type: 'unknown', raw: {} }),
    status: async () => ({ type: 'unknown', raw: {} }),
    saldo: async () => ({ ok: false, motivo: 'DESCONOCIDO', raw: {} }),
    movimientos: async () => ({ ok: false, motivo: 'DESCONOCIDO', raw: {} }),
    ...bank,
  };
  return new BankConnectorKit(full, send);
}

describe('the kit connector', () => {
  const http = new BankHttpClient({ connectTimeoutMs: 200 });
  const send = () => new GuardedSend('bnc', { timeoutMs: 500 }, { http });
  afterAll(() => http.close());

  it('refuses an order that throws before anything left, with the FormatError motivo; never throws', async () => {
    const kit = kitWith(
      {
        execute: async () => {
          throw new FormatError('monto 0', 'MONTO_INVALIDO');
        },
      },
      send(),
    );
    expect(await kit.execute(order)).toMatchObject({ type: 'rejected', motivo: 'MONTO_INVALIDO', raw: { codigo: 'FORMATO' } });
    const other = kitWith(
      {
        execute: async () => {
          throw new Error('bug');
        },
      },
      send(),
    );
    expect(await other.execute(order)).toMatchObject({ type: 'rejected', motivo: 'RECHAZO_TECNICO' });
  });

  it('an order that throws after a request left is unknown', async () => {
    const s = send();
    const kit = kitWith(
      {
        execute: async () => {
          // Port 9 (discard) on loopback: refused or not, the request left the switch.
          await s.send({ operation: 'op', url: 'http://127.0.0.1:9/x', method: 'POST', headers: {}, body: '{}' });
          throw new Error('after sending');
        },
      },
      s,
    );
    expect(await kit.execute(order)).toMatchObject({ type: 'unknown' });
    await kit.close();
  });

  it('a status or a read that throws is unknown / a failed read, never a throw', async () => {
    const kit = kitWith(
      {
        status: async () => {
          throw new Error('x');
        },
        saldo: async () => {
          throw new FormatError('cuenta', 'CUENTA_NO_EXISTE');
        },
      },
      send(),
    );
    expect(await kit.status(query)).toMatchObject({ type: 'unknown' });
    expect(await kit.saldo('test', { cuenta: '01910000000000000001' })).toMatchObject({ ok: false, motivo: 'CUENTA_NO_EXISTE' });
  });

  it("passes a read's context (the reader and its registered account) to the bank", async () => {
    const seen: unknown[] = [];
    const kit = kitWith(
      {
        saldo: async (_m, _q, context) => {
          seen.push(context);
          return { ok: false, motivo: 'DESCONOCIDO', raw: {} };
        },
        movimientos: async (_m, _q, context) => {
          seen.push(context);
          return { ok: false, motivo: 'DESCONOCIDO', raw: {} };
        },
      },
      send(),
    );
    const context = { merchantId: 'm1', account: { cuenta: '01910000000000000001', telefono: null, rif: 'J000000001' } };
    await kit.saldo('live', { cuenta: '01910000000000000001' }, context);
    await kit.movimientos('live', { cuenta: '01910000000000000001', desde: '2026-11-01' }, context);
    expect(seen).toEqual([context, context]);
  });

  it('saldoRead reports a balance; contable and bloqueado default to the available figure and 0', () => {
    const at = new Date('2026-11-24T12:00:00Z');
    expect(saldoRead('bnc', '01910000000000000001', { disponible: 10.5 }, at, { a: 1 })).toEqual({
      ok: true,
      value: {
        cuenta: '01910000000000000001',
        banco: 'bnc',
        moneda: 'VES',
        disponible: 10.5,
        contable: 10.5,
        bloqueado: 0,
        consultado_en: '2026-11-24T12:00:00.000Z',
        raw: { a: 1 },
      },
    });
    expect(saldoRead('bancaribe', 'c', { disponible: 5, contable: 7, bloqueado: 2 }, at, {})).toMatchObject({
      ok: true,
      value: { disponible: 5, contable: 7, bloqueado: 2 },
    });
  });
});
