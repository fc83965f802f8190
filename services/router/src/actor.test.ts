import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  BANK_REQUEST_MODE_HEADER,
  bankRequests,
  TOPICS,
  TRANSACTION_WEBHOOK_HEADER,
  type BankRequestMessage,
  type RouterInboxMessage,
  type TransactionEventMessage,
} from '@switch/core/contracts/topics';
import { CAPABILITIES, type BancoId } from '@switch/core/contracts/bancos';
import { createLogger } from '@switch/platform/telemetry/logger';
import { idempotencyScope } from '@switch/core/contracts/operaciones';
import { toResultado, newTransaction, type BankOutcome, type OperationRequest, type Transaction } from '@switch/core/operation';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { webhookEventOf } from '@switch/core/contracts/webhook';
import { startBankWorker } from '@switch/platform/runtime/bank-worker';
import { dispatch, effectsOf } from '@switch/core/transaction-core';
import type { BankConnector, ExecuteOrder } from '@switch/connector-kit/bank-port';
import type { DeliveryMarks } from '@switch/platform/ports/transaction-log';
import type { RoutingTable } from '@switch/core/routing';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { TransactionActor } from './actor';

const log = createLogger('actor-test', 'silent');
const TWO_BANKS: RoutingTable = {
  test: [
    { banco: 'bnc', capabilities: [...CAPABILITIES] },
    { banco: 'banco_plaza', capabilities: [...CAPABILITIES] },
  ],
  live: [],
};

const ordenante = {
  tipo: 'cuenta' as const,
  valor: '01910000000000000001',
  banco: '0191',
  identificacion: 'J123456789',
  nombre: 'Comercio',
};
const telefono = { tipo: 'telefono' as const, valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };

function pagar(via: 'pago_movil' | 'credito_inmediato' = 'pago_movil'): OperationRequest {
  return {
    kind: 'pagar',
    body: {
      idempotency_key: randomUUID(),
      monto: { valor: 25.5, moneda: 'VES' },
      concepto: 'pago',
      ordenante,
      beneficiario: telefono,
      via,
    },
  };
}
function cobrar(): OperationRequest {
  return {
    kind: 'cobrar',
    body: {
      idempotency_key: randomUUID(),
      monto: { valor: 10, moneda: 'VES' },
      concepto: 'cobro',
      cobrador: ordenante,
      pagador: telefono,
      otp: '12345678',
    },
  };
}
function executeOf(
  request: OperationRequest,
  txnId = `txn_${randomUUID().replace(/-/g, '')}`,
): Extract<RouterInboxMessage, { type: 'execute' }> {
  return {
    type: 'execute',
    txnId,
    merchantId: 'acme',
    mode: 'test',
    idempotencyKey: request.body.idempotency_key,
    fingerprint: 'f'.repeat(64),
    request,
  };
}
const settled: BankOutcome = { type: 'settled', referencia: 'REF-1', endtoend: null, raw: { codigo: '00' } };

interface Harness {
  bus: MemoryBus;
  store: MemoryStore;
  actor: TransactionActor;
  /** Every message published on each bank's request topic. */
  orders: Record<string, BankRequestMessage[]>;
  events: TransactionEventMessage[];
  /** Events whose version was not yet in the store when they were seen (must stay empty). */
  announcedBeforePersisted: TransactionEventMessage[];
  bankResult(txnId: string, attempt: number, outcome: BankOutcome, op?: 'execute' | 'status'): Promise<void>;
  /** Waits until no message is queued or being handled anywhere on the bus. */
  settle(): Promise<void>;
  executes(banco?: BancoId): Extract<BankRequestMessage, { op: 'execute' }>[];
}

const open: MemoryBus[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});

async function harness(routing: RoutingTable = TWO_BANKS): Promise<Harness> {
  const bus = new MemoryBus();
  open.push(bus);
  const store = new MemoryStore();
  const actor = new TransactionActor({ bus, store, routing, log });
  let handled = 0;
  const counted =
    <T>(fn: (m: T) => Promise<void>) =>
    async (m: T) => {
      try {
        await fn(m);
      } finally {
        handled++;
      }
    };
  /**
   * MemoryBus.drained() checks topics one after the other, so a message published by a handler of
   * a later topic onto an earlier one can be left queued. Drain until a whole pass handles nothing.
   */
  const settle = async () => {
    for (;;) {
      const before = handled;
      await bus.drained();
      if (handled === before) return;
    }
  };
  const orders: Record<string, BankRequestMessage[]> = {};
  for (const banco of ['bnc', 'banco_plaza', 'bancaribe', 'banco_activo'] as const) {
    orders[banco] = [];
    await bus.subscribe(
      bankRequests(banco),
      { group: 'probe' },
      counted(async ({ value }) => {
        orders[banco]!.push(value);
      }),
    );
  }
  const events: TransactionEventMessage[] = [];
  const announcedBeforePersisted: TransactionEventMessage[] = [];
  await bus.subscribe(
    TOPICS.transactions,
    { group: 'probe' },
    counted(async ({ value }) => {
      events.push(value);
      const stored = await store.transactions.get(value.txnId);
      if (!stored || stored.version < value.version) announcedBeforePersisted.push(value);
    }),
  );
  await bus.subscribe(
    TOPICS.routerInbox,
    { group: 'router' },
    counted(({ value }) => actor.handle(value)),
  );
  return {
    bus,
    store,
    actor,
    orders,
    events,
    announcedBeforePersisted,
    bankResult: async (txnId, attempt, outcome, op = 'execute') => {
      await bus.publish(TOPICS.routerInbox, txnId, { type: 'bank_result', txnId, attempt, op, outcome });
      await settle();
    },
    settle,
    executes: (banco) =>
      Object.entries(orders)
        .filter(([b]) => banco === undefined || b === banco)
        .flatMap(([, list]) => list.filter((o): o is Extract<BankRequestMessage, { op: 'execute' }> => o.op === 'execute')),
  };
}

