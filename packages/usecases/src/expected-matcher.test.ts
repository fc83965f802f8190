import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import type { CreditoRecibido } from '@switch/core/contracts/bancos';
import type { CobroEsperadoRequest } from '@switch/core/contracts/esperados';
import { movementClaimId } from '@switch/platform/ports/movement-claims';
import { createExpectedPayment } from './expected-payments';
import { createLogger } from '@switch/platform/telemetry/logger';
import { ExpectedMatcher, type CreditReader } from './expected-matcher';

const log = createLogger('expected-matcher-test', 'silent');

const CUENTA = '01910000000000000001';
const NOW = new Date('2026-11-20T16:00:00.000Z'); // 12:00 in Caracas
const caller = { merchantId: 'm_1', mode: 'live' as const };

/** A bank that answers whole days, counting reads per day. */
class Bank {
  readonly days = new Map<string, CreditoRecibido[]>();
  readonly reads: string[] = [];
  private n = 0;
  pay(monto: number, concepto = 'PAGO MOVIL', fecha = '2026-11-20', hora = '12:30:00'): CreditoRecibido {
    const c: CreditoRecibido = {
      banco: 'bnc',
      cuenta: CUENTA,
      referencia: String(10_000_000 + ++this.n),
      fecha,
      hora,
      monto,
      concepto,
      pagador: { telefono: '04141234567', identificacion: 'V1234567', banco: '0102' },
    };
    this.days.set(fecha, [...(this.days.get(fecha) ?? []), c]);
    return c;
  }
  reader: CreditReader = async (_caller, q) => {
    this.reads.push(q.fecha);
    return { ok: true, value: { banco: 'bnc', creditos: [...(this.days.get(q.fecha) ?? [])] } };
  };
}

async function setup() {
  const store = new MemoryStore();
  await store.accounts.register({
    merchantId: 'm_1',
    mode: 'live',
    banco: 'bnc',
    cuenta: CUENTA,
    telefono: '04120000001',
    rif: 'J123456789',
    createdAt: NOW.toISOString(),
  });
  await store.webhooks.insert({
    id: 'we_1',
    merchantId: 'm_1',
    mode: 'live',
    url: 'https://example.com/hook',
    events: ['transaccion.liquidada'],
    sealedSecret: 'x',
    active: true,
    createdAt: NOW.toISOString(),
  });
  const bank = new Bank();
  let clock = NOW;
  const matcher = (holder = 'r1', s = store) =>
    new ExpectedMatcher({ store: s, creditos: bank.reader, holder, leaseMs: 60_000, now: () => clock, log });
  const expect_ = async (monto: number, key: string, venceEn = '2026-11-21T16:00:00.000Z') => {
    const body: CobroEsperadoRequest = {
      idempotency_key: key,
      monto: { valor: monto },
      concepto: 'Pedido',
      orden_id: `o-${key.slice(0, 4)}`,
      cobrador: { tipo: 'cuenta', valor: CUENTA, banco: '0191', identificacion: 'J123456789', nombre: 'Tienda' },
      vence_en: venceEn,
    };
    const r = await createExpectedPayment(store, caller, body, clock);
    if (!r.ok) throw new Error(JSON.stringify(r.problem));
    return r.value;
  };
  return { store, bank, matcher, expect_, setClock: (d: Date) => (clock = d) };
}

