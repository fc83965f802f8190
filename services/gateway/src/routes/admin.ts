import { timingSafeEqual, createHash } from 'node:crypto';
import type { KeyCache } from '../key-cache';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { BANCOS, CODIGO_BCV } from '@switch/core/contracts/bancos';
import { Identificacion, NumeroCuenta, NumeroTelefono, NONBLANK_TEXT_PATTERN, TEXT_RULE, literals } from '@switch/core/contracts/fields';
import type { MerchantAccount, WebhookEndpoint } from '@switch/platform/ports/merchant-directory';
import { DuplicateRecord } from '@switch/platform/ports/store';
import { PANEL_ROLES } from '@switch/platform/ports/panel-access';
import { createMerchant, issueKey, MERCHANT_ID_PATTERN, registerWebhook } from '@switch/usecases/onboarding';
import { OPEN_STATES } from '@switch/core/transaction-core';
import { refusedDestination, type DestinationPolicy } from '@switch/platform/runtime/destination';
import { resealWebhookSecrets } from '@switch/usecases/webhook-endpoints';
import { WEBHOOK_EVENTS } from '@switch/core/contracts/webhook';
import type { SecretBox } from '@switch/platform/runtime/secret-box';
import {
  createInvite,
  createPasswordReset,
  inviteRefusal,
  EMAIL_PATTERN,
  normaliseEmail,
  recordAudit,
} from '@switch/usecases/panel-access';
import { switchTopics, type Topic } from '@switch/core/contracts/topics';
import type { Bus } from '@switch/platform/ports/bus';
import type { GatewayStore } from '../ports';

import { HttpProblem } from '@switch/core/contracts/errors';
import { sendError } from '../errors';

const ModeSchema = literals(['test', 'live'] as const);
const MerchantParams = Type.Object({ merchantId: Type.String({ pattern: MERCHANT_ID_PATTERN }) });

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * An endpoint as the operator sees it: never a secret, not even sealed (the current or the previous
 * one); only until when a rotated secret still signs.
 */
const operatorEndpointView = ({ sealedSecret: _s, previousSecret, ...e }: WebhookEndpoint) => ({
  ...e,
  rotationUntil: previousSecret?.until ?? null,
});

/**
 * Operator API behind the onboarding tool (`npm run switch`): merchants, keys, webhook endpoints,
 * operations under review, webhook deliveries, dead letters.
 * Enabled only when an admin token is configured; authenticated by `authorization: Bearer <token>`.
 * It is not part of the merchant API and is left out of /openapi.json.
 */
