import { storesClosedAfterEach } from './store-lifecycle';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { ExpectedPayment } from '../src/ports/expected-payments';
import type { Store } from '../src/ports/store';

export const sampleExpected = (over: Partial<ExpectedPayment> = {}): ExpectedPayment => ({
  id: `esp_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
  scope: `m-1|live|esperado|${randomUUID()}`,
  fingerprint: 'f',
  idempotencyKey: randomUUID(),
  merchantId: 'm-1',
  mode: 'live',
  ordenId: 'o-1',
  concepto: 'Pedido',
  codigo: 'EABC234',
  monto: 100,
  banco: '0191',
  cuenta: '01910000000000000001',
  telefono: null,
  rif: null,
  estado: 'ESPERADO',
  recibido: 0,
  movimientos: [],
  historial: [],
  venceEn: '2026-11-28T00:00:00.000Z',
  version: 1,
  announcedVersion: 1,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  ...over,
});

/** The expected payments port: create once, compare-and-set changes, the matcher's queries, cursors and the loop lease. */
export function expectedPaymentsContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract (expected payments): ${name}`, () => {
    const store = storesClosedAfterEach(makeStore);

    it('creates once (a second create answers the first), reads it back, lists newest first per merchant and mode, paged', async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const rows = [0, 1, 2].map((i) => sampleExpected({ merchantId, createdAt: `2026-11-27T10:00:0${i}.000Z` }));
      for (const p of rows) expect(await s.expectedPayments.create(p)).toEqual({ created: true });
      expect(await s.expectedPayments.create({ ...rows[0]!, monto: 5 })).toEqual({ created: false, existing: rows[0] });
      expect(await s.expectedPayments.get(rows[1]!.id)).toEqual(rows[1]);
      const first = await s.expectedPayments.list({ merchantId, mode: 'live' }, 2);
      expect(first.map((p) => p.id)).toEqual([rows[2]!.id, rows[1]!.id]);
      const next = await s.expectedPayments.list({ merchantId, mode: 'live' }, 2, { createdAt: first[1]!.createdAt, id: first[1]!.id });
      expect(next.map((p) => p.id)).toEqual([rows[0]!.id]);
      expect(await s.expectedPayments.list({ merchantId, mode: 'test' }, 10)).toEqual([]);
      expect(await s.expectedPayments.list({ merchantId, mode: 'live', estado: 'RECIBIDO' }, 10)).toEqual([]);
    });

    it('of two changes from one version exactly one is stored; open and unannounced follow the state and the mark', async () => {
      const s = await store();
      const p = sampleExpected();
      await s.expectedPayments.create(p);
      const a = { ...p, estado: 'RECIBIDO' as const, version: 2 };
      const b = { ...p, estado: 'PAGO_PARCIAL' as const, version: 2 };
      const results = await Promise.all([s.expectedPayments.replace(a, 1), s.expectedPayments.replace(b, 1)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const stored = (await s.expectedPayments.get(p.id))!;
      expect(stored.version).toBe(2);
      const open = (await s.expectedPayments.listOpen()).map((x) => x.id);
      expect(open.includes(p.id)).toBe(stored.estado === 'PAGO_PARCIAL');
      expect((await s.expectedPayments.listUnannounced()).map((x) => x.id)).toContain(p.id);
      expect(await s.expectedPayments.replace({ ...stored, announcedVersion: 2 }, 2)).toBe(true);
      expect((await s.expectedPayments.listUnannounced()).map((x) => x.id)).not.toContain(p.id);
    });

    it('keeps a cursor per account, and one holder of a loop lease until it expires', async () => {
      const s = await store();
      const key = `live|0191|${randomUUID()}`;
      expect(await s.creditCursors.get(key)).toBeNull();
      await s.creditCursors.set({ key, fecha: '2026-11-27', seen: 3, updatedAt: '2026-11-27T10:00:00.000Z' });
      await s.creditCursors.set({ key, fecha: '2026-11-27', seen: 4, updatedAt: '2026-11-27T10:00:01.000Z' });
      expect(await s.creditCursors.get(key)).toEqual({ key, fecha: '2026-11-27', seen: 4, updatedAt: '2026-11-27T10:00:01.000Z' });
    });
  });
}
