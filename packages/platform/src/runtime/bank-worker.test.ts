import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MemoryBus } from '../adapters/memory/bus';
import { MemoryStore } from '../adapters/memory/store';
import { bankRequests, TOPICS, type BankRequestMessage, type RouterInboxMessage } from '@switch/core/contracts/topics';
import type { BankConnector, ExecuteOrder, StatusQuery } from '@switch/connector-kit/bank-port';
import type { Bus } from '../ports/bus';
import { bankOrderId } from '../ports/order-journal';
import type { Store } from '../ports/store';
import { type BankOutcome, newTransaction, type Transaction } from '@switch/core/operation';
import { CAPABILITIES } from '@switch/core/contracts/bancos';
import { createLogger } from '../telemetry/logger';
import { startBankWorker } from './bank-worker';
import { SecretBox } from './secret-box';

const log = createLogger('bank-worker-test', 'silent');

/** A bank that counts every order it receives (per orderRef) and answers as scripted. */
class CountingBank implements BankConnector {
  readonly banco = 'bnc' as const;
  readonly capabilities = CAPABILITIES;
  orders: ExecuteOrder[] = [];
  statusQueries: StatusQuery[] = [];
  constructor(
    private readonly answer: BankOutcome,
    private readonly status_: BankOutcome = { type: 'unknown', raw: {} },
  ) {}
  async execute(order: ExecuteOrder): Promise<BankOutcome> {
    this.orders.push(order);
    return this.answer;
  }
  async status(query: StatusQuery): Promise<BankOutcome> {
    this.statusQueries.push(query);
    return this.status_;
  }
  async saldo(): Promise<never> {
    throw new Error('unused');
  }
  async movimientos(): Promise<never> {
    throw new Error('unused');
  }
}