export function adminRoutes(
  app: FastifyInstance,
  deps: {
    store: GatewayStore;
    bus: Bus;
    adminToken: string;
    webhookDestinations: DestinationPolicy;
    keys?: KeyCache;
    secrets: SecretBox;
    /** Topics are named to operators as on the cluster, in this namespace (`SWITCH_KAFKA_NAMESPACE`). */
    topicNamespace?: string;
  },
): void {
  // Handlers read `request.body`, `query` and `params` as their route's schema types them.
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const expected = digest(deps.adminToken);
  app.addHook('onRequest', async (request, reply) => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!timingSafeEqual(digest(token), expected)) return sendError(reply, 'unauthorized');
  });
  const hide = { hide: true };

  routes.post(
    '/admin/v1/merchants',
    {
      schema: {
        ...hide,
        body: Type.Object({
          id: Type.String({ pattern: MERCHANT_ID_PATTERN }),
          // Shown in the panel: the merchant API's text rule (no control nor invisible characters).
          nombre: Type.String({ minLength: 1, maxLength: 80, pattern: NONBLANK_TEXT_PATTERN, description: TEXT_RULE }),
        }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      try {
        const merchant = await createMerchant(deps.store, body);
        return reply.code(201).send(merchant);
      } catch (e) {
        if (e instanceof DuplicateRecord) throw new HttpProblem('ALREADY_EXISTS', { message: `merchant ${body.id} exists` });
        throw e;
      }
    },
  );

  routes.get('/admin/v1/merchants', { schema: hide }, async () => deps.store.merchants.list());

  const merchantOr404 = async (id: string) => {
    const m = await deps.store.merchants.get(id);
    if (!m) throw new HttpProblem('NOT_FOUND', { message: `no merchant ${id}` });
    return m;
  };

  routes.post(
    '/admin/v1/merchants/:merchantId/keys',
    { schema: { ...hide, params: MerchantParams, body: Type.Object({ mode: ModeSchema }) } },
    async (request, reply) => {
      const { merchantId } = request.params;
      await merchantOr404(merchantId);
      const { record, switchKey } = await issueKey(deps.store, merchantId, request.body.mode);
      return reply.code(201).send({ ...record, x_switch_key: switchKey, note: 'shown once; store it now' });
    },
  );

  routes.get('/admin/v1/merchants/:merchantId/keys', { schema: { ...hide, params: MerchantParams } }, async (request) => {
    const { merchantId } = request.params;
    await merchantOr404(merchantId);
    return (await deps.store.apiKeys.listForMerchant(merchantId)).map(({ secretHash: _h, ...k }) => k);
  });

  routes.delete(
    '/admin/v1/merchants/:merchantId/keys/:keyId',
    { schema: { ...hide, params: Type.Object({ merchantId: Type.String(), keyId: Type.String({ maxLength: 64 }) }) } },
    async (request) => {
      const { merchantId, keyId } = request.params;
      const key = (await deps.store.apiKeys.listForMerchant(merchantId)).find((k) => k.id === keyId);
      if (!key) throw new HttpProblem('NOT_FOUND', { message: `no key ${keyId} for ${merchantId}` });
      await deps.store.apiKeys.revoke(keyId, new Date().toISOString());
      // Forgotten here at once; every other gateway forgets it by the event the store announces.
      deps.keys?.forgetMerchant(merchantId);
      return { id: keyId, active: false };
    },
  );

  routes.post(
    '/admin/v1/merchants/:merchantId/webhooks',
    {
      schema: {
        ...hide,
        params: MerchantParams,
        body: Type.Object({
          mode: ModeSchema,
          url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 }),
          events: Type.Array(literals(WEBHOOK_EVENTS), { minItems: 1, default: [...WEBHOOK_EVENTS] }),
        }),
      },
    },
    async (request, reply) => {
      const { merchantId } = request.params;
      await merchantOr404(merchantId);
      const body = request.body;
      // The notifier refuses such destinations at every attempt, test and live; refuse them here first.
      const refused = await refusedDestination(body.url, deps.webhookDestinations, undefined, { acceptUnresolvable: body.mode === 'test' });
      if (refused) throw new HttpProblem('DESTINATION_REFUSED', { message: `webhook url refused: ${refused}` });
      const { endpoint, secret } = await registerWebhook(deps.store, { merchantId, ...body }, deps.secrets);
      return reply
        .code(201)
        .send({ ...operatorEndpointView(endpoint), secret, note: 'the secret is shown once; verify x-service-signature with it' });
    },
  );

  // The merchant's first panel user (and any later one the operator adds): a one-time invitation
  // link; the person sets their own password in the panel (docs/panel.md).
  routes.post(
    '/admin/v1/merchants/:merchantId/panel-invites',
    {
      schema: {
        ...hide,
        params: MerchantParams,
        body: Type.Object({ email: Type.String({ pattern: EMAIL_PATTERN, maxLength: 254 }), role: literals(PANEL_ROLES) }),
      },
    },
    async (request, reply) => {
      const { merchantId } = request.params;
      await merchantOr404(merchantId);
      const body = request.body;
      // A user deactivated by this merchant is never brought back by an invitation (the team decides).
      if ((await inviteRefusal(deps.store, merchantId, body.email)) === 'deactivated')
        throw new HttpProblem('USER_DEACTIVATED', {
          message: `panel user ${normaliseEmail(body.email)} was deactivated at ${merchantId}: an owner enables them again on the team page; no invitation does`,
        });
      if (await deps.store.panelUsers.get(normaliseEmail(body.email)))
        throw new HttpProblem('ALREADY_EXISTS', { message: `a panel user ${normaliseEmail(body.email)} exists` });
      const { invite, token } = await createInvite(deps.store, { merchantId, email: body.email, role: body.role, invitedBy: null });
      await recordAudit(deps.store, {
        merchantId,
        actor: 'operator',
        action: 'user.invite',
        mode: null,
        target: invite.email,
        ip: request.ip,
        detail: { role: invite.role },
      });
      return reply.code(201).send({
        email: invite.email,
        role: invite.role,
        expiresAt: invite.expiresAt,
        path: `/panel/invitacion/${token}`,
        note: 'send this link (after the switch base URL) to the person; it works once',
      });
    },
  );

  // A one-time link for a merchant's panel user to set a new password (forgotten, or maybe known to
  // someone else): it works once, for RESET_TTL_MS, and the change ends every session of the user.
  routes.post(
    '/admin/v1/merchants/:merchantId/panel-users/:email/password-reset',
    {
      schema: {
        ...hide,
        params: Type.Object({
          merchantId: Type.String({ pattern: MERCHANT_ID_PATTERN }),
          email: Type.String({ pattern: EMAIL_PATTERN, maxLength: 254 }),
        }),
      },
    },
    async (request, reply) => {
      const { merchantId, email } = request.params;
      await merchantOr404(merchantId);
      const user = await deps.store.panelUsers.get(normaliseEmail(email));
      if (!user || user.merchantId !== merchantId)
        throw new HttpProblem('NOT_FOUND', { message: `no panel user ${normaliseEmail(email)} at ${merchantId}` });
      if (!user.active) throw new HttpProblem('USER_DEACTIVATED', { message: `panel user ${user.id} is deactivated: enable them first` });
      const { reset, token } = await createPasswordReset(deps.store, { email: user.id, issuedBy: 'operator' });
      await recordAudit(deps.store, {
        merchantId,
        actor: 'operator',
        action: 'user.reset_link',
        mode: null,
        target: user.id,
        ip: request.ip,
      });
      return reply.code(201).send({
        email: user.id,
        expiresAt: reset.expiresAt,
        path: `/panel/restablecer/${token}`,
        note: 'send this link (after the switch base URL) to the person only; it works once and ends their sessions',
      });
    },
  );

  // The accounts a merchant collects into and pays from, per bank and mode. In live mode only these
  // may be ordenante, cobrador or the cuenta of /saldo and /movimientos (finding 1).
  routes.post(
    '/admin/v1/merchants/:merchantId/accounts',
    {
      schema: {
        ...hide,
        params: MerchantParams,
        body: Type.Object({
          mode: ModeSchema,
          banco: literals(BANCOS),
          cuenta: NumeroCuenta,
          telefono: Type.Optional(NumeroTelefono),
          // The holder's RIF: who the merchant is at the bank (BNC acts for it as ChildClientID).
          rif: Type.Optional(Identificacion),
        }),
      },
    },
    async (request, reply) => {
      const { merchantId } = request.params;
      await merchantOr404(merchantId);
      const body = request.body;
      if (body.cuenta.slice(0, 4) !== CODIGO_BCV[body.banco]) {
        throw new HttpProblem('VALIDATION', {
          detail: { cuenta: `an account of ${body.banco} starts with ${CODIGO_BCV[body.banco]}` },
        });
      }
      const account: MerchantAccount = {
        merchantId,
        mode: body.mode,
        banco: body.banco,
        cuenta: body.cuenta,
        telefono: body.telefono ?? null,
        ...(body.rif ? { rif: body.rif } : {}),
        createdAt: new Date().toISOString(),
      };
      if (!(await deps.store.accounts.register(account))) {
        throw new HttpProblem('ALREADY_EXISTS', {
          message: `account ${body.cuenta} is registered already in ${body.mode} mode`,
        });
      }
      return reply.code(201).send(account);
    },
  );

  routes.get(
    '/admin/v1/merchants/:merchantId/accounts',
    { schema: { ...hide, params: MerchantParams, querystring: Type.Object({ mode: Type.Optional(ModeSchema) }) } },
    async (request) => {
      const { merchantId } = request.params;
      await merchantOr404(merchantId);
      const { mode } = request.query;
      return deps.store.accounts.list(merchantId, mode);
    },
  );

  routes.get('/admin/v1/merchants/:merchantId/webhooks', { schema: { ...hide, params: MerchantParams } }, async (request) => {
    const { merchantId } = request.params;
    await merchantOr404(merchantId);
    return (await deps.store.webhooks.listForMerchant(merchantId)).map(operatorEndpointView);
  });

  // After the secrets key is rotated (docs/operations.md "Rotating the secrets key"): every stored
  // webhook secret sealed under an older key is sealed again under the current one. The store here
  // announces each change, so notifiers forget the endpoints they cached.
  routes.post('/admin/v1/secrets/reseal', { schema: hide }, async () => ({
    currentKeyId: deps.secrets.currentKeyId,
    webhookSecrets: await resealWebhookSecrets(deps.store, deps.secrets),
  }));

  routes.get('/admin/v1/review', { schema: hide }, async () => {
    const open = await deps.store.transactions.listByEstado([...OPEN_STATES], 10_000);
    return open
      .filter((tx) => tx.review)
      .map((tx) => ({
        id: tx.id,
        merchantId: tx.merchantId,
        mode: tx.mode,
        kind: tx.kind,
        estado: tx.estado,
        banco: tx.bancoUsado,
        createdAt: tx.createdAt,
        review: tx.review,
        evidence: tx.evidence ?? [],
      }));
  });

  routes.get(
    '/admin/v1/transactions/:txnId/deliveries',
    { schema: { ...hide, params: Type.Object({ txnId: Type.String({ maxLength: 64 }) }) } },
    async (request) => {
      const { txnId } = request.params;
      return (await deps.store.deliveries.listForTransaction(txnId)).map(({ lease: _l, ...d }) => d);
    },
  );

  routes.post(
    '/admin/v1/deliveries/:deliveryId/redeliver',
    { schema: { ...hide, params: Type.Object({ deliveryId: Type.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      const { deliveryId } = request.params;
      if (!(await deps.store.deliveries.requeue(deliveryId, new Date().toISOString()))) {
        throw new HttpProblem('NOT_FOUND', { message: `no delivery ${deliveryId}` });
      }
      return reply.code(202).send({ id: deliveryId, status: 'pending', note: 'queued for an attempt now, with the same body' });
    },
  );

  // Dead letters: messages that can never succeed as they are (undecodable, refused by the schema, or
  // declared poison by their handler). Listed per switch topic; redriven once each, after a fix.
  const clusterName = (t: Topic) => (deps.topicNamespace ? `${deps.topicNamespace}.${t.name}` : t.name);
  const topicOr404 = (name: string): Topic => {
    const topic = switchTopics().find((t) => clusterName(t) === name);
    if (!topic) throw new HttpProblem('NOT_FOUND', { message: `no switch topic ${name}` });
    return topic;
  };
  const TopicName = Type.String({ minLength: 1, maxLength: 249 });

  routes.get(
    '/admin/v1/dead-letters',
    { schema: { ...hide, querystring: Type.Object({ topic: Type.Optional(TopicName) }) } },
    async (request) => {
      const { topic } = request.query;
      const topics = topic ? [topicOr404(topic)] : switchTopics();
      const found: { topic: string; deadLetters: Awaited<ReturnType<Bus['deadLetters']>> }[] = [];
      // One topic after the other: each non-empty one is a short read of its dead-letter topic.
      for (const t of topics) {
        const deadLetters = await deps.bus.deadLetters(t.name);
        if (deadLetters.length > 0 || topic) found.push({ topic: clusterName(t), deadLetters });
      }
      return { topics: found };
    },
  );

  routes.post(
    '/admin/v1/dead-letters/redrive',
    {
      schema: {
        ...hide,
        body: Type.Object({
          topic: TopicName,
          ids: Type.Optional(Type.Array(Type.String({ pattern: '^[0-9]+:[0-9]+$' }), { minItems: 1, maxItems: 1000 })),
        }),
      },
    },
    async (request) => {
      const body = request.body;
      const report = await deps.bus.redriveDeadLetters(topicOr404(body.topic), body.ids);
      return { topic: body.topic, ...report };
    },
  );
}
