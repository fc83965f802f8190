import { afterEach, describe, expect, it, vi } from 'vitest';
import { Kafka } from 'kafkajs';
import { switchTopics, TOPICS, bankRequests } from '@switch/core/contracts/topics';
import { contradictions, deploymentTopics, PRODUCER_CONFIG, SINGLE_BROKER, topicSettings } from './topic-settings';
import { KafkaBus } from './bus';

/** Pure: what the adapter asks of the cluster. The same settings on a real broker: durability.test.ts. */
const PRODUCTION = { replicationFactor: 3, minInsyncReplicas: 2 };
const WEEK_MS = String(7 * 24 * 60 * 60 * 1000);

describe('topic settings (declared with the contract, applied by the Kafka adapter)', () => {
  it('every topic kind has its retention; dead letters never expire; the state topic is compacted', () => {
    const byName = new Map(
      deploymentTopics(switchTopics(), { namespace: 'live', partitions: 12, durability: PRODUCTION }).map((t) => [t.name, t]),
    );
    const inbox = byName.get('live.switch.router.inbox.v2')!;
    expect(inbox).toEqual({
      name: 'live.switch.router.inbox.v2',
      partitions: 12,
      replicationFactor: 3,
      config: {
        'min.insync.replicas': '2',
        'unclean.leader.election.enable': 'false',
        'cleanup.policy': 'delete',
        'retention.ms': WEEK_MS,
        'segment.ms': String(24 * 60 * 60 * 1000),
      },
    });
    expect(byName.get('live.switch.bank.bnc.requests.v1')!.partitions).toBe(12);
    expect(byName.get('live.switch.gateway.answers.v1')).toMatchObject({
      partitions: 8,
      config: { 'retention.ms': String(24 * 60 * 60 * 1000) },
    });
    expect(byName.get('live.switch.bank.health.v1')!.config).toMatchObject({
      'cleanup.policy': 'compact,delete',
      'segment.ms': String(60 * 60 * 1000),
    });
    expect(byName.get('live.switch.merchants.changes.v1')!.config['cleanup.policy']).toBe('delete');
    const deadLetters = [...byName.values()].filter((t) => t.name.includes('.dlq'));
    expect(deadLetters).toHaveLength(switchTopics().length * 2); // each topic's .dlq and .dlq.redriven
    for (const t of deadLetters)
      expect(t).toMatchObject({ partitions: 1, replicationFactor: 3, config: { 'retention.ms': '-1', 'cleanup.policy': 'delete' } });
    for (const t of byName.values()) expect(t.config['min.insync.replicas']).toBe('2');
  });

  it('a topic on the cluster contradicts the settings by partitions, copies, min.insync.replicas or unclean election, each named', () => {
    const wanted = topicSettings(bankRequests('bnc'), PRODUCTION);
    const agreeing = {
      name: wanted.name,
      partitions: 6,
      replicationFactor: 3,
      config: { 'min.insync.replicas': '2', 'unclean.leader.election.enable': 'false' },
    };
    expect(contradictions(wanted, agreeing)).toEqual([]);
    expect(
      contradictions(wanted, {
        ...agreeing,
        partitions: 12,
        replicationFactor: 1,
        config: { 'min.insync.replicas': '1', 'unclean.leader.election.enable': 'true' },
      }),
    ).toEqual([
      'topic switch.bank.bnc.requests.v1: partitions is 12 on the cluster, the switch wants 6',
      'topic switch.bank.bnc.requests.v1: replication factor is 1 on the cluster, the switch wants 3',
      'topic switch.bank.bnc.requests.v1: min.insync.replicas is 1 on the cluster, the switch wants 2',
      'topic switch.bank.bnc.requests.v1: unclean.leader.election.enable is true on the cluster, the switch wants false',
    ]);
    // Retention is not checked: operators may keep messages longer.
    expect(
      contradictions(topicSettings(TOPICS.transactions, SINGLE_BROKER), {
        ...agreeing,
        name: 'x',
        replicationFactor: 1,
        config: { 'min.insync.replicas': '1', 'unclean.leader.election.enable': 'false', 'retention.ms': '1' },
      }),
    ).toEqual([]);
  });
});

describe('the producer the Kafka adapter builds', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is idempotent with one request in flight (kafkajs requires it) and never creates topics', () => {
    expect(PRODUCER_CONFIG).toMatchObject({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
    const producer = vi.spyOn(Kafka.prototype, 'producer');
    new KafkaBus({ brokers: ['127.0.0.1:1'], schemaRegistryUrl: 'http://127.0.0.1:1', clientId: 'producer-config' });
    expect(producer).toHaveBeenCalledTimes(1);
    expect(producer.mock.calls[0]![0]).toMatchObject({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  });
});
