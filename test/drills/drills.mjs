// The drills: one fault each, under load, then recovery and the checks.
import { Load } from './load.mjs';
import { duplicates, ledgers, otpReader, receivedCounts } from './banks.mjs';
import { evaluate, resolved } from './checks.mjs';

const delay = (ms) => new Promise((r) => setTimeout(r, ms));
const post = (url, body) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => {
    if (r.status !== 200) throw new Error(`POST ${url} answered ${r.status}`);
  });

const killAndRestart = (name) => ({
  name: `kill -9 ${name}`,
  fault: `SIGKILL ${name} under load, then start it again`,
  async run({ stack }) {
    await stack.services[name].kill9();
    await stack.services[name].start();
  },
});

const pause = (name, label, ms) => ({
  name: `${label} paused`,
  fault: `SIGSTOP ${name} for ${ms / 1000} s, then SIGCONT`,
  async run({ stack }) {
    stack.infra.pause(name);
    try {
      await delay(ms); // the fault's duration
    } finally {
      stack.infra.resume(name);
    }
  },
});

const bankTimeout = (n) => ({
  name: 'bank timeout after accepting',
  fault: `Plaza, Bancaribe and Activo emulators take the next ${n} orders each, then cut the connection without answering`,
  async run({ stack }) {
    const e = stack.emulators;
    await Promise.all([
      post(`${e['emu-plaza']}/timeout`, { n }),
      post(`${e['emu-bancaribe']}/timeout-after-accept`, { n }),
      post(`${e['emu-activo']}/timeout-after-accept`, { n }),
    ]);
  },
});

const publishFailures = (services, probability, ms) => ({
  name: 'publish fails after bank call',
  fault: `${services.join(', ')} restarted with SWITCH_FAULT_PUBLISH_AFTER_BANK_CALL=${probability} for ${ms / 1000} s, then without`,
  async run({ stack }) {
    await Promise.all(services.map((s) => stack.services[s].restart({ SWITCH_FAULT_PUBLISH_AFTER_BANK_CALL: String(probability) })));
    try {
      await delay(ms); // the fault's duration
    } finally {
      await Promise.all(services.map((s) => stack.services[s].restart({})));
    }
  },
});

export function drillList({ quick }) {
  if (quick) {
    // CI subset, aimed at ≤ 10 minutes on 2 cores: one stateless and one stateful kill, both pauses,
    // a bank that times out after accepting, failed publishes after bank calls.
    return [
      killAndRestart('gateway'),
      killAndRestart('router'),
      pause('kafka', 'broker', 20_000),
      pause('ferretdb', 'store', 20_000),
      bankTimeout(2),
      publishFailures(['bank-sim', 'bank-plaza'], 0.5, 10_000),
    ];
  }
  const banks = ['bank-sim', 'bank-plaza', 'bank-bancaribe', 'bank-activo', 'bank-bnc'];
  return [
    ...['gateway', 'router', ...banks, 'notifier', 'reconciler'].map(killAndRestart),
    pause('kafka', 'broker', 20_000),
    pause('ferretdb', 'store', 20_000),
    bankTimeout(4),
    publishFailures(
      banks.filter((b) => b !== 'bank-bnc'),
      0.5,
      20_000,
    ),
  ];
}

/**
 * One drill: load starts, runs `before` ms, the fault, `after` ms more load, then the load stops and
 * the drill waits (bounded) until every request is answered and every operation is final or
 * documented-open, every state announced and every webhook delivered; then counts.
 */
export async function runDrill(drill, { stack, store, receiver, announcements, rate, beforeMs, afterMs, recoveryMs, log, watchKafka }) {
  const since = new Date(Date.now() - 1000).toISOString();
  const countsBefore = await receivedCounts(stack);
  // Cluster mode: Kafka's own view (offsets, replicas, lag) is watched too (test/drills/cluster.mjs).
  const kafka = watchKafka?.(stack);
  await kafka?.start();
  const load = new Load({ url: stack.url, urls: stack.urls, key: stack.key, otpFor: otpReader(stack) });
  load.start(rate);
  await delay(beforeMs); // load before the fault: a window, not synchronisation
  log(`  fault: ${drill.fault}`);
  const notes = {};
  try {
    await drill.run({ stack, receiver, note: (n) => Object.assign(notes, n) });
  } catch (e) {
    log(`  fault step failed: ${e.message}`);
    notes.fault_step_failed = e.message;
  }
  const faultEnd = Date.now();
  await delay(afterMs);
  load.stop();
  // Recovery, bounded: requests first, then the operations behind them.
  const deadline = faultEnd + afterMs + recoveryMs;
  await load.settle(Math.max(0, deadline - Date.now()));
  const txsNow = async () => {
    const ids = new Set([...(await store.idsSince(stack.merchant, since)), ...load.operations.map((o) => o.id)]);
    return (await Promise.all([...ids].map((id) => store.get(id)))).filter(Boolean);
  };
  let txs = await txsNow();
  let recoveredAt = null;
  for (;;) {
    const healthy = txs.every((t) => resolved(t) && announcements.version(t.id) >= t.version) && load.summary().lost === 0;
    const delivered = txs.every((t) =>
      t.history.filter((h) => ['ACEPTADA', 'LIQUIDADA', 'RECHAZADA'].includes(h.to)).every((h) => receiver.count(t.id, eventOf(h.to)) > 0),
    );
    if (healthy && delivered) {
      recoveredAt = Date.now();
      break;
    }
    if (Date.now() > deadline) break;
    await delay(1000); // polling interval of the condition above
    txs = await txsNow();
  }
  const k = kafka ? await kafka.settle(Math.max(deadline, Date.now() + 120_000)) : null;
  const counts = evaluate({
    txs,
    bank: await ledgers(stack, store.store, txs),
    dups: duplicates(countsBefore, await receivedCounts(stack)),
    receiver,
    announced: announcements.version,
  });
  const s = load.summary();
  return {
    name: drill.name,
    fault: drill.fault,
    sent: s.sent,
    answered: s.answered,
    lost: s.lost,
    duplicate_bank_orders: counts.duplicate_bank_orders.length,
    ledger_mismatches: counts.ledger_mismatches.length,
    unresolved: counts.unresolved.length,
    unannounced: counts.unannounced.length,
    webhooks_missing: counts.webhooks_missing.length,
    final_changed: counts.final_changed.length,
    ...(k
      ? {
          under_replicated: k.under_replicated,
          offsets_backwards: k.offsets_backwards.length,
          consumer_lag: k.consumer_lag.length,
          offsets_followed: k.offsets_followed,
        }
      : {}),
    recovery_s:
      recoveredAt && (!k || k.settledAt) ? Number(((Math.max(recoveredAt, k?.settledAt ?? 0) - faultEnd) / 1000).toFixed(1)) : null,
    ...(Object.keys(notes).length > 0 ? { fault_details: notes } : {}),
    ...(k ? { topics: k.topics } : {}),
    operations: txs.length,
    answers: s.byStatus,
    retried_on: s.retriedOn,
    details: {
      ...counts,
      lost: load.requests.filter((r) => !r.answered).map((r) => ({ path: r.path, last: r.status, tries: r.tries })),
      ...(k ? { offsets_backwards: k.offsets_backwards, consumer_lag: k.consumer_lag } : {}),
    },
  };
}

const eventOf = (estado) =>
  ({ ACEPTADA: 'transaccion.aprobada', LIQUIDADA: 'transaccion.liquidada', RECHAZADA: 'transaccion.rechazada' })[estado];
