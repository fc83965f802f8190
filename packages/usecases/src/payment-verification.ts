import { createHash } from 'node:crypto';
import type { BancoId, CreditoRecibido } from '@switch/core/contracts/bancos';
import type { Verificacion, VerificarBody } from '@switch/core/contracts/verificacion';
import type { PagoMovilEntrante, PagoMovilEntranteBody } from '@switch/core/contracts/sandbox-pago-movil';
import { fingerprint } from '@switch/core/contracts/operaciones';
import type { MotivoRechazo } from '@switch/core/estados';
import { daysToRead, matchPayment, retryAfter } from '@switch/core/pago-movil';
import { type AccountReadProblem, type AccountReads, type ReadCaller, venezuelanToday } from '@switch/platform/runtime/account-reads';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';
import { movementClaimId, type MovementClaim, type MovementClaims } from '@switch/platform/ports/movement-claims';
import type { Verifications } from '@switch/platform/ports/verifications';

/**
 * `POST /switch/v1/cobros/verificar`, for the merchant API, its tool server and the panel's cashier
 * form: is the pago móvil a payer says they sent in the merchant's account, and is it still free?
 * A found movement is claimed for this verification (each movement pays once); a final answer is
 * kept under the request's idempotency key, so a repeat gets it again. Outcomes are values: the edge
 * renders a problem as its HTTP answer or its form message.
 */

export type VerificationStore = MovementClaims & Verifications & Pick<MerchantDirectory, 'accounts'>;

export interface VerificationDeps {
  reads: Pick<AccountReads, 'creditos'>;
  store: VerificationStore;
  now?: () => Date;
}

export type VerificationProblem =
  | { kind: 'invalid'; detail: Record<string, string> }
  /** The same key with another body. */
  | { kind: 'conflict' }
  /** Live: `cobrador` is not one of the caller's registered accounts (nothing was asked). */
  | { kind: 'not_registered'; field: 'cobrador' }
  | { kind: 'no_bank'; message: string }
  | { kind: 'dependency_down'; cause: string };

/** `replayed`: the answer kept under the key, not a new read of the bank. */
export type VerificationResult = { ok: true; value: Verificacion; replayed?: true } | { ok: false; problem: VerificationProblem };

/**
 * The test-mode account behind a pago móvil phone at a bank: test accounts are not registered, so
 * the sandbox and the verification both book a phone's payments on this one account number.
 */
export const testAccountOfPhone = (banco: string, telefono: string): string => `${banco}00000${telefono}`;

const fail = (problem: VerificationProblem): VerificationResult => ({ ok: false, problem });

/**
 * Test mode: make a payer's pago móvil arrive (`POST /sandbox/pago-movil-entrante`, the panel's
 * button), as the process that runs the sandbox's banks does it.
 */
export type SandboxBooking = (
  caller: ReadCaller,
  body: PagoMovilEntranteBody,
) => Promise<
  | { ok: true; value: PagoMovilEntrante }
  | { ok: false; problem: { kind: 'invalid'; detail: Record<string, string> } | { kind: 'unavailable' } }
>;

/** The verification's id: one per idempotency scope, so concurrent repeats of one request are one verifier. */
const verificationId = (scope: string) => `ver_${createHash('sha256').update(scope).digest('hex').slice(0, 24)}`;

function checkRequest(body: VerificarBody, today: string): Record<string, string> {
  const detail: Record<string, string> = {};
  if (!body.telefono_pagador && !body.identificacion_pagador)
    detail.telefono_pagador = 'telefono_pagador or identificacion_pagador is required';
  if (body.fecha > today) detail.fecha = 'must not be in the future (Caracas time)';
  if (body.cobrador.tipo === 'cuenta' && body.cobrador.valor.slice(0, 4) !== body.cobrador.banco)
    detail['cobrador.banco'] = 'is not the bank of cobrador.valor (its first 4 digits)';
  return detail;
}

/** The account the payment went to: the account itself, or the one behind the merchant's phone. */
async function receivingAccount(
  deps: VerificationDeps,
  caller: ReadCaller,
  cobrador: VerificarBody['cobrador'],
): Promise<{ ok: true; cuenta: string } | { ok: false; problem: VerificationProblem }> {
  if (cobrador.tipo === 'cuenta') return { ok: true, cuenta: cobrador.valor };
  if (caller.mode !== 'live') return { ok: true, cuenta: testAccountOfPhone(cobrador.banco, cobrador.valor) };
  try {
    const own = await deps.store.accounts.list(caller.merchantId, 'live');
    const account = own.find((a) => a.telefono === cobrador.valor && a.cuenta.startsWith(cobrador.banco));
    return account ? { ok: true, cuenta: account.cuenta } : { ok: false, problem: { kind: 'not_registered', field: 'cobrador' } };
  } catch (error) {
    return { ok: false, problem: { kind: 'dependency_down', cause: String(error) } };
  }
}

/** An account read's problem: the caller's to fix (a problem), or the bank's (a RECHAZADA answer). */
function readProblem(problem: AccountReadProblem): { problem: VerificationProblem } | { motivo: MotivoRechazo } {
  switch (problem.kind) {
    case 'invalid':
      return { problem: { kind: 'invalid', detail: problem.detail } };
    case 'not_registered':
      return { problem: { kind: 'not_registered', field: 'cobrador' } };
    case 'no_bank':
      return { problem: { kind: 'no_bank', message: problem.message } };
    case 'dependency_down':
      return { problem: { kind: 'dependency_down', cause: problem.cause } };
    case 'unknown_account':
      return { motivo: 'CUENTA_NO_EXISTE' };
    case 'refused':
      return { motivo: problem.motivo };
    case 'bank_unavailable':
      return { motivo: problem.motivo === 'RECHAZO_TECNICO' ? 'RECHAZO_TECNICO' : 'BANCO_NO_DISPONIBLE' };
  }
}

