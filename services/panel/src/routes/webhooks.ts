import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formOf, PathParams } from '../fields';
import {
  createEndpoint,
  deleteEndpoint,
  deliveriesOfEndpoint,
  findOwnEndpoint,
  listEndpoints,
  redeliver,
  rotateSecret,
  sendTestEvent,
  toDeliveryView,
  toEndpointView,
  updateEndpoint,
  type EndpointRules,
  type Problem,
} from '@switch/usecases/webhook-endpoints';
import { WEBHOOK_EVENTS, type WebhookEvent } from '@switch/core/contracts/webhook';
import { DELIVERIES_PAGE, deliveriesAfter, deliveryPage } from '../delivery-pages';
import type { Flash } from '../flash';
import type { PanelContext } from '../context';

/** A form's checkbox group: absent, one value or several; only known events are kept. */
function eventsOf(value: unknown): WebhookEvent[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.filter((v): v is WebhookEvent => (WEBHOOK_EVENTS as readonly unknown[]).includes(v));
}

const problemText = (p: Problem): string =>
  p.status === 400
    ? Object.entries(p.detail)
        .map(([field, message]) => `${field}: ${message}`)
        .join('; ')
    : p.message;

/** Webhook endpoints and their deliveries, with the rules of packages/usecases/src/webhook-endpoints.ts. */
export function webhookPages(app: FastifyInstance, ctx: PanelContext): void {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store, base } = ctx;
  const rules: EndpointRules = {
    destinations: ctx.config.webhookDestinations,
    rotationOverlapSeconds: ctx.config.rotationOverlapSeconds,
    secrets: ctx.secrets,
  };

  const listPage = async (request: FastifyRequest, reply: FastifyReply, extra: Record<string, unknown> = {}, status = 200) =>
    ctx.page(
      request,
      reply,
      'webhooks',
      {
        endpoints: (await listEndpoints(store, ctx.caller(request))).map((e) => toEndpointView(e)),
        allEvents: WEBHOOK_EVENTS,
        url: '',
        ...extra,
      },
      status,
    );

  const detailPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    extra: Record<string, unknown> = {},
    status = 200,
  ) => {
    const caller = ctx.caller(request);
    const endpoint = await findOwnEndpoint(store, caller, id);
    if (!endpoint) return reply.callNotFound();
    const after = deliveriesAfter(request);
    const deliveries = await deliveriesOfEndpoint(store, caller, id, DELIVERIES_PAGE + 1, after);
    const { shown, next } = deliveryPage(deliveries.ok ? deliveries.value : []);
    return ctx.page(
      request,
      reply,
      'webhook',
      {
        endpoint: toEndpointView(endpoint),
        deliveries: shown.map(toDeliveryView),
        nextDeliveries: next,
        pagedDeliveries: after !== undefined,
        allEvents: WEBHOOK_EVENTS,
        ...extra,
      },
      status,
    );
  };

  app.get('/webhooks', async (request, reply) => listPage(request, reply));

  app.post('/webhooks', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'endpoints'))) return reply;
    const body = formOf(request);
    const url = typeof body.url === 'string' ? body.url.trim().slice(0, 2048) : '';
    const events = eventsOf(body.events);
    const created = await createEndpoint(store, ctx.caller(request), { url, events }, rules);
    if (!created.ok) return listPage(request, reply, { url, error: problemText(created.problem) }, created.problem.status);
    await ctx.audit(request, 'endpoint.create', created.value.endpoint.id, { url });
    return ctx.done(request, reply, '/webhooks', {
      notice: 'webhooks.created',
      secret: { kind: 'webhook', value: created.value.secret, id: created.value.endpoint.id },
    });
  });

  routes.get('/webhooks/:id', { schema: { params: PathParams('id') } }, async (request, reply) =>
    detailPage(request, reply, request.params.id),
  );

  /** An endpoint's form: on success a redirect to its page (the list after deleting) with a message once. */
  const action = (
    path: string,
    run: (request: FastifyRequest, id: string) => Promise<{ ok: boolean; flash?: Flash; error?: string; audit?: string }>,
  ) =>
    routes.post(`/webhooks/:id/${path}`, { schema: { params: PathParams('id') } }, async (request, reply) => {
      if (!(await ctx.allow(request, reply, 'endpoints'))) return reply;
      const { id } = request.params;
      if (!(await findOwnEndpoint(store, ctx.caller(request), id))) return reply.callNotFound();
      const done = await run(request, id);
      if (done.error) return detailPage(request, reply, id, { error: done.error }, 400);
      if (!done.ok) return reply.callNotFound();
      if (done.audit) await ctx.audit(request, done.audit, id);
      return ctx.done(request, reply, path === 'eliminar' ? '/webhooks' : `/webhooks/${id}`, done.flash ?? { notice: 'webhooks.saved' });
    });

  action('eventos', async (request, id) => {
    const events = eventsOf(formOf(request).events);
    if (events.length === 0) return { ok: false, error: 'webhooks.events_required' };
    return { ...(await updateEndpoint(store, ctx.caller(request), id, { events })), audit: 'endpoint.events' };
  });
  action('desactivar', async (request, id) => ({
    ...(await updateEndpoint(store, ctx.caller(request), id, { active: false })),
    audit: 'endpoint.disable',
    flash: { notice: 'webhooks.disabled_notice' },
  }));
  action('activar', async (request, id) => ({
    ...(await updateEndpoint(store, ctx.caller(request), id, { active: true })),
    audit: 'endpoint.enable',
    flash: { notice: 'webhooks.enabled_notice' },
  }));
  action('eliminar', async (request, id) => ({
    ...(await deleteEndpoint(store, ctx.caller(request), id)),
    audit: 'endpoint.delete',
    flash: { notice: 'webhooks.deleted' },
  }));
  action('rotar', async (request, id) => {
    const rotated = await rotateSecret(store, ctx.caller(request), id, rules);
    if (!rotated.ok) return { ok: false };
    return {
      ok: true,
      audit: 'endpoint.rotate',
      flash: {
        notice: 'webhooks.rotated',
        secret: { kind: 'rotated', value: rotated.value.secret, until: rotated.value.endpoint.previousSecret?.until ?? '' },
      },
    };
  });
  action('prueba', async (request, id) => ({
    ...(await sendTestEvent(store, ctx.caller(request), id)),
    audit: 'endpoint.test',
    flash: { notice: 'webhooks.test_sent' },
  }));

  routes.post('/entregas/:id/reenviar', { schema: { params: PathParams('id') } }, async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'redeliver'))) return reply;
    const { id } = request.params;
    const done = await redeliver(store, ctx.caller(request), id);
    if (!done.ok) return reply.callNotFound();
    await ctx.audit(request, 'delivery.redeliver', id);
    const back = formOf(request).volver;
    const target =
      typeof back === 'string' &&
      back.startsWith(`${base}/`) &&
      /^\/(webhooks|transacciones)\/[A-Za-z0-9_.-]+$/.test(back.slice(base.length))
        ? back.slice(base.length)
        : `/webhooks/${done.value.endpointId}`;
    return ctx.done(request, reply, target, { notice: 'deliveries.requeued' });
  });
}