function order(txnId = `txn_${randomUUID().replace(/-/g, '')}`, attempt = 1): Extract<BankRequestMessage, { op: 'execute' }> {
  const key = randomUUID();
  const telefono = { tipo: 'telefono' as const, valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };
  const cuenta = { tipo: 'cuenta' as const, valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Tienda' };
  return {
    op: 'execute',
    txnId,
    attempt,
    orderRef: `${txnId}-${attempt}`,
    mode: 'test',
    rail: 'pago_movil',
    idempotencyKey: key,
    request: {
      kind: 'pagar',
      body: {
        idempotency_key: key,
        monto: { valor: 10, moneda: 'VES' },
        concepto: 'x',
        ordenante: cuenta,
        beneficiario: telefono,
        via: 'pago_movil',
      },
    },
    related: null,
  };
}

const settled: BankOutcome = { type: 'settled', referencia: 'R1', endtoend: null, raw: { codigo: '00' } };

describe('bank worker: an order goes to the bank at most once per attempt', () => {
  const buses: MemoryBus[] = [];
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((b) => b.close()));
  });

  /** A bus whose publishes to the router fail while `failures` > 0 (a broker hiccup right after the bank call). */
  const box = SecretBox.ephemeral();

  async function setup(bank: CountingBank, options: { store?: Store; failPublishes?: number; recordTries?: number } = {}) {
    const inner = new MemoryBus();
    buses.push(inner);
    let failures = options.failPublishes ?? 0;
    const bus: Bus = {
      publish: async (topic, key, value, headers) => {
        if (topic.name === TOPICS.routerInbox.name && failures > 0) {
          failures--;
          throw new Error('broker unreachable');
        }
        return inner.publish(topic, key, value, headers);
      },
      subscribe: inner.subscribe.bind(inner),
      deadLetters: inner.deadLetters.bind(inner),
      redriveDeadLetters: inner.redriveDeadLetters.bind(inner),
      close: inner.close.bind(inner),
    };
    const results: Extract<RouterInboxMessage, { type: 'bank_result' }>[] = [];
    await inner.subscribe(TOPICS.routerInbox, { group: 'router' }, async ({ value }) => {
      if (value.type === 'bank_result') results.push(value);
    });
    const store = options.store ?? new MemoryStore();
    await startBankWorker({
      secrets: box,
      bus,
      store,
      banco: 'bnc',
      connectors: { test: bank },
      group: 'bank',
      log,
      faults: { publishAfterBankCall: 0 },
      recordTries: options.recordTries ?? 1,
    });
    const send = async (message: BankRequestMessage) => {
      await inner.publish(bankRequests('bnc'), 'txnId' in message ? message.txnId : 'x', message);
      await inner.drained();
    };
    return { bus: inner, store, results, send };
  }

  it('a publish that fails after the bank call is retried without a second bank order, with the same outcome', async () => {
    const bank = new CountingBank(settled);
    const t = await setup(bank, { failPublishes: 1 });
    const o = order();
    await t.send(o);
    expect(bank.orders).toHaveLength(1);
    expect(t.results).toEqual([expect.objectContaining({ txnId: o.txnId, attempt: 1, op: 'execute', outcome: settled })]);
    expect(await t.bus.deadLetters(bankRequests('bnc').name)).toEqual([]);
  });

  /** A cobrar as the gateway publishes it: its OTP sealed under `sealer`. */
  function cobrar(sealer: SecretBox, otp: string): Extract<BankRequestMessage, { op: 'execute' }> {
    const base = order();
    if (base.request.kind !== 'pagar') throw new Error('order() is a pagar');
    const { ordenante, beneficiario, via: _via, ...shared } = base.request.body;
    const body = { ...shared, cobrador: ordenante, pagador: beneficiario, otp: sealer.seal(otp) };
    return { ...base, rail: 'c2p', request: { kind: 'cobrar', body } as never };
  }

  it('a cobrar: the connector gets the OTP opened; the bus carried it only sealed', async () => {
    const bank = new CountingBank(settled);
    const t = await setup(bank);
    const o = cobrar(box, '48151623');
    expect(JSON.stringify(o)).not.toContain('48151623');
    await t.send(o);
    expect(bank.orders).toHaveLength(1);
    expect(bank.orders[0]!.request).toMatchObject({ kind: 'cobrar', body: { otp: '48151623' } });
    expect(t.results).toEqual([expect.objectContaining({ txnId: o.txnId, outcome: settled })]);
  });

  it('a cobrar whose OTP does not open here is not processed (never sent), and a redelivery answers the same', async () => {
    const bank = new CountingBank(settled);
    const t = await setup(bank);
    const o = cobrar(SecretBox.ephemeral(), '48151623');
    await t.send(o);
    await t.send(o);
    expect(bank.orders).toHaveLength(0);
    expect(t.results.map((r) => r.outcome.type)).toEqual(['not_processed', 'not_processed']);
  });

  it('the same order delivered again (re-announced, rebalanced) is answered from the journal, not sent', async () => {
    const bank = new CountingBank(settled);
    const t = await setup(bank);
    const o = order();
    await t.send(o);
    await t.send(o);
    await t.send(o);
    expect(bank.orders).toHaveLength(1);
    expect(t.results).toHaveLength(3);
    expect(new Set(t.results.map((r) => JSON.stringify(r.outcome)))).toEqual(new Set([JSON.stringify(settled)]));
    // Another attempt of the same transaction is another order.
    await t.send(order(o.txnId, 2));
    expect(bank.orders.map((x) => x.attempt)).toEqual([1, 2]);
  });

  it('a redelivery that finds the claim without an outcome (the worker died mid-call) never calls the bank again: unknown', async () => {
    const bank = new CountingBank(settled);
    const store = new MemoryStore();
    // The answer cannot be written down: as if the process died between the bank call and the journal.
    store.bankOrders.recordOutcome = async () => Promise.reject(new Error('store unreachable'));
    const t = await setup(bank, { store });
    const o = order();
    await t.send(o);
    expect(bank.orders).toHaveLength(1);
    expect(t.results).toEqual([
      expect.objectContaining({ txnId: o.txnId, op: 'execute', outcome: expect.objectContaining({ type: 'unknown' }) }),
    ]);
  });

  it('an order the router gave up on (fenced past its deadline) is never sent late: unknown', async () => {
    const bank = new CountingBank(settled);
    const t = await setup(bank);
    const o = order();
    await t.store.bankOrders.claim({
      id: `${o.txnId}#1`,
      txnId: o.txnId,
      attempt: 1,
      banco: 'bnc',
      orderRef: o.orderRef,
      claimedBy: 'router:order-deadline',
      claimedAt: new Date().toISOString(),
      outcome: null,
      recordedAt: null,
    });
    await t.send(o);
    expect(bank.orders).toHaveLength(0);
    expect(t.results).toEqual([expect.objectContaining({ outcome: expect.objectContaining({ type: 'unknown' }) })]);
  });

  it('a store that cannot be reached before the call sends nothing; the order goes once it is back', async () => {
    const bank = new CountingBank(settled);
    const store = new MemoryStore();
    const claim = store.bankOrders.claim.bind(store.bankOrders);
    let down = 2;
    store.bankOrders.claim = async (r) => (down-- > 0 ? Promise.reject(new Error('store unreachable')) : claim(r));
    const t = await setup(bank, { store });
    await t.send(order());
    expect(bank.orders).toHaveLength(1);
    expect(t.results).toEqual([expect.objectContaining({ outcome: settled })]);
  });

  it('"duplicate reference" is never read as a rejection: the original order is asked for its status', async () => {
    const duplicate: BankOutcome = { type: 'rejected', motivo: 'DUPLICADA', referencia: 'R9', raw: { codigo: 'G94' } };
    const bank = new CountingBank(duplicate, { type: 'settled', referencia: 'R9', endtoend: null, raw: { estado: 'liquidada' } });
    const t = await setup(bank);
    await t.send(order());
    expect(bank.statusQueries).toHaveLength(1);
    expect(t.results[0]!.outcome).toMatchObject({ type: 'settled', referencia: 'R9' });

    const unsure = new CountingBank(duplicate, { type: 'not_processed', raw: {} });
    const u = await setup(unsure);
    await u.send(order());
    expect(u.results[0]!.outcome.type).toBe('unknown');
  });
});

