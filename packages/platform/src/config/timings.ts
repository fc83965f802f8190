/**
 * The shutdown and Kafka timing chain, derived in one place (docs/operations.md "Shutdown and probe
 * timings"). From the bottom up:
 *
 *   bank call      = connect timeout + answer timeout (the longest mode of the connector)
 *   handler        = BANK_CALLS_PER_ORDER × bank call + margin (journal writes, the outcome's publish)
 *   shutdown       = max(SWITCH_SHUTDOWN_MS, handler + margin): the message in hand ends and commits
 *   rebalance      = max(60 s, handler + margin): a member finishing its message rejoins in time
 *   heartbeat      = min(1 s, session timeout / 3)
 *   grace (pod)    > preStop pause + shutdown + margin (terminationGracePeriodSeconds; deploy tests)
 *
 * Services that call no bank (router, notifier, reconciler, gateway, panel) have a bank call of 0.
 */
export const TIMING_MARGIN_MS = 5_000;
/** Bank HTTP exchanges one order may make in one handler: a session or token request, then the call. */
export const BANK_CALLS_PER_ORDER = 2;
/** kafkajs' own default, kept as the floor: rebalances of services whose handlers are short. */
export const MIN_REBALANCE_TIMEOUT_MS = 60_000;

export interface TimingInputs {
  /** The longest single bank exchange the process may wait on (connect + answer timeout); 0 for none. */
  bankCallMs: number;
  /** `SWITCH_SHUTDOWN_MS`: the floor of the shutdown bound. */
  shutdownMs: number;
  /** `SWITCH_KAFKA_SESSION_TIMEOUT_MS`. */
  sessionTimeoutMs: number;
}

export interface Timings {
  bankCallMs: number;
  /** The longest a message's handler may run. */
  handlerMs: number;
  /** How long a stop may take before the process exits anyway. */
  shutdownMs: number;
  rebalanceTimeoutMs: number;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
}

export function deriveTimings(i: TimingInputs): Timings {
  const handlerMs = BANK_CALLS_PER_ORDER * i.bankCallMs + TIMING_MARGIN_MS;
  return {
    bankCallMs: i.bankCallMs,
    handlerMs,
    shutdownMs: Math.max(i.shutdownMs, handlerMs + TIMING_MARGIN_MS),
    rebalanceTimeoutMs: Math.max(MIN_REBALANCE_TIMEOUT_MS, handlerMs + TIMING_MARGIN_MS),
    sessionTimeoutMs: i.sessionTimeoutMs,
    heartbeatIntervalMs: Math.max(100, Math.min(1_000, Math.floor(i.sessionTimeoutMs / 3))),
  };
}

/** The least terminationGracePeriodSeconds for a pod whose preStop pauses `preStopMs`. */
export function minimumGraceSeconds(t: Pick<Timings, 'shutdownMs'>, preStopMs: number): number {
  return Math.ceil((preStopMs + t.shutdownMs + TIMING_MARGIN_MS) / 1000);
}

/**
 * The longest bank exchange of a connector's configuration: every mode's `timeoutMs` plus its
 * `connectTimeoutMs` (each connector's mode configuration carries them; the connect timeout defaults
 * to the kit's 3 s).
 */
export function longestBankCallMs(modes: Partial<Record<string, unknown>>): number {
  let longest = 0;
  for (const m of Object.values(modes)) {
    if (typeof m !== 'object' || m === null) continue;
    const { timeoutMs, connectTimeoutMs } = m as { timeoutMs?: unknown; connectTimeoutMs?: unknown };
    if (typeof timeoutMs !== 'number') continue;
    longest = Math.max(longest, timeoutMs + (typeof connectTimeoutMs === 'number' ? connectTimeoutMs : DEFAULT_CONNECT_TIMEOUT_MS));
  }
  return longest;
}

/** The bank HTTP client's connect timeout when a connector sets none (connector-kit/send.ts). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;

/** Every connector's default bank exchange: a 30 s answer timeout after a 3 s connect timeout. */
export const DEFAULT_BANK_CALL_MS = 30_000 + DEFAULT_CONNECT_TIMEOUT_MS;

/** How long a consumer may take to join its group before `subscribe` fails (KafkaBus `joinTimeoutMs`). */
export const CONSUMER_JOIN_TIMEOUT_MS = 60_000;
/** How long the store client looks for a server before an operation fails (MongoStore). */
export const STORE_SELECTION_TIMEOUT_MS = 15_000;
/**
 * The longest a healthy start may take before the process either serves or exits with a clear error:
 * the store found, then each subscription joined. A startup probe must allow at least this, or a
 * slow start is killed before it can say why.
 */
export const STARTUP_MS = STORE_SELECTION_TIMEOUT_MS + CONSUMER_JOIN_TIMEOUT_MS;
