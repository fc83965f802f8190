import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ESTADOS_ESPERADO, type EstadoEsperado } from '@switch/core/esperados';
import { listExpected } from '@switch/usecases/expected-payments';
import { PageQuery } from '../fields';
import type { PanelContext } from '../context';

/** The expected payments of the session's mode, newest first, 25 a page, one state at a time when asked. */
export function expectedPages(app: FastifyInstance, ctx: PanelContext): void {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  routes.get('/cobros-esperados', { schema: { querystring: PageQuery } }, async (request, reply) => {
    const query = request.query;
    const estado =
      typeof query.estado === 'string' && (ESTADOS_ESPERADO as readonly string[]).includes(query.estado)
        ? (query.estado as EstadoEsperado)
        : undefined;
    const cursor = typeof query.cursor === 'string' && /^[A-Za-z0-9_-]{1,200}$/.test(query.cursor) ? query.cursor : undefined;
    const page = await listExpected(ctx.store, ctx.caller(request), {
      limite: '25',
      ...(estado ? { estado } : {}),
      ...(cursor ? { cursor } : {}),
    });
    const shown: Record<string, string> = estado ? { estado } : {};
    const ok = !('field' in page);
    return ctx.page(request, reply, 'expected', {
      rows: ok ? page.cobros : [],
      invalid: ok ? [] : ['cursor'],
      filters: shown,
      estados: ESTADOS_ESPERADO,
      next: ok && page.siguiente ? new URLSearchParams({ ...shown, cursor: page.siguiente }).toString() : null,
      paged: cursor !== undefined,
      firstPage: new URLSearchParams(shown).toString(),
    });
  });
}
