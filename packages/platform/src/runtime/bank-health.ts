import { instanceId as hostInstanceId } from '../config/instance';
import { TOPICS, type BankHealthMessage } from '@switch/core/contracts/topics';
import type { Bus, Subscription } from '../ports/bus';
import type { BancoId, Mode } from '@switch/core/contracts/bancos';
import type { Logger } from '../telemetry/logger';
import { BREAKER_VALUE, metrics } from '../telemetry/metrics';
import type { BankBreakers } from '@switch/connector-kit/send';
import { breakerReportKey, isFresh, unavailableBanks, type BreakerReport } from '@switch/core/breaker-view';

/**
 * Publishes a bank's breaker states on every change and every `intervalMs`, and exports them as the
 * `switch_breaker_state` gauge. Each replica reports under its own key (`replica`, its instance id):
 * the router keeps every replica's report and routes around the bank while any fresh one is open.
 */
export function startBankHealthReporter(options: {
  bus: Bus;
  banco: BancoId;
  breakers: Partial<Record<Mode, BankBreakers>>;
  log: Logger;
  intervalMs?: number;
  /** This connector replica's stable instance id; default the host name. */
  replica?: string;
}): { stop(): void } {
  const { bus, banco, log } = options;
  const replica = options.replica ?? hostInstanceId();
  const byMode = Object.entries(options.breakers) as [Mode, BankBreakers][];
  const publish = () => {
    for (const [mode, b] of byMode) {
      const open = Object.entries(b.states())
        .filter(([, s]) => s === 'open')
        .map(([op]) => op);
      bus
        .publish(TOPICS.bankHealth, breakerReportKey({ banco, mode, replica }), {
          banco,
          mode,
          openOperations: open,
          at: new Date().toISOString(),
          replica,
        })
        .catch((e: unknown) => log.warn({ err: e }, 'could not publish bank health'));
    }
  };
  for (const [, b] of byMode) {
    b.onStateChange((bank, operation, state) => {
      metrics.breakerState.set({ bank, operation }, BREAKER_VALUE[state]);
      log.warn({ bank, operation, state, replica }, 'circuit breaker state changed');
      publish();
    });
  }
  const timer = setInterval(publish, options.intervalMs ?? 10_000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * The router's view of bank health: every connector replica's latest report, kept apart by replica,
 * and the banks to route around derived from all of them (`unavailableBanks` in core). A report older
 * than `staleMs` is forgotten, so a replica that stopped reporting is not followed forever.
 */
export class BankHealthView {
  private readonly reports = new Map<string, BreakerReport>();
  constructor(
    private readonly staleMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** `instanceId`: the router replica's stable id (`instanceId`), which names its group. */
  async follow(bus: Bus, instanceId: string = hostInstanceId()): Promise<Subscription> {
    // Every router replica needs every report: a group of its own, named after the replica (stable).
    return bus.subscribe(
      TOPICS.bankHealth,
      { group: `router-${instanceId}-bank-health`, latestOnly: true, maxAttempts: 1 },
      async ({ value }) => this.record(value),
    );
  }

  /** Keeps one report as the latest of its replica. */
  record(value: BankHealthMessage): void {
    const report: BreakerReport = {
      banco: value.banco,
      mode: value.mode,
      replica: value.replica ?? '',
      open: value.openOperations.length > 0,
      receivedAt: this.now(),
    };
    this.reports.set(breakerReportKey(report), report);
  }

  /** Banks with an open breaker on a fresh replica of the connector of `mode`. */
  unavailable(mode: Mode): ReadonlySet<BancoId> {
    const now = this.now();
    for (const [key, r] of this.reports) if (!isFresh(r, now, this.staleMs)) this.reports.delete(key);
    return unavailableBanks(this.reports.values(), mode, now, this.staleMs);
  }

  /** Each fresh replica's report (operators, drills): which replica sees which bank how. */
  replicas(): BreakerReport[] {
    const now = this.now();
    return [...this.reports.values()].filter((r) => isFresh(r, now, this.staleMs));
  }
}
