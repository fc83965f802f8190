import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every metric the switch exports, named and labelled by Prometheus conventions: units in names,
 * bounded label sets (never ids). One registry per process; in the embedded switch all services share
 * it. The dashboard and the alerts query only names registered here (test/deploy/monitoring.test.ts).
 */
export const registry = new Registry();
// The event-loop delay monitor samples every 50 ms, not prom-client's default 10: every process of the
// stack woke 100 times a second for it when idle. A block longer than 50 ms is still always seen.
collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 50 });

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * `switch_event_loop_busy_seconds_total`: the time this process's event loop spent running callbacks
 * rather than waiting for I/O (`performance.eventLoopUtilization().active`), read at each scrape.
 * Its `rate()` is the loop's utilisation, 0..1, exact whatever the scrape interval and however many
 * scrapers. Lag (`nodejs_eventloop_lag_seconds`) shows a loop that is blocked; utilisation shows one
 * that is saturated: near 1, every burst queues although no single call is slow (docs/benchmarks.md,
 * "What the stalls are").
 */
new Counter({
  name: 'switch_event_loop_busy_seconds_total',
  help: 'Time the event loop spent running callbacks, not waiting for I/O; rate() is its utilisation (0..1)',
  registers: [registry],
  // The loop's own running total since the process started: set to it at each scrape.
  collect() {
    this.reset();
    this.inc(performance.eventLoopUtilization().active / 1000);
  },
});

export const metrics = {
  httpRequests: new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered',
    labelNames: ['service', 'route', 'method', 'status_code'],
    registers: [registry],
  }),
  httpDuration: new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames: ['service', 'route', 'method'],
    buckets: seconds,
    registers: [registry],
  }),
  operationsStarted: new Counter({
    name: 'switch_operations_started_total',
    help: 'Money operations created',
    labelNames: ['kind', 'mode'],
    registers: [registry],
  }),
  operationsFinished: new Counter({
    name: 'switch_operations_finished_total',
    help: 'Operations entering a state, by the state entered',
    labelNames: ['kind', 'bank', 'rail', 'mode', 'estado', 'motivo_rechazo'],
    registers: [registry],
  }),
  bankCalls: new Counter({
    name: 'switch_bank_calls_total',
    help: 'Calls to bank connectors by outcome',
    labelNames: ['bank', 'operation', 'outcome'],
    registers: [registry],
  }),
  bankCallDuration: new Histogram({
    name: 'switch_bank_call_duration_seconds',
    help: 'Bank call latency',
    labelNames: ['bank', 'operation', 'outcome'],
    buckets: seconds,
    registers: [registry],
  }),
  breakerState: new Gauge({
    name: 'switch_breaker_state',
    help: 'Circuit breaker state: 0 closed, 1 half open, 2 open',
    labelNames: ['bank', 'operation'],
    registers: [registry],
  }),
  leaseHeld: new Gauge({
    name: 'switch_lease_held',
    help: 'Whether this process holds the lease of a background loop (1) or not (0), by lease',
    labelNames: ['lease'],
    registers: [registry],
  }),
  reroutes: new Counter({
    name: 'switch_reroutes_total',
    help: 'Payouts rerouted after a bank provably did not process them',
    labelNames: ['from_bank', 'to_bank'],
    registers: [registry],
  }),
  openOperations: new Gauge({
    name: 'switch_open_operations',
    help: 'Operations waiting on a bank, by state',
    labelNames: ['estado'],
    registers: [registry],
  }),
  openOldestAge: new Gauge({
    name: 'switch_open_operation_oldest_age_seconds',
    help: 'Age of the oldest open operation, by state',
    labelNames: ['estado'],
    registers: [registry],
  }),
  reviewOperations: new Gauge({
    name: 'switch_manual_review_operations',
    help: 'Open operations flagged for manual review',
    registers: [registry],
  }),
  reviewOldestAge: new Gauge({
    name: 'switch_manual_review_oldest_age_seconds',
    help: 'Age of the oldest operation flagged for review',
    registers: [registry],
  }),
  consumerLag: new Gauge({
    name: 'switch_kafka_consumer_lag',
    help: 'Messages not yet consumed, per consumer group and topic',
    labelNames: ['group', 'topic'],
    registers: [registry],
  }),
  busPublished: new Counter({
    name: 'switch_bus_published_total',
    help: 'Messages published to the bus, by topic',
    labelNames: ['topic'],
    registers: [registry],
  }),
  handlerRetries: new Counter({
    name: 'switch_bus_handler_retries_total',
    help: 'Bus handler failures being retried (the message and its partition wait; nothing is dead-lettered)',
    labelNames: ['group', 'topic'],
    registers: [registry],
  }),
  deadLettered: new Counter({
    name: 'switch_bus_dead_letters_total',
    help: 'Messages dead-lettered (they can never succeed)',
    labelNames: ['group', 'topic'],
    registers: [registry],
  }),
  processingDuration: new Histogram({
    name: 'switch_message_processing_duration_seconds',
    help: 'Time to handle one bus message',
    labelNames: ['group', 'topic'],
    buckets: seconds,
    registers: [registry],
  }),
  webhookAttempts: new Counter({
    name: 'switch_webhook_attempts_total',
    help: 'Webhook delivery attempts by outcome',
    labelNames: ['outcome'],
    registers: [registry],
  }),
  webhookDuration: new Histogram({
    name: 'switch_webhook_attempt_duration_seconds',
    help: 'Webhook attempt latency',
    buckets: seconds,
    registers: [registry],
  }),
  webhookQueue: new Gauge({
    name: 'switch_webhook_queue_depth',
    help: 'Webhook deliveries by status',
    labelNames: ['status'],
    registers: [registry],
  }),
  webhookExhausted: new Counter({
    name: 'switch_webhook_exhausted_total',
    help: 'Deliveries that used all attempts',
    registers: [registry],
  }),
  reconcilerCycles: new Counter({ name: 'switch_reconciler_cycles_total', help: 'Reconciliation rounds run', registers: [registry] }),
  storeCommandDuration: new Histogram({
    name: 'switch_store_command_duration_seconds',
    help: 'MongoDB command latency by collection and command, as the driver saw it',
    labelNames: ['collection', 'command', 'outcome'],
    buckets: [0.001, 0.0025, ...seconds],
    registers: [registry],
  }),
  mcpToolCalls: new Counter({
    name: 'switch_mcp_tool_calls_total',
    help: 'MCP tool calls by tool and outcome (ok, or the error code the REST API answered)',
    labelNames: ['tool', 'outcome'],
    registers: [registry],
  }),
  reconcilerResolutions: new Counter({
    name: 'switch_reconciler_resolutions_total',
    help: 'State changes resolved by a status query',
    labelNames: ['from_estado', 'to_estado'],
    registers: [registry],
  }),
};

/** Wraps a bus handler so its processing time is observed per group and topic. */
let topicPrefix = '';

/**
 * Topic labels name the topic as it is on the cluster, in the deployment's namespace, like the Kafka
 * adapter's own (the alerts join them): set once at start by `connectAdapters`.
 */
export function labelTopicsIn(namespace: string): void {
  topicPrefix = namespace ? `${namespace}.` : '';
}

export function measured<T>(group: string, topic: string, handler: (message: T) => Promise<void>): (message: T) => Promise<void> {
  return async (message) => {
    const end = metrics.processingDuration.startTimer({ group, topic: topicPrefix + topic });
    try {
      await handler(message);
    } finally {
      end();
    }
  };
}

export const BREAKER_VALUE = { closed: 0, half_open: 1, open: 2 } as const;
