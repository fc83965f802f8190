import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankRequests, TOPICS, type RouterInboxMessage } from '@switch/core/contracts/topics';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { startConnectorService, type BankService } from '@switch/platform/runtime/bank-service';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { Writable } from 'node:stream';
import { startEmulator, type Emulator } from '../emulator';
import { loadBancaribeConfig } from './config';
import { bancaribeService } from './service';
import type { BancaribeConnector } from './connector';
import { c2p, CREDENTIALS, ref } from '../test/fixtures';

/** The OTP travels sealed on the bus (the gateway seals it); the worker opens it with the same key. */
const secrets = SecretBox.ephemeral();

describe('Bancaribe service on the bus', () => {
  let emulator: Emulator;
  let bus: MemoryBus;
  let service: BankService<BancaribeConnector>;
  const results: RouterInboxMessage[] = [];
  const logged: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ credentials: CREDENTIALS, settleDelayMs: 0 });
    bus = new MemoryBus();
    await bus.subscribe(TOPICS.routerInbox, { group: 'test-router' }, async ({ value }) => void results.push(value));
    const config = loadBancaribeConfig({
      BANCARIBE_TEST_URL: emulator.url,
      BANCARIBE_TEST_CONSUMER_KEY: CREDENTIALS.consumerKey,
      BANCARIBE_TEST_CONSUMER_SECRET: CREDENTIALS.consumerSecret,
      BANCARIBE_TEST_MERCHANT_RIF: 'J12114',
      BANCARIBE_TEST_MERCHANT_PHONE: '04141000114',
      BANCARIBE_TEST_MERCHANT_ACCOUNT: '01140111122222233333',
      BANCARIBE_TEST_CLIENT_HASH: '09A2D57E-C433-4581-97C2-6F6ADA944F27',
    });
    const sink = new Writable({
      write: (chunk, _enc, done) => {
        logged.push(String(chunk));
        done();
      },
    });
    service = await startConnectorService(bancaribeService, {
      secrets,
      bus,
      store: new MemoryStore(),
      log: createLogger('bank-bancaribe', 'debug', sink),
      config,
    });
  });
  afterAll(async () => {
    await service.stop();
    await bus.close();
    await emulator.close();
  });

  it('serves the configured mode only and answers the router with the outcome', async () => {
    expect(Object.keys(service.connectors)).toEqual(['test']);
    const order = c2p(ref('bus'), 11);
    const request =
      order.request.kind === 'cobrar'
        ? { ...order.request, body: { ...order.request.body, otp: secrets.seal(order.request.body.otp) } }
        : order.request;
    await bus.publish(bankRequests('bancaribe'), order.txnId, { op: 'execute', ...order, request });
    await bus.drained();
    expect(results).toEqual([
      { type: 'bank_result', txnId: order.txnId, attempt: 1, op: 'execute', outcome: expect.objectContaining({ type: 'settled' }) },
    ]);
    expect(emulator.ledger.order(order.orderRef)?.estatus).toBe('APROBADA');
    expect(logged.join('')).not.toContain(CREDENTIALS.consumerSecret);
  });
});