describe('bank worker: reads', () => {
  it("a read of a registered account carries that account (with its holder RIF) to the connector; another merchant's does not", async () => {
    const bus = new MemoryBus();
    const store = new MemoryStore();
    const contexts: unknown[] = [];
    const bank: BankConnector = {
      banco: 'bnc',
      capabilities: CAPABILITIES,
      execute: async () => settled,
      status: async () => settled,
      saldo: async (_mode, _query, context) => {
        contexts.push(context);
        return { ok: false, motivo: 'DESCONOCIDO', raw: {} };
      },
      movimientos: async (_mode, _query, context) => {
        contexts.push(context);
        return { ok: false, motivo: 'DESCONOCIDO', raw: {} };
      },
    };
    await store.accounts.register({
      merchantId: 'tienda',
      mode: 'live',
      banco: 'bnc',
      cuenta: '01910000000000000777',
      telefono: null,
      rif: 'J000000777',
      createdAt: new Date().toISOString(),
    });
    await startBankWorker({
      secrets: SecretBox.ephemeral(),
      bus,
      store,
      banco: 'bnc',
      connectors: { live: bank },
      group: 'bank',
      log,
      faults: { publishAfterBankCall: 0 },
    });
    const read = (merchantId: string, op: 'saldo' | 'movimientos' = 'saldo') =>
      bus.publish(bankRequests('bnc'), 'r', {
        op,
        correlationId: randomUUID(),
        gatewayId: 'g',
        mode: 'live',
        merchantId,
        query: op === 'saldo' ? { cuenta: '01910000000000000777' } : { cuenta: '01910000000000000777', desde: '2026-11-01' },
      } as BankRequestMessage);
    await read('tienda');
    await read('tienda', 'movimientos');
    await read('otro');
    await bus.drained();
    const account = { cuenta: '01910000000000000777', telefono: null, rif: 'J000000777' };
    expect(contexts).toEqual([{ merchantId: 'tienda', account }, { merchantId: 'tienda', account }, { merchantId: 'otro' }]);
    await bus.close();
  });
});

describe("bank worker: a live order and its status queries act on the merchant's registered account", () => {
  it("the order gets the holder RIF from the transaction; its status query (and a duplicate's) the account itself", async () => {
    const bus = new MemoryBus();
    const store = new MemoryStore();
    const bank = new CountingBank(
      { type: 'rejected', motivo: 'DUPLICADA', referencia: 'R9', raw: { codigo: 'G94' } },
      { type: 'settled', referencia: 'R9', endtoend: null, raw: {} },
    );
    await startBankWorker({
      secrets: SecretBox.ephemeral(),
      bus,
      store,
      banco: 'bnc',
      connectors: { live: bank },
      group: 'bank',
      log,
      faults: { publishAfterBankCall: 0 },
    });
    const o = { ...order(), mode: 'live' as const, merchantId: 'tienda', account: { cuenta: '01910000000000000777', telefono: null } };
    await storeLive(store, o, [{ banco: 'bnc', cuenta: '01910000000000000777', telefono: null, rif: 'J000000777' }]);
    const account = { cuenta: '01910000000000000777', telefono: null, rif: 'J000000777' };

    await bus.publish(bankRequests('bnc'), o.txnId, o);
    await bus.drained();
    expect(bank.orders).toEqual([expect.objectContaining({ account })]);
    // "Duplicate reference": the original is asked about the same account.
    expect(bank.statusQueries).toEqual([expect.objectContaining({ merchantId: 'tienda', account })]);

    const status: BankRequestMessage = {
      op: 'status',
      txnId: o.txnId,
      attempt: 1,
      orderRef: o.orderRef,
      mode: 'live',
      rail: o.rail,
      kind: 'pagar',
      referencia: null,
      endtoend: null,
    };
    await bus.publish(bankRequests('bnc'), o.txnId, status);
    await bus.drained();
    expect(bank.statusQueries[1]).toMatchObject({ op: 'status', merchantId: 'tienda', account });
    await bus.close();
  });
});

