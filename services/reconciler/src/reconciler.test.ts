import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import {
  CAPABILITIES,
  createLogger,
  MemoryBus,
  MemoryStore,
  startBankWorker,
  TOPICS,
  type BankConnector,
  type BankOutcome,
  type ExecuteOrder,
  type RoutingTable,
  type StatusQuery,
} from '@switch/shared';
import { TransactionActor } from '@switch/router';
import { reconcileRound, type ReconcilerConfig } from './poller';

const log = createLogger('reconciler-test', 'silent');
const PLAZA_ONLY: RoutingTable = { test: [{ banco: 'banco_plaza', capabilities: [...CAPABILITIES] }], live: [] };
const config: ReconcilerConfig = { backoffMs: [0], reviewAfterMs: 24 * 3_600_000, batchSize: 100 };

/** A bank whose answers the test scripts: what execute says, and what each status query says. */
class ScriptedBank implements BankConnector {
  readonly banco = 'banco_plaza' as const;
  readonly capabilities = CAPABILITIES;
  executed: ExecuteOrder[] = [];
  statusAnswers: BankOutcome[] = [];
  statusAsked = 0;
  constructor(private readonly onExecute: BankOutcome) {}
  async execute(order: ExecuteOrder): Promise<BankOutcome> {
    this.executed.push(order);
    return this.onExecute;
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

  async function setup(onExecute: BankOutcome, notFoundSettleMs = 60_000) {
    const bus = new MemoryBus();
    const store = new MemoryStore();
    const bank = new ScriptedBank(onExecute);
    let clock = Date.parse('2026-11-22T12:00:00.000Z');
    const now = () => new Date(clock);
    const actor = new TransactionActor({ bus, store, routing: PLAZA_ONLY, log, now, notFoundSettleMs });
    const events: { txnId: string; to: string | undefined }[] = [];
    const subs = [
      await bus.subscribe(TOPICS.routerInbox, { group: 'router' }, ({ value }) => actor.handle(value)),
      await startBankWorker({ bus, banco: 'banco_plaza', connectors: { test: bank }, group: 'bank', log }),
      await bus.subscribe(TOPICS.transactions, { group: 'watch' }, async ({ value }) => {
        events.push({ txnId: value.txnId, to: value.transition?.to });
      }),
    ];
    closers.push(async () => {
      for (const s of subs) await s.close();
      await bus.close();
    });
    const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
    const key = randomUUID();
    await bus.publish(TOPICS.routerInbox, txnId, {
      type: 'execute',
      txnId,
      merchantId: 'tienda',
      mode: 'test',
      idempotencyKey: key,
      fingerprint: 'f',
      request: {
        kind: 'pagar',
        body: {
          idempotency_key: key,
          monto: { valor: 100, moneda: 'VES' },
          concepto: 'nómina',
          ordenante: { tipo: 'cuenta', valor: '01380000000000000001', banco: '0138', identificacion: 'J123456789', nombre: 'Tienda' },
          beneficiario: { tipo: 'cuenta', valor: '01020000000000000002', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
        },
      },
    });
    await bus.drained();
    const round = async () => {
      const r = await reconcileRound({ bus, store, log, config, now });
      await bus.drained();
      return r;
    };
    return { bus, store, bank, txnId, events, round, advance: (ms: number) => (clock += ms), state: async () => (await store.transactions.get(txnId))! };
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
    expect(tx.evidence).toEqual([expect.objectContaining({ source: 'status_query', outcome: 'settled', raw: { codigoRespuesta: '0000' } })]);
    expect(t.bank.executed).toHaveLength(1);
  });

  it('rejects a DESCONOCIDA the bank never got only after "not found" held past the settle window', async () => {
    const t = await setup({ type: 'unknown', raw: { reason: 'UND_ERR_HEADERS_TIMEOUT' } }, 60_000);
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
    const t = await setup({ type: 'unknown', raw: {} }, 60_000);
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
    const t = await setup({ type: 'unknown', raw: {} });
    const slow: ReconcilerConfig = { backoffMs: [0, 60_000], reviewAfterMs: 3_600_000, batchSize: 100 };
    const createdAt = Date.parse((await t.state()).createdAt);
    const round = async () => {
      const r = await reconcileRound({ bus: t.bus, store: t.store, log, config: slow, now: () => new Date(createdAt + offset) });
      await t.bus.drained();
      return r;
    };
    let offset = 0;
    expect((await round()).queried).toEqual([t.txnId]);
    expect((await round()).queried).toEqual([]);
    offset = 3_600_000;
    const r = await round();
    expect(r.flagged).toEqual([t.txnId]);
    expect((await t.state()).review).toEqual({ since: expect.any(String), reason: expect.stringContaining('DESCONOCIDA') });
    expect((await round()).flagged).toEqual([]);
  });
});
