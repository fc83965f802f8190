import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { exportTransactions, TransaccionesExportQuery } from '@switch/usecases/transaction-export';
import { findOwnTransaction, isListProblem, listTransactions, reversoOf, toDetalle } from '@switch/usecases/transaction-list';
import { TransaccionDetalle, TransaccionesPage, TransaccionesQuery } from '@switch/core/contracts/transacciones';
import type { GatewayStore } from '../ports';
import { HttpProblem, errorResponses } from '@switch/core/contracts/errors';
import { exampleDetail } from '../sandbox';

const security = [{ switchKey: [] }];

/** The caller's transactions of the key mode: a filtered, cursor-paged list and one transaction's detail. */
export function transactionRoutes(app: FastifyInstance, deps: { store: GatewayStore }): void {
  // Handlers read `request.body`, `query` and `params` as their route's schema types them.
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  routes.get(
    '/switch/v1/transacciones',
    {
      schema: {
        operationId: 'listarTransacciones',
        tags: ['operaciones'],
        summary: 'List operations',
        description:
          'Newest first. Filters combine (and); `desde`/`hasta` are Venezuelan calendar days (UTC-4), both inclusive. Pass `siguiente` as `cursor` for the next page. Operations of other merchants or of the other mode are never listed.',
        security,
        querystring: TransaccionesQuery,
        response: { 200: TransaccionesPage, ...errorResponses(400, 401, 429, 503) },
      },
    },
    async (request) => {
      const page = await listTransactions(deps.store, request.caller, request.query);
      if (isListProblem(page)) throw new HttpProblem('VALIDATION', { detail: { [page.field]: page.message } });
      return page;
    },
  );

  routes.get(
    '/switch/v1/transacciones.csv',
    {
      schema: {
        operationId: 'exportarTransacciones',
        tags: ['operaciones'],
        summary: 'Export operations as CSV',
        description:
          "The list's filters (no page size, no cursor), every matching operation of the key's merchant and mode, newest first, streamed as CSV with the list's field names as header. `formato=es` (default): `;` between fields, `1.719,83`, times in Caracas time, UTF-8 with a byte order mark, for a spreadsheet in Spanish; `formato=numerico`: `,`, `1719.83`, ISO 8601 UTC. Text that a spreadsheet would run as a formula starts with `'`.",
        security,
        querystring: TransaccionesExportQuery,
        response: {
          200: {
            description: 'CSV, one line per operation',
            // Streamed: the schema says text, the handler sends it as a stream of chunks.
            content: { 'text/csv': { schema: Type.Unsafe<string | Readable>({ type: 'string' }) } },
          },
          ...errorResponses(400, 401, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const out = exportTransactions(deps.store, request.caller, request.query);
      if (isListProblem(out)) throw new HttpProblem('VALIDATION', { detail: { [out.field]: out.message } });
      return reply
        .header('content-disposition', `attachment; filename="transacciones-${request.caller.mode}.csv"`)
        .type('text/csv; charset=utf-8')
        .send(Readable.from(out));
    },
  );

  routes.get(
    '/switch/v1/transacciones/:id',
    {
      schema: {
        operationId: 'detalleTransaccion',
        tags: ['operaciones'],
        summary: 'One operation in detail',
        description:
          'The Resultado as /consultar answers it (without asking the bank), the request, every state change with its cause, time and bank data, the attempts and the reconciler evidence. A reversed operation names its one reverso in `reverso`; a reverso names its original in `reverso_de`. Another merchant or mode: 404. In test mode, `txn_ejemplo` is the sandbox example operation.',
        security,
        params: Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }) }),
        response: { 200: TransaccionDetalle, ...errorResponses(400, 401, 404, 429, 503) },
      },
    },
    async (request) => {
      const { id } = request.params;
      const example = exampleDetail(request.caller.mode, id);
      if (example) return example;
      const tx = await findOwnTransaction(deps.store, request.caller, id);
      if (!tx) throw new HttpProblem('NOT_FOUND', { message: `no operation ${id}` });
      return toDetalle(tx, await reversoOf(deps.store, tx));
    },
  );
}
