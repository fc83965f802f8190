import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { VerificarBody } from '@switch/core/contracts/verificacion';
import { PagoMovilEntranteBody } from '@switch/core/contracts/sandbox-pago-movil';
import { validatorFor } from '@switch/core/contracts/validation';
import { venezuelanToday } from '@switch/platform/runtime/account-reads';
import { verifyPayment, type VerificationProblem } from '@switch/usecases/payment-verification';
import { formOf } from '../fields';
import { translate, type Lang } from '../i18n';
import type { PanelContext } from '../context';

type Form = Record<
  'monto' | 'banco_pagador' | 'telefono_pagador' | 'identificacion_pagador' | 'referencia' | 'fecha' | 'cuenta' | 'idempotency_key',
  string
>;

const field = (body: Readonly<Record<string, unknown>>, name: string) =>
  typeof body[name] === 'string' ? (body[name] as string).trim() : '';

/** The verify page, its form blank but for `form`, with an error when given. */
async function verifyPage(
  ctx: PanelContext,
  request: FastifyRequest,
  reply: FastifyReply,
  error?: string,
  status = 200,
  form: Partial<Form> = {},
) {
  const caller = ctx.caller(request);
  const accounts = await ctx.store.accounts.list(caller.merchantId, caller.mode);
  const filled: Form = {
    monto: '',
    banco_pagador: '',
    telefono_pagador: '',
    identificacion_pagador: '',
    referencia: '',
    fecha: venezuelanToday(),
    cuenta: accounts[0]?.cuenta ?? '',
    ...form,
    // A fresh key for each blank form; a form shown again with its error keeps its own.
    idempotency_key: form.idempotency_key || randomUUID(),
  };
  const sandbox = caller.mode === 'test' && !!ctx.sandbox;
  return ctx.page(
    request,
    reply,
    'verify',
    { form: filled, accounts, reads: !!ctx.accounts, sandbox, ...(error ? { error } : {}) },
    status,
  );
}

/**
 * A cashier's "verify a payment" form: the receipt the customer shows, checked against the bank with
 * the merchant API's own verification (`verifyPayment`: the same claims, rules and answers). Any
 * panel user may verify; the answer is shown once after the redirect (Post/Redirect/Get), and the
 * form carries its idempotency key, so a form sent twice is one verification.
 */
export function verifyPages(app: FastifyInstance, ctx: PanelContext): void {
  const page = (request: FastifyRequest, reply: FastifyReply, form: Partial<Form>, error?: string, status = 200) =>
    verifyPage(ctx, request, reply, error, status, form);

  app.get('/verificar', async (request, reply) => page(request, reply, {}));

  app.post('/verificar', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'read'))) return reply;
    const lang: Lang = request.session.lang ?? 'es';
    const raw = formOf(request);
    const form: Form = {
      monto: field(raw, 'monto'),
      banco_pagador: field(raw, 'banco_pagador'),
      telefono_pagador: field(raw, 'telefono_pagador'),
      identificacion_pagador: field(raw, 'identificacion_pagador').toUpperCase(),
      referencia: field(raw, 'referencia'),
      fecha: field(raw, 'fecha'),
      cuenta: field(raw, 'cuenta'),
      idempotency_key: field(raw, 'idempotency_key'),
    };
    if (!ctx.accounts) return page(request, reply, form, translate(lang, 'verify.unavailable'), 503);
    // Amounts as a cashier types them: `1.234,56` or `1234.56`.
    const amount = Number(/,/.test(form.monto) ? form.monto.replace(/\./g, '').replace(',', '.') : form.monto);
    const body = {
      idempotency_key: form.idempotency_key,
      monto: { valor: amount, moneda: 'VES' },
      banco_pagador: form.banco_pagador,
      ...(form.telefono_pagador ? { telefono_pagador: form.telefono_pagador } : {}),
      ...(form.identificacion_pagador ? { identificacion_pagador: form.identificacion_pagador } : {}),
      referencia: form.referencia,
      fecha: form.fecha,
      cobrador: { tipo: 'cuenta', valor: form.cuenta, banco: form.cuenta.slice(0, 4), identificacion: 'J000000000', nombre: 'Comercio' },
    };
    const check = validatorFor(VerificarBody);
    if (!check(body)) {
      const names = [...new Set((check.errors ?? []).map((e) => e.instancePath.split('/')[1] || 'monto'))];
      return page(
        request,
        reply,
        form,
        translate(lang, 'verify.invalid', {
          fields: names.map((n) => translate(lang, `verify.f.${n === 'cobrador' ? 'cuenta' : n}`)).join(', '),
        }),
        400,
      );
    }
    const r = await verifyPayment({ reads: ctx.accounts, store: ctx.store }, ctx.caller(request), body as VerificarBody);
    if (!r.ok) return page(request, reply, form, problemText(lang, r.problem), r.problem.kind === 'dependency_down' ? 503 : 400);
    const v = r.value;
    await ctx.audit(request, 'payment.verify', v.id, { estado: v.estado, referencia: form.referencia });
    return ctx.done(request, reply, '/verificar', {
      notice: `verify.result.${v.estado}`,
      vars: {
        id: v.id,
        monto: String(v.monto_declarado),
        recibido: v.monto_recibido === null ? '—' : String(v.monto_recibido),
        referencia: v.movimiento?.referencia ?? form.referencia,
        reintentar: v.reintentar_despues ?? '—',
        reclamado: v.reclamado_por ? `${v.reclamado_por.tipo} ${v.reclamado_por.id}` : '—',
        motivo: v.motivo_rechazo ?? '—',
      },
    });
  });
}

