import { afterEach, describe, expect, it } from 'vitest';
import { MemoryBus } from '../adapters/memory/bus';
import { MemoryStore } from '../adapters/memory/store';
import { type GatewayReplyMessage, bankRequests, TOPICS } from '@switch/core/contracts/topics';
import type { RoutingTable } from '@switch/core/routing';
import { newTransaction } from '@switch/core/operation';
import type { Movimiento } from '@switch/core/contracts/bancos';
import type { Subscription } from '../ports/bus';
import { accountReads, BankReadClient, checkStatementWindow } from './account-reads';

const CUENTA = '01910000000000000001';
const routing: RoutingTable = {
  test: [{ banco: 'bnc', capabilities: ['saldo', 'movimientos'] }],
  live: [{ banco: 'bnc', capabilities: ['saldo', 'movimientos'] }],
} as unknown as RoutingTable;
const saldo = {
  cuenta: CUENTA,
  banco: 'bnc' as const,
  moneda: 'VES' as const,
  disponible: 10,
  contable: 10,
  bloqueado: 0,
  consultado_en: '2026-11-24T12:00:00.000Z',
  raw: {},
};

/** A read client whose bank answers `result` and that records what was asked. */
const answering = (result: GatewayReplyMessage['result'] | null) => {
  const asked: unknown[] = [];
  return {
    asked,
    client: {
      read: async (_banco: string, request: unknown) => {
        asked.push(request);
        return result ? { correlationId: 'c', gatewayId: 'g', result } : null;
      },
    },
  };
};
const caller = { merchantId: 'm1', mode: 'test' as const };

describe('account reads (the merchant API and the panel)', () => {
  it('reads a balance and a statement at the bank of the account', async () => {
    const bank = answering({ ok: true, saldo });
    const reads = accountReads({ routing, store: new MemoryStore(), client: bank.client, readTimeoutMs: 1000 });
    expect(await reads.saldo(caller, CUENTA)).toEqual({ ok: true, value: saldo });
    expect(bank.asked).toEqual([{ op: 'saldo', mode: 'test', query: { cuenta: CUENTA, moneda: 'VES' }, merchantId: 'm1' }]);
  });

  it('reads in live mode only the caller’s own registered account, and sends nothing otherwise', async () => {
    const store = new MemoryStore();
    const bank = answering({ ok: true, saldo });
    const reads = accountReads({ routing, store, client: bank.client, readTimeoutMs: 1000 });
    const live = { merchantId: 'm1', mode: 'live' as const };
    expect(await reads.saldo(live, CUENTA)).toEqual({ ok: false, problem: { kind: 'not_registered', cuenta: CUENTA } });
    await store.accounts.register({
      merchantId: 'm2',
      mode: 'live',
      banco: 'bnc',
      cuenta: CUENTA,
      telefono: null,
      createdAt: new Date().toISOString(),
    });
    expect(await reads.saldo(live, CUENTA)).toMatchObject({ ok: false, problem: { kind: 'not_registered' } });
    expect(bank.asked).toEqual([]);
    expect(await reads.saldo({ merchantId: 'm2', mode: 'live' }, CUENTA)).toEqual({ ok: true, value: saldo });
  });

  it('refuses a statement window in the future, reversed or longer than 31 days before asking', async () => {
    expect(checkStatementWindow('2026-11-25', undefined, '2026-11-24')).toEqual({ desde: 'must not be in the future' });
    expect(checkStatementWindow('2026-11-10', '2026-11-01', '2026-11-24')).toEqual({ hasta: 'must not be before desde' });
    expect(checkStatementWindow('2026-10-01', '2026-11-01', '2026-11-24')).toEqual({ hasta: 'the window may span at most 31 days' });
    expect(checkStatementWindow('2026-10-02', '2026-11-01', '2026-11-24')).toEqual({});
    const bank = answering(null);
    const reads = accountReads({ routing, store: new MemoryStore(), client: bank.client, readTimeoutMs: 1000 });
    expect(await reads.movimientos(caller, { cuenta: CUENTA, desde: '2999-01-01' })).toMatchObject({
      ok: false,
      problem: { kind: 'invalid', detail: { desde: 'must not be in the future' } },
    });
    expect(bank.asked).toEqual([]);
  });

  it('keeps of a test statement only the movements of the caller’s own operations; a live one whole', async () => {
    const store = new MemoryStore();
    const today = new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10);
    const movement = (referencia: string): Movimiento => ({
      fecha: today,
      hora: '10:00:00',
      referencia,
      concepto: 'Pago',
      tipo: 'debito',
      monto: 1,
      saldo: null,
    });
    const own = async (merchantId: string, id: string, referencia: string, mode: 'test' | 'live' = 'test') => {
      const now = new Date().toISOString();
      const tx = newTransaction({
        id,
        merchantId,
        mode,
        idempotencyKey: id,
        fingerprint: 'f',
        request: { kind: 'pagar', body: {} } as never,
        relatedId: null,
        now,
      });
      await store.transactionLog.commit({ ...tx, estado: 'LIQUIDADA', bancoUsado: 'bnc', referenciaBanco: referencia }, null, {
        announcedVersion: tx.version,
        writtenBy: null,
        replyTo: [],
      });
    };
    await own('m1', 'txn_a', 'REF-A');
    await own('m2', 'txn_b', 'REF-B');
    await own('m1', 'txn_c', 'REF-C', 'live');
    const page = {
      cuenta: CUENTA,
      banco: 'bnc' as const,
      moneda: 'VES' as const,
      desde: today,
      hasta: today,
      movimientos: ['REF-A', 'REF-B', 'REF-C', 'SEED'].map(movement),
      siguiente: 'next',
    };
    const reads = accountReads({ routing, store, client: answering({ ok: true, movimientos: page }).client, readTimeoutMs: 1000 });
    const seen = async (merchantId: string) => {
      const r = await reads.movimientos({ merchantId, mode: 'test' }, { cuenta: CUENTA, desde: today });
      return r.ok ? { refs: r.value.movimientos.map((m) => m.referencia), siguiente: r.value.siguiente } : r;
    };
    expect(await seen('m1')).toEqual({ refs: ['REF-A'], siguiente: 'next' });
    expect(await seen('m2')).toEqual({ refs: ['REF-B'], siguiente: 'next' });
    expect(await seen('m3')).toEqual({ refs: [], siguiente: 'next' });
    await store.accounts.register({ merchantId: 'm1', mode: 'live', banco: 'bnc', cuenta: CUENTA, telefono: null, createdAt: today });
    const live = await reads.movimientos({ merchantId: 'm1', mode: 'live' }, { cuenta: CUENTA, desde: today });
    expect(live.ok && live.value.movimientos.length).toBe(4);
  });

  it('names what a bank’s refusal means', async () => {
    const cases: [GatewayReplyMessage['result'] | null, unknown][] = [
      [
        { ok: false, motivo: 'RECHAZO_TECNICO', raw: { field: 'cursor', descripcion: 'unknown cursor' } },
        { kind: 'invalid', detail: { cursor: 'unknown cursor' } },
      ],
      [{ ok: false, motivo: 'CUENTA_NO_EXISTE', raw: {} }, { kind: 'unknown_account' }],
      [
        { ok: false, motivo: 'BANCO_NO_DISPONIBLE', raw: {} },
        { kind: 'bank_unavailable', motivo: 'BANCO_NO_DISPONIBLE' },
      ],
      [
        { ok: false, motivo: 'RECHAZO_TECNICO', raw: {} },
        { kind: 'bank_unavailable', motivo: 'RECHAZO_TECNICO' },
      ],
      [
        { ok: false, motivo: 'CUENTA_BLOQUEADA', raw: {} },
        { kind: 'refused', motivo: 'CUENTA_BLOQUEADA' },
      ],
      [null, { kind: 'bank_unavailable', motivo: null }],
    ];
    for (const [result, problem] of cases) {
      const reads = accountReads({ routing, store: new MemoryStore(), client: answering(result).client, readTimeoutMs: 1000 });
      expect(await reads.saldo(caller, CUENTA), JSON.stringify(result)).toEqual({ ok: false, problem });
    }
  });

  it('says when no enabled bank serves the read, or the store is down', async () => {
    const none = accountReads({
      routing: { test: [], live: [] },
      store: new MemoryStore(),
      client: answering(null).client,
      readTimeoutMs: 1000,
    });
    expect(await none.saldo({ merchantId: 'm1', mode: 'live' }, CUENTA)).toMatchObject({ ok: false, problem: { kind: 'not_registered' } });
    expect(await none.saldo(caller, CUENTA)).toMatchObject({ ok: false, problem: { kind: 'no_bank' } });
    const store = new MemoryStore();
    store.accounts.find = async () => {
      throw new Error('store unreachable');
    };
    const down = accountReads({ routing, store, client: answering(null).client, readTimeoutMs: 1000 });
    expect(await down.saldo({ merchantId: 'm1', mode: 'live' }, CUENTA)).toMatchObject({ ok: false, problem: { kind: 'dependency_down' } });
  });
});

