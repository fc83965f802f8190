import { describe, expect, it } from 'vitest';
import { CAPABILITIES } from '@switch/core/contracts/bancos';
import { createLogger } from '@switch/platform/telemetry/logger';
import { MemoryBus } from '@switch/platform/adapters/memory/bus';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import type { Bus } from '@switch/platform/ports/bus';
import type { RoutingTable } from '@switch/core/routing';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { buildGateway } from './app';
import { loadGatewayConfig } from './config';

const log = createLogger('reply-test', 'silent');
const BNC: RoutingTable = { test: [{ banco: 'bnc', capabilities: [...CAPABILITIES] }], live: [] };

/** The consumer groups (and one-key addresses) a gateway subscribes with, recorded from its bus. */
function groupsOf(bus: Bus, seen: string[]): Bus {
  return new Proxy(bus, {
    get(target, name, receiver) {
      if (name === 'subscribe')
        return ((topic, options, handler) => {
          seen.push(`${topic.name} ${options.group}${options.key === undefined ? '' : ` key=${options.key}`}`);
          return target.subscribe(topic, options, handler);
        }) satisfies Bus['subscribe'];
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function startAndStop(env: Record<string, string>): Promise<string[]> {
  const seen: string[] = [];
  const bus = new MemoryBus();
  const config = { ...loadGatewayConfig(env), gatewayReplicas: 1 as const };
  const gateway = await buildGateway({
    secrets: SecretBox.ephemeral(),
    store: new MemoryStore(),
    bus: groupsOf(bus, seen),
    routing: BNC,
    log,
    config,
  });
  await gateway.close();
  await bus.close();
  return seen.sort();
}

describe('a gateway instance: stable consumer groups, named after its instance id', () => {
  it('starting twice with the same SWITCH_INSTANCE_ID subscribes with the same groups; another id, other groups', async () => {
    const first = await startAndStop({ SWITCH_INSTANCE_ID: 'gateway-7d9f-abcde' });
    const again = await startAndStop({ SWITCH_INSTANCE_ID: 'gateway-7d9f-abcde' });
    expect(first.length).toBeGreaterThan(0);
    expect(again).toEqual(first);
    for (const s of first) expect(s).toContain('gateway-7d9f-abcde');
    // Answers and read replies: only its own key, never a whole reply topic.
    expect(first.filter((s) => s.includes('answers') || s.includes('replies')).every((s) => s.endsWith('key=gateway-7d9f-abcde'))).toBe(
      true,
    );
    const other = await startAndStop({ SWITCH_INSTANCE_ID: 'gateway-7d9f-fghij' });
    expect(other.filter((s) => first.includes(s))).toEqual([]);
  });

  it('without SWITCH_INSTANCE_ID the id is the host name and the port: the same at every start', async () => {
    const first = await startAndStop({ PORT: '3456' });
    expect(await startAndStop({ PORT: '3456' })).toEqual(first);
    expect(loadGatewayConfig({ PORT: '3456' }).instanceId).toMatch(/-3456$/);
    expect(() => loadGatewayConfig({ SWITCH_INSTANCE_ID: 'no spaces allowed' })).toThrow(/SWITCH_INSTANCE_ID/);
  });
});
