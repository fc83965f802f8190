import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formOf, PageQuery, PathParams } from '../fields';
import {
  createPasswordReset,
  EMAIL_PATTERN,
  inviteOnce,
  inviteRefusal,
  normaliseEmail,
  pendingInvites,
  revokeInvites,
} from '@switch/usecases/panel-access';
import { PANEL_ROLES, type AuditFilter, type PanelRole } from '@switch/platform/ports/panel-access';
import type { PanelContext } from '../context';

/** Team (owners invite) and the audit log. */

const AUDIT_PAGE = 50;
/** The actions the audit log records (its filter offers these). */
const AUDIT_ACTIONS = [
  'login',
  'login.failed',
  'logout',
  'user.invite',
  'user.invite_resent',
  'user.invite_revoked',
  'user.join',
  'user.role',
  'user.enable',
  'user.disable',
  'user.password',
  'user.password_failed',
  'user.reset_link',
  'user.password_reset',
  'key.create',
  'key.revoke',
  'endpoint.create',
  'endpoint.events',
  'endpoint.enable',
  'endpoint.disable',
  'endpoint.rotate',
  'endpoint.test',
  'endpoint.delete',
  'delivery.redeliver',
] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A Venezuelan calendar day (UTC−4) starts at 04:00 UTC. */
const dayStart = (day: string, plusDays = 0) => new Date(Date.parse(`${day}T04:00:00.000Z`) + plusDays * 86_400_000).toISOString();

/** The audit log's filters from the query: values that are not one of ours are dropped. */
function auditFilterOf(query: Record<string, unknown>): { filter: AuditFilter; shown: Record<string, string> } {
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string).trim() : '');
  const filter: AuditFilter = {};
  const shown: Record<string, string> = {};
  const accion = text('accion');
  if ((AUDIT_ACTIONS as readonly string[]).includes(accion)) filter.action = shown.accion = accion;
  const quien = text('quien').slice(0, 254);
  if (quien) filter.actor = shown.quien = quien;
  const desde = text('desde');
  if (DAY.test(desde) && !Number.isNaN(Date.parse(desde))) {
    filter.from = dayStart(desde);
    shown.desde = desde;
  }
  const hasta = text('hasta');
  if (DAY.test(hasta) && !Number.isNaN(Date.parse(hasta))) {
    filter.to = dayStart(hasta, 1);
    shown.hasta = hasta;
  }
  const antes = /^([0-9T:.Z-]{20,30})\|(aud_[A-Za-z0-9]{1,40})$/.exec(text('antes'));
  if (antes) filter.before = { at: antes[1]!, id: antes[2]! };
  return { filter, shown };
}

