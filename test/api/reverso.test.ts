import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createInvite } from '@switch/usecases/panel-access';
import { TOPICS } from '@switch/core/contracts/topics';
import type { Resultado } from '@switch/core/contracts/operaciones';
import { pagarBody, startTestSwitch, type TestSwitch } from './helpers';

/** DESIGN rule 9: one original, at most one reverso, whatever the keys, the timing or the replicas. */
describe('POST /switch/v1/reverso: at most one per original', () => {
  let t: TestSwitch;
  beforeAll(async () => {
    t = await startTestSwitch();
  });
  afterAll(async () => {
    await t.close();
  });

  const settledPayout = async (): Promise<Resultado> => {
    const res = await t.post('/switch/v1/pagar', pagarBody({ via: 'pago_movil' }));
    expect(res.statusCode, res.body).toBe(200);
    const pago = res.json() as Resultado;
    expect(pago.estado).toBe('LIQUIDADA');
    return pago;
  };
  /** A signed-in panel session of the demo merchant (invitation accepted), as its cookie. */
  const panelSession = async (): Promise<string> => {
    const { token } = await createInvite(t.sw.store, {
      merchantId: t.merchantId,
      email: `${randomUUID()}@demo.test`,
      role: 'viewer',
      invitedBy: null,
    });
    const form = await t.inject({ method: 'GET', url: `/panel/invitacion/${token}` });
    const first = String(form.headers['set-cookie'] ?? '').split(';')[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)![1]!;
    const password = 'correct horse battery staple';
    const joined = await t.inject({
      method: 'POST',
      url: `/panel/invitacion/${token}`,
      payload: new URLSearchParams({ _csrf: csrf, password, password2: password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: first },
    });
    expect(joined.statusCode, joined.body).toBe(303);
    const set = joined.headers['set-cookie'];
    const cookies = (Array.isArray(set) ? set : set ? [set] : [])
      .map((c) => c.split(';')[0]!)
      .filter((c) => c.startsWith('panel_session='));
    return cookies[0] ?? first;
  };
  const reverse = (id: string, key: string = randomUUID()) => t.post('/switch/v1/reverso', { idempotency_key: key, id });

  it('three reversos with new keys of one settled payout: one bank order, the others 409 naming the first', async () => {
    const pago = await settledPayout();
    const orders = t.sw.bank.executedOrders;
    const first = await reverse(pago.id);
    expect(first.statusCode, first.body).toBe(200);
    const reverso = first.json() as Resultado;
    expect(reverso.intentos).toBe(1);
    for (const _ of [1, 2]) {
      const again = await reverse(pago.id);
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toMatchObject({ error: 'REVERSO_EXISTENTE', reverso: reverso.id });
    }
    await t.settle();
    expect(t.sw.bank.executedOrders - orders).toBe(1);
    // The original's detail links its reverso; the reverso's detail names its original.
    const detail = await t.get(`/switch/v1/transacciones/${pago.id}`);
    expect(detail.json()).toMatchObject({ reverso: reverso.id });
    const own = await t.get(`/switch/v1/transacciones/${reverso.id}`);
    expect(own.json()).toMatchObject({ operacion: 'reverso', reverso_de: pago.id });
    // The panel's detail links them both ways too.
    const cookie = await panelSession();
    const page = await t.inject({ method: 'GET', url: `/panel/transacciones/${pago.id}`, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`/panel/transacciones/${reverso.id}`);
    const back = await t.inject({ method: 'GET', url: `/panel/transacciones/${reverso.id}`, headers: { cookie } });
    expect(back.body).toContain(`/panel/transacciones/${pago.id}`);
  });

  it('three concurrent reversos with new keys: exactly one bank order, one answer 200 and two 409', async () => {
    const pago = await settledPayout();
    const orders = t.sw.bank.executedOrders;
    const answers = await Promise.all([1, 2, 3].map(() => reverse(pago.id)));
    await t.settle();
    expect(t.sw.bank.executedOrders - orders).toBe(1);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json() as Resultado;
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json()).toMatchObject({ reverso: winner.id });
  });

  it('a repeat of the reverso with its own key is a replay of it, not a 409', async () => {
    const pago = await settledPayout();
    const key = randomUUID();
    const first = await reverse(pago.id, key);
    const before = t.footprint();
    const again = await reverse(pago.id, key.toUpperCase());
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await t.expectNothingSince(before);
  });

  it('a refused 409 leaves nothing behind: no transaction, no claim, no command', async () => {
    const pago = await settledPayout();
    expect((await reverse(pago.id)).statusCode).toBe(200);
    await t.settle();
    const before = t.footprint();
    expect((await reverse(pago.id)).statusCode).toBe(409);
    await t.expectNothingSince(before);
  });

  it('a reverso refused before any bank saw it frees the original: a later reverso runs', async () => {
    const res = await t.post('/switch/v1/pagar', pagarBody({ via: 'credito_inmediato' }));
    const pago = res.json() as Resultado;
    expect(pago.estado).toBe('ACEPTADA');
    // Not settled yet: refused by the switch itself, no bank order.
    const early = (await reverse(pago.id)).json() as Resultado;
    expect(early).toMatchObject({ estado: 'RECHAZADA', motivo_rechazo: 'NO_SOPORTADO', intentos: 0 });
    expect(((await t.post('/switch/v1/consultar', { id: pago.id })).json() as Resultado).estado).toBe('LIQUIDADA');
    const orders = t.sw.bank.executedOrders;
    const later = await reverse(pago.id);
    expect(later.statusCode, later.body).toBe(200);
    expect((later.json() as Resultado).intentos).toBe(1);
    await t.settle();
    expect(t.sw.bank.executedOrders - orders).toBe(1);
  });

  it('a hold left by a request that died before claiming its key is taken over once abandoned, not before', async () => {
    const pago = await settledPayout();
    const hold = (createdAt: string) => ({
      originalId: pago.id,
      reversoId: `txn_${randomUUID().replace(/-/g, '')}`,
      scope: `${t.merchantId}|test|reverso|${randomUUID()}`,
      createdAt,
    });
    // Recent: its request may still be on its way (the next store write): refused, as any other holder.
    const recent = hold(new Date().toISOString());
    expect(await t.sw.store.reversals.claim(recent)).toEqual({ claimed: true });
    const refused = await reverse(pago.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ reverso: recent.reversoId });
    // Two minutes old, no key claimed, no transaction: abandoned.
    expect(await t.sw.store.reversals.release(pago.id, recent.reversoId)).toBe(true);
    expect(await t.sw.store.reversals.claim(hold(new Date(Date.now() - 120_000).toISOString()))).toEqual({ claimed: true });
    const orders = t.sw.bank.executedOrders;
    const taken = await reverse(pago.id);
    expect(taken.statusCode, taken.body).toBe(200);
    await t.settle();
    expect(t.sw.bank.executedOrders - orders).toBe(1);
    expect((await t.sw.store.reversals.get(pago.id))?.reversoId).toBe((taken.json() as Resultado).id);
  });

  it('the router holds the claim too: two reverso commands that skipped the gateway make one bank order', async () => {
    const pago = await settledPayout();
    const orders = t.sw.bank.executedOrders;
    const command = (txnId: string) => {
      const key = randomUUID();
      return {
        type: 'execute' as const,
        txnId,
        merchantId: t.merchantId,
        mode: 'test' as const,
        idempotencyKey: key,
        fingerprint: `print-${txnId}`,
        request: { kind: 'reverso' as const, body: { idempotency_key: key, id: pago.id } },
        replyTo: 'test-probe',
      };
    };
    const ids = [`txn_${randomUUID().replace(/-/g, '')}`, `txn_${randomUUID().replace(/-/g, '')}`];
    await Promise.all(ids.map((id) => t.sw.bus.publish(TOPICS.routerInbox, id, command(id))));
    await t.settle();
    expect(t.sw.bank.executedOrders - orders).toBe(1);
    const stored = await Promise.all(ids.map((id) => t.sw.store.transactions.get(id)));
    const loser = stored.find((tx) => tx?.attempts.length === 0);
    expect(loser).toMatchObject({ estado: 'RECHAZADA', motivoRechazo: 'DUPLICADA' });
  });
});
