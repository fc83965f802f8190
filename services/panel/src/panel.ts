import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formOf, PathParams, queryField } from './fields';
import cookie from '@fastify/cookie';
import session from '@fastify/session';
import csrf from '@fastify/csrf-protection';
import formbody from '@fastify/formbody';
import view from '@fastify/view';
import { Eta } from 'eta';
import { can, recordAudit, type PanelAction } from '@switch/usecases/panel-access';
import type { AccountReads } from '@switch/platform/runtime/account-reads';
import type { Mode } from '@switch/core/contracts/bancos';
import type { PanelUser } from '@switch/platform/ports/panel-access';
import type { Sealer } from '@switch/platform/runtime/secret-box';
import type { PanelStore } from './ports';
import type { SandboxBooking } from '@switch/usecases/payment-verification';
import type { PanelConfig } from './config';
import type { PanelContext } from './context';
import { isLang, translate, type Lang } from './i18n';
import { amount, day, escapeHtml, money, when, whenTag } from './format';
import { SwitchSessionStore } from './session-store';
import { FLASH_PARAM, openFlash, sealFlash, withFlash, type SealedFlash } from './flash';
import { authRoutes } from './routes/auth';
import { keyRoutes } from './routes/keys';
import { webhookPages } from './routes/webhooks';
import { transactionPages } from './routes/transactions';
import { expectedPages } from './routes/expected';
import { teamRoutes } from './routes/team';
import { balancePages } from './routes/balances';
import { sandboxButton, verifyPages } from './routes/verify';
import { overviewPages } from './routes/overview';

declare module 'fastify' {
  interface Session {
    userId?: string;
    /** The user's password version at sign-in: a password change since then ends the session. */
    passwordVersion?: number;
    mode?: Mode;
    lang?: Lang;
    /** What the page after a form's redirect says once (sealed: the key is in the redirect). */
    flash?: SealedFlash;
  }
  interface FastifyRequest {
    panelUser: PanelUser | null;
  }
}

export interface PanelDeps {
  store: PanelStore;
  config: PanelConfig;
  /** Seals the webhook secrets the panel issues: the store keeps only the sealed form. */
  secrets: Pick<Sealer, 'seal'>;
  /** Where the panel is mounted (links and the cookie path). */
  basePath?: string;
  /** The switch's merchant API base (shown next to keys: where to use them). */
  apiBaseUrl?: string;
  /**
   * Balance and statement reads as the merchant API does them (`accountReads` of `@switch/platform/runtime/account-reads`:
   * the embedded switch passes the gateway's, the panel's own process builds its own over the bus);
   * without it the balances page lists the registered accounts only.
   */
  accounts?: AccountReads;
  /** Test mode: the sandbox's booking of a payer's pago móvil (the embedded switch's banks); without it no button. */
  sandbox?: SandboxBooking;
}

const VIEWS = join(__dirname, '..', 'views');
const ASSETS = join(__dirname, '..', 'assets');

/** A one-time token of a link, wherever it sits in a URL (path segment or query value). */
const LINK_TOKEN = /(inv|rst)_[A-Za-z0-9_-]+/g;
/** The one-time key of a flash in a redirect's query (it opens a secret shown once). */
const FLASH_TOKEN = new RegExp(`([?&]${FLASH_PARAM}=)[^&#]+`, 'g');
const redactLinkTokens = (url: string): string => url.replace(LINK_TOKEN, '$1_[redacted]').replace(FLASH_TOKEN, '$1[redacted]');

