import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate, type Mode, type Store } from '@switch/shared';
import { DependencyDown } from './errors';

export interface Caller {
  merchantId: string;
  mode: Mode;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

/**
 * `x-switch-key: <merchant>:<secret>` on every operation (SPEC 5). The mode comes from the key's
 * prefix only; anything the body says about mode is ignored. Runs before the body is read, so a
 * request without a valid key is refused whatever its body.
 */
export function installAuth(app: FastifyInstance, store: Store): void {
  app.decorateRequest('caller', null as unknown as Caller);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const header = request.headers['x-switch-key'];
    const caller = await authenticate(store, typeof header === 'string' ? header : undefined).catch((error: unknown) => {
      throw new DependencyDown(`key store unavailable: ${String(error)}`);
    });
    if (!caller) return reply.code(401).send({ error: 'unauthorized' });
    request.caller = caller;
  });
}
