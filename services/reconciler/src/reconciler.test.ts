import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { CAPABILITIES } from '@switch/core/contracts/bancos';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { startBankWorker } from '@switch/platform/runtime/bank-worker';
import { TOPICS } from '@switch/core/contracts/topics';
import type { BankConnector, ExecuteOrder, StatusQuery } from '@switch/connector-kit/bank-port';
import type { BankOutcome, OperationRequest } from '@switch/core/operation';
import type { CorePolicy } from '@switch/core/transaction-core';
import type { RoutingTable } from '@switch/core/routing';
import type { Subscription } from '@switch/platform/ports/bus';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { TransactionActor } from '@switch/router';
import { reconcileRound, type ReconcilerConfig } from './poller';

const log = createLogger('reconciler-test', 'silent');
const PLAZA_ONLY: RoutingTable = { test: [{ banco: 'banco_plaza', capabilities: [...CAPABILITIES] }], live: [] };
const config: ReconcilerConfig = { reviewAfterMs: 24 * 3_600_000, batchSize: 100 };

/** A bank whose answers the test scripts: what execute says, and what each status query says. */
class ScriptedBank implements BankConnector {
  readonly banco = 'banco_plaza' as const;
  readonly capabilities = CAPABILITIES;
  executed: ExecuteOrder[] = [];
  statusAnswers: BankOutcome[] = [];
  statusAsked = 0;
  constructor(public onExecute: BankOutcome) {}
  async execute(order: ExecuteOrder): Promise<BankOutcome> {
    this.executed.push(order);
    return order.request.kind === 'token'
      ? { type: 'accepted', pending: false, referencia: 'OTP', endtoend: null, raw: {} }
      : this.onExecute;
  }
  async status(_q: StatusQuery): Promise<BankOutcome> {
    this.statusAsked++;
    return this.statusAnswers.shift() ?? { type: 'unknown', raw: { note: 'no scripted answer' } };
  }
  async saldo(): Promise<never> {
    throw new Error('unused');
  }
  async movimientos(): Promise<never> {
    throw new Error('unused');
  }
}

