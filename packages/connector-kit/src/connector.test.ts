/** Tests of connector.ts: the kit's connector rules, the outcome vocabulary and code tables, the account reads. */
import { afterAll, describe, expect, it } from 'vitest';
import type { ExecuteOrder, StatusQuery } from './bank-port';
import { BankHttpClient, GuardedSend } from './send';
import {
  BankConnectorKit,
  saldoRead,
  type BankDefinition,
  authRefusal,
  code,
  ISO20022_CODES,
  notFound,
  notProcessed,
  orderMeaning,
  orderOutcome,
  orderRuleConflicts,
  rejects,
  statusOutcome,
  type CodeTable,
  cursorOffset,
  invalidCursor,
  statementPage,
} from './connector';
import { FormatError } from './formats';
import type { Movimiento } from '@switch/core/contracts/bancos';

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

describe('the one rule for answers to orders', () => {
  it('a "no such record" code answering an order is an unknown outcome (queried), never a final rejection or a reroute', () => {
    // The shapes the banks' tables used before the rule: rejected / not processed on an order, "no such order" in a status.
    const rejectedButNotFound = code('rejected', 'DESCONOCIDO', 'Registro no encontrado', 'assumed', 'not_processed');
    const notProcessedButNotFound = code('not_processed', 'DESCONOCIDO', 'Operación no encontrada', 'published', 'not_processed');
    for (const entry of [rejectedButNotFound, notProcessedButNotFound, notFound('Registro no encontrado', 'assumed')]) {
      expect(orderMeaning(entry)).toBe('unknown');
      expect(orderOutcome(entry, { codigo: 'X' })).toEqual({ type: 'unknown', raw: { codigo: 'X' } });
      // The same code in a status answer settles the order: the bank has no such order.
      expect(statusOutcome(entry, {})).toMatchObject({ type: 'not_processed' });
    }
  });

  it('an unlisted code is unknown; a code known to mean "not executed" still ends the order', () => {
    expect(orderOutcome(undefined, {})).toEqual({ type: 'unknown', raw: {} });
    expect(orderOutcome(rejects('SALDO_INSUFICIENTE', 'Fondos insuficientes', 'assumed'), {}, { referencia: 'r1' })).toEqual({
      type: 'rejected',
      motivo: 'SALDO_INSUFICIENTE',
      referencia: 'r1',
      raw: {},
    });
    expect(orderOutcome(ISO20022_CODES.RJCT, {})).toMatchObject({ type: 'rejected', motivo: 'DESCONOCIDO' });
    expect(orderOutcome(notProcessed('Banco no disponible', 'assumed'), {})).toEqual({ type: 'not_processed', raw: {} });
    expect(orderOutcome(authRefusal('Firma invalida', 'assumed'), {})).toMatchObject({ type: 'rejected', motivo: 'FIRMA_AUTH' });
    expect(orderOutcome(ISO20022_CODES.ACCP, {})).toMatchObject({ type: 'settled' });
  });

  it('orderRuleConflicts names the entries of a table that claim a "no such record" answer ended an order', () => {
    const table: CodeTable = {
      '25': code('rejected', 'DESCONOCIDO', 'Registro no encontrado', 'assumed', 'not_processed'),
      SMF001: code('not_processed', 'DESCONOCIDO', 'Operación no encontrada', 'published', 'not_processed'),
      '0025': notFound('Registro no encontrado', 'assumed'),
      '51': rejects('SALDO_INSUFICIENTE', 'Fondos insuficientes', 'assumed'),
    };
    expect(orderRuleConflicts(table).sort()).toEqual(['25', 'SMF001']);
    expect(orderRuleConflicts(ISO20022_CODES)).toEqual([]);
  });
});

const mov = (fecha: string, referencia: string): Movimiento => ({
  fecha,
  hora: null,
  referencia,
  concepto: 'x',
  tipo: 'credito',
  monto: 1,
  saldo: null,
});

describe('statement paging', () => {
  const all = [mov('2026-11-01', 'a'), mov('2026-11-02', 'b'), mov('2026-11-03', 'c'), mov('2026-11-09', 'out')];
  it('pages the movements in the window with an opaque cursor until null', () => {
    const query = { cuenta: '0'.repeat(20), desde: '2026-11-01', limite: 2 };
    const first = statementPage('bnc', query, '2026-11-05', 0, all);
    expect(first.movimientos.map((m) => m.referencia)).toEqual(['a', 'b']);
    expect(first.siguiente).not.toBeNull();
    const second = statementPage('bnc', query, '2026-11-05', cursorOffset(first.siguiente!)!, all);
    expect(second.movimientos.map((m) => m.referencia)).toEqual(['c']);
    expect(second.siguiente).toBeNull();
    expect(second).toMatchObject({ banco: 'bnc', moneda: 'VES', desde: '2026-11-01', hasta: '2026-11-05' });
  });
  it('refuses a cursor it never gave, naming the field', () => {
    expect(cursorOffset(undefined)).toBe(0);
    expect(cursorOffset('garbage')).toBeNull();
    expect(invalidCursor().raw.field).toBe('cursor');
  });
});
