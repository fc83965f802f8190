import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PageQuery, PathParams } from '../fields';
import { BANCOS } from '@switch/core/contracts/bancos';
import { ESTADOS } from '@switch/core/estados';
import { deliveryPageOfTransaction, toDeliveryView } from '@switch/usecases/webhook-endpoints';
import { DELIVERIES_PAGE, deliveriesAfter, deliveryPage } from '../delivery-pages';
import { exportTransactions } from '@switch/usecases/transaction-export';
import { findOwnTransaction, isListProblem, listTransactions, reversoOf, toDetalle } from '@switch/usecases/transaction-list';
import { OPERATION_KINDS } from '@switch/core/contracts/operaciones';
import type { TransaccionesQuery } from '@switch/core/contracts/transacciones';
import { venezuelanToday } from '@switch/platform/runtime/account-reads';
import type { PanelContext } from '../context';

const FILTERS = ['operacion', 'estado', 'banco', 'desde', 'hasta', 'id', 'idempotency_key', 'cursor'] as const;

/**
 * The filters from the query string, checked like the API's: values outside the lists are dropped
 * with a message instead of a 400 page (a merchant typed them).
 */
function filtersOf(query: Record<string, unknown>): { q: TransaccionesQuery; invalid: string[] } {
  const q: Record<string, string> = {};
  const invalid: string[] = [];
  const rules: Record<(typeof FILTERS)[number], (v: string) => boolean> = {
    operacion: (v) => (OPERATION_KINDS as readonly string[]).includes(v),
    estado: (v) => (ESTADOS as readonly string[]).includes(v),
    banco: (v) => (BANCOS as readonly string[]).includes(v),
    desde: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
    hasta: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
    id: (v) => /^[A-Za-z0-9_.-]{1,64}$/.test(v),
    idempotency_key: (v) => /^[0-9a-fA-F-]{36}$/.test(v),
    cursor: (v) => /^[A-Za-z0-9_-]{1,200}$/.test(v),
  };
  for (const name of FILTERS) {
    const v = query[name];
    if (typeof v !== 'string' || v.trim() === '') continue;
    if (rules[name](v.trim())) q[name] = v.trim();
    else invalid.push(name);
  }
  return { q: { ...q, limite: '25' } as TransaccionesQuery, invalid };
}

export function transactionPages(app: FastifyInstance, ctx: PanelContext): void {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = ctx;

  routes.get('/transacciones', { schema: { querystring: PageQuery } }, async (request, reply) => {
    const { q, invalid } = filtersOf(request.query);
    const page = await listTransactions(store, ctx.caller(request), q);
    const problem = isListProblem(page) ? page : null;
    const { cursor: _c, limite: _l, ...shown } = q;
    const next =
      !problem && !isListProblem(page) && page.siguiente ? new URLSearchParams({ ...shown, cursor: page.siguiente }).toString() : null;
    return ctx.page(request, reply, 'transactions', {
      rows: isListProblem(page) ? [] : page.transacciones,
      filters: shown,
      invalid: problem ? [...invalid, problem.field] : invalid,
      next,
      paged: q.cursor !== undefined,
      firstPage: new URLSearchParams(shown).toString(),
      exportQuery: new URLSearchParams(shown).toString(),
      kinds: OPERATION_KINDS,
      estados: ESTADOS,
      bancos: BANCOS,
    });
  });

  // The list's filters as CSV, every matching operation, streamed (packages/usecases/src/transaction-export.ts).
  routes.get('/transacciones.csv', { schema: { querystring: PageQuery } }, async (request, reply) => {
    const query = request.query;
    const { q } = filtersOf(query);
    const { cursor: _c, limite: _l, ...filters } = q;
    const formato = query.formato === 'numerico' ? 'numerico' : 'es';
    const caller = ctx.caller(request);
    const out = exportTransactions(store, caller, { ...filters, formato });
    if (isListProblem(out)) return reply.code(400).type('text/plain; charset=utf-8').send(`${out.field}: ${out.message}`);
    return reply
      .header('cache-control', 'no-store')
      .header('content-disposition', `attachment; filename="transacciones-${caller.mode}-${venezuelanToday()}.csv"`)
      .type('text/csv; charset=utf-8')
      .send(Readable.from(out));
  });

  routes.get('/transacciones/:id', { schema: { params: PathParams('id') } }, async (request, reply) => {
    const { id } = request.params;
    const caller = ctx.caller(request);
    const tx = /^[A-Za-z0-9_.-]{1,64}$/.test(id) ? await findOwnTransaction(store, caller, id) : null;
    if (!tx) return reply.callNotFound();
    const after = deliveriesAfter(request);
    const deliveries = await deliveryPageOfTransaction(store, caller, id, DELIVERIES_PAGE + 1, after);
    const { shown, next } = deliveryPage(deliveries.ok ? deliveries.value : []);
    return ctx.page(request, reply, 'transaction', {
      tx: toDetalle(tx, await reversoOf(store, tx)),
      deliveries: shown.map(toDeliveryView),
      txId: id,
      nextDeliveries: next,
      pagedDeliveries: after !== undefined,
      json: (v: unknown) => JSON.stringify(v, null, 2),
    });
  });
}
