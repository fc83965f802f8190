import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { accountReads, MAX_STATEMENT_DAYS, type AccountReadResult, type AccountReads } from '@switch/platform/runtime/account-reads';
import { BancoCatalogo, Movimientos, Saldo, type BancoId } from '@switch/core/contracts/bancos';
import { catalogue, type RoutingTable } from '@switch/core/routing';
import { NumeroCuenta } from '@switch/core/contracts/fields';
import { sandboxFor } from '@switch/core/sandbox';
import type { GatewayStore } from '../ports';
import { DependencyDown, HttpProblem, errorResponses } from '@switch/core/contracts/errors';
import type { Replies } from '../reply';

const security = [{ switchKey: [] }];
const Fecha = Type.String({ format: 'date', description: 'YYYY-MM-DD (Venezuelan calendar day)' });
/** Query strings are not coerced (money bodies must be exact JSON), so numbers arrive as digit strings. */
const SaldoHttpQuery = Type.Object({ cuenta: NumeroCuenta, moneda: Type.Optional(Type.Literal('VES')) });
const MovimientosHttpQuery = Type.Object({
  cuenta: NumeroCuenta,
  desde: Type.String({
    ...Fecha,
    description: 'First day, YYYY-MM-DD (Venezuelan calendar day, UTC-4); not in the future. Otherwise 400 naming `desde`',
  }),
  hasta: Type.Optional(
    Type.String({
      ...Fecha,
      description: `Last day, YYYY-MM-DD (default today); not before \`desde\`, and \`hasta\` − \`desde\` below ${MAX_STATEMENT_DAYS} days (at most ${MAX_STATEMENT_DAYS} calendar days). Otherwise 400 naming \`hasta\``,
    }),
  ),
  limite: Type.Optional(Type.String({ pattern: '^([1-9][0-9]?|[1-4][0-9]{2}|500)$', description: 'Page size, 1 to 500 (default 100)' })),
  cursor: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,200}$', description: 'Cursor of the next page from a previous answer' })),
});

/** The query of /movimientos as it arrives (digit strings, not coerced). */
export type MovimientosParams = { cuenta: string; desde: string; hasta?: string; limite?: string; cursor?: string };

/** The answer of a read, or its problem as the house's HTTP problem (the statuses and bodies of SPEC and DESIGN). */
function answer<T>(result: AccountReadResult<T>): T {
  if (result.ok) return result.value;
  const problem = result.problem;
  switch (problem.kind) {
    case 'invalid':
      throw new HttpProblem('VALIDATION', { detail: problem.detail });
    case 'not_registered':
      throw new HttpProblem('ACCOUNT_NOT_REGISTERED', {
        message: 'cuenta is not one of your registered accounts in live mode (register it with the operator: account add)',
        detail: { cuenta: 'is not one of your registered accounts' },
      });
    case 'no_bank':
      throw new HttpProblem('BANCO_NO_DISPONIBLE', { message: problem.message });
    case 'unknown_account':
      throw new HttpProblem('NOT_FOUND', { message: 'the bank does not know that account' });
    case 'refused':
      throw new HttpProblem(problem.motivo, { message: 'the bank refused the query' });
    case 'bank_unavailable':
      throw new HttpProblem('SERVICE_UNAVAILABLE', {
        message: problem.motivo ? `the bank could not answer (${problem.motivo})` : 'the bank did not answer in time; retry later',
      });
    case 'dependency_down':
      throw new DependencyDown(problem.cause);
  }
}

export function accountRoutes(
  app: FastifyInstance,
  deps: { routing: RoutingTable; replies: Replies; readTimeoutMs: number; store: GatewayStore; sandboxBanks?: readonly BancoId[] },
): AccountReads {
  // Handlers read `request.body`, `query` and `params` as their route's schema types them.
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  routes.get(
    '/switch/v1/bancos',
    {
      schema: {
        operationId: 'listarBancos',
        tags: ['bancos'],
        summary: 'Enabled banks of the key mode',
        description:
          'Moves no money; usable to check a key. In test mode, a bank whose test route answers through its emulator ' +
          '(`npm start`, `npm run stack`, the test deployment) also lists `sandbox`: the cents of `monto.valor` that ' +
          'provoke each outcome when the request names that bank in `banco_preferido` (docs/sandbox.md).',
        security,
        response: { 200: Type.Array(BancoCatalogo), ...errorResponses(400, 401, 429, 503) },
      },
    },
    async (request) => {
      const entries = catalogue(deps.routing, request.caller.mode);
      if (request.caller.mode !== 'test') return entries;
      return entries.map((e) => {
        const sandbox = sandboxFor(e.banco, deps.sandboxBanks ?? []);
        return sandbox ? { ...e, sandbox } : e;
      });
    },
  );

  const reads = accountReads({ routing: deps.routing, store: deps.store, client: deps.replies.reads, readTimeoutMs: deps.readTimeoutMs });

  routes.get(
    '/switch/v1/saldo',
    {
      schema: {
        operationId: 'consultarSaldo',
        tags: ['cuentas'],
        summary: 'Balance of a collecting account',
        description: 'Read-only, both modes. In test mode the figures come from the bank test environment or the simulated bank.',
        security,
        querystring: SaldoHttpQuery,
        response: { 200: Saldo, ...errorResponses(400, 401, 404, 422, 429, 503) },
      },
    },
    async (request) => answer(await reads.saldo(request.caller, request.query.cuenta)),
  );

  routes.get(
    '/switch/v1/movimientos',
    {
      schema: {
        operationId: 'listarMovimientos',
        tags: ['cuentas'],
        summary: 'Statement of an account, for reconciliation',
        description: `Movements from \`desde\` to \`hasta\` (default today), oldest first, at most ${MAX_STATEMENT_DAYS} days per request, paged by \`limite\` and \`cursor\` (follow \`siguiente\` until null). A statement lists only the caller's own movements in every mode: in test mode, those of the caller's own operations (a page may then hold fewer than \`limite\`).`,
        security,
        querystring: MovimientosHttpQuery,
        response: { 200: Movimientos, ...errorResponses(400, 401, 404, 422, 429, 503) },
      },
    },
    async (request) => {
      const q = request.query;
      return answer(
        await reads.movimientos(request.caller, {
          cuenta: q.cuenta,
          desde: q.desde,
          ...(q.hasta ? { hasta: q.hasta } : {}),
          ...(q.limite ? { limite: Number(q.limite) } : {}),
          ...(q.cursor ? { cursor: q.cursor } : {}),
        }),
      );
    },
  );
  return reads;
}
