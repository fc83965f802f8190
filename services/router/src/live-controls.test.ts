import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { bankRequests, TOPICS } from '@switch/core/contracts/topics';
import { CAPABILITIES } from '@switch/core/contracts/bancos';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { NO_RISK_RULES, type RiskPolicy } from '@switch/core/risk';
import type { OperationRequest, Transaction } from '@switch/core/operation';
import type { RoutingTable } from '@switch/core/routing';
import { TransactionActor } from './actor';

const log = createLogger('live-controls-test', 'silent');
const BOTH: RoutingTable = {
  test: [{ banco: 'bnc', capabilities: [...CAPABILITIES] }],
  live: [{ banco: 'banco_plaza', capabilities: [...CAPABILITIES] }],
};
const comercio = {
  tipo: 'cuenta' as const,
  valor: '01380000000000000001',
  banco: '0138',
  identificacion: 'J123456789',
  nombre: 'Comercio',
};
const ana = { tipo: 'telefono' as const, valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };

const pagar = (valor: number, beneficiario = ana): OperationRequest => ({
  kind: 'pagar',
  body: {
    idempotency_key: randomUUID(),
    monto: { valor, moneda: 'VES' },
    concepto: 'pago',
    ordenante: comercio,
    beneficiario,
    via: 'pago_movil',
  },
});
const token = (pagador = ana): OperationRequest => ({
  kind: 'token',
  body: { idempotency_key: randomUUID(), monto: { valor: 10, moneda: 'VES' }, concepto: 'cobro', cobrador: comercio, pagador },
});

/** The body of a stored token operation (the cobrar repeats it). */
function tokenBody(tx: Transaction) {
  if (tx.request.kind !== 'token') throw new Error(`${tx.id} is not a token`);
  return tx.request.body;
}

/** A router over the in-memory bus and store, the merchant's live account registered at banco_plaza. */
async function liveSwitch(policy: RiskPolicy) {
  const bus = new MemoryBus();
  const store = new MemoryStore();
  // Live money moves only through the merchant's registered accounts (finding 1).
  await store.accounts.register({
    merchantId: 'tienda',
    mode: 'live',
    banco: 'banco_plaza',
    cuenta: comercio.valor,
    telefono: null,
    createdAt: new Date().toISOString(),
  });
  // One instant for every operation of a test: its hour and its Venezuelan day never roll over between them.
  const now = () => new Date('2026-12-02T15:30:00.000Z');
  return { bus, store, actor: new TransactionActor({ bus, store, routing: BOTH, log, risk: policy, now }) };
}

async function run(policy: RiskPolicy, mode: 'test' | 'live', requests: OperationRequest[]) {
  const { bus, store, actor } = await liveSwitch(policy);
  const results = [];
  for (const request of requests) {
    const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
    await actor.handle({
      type: 'execute',
      txnId,
      merchantId: 'tienda',
      mode,
      idempotencyKey: request.body.idempotency_key,
      fingerprint: 'f',
      request,
    });
    results.push((await store.transactions.get(txnId))!);
  }
  await bus.close();
  return results;
}

