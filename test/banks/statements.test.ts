import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMULATOR_DEMO, seedDemoMerchant } from '@switch/embedded';
import { EMULATED, pagar, settleAt, startBankSwitch, type BankSwitch } from './helpers';

/** The Venezuelan calendar day (UTC-4), the one bank statements use. */
const venezuelanDay = (offsetDays = 0) => new Date(Date.now() - 4 * 3600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);

/**
 * Statements are per merchant in test mode too: the emulated banks keep one ledger per account,
 * shared by every merchant that names it, so the switch shows each merchant only the movements of
 * its own operations.
 */
describe('statements in test mode are per merchant (emulated banks)', () => {
  let t: BankSwitch;
  let otherKey: string;
  beforeAll(async () => {
    t = await startBankSwitch();
    otherKey = (await seedDemoMerchant(t.sw.store, 'otro')).switchKey;
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = (key: string) => ({
    post: (url: string, payload: unknown) =>
      t.sw.gateway.app.inject({ method: 'POST', url, payload: payload as object, headers: { 'x-switch-key': key } }),
    get: (url: string) => t.sw.gateway.app.inject({ method: 'GET', url, headers: { 'x-switch-key': key } }),
  });

  describe.each(EMULATED)('%s', (banco) => {
    it('two merchants paying out of the same test account each see only their own movements in its statement', async () => {
      // In test mode every merchant's payouts at an emulated bank leave from the one account the
      // connector is configured with: one number, one ledger at the bank, two merchants.
      const demo = EMULATOR_DEMO[banco];
      const cuenta = 'account' in demo ? demo.account : demo.cuenta;
      const mine = as(t.key);
      const theirs = as(otherKey);
      const body = () => pagar({ banco_preferido: banco });
      const a = (await mine.post('/switch/v1/pagar', body())).json();
      const b = (await theirs.post('/switch/v1/pagar', body())).json();
      expect(a.banco_usado).toBe(banco);
      expect(b.banco_usado).toBe(banco);
      settleAt(t.emu, banco);
      const refA = (await mine.post('/switch/v1/consultar', { id: a.id })).json().referencia_banco as string;
      const refB = (await theirs.post('/switch/v1/consultar', { id: b.id })).json().referencia_banco as string;
      expect(refA).toEqual(expect.any(String));
      expect(refB).toEqual(expect.any(String));

      const statement = async (who: ReturnType<typeof as>) => {
        const res = await who.get(`/switch/v1/movimientos?cuenta=${cuenta}&desde=${venezuelanDay(-1)}`);
        expect(res.statusCode, res.body).toBe(200);
        return (res.json().movimientos as { referencia: string }[]).map((m) => m.referencia);
      };
      const seenByA = await statement(mine);
      const seenByB = await statement(theirs);
      expect(seenByA).toContain(refA);
      expect(seenByA).not.toContain(refB);
      expect(seenByB).toContain(refB);
      expect(seenByB).not.toContain(refA);
    });
  });
});