/**
 * Test mode: the sandbox's button, a payer's pago móvil made to arrive in an account (what
 * `POST /switch/v1/sandbox/pago-movil-entrante` does); the receipt is shown once after the redirect.
 */
export function sandboxButton(app: FastifyInstance, ctx: PanelContext): void {
  app.post('/verificar/simular', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'read'))) return reply;
    const caller = ctx.caller(request);
    if (caller.mode !== 'test' || !ctx.sandbox) return reply.callNotFound();
    const lang: Lang = request.session.lang ?? 'es';
    const raw = formOf(request);
    const cuenta = field(raw, 'cuenta');
    const monto = field(raw, 'monto');
    const hora = field(raw, 'hora');
    const body = {
      monto: { valor: Number(/,/.test(monto) ? monto.replace(/\./g, '').replace(',', '.') : monto), moneda: 'VES' as const },
      banco_pagador: field(raw, 'banco_pagador') || '0102',
      telefono_pagador: field(raw, 'telefono_pagador') || '04141234567',
      cobrador: { tipo: 'cuenta' as const, valor: cuenta, banco: cuenta.slice(0, 4), identificacion: 'J000000000', nombre: 'Comercio' },
      ...(hora ? { hora } : {}),
    };
    const check = validatorFor(PagoMovilEntranteBody);
    if (!check(body)) {
      const names = [...new Set((check.errors ?? []).map((e) => e.instancePath.split('/')[1] || 'monto'))];
      return verifyPage(
        ctx,
        request,
        reply,
        translate(lang, 'verify.invalid', {
          fields: names.map((n) => translate(lang, `verify.f.${n === 'cobrador' ? 'cuenta' : n}`)).join(', '),
        }),
        400,
      );
    }
    const r = await ctx.sandbox(caller, body);
    if (!r.ok) return verifyPage(ctx, request, reply, translate(lang, 'verify.unavailable'), 503);
    const v = r.value;
    return ctx.done(request, reply, '/verificar', {
      notice: 'verify.simulated',
      vars: { referencia: v.referencia, fecha: v.fecha, hora: v.hora, monto: String(v.monto), cuenta: v.cuenta },
    });
  });
}

function problemText(lang: Lang, problem: VerificationProblem): string {
  switch (problem.kind) {
    case 'invalid':
      return translate(lang, 'verify.invalid', { fields: Object.keys(problem.detail).join(', ') });
    case 'conflict':
      return translate(lang, 'verify.conflict');
    case 'not_registered':
      return translate(lang, 'verify.not_registered');
    case 'no_bank':
      return problem.message;
    case 'dependency_down':
      return translate(lang, 'verify.unavailable');
  }
}
