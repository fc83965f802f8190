import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENT_HEADER, SIGNATURE_HEADER, verifyWebhook } from '@switch/core/contracts/webhook';
import { registerWebhook } from '@switch/usecases/onboarding';
import { cuentaBeneficiario, pagar, settleAt, startBankSwitch, type BankSwitch } from './helpers';

/** A merchant's webhook receiver: a real HTTP server on 127.0.0.1 that answers 200. */
async function startReceiver() {
  const got: { body: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, got, close: () => new Promise((r) => server.close(r)) };
}

describe('reconciler and webhooks with a real bank connector (emulator mode)', () => {
  let t: BankSwitch;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secret: string;
  beforeAll(async () => {
    receiver = await startReceiver();
    // Every open operation is due at once, and the notifier looks for due deliveries often.
    t = await startBankSwitch({ policy: { backoffMs: [0] }, notifier: { pollIntervalMs: 50 } });
    secret = (
      await registerWebhook(
        t.sw.store,
        { merchantId: t.merchantId, mode: 'test', url: receiver.url, events: ['transaccion.liquidada'] },
        t.sw.secrets,
      )
    ).secret;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it.each(['banco_plaza', 'bancaribe', 'banco_activo'] as const)(
    '%s: a pending crédito inmediato settles at the bank → the reconciler makes it LIQUIDADA and the merchant hears it',
    async (banco) => {
      const res = await t.post(
        '/switch/v1/pagar',
        pagar({ banco_preferido: banco, via: 'credito_inmediato', beneficiario: cuentaBeneficiario() }),
      );
      const { id } = res.json();
      expect(res.json()).toMatchObject({ estado: 'ACEPTADA', banco_usado: banco });

      // Before the bank settles, a round asks and leaves it open.
      await t.sw.reconciler.runOnce();
      await t.sw.bus.drained();
      expect((await t.sw.store.transactions.get(id))?.estado).toMatch(/^(ACEPTADA|PENDIENTE)$/);

      expect(settleAt(t.emu, banco)).toBeGreaterThanOrEqual(1);
      const round = await t.sw.reconciler.runOnce();
      expect(round?.queried).toContain(id);
      await t.sw.bus.drained();
      expect((await t.sw.store.transactions.get(id))?.estado).toBe('LIQUIDADA');

      const hooksFor = () => receiver.got.filter((g) => (JSON.parse(g.body) as { data: { id: string } }).data.id === id);
      await expect.poll(() => hooksFor().length, { timeout: 20_000 }).toBe(1);
      const hook = hooksFor()[0]!;
      expect(hook.headers[EVENT_HEADER]).toBe('transaccion.liquidada');
      expect(verifyWebhook(hook.body, hook.headers[SIGNATURE_HEADER] as string, secret)).toBe(true);
      expect(JSON.parse(hook.body)).toMatchObject({ data: { id, estado: 'LIQUIDADA', banco } });
    },
  );
});
