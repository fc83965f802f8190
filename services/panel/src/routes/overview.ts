import type { FastifyInstance } from 'fastify';
import { ESTADOS, lastDays, summarizeOverview, venezuelanToday, type Mode, type OverviewGroup } from '@switch/shared';
import { barChart, shareBars } from '../charts';
import { translate, type Lang } from '../i18n';
import { amount } from '../format';
import type { PanelContext } from '../panel';

export const PERIODS = { hoy: 1, '7d': 7, '30d': 30 } as const;
type Period = keyof typeof PERIODS;

/** States of an operation still waiting for its outcome (the bank's or the reconciler's). */
const WAITING = ESTADOS.filter((e) => e === 'ACEPTADA' || e === 'PENDIENTE' || e === 'DESCONOCIDA');
/** How many waiting operations the page lists per state (oldest of the newest, with their age). */
const WAITING_SHOWN = 20;
/**
 * The groups of a merchant and mode are read once per this long, whichever period is asked: a page
 * reloaded, or several people of one team, cost one pass over the store's index.
 */
const CACHE_MS = 30_000;

/** The panel's home: how today, the last 7 or the last 30 days went, in the current mode. */
export function overviewPages(app: FastifyInstance, ctx: PanelContext): void {
  const cache = new Map<string, { at: number; groups: OverviewGroup[] }>();
  const groupsOf = async (merchantId: string, mode: Mode, today: string): Promise<OverviewGroup[]> => {
    const key = `${merchantId}|${mode}|${today}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.groups;
    const from = new Date(Date.parse(`${lastDays(today, 30)[0]}T04:00:00.000Z`)).toISOString();
    const groups = await ctx.store.transactions.overviewSince(merchantId, mode, from);
    if (cache.size > 1000) cache.clear();
    cache.set(key, { at: Date.now(), groups });
    return groups;
  };

  app.get('/resumen', async (request, reply) => {
    const caller = ctx.caller(request);
    const lang: Lang = request.session.lang ?? 'es';
    const asked = (request.query as { periodo?: string }).periodo;
    const period: Period = asked && asked in PERIODS ? (asked as Period) : 'hoy';
    const today = venezuelanToday();
    const overview = summarizeOverview(await groupsOf(caller.merchantId, caller.mode, today), lastDays(today, PERIODS[period]));
    const waiting = (
      await Promise.all(
        WAITING.map((estado) =>
          ctx.store.transactions.listForMerchant({ merchantId: caller.merchantId, mode: caller.mode, estado }, WAITING_SHOWN),
        ),
      )
    )
      .flat()
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const now = Date.now();
    const t = (key: string) => translate(lang, key);
    // The daily chart: 7 or 30 bars; today alone is said by the figures.
    const chart =
      overview.days.length > 1
        ? barChart(
            overview.daily.map((d) => ({ label: d.day.slice(8) + '/' + d.day.slice(5, 7), values: [d.collected, d.paidOut] })),
            { title: t('overview.chart.daily'), description: t('overview.chart.daily.desc') },
          )
        : null;
    const banksChart = shareBars(
      overview.banks.map((b) => ({ label: translate(lang, `banco.${b.banco}`), share: b.successRate })),
      { title: t('overview.banks') },
    );
    return ctx.page(request, reply, 'overview', {
      period,
      periods: Object.keys(PERIODS),
      overview,
      chart,
      banksChart,
      waiting: waiting.map((tx) => ({
        id: tx.id,
        kind: tx.kind,
        estado: tx.estado,
        createdAt: tx.createdAt,
        ageMinutes: Math.max(0, Math.floor((now - Date.parse(tx.createdAt)) / 60_000)),
        monto: (tx.request.body as { monto?: { valor?: number } }).monto?.valor ?? 0,
      })),
      percent: (share: number | null) => (share === null ? '—' : `${amount(lang, share * 100).replace(/[.,]\d+$/, '')} %`),
    });
  });
}
