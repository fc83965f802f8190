import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PageQuery } from '../fields';
import { statementCsvHeader, statementCsvLine, type ExportFormat } from '@switch/usecases/transaction-export';
import { venezuelanToday, type AccountReadProblem } from '@switch/platform/runtime/account-reads';
import { translate, type Lang } from '../i18n';
import type { PanelContext } from '../context';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Balances: the merchant's registered accounts of the mode, and a balance and statement read of one of
 * them (only of them, in both modes: the page reads the accounts it lists, decision 0204) with the
 * merchant API's own reads (`@switch/platform/runtime/account-reads` accountReads: the same ownership rule, window and errors).
 */
export function balancePages(app: FastifyInstance, ctx: PanelContext): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get('/saldos', { schema: { querystring: PageQuery } }, async (request, reply) => {
    const caller = ctx.caller(request);
    const q = request.query;
    const today = venezuelanToday();
    const form = {
      cuenta: typeof q.cuenta === 'string' ? q.cuenta.trim() : '',
      desde: typeof q.desde === 'string' && DAY.test(q.desde) ? q.desde : today,
      hasta: typeof q.hasta === 'string' && DAY.test(q.hasta) ? q.hasta : today,
    };
    const accounts = await ctx.store.accounts.list(caller.merchantId, caller.mode);
    const data: Record<string, unknown> = { accounts, form, reads: !!ctx.accounts };
    if (form.cuenta && ctx.accounts) {
      const lang: Lang = request.session.lang ?? 'es';
      if (!/^[0-9]{20}$/.test(form.cuenta)) data.error = translate(lang, 'balances.err.cuenta');
      else if (!accounts.some((a) => a.cuenta === form.cuenta))
        data.error = translate(lang, 'balances.err.unregistered', { cuenta: form.cuenta, mode: translate(lang, `mode.${caller.mode}`) });
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

  // The statement of the form's account and days as CSV: every page of the API's read, written as read.
  app.withTypeProvider<TypeBoxTypeProvider>().get('/saldos.csv', { schema: { querystring: PageQuery } }, async (request, reply) => {
    const caller = ctx.caller(request);
    const q = request.query;
    const cuenta = typeof q.cuenta === 'string' ? q.cuenta.trim() : '';
    const desde = typeof q.desde === 'string' && DAY.test(q.desde) ? q.desde : venezuelanToday();
    const hasta = typeof q.hasta === 'string' && DAY.test(q.hasta) ? q.hasta : desde;
    const format: ExportFormat = q.formato === 'numerico' ? 'numerico' : 'es';
    const reads = ctx.accounts;
    if (!reads || !/^[0-9]{20}$/.test(cuenta)) return reply.callNotFound();
    if (!(await ctx.store.accounts.list(caller.merchantId, caller.mode)).some((a) => a.cuenta === cuenta)) {
      const lang: Lang = request.session.lang ?? 'es';
      const said = translate(lang, 'balances.err.unregistered', { cuenta, mode: translate(lang, `mode.${caller.mode}`) });
      return reply.code(422).type('text/plain; charset=utf-8').send(said);
    }
    // The first page is read before answering, so a refused read is a page with its message, not a broken file.
    const first = await reads.movimientos(caller, { cuenta, desde, hasta });
    if (!first.ok) return reply.code(422).type('text/plain; charset=utf-8').send(message(request, first.problem));
    async function* lines() {
      yield statementCsvHeader(format);
      let page = first.ok ? first.value : null;
      for (let n = 0; page && n < STATEMENT_PAGES_MAX; n++) {
        yield page.movimientos.map((m) => statementCsvLine(m, format)).join('');
        if (!page.siguiente) return;
        const next = await reads!.movimientos(caller, { cuenta, desde, hasta, cursor: page.siguiente });
        // A read failing midway ends the file with a line saying so (the status line has gone out).
        if (!next.ok) {
          yield `# ${message(request, next.problem)}\r\n`;
          return;
        }
        page = next.value;
      }
    }
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="movimientos-${cuenta.slice(-4)}-${desde}-${hasta}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(Readable.from(lines()));
  });
}

/** Pages of a statement read for an export: 31 days at most, a page of 100 movements per read. */
const STATEMENT_PAGES_MAX = 1000;

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
