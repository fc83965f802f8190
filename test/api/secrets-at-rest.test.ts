import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { BANCOS } from '@switch/core/contracts/bancos';
import { bankRequests, TOPICS } from '@switch/core/contracts/topics';
import { createLogger } from '@switch/platform/telemetry/logger';
import { idempotencyScope } from '@switch/core/contracts/operaciones';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { signingSecrets } from '@switch/platform/ports/merchant-directory';
import type { ExecuteOrder } from '@switch/connector-kit/bank-port';
import { startEmbeddedSwitch } from '@switch/embedded';
import { cobrarBody, startTestSwitch, type TestSwitch } from './helpers';

const ADMIN = 'operator-token-0123456789';
const bearer = { authorization: `Bearer ${ADMIN}` };
const URL = 'https://hooks.example.com/switch';

/** Every string in `text` that is one of `secrets`, or the random part of one (DESIGN rule 7). */
const leaked = (text: string, secrets: string[]) => secrets.filter((s) => text.includes(s) || text.includes(s.slice('whsec_'.length)));

/**
 * DESIGN rule 7, issue 26 items 5 and 9: what the switch keeps and shows never carries a webhook
 * signing secret after it was issued, nor a payer's OTP; the notifier and the bank still get them.
 */
describe('secrets at rest and in answers', () => {
  let t: TestSwitch | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('webhook secrets: shown once when issued, sealed in the store, in no later answer (merchant API, operator API)', async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN } });
    const registered = await t.operator({
      method: 'POST',
      url: `/admin/v1/merchants/${t.merchantId}/webhooks`,
      headers: bearer,
      payload: { mode: 'test', url: URL, events: ['transaccion.liquidada'] },
    });
    expect(registered.statusCode).toBe(201);
    const created = await t.post('/switch/v1/webhooks', { url: URL });
    expect(created.statusCode).toBe(201);
    const { id } = created.json() as { id: string };
    const rotated = await t.post(`/switch/v1/webhooks/${id}/rotar-secreto`, {});
    expect(rotated.statusCode).toBe(200);
    const issued = [registered, created, rotated].map((r) => (r.json() as { secret: string }).secret);
    for (const s of issued) expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const stored = JSON.stringify(await t.sw.store.webhooks.listForMerchant(t.merchantId));
    expect(leaked(stored, issued)).toEqual([]);
    expect(stored).toContain('"sealedSecret":"sb1.');

    const answers = [
      await t.operator({ method: 'GET', url: `/admin/v1/merchants/${t.merchantId}/webhooks`, headers: bearer }),
      await t.get('/switch/v1/webhooks'),
    ];
    for (const a of answers) {
      expect(a.statusCode, a.body).toBe(200);
      expect(leaked(a.body, issued), a.body).toEqual([]);
      // Not even the sealed form.
      expect(a.body).not.toMatch(/sb1\.|"secret"|sealedSecret|previousSecret/);
    }
  });

  it('rotating the secrets key: the operator re-seals every stored secret, then the old key can go', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const store = new MemoryStore();
    // One process after another over the same store, as a rollout restarts services with new keys.
    const run = async (
      secrets: SecretBox,
      work: (operator: (o: object) => Promise<{ statusCode: number; json(): unknown }>) => Promise<void>,
    ) => {
      const sw = await startEmbeddedSwitch({ log: createLogger('test', 'silent'), store, secrets, config: { adminToken: ADMIN } });
      try {
        await work((o) => sw.gateway.operator.inject({ ...o, headers: bearer } as never));
      } finally {
        await sw.close(); // the in-memory store outlives it: close() of MemoryStore keeps its rows
      }
    };
    let secret = '';
    let id = '';
    await run(new SecretBox(oldKey), async (operator) => {
      expect((await operator({ method: 'POST', url: '/admin/v1/merchants', payload: { id: 'tienda', nombre: 'Tienda' } })).statusCode).toBe(
        201,
      );
      const r = await operator({
        method: 'POST',
        url: '/admin/v1/merchants/tienda/webhooks',
        payload: { mode: 'test', url: URL, events: ['transaccion.liquidada'] },
      });
      ({ id, secret } = r.json() as { id: string; secret: string });
    });
    const rotating = new SecretBox(newKey, [oldKey]);
    await run(rotating, async (operator) => {
      const resealed = await operator({ method: 'POST', url: '/admin/v1/secrets/reseal' });
      expect(resealed.statusCode).toBe(200);
      expect(resealed.json()).toEqual({ currentKeyId: rotating.currentKeyId, webhookSecrets: { resealed: 1, current: 0, changed: 0 } });
    });
    // The old key dropped: the secret still opens, as issued.
    expect(signingSecrets((await store.webhooks.get(id))!, new Date(), new SecretBox(newKey))).toEqual([secret]);
  });

  it('the OTP of a cobrar reaches the bank and is in no stored record, bus message or detail answer', async () => {
    t = await startTestSwitch();
    const otp = '48151623';
    const messages: string[] = [];
    for (const topic of [TOPICS.routerInbox, TOPICS.transactions, TOPICS.gatewayAnswers, ...BANCOS.map((b) => bankRequests(b))]) {
      await t.sw.bus.subscribe(topic, { group: `probe-${topic.name}` }, async ({ value }) => {
        messages.push(JSON.stringify(value));
      });
    }
    const execute = vi.spyOn(t.sw.bank, 'execute');
    const body = cobrarBody({ otp });
    const res = await t.post('/switch/v1/cobrar', body);
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json() as { id: string };
    await t.settle();

    // The bank got the OTP as the payer gave it.
    const orders = execute.mock.calls.map(([order]) => order as ExecuteOrder).filter((o) => o.txnId === id);
    expect(orders.length).toBeGreaterThan(0);
    for (const o of orders) expect(o.request).toMatchObject({ kind: 'cobrar', body: { otp } });

    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) expect(m).not.toContain(otp);
    expect(JSON.stringify(await t.sw.store.transactions.get(id))).not.toContain(otp);
    const claim = await t.sw.store.idempotency.get(idempotencyScope(t.merchantId, 'test', 'cobrar', body.idempotency_key));
    expect(claim).not.toBeNull();
    expect(JSON.stringify(claim)).not.toContain(otp);
    const detail = await t.get(`/switch/v1/transacciones/${id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).not.toContain(otp);
    // Not even sealed: the detail has no otp field at all.
    expect((detail.json() as { solicitud: Record<string, unknown> }).solicitud).not.toHaveProperty('otp');
  });
});
