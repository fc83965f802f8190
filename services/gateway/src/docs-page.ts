import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { FastifyRequest } from 'fastify';
import { API_TITLE, publishedDocument } from './openapi';

/** The switch's mark: a rail between two points, in the page's colours. */
// Wide enough for the whole name at this size (160 cut it to "Switch de p").
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="230" height="40" viewBox="0 0 230 40">
<circle cx="14" cy="20" r="9" fill="#f4b400"/><circle cx="50" cy="20" r="9" fill="#f4b400"/>
<rect x="14" y="17" width="36" height="6" fill="#f4b400"/>
<text x="66" y="26" font-family="Helvetica, Arial, sans-serif" font-size="17" font-weight="700" fill="#ffffff">Switch de pagos</text>
</svg>`;
const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">
<rect width="32" height="32" rx="6" fill="#12355b"/><circle cx="9" cy="16" r="5" fill="#f4b400"/><circle cx="23" cy="16" r="5" fill="#f4b400"/>
<rect x="9" y="14" width="14" height="4" fill="#f4b400"/></svg>`;
const CSS = `.swagger-ui .topbar { background-color: #12355b; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .info .title small.version-stamp { background-color: #12355b; }`;

/**
 * Runs in the reader's browser before each "Try it out" request (Swagger UI's `requestInterceptor`,
 * serialised into the page): a body with an `idempotency_key` gets a fresh one, so an example sent
 * as it is runs as a new operation for any key, instead of replaying (or, with another body,
 * conflicting with) an operation the README or an earlier try made under the example's key.
 */
export function freshIdempotencyKey<R extends { body?: unknown }>(request: R): R {
  if (typeof request.body === 'string' && request.body.includes('"idempotency_key"')) {
    try {
      const body = JSON.parse(request.body) as { idempotency_key?: unknown };
      if (typeof body.idempotency_key === 'string') {
        body.idempotency_key = globalThis.crypto.randomUUID();
        request.body = JSON.stringify(body);
      }
    } catch {
      // not JSON: sent as written
    }
  }
  return request;
}

/** Where the request reached the switch (behind a proxy: its forwarded scheme and host). */
export const baseUrlOf = (request: FastifyRequest): string => `${request.protocol}://${request.host}`;

/**
 * `/docs`: the interactive documentation, titled and branded as this switch. It loads the same
 * document `/openapi.json` serves (examples, named schemas, webhooks), not the raw generated one.
 */
export function docsPage(): FastifySwaggerUiOptions {
  return {
    routePrefix: '/docs',
    logo: { type: 'image/svg+xml', content: Buffer.from(LOGO_SVG), href: '/docs', target: '_self' },
    theme: {
      title: `${API_TITLE} — documentation`,
      css: [{ filename: 'switch.css', content: CSS }],
      favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(FAVICON_SVG) }],
    },
    uiConfig: {
      docExpansion: 'list',
      displayOperationId: true,
      persistAuthorization: true,
      defaultModelsExpandDepth: 1,
      requestInterceptor: freshIdempotencyKey,
    },
    transformSpecification: (spec, request) => publishedDocument(spec, { baseUrl: baseUrlOf(request as FastifyRequest) }),
  };
}
