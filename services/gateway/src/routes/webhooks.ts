import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  createEndpoint,
  deleteEndpoint,
  deliveriesOfEndpoint,
  deliveriesOfTransaction,
  listEndpoints,
  redeliver,
  rotateSecret,
  toDeliveryView,
  toEndpointView,
  updateEndpoint,
  type EndpointRules,
  type Outcome,
} from '@switch/usecases/webhook-endpoints';
import {
  DeliveryView,
  EndpointCreateBody,
  EndpointDeleted,
  EndpointUpdateBody,
  EndpointView,
  EndpointWithSecret,
} from '@switch/core/contracts/webhook-endpoints';
import type { GatewayStore } from '../ports';
import { HttpProblem, errorResponses } from '@switch/core/contracts/errors';
import { exampleDeliveries, exampleEndpoint, exampleRedelivery, exampleRotation } from '../sandbox';

const security = [{ switchKey: [] }];
const tags = ['webhooks'];
const Id = (description: string) => Type.String({ pattern: '^[A-Za-z0-9_.-]{1,200}$', description });
const EndpointParams = Type.Object({ id: Id('Endpoint id (we_…)') });
const notFound = (what: string) => ({ ...errorResponses(404)[404]!, description: `No ${what} of this merchant and mode` });

/** The value of an outcome, or its problem as the house error body (400, 404, 422). */
function unwrap<T>(outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.value;
  const { status: _status, error, ...extras } = outcome.problem;
  throw new HttpProblem(error, extras);
}

/**
 * Webhook endpoints and deliveries of the caller's merchant and mode (SPEC 6.5: registration through
 * the API). The rules live in packages/usecases/src/webhook-endpoints.ts, which the panel uses too.
 */