async function expectNoDeadLetters(h: Harness): Promise<void> {
  expect(await h.bus.deadLetters(TOPICS.routerInbox.name)).toEqual([]);
}

async function get(h: Harness, id: string): Promise<Transaction> {
  const tx = await h.store.transactions.get(id);
  if (!tx) throw new Error(`no transaction ${id}`);
  return tx;
}

/** What the log keeps beside the record: outbox mark, the message that wrote it, who awaits the answer. */
async function marksOf(h: Harness, id: string): Promise<DeliveryMarks> {
  const logged = await h.store.transactionLog.load(id);
  if (!logged) throw new Error(`transaction ${id} not logged`);
  return logged.marks;
}

describe('TransactionActor', () => {
  it('creates exactly one transaction and one bank order when the same execute is handled 3 times', async () => {
    const h = await harness();
    const msg = executeOf(pagar());
    await h.actor.handle(msg);
    await h.actor.handle(msg);
    await h.actor.handle(msg);
    await h.settle();
    const tx = await get(h, msg.txnId);
    expect(tx.attempts).toHaveLength(1);
    expect(tx.bancoUsado).toBe('bnc');
    // A redelivery of the message that made the write announces it again until it is marked: the same
    // order (the bank worker's journal sends it once), never another attempt.
    expect(new Set(h.executes().map((o) => o.orderRef))).toEqual(new Set([`${msg.txnId}-1`]));
    expect(h.executes().length).toBeLessThanOrEqual(2);
    expect(h.executes('bnc')[0]).toMatchObject({
      op: 'execute',
      txnId: msg.txnId,
      attempt: 1,
      orderRef: `${msg.txnId}-1`,
      rail: 'pago_movil',
    });
    expect(
      await h.store.transactions.listByEstado(['ACEPTADA', 'LIQUIDADA', 'RECHAZADA', 'ERROR', 'DESCONOCIDA', 'PENDIENTE'], 100),
    ).toHaveLength(0);

    // Concurrent redeliveries through the bus change nothing either: at most the same order again.
    await Promise.all([1, 2, 3].map(() => h.bus.publish(TOPICS.routerInbox, msg.txnId, msg)));
    await h.settle();
    expect(new Set(h.executes().map((o) => o.orderRef))).toEqual(new Set([`${msg.txnId}-1`]));
    expect((await get(h, msg.txnId)).version).toBe(tx.version);
    await expectNoDeadLetters(h);
  });

  it('every event names the webhook it calls for in a header, `none` for the others (the notifier skips those undecoded)', async () => {
    const h = await harness();
    const seen: [string | undefined, string][] = [];
    await h.bus.subscribe(TOPICS.transactions, { group: 'header-probe' }, async ({ value, headers }) => {
      seen.push([headers[TRANSACTION_WEBHOOK_HEADER], webhookEventOf(value) ?? 'none']);
    });
    const msg = executeOf(pagar());
    await h.actor.handle(msg);
    await h.bankResult(msg.txnId, 1, settled);
    await h.settle();
    expect(seen.map(([header]) => header)).toEqual(['none', 'transaccion.liquidada']);
    for (const [header, calledFor] of seen) expect(header).toBe(calledFor);
  });

  it('applies a bank_result once even when it is redelivered', async () => {
    const h = await harness();
    const msg = executeOf(pagar());
    await h.actor.handle(msg);
    await h.bankResult(msg.txnId, 1, settled);
    const after = await get(h, msg.txnId);
    expect(after.estado).toBe('LIQUIDADA');
    const eventsAfterFirst = h.events.length;

    await h.bankResult(msg.txnId, 1, settled);
    await h.actor.handle({ type: 'bank_result', txnId: msg.txnId, attempt: 1, op: 'execute', outcome: settled });
    await h.settle();
    const again = await get(h, msg.txnId);
    expect(again.version).toBe(after.version);
    expect(again.history).toHaveLength(1);
    // A final state is written with its own mark. A redelivery of the message that made it repeats its
    // announcement (the same version: receivers dedupe by id and version), never a new write.
    expect((await marksOf(h, msg.txnId)).announcedVersion).toBe(after.version);
    expect(h.events.slice(eventsAfterFirst).map((e) => e.version)).toEqual([after.version, after.version]);
    expect(again).toEqual(after);
    // An answer for an attempt that never existed is ignored too.
    await h.bankResult(msg.txnId, 7, { type: 'rejected', motivo: 'SALDO_INSUFICIENTE', referencia: null, raw: {} });
    expect((await get(h, msg.txnId)).estado).toBe('LIQUIDADA');
    await expectNoDeadLetters(h);
  });

  it('reroutes a payout the bank did not process to the next enabled capable bank', async () => {
    const h = await harness();
    const msg = executeOf(pagar());
    await h.actor.handle(msg);
    await h.settle();
    expect(h.executes('bnc')).toHaveLength(1);

    await h.bankResult(msg.txnId, 1, { type: 'not_processed', raw: { codigo: 'CONN_REFUSED' } });
    const rerouted = await get(h, msg.txnId);
    expect(rerouted.estado).toBeNull();
    expect(rerouted.bancoUsado).toBe('banco_plaza');
    expect(rerouted.attempts.map((a) => [a.n, a.banco, a.outcome])).toEqual([
      [1, 'bnc', 'not_processed'],
      [2, 'banco_plaza', undefined],
    ]);
    expect(h.executes('banco_plaza')).toHaveLength(1);
    expect(h.executes('banco_plaza')[0]).toMatchObject({ attempt: 2, orderRef: `${msg.txnId}-2` });
    expect(h.executes('bnc')).toHaveLength(1);

    await h.bankResult(msg.txnId, 2, settled);
    const done = await get(h, msg.txnId);
    expect(toResultado(done)).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'banco_plaza', intentos: 2, motivo_rechazo: null });
    expect(h.announcedBeforePersisted).toEqual([]);
    await expectNoDeadLetters(h);
  });

  it('rejects with BANCO_NO_DISPONIBLE when no other bank can take the payout', async () => {
    const h = await harness();
    const msg = executeOf(pagar());
    await h.actor.handle(msg);
    await h.bankResult(msg.txnId, 1, { type: 'not_processed', raw: { codigo: 'X' } });
    await h.bankResult(msg.txnId, 2, { type: 'not_processed', raw: { codigo: 'Y' } });
    const tx = await get(h, msg.txnId);
    expect(toResultado(tx)).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'BANCO_NO_DISPONIBLE', intentos: 2 });
    expect(h.executes()).toHaveLength(2);
    await expectNoDeadLetters(h);
  });

  it('never reroutes a collection that was not processed', async () => {
    const h = await harness();
    const msg = executeOf(cobrar());
    await h.actor.handle(msg);
    await h.bankResult(msg.txnId, 1, { type: 'not_processed', raw: {} });
    const tx = await get(h, msg.txnId);
    expect(toResultado(tx)).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'BANCO_NO_DISPONIBLE', intentos: 1 });
    expect(h.executes()).toHaveLength(1);
    await expectNoDeadLetters(h);
  });

  it('an unknown outcome becomes DESCONOCIDA and is never resent nor rerouted', async () => {
    const h = await harness();
    const msg = executeOf(pagar());
    await h.actor.handle(msg);
    await h.bankResult(msg.txnId, 1, { type: 'unknown', raw: { switch: 'timeout' } });
    const tx = await get(h, msg.txnId);
    expect(tx.estado).toBe('DESCONOCIDA');
    expect(tx.attempts).toHaveLength(1);
    // A redelivered execute does not resend it.
    await h.actor.handle(msg);
    await h.settle();
    expect(h.executes()).toHaveLength(1);

    // Only a status query resolves it: one status request to the same bank, about the same order.
    await h.bus.publish(TOPICS.routerInbox, msg.txnId, { type: 'query', txnId: msg.txnId });
    await h.settle();
    const statusOrders = h.orders.bnc!.filter((o) => o.op === 'status');
    expect(statusOrders).toHaveLength(1);
    expect(statusOrders[0]).toMatchObject({ op: 'status', attempt: 1, orderRef: `${msg.txnId}-1` });
    expect(h.executes()).toHaveLength(1);
    await h.bankResult(msg.txnId, 1, settled, 'status');
    expect((await get(h, msg.txnId)).estado).toBe('LIQUIDADA');
    await expectNoDeadLetters(h);
  });

  it('a status query on a final transaction does nothing', async () => {
    const h = await harness();
    const msg = executeOf(pagar());
    await h.actor.handle(msg);
    await h.bankResult(msg.txnId, 1, settled);
    const before = await get(h, msg.txnId);
    const ordersBefore = Object.values(h.orders).flat().length;
    const eventsBefore = h.events.length;
    await h.actor.handle({ type: 'query', txnId: msg.txnId });
    await h.settle();
    const after = await get(h, msg.txnId);
    expect(after).toEqual(before);
    expect(Object.values(h.orders).flat().length).toBe(ordersBefore);
    expect(h.events.length).toBe(eventsBefore);
    // A late status answer cannot move it either.
    await h.bankResult(msg.txnId, 1, { type: 'rejected', motivo: 'DESCONOCIDO', referencia: null, raw: {} }, 'status');
    expect(await get(h, msg.txnId)).toEqual(before);
    await expectNoDeadLetters(h);
  });

  it('keeps every transition in the history with its time, cause and raw data', async () => {
    const h = await harness();
    const msg = executeOf(pagar('credito_inmediato'));
    await h.actor.handle(msg);
    await h.bankResult(msg.txnId, 1, { type: 'accepted', pending: false, referencia: 'R1', endtoend: 'E2E-1', raw: { codigo: 'ACCP' } });
    await h.actor.handle({ type: 'query', txnId: msg.txnId });
    await h.settle();
    await h.bankResult(
      msg.txnId,
      1,
      { type: 'accepted', pending: true, referencia: 'R1', endtoend: 'E2E-1', raw: { codigo: 'PEND' } },
      'status',
    );
    await h.actor.handle({ type: 'query', txnId: msg.txnId });
    await h.settle();
    await h.bankResult(msg.txnId, 2, { type: 'settled', referencia: 'R1', endtoend: 'E2E-1', raw: { codigo: 'LIQ' } }, 'status');
    const tx = await get(h, msg.txnId);
    expect(tx.history.map((e) => [e.from, e.to, e.cause, e.raw])).toEqual([
      [null, 'ACEPTADA', 'bank_outcome', { codigo: 'ACCP' }],
      ['ACEPTADA', 'PENDIENTE', 'status_query', { codigo: 'PEND' }],
      ['PENDIENTE', 'LIQUIDADA', 'status_query', { codigo: 'LIQ' }],
    ]);
    for (const e of tx.history) {
      expect(new Date(e.at).toISOString()).toBe(e.at);
      expect(e.version).toBeGreaterThan(1);
    }
    expect(toResultado(tx)).toMatchObject({ estado: 'LIQUIDADA', referencia_banco: 'R1', endtoend: 'E2E-1', raw: { codigo: 'LIQ' } });
    // Each transition was announced once, and only after it was persisted.
    expect(h.events.filter((e) => e.transition).map((e) => e.transition!.to)).toEqual(['ACEPTADA', 'PENDIENTE', 'LIQUIDADA']);
    expect(h.announcedBeforePersisted).toEqual([]);
    await expectNoDeadLetters(h);
  });

  it('rejects by routing, without any bank order, when no bank is enabled', async () => {
    const h = await harness({ test: [], live: [] });
    const msg = executeOf(pagar());
    await h.actor.handle(msg);
    await h.settle();
    const tx = await get(h, msg.txnId);
    expect(toResultado(tx)).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'BANCO_NO_DISPONIBLE', banco_usado: null, intentos: 0 });
    expect(tx.history).toMatchObject([{ from: null, to: 'RECHAZADA', cause: 'routing' }]);
    expect(Object.values(h.orders).flat()).toHaveLength(0);
    await expectNoDeadLetters(h);
  });

  /** An actor on the same store whose every publish fails (a broker gone, or a crash before the announcement). */
  const unannouncing = (h: Harness, routing: RoutingTable = TWO_BANKS) =>
    new TransactionActor({
      bus: {
        ...h.bus,
        publish: async () => Promise.reject(new Error('broker unreachable')),
        subscribe: h.bus.subscribe.bind(h.bus),
        deadLetters: h.bus.deadLetters.bind(h.bus),
        redriveDeadLetters: h.bus.redriveDeadLetters.bind(h.bus),
        close: h.bus.close.bind(h.bus),
      },
      store: h.store,
      routing,
      log,
    });

  describe('the outbox relay (the continuous safety net)', () => {
    it('announces a write left unmarked past the grace, with the same order, and marks it; a fresh one is left to its handler', async () => {
      const h = await harness();
      const msg = executeOf(pagar());
      // The insert is made and nothing is published: a crash between write and announce whose message
      // will never come back (dead-lettered, or a redrive that never happens).
      await expect(unannouncing(h).handle(msg)).rejects.toThrow('broker unreachable');
      const stored = await get(h, msg.txnId);
      expect((await marksOf(h, msg.txnId)).announcedVersion).toBeLessThan(stored.version);
      // Written after `before`: still its handler's to announce.
      expect(await h.actor.relay(new Date(Date.parse(stored.updatedAt) - 1).toISOString())).toBe(0);
      expect(await h.actor.relay(new Date(Date.parse(stored.updatedAt) + 1).toISOString())).toBe(1);
      await h.settle();
      expect(h.executes()).toEqual([expect.objectContaining({ attempt: 1, orderRef: `${msg.txnId}-1` })]);
      expect(h.events.map((e) => e.version)).toEqual([stored.version]);
      expect((await marksOf(h, msg.txnId)).announcedVersion).toBe(stored.version);
      // Marked: the next round has nothing to do.
      expect(await h.actor.relay(new Date(Date.now() + 60_000).toISOString())).toBe(0);
      await expectNoDeadLetters(h);
    });
  });

  describe('announced always (the inbox is the outbox)', () => {
    it('a final state is written with its own mark, in the one write: no second write, and a failed announcement is repaired by the redelivery, never by the relay', async () => {
      const h = await harness();
      const msg = executeOf(pagar());
      await h.actor.handle(msg);
      await h.settle();
      const dispatched = await get(h, msg.txnId);
      const result: RouterInboxMessage = { type: 'bank_result', txnId: msg.txnId, attempt: 1, op: 'execute', outcome: settled };
      // The LIQUIDADA write is persisted, then its announcement fails (a broker gone, or a crash).
      await expect(unannouncing(h).handle(result)).rejects.toThrow('broker unreachable');
      const stored = await get(h, msg.txnId);
      expect(stored).toMatchObject({ estado: 'LIQUIDADA', version: dispatched.version + 1 });
      expect((await marksOf(h, msg.txnId)).announcedVersion).toBe(dispatched.version + 1);
      // The relay has nothing to do for it, now or ever: the message that made it is its keeper.
      expect(await h.actor.relay(new Date(Date.now() + 3_600_000).toISOString())).toBe(0);
      h.events.length = 0;
      await h.actor.handle(result);
      await h.settle();
      expect(h.events).toEqual([
        expect.objectContaining({ version: stored.version, transition: expect.objectContaining({ to: 'LIQUIDADA' }) }),
      ]);
      // Announcing it wrote nothing: the stored document is the one the outcome write made.
      expect(await get(h, msg.txnId)).toEqual(stored);
    });

    it('a redelivered bank result whose first handling failed to announce announces it, without a restart', async () => {
      const h = await harness();
      const msg = executeOf(pagar());
      await h.actor.handle(msg);
      await h.settle();
      // The LIQUIDADA write is persisted, then its event publish fails: the handler throws.
      const result: RouterInboxMessage = { type: 'bank_result', txnId: msg.txnId, attempt: 1, op: 'execute', outcome: settled };
      await expect(unannouncing(h).handle(result)).rejects.toThrow('broker unreachable');
      const stored = await get(h, msg.txnId);
      expect(stored.estado).toBe('LIQUIDADA');
      h.events.length = 0;
      // The bus delivers the same message again: it finds the write made and announces it.
      await h.actor.handle(result);
      await h.settle();
      expect(h.events).toEqual([
        expect.objectContaining({ version: stored.version, transition: expect.objectContaining({ to: 'LIQUIDADA' }) }),
      ]);
      expect((await get(h, msg.txnId)).version).toBe(stored.version);
    });

    it('a first write (route and order in one insert) never announced is announced by the redelivered execute: the same order, never a second', async () => {
      const h = await harness();
      const msg = executeOf(pagar());
      // The insert is made, then nothing is published: what a crash between write and announce leaves.
      await expect(unannouncing(h).handle(msg)).rejects.toThrow('broker unreachable');
      const dispatched = await get(h, msg.txnId);
      expect(dispatched.attempts).toHaveLength(1);
      expect(h.executes()).toHaveLength(0);
      expect(h.events).toHaveLength(0);

      await h.actor.handle(msg);
      await h.settle();
      // The same order (same attempt, same orderRef: the bank worker's journal sends it once).
      expect(h.executes()).toEqual([expect.objectContaining({ attempt: 1, orderRef: `${msg.txnId}-1` })]);
      expect(h.events.map((e) => e.version)).toEqual([dispatched.version]);
      const after = await get(h, msg.txnId);
      expect(after.version).toBe(dispatched.version);
      expect(after.attempts).toHaveLength(1);

      // Another redelivery repeats the announcement, never a new attempt.
      await h.actor.handle(msg);
      await h.settle();
      expect(new Set(h.executes().map((o) => o.orderRef))).toEqual(new Set([`${msg.txnId}-1`]));
      expect((await get(h, msg.txnId)).attempts).toHaveLength(1);
      await expectNoDeadLetters(h);
    });

    it('a message that did not make the stored version announces nothing (no noise from late or repeated messages)', async () => {
      const h = await harness();
      const msg = executeOf(pagar());
      await h.actor.handle(msg);
      await h.bankResult(msg.txnId, 1, settled);
      await h.settle();
      const done = await get(h, msg.txnId);
      expect(done.estado).toBe('LIQUIDADA');
      h.events.length = 0;
      const ordersBefore = h.executes().length;
      // A repeated execute, a query and a late status answer: none of them made the LIQUIDADA write.
      await h.actor.handle(msg);
      await h.actor.handle({ type: 'query', txnId: msg.txnId });
      await h.bankResult(msg.txnId, 1, settled, 'status');
      await h.settle();
      expect(h.executes().length).toBe(ordersBefore);
      expect(h.events).toEqual([]);
      expect((await get(h, msg.txnId)).version).toBe(done.version);
      await expectNoDeadLetters(h);
    });
  });
});

