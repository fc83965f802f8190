import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CODIGO_BCV, type BancoId } from '@switch/core/contracts/bancos';
import { bankForAccount, type RoutingTable } from '@switch/core/routing';
import { Verificacion, VerificarBody } from '@switch/core/contracts/verificacion';
import { httpForm, REPLAYED_HEADER } from '@switch/core/contracts/operaciones';
import { PagoMovilEntrante, PagoMovilEntranteBody } from '@switch/core/contracts/sandbox-pago-movil';
import { sandboxConcept } from '@switch/core/pago-movil';
import type { IncomingPagoMovil, IncomingReceipt } from '@switch/connector-kit/emulator';
import { type AccountReads, venezuelanToday } from '@switch/platform/runtime/account-reads';
import { testAccountOfPhone, verifyPayment, type SandboxBooking, type VerificationStore } from '@switch/usecases/payment-verification';
import { DependencyDown, HttpProblem, errorResponses } from '@switch/core/contracts/errors';

const security = [{ switchKey: [] }];

/**
 * Where a test-mode pago móvil arrives: the emulated bank's books (or the simulated bank's, for
 * `bnc`) of the process that runs them; null when this process has no such bank.
 */
export type SandboxPayments = (
  merchantId: string,
  banco: BancoId,
  payment: IncomingPagoMovil,
) => IncomingReceipt | null | Promise<IncomingReceipt | null>;

/** From 23:30 Caracas on, the sandbox's banks book a pago móvil on the next day (the midnight case). */
export const LATE_BOOKING_FROM = '23:30';

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** The sandbox's booking of a test pago móvil (the route's and the panel button's). */
export function sandboxBooking(routing: RoutingTable, sandboxPayments: SandboxPayments | undefined): SandboxBooking {
  return async (caller, b) => {
    if (caller.mode !== 'test') return { ok: false, problem: { kind: 'unavailable' } };
    const now = new Date();
    const today = venezuelanToday(now.getTime());
    const fecha = b.fecha ?? today;
    if (fecha > today) return { ok: false, problem: { kind: 'invalid', detail: { fecha: 'must not be in the future (Caracas time)' } } };
    const hora = b.hora ?? new Date(now.getTime() - 4 * 3600_000).toISOString().slice(11, 16);
    const cuenta = b.cobrador.tipo === 'cuenta' ? b.cobrador.valor : testAccountOfPhone(b.cobrador.banco, b.cobrador.valor);
    const banco = bankForAccount(routing, 'test', cuenta, 'movimientos', (x) => CODIGO_BCV[x], 'bnc');
    const payment: IncomingPagoMovil = {
      cuenta,
      monto: b.monto.valor,
      bancoPagador: b.banco_pagador,
      telefonoPagador: b.telefono_pagador,
      at: new Date(`${fecha}T${hora}:00-04:00`),
      concepto: sandboxConcept(caller.merchantId),
      ...(b.identificacion_pagador ? { identificacionPagador: b.identificacion_pagador } : {}),
      ...(hora >= LATE_BOOKING_FROM ? { bookedOn: nextDay(fecha) } : {}),
    };
    const receipt = banco && sandboxPayments ? await sandboxPayments(caller.merchantId, banco, payment) : null;
    if (!banco || !receipt) return { ok: false, problem: { kind: 'unavailable' } };
    return {
      ok: true,
      value: {
        referencia: receipt.referencia,
        fecha: receipt.fecha,
        hora,
        monto: b.monto.valor,
        banco,
        cuenta,
        fecha_banco: receipt.fechaBanco,
      },
    };
  };
}

export function paymentRoutes(
  app: FastifyInstance,
  deps: { reads: AccountReads; store: VerificationStore; routing: RoutingTable; sandboxPayments?: SandboxPayments },
): void {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const book = sandboxBooking(deps.routing, deps.sandboxPayments);
  routes.post(
    '/switch/v1/cobros/verificar',
    {
      schema: {
        operationId: 'verificarPago',
        tags: ['cobros'],
        summary: 'Verify a pago móvil a payer says they sent',
        description:
          'Asks the receiving bank for the movement (by reference where the bank searches, else the statement of that day and the next: late-night payments are booked the next day) and answers `estado`. VERIFICADO claims the movement for this verification: each bank movement verifies one payment only, so the same receipt shown twice answers YA_RECLAMADO naming the holder. Repeat with the same idempotency_key to get the same answer (VERIFICADO, MONTO_DISTINTO and YA_RECLAMADO are kept; NO_ENCONTRADO and RECHAZADA ask the bank again); the same key with another body is 409 IDEMPOTENCY_CONFLICT. Live: `cobrador` must be one of your registered accounts (else 422 ACCOUNT_NOT_REGISTERED, nothing asked). Test: only the payments your sandbox made arrive (POST /sandbox/pago-movil-entrante). Matching rules per bank: docs/pago-movil.md.',
        security,
        body: httpForm(VerificarBody),
        response: { 200: Verificacion, ...errorResponses(400, 401, 409, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const r = await verifyPayment({ reads: deps.reads, store: deps.store }, request.caller, request.body);
      if (r.ok) {
        if (r.replayed) void reply.header(REPLAYED_HEADER, 'true');
        return r.value;
      }
      const p = r.problem;
      switch (p.kind) {
        case 'invalid':
          throw new HttpProblem('VALIDATION', { detail: p.detail });
        case 'conflict':
          throw new HttpProblem('IDEMPOTENCY_CONFLICT', { message: 'this idempotency_key was used with another request body' });
        case 'not_registered':
          throw new HttpProblem('ACCOUNT_NOT_REGISTERED', {
            message: 'cobrador is not one of your registered accounts in live mode',
            detail: { cobrador: 'is not one of your registered accounts' },
          });
        case 'no_bank':
          throw new HttpProblem('BANCO_NO_DISPONIBLE', { message: p.message });
        case 'dependency_down':
          throw new DependencyDown(p.cause);
      }
    },
  );

  routes.post(
    '/switch/v1/sandbox/pago-movil-entrante',
    {
      schema: {
        operationId: 'simularPagoMovilEntrante',
        tags: ['sandbox'],
        summary: "Test mode: make a payer's pago móvil arrive in your account",
        description: `Test keys only (a live key gets 404). The receiving bank of \`cobrador\` (its emulator, or the simulated bank) books the payment as that bank would and serves it through its own statement, so POST /cobros/verificar reads it exactly as in live. Answers what the payer's receipt shows (\`referencia\`, \`fecha\`, \`hora\`) and the bank's booking (\`fecha_banco\`: the next day for a payment from ${LATE_BOOKING_FROM} on). Try the tricky cases with it: verify with the last digits of \`referencia\` only, with another amount, the day after, or twice.`,
        security,
        body: httpForm(PagoMovilEntranteBody),
        response: { 200: PagoMovilEntrante, ...errorResponses(400, 401, 404, 429, 503) },
      },
    },
    async (request) => {
      if (request.caller.mode !== 'test') throw new HttpProblem('NOT_FOUND', { message: 'no such path for a live key' });
      const r = await book(request.caller, request.body);
      if (r.ok) return r.value;
      if (r.problem.kind === 'invalid') throw new HttpProblem('VALIDATION', { detail: r.problem.detail });
      throw new HttpProblem('SERVICE_UNAVAILABLE', {
        message: 'no sandbox bank in this deployment books incoming payments for that account',
      });
    },
  );
}