describe('live-money controls', () => {
  it('rejects a live payout to a blocklisted beneficiary with BLOQUEO_RIESGO, explained, before any bank', async () => {
    const policy = { ...NO_RISK_RULES, blockedPhones: new Set(['04141234567']) };
    const [tx] = await run(policy, 'live', [pagar(10)]);
    expect(tx!.estado).toBe('RECHAZADA');
    expect(tx!.motivoRechazo).toBe('BLOQUEO_RIESGO');
    expect(tx!.raw).toEqual({ switch: 'risk_engine', rule: 'blocked_phone', subject: '04141234567' });
    expect(tx!.attempts).toHaveLength(0);
    expect(tx!.history[0]!.cause).toBe('risk');
  });

  it('evaluates the payer for collections and the beneficiary for payouts', async () => {
    const policy = { ...NO_RISK_RULES, blockedIds: new Set(['V12345678']) };
    const [payoutToOther, tokenFromBlocked] = await run(policy, 'live', [pagar(10, { ...ana, identificacion: 'V999' }), token()]);
    expect(payoutToOther!.estado).toBeNull(); // dispatched to the bank, no outcome yet
    expect(payoutToOther!.attempts).toHaveLength(1);
    expect(tokenFromBlocked!.motivoRechazo).toBe('BLOQUEO_RIESGO');
  });

  it('applies velocity per subject', async () => {
    const policy = { ...NO_RISK_RULES, maxOperationsPerSubjectPerHour: 2 };
    const txs = await run(policy, 'live', [pagar(1), pagar(1), pagar(1)]);
    expect(txs.map((t) => t.motivoRechazo)).toEqual([null, null, 'BLOQUEO_RIESGO']);
    expect(txs[2]!.raw).toMatchObject({ rule: 'velocity', operationsThisHour: 3, max: 2 });
  });

  it('refuses what would pass the daily limit with EXCEDE_LIMITE and does not count the refused amount', async () => {
    const policy = { ...NO_RISK_RULES, dailyLimitVes: 100 };
    const txs = await run(policy, 'live', [pagar(60), pagar(50), pagar(40)]);
    expect(txs.map((t) => t.motivoRechazo)).toEqual([null, 'EXCEDE_LIMITE', null]);
    expect(txs[1]!.raw).toEqual({ switch: 'daily_limit', limitVes: 100, usedVes: 60, requestedVes: 50 });
  });

  it.each([
    ['daily limit equal to the amount', { ...NO_RISK_RULES, dailyLimitVes: 10 }, 'EXCEDE_LIMITE'],
    ['velocity of one operation per subject', { ...NO_RISK_RULES, maxOperationsPerSubjectPerHour: 1 }, 'BLOQUEO_RIESGO'],
  ] as const)('a collection counts once (%s): its token reserves nothing, its cobrar passes and counts', async (_, policy, motivo) => {
    const { bus, store, actor } = await liveSwitch(policy);
    const execute = async (request: OperationRequest, tokenId?: string) => {
      const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
      await actor.handle({
        type: 'execute',
        txnId,
        merchantId: 'tienda',
        mode: 'live',
        idempotencyKey: request.body.idempotency_key,
        fingerprint: 'f',
        request,
        ...(tokenId ? { tokenId } : {}),
      });
      return (await store.transactions.get(txnId))!;
    };
    const tok = await execute(token());
    expect(tok).toMatchObject({ estado: null, motivoRechazo: null, bancoUsado: 'banco_plaza' });
    const body = tokenBody(tok);
    const cobrar = await execute({ kind: 'cobrar', body: { ...body, otp: '123456' } }, tok.id);
    expect(cobrar.relatedId).toBe(tok.id);
    expect(cobrar.raw).toBeNull();
    expect(cobrar).toMatchObject({ estado: null, motivoRechazo: null, bancoUsado: 'banco_plaza' });
    expect(cobrar.attempts).toHaveLength(1);
    // The collection did count once: another one the same day passes neither control.
    const tok2 = await execute(token());
    const body2 = tokenBody(tok2);
    const second = await execute({ kind: 'cobrar', body: { ...body2, otp: '123456' } }, tok2.id);
    expect(tok2.motivoRechazo).toBeNull();
    expect(second.motivoRechazo).toBe(motivo);
    await bus.close();
  });

  it('live: routes only to a bank holding a registered account of the merchant, and the order carries it', async () => {
    const bus = new MemoryBus();
    const store = new MemoryStore();
    const orders: unknown[] = [];
    await bus.subscribe(bankRequests('banco_plaza'), { group: 'probe' }, async ({ value }) => {
      orders.push(value);
    });
    const actor = new TransactionActor({ bus, store, routing: BOTH, log, risk: NO_RISK_RULES });
    const send = async (merchantId: string) => {
      const request = pagar(10);
      const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
      await actor.handle({
        type: 'execute',
        txnId,
        merchantId,
        mode: 'live',
        idempotencyKey: request.body.idempotency_key,
        fingerprint: 'f',
        request,
      });
      return (await store.transactions.get(txnId))!;
    };
    // No registered account: nothing is sent to any bank.
    const none = await send('sin-cuentas');
    expect(none).toMatchObject({ estado: 'RECHAZADA', motivoRechazo: 'BANCO_NO_DISPONIBLE' });
    expect(none.attempts).toHaveLength(0);
    await store.accounts.register({
      merchantId: 'tienda',
      mode: 'live',
      banco: 'banco_plaza',
      cuenta: '01380000000000000777',
      telefono: '04140000777',
      rif: 'J000000777',
      createdAt: new Date().toISOString(),
    });
    const paid = await send('tienda');
    // The snapshot keeps the holder's RIF: the bank worker reads it from here (BNC's ChildClientID).
    expect(paid.merchantAccounts).toEqual([
      { banco: 'banco_plaza', cuenta: '01380000000000000777', telefono: '04140000777', rif: 'J000000777' },
    ]);
    expect(paid.attempts).toHaveLength(1);
    await bus.drained();
    expect(orders).toEqual([
      expect.objectContaining({
        op: 'execute',
        txnId: paid.id,
        merchantId: 'tienda',
        account: { cuenta: '01380000000000000777', telefono: '04140000777' },
      }),
    ]);
    await bus.close();
  });

  it('skips every live control in test mode', async () => {
    const policy: RiskPolicy = {
      dailyLimitVes: 1,
      blockedIds: new Set(['V12345678']),
      blockedPhones: new Set(['04141234567']),
      blockedAccounts: new Set(),
      maxOperationsPerSubjectPerHour: 0,
    };
    const txs = await run(policy, 'test', [pagar(500), token()]);
    expect(txs.every((t) => t.attempts.length === 1 && t.motivoRechazo === null)).toBe(true);
  });
});
void TOPICS;