describe('the token of a cobrar, and answers to the asking gateway', () => {
  function token(key: string): OperationRequest {
    const { otp: _otp, ...body } = cobrar().body as Extract<OperationRequest, { kind: 'cobrar' }>['body'];
    return { kind: 'token', body: { ...body, idempotency_key: key } };
  }
  /** A store whose idempotency table counts every call made through it. */
  function countingIdempotency(store: MemoryStore): { store: MemoryStore; calls: string[] } {
    const calls: string[] = [];
    const idempotency = new Proxy(store.idempotency, {
      get: (target, name, receiver) => {
        const value = Reflect.get(target, name, receiver);
        return typeof value === 'function'
          ? (...args: unknown[]) => {
              calls.push(String(name));
              return value.apply(target, args);
            }
          : value;
      },
    });
    return { store: new Proxy(store, { get: (t, n, r) => (n === 'idempotency' ? idempotency : Reflect.get(t, n, r)) }), calls };
  }

  it('a cobrar takes its token from the command: the router reads no idempotency table, with a token or without', async () => {
    const bus = new MemoryBus();
    open.push(bus);
    const counted = countingIdempotency(new MemoryStore());
    const actor = new TransactionActor({ bus, store: counted.store, routing: TWO_BANKS, log });
    const key = randomUUID();
    const tokenMsg = executeOf(token(key));
    await actor.handle(tokenMsg);
    // The token's claim is in the table, as the gateway leaves it: the router must not look it up.
    await counted.store.idempotency.claim({
      scope: idempotencyScope('acme', 'test', 'token', key),
      merchantId: 'acme',
      mode: 'test',
      kind: 'token',
      key,
      fingerprint: 'f'.repeat(64),
      txnId: tokenMsg.txnId,
      createdAt: new Date().toISOString(),
    });
    counted.calls.length = 0;
    const cobro = executeOf({ ...cobrar(), body: { ...cobrar().body, idempotency_key: key } } as OperationRequest);
    await actor.handle({ ...cobro, tokenId: tokenMsg.txnId });
    const alone = executeOf(cobrar());
    await actor.handle({ ...alone, tokenId: null });
    expect(counted.calls).toEqual([]);
    expect((await counted.store.transactions.get(cobro.txnId))?.relatedId).toBe(tokenMsg.txnId);
    // Without a token: no related operation, as before (the c2p rail of an OTP the caller captured).
    const free = await counted.store.transactions.get(alone.txnId);
    expect(free?.relatedId).toBeNull();
    expect(free?.rail).toBe('c2p');
  });

  it('answers each write a caller can be answered from to the gateways that asked about it, and to no other', async () => {
    const h = await harness();
    const got: Record<string, { gatewayId: string; event: TransactionEventMessage }[]> = { 'gw-a': [], 'gw-b': [], 'gw-c': [], 'gw-d': [] };
    for (const id of Object.keys(got)) {
      await h.bus.subscribe(TOPICS.gatewayAnswers, { group: `probe-${id}`, key: id }, async ({ value }) => {
        got[id]!.push(value);
      });
    }
    const states = (id: string) => got[id]!.map((a) => [a.gatewayId, a.event.txnId, a.event.resultado?.estado]);
    const msg = { ...executeOf(pagar()), replyTo: 'gw-a' };
    await h.bus.publish(TOPICS.routerInbox, msg.txnId, msg);
    await h.settle();
    // The dispatch write waits on the bank: nobody is answered yet.
    expect(got['gw-a']).toEqual([]);
    expect((await marksOf(h, msg.txnId)).replyTo).toEqual(['gw-a']);
    // A repeat at gateway C while the order is in flight: its address is recorded in the log (no new
    // version of the record, no order sent again); one from A again changes nothing.
    const before = await get(h, msg.txnId);
    await h.bus.publish(TOPICS.routerInbox, msg.txnId, { ...msg, replyTo: 'gw-c' });
    await h.bus.publish(TOPICS.routerInbox, msg.txnId, msg);
    await h.settle();
    expect((await marksOf(h, msg.txnId)).replyTo).toEqual(['gw-a', 'gw-c']);
    expect(await get(h, msg.txnId)).toEqual(before);
    expect(h.executes()).toHaveLength(1);
    await h.bankResult(msg.txnId, 1, { type: 'accepted', pending: false, referencia: 'R1', endtoend: null, raw: {} });
    expect(states('gw-a')).toEqual([['gw-a', msg.txnId, 'ACEPTADA']]);
    expect(states('gw-c')).toEqual([['gw-c', msg.txnId, 'ACEPTADA']]);
    // A /consultar at gateway B writes a status query: B's address rides on it, and the outcome goes to all three.
    await h.bus.publish(TOPICS.routerInbox, msg.txnId, { type: 'query', txnId: msg.txnId, replyTo: 'gw-b' });
    await h.settle();
    expect((await marksOf(h, msg.txnId)).replyTo).toEqual(['gw-a', 'gw-c', 'gw-b']);
    await h.bankResult(msg.txnId, 1, settled, 'status');
    expect(got['gw-a']!.map((a) => a.event.resultado?.estado)).toEqual(['ACEPTADA', 'LIQUIDADA']);
    expect(got['gw-c']!.map((a) => a.event.resultado?.estado)).toEqual(['ACEPTADA', 'LIQUIDADA']);
    expect(states('gw-b')).toEqual([['gw-b', msg.txnId, 'LIQUIDADA']]);
    expect(got['gw-d']).toEqual([]);
    // A repeat at gateway D after the outcome: answered from the stored state, with no write.
    const final = await get(h, msg.txnId);
    await h.bus.publish(TOPICS.routerInbox, msg.txnId, { ...msg, replyTo: 'gw-d' });
    await h.settle();
    expect(states('gw-d')).toEqual([['gw-d', msg.txnId, 'LIQUIDADA']]);
    expect((await get(h, msg.txnId)).version).toBe(final.version);
    await expectNoDeadLetters(h);
  });
});

