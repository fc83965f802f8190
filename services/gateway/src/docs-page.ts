import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { FastifyRequest } from 'fastify';
import { API_TITLE, publishedDocument } from './openapi';

/** The switch's mark: a rail between two points, in the page's colours. */
const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="160" height="40" viewBox="0 0 160 40">
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
    uiConfig: { docExpansion: 'list', displayOperationId: true, persistAuthorization: true, defaultModelsExpandDepth: 1 },
    transformSpecification: (spec, request) => publishedDocument(spec, { baseUrl: baseUrlOf(request as FastifyRequest) }),
  };
}