describe('bank read client (request/reply over the bus)', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('takes the answer addressed to its own instance, never another’s', async () => {
    const bus = new MemoryBus({});
    cleanup.push(() => bus.close());
    // A connector that answers every read, and also sends a stray answer to another instance first.
    const connector: Subscription = await bus.subscribe(bankRequests('bnc'), { group: 'bank-bnc' }, async ({ value }) => {
      if (value.op !== 'saldo') return;
      const reply = { correlationId: value.correlationId, result: { ok: true as const, saldo: { ...saldo, disponible: 1 } } };
      // Replies are addressed by the asking instance's id (the key), as the bank worker sends them.
      await bus.publish(TOPICS.gatewayReplies, 'panel-other', { ...reply, gatewayId: 'panel-other' });
      await bus.publish(TOPICS.gatewayReplies, value.gatewayId, { ...reply, gatewayId: value.gatewayId, result: { ok: true, saldo } });
    });
    cleanup.push(() => connector.close());
    const mine = new BankReadClient(bus, 'panel-mine');
    const other = new BankReadClient(bus, 'panel-other');
    await mine.start();
    await other.start();
    cleanup.push(
      () => mine.stop(),
      () => other.stop(),
    );
    const reply = await mine.read('bnc', { op: 'saldo', mode: 'test', query: { cuenta: CUENTA, moneda: 'VES' }, merchantId: 'm1' }, 20_000);
    expect(reply?.gatewayId).toBe('panel-mine');
    expect(reply?.result).toEqual({ ok: true, saldo });
  });

  it('gives null when no bank answers in time', async () => {
    const bus = new MemoryBus({});
    cleanup.push(() => bus.close());
    const client = new BankReadClient(bus, 'panel-alone');
    await client.start();
    cleanup.push(() => client.stop());
    expect(
      await client.read('bnc', { op: 'saldo', mode: 'test', query: { cuenta: CUENTA, moneda: 'VES' }, merchantId: 'm1' }, 50),
    ).toBeNull();
  });
});
