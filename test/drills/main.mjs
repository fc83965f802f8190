#!/usr/bin/env node
// `npm run drills [-- --quick] [--cluster] [--json FILE] [--only NAME,...] [--rate N]`: scripted faults
// against the whole switch (npm run stack's processes on their own Kafka / registry / FerretDB instance)
// under open-loop load, with the invariants of docs/reliability.md checked after each one. `--cluster`:
// three brokers and two replicas of each service (npm run stack -- --cluster), the cluster's drills
// (test/drills/cluster.mjs), Kafka's own checks after each, and the topics' settings in the JSON.
// Exit code 1 when any count that must be 0 is not.
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO } from '../../infra/stack/infra.mjs';
import { startStack } from '../../infra/stack/stack.mjs';
import { startReceiver } from './receiver.mjs';
import { openStore } from './checks.mjs';
import { followAnnouncements } from './announcements.mjs';
import { drillList, runDrill } from './drills.mjs';
import { clusterDrillList, kafkaWatch, topicSummary } from './cluster.mjs';
import { describeTopics } from '../../infra/stack/cluster.mjs';
import { printTable, violationsOf } from './report.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const quick = flag('quick');
const cluster = flag('cluster');
const jsonFile = option('json');
const only = option('only')?.split(',');
const rate = Number(option('rate') ?? (quick ? 2 : 4));
const timing = quick ? { beforeMs: 4_000, afterMs: 6_000, recoveryMs: 240_000 } : { beforeMs: 8_000, afterMs: 12_000, recoveryMs: 240_000 };

const stateDir = resolve(REPO, cluster ? '.cache/drills-cluster' : '.cache/drills');
mkdirSync(stateDir, { recursive: true });
const logFile = resolve(stateDir, 'services.log');
const logStream = createWriteStream(logFile);
const log = (l) => process.stdout.write(`${l}\n`);
// A hard bound on the whole run, whatever happens (a hung fetch, a process that never gets ready).
const hardLimit = setTimeout(
  () => {
    log('drills: time limit reached, stopping');
    process.exit(2);
  },
  (quick ? (cluster ? 25 : 15) : 60) * 60_000,
);
hardLimit.unref();

const database = `drills_${Date.now().toString(36)}`;
log(`drills: ${quick ? 'quick' : 'full'}${cluster ? ' cluster' : ''} run, ${rate} operations/s, service logs in ${logFile}`);
const startedAt = Date.now();
const stack = await startStack({
  cluster,
  port: 0,
  stateDir,
  // Ports of their own: `npm run stack` (19092, 18081, 17017, 15432) and the shared instance may be running.
  infraPorts: { kafka: 29092, controller: 29093, registry: 28081, mongo: 29017, postgres: 25432 },
  database,
  merchant: 'drills',
  sink: { write: (l) => logStream.write(`${l}\n`), colour: false },
  log: (l) => log(`  stack: ${l}`),
  emulatorSettleMs: 1500,
  env: {
    LOG_LEVEL: process.env.DRILLS_LOG_LEVEL ?? 'warn',
    SWITCH_WEBHOOK_ALLOW_PRIVATE: 'true',
    SWITCH_WEBHOOK_SCHEDULE_MS: '0,1000,2000,3000,5000,8000',
    SWITCH_NOTIFIER_POLL_MS: '250',
    SWITCH_RECONCILER_INTERVAL_MS: '1000',
    SWITCH_RECONCILER_BACKOFF_MS: '500',
    SWITCH_RATE_LIMIT_PER_MINUTE: '1000000',
    SWITCH_SHUTDOWN_MS: '5000',
    PLAZA_TIMEOUT_MS: '10000',
    BANCARIBE_TEST_TIMEOUT_MS: '10000',
    ACTIVO_TIMEOUT_MS: '10000',
  },
}).catch((e) => {
  log(`drills: the stack did not start: ${e.message} (see ${logFile})`);
  process.exit(2);
});

let stopping = false;
const shutdown = async (code) => {
  if (stopping) return;
  stopping = true;
  await stack.stop().catch(() => {});
  logStream.end();
  process.exit(code);
};
process.on('SIGINT', () => void shutdown(130));
process.on('SIGTERM', () => void shutdown(143));

const receiver = await startReceiver();
const hook = await fetch(`${stack.adminUrl}/admin/v1/merchants/${stack.merchant}/webhooks`, {
  method: 'POST',
  headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
  body: JSON.stringify({
    mode: 'test',
    url: receiver.url,
    events: ['transaccion.aprobada', 'transaccion.liquidada', 'transaccion.rechazada'],
  }),
});
if (hook.status !== 201) {
  log(`drills: registering the webhook answered ${hook.status}: ${await hook.text()}`);
  await shutdown(2);
}
const store = await openStore(stack.mongo);
const announcements = await followAnnouncements(stack.kafka);

// The switch's topics and the brokers' own offsets topic (where committed offsets live).
const readTopics = async () =>
  topicSummary([
    ...(await describeTopics({ brokers: stack.kafka.brokers, prefix: '__consumer_offsets' })),
    ...(await describeTopics({ brokers: stack.kafka.brokers, prefix: `${stack.kafka.namespace}.` })),
  ]);
const topicsAtStart = cluster ? await readTopics() : null;
const results = [];
const drills = (cluster ? clusterDrillList({ quick }) : drillList({ quick })).filter((d) => !only || only.some((o) => d.name.includes(o)));
for (const [i, drill] of drills.entries()) {
  log(`[${i + 1}/${drills.length}] ${drill.name}`);
  const t0 = Date.now();
  const r = await runDrill(drill, {
    stack,
    store,
    receiver,
    announcements,
    rate,
    ...timing,
    log,
    ...(cluster ? { watchKafka: kafkaWatch } : {}),
  });
  results.push(r);
  log(
    `  ${r.sent} sent, ${r.answered} answered, ${r.operations} operations; violations ${violationsOf(r)}; recovered ${r.recovery_s === null ? 'NOT within the limit' : `in ${r.recovery_s} s`} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
  );
  for (const [k, list] of Object.entries(r.details)) for (const x of list.slice(0, 3)) log(`    ${k}: ${JSON.stringify(x)}`);
}

printTable(results, log);
const violations = results.reduce((n, r) => n + violationsOf(r), 0);
log(`drills: ${violations} violation(s) in ${results.length} drill(s)`);
if (jsonFile) {
  const drillsJson = results.map(({ details: _d, answers: _a, operations: _o, topics: _t, retried_on: _r, ...r }) => r);
  const topicsAtEnd = cluster ? results.at(-1)?.topics : undefined;
  writeFileSync(
    resolve(process.cwd(), jsonFile),
    JSON.stringify(
      {
        ...(cluster
          ? {
              cluster: {
                brokers: stack.kafka.brokers,
                replicas: Object.keys(stack.services).filter((n) => !n.startsWith('emu-')),
                // As read from the brokers (describe topics / configs), before the first drill and after the last.
                topics_at_start: topicsAtStart,
                topics_at_end: topicsAtEnd,
              },
            }
          : {}),
        run_s: Math.round((Date.now() - startedAt) / 1000),
        drills: drillsJson,
        violations,
        details: results.map((r) => ({
          name: r.name,
          answers: r.answers,
          retried_on: r.retried_on,
          operations: r.operations,
          ...r.details,
        })),
      },
      null,
      2,
    ),
  );
  log(`drills: wrote ${jsonFile}`);
}
await announcements.close().catch(() => {});
await store.close().catch(() => {});
await receiver.close();
await shutdown(violations > 0 ? 1 : 0);