describe('reconciler drives open operations to their outcome through the actor', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of closers.splice(0)) await c();
  });

  async function setup(onExecute: BankOutcome, policy: Partial<CorePolicy> = {}) {
    const bus = new MemoryBus();
    const store = new MemoryStore();
    const bank = new ScriptedBank(onExecute);
    let clock = Date.parse('2026-11-22T12:00:00.000Z');
    const now = () => new Date(clock);
    const actor = new TransactionActor({
      bus,
      store,
      routing: PLAZA_ONLY,
      log,
      now,
      policy: { notFoundSettleMs: 60_000, backoffMs: [0], ...policy },
    });
    const events: { txnId: string; to: string | undefined }[] = [];
    const startWorker = () =>
      startBankWorker({
        secrets: SecretBox.ephemeral(),
        bus,
        store,
        banco: 'banco_plaza',
        connectors: { test: bank },
        group: 'bank',
        log,
        faults: { publishAfterBankCall: 0 },
      });
    let worker: Subscription | null = await startWorker();
    const subs = [
      await bus.subscribe(TOPICS.routerInbox, { group: 'router' }, ({ value }) => actor.handle(value)),
      await bus.subscribe(TOPICS.transactions, { group: 'watch' }, async ({ value }) => {
        events.push({ txnId: value.txnId, to: value.transition?.to });
      }),
    ];
    closers.push(async () => {
      for (const s of subs) await s.close();
      await worker?.close();
      await bus.close();
    });
    /** No bank worker: what is sent meanwhile is lost (a worker gone with the messages in its hands). */
    const bankDown = async () => {
      await worker?.close();
      worker = null;
    };
    const bankUp = async () => {
      worker ??= await startWorker();
    };
    const execute = async (request: OperationRequest = payout()) => {
      const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
      const key = request.body.idempotency_key;
      await bus.publish(TOPICS.routerInbox, txnId, {
        type: 'execute',
        txnId,
        merchantId: 'tienda',
        mode: 'test',
        idempotencyKey: key,
        fingerprint: 'f',
        request,
      });
      return txnId;
    };
    const txnId = await execute();
    await bus.drained();
    const round = async (c: ReconcilerConfig = config) => {
      const r = await reconcileRound({ bus, store, log, config: c, now });
      await bus.drained();
      return r;
    };
    return {
      bus,
      store,
      bank,
      txnId,
      events,
      round,
      execute,
      bankDown,
      bankUp,
      advance: (ms: number) => (clock += ms),
      state: async (id = txnId) => (await store.transactions.get(id))!,
    };
  }

  const cuenta = (valor: string, nombre: string) => ({
    tipo: 'cuenta' as const,
    valor,
    banco: '0138',
    identificacion: 'J123456789',
    nombre,
  });
  function payout(): OperationRequest {
    const key = randomUUID();
    return {
      kind: 'pagar',
      body: {
        idempotency_key: key,
        monto: { valor: 100, moneda: 'VES' },
        concepto: 'nómina',
        ordenante: cuenta('01380000000000000001', 'Tienda'),
        beneficiario: cuenta('01020000000000000002', 'Ana'),
      },
    };
  }
  function token(): OperationRequest {
    const key = randomUUID();
    const telefono = { tipo: 'telefono' as const, valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };
    return {
      kind: 'token',
      body: {
        idempotency_key: key,
        monto: { valor: 5, moneda: 'VES' },
        concepto: 'pedido',
        cobrador: cuenta('01380000000000000001', 'Tienda'),
        pagador: telefono,
      },
    };
  }

  it('settles a pending immediate credit when the bank later confirms it, and announces it', async () => {
    const t = await setup({ type: 'accepted', pending: false, referencia: 'R1', endtoend: 'E2E1', raw: { codigo: '0000' } });
    expect((await t.state()).estado).toBe('ACEPTADA');
    t.bank.statusAnswers.push({ type: 'accepted', pending: true, referencia: 'R1', endtoend: 'E2E1', raw: { estatus: 'AC00' } });
    await t.round();
    expect((await t.state()).estado).toBe('PENDIENTE');
    t.bank.statusAnswers.push({ type: 'settled', referencia: 'R1', endtoend: 'E2E1', raw: { estatus: 'ACCP' } });
    await t.round();
    const tx = await t.state();
    expect(tx.estado).toBe('LIQUIDADA');
    expect(tx.history.map((h) => [h.from, h.to, h.cause])).toEqual([
      [null, 'ACEPTADA', 'bank_outcome'],
      ['ACEPTADA', 'PENDIENTE', 'status_query'],
      ['PENDIENTE', 'LIQUIDADA', 'status_query'],
    ]);
    expect(t.events.filter((e) => e.txnId === t.txnId && e.to).map((e) => e.to)).toEqual(['ACEPTADA', 'PENDIENTE', 'LIQUIDADA']);
    expect(t.bank.executed).toHaveLength(1);
    // Final: nothing more to ask.
    expect((await t.round()).queried).toEqual([]);
  });

  it('resolves a DESCONOCIDA the bank did process to LIQUIDADA from the status evidence, without resending', async () => {
    const t = await setup({ type: 'unknown', raw: { reason: 'UND_ERR_HEADERS_TIMEOUT' } });
    expect((await t.state()).estado).toBe('DESCONOCIDA');
    t.bank.statusAnswers.push({ type: 'settled', referencia: 'R9', endtoend: null, raw: { codigoRespuesta: '0000' } });
    await t.round();
    const tx = await t.state();
    expect(tx.estado).toBe('LIQUIDADA');
    expect(tx.referenciaBanco).toBe('R9');
    expect(tx.evidence).toEqual([
      expect.objectContaining({ source: 'status_query', outcome: 'settled', raw: { codigoRespuesta: '0000' } }),
    ]);
    expect(t.bank.executed).toHaveLength(1);
  });

  it('rejects a DESCONOCIDA the bank never got only after "not found" held past the settle window', async () => {
    const t = await setup({ type: 'unknown', raw: { reason: 'UND_ERR_HEADERS_TIMEOUT' } }, { notFoundSettleMs: 60_000 });
    const notFound: BankOutcome = { type: 'not_processed', raw: { codigoRespuesta: '404' } };
    t.bank.statusAnswers.push(notFound);
    await t.round();
    expect((await t.state()).estado).toBe('DESCONOCIDA');
    t.advance(30_000);
    t.bank.statusAnswers.push(notFound);
    await t.round();
    expect((await t.state()).estado).toBe('DESCONOCIDA');
    t.advance(30_001);
    t.bank.statusAnswers.push(notFound);
    await t.round();
    const tx = await t.state();
    expect(tx.estado).toBe('RECHAZADA');
    expect(tx.motivoRechazo).toBe('BANCO_NO_DISPONIBLE');
    expect(tx.evidence).toHaveLength(3);
    expect((tx.raw as { evidence: unknown[] }).evidence).toHaveLength(3);
    expect(t.bank.executed).toHaveLength(1);
  });

  it('an answer other than "not found" restarts the settle window', async () => {
    const t = await setup({ type: 'unknown', raw: {} }, { notFoundSettleMs: 60_000 });
    t.bank.statusAnswers.push({ type: 'not_processed', raw: {} });
    await t.round();
    t.advance(50_000);
    t.bank.statusAnswers.push({ type: 'unknown', raw: { reason: 'bank timeout' } });
    await t.round();
    t.advance(20_000);
    t.bank.statusAnswers.push({ type: 'not_processed', raw: {} });
    await t.round();
    expect((await t.state()).estado).toBe('DESCONOCIDA');
  });

  it('asks again only on the backoff schedule and flags what nobody resolves for review', async () => {
    const t = await setup({ type: 'unknown', raw: {} }, { backoffMs: [0, 60_000] });
    const slow: ReconcilerConfig = { reviewAfterMs: 3_600_000, batchSize: 100 };
    expect((await t.round(slow)).queried).toEqual([t.txnId]);
    expect((await t.round(slow)).queried).toEqual([]);
    t.advance(3_600_000);
    const r = await t.round(slow);
    expect(r.flagged).toEqual([t.txnId]);
    expect((await t.state()).review).toEqual({ since: expect.any(String), reason: expect.stringContaining('DESCONOCIDA') });
    expect((await t.round(slow)).flagged).toEqual([]);
  });

  it('is not starved by a backlog of token operations: 1,000 open tokens, one DESCONOCIDA payout, the payout is asked', async () => {
    const t = await setup({ type: 'accepted', pending: false, referencia: 'R1', endtoend: null, raw: {} });
    // The tokens are older than the payout below, and stay ACEPTADA for ever (they move no money).
    for (let i = 0; i < 1_000; i++) await t.execute(token());
    await t.bus.drained();
    t.advance(60_000);
    t.bank.onExecute = { type: 'unknown', raw: { reason: 'cut after sending' } };
    const unknown = await t.execute(payout());
    await t.bus.drained();
    expect((await t.state(unknown)).estado).toBe('DESCONOCIDA');
    t.bank.statusAnswers.push(
      { type: 'settled', referencia: 'R2', endtoend: null, raw: {} },
      { type: 'settled', referencia: 'R1', endtoend: null, raw: {} },
    );
    const r = await t.round({ reviewAfterMs: 24 * 3_600_000, batchSize: 500 });
    expect(r.queried).toContain(unknown);
    expect(r.queried.every((id) => id === unknown || id === t.txnId)).toBe(true);
    expect((await t.state(unknown)).estado).toBe('LIQUIDADA');
  });

  it('owns an order nobody answered: past its deadline it is DESCONOCIDA and asked about, never sent again', async () => {
    const t = await setup({ type: 'settled', referencia: 'R1', endtoend: null, raw: {} }, { orderDeadlineMs: 120_000 });
    await t.bankDown();
    const stuck = await t.execute(payout());
    await t.bus.drained();
    await t.bankUp();
    expect((await t.state(stuck)).attempts[0]!.outcome).toBeUndefined();
    // Within the deadline nothing is due for it.
    t.advance(60_000);
    expect((await t.round()).queried).not.toContain(stuck);
    t.advance(60_001);
    t.bank.statusAnswers.push({ type: 'settled', referencia: 'R7', endtoend: null, raw: { found: true } });
    expect((await t.round()).queried).toContain(stuck);
    const tx = await t.state(stuck);
    expect(tx.history.map((h) => [h.from, h.to, h.cause])).toEqual([
      [null, 'DESCONOCIDA', 'order_deadline'],
      ['DESCONOCIDA', 'LIQUIDADA', 'status_query'],
    ]);
    expect(tx.referenciaBanco).toBe('R7');
    // Asked about, never sent again.
    expect(t.bank.executed.filter((o) => o.txnId === stuck)).toHaveLength(0);
  });

  it('asks again when a status query got no answer by its deadline', async () => {
    const t = await setup({ type: 'unknown', raw: {} }, { statusDeadlineMs: 30_000 });
    await t.bankDown();
    expect((await t.round()).queried).toEqual([t.txnId]);
    const first = (await t.state()).statusQuery!.seq;
    t.advance(10_000);
    expect((await t.round()).queried).toEqual([]);
    t.advance(20_001);
    await t.bankUp();
    t.bank.statusAnswers.push({ type: 'settled', referencia: 'R3', endtoend: null, raw: {} });
    expect((await t.round()).queried).toEqual([t.txnId]);
    const tx = await t.state();
    expect(tx.estado).toBe('LIQUIDADA');
    expect(tx.statusChecks).toBe(first + 1);
  });
});