describe('TransactionActor: reads it does not need', () => {
  const accepted: BankOutcome = { type: 'accepted', pending: true, referencia: 'R1', endtoend: null, raw: { codigo: 'PEND' } };
  const actorOn = (bus: MemoryBus, store: MemoryStore) => new TransactionActor({ bus, store, routing: TWO_BANKS, log });
  const setup = () => {
    const bus = new MemoryBus();
    open.push(bus);
    const store = new MemoryStore();
    const reads = vi.spyOn(store.transactionLog, 'load');
    return { bus, store, reads };
  };
  const result = (txnId: string, outcome: BankOutcome, op: 'execute' | 'status' = 'execute'): RouterInboxMessage => ({
    type: 'bank_result',
    txnId,
    attempt: 1,
    op,
    outcome,
  });

  it('a payout handled within one assignment epoch reads no transaction; a new epoch reads the store', async () => {
    const { bus, store, reads } = setup();
    const actor = actorOn(bus, store);
    const msg = executeOf(pagar('credito_inmediato'));
    await actor.handle(msg, 7);
    await actor.handle(result(msg.txnId, accepted), 7);
    expect(reads).not.toHaveBeenCalled();
    expect((await store.transactions.get(msg.txnId))?.estado).toBe('ACEPTADA');
    const before = (await store.transactions.get(msg.txnId))!.version;
    reads.mockClear();
    await actor.handle({ type: 'query', txnId: msg.txnId }, 8); // after a rebalance: read first
    expect(reads).toHaveBeenCalledWith(msg.txnId);
    expect((await store.transactions.get(msg.txnId))!.version).toBe(before + 1);
  });

  it('a remembered state another writer has passed loses the compare-and-set, is forgotten, and the retry reads', async () => {
    const { bus, store } = setup();
    const a = actorOn(bus, store);
    const b = actorOn(bus, store);
    const msg = executeOf(pagar('credito_inmediato'));
    await a.handle(msg, 1);
    // Another router (as after a rebalance this one did not see) applies the bank's answer.
    await b.handle(result(msg.txnId, accepted));
    // The first, still in what it believes is the same epoch, gets the same answer with its old copy: refused.
    await expect(a.handle(result(msg.txnId, accepted), 1)).rejects.toThrow(/changed since version/);
    expect(a.written.get(msg.txnId, 1)).toBeUndefined();
    await a.handle(result(msg.txnId, accepted), 1); // the bus's retry reads, and finds it applied
    const tx = await store.transactions.get(msg.txnId);
    expect(tx?.estado).toBe('ACEPTADA');
    expect(tx?.history.map((h) => h.to)).toEqual(['ACEPTADA']);
  });

  it('an execute redelivered to a router that remembers nothing finds the transaction by its failed insert: one order', async () => {
    const { bus, store, reads } = setup();
    const orders: string[] = [];
    await bus.subscribe(bankRequests('bnc'), { group: 'probe' }, async ({ value }) => {
      orders.push(value.op === 'execute' ? value.orderRef : `${value.op}?`);
    });
    const msg = executeOf(pagar());
    await actorOn(bus, store).handle(msg, 1);
    expect(reads).not.toHaveBeenCalled();
    await actorOn(bus, store).handle(msg, 2);
    expect(reads).toHaveBeenCalledTimes(1);
    await bus.drained();
    expect(new Set(orders)).toEqual(new Set([`${msg.txnId}-1`]));
    expect((await store.transactions.get(msg.txnId))?.attempts).toHaveLength(1);
  });

  it("an order carries its mode in a header, which the other mode's connector skips it by (bus contract: header filter)", async () => {
    const { bus, store } = setup();
    const modes: (string | undefined)[] = [];
    await bus.subscribe(bankRequests('bnc'), { group: 'probe' }, async ({ value, headers }) => {
      expect(headers[BANK_REQUEST_MODE_HEADER]).toBe(value.mode);
      modes.push(headers[BANK_REQUEST_MODE_HEADER]);
    });
    const msg = executeOf(pagar());
    await actorOn(bus, store).handle(msg, 1);
    await bus.drained();
    expect(modes).toEqual([msg.mode]);
  });
});

