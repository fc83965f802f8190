import { describe, expect, it } from 'vitest';
import { MemoryBus } from '../adapters/memory/bus';
import { MemoryStore } from '../adapters/memory/store';
import { bankRequests, type Payload, type Topic } from '@switch/core/contracts/topics';
import type { ConnectorService, ServiceDeps } from '@switch/connector-kit/service';
import { CAPABILITIES } from '@switch/core/contracts/bancos';
import type { BankOutcome } from '@switch/core/operation';
import type { BankConnector } from '@switch/connector-kit/bank-port';
import type { Delivered, SubscribeOptions, Subscription } from '../ports/bus';
import { createLogger } from '../telemetry/logger';
import { startConnectorService } from './bank-service';
import { BankBreakers } from '@switch/connector-kit/send';
import { SecretBox } from './secret-box';

const log = createLogger('bank-service-test', 'silent');

/** A bus that remembers who subscribed to what. */
class RecordingBus extends MemoryBus {
  readonly subscribed: { topic: string; group: string }[] = [];
  override subscribe<T extends Topic>(
    topic: T,
    options: SubscribeOptions,
    handler: (message: Delivered<Payload<T>>) => Promise<void>,
  ): Promise<Subscription> {
    this.subscribed.push({ topic: topic.name, group: options.group });
    return super.subscribe(topic, options, handler);
  }
}

/** A connector that only says which configuration it was built with. */
class NamedConnector implements BankConnector {
  readonly banco = 'banco_activo' as const;
  readonly capabilities = CAPABILITIES;
  readonly breakers = new BankBreakers('banco_activo');
  closed = false;
  constructor(
    readonly config: { name: string },
    readonly deps: ServiceDeps,
  ) {}
  async execute(): Promise<BankOutcome> {
    return { type: 'unknown', raw: {} };
  }
  async status(): Promise<BankOutcome> {
    return { type: 'unknown', raw: {} };
  }
  async saldo(): Promise<never> {
    throw new Error('unused');
  }
  async movimientos(): Promise<never> {
    throw new Error('unused');
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

const service: ConnectorService<{ name: string }, NamedConnector> = { banco: 'banco_activo', name: 'bank-test', Connector: NamedConnector };

describe('startConnectorService', () => {
  it('a bank with no mode configured subscribes to nothing: its orders stay on the topic', async () => {
    const bus = new RecordingBus();
    const none = await startConnectorService(service, { bus, store: new MemoryStore(), log, secrets: SecretBox.ephemeral(), config: {} });
    expect(none.connectors).toEqual({});
    expect(bus.subscribed).toEqual([]);
    await none.stop();
    await bus.close();
  });

  it('builds one connector per configured mode and serves the bank under its name; stop closes them', async () => {
    const bus = new RecordingBus();
    const store = new MemoryStore();
    const served = await startConnectorService(service, {
      bus,
      store,
      log,
      secrets: SecretBox.ephemeral(),
      config: { live: { name: 'live-merchant' } },
    });
    expect(Object.keys(served.connectors)).toEqual(['live']);
    expect(served.connectors.live!.config).toEqual({ name: 'live-merchant' });
    expect(served.connectors.live!.deps.references).toBe(store.bankReferences);
    expect(bus.subscribed).toContainEqual({ topic: bankRequests('banco_activo').name, group: 'bank-test' });
    await served.stop();
    expect(served.connectors.live!.closed).toBe(true);
    await bus.close();
  });
});
