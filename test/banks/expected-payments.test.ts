import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BancoId, CreditoRecibido, CreditosQuery } from '@switch/core/contracts/bancos';
import type { ReadOutcome } from '@switch/connector-kit/bank-port';
import type { IncomingPagoMovil, IncomingReceipt } from '@switch/connector-kit/emulator';
import { EMULATOR_DEMO } from '@switch/embedded';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { createExpectedPayment } from '@switch/usecases/expected-payments';
import { ExpectedMatcher, type CreditReader } from '@switch/usecases/expected-matcher';
import { createLogger } from '@switch/platform/telemetry/logger';
import { startBankSwitch, type BankSwitch } from './helpers';

const log = createLogger('expected-payments-test', 'silent');

/**
 * Expected payments on every bank's emulator: a payer's pago móvil booked by the emulator as its bank
 * books it, read back by the bank's real connector through its own statement protocol, and moved by
 * the matcher to each state of the table.
 */
type Bank = {
  banco: BancoId;
  cuenta: string;
  /** A day of its own, so the banks' tests never read each other's credits. */
  day: string;
  receive(p: IncomingPagoMovil): IncomingReceipt;
  creditos(q: CreditosQuery): Promise<ReadOutcome<CreditoRecibido[]>>;
};

let t: BankSwitch;
let banks: Bank[];
beforeAll(async () => {
  t = await startBankSwitch();
  const s = t.sw.banks.services;
  const d = EMULATOR_DEMO;
  banks = [
    {
      banco: 'bnc',
      cuenta: d.bnc.account,
      day: '2026-12-01',
      receive: (p) => t.emu.bnc.ledger.receivePagoMovil(p),
      creditos: (q) => s.bnc!.connectors.live!.creditos('live', q),
    },
    {
      banco: 'banco_plaza',
      cuenta: d.banco_plaza.account,
      day: '2026-12-02',
      receive: (p) => t.emu.banco_plaza.ledger.receivePagoMovil(p),
      creditos: (q) => s.banco_plaza!.connectors.test!.creditos('test', q),
    },
    {
      banco: 'bancaribe',
      cuenta: d.bancaribe.cuenta,
      day: '2026-12-03',
      receive: (p) => t.emu.bancaribe.ledger.receivePagoMovil(p),
      creditos: (q) => s.bancaribe!.connectors.test!.creditos('test', q),
    },
    {
      banco: 'banco_activo',
      cuenta: d.banco_activo.account,
      day: '2026-12-04',
      receive: (p) => t.emu.banco_activo.ledger.receivePagoMovil(p),
      creditos: (q) => s.banco_activo!.connectors.test!.creditos('test', q),
    },
  ];
});
afterAll(async () => {
  await t?.close();
});

/** A Caracas wall-clock time as an instant (UTC-4). */
const caracas = (day: string, time: string) => new Date(`${day}T${time}-04:00`);
const key = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe.each(['bnc', 'banco_plaza', 'bancaribe', 'banco_activo'] as const)('expected payments on %s', (banco) => {
  it('ESPERADO → RECIBIDO, PAGO_PARCIAL (then RECIBIDO with the rest), SOBREPAGO and VENCIDO from the credits its statement shows', async () => {
    const b = banks.find((x) => x.banco === banco)!;
    const store = new MemoryStore();
    const caller = { merchantId: 'm_exp', mode: 'live' as const };
    await store.accounts.register({
      ...caller,
      banco,
      cuenta: b.cuenta,
      telefono: '04120000001',
      rif: 'J123456789',
      createdAt: new Date().toISOString(),
    });
    let clock = caracas(b.day, '12:00:00');
    const create = async (n: number, monto: number, venceEn = caracas(b.day, '18:00:00')) => {
      const r = await createExpectedPayment(
        store,
        caller,
        {
          idempotency_key: key(n),
          monto: { valor: monto },
          concepto: `Pedido ${n}`,
          orden_id: `orden-${n}`,
          cobrador: { tipo: 'cuenta', valor: b.cuenta, banco: b.cuenta.slice(0, 4), identificacion: 'J123456789', nombre: 'Tienda' },
          vence_en: venceEn.toISOString(),
        },
        clock,
      );
      if (!r.ok) throw new Error(JSON.stringify(r.problem));
      return r.value;
    };
    const reader: CreditReader = async (_caller, q) => {
      const r = await b.creditos(q);
      return r.ok
        ? { ok: true, value: { banco, creditos: r.value } }
        : { ok: false, problem: { kind: 'bank_unavailable', motivo: r.motivo } };
    };
    const matcher = () => new ExpectedMatcher({ store, creditos: reader, holder: 'r1', leaseMs: 1, now: () => clock, log });
    const pay = (monto: number, concepto: string, time = '12:30:00') =>
      b.receive({ cuenta: b.cuenta, monto, bancoPagador: '0102', telefonoPagador: '04141234567', at: caracas(b.day, time), concepto });

    const exact = await create(1, 811.11);
    const partial = await create(2, 822.22);
    const over = await create(3, 833.33);
    const expiring = await create(4, 844.44, caracas(b.day, '14:00:00'));
    pay(811.11, 'PAGO MOVIL'); // no code: its exact amount names it
    pay(800, partial.instrucciones.concepto);
    pay(900, over.instrucciones.concepto);
    clock = caracas(b.day, '13:00:00');
    expect(await matcher().round()).toBe(true);
    const estado = async (id: string) => (await store.expectedPayments.get(id))!.estado;
    expect(await estado(exact.id)).toBe('RECIBIDO');
    expect(await estado(partial.id)).toBe('PAGO_PARCIAL');
    expect(await estado(over.id)).toBe('SOBREPAGO');
    expect(await estado(expiring.id)).toBe('ESPERADO');

    pay(22.22, partial.instrucciones.concepto, '13:30:00');
    clock = caracas(b.day, '14:00:01');
    await matcher().round();
    expect(await estado(partial.id)).toBe('RECIBIDO');
    expect(await estado(expiring.id)).toBe('VENCIDO');
    const paid = (await store.expectedPayments.get(partial.id))!;
    expect(paid.movimientos.map((m) => m.monto)).toEqual([800, 22.22]);
    // Each credit read once: another round changes nothing.
    await matcher().round();
    expect((await store.expectedPayments.get(over.id))!.movimientos).toHaveLength(1);
  });
});
