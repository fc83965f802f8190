import type { BancoId } from './contracts/bancos';
import type { EstadoTransaccion } from './estados';
import type { OperationKind } from './contracts/operaciones';
import { amountOf, type Transaction } from './operation';

/**
 * How a merchant's days went (the panel's overview): operations grouped by Venezuelan day, kind,
 * state, bank and reason, so a period's figures are sums over a few hundred groups whatever the
 * number of operations. The store builds the groups in one pass over the merchant's operations of
 * the period (its (merchant, mode, createdAt) index: `transactions.overviewSince`); the figures
 * below are pure.
 */
export interface OverviewGroup {
  /** Venezuelan calendar day of creation, `YYYY-MM-DD`. */
  day: string;
  kind: OperationKind;
  estado: EstadoTransaccion;
  banco: BancoId | null;
  motivo: string | null;
  count: number;
  /** Sum of `monto.valor`. */
  amount: number;
  /** Sum over settled operations of the time from creation to the last state change. */
  latencyMs: number;
}

/** Venezuela is UTC−4 all year. */
export const venezuelanDayOf = (iso: string): string => new Date(Date.parse(iso) - 4 * 3_600_000).toISOString().slice(0, 10);

/** Adds one operation to its group (the store's one pass calls this per operation). */
export function addToOverview(groups: Map<string, OverviewGroup>, tx: Transaction): void {
  if (!tx.estado || tx.kind === 'token') return;
  const day = venezuelanDayOf(tx.createdAt);
  const motivo = tx.estado === 'RECHAZADA' ? (tx.motivoRechazo ?? null) : null;
  const key = `${day}|${tx.kind}|${tx.estado}|${tx.bancoUsado ?? ''}|${motivo ?? ''}`;
  let group = groups.get(key);
  if (!group) {
    group = { day, kind: tx.kind, estado: tx.estado, banco: tx.bancoUsado, motivo, count: 0, amount: 0, latencyMs: 0 };
    groups.set(key, group);
  }
  group.count += 1;
  group.amount += amountOf(tx);
  if (tx.estado === 'LIQUIDADA') group.latencyMs += Math.max(0, Date.parse(tx.updatedAt) - Date.parse(tx.createdAt));
}

export interface BankFigures {
  banco: BancoId;
  settled: number;
  failed: number;
  /** Settled over settled and failed (rejected or error); null when none ended. */
  successRate: number | null;
  /** Mean time to settle, ms; null when none settled. */
  meanLatencyMs: number | null;
}

export interface Overview {
  days: string[];
  collected: { count: number; amount: number };
  paidOut: { count: number; amount: number };
  successRate: number | null;
  banks: BankFigures[];
  rejections: { motivo: string; count: number }[];
  /** Per day, settled amounts: collected (cobrar) and paid out (pagar). */
  daily: { day: string; collected: number; paidOut: number }[];
}

/** The last `n` Venezuelan days up to `today`, oldest first. */
export function lastDays(today: string, n: number): string[] {
  const end = Date.parse(`${today}T00:00:00.000Z`);
  return Array.from({ length: n }, (_, i) => new Date(end - (n - 1 - i) * 86_400_000).toISOString().slice(0, 10));
}

/** A period's figures from its groups. Reversos count as neither collected nor paid out. */
export function summarizeOverview(groups: readonly OverviewGroup[], days: readonly string[]): Overview {
  const inPeriod = new Set(days);
  const rows = groups.filter((g) => inPeriod.has(g.day));
  const settled = rows.filter((g) => g.estado === 'LIQUIDADA');
  const ended = (g: OverviewGroup) => g.estado === 'LIQUIDADA' || g.estado === 'RECHAZADA' || g.estado === 'ERROR';
  const sum = (list: OverviewGroup[], f: (g: OverviewGroup) => number) => list.reduce((a, g) => a + f(g), 0);
  const money = (list: OverviewGroup[], kind: OperationKind) => {
    const of = list.filter((g) => g.kind === kind);
    return { count: sum(of, (g) => g.count), amount: Math.round(sum(of, (g) => g.amount) * 100) / 100 };
  };
  const endedCount = sum(rows.filter(ended), (g) => g.count);
  const banks = new Map<BancoId, BankFigures & { latencySum: number }>();
  for (const g of rows.filter(ended)) {
    if (!g.banco) continue;
    const b = banks.get(g.banco) ?? { banco: g.banco, settled: 0, failed: 0, successRate: null, meanLatencyMs: null, latencySum: 0 };
    if (g.estado === 'LIQUIDADA') {
      b.settled += g.count;
      b.latencySum += g.latencyMs;
    } else b.failed += g.count;
    banks.set(g.banco, b);
  }
  const reasons = new Map<string, number>();
  for (const g of rows)
    if (g.estado === 'RECHAZADA') reasons.set(g.motivo ?? 'DESCONOCIDO', (reasons.get(g.motivo ?? 'DESCONOCIDO') ?? 0) + g.count);
  return {
    days: [...days],
    collected: money(settled, 'cobrar'),
    paidOut: money(settled, 'pagar'),
    successRate: endedCount === 0 ? null : sum(settled, (g) => g.count) / endedCount,
    banks: [...banks.values()]
      .map(({ latencySum, ...b }) => ({
        ...b,
        successRate: b.settled + b.failed === 0 ? null : b.settled / (b.settled + b.failed),
        meanLatencyMs: b.settled === 0 ? null : Math.round(latencySum / b.settled),
      }))
      .sort((a, b) => a.banco.localeCompare(b.banco)),
    rejections: [...reasons.entries()].map(([motivo, count]) => ({ motivo, count })).sort((a, b) => b.count - a.count),
    daily: days.map((day) => {
      const of = settled.filter((g) => g.day === day);
      return {
        day,
        collected: sum(
          of.filter((g) => g.kind === 'cobrar'),
          (g) => g.amount,
        ),
        paidOut: sum(
          of.filter((g) => g.kind === 'pagar'),
          (g) => g.amount,
        ),
      };
    }),
  };
}
