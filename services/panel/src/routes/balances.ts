import type { FastifyInstance, FastifyRequest } from 'fastify';
import { venezuelanToday, type AccountReadProblem } from '@switch/shared';
import { translate, type Lang } from '../i18n';
import type { PanelContext } from '../context';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Balances: the merchant's registered accounts of the mode, and a balance and statement read with the
 * merchant API's own reads (`@switch/shared` accountReads: the same ownership rule, window and errors).
 */
export function balancePages(app: FastifyInstance, ctx: PanelContext): void {
  app.get('/saldos', async (request, reply) => {
    const caller = ctx.caller(request);
    const q = request.query as Record<string, unknown>;
    const today = venezuelanToday();
    const form = {
      cuenta: typeof q.cuenta === 'string' ? q.cuenta.trim() : '',
      desde: typeof q.desde === 'string' && DAY.test(q.desde) ? q.desde : today,
      hasta: typeof q.hasta === 'string' && DAY.test(q.hasta) ? q.hasta : today,
    };
    const data: Record<string, unknown> = {
      accounts: await ctx.store.accounts.list(caller.merchantId, caller.mode),
      form,
      reads: !!ctx.accounts,
    };
    if (form.cuenta && ctx.accounts) {
      if (!/^[0-9]{20}$/.test(form.cuenta)) data.error = 'cuenta: 20 digits';
      else {
        const saldo = await ctx.accounts.saldo(caller, form.cuenta);
        if (saldo.ok) {
          data.saldo = saldo.value;
          const movimientos = await ctx.accounts.movimientos(caller, { cuenta: form.cuenta, desde: form.desde, hasta: form.hasta });
          if (movimientos.ok) data.movimientos = movimientos.value;
          else data.error = message(request, movimientos.problem);
        } else data.error = message(request, saldo.problem);
      }
    }
    return ctx.page(request, reply, 'balances', data);
  });
}

/** A read's problem as the page says it, in the session's language. */
function message(request: FastifyRequest, problem: AccountReadProblem): string {
  const lang: Lang = request.session.lang ?? 'es';
  switch (problem.kind) {
    case 'invalid':
      // Field names are the API's (`desde`, `hasta`, `cursor`), as the form's labels show them.
      return Object.entries(problem.detail)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ');
    case 'refused':
      return translate(lang, 'balances.err.refused', { motivo: problem.motivo });
    case 'bank_unavailable':
      return translate(lang, 'balances.err.bank_unavailable');
    case 'dependency_down':
      request.log.error({ cause: problem.cause }, 'balance read: a dependency is down');
      return translate(lang, 'balances.err.dependency_down');
    default:
      return translate(lang, `balances.err.${problem.kind}`);
  }
}
