// The cluster drills (`npm run drills -- --cluster`): faults of a three-broker Kafka and of one replica
// among two, under load spread over both gateways, and what Kafka itself must show after each:
// no under-replicated partition, no committed offset that went backwards, no consumer lag.
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describeTopics } from '../../infra/stack/cluster.mjs';
import { REPO } from '../../infra/stack/infra.mjs';

const require = createRequire(import.meta.url);
const { Kafka, logLevel } = require('kafkajs');
const { switchTopics } = require(resolve(REPO, 'packages/core/dist/contracts/topics.js'));

const delay = (ms) => new Promise((r) => setTimeout(r, ms));
const post = (url, body) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => {
    if (r.status !== 200) throw new Error(`POST ${url} answered ${r.status}`);
  });

/** The node leading the most partitions of the switch's topics (ties: the lowest id). */
async function busiestLeader(stack) {
  const topics = await describeTopics({ brokers: stack.kafka.brokers, prefix: `${stack.kafka.namespace}.` });
  const led = new Map();
  for (const t of topics) for (const l of t.leaders) led.set(l, (led.get(l) ?? 0) + 1);
  const [id, n] = [...led.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  return { broker: stack.brokers.find((b) => b.id === id), partitions: n };
}

/** A replica's `switch_breaker_state` gauges, `{ "<bank>/<operation>": state }`, from its /metrics. */
async function breakerStates(stack, replica) {
  const text = await (await fetch(`${stack.healthUrls[replica]}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
  const out = {};
  for (const m of text.matchAll(/^switch_breaker_state\{([^}]*)\} (\S+)$/gm)) {
    const labels = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    out[`${labels.bank}/${labels.operation}`] = Number(m[2]);
  }
  return out;
}

const SERVICES = ['router', 'bank-sim', 'bank-plaza', 'bank-bancaribe', 'bank-activo', 'bank-bnc', 'notifier', 'reconciler', 'gateway'];

export function clusterDrillList({ quick }) {
  const down = quick ? 15_000 : 30_000;
  return [
    {
      name: 'kill -9 the busiest broker',
      fault: `SIGKILL the broker leading the most partitions, start it again after ${down / 1000} s`,
      async run({ stack, note }) {
        const { broker, partitions } = await busiestLeader(stack);
        note({ broker: broker.id, partitions_led: partitions });
        await broker.kill9();
        await delay(down); // the fault's duration
        await broker.start();
      },
    },
    {
      name: 'two brokers down',
      fault: `SIGKILL one broker, then a second 5 s later (one left: below min.insync.replicas 2, and no controller quorum); ${down / 1000} s later start the second again, then the first`,
      async run({ stack, note }) {
        const { broker: first } = await busiestLeader(stack);
        const second = stack.brokers.find((b) => b.id !== first.id);
        note({ brokers: [first.id, second.id] });
        await first.kill9();
        await delay(5_000); // the first broker's absence alone, before the second goes
        await second.kill9();
        await delay(down); // the fault's duration
        await second.start();
        await delay(5_000); // two brokers: writes are possible again before the third returns
        await first.start();
      },
    },
    {
      name: 'kill -9 a router replica',
      fault: 'SIGKILL router-1 under load, then start it again',
      async run({ stack }) {
        await stack.services['router-1'].kill9();
        await stack.services['router-1'].start();
      },
    },
    {
      name: 'kill -9 a connector replica mid bank call',
      fault:
        'Banco Plaza emulator holds its next 8 requests 5 s each; 2 s later SIGKILL bank-plaza-1 (calls in flight), then start it again',
      async run({ stack }) {
        await post(`${stack.emulators['emu-plaza']}/delay`, { n: 8, ms: 5_000 });
        await delay(2_000); // held requests arrive at the emulator meanwhile
        await stack.services['bank-plaza-1'].kill9();
        await stack.services['bank-plaza-1'].start();
      },
    },
    {
      name: 'kill -9 a notifier replica mid delivery',
      fault: 'the webhook receiver answers each delivery after 3 s; 2 s later SIGKILL notifier-1, then start it again and answer at once',
      async run({ stack, receiver }) {
        receiver.hold(3_000);
        try {
          await delay(2_000); // deliveries in flight meanwhile
          await stack.services['notifier-1'].kill9();
          await stack.services['notifier-1'].start();
        } finally {
          receiver.hold(0);
        }
      },
    },
    {
      name: 'add a router and a connector replica',
      fault: 'start router-3 and bank-plaza-3 under load (rebalance while calls are in flight), then stop them (SIGTERM) after 10 s',
      async run({ stack }) {
        await post(`${stack.emulators['emu-plaza']}/delay`, { n: 4, ms: 3_000 });
        await Promise.all([stack.services['router-3'].start(), stack.services['bank-plaza-3'].start()]);
        await delay(10_000); // the larger group serves for a while
        await Promise.all([stack.services['router-3'].stop(), stack.services['bank-plaza-3'].stop()]);
      },
    },
    {
      name: 'breaker disagreement',
      fault: `bank-activo-2 restarted pointing at a closed port (its bank is down for it only, bank-activo-1 sees it up) for ${down / 1000} s, then restarted as it was`,
      async run({ stack, note }) {
        await stack.services['bank-activo-2'].restart({ ACTIVO_TEST_URL: 'http://127.0.0.1:19399' });
        try {
          await delay(down); // the fault's duration
          // What each replica's breakers say at the end of it (0 closed, 1 half open, 2 open): the disagreement.
          note({
            breakers: {
              'bank-activo-1': await breakerStates(stack, 'bank-activo-1'),
              'bank-activo-2': await breakerStates(stack, 'bank-activo-2'),
            },
          });
        } finally {
          await stack.services['bank-activo-2'].restart({});
        }
      },
    },
    {
      name: 'rolling restart',
      fault: 'every service replica stopped (SIGTERM) and started again, one at a time, gateways last',
      async run({ stack }) {
        for (const service of SERVICES)
          for (const n of [1, 2]) {
            const s = stack.services[`${service}-${n}`];
            await s.stop();
            await s.start(); // ready (its /readyz answers 200) before the next one goes
          }
      },
    },
  ];
}

/**
 * What Kafka shows during and after a drill: committed offsets sampled while it runs (never going
 * backwards), then, bounded, until no partition is under-replicated and no group lags.
 */
export function kafkaWatch(stack) {
  const kafka = new Kafka({ clientId: 'drills-kafka-watch', brokers: stack.kafka.brokers, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  const prefix = `${stack.kafka.namespace}.`;
  const last = new Map(); // `${group}|${topic}|${partition}` → the committed offset of the last sample
  const backwards = [];
  let sampling = false;
  let loop = null;

  /** The switch's consumer groups on work topics: group id `<group>.<namespace>.<topic>` (kafka bus). */
  async function groups(topics) {
    const listed = await admin.listGroups();
    const out = [];
    for (const { groupId } of listed.groups) {
      const topic = topics.find((t) => groupId.endsWith(`.${t}`));
      if (topic) out.push({ groupId, topic });
    }
    return out;
  }

  // The work topics (router inbox, events, each bank's orders), read by durable groups shared by a
  // service's replicas: lag there is work left. Reply and broadcast topics (answers, bank health,
  // merchant changes) are read by each process from the latest offset in a group of its own, which
  // the services' lag metric leaves out too.
  const work = switchTopics()
    .filter((t) => t.perOperation)
    .map((t) => `${prefix}${t.name}`);

  async function sample() {
    const topics = (await admin.listTopics()).filter((n) => n.startsWith(prefix) && !n.includes('.dlq'));
    for (const { groupId, topic } of await groups(topics)) {
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
      for (const p of committed?.partitions ?? []) {
        const offset = Number(p.offset);
        if (offset < 0) continue;
        const k = `${groupId}|${topic}|${p.partition}`;
        const before = last.get(k);
        // One entry per step back (a commit below the one before it), however long it stays there.
        if (before !== undefined && offset < before)
          backwards.push({ group: groupId, topic, partition: p.partition, from: before, to: offset, at: new Date().toISOString() });
        last.set(k, offset);
      }
    }
  }

  async function lag() {
    const topics = work;
    const out = [];
    for (const { groupId, topic } of await groups(topics)) {
      const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
      const ends = await admin.fetchTopicOffsets(topic);
      for (const e of ends) {
        const c = committed?.partitions.find((p) => p.partition === e.partition);
        const at = c && Number(c.offset) >= 0 ? Number(c.offset) : Number(e.low);
        const behind = Number(e.high) - at;
        if (behind > 0) out.push({ group: groupId, topic, partition: e.partition, behind });
      }
    }
    return out;
  }

  return {
    async start() {
      await admin.connect();
      sampling = true;
      loop = (async () => {
        while (sampling) {
          // A broker down makes a sample fail: the next one tries again.
          await sample().catch(() => {});
          await delay(1_000); // sampling interval
        }
      })();
    },
    /** Stops sampling; waits (until `deadline`) for no under-replicated partition and no lag. */
    async settle(deadline) {
      sampling = false;
      await loop;
      let urp = null;
      let lagging = null;
      let settledAt = null;
      let topics = [];
      for (;;) {
        try {
          topics = await describeTopics({ brokers: stack.kafka.brokers, prefix });
          urp = topics.reduce((n, t) => n + t.under_replicated, 0);
          await sample();
          lagging = await lag();
          if (urp === 0 && lagging.length === 0) {
            settledAt = Date.now();
            break;
          }
        } catch {
          // the cluster still recovering: ask again
        }
        if (Date.now() > deadline) break;
        await delay(1_000); // polling interval of the condition above
      }
      await admin.disconnect().catch(() => {});
      return {
        under_replicated: urp ?? -1,
        offsets_backwards: backwards,
        consumer_lag: lagging ?? [{ error: 'lag never read' }],
        // How many (group, topic, partition) committed offsets the sampling followed: the check's reach.
        offsets_followed: last.size,
        settledAt,
        topics: topicSummary(topics),
      };
    },
  };
}

/** The topics' settings as read from the brokers, grouped: replication factor, min ISR, smallest ISR. */
export function topicSummary(topics) {
  return topics.map((t) => ({
    topic: t.topic,
    partitions: t.partitions,
    replication_factor: t.replication_factor,
    min_insync_replicas: t.min_insync_replicas,
    isr_min: t.isr_min,
    under_replicated: t.under_replicated,
  }));
}
