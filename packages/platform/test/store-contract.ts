import { storesClosedAfterEach } from './store-lifecycle';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { DuplicateRecord, type Store } from '../src/ports/store';
import type { IdempotencyClaim } from '../src/ports/claims';
import { idempotencyScope } from '@switch/core/contracts/operaciones';
import { inFlight, newTransaction, type Transaction } from '@switch/core/operation';
import type { DeliveryMarks, TransactionLog } from '../src/ports/transaction-log';
import type { TransactionFilter } from '../src/ports/transaction-reads';

/** A transaction document as the router first writes it. */
export function sampleTransaction(overrides: Partial<Transaction> = {}): Transaction {
  return {
    ...newTransaction({
      id: `txn_${randomUUID().replace(/-/g, '')}`,
      merchantId: 'm1',
      mode: 'test',
      idempotencyKey: randomUUID(),
      fingerprint: 'f'.repeat(64),
      request: {
        kind: 'pagar',
        body: {
          idempotency_key: randomUUID(),
          monto: { valor: 10.5, moneda: 'VES' },
          concepto: 'prueba',
          ordenante: { tipo: 'cuenta', valor: '01910000000000000001', banco: '0191', identificacion: 'J1', nombre: 'A' },
          beneficiario: { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V1', nombre: 'B' },
        },
      },
      relatedId: null,
      now: new Date().toISOString(),
    }),
    ...overrides,
  };
}

/** Marks of a version written and announced: nothing left for the outbox relay, nobody waiting. */
export const announced = (tx: Transaction): DeliveryMarks => ({ announcedVersion: tx.version, writtenBy: null, replyTo: [] });

/** Writes a transaction as the router's first commit would (announced), for tests that read it. */
export const seedTransaction = (s: { transactionLog: TransactionLog }, tx: Transaction): Promise<boolean> =>
  s.transactionLog.commit(tx, null, announced(tx));

/** Writes the next state of a transaction at `expectedVersion` (announced), as the router's commit would. */
const rewrite = (s: Store, tx: Transaction, expectedVersion: number): Promise<boolean> =>
  s.transactionLog.commit(tx, expectedVersion, announced(tx));

/**
 * The guarantees of the Store port (packages/platform/src/ports/store.ts), run against every adapter.
 * `makeStore` gives a store whose data does not collide with other tests (fresh database or ids).
 */
export function storeContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    const store = storesClosedAfterEach(makeStore);

    it("reads a merchant's operations of the mode of one Venezuelan hour for the overview, and nothing else", async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const at = (iso: string) => ({ createdAt: iso, updatedAt: iso });
      const settled = { estado: 'LIQUIDADA' as const, bancoUsado: 'bnc' as const };
      await seedTransaction(s, sampleTransaction({ merchantId, ...settled, ...at('2026-11-27T12:00:00.000Z') }));
      await seedTransaction(s, sampleTransaction({ merchantId, ...settled, ...at('2026-11-27T12:59:59.999Z') }));
      await seedTransaction(
        s,
        sampleTransaction({
          merchantId,
          estado: 'RECHAZADA',
          motivoRechazo: 'SALDO_INSUFICIENTE',
          bancoUsado: 'bnc',
          ...at('2026-11-27T12:30:00.000Z'),
        }),
      );
      // The hours before and after (08:00 in Caracas is 12:00 UTC), the other mode, another merchant:
      // not counted; no outcome yet, or waiting: open.
      await seedTransaction(s, sampleTransaction({ merchantId, ...settled, ...at('2026-11-27T11:59:59.999Z') }));
      await seedTransaction(s, sampleTransaction({ merchantId, ...settled, ...at('2026-11-27T13:00:00.000Z') }));
      const pending = sampleTransaction({ merchantId, estado: 'PENDIENTE', bancoUsado: 'bnc', ...at('2026-11-27T12:10:00.000Z') });
      await seedTransaction(s, pending);
      await seedTransaction(s, sampleTransaction({ merchantId, mode: 'live', ...settled, ...at('2026-11-27T12:00:00.000Z') }));
      await seedTransaction(s, sampleTransaction({ merchantId: `${merchantId}-x`, ...settled, ...at('2026-11-27T12:00:00.000Z') }));
      await seedTransaction(s, sampleTransaction({ merchantId, ...at('2026-11-27T12:00:00.000Z') }));
      const hour = await s.transactions.overviewOfHour(merchantId, 'test', '2026-11-27T08');
      expect(hour.hour).toBe('2026-11-27T08');
      expect(hour.open.map((t) => t.estado).sort()).toEqual(['PENDIENTE', null].sort());
      expect(hour.open.find((t) => t.estado === 'PENDIENTE')).toEqual(pending);
      const groups = hour.final.sort((a, b) => a.estado.localeCompare(b.estado));
      expect(groups).toEqual([
        { day: '2026-11-27', kind: 'pagar', estado: 'LIQUIDADA', banco: 'bnc', motivo: null, count: 2, amount: 21, latencyMs: 0 },
        {
          day: '2026-11-27',
          kind: 'pagar',
          estado: 'RECHAZADA',
          banco: 'bnc',
          motivo: 'SALDO_INSUFICIENTE',
          count: 1,
          amount: 10.5,
          latencyMs: 0,
        },
      ]);
    });

    it("streams a merchant's filtered operations newest first across days, ties by id, for an export", async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      await s.merchants.insert({ id: merchantId, nombre: 'Tienda', active: true, createdAt: '2026-11-01T00:00:00.000Z' });
      const at = (iso: string) => ({ createdAt: iso, updatedAt: iso });
      const settled = { estado: 'LIQUIDADA' as const, bancoUsado: 'bnc' as const };
      const rows = [
        sampleTransaction({ merchantId, ...settled, ...at('2026-11-02T12:00:00.000Z') }),
        sampleTransaction({ merchantId, ...settled, ...at('2026-11-20T03:59:59.000Z') }),
        sampleTransaction({ merchantId, ...settled, ...at('2026-11-20T04:00:00.000Z') }),
        sampleTransaction({ merchantId, ...settled, ...at('2026-11-20T04:00:00.000Z') }),
        sampleTransaction({ merchantId, ...settled, ...at(new Date().toISOString()) }),
      ];
      for (const tx of rows) await seedTransaction(s, tx);
      await seedTransaction(
        s,
        sampleTransaction({ merchantId, estado: 'RECHAZADA', motivoRechazo: 'SALDO_INSUFICIENTE', ...at('2026-11-10T12:00:00.000Z') }),
      );
      await seedTransaction(s, sampleTransaction({ merchantId, mode: 'live', ...settled, ...at('2026-11-10T12:00:00.000Z') }));
      await seedTransaction(s, sampleTransaction({ merchantId, ...at('2026-11-10T12:00:00.000Z') }));
      const ids = async (filter: Partial<TransactionFilter>) => {
        const out: string[] = [];
        for await (const tx of s.transactions.streamForMerchant({ merchantId, mode: 'test', estado: 'LIQUIDADA', ...filter }))
          out.push(tx.id);
        return out;
      };
      const newest = [...rows].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id)).map((t) => t.id);
      expect(await ids({})).toEqual(newest);
      expect(await ids({ desde: '2026-11-20T00:00:00.000Z', hasta: '2026-11-21T00:00:00.000Z' })).toEqual(newest.slice(1, 4));
    });

    it('keeps merchants, refuses a duplicate id, and returns copies', async () => {
      const s = await store();
      const id = `m-${randomUUID().slice(0, 8)}`;
      await s.merchants.insert({ id, nombre: 'Tienda', active: true, createdAt: new Date().toISOString() });
      await expect(s.merchants.insert({ id, nombre: 'Otra', active: true, createdAt: new Date().toISOString() })).rejects.toBeInstanceOf(
        DuplicateRecord,
      );
      const got = (await s.merchants.get(id))!;
      got.nombre = 'changed';
      expect((await s.merchants.get(id))!.nombre).toBe('Tienda');
      expect(await s.merchants.setActive(id, false)).toBe(true);
      expect((await s.merchants.get(id))!.active).toBe(false);
      expect(await s.merchants.get('nobody')).toBeNull();
    });

    it('lists and revokes API keys per merchant', async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const key = {
        id: `key_${randomUUID().slice(0, 8)}`,
        merchantId,
        mode: 'test' as const,
        secretHash: 'a'.repeat(64),
        hint: 'abcd',
        active: true,
        createdAt: new Date().toISOString(),
        revokedAt: null,
      };
      await s.apiKeys.insert(key);
      expect(await s.apiKeys.listForMerchant(merchantId)).toEqual([key]);
      expect(await s.apiKeys.revoke(key.id, '2026-01-01T00:00:00.000Z')).toBe(true);
      expect(await s.apiKeys.revoke(key.id, '2026-01-01T00:00:00.000Z')).toBe(false);
      const [revoked] = await s.apiKeys.listForMerchant(merchantId);
      expect(revoked).toMatchObject({ active: false, revokedAt: '2026-01-01T00:00:00.000Z' });
    });

    it('keeps webhook endpoints per merchant and mode', async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const base = {
        merchantId,
        url: 'https://example.test/hook',
        events: ['transaccion.liquidada' as const],
        sealedSecret: 'sealed',
        active: true,
        createdAt: new Date().toISOString(),
      };
      await s.webhooks.insert({ ...base, id: `we_${randomUUID().slice(0, 8)}`, mode: 'test' });
      await s.webhooks.insert({ ...base, id: `we_${randomUUID().slice(0, 8)}`, mode: 'live' });
      expect(await s.webhooks.listForMerchant(merchantId)).toHaveLength(2);
      const live = await s.webhooks.listForMerchant(merchantId, 'live');
      expect(live).toHaveLength(1);
      expect(await s.webhooks.deactivate(live[0]!.id)).toBe(true);
      expect((await s.webhooks.listForMerchant(merchantId, 'live'))[0]!.active).toBe(false);
    });

    it('registers merchant accounts: one holder per account number and mode, listed per merchant and mode', async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const other = `m-${randomUUID().slice(0, 8)}`;
      const cuenta = `0191${String(Math.floor(Math.random() * 1e15)).padStart(16, '0')}`;
      const account = {
        merchantId,
        mode: 'live' as const,
        banco: 'bnc' as const,
        cuenta,
        telefono: '04141234567',
        // The holder's RIF (BNC's ChildClientID) is kept as registered.
        rif: 'J123456789',
        createdAt: '2026-01-01T00:00:00.000Z',
      };
      expect(await s.accounts.register(account)).toBe(true);
      // The same number in the same mode is taken, for this merchant and any other.
      expect(await s.accounts.register({ ...account, createdAt: '2026-01-02T00:00:00.000Z' })).toBe(false);
      expect(await s.accounts.register({ ...account, merchantId: other })).toBe(false);
      // The same number in the other mode is another registration.
      expect(await s.accounts.register({ ...account, mode: 'test', telefono: null, createdAt: '2026-01-03T00:00:00.000Z' })).toBe(true);
      expect(await s.accounts.find('live', cuenta)).toEqual(account);
      expect(await s.accounts.find('test', cuenta)).toMatchObject({ merchantId, mode: 'test', telefono: null });
      expect(await s.accounts.find('live', '01910000000000009999')).toBeNull();
      expect(await s.accounts.list(merchantId)).toHaveLength(2);
      expect(await s.accounts.list(merchantId, 'live')).toEqual([account]);
      expect(await s.accounts.list(other)).toEqual([]);
      const got = (await s.accounts.find('live', cuenta))!;
      got.banco = 'banco_plaza';
      expect((await s.accounts.find('live', cuenta))!.banco).toBe('bnc');
      // Concurrent registrations of one number: exactly one wins.
      const racing = `0191${String(Math.floor(Math.random() * 1e15)).padStart(16, '0')}`;
      const wins = await Promise.all(
        [...Array(5).keys()].map((i) => s.accounts.register({ ...account, cuenta: racing, merchantId: `m${i}` })),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
    });

    it('lets exactly one of many concurrent claims of a scope win', async () => {
      const s = await store();
      const key = randomUUID();
      const scope = idempotencyScope('m1', 'test', 'pagar', key);
      const claim = (i: number): IdempotencyClaim => ({
        scope,
        merchantId: 'm1',
        mode: 'test',
        kind: 'pagar',
        key,
        fingerprint: `f${i}`,
        txnId: `txn_${i}`,
        createdAt: new Date().toISOString(),
      });
      const results = await Promise.all([...Array(20).keys()].map((i) => s.idempotency.claim(claim(i))));
      const winners = results.filter((r) => r.claimed);
      expect(winners).toHaveLength(1);
      const stored = (await s.idempotency.get(scope))!;
      for (const r of results) if (!r.claimed) expect(r.existing).toEqual(stored);
    });

    it('releases a claim only for the operation that holds it; the key can then be claimed again', async () => {
      const s = await store();
      const key = randomUUID();
      const scope = idempotencyScope('m1', 'test', 'pagar', key);
      const claim = (txnId: string): IdempotencyClaim => ({
        scope,
        merchantId: 'm1',
        mode: 'test',
        kind: 'pagar',
        key,
        fingerprint: 'f',
        txnId,
        createdAt: new Date().toISOString(),
      });
      expect((await s.idempotency.claim(claim('txn_a'))).claimed).toBe(true);
      await s.idempotency.release(scope, 'txn_other');
      expect((await s.idempotency.get(scope))?.txnId).toBe('txn_a');
      await s.idempotency.release(scope, 'txn_a');
      expect(await s.idempotency.get(scope)).toBeNull();
      expect((await s.idempotency.claim(claim('txn_b'))).claimed).toBe(true);
    });

    it('scopes claims by merchant, mode and operation kind', async () => {
      const s = await store();
      const key = randomUUID();
      const scopes = [
        idempotencyScope('m1', 'test', 'token', key),
        idempotencyScope('m1', 'test', 'cobrar', key),
        idempotencyScope('m1', 'live', 'cobrar', key),
        idempotencyScope('m2', 'test', 'cobrar', key),
      ];
      expect(new Set(scopes).size).toBe(4);
      for (const scope of scopes) {
        const r = await s.idempotency.claim({
          scope,
          merchantId: 'm',
          mode: 'test',
          kind: 'cobrar',
          key,
          fingerprint: 'f',
          txnId: scope,
          createdAt: new Date().toISOString(),
        });
        expect(r.claimed).toBe(true);
      }
    });

    it('commits a first write once (an atomic insert) and round-trips it unchanged', async () => {
      const s = await store();
      const tx = sampleTransaction();
      expect(await seedTransaction(s, tx)).toBe(true);
      expect(await seedTransaction(s, { ...tx, concepto: 'x' } as Transaction)).toBe(false);
      expect(await s.transactions.get(tx.id)).toEqual(tx);
      expect(await s.transactions.get('txn_missing')).toBeNull();
    });

    it('commits only at the expected version: two writers never both win', async () => {
      const s = await store();
      const tx = sampleTransaction();
      await seedTransaction(s, tx);
      const a = { ...tx, version: 2, estado: 'ACEPTADA' as const };
      const b = { ...tx, version: 2, estado: 'RECHAZADA' as const };
      const [ra, rb] = await Promise.all([rewrite(s, a, 1), rewrite(s, b, 1)]);
      expect([ra, rb].filter(Boolean)).toHaveLength(1);
      const stored = (await s.transactions.get(tx.id))!;
      expect(stored.version).toBe(2);
      expect(stored.estado).toBe(ra ? 'ACEPTADA' : 'RECHAZADA');
      expect(await rewrite(s, { ...stored, version: 3 }, 1)).toBe(false);
      expect(await rewrite(s, { ...tx, id: 'txn_absent', version: 2 }, 1)).toBe(false);
    });

    it('marks announcements without a new version, and lists the unmarked writes older than a time (the outbox relay)', async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const at = (d: string) => `2001-0${d}T00:00:00.000Z`;
      const unmarked: DeliveryMarks = { announcedVersion: 2, writtenBy: 'execute', replyTo: ['gw-a'] };
      const old = sampleTransaction({ merchantId, version: 3, updatedAt: at('1-01') });
      const fresh = sampleTransaction({ merchantId, version: 3, updatedAt: at('3-01') });
      const marked = sampleTransaction({ merchantId, version: 2, updatedAt: at('1-01') });
      for (const t of [old, fresh]) await s.transactionLog.commit(t, null, unmarked);
      await s.transactionLog.commit(marked, null, unmarked);
      const mine = async (before: string) =>
        (await s.transactionLog.listUnannounced(before, 100_000)).filter((l) => l.tx.merchantId === merchantId).map((l) => l.tx.id);
      expect(await mine(at('2-01'))).toEqual([old.id]);
      expect(new Set(await mine(at('4-01')))).toEqual(new Set([old.id, fresh.id]));
      expect((await s.transactionLog.listUnannounced(at('2-01'), 100_000)).find((l) => l.tx.id === old.id)).toEqual({
        tx: old,
        marks: unmarked,
      });
      // A mark of a version that is no longer the stored one changes nothing.
      await s.transactionLog.markAnnounced(old.id, 2);
      expect(await mine(at('2-01'))).toEqual([old.id]);
      await s.transactionLog.markAnnounced(old.id, 3);
      expect(await mine(at('2-01'))).toEqual([]);
      expect(await s.transactionLog.load(old.id)).toEqual({ tx: old, marks: { ...unmarked, announcedVersion: 3 } });
      // The record read by everyone else carries no delivery marks.
      expect(await s.transactions.get(old.id)).toEqual(old);
      // The next commit carries its own mark, as the router writes it.
      const next = { ...old, version: 4, updatedAt: at('1-02') };
      expect(await s.transactionLog.commit(next, 3, { ...unmarked, announcedVersion: 3 })).toBe(true);
      expect(await mine(at('2-01'))).toEqual([old.id]);
    });

    it('replaces the delivery marks beside the record, only at the stored version, without a new version', async () => {
      const s = await store();
      const tx = sampleTransaction({ version: 2 });
      await s.transactionLog.commit(tx, null, { announcedVersion: 1, writtenBy: 'execute', replyTo: ['gw-a'] });
      const waiting: DeliveryMarks = { announcedVersion: 2, writtenBy: 'execute', replyTo: ['gw-a', 'gw-b'] };
      expect(await s.transactionLog.updateMarks(tx.id, 2, waiting)).toBe(true);
      expect(await s.transactionLog.load(tx.id)).toEqual({ tx, marks: waiting });
      // Marked announced by it: nothing left for the outbox relay.
      expect((await s.transactionLog.listUnannounced('2999-01-01T00:00:00.000Z', 100_000)).map((l) => l.tx.id)).not.toContain(tx.id);
      // Refused once the version moved on: the caller's message comes back and is decided again.
      expect(await s.transactionLog.updateMarks(tx.id, 1, { ...waiting, replyTo: ['gw-c'] })).toBe(false);
      expect(await s.transactionLog.updateMarks('txn_absent', 1, waiting)).toBe(false);
      expect((await s.transactionLog.load(tx.id))?.marks).toEqual(waiting);
      expect(await s.transactionLog.load('txn_absent')).toBeNull();
    });

    it('lists transactions by state (oldest first)', async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const older = sampleTransaction({ merchantId, estado: 'DESCONOCIDA', createdAt: '2020-01-01T00:00:00.000Z' });
      const newer = sampleTransaction({ merchantId, estado: 'ACEPTADA', createdAt: '2020-01-02T00:00:00.000Z' });
      const done = sampleTransaction({ merchantId, estado: 'LIQUIDADA' });
      for (const t of [newer, older, done]) await seedTransaction(s, t);
      const open = (await s.transactions.listByEstado(['ACEPTADA', 'DESCONOCIDA'], 1000)).filter((t) => t.merchantId === merchantId);
      expect(open.map((t) => t.id)).toEqual([older.id, newer.id]);
    });

    it('round-trips a full transaction exactly: nested objects, arrays of objects, nulls, any bank keys', async () => {
      const s = await store();
      // Bank JSON may hold keys a document database refuses ('.', leading '$') and nested arrays.
      const raw = JSON.parse(
        '{"resultado.codigo":"00","$meta":{"a.b":[{"$x":null}]},"matriz":[[1,2],[[3]]],"%":"%2E","vacio":{},"lista":[]}',
      );
      const at = '2020-01-01T00:00:00.000Z';
      const tx = sampleTransaction({
        estado: 'ACEPTADA',
        bancoUsado: 'bnc',
        rail: 'pago_movil',
        referenciaBanco: '000123',
        raw,
        attempts: [
          {
            n: 1,
            banco: 'banco_plaza',
            rail: 'pago_movil',
            dispatchedAt: at,
            dispatchVersion: 2,
            outcome: 'not_processed',
            resolvedAt: at,
          },
          { n: 2, banco: 'bnc', rail: 'pago_movil', dispatchedAt: at, dispatchVersion: 3 },
        ],
        history: [{ from: null, to: 'ACEPTADA', at, cause: 'bank_outcome', version: 4, motivo: null, raw }],
        statusQuery: { seq: 1, requestedVersion: 4 },
        version: 4,
      });
      expect(await seedTransaction(s, tx)).toBe(true);
      expect(await s.transactions.get(tx.id)).toStrictEqual(tx);
      const next: Transaction = {
        ...tx,
        version: 5,
        estado: 'LIQUIDADA',
        raw: null,
        history: [...tx.history, { ...tx.history[0]!, from: 'ACEPTADA', to: 'LIQUIDADA', version: 5, raw: { 'otro.campo': [[null]] } }],
      };
      expect(await rewrite(s, next, 4)).toBe(true);
      expect(await s.transactions.get(tx.id)).toStrictEqual(next);
    });

    it('keeps an attempt without outcome in flight (an explicit undefined reads back as absent)', async () => {
      const s = await store();
      const tx = sampleTransaction({
        attempts: [
          { n: 1, banco: 'bnc', rail: 'pago_movil', dispatchedAt: '2020-01-01T00:00:00.000Z', dispatchVersion: 1, outcome: undefined },
        ],
      });
      await seedTransaction(s, tx);
      const got = (await s.transactions.get(tx.id))!;
      expect(got.attempts[0]!.outcome).toBeUndefined();
      expect(inFlight(got)).toBe(true);
    });

    it('lists follow replaced states, and a limit of 0 lists nothing', async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const tx = sampleTransaction({ merchantId, estado: 'ACEPTADA', version: 2 });
      await seedTransaction(s, tx);
      const mine = (list: Transaction[]) => list.filter((t) => t.merchantId === merchantId).map((t) => t.version);
      expect(mine(await s.transactions.listByEstado(['ACEPTADA'], 1000))).toEqual([2]);
      expect(await s.transactions.listByEstado(['ACEPTADA'], 0)).toEqual([]);
      // Settled: it leaves the list.
      expect(await rewrite(s, { ...tx, version: 3, estado: 'LIQUIDADA' }, 2)).toBe(true);
      expect(mine(await s.transactions.listByEstado(['ACEPTADA'], 1000))).toEqual([]);
    });

    it('lists due transactions by due time through a cursor; null due times (tokens, finals) never', async () => {
      const s = await store();
      // A window of its own (a random instant long ago), so data of other tests and runs stays out of it.
      const base = Date.parse('2001-01-01T00:00:00.000Z') + Math.floor(Math.random() * 300 * 86_400_000);
      const iso = (ms: number) => new Date(base + ms).toISOString();
      const window = { at: iso(-1), id: '' };
      const a = sampleTransaction({ nextCheckAt: iso(3_000) });
      const b = sampleTransaction({ nextCheckAt: iso(1_000) });
      const c = sampleTransaction({ nextCheckAt: iso(2_000) });
      const later = sampleTransaction({ nextCheckAt: iso(60_000) });
      const never = sampleTransaction({ nextCheckAt: null, estado: 'LIQUIDADA' });
      for (const t of [a, b, c, later, never]) await seedTransaction(s, t);
      const due = await s.transactions.listDue(iso(5_000), 10, window);
      expect(due.map((t) => t.id)).toEqual([b.id, c.id, a.id]);
      const first = await s.transactions.listDue(iso(5_000), 2, window);
      expect(first.map((t) => t.id)).toEqual([b.id, c.id]);
      const rest = await s.transactions.listDue(iso(5_000), 2, { at: first[1]!.nextCheckAt!, id: first[1]!.id });
      expect(rest.map((t) => t.id)).toEqual([a.id]);
      // A write that moves the due time moves it in the list.
      expect(await rewrite(s, { ...b, version: 2, nextCheckAt: iso(90_000) }, 1)).toBe(true);
      expect((await s.transactions.listDue(iso(5_000), 10, window)).map((t) => t.id)).toEqual([c.id, a.id]);
      expect((await s.transactions.listDue(iso(100_000), 10, window)).map((t) => t.id)).toEqual([c.id, a.id, later.id, b.id]);
    });

    it('assigns bank references: stable per key, unique under concurrency, scopes independent, unknown keys not found', async () => {
      const s = await store();
      // Scopes of their own, so data of other tests and runs stays out of them.
      const scope = `bank:${randomUUID()}:referencia`;
      const other = `bank:${randomUUID()}:referencia`;
      const first = await s.bankReferences.assign(scope, 'order-a');
      expect(Number.isSafeInteger(first) && first >= 1).toBe(true);
      // Stable: the same key keeps its number, on every later ask and through find.
      expect(await s.bankReferences.assign(scope, 'order-a')).toBe(first);
      expect(await s.bankReferences.find(scope, 'order-a')).toBe(first);

      // 50 different keys at once in one scope: 50 different numbers, none reusing order-a's.
      const keys = Array.from({ length: 50 }, (_, i) => `order-${i}-${randomUUID().slice(0, 8)}`);
      const numbers = await Promise.all(keys.map((k) => s.bankReferences.assign(scope, k)));
      expect(new Set(numbers).size).toBe(50);
      expect(numbers).not.toContain(first);
      for (const n of numbers) expect(Number.isSafeInteger(n) && n >= 1).toBe(true);
      // Each key finds its own number again.
      expect(await Promise.all(keys.map((k) => s.bankReferences.find(scope, k)))).toEqual(numbers);

      // One key asked concurrently gets one number.
      const same = await Promise.all(Array.from({ length: 20 }, () => s.bankReferences.assign(scope, 'order-b')));
      expect(new Set(same).size).toBe(1);
      expect(numbers).not.toContain(same[0]);
      expect(same[0]).not.toBe(first);

      // Scopes are independent: the same key in another scope is a separate assignment from that scope's own sequence.
      expect(await s.bankReferences.find(other, 'order-a')).toBeNull();
      const inOther = await s.bankReferences.assign(other, 'order-a');
      expect(inOther).toBe(1);
      expect(await s.bankReferences.assign(scope, 'order-a')).toBe(first);
      expect(await s.bankReferences.find(other, 'order-a')).toBe(1);

      // Unknown keys and scopes are not found (and find assigns nothing).
      expect(await s.bankReferences.find(scope, 'never-assigned')).toBeNull();
      expect(await s.bankReferences.find(`bank:${randomUUID()}`, 'order-a')).toBeNull();
      expect(await s.bankReferences.find(scope, 'never-assigned')).toBeNull();
    });

    it('claims the one reverso of an original: one of concurrent claims wins; only its holder releases it', async () => {
      const s = await store();
      const originalId = `txn_${randomUUID().replace(/-/g, '')}`;
      const createdAt = new Date().toISOString();
      const claim = (n: number) => ({ originalId, reversoId: `txn_reverso_${n}`, scope: `demo|test|reverso|key-${n}`, createdAt });
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => s.reversals.claim(claim(i))));
      expect(claims.filter((c) => c.claimed)).toHaveLength(1);
      const winner = claims.findIndex((c) => c.claimed);
      for (const lost of claims.filter((c) => !c.claimed)) expect(lost).toEqual({ claimed: false, existing: claim(winner) });
      expect(await s.reversals.get(originalId)).toEqual(claim(winner));
      expect(await s.reversals.get(`txn_${randomUUID().replace(/-/g, '')}`)).toBeNull();
      // Another reverso cannot free the original; its holder can, and then a later reverso claims it.
      const other = (winner + 1) % 8;
      expect(await s.reversals.release(originalId, claim(other).reversoId)).toBe(false);
      expect(await s.reversals.get(originalId)).toEqual(claim(winner));
      expect(await s.reversals.release(originalId, claim(winner).reversoId)).toBe(true);
      expect(await s.reversals.release(originalId, claim(winner).reversoId)).toBe(false);
      expect(await s.reversals.get(originalId)).toBeNull();
      expect(await s.reversals.claim(claim(other))).toEqual({ claimed: true });
      expect(await s.reversals.get(originalId)).toEqual(claim(other));
    });

    it('journals bank orders: one claim wins, the outcome (any bank keys) is recorded and read back', async () => {
      const s = await store();
      const txnId = `txn_${randomUUID().replace(/-/g, '')}`;
      const record = {
        id: `${txnId}#1`,
        txnId,
        attempt: 1,
        banco: 'bnc' as const,
        orderRef: `${txnId}-1`,
        claimedBy: 'w1',
        claimedAt: new Date().toISOString(),
        outcome: null,
        recordedAt: null,
      };
      const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => s.bankOrders.claim({ ...record, claimedBy: `w${i}` })));
      expect(claims.filter((c) => c.claimed)).toHaveLength(1);
      const lost = claims.find((c) => !c.claimed);
      expect(lost).toMatchObject({ claimed: false, existing: { id: record.id, outcome: null } });
      const outcome = {
        type: 'settled' as const,
        referencia: 'R1',
        endtoend: null,
        raw: { 'a.b': 1, $code: '00', nested: { 'x.y': [1, { $z: 2 }] } },
      };
      await s.bankOrders.recordOutcome(record.id, outcome, new Date().toISOString());
      const again = await s.bankOrders.claim(record);
      expect(again).toMatchObject({ claimed: false, existing: { outcome } });
      expect((await s.bankOrders.get(record.id))!.outcome).toEqual(outcome);
      expect(await s.bankOrders.get(`${txnId}#2`)).toBeNull();
      await expect(s.bankOrders.recordOutcome(`${txnId}#9`, outcome, new Date().toISOString())).rejects.toThrow();
    });
  });
}
