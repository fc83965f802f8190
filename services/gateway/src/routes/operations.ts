import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from '@sinclair/typebox';
import {
  CobrarBody,
  ConsultarBody,
  PagarBody,
  ReversoBody,
  TokenBody,
  httpForm,
  REPLAYED_HEADER,
  Resultado,
} from '@switch/core/contracts/operaciones';
import type { OperationRequest } from '@switch/core/operation';
import type { MoneyOperations } from '../operations';
import { errorResponses } from '@switch/core/contracts/errors';

const security = [{ switchKey: [] }];
const errors = errorResponses(400, 401, 409, 413, 415, 429, 503);
/** TOKEN_MISMATCH (cobrar), ACCOUNT_NOT_REGISTERED (live ordenante or cobrador). */
const refusedRequest = errorResponses(422);
const resultado = { ...Resultado, description: 'Read `estado` for the money outcome; HTTP 200 only says the switch answered' };

/** The money operations (SPEC 4.1–4.4, 4.8). */
export function operationRoutes(app: FastifyInstance, operations: MoneyOperations): void {
  // Handlers read `request.body`, `query` and `params` as their route's schema types them.
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const money = (
    path: string,
    kind: OperationRequest['kind'],
    operationId: string,
    body: object,
    summary: string,
    description: string,
    extra: object = {},
  ) =>
    routes.post(
      path,
      {
        schema: {
          operationId,
          tags: ['operaciones'],
          summary,
          description,
          security,
          // `concepto` and `nombre` as the HTTP edge takes them: no control nor invisible characters.
          body: httpForm(body as TSchema),
          response: { 200: resultado, ...errors, ...extra },
        },
      },
      async (request, reply) => {
        const { resultado, replayed } = await operations.run(request.caller, { kind, body: request.body } as OperationRequest);
        // The answer of an operation an earlier request created (SPEC 4.9): said, so a client can tell.
        if (replayed) reply.header(REPLAYED_HEADER, 'true');
        return resultado;
      },
    );

  money(
    '/switch/v1/cobrar/token',
    'token',
    'cobrarToken',
    TokenBody,
    'Request an OTP from the payer bank',
    'ACEPTADA means the OTP was requested and sent to the payer; it is valid about 120 s. Reuse the same idempotency_key in /cobrar, after this answer. A key a cobrar without token already took is refused with 409 IDEMPOTENCY_CONFLICT. In test mode the OTP is simulated and no message is sent. A token moves no money: it reserves nothing of the live daily limit or the per-payer velocity budget (its cobrar does, once).',
    refusedRequest,
  );
  money(
    '/switch/v1/cobrar',
    'cobrar',
    'cobrar',
    CobrarBody,
    'Collect from the payer with an OTP',
    'Immediate debit of the payer. LIQUIDADA and ACEPTADA both count as a successful collection; OTP_INVALIDO asks for a new token. Under the idempotency_key of a token, the cobrar must repeat its monto, cobrador and pagador (else 422 TOKEN_MISMATCH), and runs only once that token is recorded (else 409 TOKEN_EN_CURSO: retry with the same key). A cobrar without token (an OTP captured by the caller) takes its key: a token sent later under that key is refused with 409 IDEMPOTENCY_CONFLICT. Live: it goes to the bank of its token with your registered account there (none: RECHAZADA BANCO_NO_DISPONIBLE), and one collection counts once against the daily limit (EXCEDE_LIMITE) and the velocity budget.',
    refusedRequest,
  );
  money(
    '/switch/v1/pagar',
    'pagar',
    'pagar',
    PagarBody,
    'Pay a beneficiary',
    'credito_inmediato answers ACEPTADA and settles later (LIQUIDADA); pago_movil (phone destination only) settles at once. A cuenta destination always goes by credito_inmediato. Live: the payout goes only to a bank where you hold a registered account and leaves that account; if the bank provably never got it (outage), it moves to the next such bank (`intentos`, `banco_usado`), paid from your account there, and with none left it is RECHAZADA BANCO_NO_DISPONIBLE. It counts once against the daily limit (EXCEDE_LIMITE).',
    refusedRequest,
  );
  money(
    '/switch/v1/reverso',
    'reverso',
    'reverso',
    ReversoBody,
    'Reverse an operation',
    "Names the operation to reverse by `id`. On rails without cancellation it answers RECHAZADA with NO_SOPORTADO. An id of another merchant or mode is 404. An operation has at most one reverso: once one exists, another reverso of it with a new idempotency_key is refused with 409 REVERSO_EXISTENTE naming it in `reverso` (query that one; nothing is stored or sent), and a repeat with the same key answers the same reverso. A reverso refused before any bank saw it (RECHAZADA with `intentos` 0, or every bank answering it never got the order) frees the operation for a later reverso. The reversed operation's detail (/transacciones/{id}) names its reverso in `reverso`; the reverso's webhook carries `operacion: reverso`, `reverso_de` and the amount reversed.",
    errorResponses(404),
  );

  routes.post(
    '/switch/v1/consultar',
    {
      schema: {
        operationId: 'consultar',
        tags: ['operaciones'],
        summary: 'Query an operation',
        description: 'Current state; an operation still open at the bank is asked about first. Unknown id → 404.',
        security,
        body: ConsultarBody,
        response: { 200: resultado, ...errorResponses(400, 401, 404, 413, 415, 429, 503) },
      },
    },
    async (request) => operations.query(request.caller, request.body.id),
  );
}

export const SwitchKeySecurity = {
  switchKey: {
    type: 'apiKey' as const,
    in: 'header' as const,
    name: 'x-switch-key',
    description: '`<merchant>:<API_KEY>`; `sk_test_` keys run in test mode, `sk_live_` keys move real money',
  },
};
export const EmptyObject = Type.Object({});