/** Fastify's request log fields, with the URL's link tokens redacted. */
function loggedRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactLinkTokens(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * What templates use to say money, times and codes for people: `label('estado', 'LIQUIDADA')` is
 * "Liquidada"; `coded` is that label with the raw code on hover (an unknown code shows itself).
 */
function wordsFor(lang: Lang) {
  const label = (kind: string, code: string | null | undefined): string => {
    if (code === null || code === undefined || code === '') return '—';
    const key = `${kind}.${code}`;
    const text = translate(lang, key);
    return text === key ? code : text;
  };
  return {
    money: (value: number, currency?: string) => money(lang, value, currency),
    amount: (value: number) => amount(lang, value),
    when: (iso: string) => when(lang, iso),
    day: (iso: string) => day(lang, iso),
    whenTag: (iso: string | null | undefined) => (iso ? whenTag(lang, iso) : '—'),
    label,
    coded: (kind: string, code: string | null | undefined) =>
      code ? `<span class="coded" title="${escapeHtml(code)}">${escapeHtml(label(kind, code))}</span>` : '—',
  };
}

/** Pages a signed-out visitor may open. */
const PUBLIC = [/^\/login$/, /^\/invitacion\/[^/]+$/, /^\/restablecer\/[^/]+$/, /^\/assets\//];

/**
 * The merchant panel (issue: merchants serve themselves): an encapsulated Fastify plugin, mounted at
 * `/panel` by its own process (./main.ts) and by the embedded switch on the merchant port.
 * Sessions, CSRF and templates come from well-kept libraries; the rules (roles, endpoint checks,
 * listing) from `@switch/usecases`, the same ones the merchant API uses.
 */
export async function panelPlugin(app: FastifyInstance, deps: PanelDeps): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const base = deps.basePath ?? '/panel';
  const { store, config } = deps;
  const idleMs = config.sessionIdleMinutes * 60_000;

  // Not part of the merchant API's OpenAPI document (the embedded switch mounts the panel beside it).
  // Request logs never carry the one-time tokens of invitation and reset links (they sit in the path).
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, hide: true } as typeof route.schema;
    route.logSerializers = { ...route.logSerializers, req: loggedRequest };
  });
  await app.register(cookie);
  await app.register(session, {
    secret: config.sessionSecret,
    cookieName: 'panel_session',
    store: new SwitchSessionStore(store, idleMs),
    saveUninitialized: false,
    rolling: true,
    cookie: { path: base, httpOnly: true, sameSite: 'strict', secure: config.cookieSecure, maxAge: idleMs },
  });
  await app.register(csrf, { sessionPlugin: '@fastify/session' });
  await app.register(formbody, { bodyLimit: 16_384 });
  await app.register(view, {
    engine: { eta: new Eta({ views: VIEWS, cache: true, autoEscape: true }) },
    root: VIEWS,
  });

  // A Map: a name from the URL is looked up among these two only (an object literal answered
  // `constructor` or `toString` with an inherited function, a 500).
  const assets = new Map<string, { type: string; body: string }>([
    ['panel.css', { type: 'text/css; charset=utf-8', body: readFileSync(join(ASSETS, 'panel.css'), 'utf8') }],
    ['panel.js', { type: 'text/javascript; charset=utf-8', body: readFileSync(join(ASSETS, 'panel.js'), 'utf8') }],
  ]);
  routes.get('/assets/:name', { schema: { params: PathParams('name') } }, async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.code(404).type('text/plain').send('not found');
    return reply.header('cache-control', 'public, max-age=300').type(asset.type).send(asset.body);
  });

  app.decorateRequest('panelUser', null);
  app.addHook('onRequest', async (_request, reply) => {
    // Pages about money and keys: not framed, not cached, nothing inline, forms only to ourselves.
    reply.header(
      'content-security-policy',
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
  });
  app.addHook('preHandler', async (request, reply) => {
    // Any page takes `?lang=`: read here, before the route, so no route schema types it.
    const lang = queryField(request, 'lang');
    if (isLang(lang)) request.session.lang = lang;
    const path = (request.routeOptions.url ?? request.url).slice(base.length) || '/';
    const userId = request.session.userId;
    const user = userId ? await store.panelUsers.get(userId) : null;
    // A user removed or deactivated since signing in, or whose password changed since (a change or a
    // reset ends every other session), is signed out at the next request.
    if (user?.active && (user.passwordVersion ?? 0) === (request.session.passwordVersion ?? 0)) request.panelUser = user;
    else if (userId) await request.session.destroy();
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      await new Promise<void>((resolve, reject) =>
        app.csrfProtection(request, reply, (error?: Error) => (error ? reject(error) : resolve())),
      );
    }
    if (!request.panelUser && !PUBLIC.some((p) => p.test(path))) {
      return reply.redirect(`${base}/login`, 303);
    }
  });

  const ctx: PanelContext = {
    store,
    accounts: deps.accounts,
    sandbox: deps.sandbox,
    config,
    secrets: deps.secrets,
    base,
    page: async (request, reply, template, data = {}, status = 200) => {
      const lang: Lang = request.session.lang ?? 'es';
      const user = request.panelUser;
      const flash = openFlash(request.session.flash, queryField(request, FLASH_PARAM));
      // Shown once: the sealed copy leaves the session with this page.
      if (flash) request.session.flash = undefined;
      const merchant = user ? await store.merchants.get(user.merchantId) : null;
      return reply
        .code(status)
        .header('cache-control', 'no-store')
        .view(template, {
          base,
          lang,
          t: (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars),
          user,
          merchant,
          mode: request.session.mode ?? 'test',
          csrf: reply.generateCsrf(),
          path: request.url.split('?')[0],
          can: (action: PanelAction) => (user ? can(user.role, action) : false),
          apiBaseUrl: ctx.origin(request),
          flash,
          ...wordsFor(lang),
          ...data,
        });
    },
    allow: async (request, reply, action) => {
      if (request.panelUser && can(request.panelUser.role, action)) return true;
      await ctx.page(request, reply, 'error', { title: 'error.forbidden.title', message: 'error.forbidden' }, 403);
      return false;
    },
    caller: (request) => ({ merchantId: request.panelUser!.merchantId, mode: request.session.mode ?? 'test' }),
    origin: (request) => (deps.apiBaseUrl ? deps.apiBaseUrl.replace(/\/+$/, '') : `${request.protocol}://${request.host}`),
    link: (request, path) => `${ctx.origin(request)}${base}${path}`,
    done: (request, reply, path, flash) => {
      const { sealed, token } = sealFlash(flash);
      request.session.flash = sealed;
      return reply.redirect(withFlash(`${base}${path}`, token), 303);
    },
    audit: (request, action, target, detail) =>
      recordAudit(store, {
        merchantId: request.panelUser!.merchantId,
        actor: request.panelUser!.id,
        action,
        mode: request.session.mode ?? 'test',
        target,
        ip: request.ip,
        ...(detail ? { detail } : {}),
      }),
  };

  app.setErrorHandler(async (error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'panel error');
    const message =
      error.code === 'FST_CSRF_INVALID_TOKEN' || error.code === 'FST_CSRF_MISSING_SECRET'
        ? 'error.csrf'
        : status === 500
          ? 'error.server'
          : 'error.request';
    return ctx.page(request, reply, 'error', { title: 'error.title', message }, status);
  });
  app.setNotFoundHandler(async (request, reply) =>
    ctx.page(request, reply, 'error', { title: 'error.notfound.title', message: 'error.notfound' }, 404),
  );

  app.get('/', async (_request, reply) => reply.redirect(`${base}/resumen`, 303));
  app.post('/modo', async (request, reply) => {
    const { modo, volver } = formOf(request);
    if (modo === 'test' || modo === 'live') request.session.mode = modo;
    // Back to a page of the panel only (no open redirect).
    const back = typeof volver === 'string' && volver.startsWith(`${base}/`) && !volver.startsWith(`${base}//`) ? volver : `${base}/`;
    return reply.redirect(back, 303);
  });

  authRoutes(app, ctx);
  keyRoutes(app, ctx);
  webhookPages(app, ctx);
  transactionPages(app, ctx);
  expectedPages(app, ctx);
  teamRoutes(app, ctx);
  balancePages(app, ctx);
  verifyPages(app, ctx);
  sandboxButton(app, ctx);
  overviewPages(app, ctx);
}
