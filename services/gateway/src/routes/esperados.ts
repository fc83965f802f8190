import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { httpForm, REPLAYED_HEADER } from '@switch/core/contracts/operaciones';
import { CobroEsperado, CobroEsperadoRequest, CobrosEsperadosPage, CobrosEsperadosQuery } from '@switch/core/contracts/esperados';
import {
  createExpectedPayment,
  DEFAULT_EXPIRY_HOURS,
  findOwnExpected,
  listExpected,
  MAX_EXPIRY_DAYS,
  toCobroEsperado,
} from '@switch/usecases/expected-payments';
import { EXAMPLE_EXPECTED_ID, exampleExpected } from '../sandbox';
import type { GatewayStore } from '../ports';
import { HttpProblem, errorResponses } from '@switch/core/contracts/errors';

const security = [{ switchKey: [] }];
const tags = ['cobros esperados'];

/** Expected payments (issue 31 item 3): create one, read one, list them; the matcher moves their state. */
export function expectedPaymentRoutes(app: FastifyInstance, deps: { store: GatewayStore }): void {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  routes.post(
    '/switch/v1/cobros/esperados',
    {
      schema: {
        operationId: 'crearCobroEsperado',
        tags,
        summary: 'Await a pago móvil from a payer',
        description: `Answers \`instrucciones\` to show the payer (the merchant's phone, bank, account, RIF, the exact amount and the concept to write, code first) and an id. The switch reads the receiving account's new credits in the background and moves \`estado\` from ESPERADO to RECIBIDO, PAGO_PARCIAL (still open for the rest), SOBREPAGO or VENCIDO, each change announced by a signed webhook (\`cobro_esperado.*\`). A credit pays the payment whose code its concept carries; without the code, only the exact amount of the oldest waiting payment of that account. Each credit pays one order only: one a verification (\`/cobros/verificar\`) claimed is never counted here. \`cobrador\`: live, a registered account of the caller or the phone of one (else 422 ACCOUNT_NOT_REGISTERED); test, the account (tipo cuenta). \`vence_en\`: in the future, at most ${MAX_EXPIRY_DAYS} days ahead (default ${DEFAULT_EXPIRY_HOURS} hours after creation). The same \`idempotency_key\` with the same body answers the same payment (header \`x-idempotent-replayed\`); with another body, 409 IDEMPOTENCY_CONFLICT.`,
        security,
        body: httpForm(CobroEsperadoRequest),
        response: { 200: CobroEsperado, ...errorResponses(400, 401, 409, 413, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const result = await createExpectedPayment(deps.store, request.caller, request.body, new Date());
      if (!result.ok) {
        const problem = result.problem;
        if (problem.kind === 'invalid') throw new HttpProblem('VALIDATION', { detail: problem.detail });
        if (problem.kind === 'not_registered')
          throw new HttpProblem('ACCOUNT_NOT_REGISTERED', {
            message: 'cobrador is not one of your registered accounts (or the phone of one) in live mode',
            detail: { cobrador: 'is not one of your registered accounts' },
          });
        throw new HttpProblem('IDEMPOTENCY_CONFLICT', { message: 'the idempotency_key was used with a different body; use a new key' });
      }
      if (!result.created) reply.header(REPLAYED_HEADER, 'true');
      return result.value;
    },
  );

  routes.get(
    '/switch/v1/cobros/esperados',
    {
      schema: {
        operationId: 'listarCobrosEsperados',
        tags,
        summary: 'List expected payments',
        description:
          "Newest first, of the key's merchant and mode only, optionally of one `estado`. Pass `siguiente` as `cursor` for the next page.",
        security,
        querystring: CobrosEsperadosQuery,
        response: { 200: CobrosEsperadosPage, ...errorResponses(400, 401, 429, 503) },
      },
    },
    async (request) => {
      const page = await listExpected(deps.store, request.caller, request.query);
      if ('field' in page) throw new HttpProblem('VALIDATION', { detail: { [page.field]: page.message } });
      return page;
    },
  );

  routes.get(
    '/switch/v1/cobros/esperados/:id',
    {
      schema: {
        operationId: 'detalleCobroEsperado',
        tags,
        summary: 'One expected payment',
        description: `Its state, what was received, the credits that paid it and every change with its reason. Another merchant or mode: 404. In test mode, \`${EXAMPLE_EXPECTED_ID}\` is the sandbox example, paid in full.`,
        security,
        params: Type.Object({ id: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,64}$' }) }),
        response: { 200: CobroEsperado, ...errorResponses(400, 401, 404, 429, 503) },
      },
    },
    async (request) => {
      const example = exampleExpected(request.caller.mode, request.params.id);
      if (example) return example;
      const p = await findOwnExpected(deps.store, request.caller, request.params.id);
      if (!p) throw new HttpProblem('NOT_FOUND', { message: `no expected payment ${request.params.id}` });
      return toCobroEsperado(p);
    },
  );
}