const key = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the expected payments matcher', () => {
  it('a holder whose fence no longer holds (paused past its lease) matches and announces nothing', async () => {
    const { store, bank, matcher, expect_ } = await setup();
    const exact = await expect_(100, key(1));
    bank.pay(100);
    const lapsed = { token: 1, holds: () => false };
    await matcher().match(lapsed);
    expect((await store.expectedPayments.get(exact.id))!.estado).toBe('ESPERADO');
    expect(await store.expectedPayments.listUnannounced()).toHaveLength(0);
    // The replica holding the lease then matches it.
    await matcher('r2').match({ token: 2, holds: () => true });
    expect((await store.expectedPayments.get(exact.id))!.estado).toBe('RECIBIDO');
  });

  it('moves each payment to RECIBIDO, PAGO_PARCIAL, SOBREPAGO and VENCIDO, and queues one signed-envelope webhook per change', async () => {
    const { store, bank, matcher, expect_, setClock } = await setup();
    const exact = await expect_(100, key(1));
    const partial = await expect_(200, key(2));
    const over = await expect_(300, key(3));
    const late = await expect_(400, key(4), '2026-11-20T18:00:00.000Z');
    bank.pay(100);
    bank.pay(150, `pago ${partial.instrucciones.concepto.split(' ')[0]}`);
    bank.pay(350, over.instrucciones.concepto);
    expect(await matcher().round()).toBe(true);
    const estado = async (id: string) => (await store.expectedPayments.get(id))!.estado;
    expect(await estado(exact.id)).toBe('RECIBIDO');
    expect(await estado(partial.id)).toBe('PAGO_PARCIAL');
    expect(await estado(over.id)).toBe('SOBREPAGO');
    expect(await estado(late.id)).toBe('ESPERADO');
    // The rest of the partial payment completes it.
    bank.pay(50, partial.instrucciones.concepto);
    setClock(new Date('2026-11-20T18:00:01.000Z'));
    await matcher().round();
    expect(await estado(partial.id)).toBe('RECIBIDO');
    expect(await estado(late.id)).toBe('VENCIDO');
    const p = (await store.expectedPayments.get(partial.id))!;
    expect(p.recibido).toBe(200);
    expect(p.historial.map((h) => `${h.from}>${h.to}:${h.motivo}`)).toEqual([
      'ESPERADO>PAGO_PARCIAL:pago_menor',
      'PAGO_PARCIAL>RECIBIDO:pago_exacto',
    ]);
    const events = (await Promise.all([exact, partial, over, late].map((x) => store.deliveries.listForTransaction(x.id)))).flat();
    expect(events.map((d) => d.event).sort()).toEqual([
      'cobro_esperado.pago_parcial',
      'cobro_esperado.recibido',
      'cobro_esperado.recibido',
      'cobro_esperado.sobrepago',
      'cobro_esperado.vencido',
    ]);
    const body = JSON.parse(events.find((d) => d.event === 'cobro_esperado.sobrepago')!.body);
    expect(body).toMatchObject({ type: 'cobro_esperado.sobrepago', data: { id: over.id, estado: 'SOBREPAGO', recibido: 350, monto: 300 } });
    expect(await store.expectedPayments.listUnannounced()).toEqual([]);
  });

  it('reads only the days from its cursor on, and each credit once (the cursor per account survives rounds)', async () => {
    const { store, bank, matcher, expect_, setClock } = await setup();
    const a = await expect_(10, key(1), '2026-11-23T16:00:00.000Z');
    bank.pay(7, 'x', '2026-11-20');
    await matcher().round();
    expect(bank.reads).toEqual(['2026-11-20']);
    setClock(new Date('2026-11-22T16:00:00.000Z'));
    bank.pay(10, 'x', '2026-11-22');
    await matcher().round();
    // The rest of the cursor's day, then each later day once.
    expect(bank.reads).toEqual(['2026-11-20', '2026-11-20', '2026-11-21', '2026-11-22']);
    expect((await store.expectedPayments.get(a.id))!.movimientos.map((m) => m.monto)).toEqual([10]);
    expect(await store.creditCursors.get(`live|0191|${CUENTA}`)).toMatchObject({ fecha: '2026-11-22', seen: 1 });
    await expect_(10, key(2), '2026-11-23T16:00:00.000Z');
    await matcher().round();
    expect(bank.reads.slice(4)).toEqual(['2026-11-22']);
  });

  it('a restart mid-statement matches nothing twice and skips nothing', async () => {
    const { store, bank, expect_ } = await setup();
    const ids = [];
    for (let i = 1; i <= 5; i++) ids.push((await expect_(i, key(i))).id);
    for (let i = 1; i <= 5; i++) bank.pay(i);
    // The replica dies after the third credit's claim and change, before its cursor moves.
    let sets = 0;
    const dying = Object.create(store) as MemoryStore;
    Object.defineProperty(dying, 'creditCursors', {
      value: {
        get: store.creditCursors.get,
        set: async (c: Parameters<typeof store.creditCursors.set>[0]) => {
          if (++sets === 3) throw new Error('process killed');
          return store.creditCursors.set(c);
        },
      },
    });
    const first = new ExpectedMatcher({ store: dying, creditos: bank.reader, holder: 'r1', leaseMs: 1, now: () => NOW, log });
    await expect(first.round()).rejects.toThrow('process killed');
    expect((await Promise.all(ids.map((id) => store.expectedPayments.get(id)))).map((p) => p!.estado)).toEqual([
      'RECIBIDO',
      'RECIBIDO',
      'RECIBIDO',
      'ESPERADO',
      'ESPERADO',
    ]);
    // Another replica takes over once the lease has run out.
    const second = new ExpectedMatcher({
      store,
      creditos: bank.reader,
      holder: 'r2',
      leaseMs: 60_000,
      now: () => new Date(NOW.getTime() + 1000),
      log,
    });
    expect(await second.round()).toBe(true);
    const after = await Promise.all(ids.map((id) => store.expectedPayments.get(id)));
    expect(after.map((p) => [p!.estado, p!.recibido, p!.movimientos.length, p!.historial.length])).toEqual(
      [1, 2, 3, 4, 5].map((i) => ['RECIBIDO', i, 1, 1]),
    );
  });

  it('a verification and the matcher racing for one movement: exactly one holds it, and the payment counts it only if it won', async () => {
    const winners = new Set<string>();
    for (let run = 0; run < 20; run++) {
      const { store, bank, matcher, expect_ } = await setup();
      const p = await expect_(100, key(1));
      const c = bank.pay(100);
      const movement = { banco: 'bnc' as const, cuenta: c.cuenta, referencia: c.referencia, fecha: c.fecha, monto: c.monto };
      const id = movementClaimId('live', 'm_1', movement);
      const verify = () =>
        store.movementClaims.claim({
          id,
          mode: 'live',
          merchantId: 'm_1',
          movement,
          claimant: { kind: 'verificacion', id: `ver_${run}` },
          createdAt: NOW.toISOString(),
        });
      // Each side starts first in half the runs.
      const verification =
        run % 2 ? (await Promise.all([verify(), matcher().round()]))[0] : (await Promise.all([matcher().round(), verify()]))[1];
      winners.add(verification.claimed ? 'verificacion' : 'esperado');
      const holder = (await store.movementClaims.get(id))!.claimant;
      const stored = (await store.expectedPayments.get(p.id))!;
      if (verification.claimed) {
        expect(holder).toEqual({ kind: 'verificacion', id: `ver_${run}` });
        expect([stored.estado, stored.recibido]).toEqual(['ESPERADO', 0]);
      } else {
        expect(holder).toEqual({ kind: 'esperado', id: p.id });
        expect([stored.estado, stored.recibido]).toEqual(['RECIBIDO', 100]);
      }
    }
    expect(winners.size).toBeGreaterThan(0);
  });

  it('one movement pays one order: two payments of the same amount, one transfer', async () => {
    const { store, bank, matcher, expect_ } = await setup();
    const a = await expect_(100, key(1));
    const b = await expect_(100, key(2));
    bank.pay(100);
    await matcher().round();
    await matcher().round();
    const estados = await Promise.all([a, b].map(async (x) => (await store.expectedPayments.get(x.id))!.estado));
    expect(estados.sort()).toEqual(['ESPERADO', 'RECIBIDO']);
  });

  it('at N replicas one round runs at a time: the lease holder matches, the others wait', async () => {
    const { bank, matcher, expect_ } = await setup();
    await expect_(100, key(1));
    bank.pay(100);
    const rounds = await Promise.all(['r1', 'r2', 'r3'].map((h) => matcher(h).round()));
    expect(rounds.filter(Boolean)).toHaveLength(1);
    expect(bank.reads).toHaveLength(1);
  });
});
