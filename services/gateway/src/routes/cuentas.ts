import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import {
  bankForAccount,
  BancoCatalogo,
  catalogue,
  CODIGO_BCV,
  Movimientos,
  NumeroCuenta,
  Saldo,
  type BancoId,
  type MovimientosQuery,
  sandboxFor,
  type RoutingTable,
  type Store,
} from '@switch/shared';
import { DependencyDown, HttpProblem } from '../errors';
import type { Replies } from '../reply';
import { errorResponses } from './responses';

const security = [{ switchKey: [] }];
const Fecha = Type.String({ format: 'date', description: 'YYYY-MM-DD (Venezuelan calendar day)' });
/** Longest statement window one request may ask for (BNC's HistoryByDate limit). */
export const MAX_STATEMENT_DAYS = 31;
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

/** Balance and statement reads for an authenticated caller (a bank answers over the bus). */
export interface AccountReads {
  saldo(caller: { merchantId: string; mode: 'test' | 'live' }, cuenta: string): Promise<Saldo>;
  movimientos(caller: { merchantId: string; mode: 'test' | 'live' }, q: MovimientosParams): Promise<Movimientos>;
}

export function accountRoutes(
  app: FastifyInstance,
  deps: { routing: RoutingTable; replies: Replies; readTimeoutMs: number; store: Store; sandboxBanks?: readonly BancoId[] },
): AccountReads {
  app.get(
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

  /**
   * Live: only the caller's own registered account may be read, at the bank that holds it
   * (422 ACCOUNT_NOT_REGISTERED otherwise, nothing sent). Test mode checks no register (SPEC 4.10.4):
   * the simulated bank keeps one ledger per merchant instead.
   */
  const bankOfOwn = async (
    caller: { merchantId: string; mode: 'test' | 'live' },
    cuenta: string,
    capability: 'saldo' | 'movimientos',
  ): Promise<BancoId> => {
    if (caller.mode !== 'live') return bankFor(caller.mode, cuenta, capability);
    const account = await deps.store.accounts.find('live', cuenta).catch((e: unknown) => {
      throw new DependencyDown(String(e));
    });
    if (!account || account.merchantId !== caller.merchantId) {
      throw new HttpProblem(422, {
        error: 'ACCOUNT_NOT_REGISTERED',
        message: 'cuenta is not one of your registered accounts in live mode (register it with the operator: account add)',
        detail: { cuenta: 'is not one of your registered accounts' },
      });
    }
    const able = deps.routing.live.some((b) => b.banco === account.banco && b.capabilities.includes(capability));
    if (!able)
      throw new HttpProblem(422, {
        error: 'BANCO_NO_DISPONIBLE',
        message: `bank ${account.banco} of that account does not serve ${capability} in live mode`,
      });
    return account.banco;
  };

  const bankFor = (mode: 'test' | 'live', cuenta: string, capability: 'saldo' | 'movimientos'): BancoId => {
    // In test mode the simulated bank answers for accounts of banks without an enabled test route.
    const banco = bankForAccount(deps.routing, mode, cuenta, capability, (b) => CODIGO_BCV[b], mode === 'test' ? 'bnc' : undefined);
    if (!banco) {
      throw new HttpProblem(422, {
        error: 'BANCO_NO_DISPONIBLE',
        message: `no enabled bank serves ${capability} for accounts of bank ${cuenta.slice(0, 4)} in ${mode} mode`,
      });
    }
    return banco;
  };

  const readReply = async <T>(promise: Promise<unknown>): Promise<T> => {
    const reply = (await promise.catch((e: unknown) => {
      throw new DependencyDown(String(e));
    })) as { result: ({ ok: true } & Record<string, unknown>) | { ok: false; motivo: string; raw: Record<string, unknown> } } | null;
    if (!reply) throw new HttpProblem(503, { error: 'SERVICE_UNAVAILABLE', message: 'the bank did not answer in time; retry later' });
    const result = reply.result;
    if (!result.ok) {
      // A connector names the query field it could not use (e.g. a cursor it never gave): a client error.
      const field = result.raw.field;
      if (typeof field === 'string')
        throw new HttpProblem(400, { error: 'VALIDATION', detail: { [field]: String(result.raw.descripcion ?? 'is invalid') } });
      if (result.motivo === 'CUENTA_NO_EXISTE')
        throw new HttpProblem(404, { error: 'NOT_FOUND', message: 'the bank does not know that account' });
      if (result.motivo === 'BANCO_NO_DISPONIBLE' || result.motivo === 'RECHAZO_TECNICO') {
        throw new HttpProblem(503, { error: 'SERVICE_UNAVAILABLE', message: `the bank could not answer (${result.motivo})` });
      }
      throw new HttpProblem(422, { error: result.motivo, message: 'the bank refused the query' });
    }
    return result as T;
  };

  /** What the two routes do, for a caller: also the merchant panel's balances page in the embedded switch. */
  const reads: AccountReads = {
    saldo: async (caller, cuenta) => {
      const banco = await bankOfOwn(caller, cuenta, 'saldo');
      const r = await readReply<{ saldo: Saldo }>(
        deps.replies.read(
          banco,
          { op: 'saldo', mode: caller.mode, query: { cuenta, moneda: 'VES' }, merchantId: caller.merchantId },
          deps.readTimeoutMs,
        ),
      );
      return r.saldo;
    },
    movimientos: async (caller, q) => {
      const today = new Date(Date.now() - 4 * 3600_000).toISOString().slice(0, 10);
      const hasta = q.hasta ?? today;
      const detail: Record<string, string> = {};
      if (q.desde > today) detail.desde = 'must not be in the future';
      if (q.hasta && q.hasta < q.desde) detail.hasta = 'must not be before desde';
      else if ((Date.parse(hasta) - Date.parse(q.desde)) / 86_400_000 >= MAX_STATEMENT_DAYS) {
        detail.hasta = `the window may span at most ${MAX_STATEMENT_DAYS} days`;
      }
      if (Object.keys(detail).length) throw new HttpProblem(400, { error: 'VALIDATION', detail });
      const query: MovimientosQuery = { cuenta: q.cuenta, desde: q.desde, hasta, limite: q.limite ? Number(q.limite) : 100 };
      if (q.cursor) query.cursor = q.cursor;
      const banco = await bankOfOwn(caller, q.cuenta, 'movimientos');
      const r = await readReply<{ movimientos: Movimientos }>(
        deps.replies.read(banco, { op: 'movimientos', mode: caller.mode, query, merchantId: caller.merchantId }, deps.readTimeoutMs),
      );
      return r.movimientos;
    },
  };

  app.get(
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
    async (request) => reads.saldo(request.caller, (request.query as { cuenta: string; moneda?: 'VES' }).cuenta),
  );

  app.get(
    '/switch/v1/movimientos',
    {
      schema: {
        operationId: 'listarMovimientos',
        tags: ['cuentas'],
        summary: 'Statement of an account, for reconciliation',
        description: `Movements from \`desde\` to \`hasta\` (default today), oldest first, at most ${MAX_STATEMENT_DAYS} days per request, paged by \`limite\` and \`cursor\` (follow \`siguiente\` until null).`,
        security,
        querystring: MovimientosHttpQuery,
        response: { 200: Movimientos, ...errorResponses(400, 401, 404, 422, 429, 503) },
      },
    },
    async (request) => reads.movimientos(request.caller, request.query as MovimientosParams),
  );
  return reads;
}