export function webhookRoutes(app: FastifyInstance, deps: { store: GatewayStore; rules: EndpointRules }): void {
  // Handlers read `request.body`, `query` and `params` as their route's schema types them.
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { store, rules } = deps;
  routes.get(
    '/switch/v1/webhooks',
    {
      schema: {
        operationId: 'listarWebhooks',
        tags,
        summary: 'List webhook endpoints',
        description: 'The endpoints of the key mode; secrets are never listed.',
        security,
        response: { 200: Type.Array(EndpointView), ...errorResponses(400, 401, 429, 503) },
      },
    },
    async (request) => (await listEndpoints(store, request.caller)).map((e) => toEndpointView(e)),
  );

  routes.post(
    '/switch/v1/webhooks',
    {
      schema: {
        operationId: 'crearWebhook',
        tags,
        summary: 'Register a webhook endpoint',
        description:
          'The answer carries the signing `secret`, the only time it is shown. In both modes the URL must resolve to a public address, unless the operator allowed local receivers, and never to a port of the switch itself (422 DESTINATION_REFUSED otherwise); in live mode it must be https. At most 10 endpoints per mode (422 ENDPOINT_LIMIT: delete one first).',
        security,
        body: EndpointCreateBody,
        response: { 201: EndpointWithSecret, ...errorResponses(400, 401, 413, 415, 422, 429, 503) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { endpoint, secret } = unwrap(await createEndpoint(store, request.caller, body, rules));
      return reply.code(201).send({ ...toEndpointView(endpoint), secret });
    },
  );

  routes.patch(
    '/switch/v1/webhooks/:id',
    {
      schema: {
        operationId: 'actualizarWebhook',
        tags,
        summary: 'Change the events of an endpoint, or disable and enable it',
        description:
          'Send `events` (the full new list), `active`, or both; the answer is the endpoint as changed. A disabled endpoint keeps its deliveries and receives no new ones until enabled again.',
        security,
        params: EndpointParams,
        body: EndpointUpdateBody,
        response: { 200: EndpointView, ...errorResponses(400, 401, 413, 415, 429, 503), 404: notFound('endpoint') },
      },
    },
    async (request) => {
      const { id } = request.params;
      const change = request.body;
      return (
        exampleEndpoint(request.caller.mode, id, change) ?? toEndpointView(unwrap(await updateEndpoint(store, request.caller, id, change)))
      );
    },
  );

  routes.post(
    '/switch/v1/webhooks/:id/rotar-secreto',
    {
      schema: {
        operationId: 'rotarSecretoWebhook',
        tags,
        summary: 'Rotate the signing secret',
        description:
          'A new secret, shown once in this answer. The previous one keeps signing beside it until `rotacion_hasta`: `x-service-signature` carries the new signature only, `webhook-signature` carries both (space-separated).',
        security,
        params: EndpointParams,
        response: { 200: EndpointWithSecret, ...errorResponses(400, 401, 429, 503), 404: notFound('endpoint') },
      },
    },
    async (request) => {
      const { id } = request.params;
      const example = exampleRotation(request.caller.mode, id);
      if (example) return example;
      const { endpoint, secret } = unwrap(await rotateSecret(store, request.caller, id, rules));
      return { ...toEndpointView(endpoint), secret };
    },
  );

  routes.delete(
    '/switch/v1/webhooks/:id',
    {
      schema: {
        operationId: 'eliminarWebhook',
        tags,
        summary: 'Delete a webhook endpoint',
        description: 'No further deliveries; its past deliveries stay listed by transaction.',
        security,
        params: EndpointParams,
        response: {
          200: EndpointDeleted,
          ...errorResponses(400, 401, 429, 503),
          404: notFound('endpoint'),
        },
      },
    },
    async (request) => {
      const { id } = request.params;
      if (!exampleEndpoint(request.caller.mode, id)) unwrap(await deleteEndpoint(store, request.caller, id));
      return { id, eliminado: true as const };
    },
  );

  routes.get(
    '/switch/v1/webhooks/:id/entregas',
    {
      schema: {
        operationId: 'listarEntregasWebhook',
        tags,
        summary: 'Deliveries of an endpoint',
        description:
          'Newest first (at most 100), each with every attempt: time, HTTP status, latency, error; and the next attempt while pending.',
        security,
        params: EndpointParams,
        response: { 200: Type.Array(DeliveryView), ...errorResponses(400, 401, 429, 503), 404: notFound('endpoint') },
      },
    },
    async (request) => {
      const { id } = request.params;
      return (
        exampleDeliveries(request.caller.mode, 'endpoint', id) ??
        unwrap(await deliveriesOfEndpoint(store, request.caller, id, 100)).map(toDeliveryView)
      );
    },
  );

  routes.get(
    '/switch/v1/transacciones/:id/entregas',
    {
      schema: {
        operationId: 'listarEntregasTransaccion',
        tags,
        summary: 'Webhook deliveries of a transaction',
        description:
          'Every delivery of the transaction, to each endpoint (deleted ones included), each with every attempt. A transaction of another merchant or mode: 404.',
        security,
        params: Type.Object({ id: Id('Transaction id') }),
        response: { 200: Type.Array(DeliveryView), ...errorResponses(400, 401, 429, 503), 404: notFound('transaction') },
      },
    },
    async (request) => {
      const { id } = request.params;
      return (
        exampleDeliveries(request.caller.mode, 'transaction', id) ??
        unwrap(await deliveriesOfTransaction(store, request.caller, id)).map(toDeliveryView)
      );
    },
  );

  routes.post(
    '/switch/v1/entregas/:id/reenviar',
    {
      schema: {
        operationId: 'reenviarEntrega',
        tags,
        summary: 'Redeliver a webhook delivery',
        description: 'Attempts it again now with the same body and signature; its earlier attempts are kept.',
        security,
        params: Type.Object({ id: Id('Delivery id') }),
        response: { 202: DeliveryView, ...errorResponses(400, 401, 429, 503), 404: notFound('delivery') },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const example = exampleRedelivery(request.caller.mode, id);
      return reply.code(202).send(example ?? toDeliveryView(unwrap(await redeliver(store, request.caller, id))));
    },
  );
}
