import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
  WEBHOOK_EVENTS,
  type EndpointRules,
  type Problem,
  type WebhookEvent,
} from '@switch/shared';
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

/** Webhook endpoints and their deliveries, with the rules of shared/src/domain/webhook-endpoints.ts. */
export function webhookPages(app: FastifyInstance, ctx: PanelContext): void {
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

  const detailPage = async (request: FastifyRequest, reply: FastifyReply, id: string, extra: Record<string, unknown> = {}) => {
    const caller = ctx.caller(request);
    const endpoint = await findOwnEndpoint(store, caller, id);
    if (!endpoint) return reply.callNotFound();
    const deliveries = await deliveriesOfEndpoint(store, caller, id, 50);
    return ctx.page(request, reply, 'webhook', {
      endpoint: toEndpointView(endpoint),
      deliveries: deliveries.ok ? deliveries.value.map(toDeliveryView) : [],
      allEvents: WEBHOOK_EVENTS,
      ...extra,
    });
  };

  app.get('/webhooks', async (request, reply) => listPage(request, reply));

  app.post('/webhooks', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'endpoints'))) return reply;
    const body = (request.body ?? {}) as Record<string, unknown>;
    const url = typeof body.url === 'string' ? body.url.trim().slice(0, 2048) : '';
    const events = eventsOf(body.events);
    const created = await createEndpoint(store, ctx.caller(request), { url, events }, rules);
    if (!created.ok) return listPage(request, reply, { url, error: problemText(created.problem) }, created.problem.status);
    await ctx.audit(request, 'endpoint.create', created.value.endpoint.id, { url });
    return listPage(request, reply, { created: { id: created.value.endpoint.id, secret: created.value.secret } }, 201);
  });

  app.get('/webhooks/:id', async (request, reply) => detailPage(request, reply, (request.params as { id: string }).id));

  const action = (
    path: string,
    run: (request: FastifyRequest, id: string) => Promise<{ ok: boolean; extra?: Record<string, unknown>; audit?: string }>,
  ) =>
    app.post(`/webhooks/:id/${path}`, async (request, reply) => {
      if (!(await ctx.allow(request, reply, 'endpoints'))) return reply;
      const { id } = request.params as { id: string };
      if (!(await findOwnEndpoint(store, ctx.caller(request), id))) return reply.callNotFound();
      const done = await run(request, id);
      if (!done.ok) return reply.callNotFound();
      if (done.audit) await ctx.audit(request, done.audit, id);
      if (path === 'eliminar') return reply.redirect(`${base}/webhooks`, 303);
      return detailPage(request, reply, id, done.extra ?? { notice: 'webhooks.saved' });
    });

  action('eventos', async (request, id) => {
    const events = eventsOf((request.body as Record<string, unknown>).events);
    if (events.length === 0) return { ok: true, extra: { error: 'events: choose at least one event' } };
    return { ...(await updateEndpoint(store, ctx.caller(request), id, { events })), audit: 'endpoint.events' };
  });
  action('desactivar', async (request, id) => ({
    ...(await updateEndpoint(store, ctx.caller(request), id, { active: false })),
    audit: 'endpoint.disable',
  }));
  action('activar', async (request, id) => ({
    ...(await updateEndpoint(store, ctx.caller(request), id, { active: true })),
    audit: 'endpoint.enable',
  }));
  action('eliminar', async (request, id) => ({ ...(await deleteEndpoint(store, ctx.caller(request), id)), audit: 'endpoint.delete' }));
  action('rotar', async (request, id) => {
    const rotated = await rotateSecret(store, ctx.caller(request), id, rules);
    if (!rotated.ok) return { ok: false };
    return {
      ok: true,
      audit: 'endpoint.rotate',
      extra: { rotated: { secret: rotated.value.secret, until: rotated.value.endpoint.previousSecret?.until ?? null } },
    };
  });
  action('prueba', async (request, id) => ({
    ...(await sendTestEvent(store, ctx.caller(request), id)),
    audit: 'endpoint.test',
    extra: { notice: 'webhooks.test_sent' },
  }));

  app.post('/entregas/:id/reenviar', async (request, reply) => {
    if (!(await ctx.allow(request, reply, 'redeliver'))) return reply;
    const { id } = request.params as { id: string };
    const done = await redeliver(store, ctx.caller(request), id);
    if (!done.ok) return reply.callNotFound();
    await ctx.audit(request, 'delivery.redeliver', id);
    const back = (request.body as Record<string, unknown>).volver;
    const target =
      typeof back === 'string' && /^\/panel\/(webhooks|transacciones)\/[A-Za-z0-9_.-]+$/.test(back)
        ? back
        : `${base}/webhooks/${done.value.endpointId}`;
    return reply.redirect(`${target}?reenviada=1`, 303);
  });
}
