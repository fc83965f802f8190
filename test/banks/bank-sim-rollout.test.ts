import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { ExecuteOrder, StatusQuery } from '@switch/connector-kit/bank-port';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { createLogger } from '@switch/platform/telemetry/logger';
import { OPENING_BALANCE, startSimulatedBank } from '@switch/bank-sim';

/**
 * A rollout of bank-sim (Kubernetes `maxSurge: 1`): the new pod starts while the old one still serves,
 * both share the store, and an order one took is asked about at the other. The simulated bank is test
 * mode's bank: whichever replica answers, it is one bank with one ledger.
 */
const CUENTA = '01910000000000000001';
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((s) => s()));
});

async function twoReplicas() {
  const store = new MemoryStore();
  const bus = new MemoryBus({});
  const deps = { bus, store, secrets: SecretBox.ephemeral(), log: createLogger('test', 'silent') };
  const old = await startSimulatedBank(deps);
  const surge = await startSimulatedBank(deps);
  stops.push(old.stop, surge.stop);
  return { old: old.bank, surge: surge.bank };
}

function payout(rail: 'pago_movil' | 'credito_inmediato'): ExecuteOrder {
  const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
  return {
    txnId,
    attempt: 1,
    orderRef: `${txnId}-1`,
    mode: 'test',
    rail,
    idempotencyKey: randomUUID(),
    merchantId: 'm1',
    related: null,
    request: {
      kind: 'pagar',
      mode: 'test',
      body: {
        idempotency_key: randomUUID(),
        monto: { valor: 125.5, moneda: 'VES' },
        concepto: 'rollout',
        via: rail,
        ordenante: { tipo: 'cuenta', valor: CUENTA, banco: '0191', identificacion: 'J123456789', nombre: 'Comercio' },
        beneficiario: { tipo: 'cuenta', valor: '01020000000000000002', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
      },
    },
  } as unknown as ExecuteOrder;
}

const statusOf = (order: ExecuteOrder, referencia: string | null): StatusQuery => ({
  txnId: order.txnId,
  attempt: order.attempt,
  orderRef: order.orderRef,
  mode: order.mode,
  rail: order.rail,
  kind: order.request.kind,
  referencia,
  endtoend: null,
  merchantId: 'm1',
});

describe('bank-sim through a rollout (two replicas on one store)', () => {
  it('an order the old pod accepted is settled, not "not found", when the new pod is asked about it', async () => {
    const { old, surge } = await twoReplicas();
    const order = payout('credito_inmediato');
    const accepted = await old.execute(order);
    expect(accepted.type).toBe('accepted');
    const referencia = accepted.type === 'accepted' ? accepted.referencia : null;
    const answer = await surge.status(statusOf(order, referencia));
    expect(answer).toMatchObject({ type: 'settled', referencia });
  });

  it('an order sent again to the other pod is answered from the one ledger: one order, one debit, seen by both pods', async () => {
    const { old, surge } = await twoReplicas();
    const order = payout('pago_movil');
    const first = await old.execute(order);
    const again = await surge.execute(order);
    expect(again).toEqual(first);
    for (const pod of [old, surge]) {
      expect(await pod.receivedByOrderRef()).toEqual({ [order.orderRef]: 2 });
      expect(Object.keys(await pod.ledger())).toEqual([order.orderRef]);
      const saldo = await pod.saldo('test', { cuenta: CUENTA }, { merchantId: 'm1' });
      expect(saldo).toMatchObject({ ok: true, value: { disponible: OPENING_BALANCE - 125.5 } });
    }
  });

  it('an order no pod ever took is still "not processed" (the reconciler may end it)', async () => {
    const { surge } = await twoReplicas();
    const order = payout('credito_inmediato');
    expect((await surge.status(statusOf(order, null))).type).toBe('not_processed');
  });
});
