import { instanceId as hostInstanceId } from '../config/instance';
import { TOPICS } from '@switch/core/contracts/topics';
import type { Bus, Subscription } from '../ports/bus';
import type { BancoId, Mode } from '@switch/core/bancos';
import type { Logger } from '../telemetry/logger';
import { BREAKER_VALUE, metrics } from '../telemetry/metrics';
import type { BankBreakers } from '@switch/connector-kit/breaker';

/**
 * Publishes a bank's breaker states on every change and every `intervalMs`, and exports them as the
 * `switch_breaker_state` gauge. The router routes around a bank while one of its breakers is open.
 */
export function startBankHealthReporter(options: {
  bus: Bus;
  banco: BancoId;
  breakers: Partial<Record<Mode, BankBreakers>>;
  log: Logger;
  intervalMs?: number;
}): { stop(): void } {
  const { bus, banco, log } = options;
  const byMode = Object.entries(options.breakers) as [Mode, BankBreakers][];
  const publish = () => {
    for (const [mode, b] of byMode) {
      const open = Object.entries(b.states())
        .filter(([, s]) => s === 'open')
        .map(([op]) => op);
      bus
        .publish(TOPICS.bankHealth, `${banco}|${mode}`, { banco, mode, openOperations: open, at: new Date().toISOString() })
        .catch((e: unknown) => log.warn({ err: e }, 'could not publish bank health'));
    }
  };
  for (const [, b] of byMode) {
    b.onStateChange((bank, operation, state) => {
      metrics.breakerState.set({ bank, operation }, BREAKER_VALUE[state]);
      log.warn({ bank, operation, state }, 'circuit breaker state changed');
      publish();
    });
  }
  const timer = setInterval(publish, options.intervalMs ?? 10_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * The router's view of bank health: which banks have an open breaker. A report older than `staleMs`
 * is forgotten, so a bank whose connector stopped reporting is not shunned forever.
 */
export class BankHealthView {
  private readonly reports = new Map<string, { banco: BancoId; mode: Mode; open: boolean; at: number }>();
  constructor(private readonly staleMs = 60_000) {}

  /** `instanceId`: the router replica's stable id (`instanceId`), which names its group. */
  async follow(bus: Bus, instanceId: string = hostInstanceId()): Promise<Subscription> {
    // Every router replica needs every report: a group of its own, named after the replica (stable).
    return bus.subscribe(
      TOPICS.bankHealth,
      { group: `router-${instanceId}-bank-health`, latestOnly: true, maxAttempts: 1 },
      async ({ value }) => {
        this.reports.set(`${value.banco}|${value.mode}`, {
          banco: value.banco,
          mode: value.mode,
          open: value.openOperations.length > 0,
          at: Date.now(),
        });
      },
    );
  }

  /** Banks with an open breaker on the connector of `mode`. */
  unavailable(mode: Mode): ReadonlySet<BancoId> {
    const now = Date.now();
    return new Set([...this.reports.values()].filter((r) => r.mode === mode && r.open && now - r.at < this.staleMs).map((r) => r.banco));
  }
}