describe("TransactionActor with bank workers: live money moves only through the merchant's registered accounts", () => {
  const LIVE_BANKS: RoutingTable = {
    test: [],
    live: (['bnc', 'banco_plaza', 'bancaribe'] as const).map((banco) => ({ banco, capabilities: [...CAPABILITIES] })),
  };

  /** A connector that records what it is asked; what it answers is scripted per bank. */
  class ScriptedBank implements BankConnector {
    readonly capabilities = CAPABILITIES;
    orders: ExecuteOrder[] = [];
    constructor(
      readonly banco: BancoId,
      private readonly answer: BankOutcome,
    ) {}
    async execute(order: ExecuteOrder): Promise<BankOutcome> {
      this.orders.push(order);
      return this.answer;
    }
    async status(): Promise<BankOutcome> {
      return { type: 'unknown', raw: {} };
    }
    async saldo(): Promise<never> {
      throw new Error('unused');
    }
    async movimientos(): Promise<never> {
      throw new Error('unused');
    }
  }

  async function liveSwitch(accountsAt: BancoId[]) {
    const bus = new MemoryBus();
    open.push(bus);
    const store = new MemoryStore();
    for (const [i, banco] of accountsAt.entries()) {
      await store.accounts.register({
        merchantId: 'acme',
        mode: 'live',
        banco,
        cuenta: `0000000000000000000${i}`,
        telefono: null,
        createdAt: new Date().toISOString(),
      });
    }
    const actor = new TransactionActor({ bus, store, routing: LIVE_BANKS, log });
    let handled = 0;
    await bus.subscribe(TOPICS.routerInbox, { group: 'router' }, async ({ value }) => {
      try {
        await actor.handle(value);
      } finally {
        handled++;
      }
    });
    // The first bank is down (refused connection): provably nothing reached it.
    const banks = {
      bnc: new ScriptedBank('bnc', { type: 'not_processed', raw: { switch: 'connection refused' } }),
      banco_plaza: new ScriptedBank('banco_plaza', settled),
      bancaribe: new ScriptedBank('bancaribe', settled),
    };
    for (const bank of Object.values(banks)) {
      await startBankWorker({
        bus,
        store,
        banco: bank.banco,
        connectors: { live: bank },
        group: `bank-${bank.banco}`,
        log,
        faults: { publishAfterBankCall: 0 },
        secrets: SecretBox.ephemeral(),
      });
    }
    // Every bank request comes from a router handling and every bank answer makes one: drained when
    // a whole pass handles no router message (MemoryBus drains topics one after the other).
    const drain = async () => {
      for (let before = -1; before !== handled; ) {
        before = handled;
        await bus.drained();
      }
    };
    const pay = async () => {
      const msg = { ...executeOf(pagar()), mode: 'live' as const };
      await bus.publish(TOPICS.routerInbox, msg.txnId, msg);
      await drain();
      return (await store.transactions.get(msg.txnId))!;
    };
    return { bus, store, banks, pay, settle: drain };
  }

  it('a payout whose first bank is down goes to the next bank holding an account, with that account, never to one without', async () => {
    const { banks, pay } = await liveSwitch(['bnc', 'bancaribe']);
    const tx = await pay();
    expect(toResultado(tx)).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'bancaribe', intentos: 2 });
    expect(banks.bnc.orders.map((o) => o.account?.cuenta)).toEqual(['00000000000000000000']);
    expect(banks.banco_plaza.orders).toEqual([]);
    expect(banks.bancaribe.orders.map((o) => o.account?.cuenta)).toEqual(['00000000000000000001']);
  });

  it('a payout whose merchant holds an account only at the bank that is down is RECHAZADA BANCO_NO_DISPONIBLE', async () => {
    const { banks, pay } = await liveSwitch(['bnc']);
    const tx = await pay();
    expect(toResultado(tx)).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'BANCO_NO_DISPONIBLE', intentos: 1 });
    expect(banks.banco_plaza.orders).toEqual([]);
    expect(banks.bancaribe.orders).toEqual([]);
  });

  it("a live order that reaches a bank worker without an account (a bad write) is refused there, recorded, and rerouted to the merchant's account", async () => {
    const { bus, store, banks, settle } = await liveSwitch(['bancaribe']);
    // As an order written before the router filtered reroutes: at banco_plaza, where the merchant holds nothing.
    const created = {
      ...newTransaction({
        ...executeOf(pagar()),
        id: `txn_${randomUUID().replace(/-/g, '')}`,
        mode: 'live',
        relatedId: null,
        now: new Date().toISOString(),
      }),
    };
    created.merchantId = 'acme';
    created.merchantAccounts = [{ banco: 'bancaribe', cuenta: '00000000000000000000', telefono: null }];
    const tx = dispatch(created, 'banco_plaza', 'pago_movil', created.createdAt);
    await store.transactionLog.commit(tx, null, { announcedVersion: tx.version, writtenBy: null, replyTo: [] });
    const order = effectsOf(tx, null).bank!;
    expect(order.message).not.toHaveProperty('account');
    await bus.publish(bankRequests(order.banco), tx.id, order.message);
    await settle();
    expect(banks.banco_plaza.orders).toEqual([]);
    const done = (await store.transactions.get(tx.id))!;
    expect(done.attempts.map((a) => [a.banco, a.outcome])).toEqual([
      ['banco_plaza', 'not_processed'],
      ['bancaribe', 'settled'],
    ]);
    expect(banks.bancaribe.orders.map((o) => o.account?.cuenta)).toEqual(['00000000000000000000']);
    expect(done.estado).toBe('LIQUIDADA');
  });
});
