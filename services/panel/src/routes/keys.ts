import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PathParams } from '../fields';
import { can, keyAction } from '@switch/usecases/panel-access';
import { issueKey } from '@switch/usecases/onboarding';
import type { PanelContext } from '../context';

/** API keys of the merchant in the current mode: create (secret shown once), list, revoke. Live keys: owners only. */
export function keyRoutes(app: FastifyInstance, ctx: PanelContext): void {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store } = ctx;
  const listing = async (merchantId: string, mode: string) =>
    (await store.apiKeys.listForMerchant(merchantId))
      .filter((k) => k.mode === mode)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
      .map(({ secretHash: _hidden, ...k }) => k);

  app.get('/claves', async (request, reply) => {
    const caller = ctx.caller(request);
    return ctx.page(request, reply, 'keys', {
      keys: await listing(caller.merchantId, caller.mode),
      mayManage: can(request.panelUser!.role, keyAction(caller.mode)),
    });
  });

  app.post('/claves', async (request, reply) => {
    const caller = ctx.caller(request);
    if (!(await ctx.allow(request, reply, keyAction(caller.mode)))) return reply;
    const { record, switchKey } = await issueKey(store, caller.merchantId, caller.mode);
    await ctx.audit(request, 'key.create', record.id, { hint: record.hint });
    // The secret reaches the next page sealed under a key only the redirect carries (./flash.ts).
    return ctx.done(request, reply, '/claves', { notice: 'keys.created', secret: { kind: 'key', value: switchKey, id: record.id } });
  });

  routes.post('/claves/:id/revocar', { schema: { params: PathParams('id') } }, async (request, reply) => {
    const caller = ctx.caller(request);
    if (!(await ctx.allow(request, reply, keyAction(caller.mode)))) return reply;
    const { id } = request.params;
    const key = (await store.apiKeys.listForMerchant(caller.merchantId)).find((k) => k.id === id && k.mode === caller.mode);
    if (!key) return reply.callNotFound();
    if (await store.apiKeys.revoke(id, new Date().toISOString())) await ctx.audit(request, 'key.revoke', id, { hint: key.hint });
    return ctx.done(request, reply, '/claves', { notice: 'keys.revoked_notice', vars: { hint: key.hint } });
  });
}
