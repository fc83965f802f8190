import { storesClosedAfterEach } from './store-lifecycle';
import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { PanelUser } from '../src/ports/panel-access';
import type { Store } from '../src/ports/store';
import type { WebhookEndpoint } from '../src/ports/merchant-directory';
import { sampleTransaction, seedTransaction } from './store-contract';
import { sampleDelivery } from './delivery-contract';

/**
 * What the merchant API and the panel need of the Store port (packages/platform/src/ports/store.ts): merchant
 * lists with filters and cursors, endpoint changes, users, invitations, sessions and the audit log.
 * Run against every adapter.
 */
export function merchantObjectsContract(name: string, makeStore: () => Promise<Store>): void {
  describe(`Store contract (merchant objects): ${name}`, () => {
    const store = storesClosedAfterEach(makeStore);

    it("lists one merchant's transactions of one mode, newest first, by every filter and through a cursor", async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const at = (day: number, h = 12) => `2026-03-${String(day).padStart(2, '0')}T${String(h).padStart(2, '0')}:00:00.000Z`;
      const a = sampleTransaction({ merchantId, estado: 'LIQUIDADA', bancoUsado: 'bnc', createdAt: at(1) });
      const b = sampleTransaction({ merchantId, estado: 'ACEPTADA', bancoUsado: 'banco_plaza', createdAt: at(2) });
      const c = sampleTransaction({ merchantId, estado: 'RECHAZADA', bancoUsado: 'bnc', createdAt: at(3), kind: 'cobrar' });
      const tie = sampleTransaction({ merchantId, estado: 'LIQUIDADA', bancoUsado: 'bnc', createdAt: at(3) });
      const noOutcome = sampleTransaction({ merchantId, estado: null, createdAt: at(4) });
      const live = sampleTransaction({ merchantId, mode: 'live', estado: 'LIQUIDADA', createdAt: at(2) });
      const other = sampleTransaction({ merchantId: `${merchantId}x`, estado: 'LIQUIDADA', createdAt: at(2) });
      for (const t of [a, b, c, tie, noOutcome, live, other]) await seedTransaction(s, t);
      const ids = async (f: object, limit = 100, after?: { createdAt: string; id: string }) =>
        (await s.transactions.listForMerchant({ merchantId, mode: 'test', ...f }, limit, after)).map((t) => t.id);
      const [first, second] = [c, tie].sort((x, y) => y.id.localeCompare(x.id));
      expect(await ids({})).toEqual([first!.id, second!.id, b.id, a.id]);
      expect(await ids({ mode: 'live' })).toEqual([live.id]);
      expect(await ids({ estado: 'LIQUIDADA' })).toEqual([tie.id, a.id]);
      expect(await ids({ banco: 'banco_plaza' })).toEqual([b.id]);
      expect(await ids({ kind: 'cobrar' })).toEqual([c.id]);
      expect(await ids({ desde: at(2, 0), hasta: at(3, 0) })).toEqual([b.id]);
      expect(await ids({ id: a.id })).toEqual([a.id]);
      expect(await ids({ id: other.id })).toEqual([]);
      expect(await ids({ idempotencyKey: b.idempotencyKey })).toEqual([b.id]);
      // Pages: two, then after the second's cursor the rest, nothing twice (the tie is broken by id).
      const page1 = await s.transactions.listForMerchant({ merchantId, mode: 'test' }, 2);
      expect(page1.map((t) => t.id)).toEqual([first!.id, second!.id]);
      const lastOf1 = page1[1]!;
      expect(await ids({}, 10, { createdAt: lastOf1.createdAt, id: lastOf1.id })).toEqual([b.id, a.id]);
      expect(await ids({}, 0)).toEqual([]);
    });

    it('reads and changes one webhook endpoint; records when a key was last used', async () => {
      const s = await store();
      const endpoint: WebhookEndpoint = {
        id: `we_${randomUUID().slice(0, 8)}`,
        merchantId: 'm1',
        mode: 'test',
        url: 'https://example.test/hook',
        events: ['transaccion.liquidada'],
        sealedSecret: 'sb1.a',
        active: true,
        createdAt: new Date().toISOString(),
      };
      await s.webhooks.insert(endpoint);
      expect(await s.webhooks.get(endpoint.id)).toEqual(endpoint);
      expect(await s.webhooks.get('we_none')).toBeNull();
      const until = '2030-01-01T00:00:00.000Z';
      expect(
        await s.webhooks.update(endpoint.id, {
          sealedSecret: 'sb1.b',
          previousSecret: { sealedSecret: 'sb1.a', until },
          events: ['transaccion.rechazada'],
        }),
      ).toBe(true);
      expect(await s.webhooks.get(endpoint.id)).toMatchObject({
        sealedSecret: 'sb1.b',
        previousSecret: { sealedSecret: 'sb1.a', until },
        events: ['transaccion.rechazada'],
      });
      expect(await s.webhooks.update('we_none', { active: false })).toBe(false);
      // Conditional on the stored sealed secret: a re-seal never overwrites a rotation made meanwhile.
      expect(await s.webhooks.update(endpoint.id, { sealedSecret: 'sb1.c' }, { sealedSecret: 'sb1.a' })).toBe(false);
      expect(await s.webhooks.update(endpoint.id, { sealedSecret: 'sb1.c' }, { sealedSecret: 'sb1.b' })).toBe(true);
      expect((await s.webhooks.get(endpoint.id))!.sealedSecret).toBe('sb1.c');

      const key = {
        id: `key_${randomUUID().slice(0, 8)}`,
        merchantId: `m-${randomUUID().slice(0, 8)}`,
        mode: 'test' as const,
        secretHash: 'a'.repeat(64),
        hint: 'abcd',
        active: true,
        createdAt: new Date().toISOString(),
        revokedAt: null,
      };
      await s.apiKeys.insert(key);
      await s.apiKeys.markUsed(key.id, '2026-05-05T00:00:00.000Z');
      expect((await s.apiKeys.listForMerchant(key.merchantId))[0]!.lastUsedAt).toBe('2026-05-05T00:00:00.000Z');
    });

    it("lists an endpoint's deliveries newest first through a cursor", async () => {
      const s = await store();
      const endpointId = `we_${randomUUID().slice(0, 8)}`;
      const d1 = sampleDelivery({ endpointId, createdAt: '2026-01-01T00:00:00.000Z' });
      const d2 = sampleDelivery({ endpointId, createdAt: '2026-01-02T00:00:00.000Z' });
      const d3 = sampleDelivery({ endpointId, createdAt: '2026-01-03T00:00:00.000Z' });
      const elsewhere = sampleDelivery({ createdAt: '2026-01-02T00:00:00.000Z' });
      for (const d of [d1, d2, d3, elsewhere]) await s.deliveries.insert(d);
      const page = await s.deliveries.listForEndpoint(endpointId, 2);
      expect(page.map((d) => d.id)).toEqual([d3.id, d2.id]);
      const next = await s.deliveries.listForEndpoint(endpointId, 2, { createdAt: d2.createdAt, id: d2.id });
      expect(next.map((d) => d.id)).toEqual([d1.id]);
    });

    it('keeps panel users unique by e-mail, per merchant, and changes their role and password', async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const user: PanelUser = {
        id: `${randomUUID().slice(0, 8)}@example.test`,
        merchantId,
        role: 'owner',
        passwordHash: '$argon2id$x',
        active: true,
        invitedBy: null,
        createdAt: new Date().toISOString(),
      };
      expect(await s.panelUsers.insert(user)).toBe(true);
      expect(await s.panelUsers.insert({ ...user, merchantId: 'other' })).toBe(false);
      expect(await s.panelUsers.get(user.id)).toEqual(user);
      expect(await s.panelUsers.update(user.id, { role: 'viewer', passwordHash: '$argon2id$y' })).toBe(true);
      expect(await s.panelUsers.listForMerchant(merchantId)).toEqual([{ ...user, role: 'viewer', passwordHash: '$argon2id$y' }]);
      expect(await s.panelUsers.listForMerchant('nobody-here')).toEqual([]);
      expect(await s.panelUsers.get('none@example.test')).toBeNull();
    });

    it('hands an invitation to exactly one of concurrent takers', async () => {
      const s = await store();
      const invite = {
        tokenHash: randomUUID(),
        merchantId: 'm1',
        email: 'a@example.test',
        role: 'developer' as const,
        invitedBy: 'owner@example.test',
        expiresAt: '2030-01-01T00:00:00.000Z',
        createdAt: new Date().toISOString(),
      };
      await s.panelInvites.insert(invite);
      // Read without taking: still there for the one taker.
      expect(await s.panelInvites.get(invite.tokenHash)).toEqual(invite);
      expect(await s.panelInvites.get(invite.tokenHash)).toEqual(invite);
      const taken = await Promise.all(Array.from({ length: 6 }, () => s.panelInvites.take(invite.tokenHash)));
      expect(taken.filter((t) => t !== null)).toEqual([invite]);
      expect(await s.panelInvites.take(invite.tokenHash)).toBeNull();
      expect(await s.panelInvites.get(invite.tokenHash)).toBeNull();
    });

    it("lists a merchant's outstanding invitations newest first, and no more once taken", async () => {
      const s = await store();
      const merchantId = `m-${randomUUID()}`;
      const invite = (email: string, createdAt: string) => ({
        tokenHash: randomUUID(),
        merchantId,
        email,
        role: 'viewer' as const,
        invitedBy: null,
        expiresAt: '2030-01-01T00:00:00.000Z',
        createdAt,
      });
      const older = invite('a@example.test', '2026-01-01T00:00:00.000Z');
      const newer = invite('b@example.test', '2026-01-02T00:00:00.000Z');
      await s.panelInvites.insert(older);
      await s.panelInvites.insert(newer);
      await s.panelInvites.insert({ ...invite('c@example.test', '2026-01-03T00:00:00.000Z'), merchantId: `${merchantId}-other` });
      expect(await s.panelInvites.listForMerchant(merchantId)).toEqual([newer, older]);
      await s.panelInvites.take(newer.tokenHash);
      expect(await s.panelInvites.listForMerchant(merchantId)).toEqual([older]);
    });

    it('keeps sessions until they expire, with any keys in their data, and destroys them', async () => {
      const s = await store();
      const id = randomUUID();
      const data = { userId: 'a@example.test', 'x.y': { $z: 1 }, _csrf: 'secret' };
      await s.panelSessions.set({ id, data, expiresAt: '2030-01-01T00:00:00.000Z' });
      expect(await s.panelSessions.get(id, '2029-12-31T00:00:00.000Z')).toEqual({ id, data, expiresAt: '2030-01-01T00:00:00.000Z' });
      expect(await s.panelSessions.get(id, '2030-01-01T00:00:00.000Z')).toBeNull();
      await s.panelSessions.set({ id, data: { userId: 'b' }, expiresAt: '2031-01-01T00:00:00.000Z' });
      expect((await s.panelSessions.get(id, '2030-06-01T00:00:00.000Z'))!.data).toEqual({ userId: 'b' });
      await s.panelSessions.destroy(id);
      expect(await s.panelSessions.get(id, '2020-01-01T00:00:00.000Z')).toBeNull();
    });

    it("keeps each merchant's audit log apart, newest first", async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const entry = (at: string, action: string, m = merchantId) => ({
        id: `aud_${randomUUID().slice(0, 8)}`,
        merchantId: m,
        at,
        actor: 'a@example.test',
        action,
        mode: 'test' as const,
        target: null,
        ip: '127.0.0.1',
      });
      await s.audit.append(entry('2026-01-01T00:00:00.000Z', 'login'));
      await s.audit.append(entry('2026-01-03T00:00:00.000Z', 'key.create'));
      await s.audit.append(entry('2026-01-02T00:00:00.000Z', 'endpoint.create'));
      await s.audit.append(entry('2026-01-04T00:00:00.000Z', 'login', `${merchantId}x`));
      expect((await s.audit.listForMerchant(merchantId, 10)).map((e) => e.action)).toEqual(['key.create', 'endpoint.create', 'login']);
      expect(await s.audit.listForMerchant(merchantId, 1)).toHaveLength(1);
    });

    it("filters a merchant's audit log by action, person and time, and pages on after the last line shown", async () => {
      const s = await store();
      const merchantId = `m-${randomUUID().slice(0, 8)}`;
      const entry = (id: string, at: string, action: string, actor = 'a@example.test') => ({
        id,
        merchantId,
        at,
        actor,
        action,
        mode: null,
        target: null,
        ip: null,
      });
      await s.audit.append(entry('aud_1', '2026-01-01T00:00:00.000Z', 'login'));
      await s.audit.append(entry('aud_2', '2026-01-02T00:00:00.000Z', 'login', 'b@example.test'));
      await s.audit.append(entry('aud_3', '2026-01-02T00:00:00.000Z', 'key.create'));
      await s.audit.append(entry('aud_4', '2026-01-03T00:00:00.000Z', 'login'));
      const ids = async (f: Parameters<typeof s.audit.listForMerchant>[2], limit = 10) =>
        (await s.audit.listForMerchant(merchantId, limit, f)).map((e) => e.id);
      expect(await ids({ action: 'login' })).toEqual(['aud_4', 'aud_2', 'aud_1']);
      expect(await ids({ actor: 'b@example.test' })).toEqual(['aud_2']);
      expect(await ids({ from: '2026-01-02T00:00:00.000Z', to: '2026-01-03T00:00:00.000Z' })).toEqual(['aud_3', 'aud_2']);
      expect(await ids({}, 2)).toEqual(['aud_4', 'aud_3']);
      expect(await ids({ before: { at: '2026-01-02T00:00:00.000Z', id: 'aud_3' } })).toEqual(['aud_2', 'aud_1']);
    });
  });
}
