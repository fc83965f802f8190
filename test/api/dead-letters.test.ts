import { afterEach, describe, expect, it } from 'vitest';
import { PoisonMessage } from '@switch/core/contracts/errors';
import { TOPICS, type BankHealthMessage } from '@switch/core/contracts/topics';
import { startTestSwitch, type TestSwitch } from './helpers';

/** The operator API over dead letters (`npm run switch -- dead-letters ...` talks to it). */
describe('admin API: dead letters', () => {
  const ADMIN = 'operator-token-0123456789';
  const bearer = { authorization: `Bearer ${ADMIN}` };
  let t: TestSwitch | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  /** A listener that declares bank-health messages poison until healed: one dead letter on that topic. */
  async function withOneDeadLetter() {
    t = await startTestSwitch({ config: { adminToken: ADMIN } });
    let healed = false;
    const seen: BankHealthMessage[] = [];
    await t.sw.bus.subscribe(TOPICS.bankHealth, { group: 'operator-probe' }, async ({ value }) => {
      if (!healed) throw new PoisonMessage('probe refuses it until healed');
      seen.push(value);
    });
    const message: BankHealthMessage = { banco: 'bnc', mode: 'test', openOperations: [], at: new Date().toISOString() };
    await t.sw.bus.publish(TOPICS.bankHealth, 'bnc.test', message);
    await t.settle();
    return { message, seen, heal: () => (healed = true) };
  }

  it('lists the dead letters of every switch topic that has some, and of one topic on request', async () => {
    const { message } = await withOneDeadLetter();
    const all = await t!.operator({ method: 'GET', url: '/admin/v1/dead-letters', headers: bearer });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({
      topics: [
        {
          topic: TOPICS.bankHealth.name,
          deadLetters: [
            {
              id: '0:0',
              topic: TOPICS.bankHealth.name,
              key: 'bnc.test',
              value: message,
              reason: 'probe refuses it until healed',
              at: expect.any(String),
              redriven: false,
            },
          ],
        },
      ],
    });
    const one = await t!.operator({ method: 'GET', url: `/admin/v1/dead-letters?topic=${TOPICS.routerInbox.name}`, headers: bearer });
    expect(one.json()).toEqual({ topics: [{ topic: TOPICS.routerInbox.name, deadLetters: [] }] });
    const unknown = await t!.operator({ method: 'GET', url: '/admin/v1/dead-letters?topic=nope.v1', headers: bearer });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'NOT_FOUND' });
  });

  it("names topics to operators as on the cluster, in the deployment's namespace (SWITCH_KAFKA_NAMESPACE)", async () => {
    t = await startTestSwitch({ config: { adminToken: ADMIN, topicNamespace: 'switch-live' } });
    const inbox = `switch-live.${TOPICS.routerInbox.name}`;
    const one = await t.operator({ method: 'GET', url: `/admin/v1/dead-letters?topic=${inbox}`, headers: bearer });
    expect(one.json()).toEqual({ topics: [{ topic: inbox, deadLetters: [] }] });
    const bare = await t.operator({ method: 'GET', url: `/admin/v1/dead-letters?topic=${TOPICS.routerInbox.name}`, headers: bearer });
    expect(bare.statusCode).toBe(404);
    const redrive = await t.operator({ method: 'POST', url: '/admin/v1/dead-letters/redrive', headers: bearer, payload: { topic: inbox } });
    expect(redrive.json()).toEqual({ topic: inbox, redriven: [], refused: [] });
  });

  it('redrives dead letters to their topic once each, and reports what it refused', async () => {
    const { message, seen, heal } = await withOneDeadLetter();
    heal();
    const redrive = await t!.operator({
      method: 'POST',
      url: '/admin/v1/dead-letters/redrive',
      headers: bearer,
      payload: { topic: TOPICS.bankHealth.name },
    });
    expect(redrive.statusCode).toBe(200);
    expect(redrive.json()).toEqual({ topic: TOPICS.bankHealth.name, redriven: ['0:0'], refused: [] });
    await t!.settle();
    expect(seen).toEqual([message]);

    const listed = await t!.operator({ method: 'GET', url: '/admin/v1/dead-letters', headers: bearer });
    expect(listed.json().topics[0].deadLetters[0]).toMatchObject({ id: '0:0', redriven: true });
    const again = await t!.operator({
      method: 'POST',
      url: '/admin/v1/dead-letters/redrive',
      headers: bearer,
      payload: { topic: TOPICS.bankHealth.name, ids: ['0:0'] },
    });
    expect(again.json()).toEqual({ topic: TOPICS.bankHealth.name, redriven: [], refused: [{ id: '0:0', reason: 'already redriven' }] });
    await t!.settle();
    expect(seen).toHaveLength(1);
  });

  it('refuses bad requests and requests without the admin token', async () => {
    await withOneDeadLetter();
    const bad = await t!.operator({
      method: 'POST',
      url: '/admin/v1/dead-letters/redrive',
      headers: bearer,
      payload: { topic: TOPICS.bankHealth.name, ids: ['not an id'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'VALIDATION' });
    const unknown = await t!.operator({
      method: 'POST',
      url: '/admin/v1/dead-letters/redrive',
      headers: bearer,
      payload: { topic: 'nope.v1' },
    });
    expect(unknown.statusCode).toBe(404);
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }, { 'x-switch-key': t!.key }]) {
      expect((await t!.operator({ method: 'GET', url: '/admin/v1/dead-letters', headers })).statusCode).toBe(401);
      expect(
        (await t!.operator({ method: 'POST', url: '/admin/v1/dead-letters/redrive', headers, payload: { topic: TOPICS.bankHealth.name } }))
          .statusCode,
      ).toBe(401);
    }
    // Nothing was redriven by the refused requests.
    const listed = await t!.operator({ method: 'GET', url: '/admin/v1/dead-letters', headers: bearer });
    expect(listed.json().topics[0].deadLetters[0]).toMatchObject({ redriven: false });
  });
});
