import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createEndpoint, rotateSecret, type EndpointRules } from '@switch/usecases/webhook-endpoints';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { PUBLIC_DESTINATIONS_ONLY } from '@switch/platform/config/webhooks';
import { registerWebhook } from '@switch/usecases/onboarding';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { standardWebhookHeaders } from '@switch/core/contracts/webhook';

/**
 * Every secret the switch issues — merchant API and panel (create, rotate), operator CLI/API
 * (register) — is `whsec_` + standard base64 of 32 random bytes, and the official npm
 * `standardwebhooks` library verifies deliveries signed with it exactly as issued.
 */
const ISSUED = /^whsec_[A-Za-z0-9+/]{43}=$/;
const ROUNDS = 40;
const secrets = SecretBox.ephemeral();
const rules: EndpointRules = { destinations: { ...PUBLIC_DESTINATIONS_ONLY, allowPrivate: true }, rotationOverlapSeconds: 60, secrets };
const caller = { merchantId: 'tienda', mode: 'test' as const };
const url = 'https://hooks.example.com/switch';

function verifiesWithTheLibrary(secret: string): void {
  const body = JSON.stringify({ evento: 'transaccion.liquidada', monto: 150.5 });
  const now = Math.floor(Date.now() / 1000);
  const headers = standardWebhookHeaders('txn_1.v2.we_1', now, body, secret);
  expect(() => new Webhook(secret).verify(body, headers), secret).not.toThrow();
  expect(ISSUED.test(secret), secret).toBe(true);
}

describe('issued webhook secrets: one generator, verified by the official standardwebhooks library', () => {
  it('merchant API and panel: created and rotated secrets', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < ROUNDS; i++) {
      // A merchant of its own each round: a merchant holds at most MAX_ENDPOINTS_PER_MODE endpoints.
      const created = await createEndpoint(store, { ...caller, merchantId: `tienda${i}` }, { url }, rules);
      if (!created.ok) throw new Error(`not created: ${JSON.stringify(created.problem)}`);
      verifiesWithTheLibrary(created.value.secret);
      const rotated = await rotateSecret(store, { ...caller, merchantId: `tienda${i}` }, created.value.endpoint.id, rules);
      if (!rotated.ok) throw new Error('not rotated');
      verifiesWithTheLibrary(rotated.value.secret);
    }
  });

  it('operator: registered secrets', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < ROUNDS; i++) {
      const { secret } = await registerWebhook(store, { ...caller, url, events: ['transaccion.liquidada'] }, secrets);
      verifiesWithTheLibrary(secret);
    }
  });
});