export async function verifyPayment(deps: VerificationDeps, caller: ReadCaller, body: VerificarBody): Promise<VerificationResult> {
  const now = (deps.now ?? (() => new Date()))();
  const today = venezuelanToday(now.getTime());
  const detail = checkRequest(body, today);
  if (Object.keys(detail).length) return fail({ kind: 'invalid', detail });

  const scope = `${caller.merchantId}|${caller.mode}|verificar|${body.idempotency_key}`;
  const print = fingerprint(body);
  const id = verificationId(scope);
  try {
    const kept = await deps.store.verifications.get(scope);
    if (kept) return kept.fingerprint === print ? { ok: true, value: kept.answer, replayed: true } : fail({ kind: 'conflict' });
  } catch (error) {
    return fail({ kind: 'dependency_down', cause: String(error) });
  }

  const account = await receivingAccount(deps, caller, body.cobrador);
  if (!account.ok) return account;
  const base: Verificacion = {
    id,
    estado: 'NO_ENCONTRADO',
    banco: null,
    monto_declarado: body.monto.valor,
    monto_recibido: null,
    movimiento: null,
    reintentar_despues: null,
    reclamado_por: null,
    motivo_rechazo: null,
    verificado_en: now.toISOString(),
  };

  // The day the payer saw first; its bank tells which later days it may have booked the payment on.
  const credits: CreditoRecibido[] = [];
  let banco: BancoId | null = null;
  for (let days = [body.fecha], i = 0; i < days.length; i++) {
    const r = await deps.reads.creditos(caller, { cuenta: account.cuenta, fecha: days[i]!, referencia: body.referencia });
    if (!r.ok) {
      const p = readProblem(r.problem);
      if ('problem' in p) return fail(p.problem);
      return { ok: true, value: { ...base, banco, estado: 'RECHAZADA', motivo_rechazo: p.motivo } };
    }
    credits.push(...r.value.creditos);
    if (banco === null) {
      banco = r.value.banco;
      days = daysToRead(banco, body.fecha, today);
    }
  }
  const bank = banco!;
  const pago = {
    monto: body.monto.valor,
    banco_pagador: body.banco_pagador,
    referencia: body.referencia,
    fecha: body.fecha,
    ...(body.telefono_pagador ? { telefono_pagador: body.telefono_pagador } : {}),
    ...(body.identificacion_pagador ? { identificacion_pagador: body.identificacion_pagador } : {}),
  };
  const match = matchPayment(bank, pago, credits);
  const seen = (c: CreditoRecibido) => ({ referencia: c.referencia, fecha: c.fecha, hora: c.hora, monto: c.monto });

  let answer: Verificacion;
  if (match.kind === 'not_found') {
    // Not kept: asking again with the same key asks the bank again.
    return { ok: true, value: { ...base, banco: bank, reintentar_despues: retryAfter(bank, body.fecha, today, now) } };
  }
  if (match.kind === 'other_amount') {
    answer = { ...base, banco: bank, estado: 'MONTO_DISTINTO', monto_recibido: match.credit.monto, movimiento: seen(match.credit) };
  } else {
    answer = { ...base, banco: bank, estado: 'YA_RECLAMADO' };
    let holder: MovementClaim | null = null;
    try {
      for (const credit of match.credits) {
        const movement = { banco: bank, cuenta: account.cuenta, referencia: credit.referencia, fecha: credit.fecha, monto: credit.monto };
        const claim: MovementClaim = {
          id: movementClaimId(caller.mode, caller.merchantId, movement),
          mode: caller.mode,
          merchantId: caller.merchantId,
          movement,
          claimant: { kind: 'verificacion', id },
          createdAt: now.toISOString(),
        };
        const r = await deps.store.movementClaims.claim(claim);
        // A concurrent repeat of this very request may have claimed it first: still this verification's.
        if (r.claimed || (r.existing.claimant.kind === 'verificacion' && r.existing.claimant.id === id)) {
          answer = { ...base, banco: bank, estado: 'VERIFICADO', monto_recibido: credit.monto, movimiento: seen(credit) };
          holder = null;
          break;
        }
        holder ??= r.existing;
        answer.monto_recibido = credit.monto;
        answer.movimiento = seen(credit);
      }
    } catch (error) {
      return fail({ kind: 'dependency_down', cause: String(error) });
    }
    // Another merchant's claim is never named (an account that changed hands in live mode).
    if (holder && holder.merchantId === caller.merchantId) answer.reclamado_por = { tipo: holder.claimant.kind, id: holder.claimant.id };
  }

  try {
    const saved = await deps.store.verifications.save({
      scope,
      merchantId: caller.merchantId,
      mode: caller.mode,
      fingerprint: print,
      answer,
      createdAt: now.toISOString(),
    });
    if (!saved.saved)
      return saved.existing.fingerprint === print ? { ok: true, value: saved.existing.answer, replayed: true } : fail({ kind: 'conflict' });
  } catch (error) {
    return fail({ kind: 'dependency_down', cause: String(error) });
  }
  return { ok: true, value: answer };
}
