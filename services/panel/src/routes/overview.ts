import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ESTADOS } from '@switch/core/estados';
import { lastDays, summarizeOverview } from '@switch/core/overview';
import { venezuelanToday } from '@switch/platform/runtime/account-reads';
import { amountOf } from '@switch/core/operation';
import { PageQuery } from '../fields';
import { barChart, shareBars } from '../charts';
import { translate, type Lang } from '../i18n';
import { amount } from '../format';
import type { PanelContext } from '../context';
import { overviewGroups } from '../overview-hours';

export const PERIODS = { hoy: 1, '7d': 7, '30d': 30 } as const;
type Period = keyof typeof PERIODS;

/** States of an operation still waiting for its outcome (the bank's or the reconciler's). */
const WAITING = ESTADOS.filter((e) => e === 'ACEPTADA' || e === 'PENDIENTE' || e === 'DESCONOCIDA');
/** How many waiting operations the page lists per state (oldest of the newest, with their age). */
const WAITING_SHOWN = 20;

/** The panel's home: how today, the last 7 or the last 30 days went, in the current mode. */
export function overviewPages(app: FastifyInstance, ctx: PanelContext): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/resumen', { schema: { querystring: PageQuery } }, async (request, reply) => {
    const caller = ctx.caller(request);
    const lang: Lang = request.session.lang ?? 'es';
    const asked = request.query.periodo;
    const period: Period = typeof asked === 'string' && asked in PERIODS ? (asked as Period) : 'hoy';
    const today = venezuelanToday();
    const days = lastDays(today, PERIODS[period]);
    const overview = summarizeOverview(await overviewGroups(ctx.store, caller.merchantId, caller.mode, days, Date.now()), days);
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
            overview.daily.map((d) => ({ label: `${d.day.slice(8)}/${d.day.slice(5, 7)}`, values: [d.collected, d.paidOut] })),
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
        monto: amountOf(tx),
      })),
      percent: (share: number | null) => (share === null ? '—' : `${amount(lang, share * 100).replace(/[.,]\d+$/, '')} %`),
    });
  });
}