describe("bank worker: a live order never goes under the switch's own credentials", () => {
  async function live(bank: CountingBank) {
    const bus = new MemoryBus();
    const store = new MemoryStore();
    const results: Extract<RouterInboxMessage, { type: 'bank_result' }>[] = [];
    await bus.subscribe(TOPICS.routerInbox, { group: 'router' }, async ({ value }) => {
      if (value.type === 'bank_result') results.push(value);
    });
    await startBankWorker({
      bus,
      store,
      banco: 'bnc',
      connectors: { live: bank },
      group: 'bank',
      log,
      faults: { publishAfterBankCall: 0 },
      secrets: SecretBox.ephemeral(),
    });
    return { bus, store, results };
  }

  it('a live order without the merchant account is refused as not processed, explained, and the connector is never called', async () => {
    const bank = new CountingBank(settled);
    const { bus, store, results } = await live(bank);
    const o = { ...order(), mode: 'live' as const, merchantId: 'tienda' };
    await bus.publish(bankRequests('bnc'), o.txnId, o);
    await bus.drained();
    expect(bank.orders).toEqual([]);
    expect(results).toEqual([
      expect.objectContaining({
        txnId: o.txnId,
        attempt: 1,
        op: 'execute',
        outcome: { type: 'not_processed', raw: { switch: expect.stringContaining('no registered account') } },
      }),
    ]);
    // Nothing was claimed: the order never reached the bank.
    expect(await store.bankOrders.get(bankOrderId(o.txnId, 1))).toBeNull();
    await bus.close();
  });

  it('a live status query for a transaction without an account at this bank asks nothing and is unknown', async () => {
    const bank = new CountingBank(settled, settled);
    const { bus, store, results } = await live(bank);
    const o = { ...order(), mode: 'live' as const };
    await storeLive(store, o, [{ banco: 'banco_plaza', cuenta: '01380000000000000777', telefono: null }]);
    const status = (txnId: string): BankRequestMessage => ({
      op: 'status',
      txnId,
      attempt: 1,
      orderRef: `${txnId}-1`,
      mode: 'live',
      rail: o.rail,
      kind: 'pagar',
      referencia: null,
      endtoend: null,
    });
    await bus.publish(bankRequests('bnc'), o.txnId, status(o.txnId));
    // A transaction the store does not know: not asked as the switch either.
    await bus.publish(bankRequests('bnc'), 'txn_unknown', status('txn_unknown'));
    await bus.drained();
    expect(bank.statusQueries).toEqual([]);
    expect(results.map((r) => r.outcome)).toEqual([
      { type: 'unknown', raw: { switch: expect.stringContaining('no registered account') } },
      { type: 'unknown', raw: { switch: expect.stringContaining('no registered account') } },
    ]);
    await bus.close();
  });
});

/** The live transaction an order belongs to, stored with the merchant's registered accounts. */
async function storeLive(
  store: Store,
  o: Extract<BankRequestMessage, { op: 'execute' }>,
  accounts: Transaction['merchantAccounts'],
): Promise<void> {
  const tx = newTransaction({
    id: o.txnId,
    merchantId: 'tienda',
    mode: 'live',
    idempotencyKey: o.idempotencyKey,
    fingerprint: 'f',
    request: o.request,
    relatedId: null,
    now: new Date().toISOString(),
  });
  tx.merchantAccounts = accounts;
  await store.transactionLog.commit(tx, null, { announcedVersion: tx.version, writtenBy: null, replyTo: [] });
}
