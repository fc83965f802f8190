import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CreditoRecibido } from '@switch/core/contracts/bancos';
import type { VerificarBody } from '@switch/core/contracts/verificacion';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { movementClaimId } from '@switch/platform/ports/movement-claims';
import type { AccountReads } from '@switch/platform/runtime/account-reads';
import { verifyPayment } from './payment-verification';

const NOW = new Date('2026-11-27T15:00:00Z'); // 11:00 in Caracas
const CUENTA = '01380000000000000001';
const credit = (over: Partial<CreditoRecibido> = {}): CreditoRecibido => ({
  banco: 'banco_plaza',
  cuenta: CUENTA,
  referencia: '000123456789',
  fecha: '2026-11-27',
  hora: '10:00:00',
  monto: 100,
  concepto: 'PAGO MOVIL',
  pagador: { telefono: '04141234567', identificacion: null, banco: '0102' },
  ...over,
});
const body = (over: Partial<VerificarBody> = {}): VerificarBody => ({
  idempotency_key: randomUUID(),
  monto: { valor: 100, moneda: 'VES' },
  banco_pagador: '0102',
  telefono_pagador: '04141234567',
  referencia: '123456789',
  fecha: '2026-11-27',
  cobrador: { tipo: 'cuenta', valor: CUENTA, banco: '0138', identificacion: 'J123456789', nombre: 'Tienda' },
  ...over,
});
/** A bank that answers these credits for any day, counting the reads. */
const bank = (credits: CreditoRecibido[]) => {
  const reads = { n: 0 };
  const port: Pick<AccountReads, 'creditos'> = {
    creditos: async (_caller, q) => {
      reads.n++;
      return { ok: true, value: { banco: 'banco_plaza', creditos: credits.filter((c) => c.fecha === q.fecha) } };
    },
  };
  return { port, reads };
};
const live = { merchantId: 'm-1', mode: 'live' as const };

describe('verifyPayment', () => {
  it('concurrent repeats of one request are one verification: all VERIFICADO, one claim, one kept answer', async () => {
    const store = new MemoryStore();
    const { port } = bank([credit()]);
    const b = body();
    const answers = await Promise.all(Array.from({ length: 10 }, () => verifyPayment({ reads: port, store, now: () => NOW }, live, b)));
    for (const a of answers) expect(a).toMatchObject({ ok: true, value: { estado: 'VERIFICADO' } });
    const ids = new Set(answers.map((a) => (a.ok ? a.value.id : '')));
    expect(ids.size).toBe(1);
  });

  it("never names another merchant's claim of the movement (an account that changed hands)", async () => {
    const store = new MemoryStore();
    const c = credit();
    const movement = { banco: c.banco, cuenta: c.cuenta, referencia: c.referencia, fecha: c.fecha, monto: c.monto };
    await store.movementClaims.claim({
      id: movementClaimId('live', 'm-0', movement),
      mode: 'live',
      merchantId: 'm-0',
      movement,
      claimant: { kind: 'esperado', id: 'esp_secret' },
      createdAt: NOW.toISOString(),
    });
    const r = await verifyPayment({ reads: bank([c]).port, store, now: () => NOW }, live, body());
    expect(r).toMatchObject({ ok: true, value: { estado: 'YA_RECLAMADO', reclamado_por: null } });
  });

  it('a second credit with the same reference and amount is the next one claimed (two payments, two verifications)', async () => {
    const store = new MemoryStore();
    const { port } = bank([credit({ hora: '09:00:00' }), credit({ referencia: '100123456789' })]);
    const deps = { reads: port, store, now: () => NOW };
    const a = await verifyPayment(deps, live, body({ referencia: '123456789' }));
    const b = await verifyPayment(deps, live, body({ referencia: '123456789' }));
    expect(a).toMatchObject({ ok: true, value: { estado: 'VERIFICADO' } });
    expect(b).toMatchObject({ ok: true, value: { estado: 'VERIFICADO' } });
    if (a.ok && b.ok) expect(a.value.movimiento!.referencia).not.toBe(b.value.movimiento!.referencia);
  });

  it('NO_ENCONTRADO is not kept: the same key asks the bank again and finds it once it is booked', async () => {
    const store = new MemoryStore();
    const credits: CreditoRecibido[] = [];
    const { port, reads } = bank(credits);
    const b = body();
    const first = await verifyPayment({ reads: port, store, now: () => NOW }, live, b);
    expect(first).toMatchObject({ ok: true, value: { estado: 'NO_ENCONTRADO', reintentar_despues: '2026-11-27T15:02:00.000Z' } });
    credits.push(credit());
    const second = await verifyPayment({ reads: port, store, now: () => NOW }, live, b);
    expect(second).toMatchObject({ ok: true, value: { estado: 'VERIFICADO' } });
    expect(reads.n).toBe(2);
    // Kept now: a third time answers from the store, the bank is not asked.
    expect(await verifyPayment({ reads: port, store, now: () => NOW }, live, b)).toMatchObject({ replayed: true });
    expect(reads.n).toBe(2);
  });

  it('reads the day after for a payment of yesterday, and asks nothing for a day in the future', async () => {
    const store = new MemoryStore();
    const { port, reads } = bank([credit({ fecha: '2026-11-27', hora: '00:00:00' })]);
    const r = await verifyPayment({ reads: port, store, now: () => NOW }, live, body({ fecha: '2026-11-26' }));
    expect(r).toMatchObject({ ok: true, value: { estado: 'VERIFICADO', movimiento: { fecha: '2026-11-27' } } });
    expect(reads.n).toBe(2);
    const future = await verifyPayment({ reads: port, store, now: () => NOW }, live, body({ fecha: '2026-11-28' }));
    expect(future).toEqual({ ok: false, problem: { kind: 'invalid', detail: { fecha: expect.any(String) } } });
    expect(reads.n).toBe(2);
  });
});
