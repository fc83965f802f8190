import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import type { IdempotencyClaim } from '@switch/platform/ports/claims';
import type { OperationKind, Resultado } from '@switch/core/contracts/operaciones';
import { cobrarBody, startTestSwitch, tokenBody, type TestSwitch } from './helpers';

/**
 * A store that holds one chosen idempotency claim (before or after it is made) until released: the
 * interleavings of a token and a cobrar under one key, played one by one, without timing.
 */
function pausingStore(kind: OperationKind, when: 'before' | 'after') {
  const store = new MemoryStore();
  const claim = store.idempotency.claim;
  let reached!: () => void;
  let release!: () => void;
  const paused = new Promise<void>((r) => {
    reached = r;
  });
  const resumed = new Promise<void>((r) => {
    release = r;
  });
  let armed = true;
  store.idempotency.claim = async (c: IdempotencyClaim) => {
    const hold = armed && c.kind === kind && c.scope.split('|')[2] === kind;
    if (hold) armed = false;
    if (hold && when === 'before') {
      reached();
      await resumed;
    }
    const result = await claim(c);
    if (hold && when === 'after') {
      reached();
      await resumed;
    }
    return result;
  };
  return { store, paused, release };
}

/** Issue 26 item 3: a token(10.00) and a cobrar(5000.00) under one key never let the cobrar run unchecked. */
describe('a cobrar racing its token under one idempotency_key', () => {
  let t: TestSwitch | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const pair = () => {
    const key = randomUUID();
    return {
      token: tokenBody({ idempotency_key: key, monto: { valor: 10, moneda: 'VES' } }),
      cobrar: cobrarBody({ idempotency_key: key, monto: { valor: 5000, moneda: 'VES' } }),
    };
  };
  /** The cobrars that ran at the bank (an order was sent for them). */
  const cobrarsAtBank = async (sw: TestSwitch) => {
    await sw.settle();
    const byTxn = sw.sw.bank.ordersByTransaction();
    const txs = await Promise.all(Object.keys(byTxn).map((id) => sw.sw.store.transactions.get(id)));
    return txs.filter((tx) => tx?.kind === 'cobrar');
  };

  it('token claimed but not yet recorded when the cobrar looks: the cobrar is refused, nothing of it is left', async () => {
    const p = pausingStore('token', 'after');
    t = await startTestSwitch({ store: p.store });
    const sw = t;
    const { token, cobrar } = pair();
    const tokenAnswer = sw.post('/switch/v1/cobrar/token', token);
    await p.paused;
    const c = await sw.post('/switch/v1/cobrar', cobrar);
    p.release();
    expect((await tokenAnswer).statusCode).toBe(200);
    expect(c.statusCode, c.body).toBe(409);
    expect(c.json()).toMatchObject({ error: 'TOKEN_EN_CURSO' });
    expect(await cobrarsAtBank(sw)).toEqual([]);
    // Once the token is recorded, the cobrar is compared with it: 5000 is not the 10 of the token.
    const after = await sw.post('/switch/v1/cobrar', cobrar);
    expect(after.statusCode, after.body).toBe(422);
    expect(after.json()).toMatchObject({ error: 'TOKEN_MISMATCH', detail: { monto: expect.any(String) } });
    expect(await cobrarsAtBank(sw)).toEqual([]);
  });

  it('the cobrar found no token, then the token ran before the cobrar claimed: never both', async () => {
    const p = pausingStore('cobrar', 'before');
    t = await startTestSwitch({ store: p.store });
    const sw = t;
    const { token, cobrar } = pair();
    const cobrarAnswer = sw.post('/switch/v1/cobrar', cobrar);
    await p.paused;
    const tk = await sw.post('/switch/v1/cobrar/token', token);
    p.release();
    const c = await cobrarAnswer;
    const ran = await cobrarsAtBank(sw);
    const tokenRan = tk.statusCode === 200 && (tk.json() as Resultado).estado === 'ACEPTADA';
    // A cobrar that went to the bank without its token's comparison while that token exists is the bug.
    expect({ tokenRan, cobrarRan: ran.length > 0 }).not.toEqual({ tokenRan: true, cobrarRan: true });
    // The cobrar was first to take the key: it runs as a cobrar without token; the late token is refused.
    expect(c.statusCode, c.body).toBe(200);
    expect(tk.statusCode, tk.body).toBe(409);
    expect(tk.json()).toMatchObject({ error: 'IDEMPOTENCY_CONFLICT' });
  });

  it('the token ran first: the cobrar is compared with it (422), nothing of it is left', async () => {
    t = await startTestSwitch();
    const sw = t;
    const { token, cobrar } = pair();
    expect((await sw.post('/switch/v1/cobrar/token', token)).statusCode).toBe(200);
    await sw.settle();
    const before = sw.footprint();
    const c = await sw.post('/switch/v1/cobrar', cobrar);
    expect(c.statusCode).toBe(422);
    await sw.expectNothingSince(before);
  });
});