export function teamRoutes(app: FastifyInstance, ctx: PanelContext): void {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = ctx;
  const emailPattern = new RegExp(EMAIL_PATTERN);

  const teamPage = async (merchantId: string) => ({
    users: (await store.panelUsers.listForMerchant(merchantId)).map(({ passwordHash: _h, ...u }) => u),
    // Who was invited, with which role, when it expires: never the link (its token is stored hashed).
    invites: (await pendingInvites(store, merchantId)).map((i) => ({
      email: i.email,
      role: i.role,
      createdAt: i.createdAt,
      expiresAt: i.expiresAt,
      expired: i.expiresAt <= new Date().toISOString(),
    })),
    roles: PANEL_ROLES,
  });

  app.get('/equipo', async (request, reply) => ctx.page(request, reply, 'team', await teamPage(request.panelUser!.merchantId)));

  /** Invites, or re-sends a pending invitation (a new link replaces the old one): the link is shown once. */
  const invite = async (request: FastifyRequest, reply: FastifyReply, email: string, role: PanelRole) => {
    const merchantId = request.panelUser!.merchantId;
    const { token, resent } = await inviteOnce(store, { merchantId, email, role, invitedBy: request.panelUser!.id });
    await ctx.audit(request, resent ? 'user.invite_resent' : 'user.invite', email, { role });
    return ctx.done(request, reply, '/equipo', {
      notice: resent ? 'team.resent' : 'team.invited',
      vars: { email },
      secret: { kind: 'invite', value: ctx.link(request, `/invitacion/${token}`) },
    });
  };

  app.post('/equipo/invitar', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'team'))) return reply;
    const body = formOf(request);
    const email = typeof body.email === 'string' ? normaliseEmail(body.email.slice(0, 254)) : '';
    const role = (PANEL_ROLES as readonly unknown[]).includes(body.role) ? (body.role as PanelRole) : null;
    const merchantId = request.panelUser!.merchantId;
    const again = async (extra: Record<string, unknown>, status: number) =>
      ctx.page(request, reply, 'team', { ...(await teamPage(merchantId)), email, ...extra }, status);
    if (!emailPattern.test(email) || !role) return again({ error: 'team.bad_email' }, 400);
    // Only this team's own members are refused; an account at another merchant is answered as a new
    // address is (docs/decisions/0030-panel-accounts.md).
    const refusal = await inviteRefusal(store, merchantId, email);
    if (refusal) return again({ error: refusal === 'member' ? 'team.exists' : 'team.deactivated' }, 409);
    return invite(request, reply, email, role);
  });

  /** A pending invitation's own form: `email` names it (one pending invitation per address). */
  const pendingOf = async (request: FastifyRequest) => {
    const body = formOf(request);
    const email = typeof body.email === 'string' ? normaliseEmail(body.email.slice(0, 254)) : '';
    const merchantId = request.panelUser!.merchantId;
    return (await pendingInvites(store, merchantId)).find((i) => i.email === email) ?? null;
  };

  app.post('/equipo/invitaciones/reenviar', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'team'))) return reply;
    const pending = await pendingOf(request);
    if (!pending) return reply.callNotFound();
    // The address may have joined or been deactivated since: the invite form's rule applies again.
    const refusal = await inviteRefusal(store, pending.merchantId, pending.email);
    if (refusal) {
      await revokeInvites(store, pending.merchantId, pending.email);
      return ctx.done(request, reply, '/equipo', { notice: refusal === 'member' ? 'team.exists' : 'team.deactivated' });
    }
    return invite(request, reply, pending.email, pending.role);
  });

  app.post('/equipo/invitaciones/revocar', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'team'))) return reply;
    const pending = await pendingOf(request);
    if (!pending) return reply.callNotFound();
    await revokeInvites(store, pending.merchantId, pending.email);
    await ctx.audit(request, 'user.invite_revoked', pending.email);
    return ctx.done(request, reply, '/equipo', { notice: 'team.invite_revoked', vars: { email: pending.email } });
  });

  // A one-time link for a teammate to set a new password (they forgot it, or it may be known).
  routes.post('/equipo/:id/restablecer', { schema: { params: PathParams('id') } }, async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'team'))) return reply;
    const user = await teammate(request, request.params.id);
    if (!user?.active) return reply.callNotFound();
    const { token } = await createPasswordReset(store, { email: user.id, issuedBy: request.panelUser!.id });
    await ctx.audit(request, 'user.reset_link', user.id);
    return ctx.done(request, reply, '/equipo', {
      notice: 'team.reset_issued',
      vars: { email: user.id },
      secret: { kind: 'reset', value: ctx.link(request, `/restablecer/${token}`) },
    });
  });

  /** A teammate of the owner's merchant (never the owner themself: nobody locks themself out), or null. */
  const teammate = async (request: FastifyRequest, id: string) => {
    const user = await store.panelUsers.get(id);
    return user && user.merchantId === request.panelUser!.merchantId && user.id !== request.panelUser!.id ? user : null;
  };

  routes.post('/equipo/:id/rol', { schema: { params: PathParams('id') } }, async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'team'))) return reply;
    const user = await teammate(request, request.params.id);
    const role = formOf(request).role;
    if (!user) return reply.callNotFound();
    if (!(PANEL_ROLES as readonly unknown[]).includes(role)) return reply.code(400).send();
    await store.panelUsers.update(user.id, { role: role as PanelRole });
    await ctx.audit(request, 'user.role', user.id, { role: role as string });
    return ctx.done(request, reply, '/equipo', { notice: 'team.role_saved', vars: { email: user.id } });
  });

  routes.post('/equipo/:id/activo', { schema: { params: PathParams('id') } }, async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'team'))) return reply;
    const user = await teammate(request, request.params.id);
    if (!user) return reply.callNotFound();
    const active = formOf(request).activo === 'true';
    // A deactivated user is signed out at their next request (the panel reloads the user every time).
    await store.panelUsers.update(user.id, { active });
    await ctx.audit(request, active ? 'user.enable' : 'user.disable', user.id);
    return ctx.done(request, reply, '/equipo', { notice: active ? 'team.enabled' : 'team.disabled_notice', vars: { email: user.id } });
  });

  routes.get('/auditoria', { schema: { querystring: PageQuery } }, async (request, reply) => {
    const merchantId = request.panelUser!.merchantId;
    const { filter, shown } = auditFilterOf(request.query);
    const rows = await store.audit.listForMerchant(merchantId, AUDIT_PAGE + 1, filter);
    const last = rows.length > AUDIT_PAGE ? rows[AUDIT_PAGE - 1] : undefined;
    const people = (await store.panelUsers.listForMerchant(merchantId)).map((u) => u.id);
    return ctx.page(request, reply, 'audit', {
      entries: rows.slice(0, AUDIT_PAGE),
      filters: shown,
      actions: AUDIT_ACTIONS,
      people: [...people, 'operator'],
      next: last ? new URLSearchParams({ ...shown, antes: `${last.at}|${last.id}` }).toString() : null,
      paged: filter.before !== undefined,
      firstPage: new URLSearchParams(shown).toString(),
    });
  });
}
