import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountReads, Mode, PanelAction, Sealer, Store } from '@switch/shared';
import type { PanelConfig } from './config';

/** What every panel route is given: the store, the panel's configuration and the page helpers. */
export interface PanelContext {
  store: Store;
  accounts: AccountReads | undefined;
  config: PanelConfig;
  secrets: Pick<Sealer, 'seal'>;
  base: string;
  /** Renders a page of the layout with what every page shows (user, mode, language, CSRF token). */
  page(
    request: FastifyRequest,
    reply: FastifyReply,
    template: string,
    data?: Record<string, unknown>,
    status?: number,
  ): Promise<FastifyReply>;
  /** Refuses (403 page) unless the signed-in user's role allows `action`; the check that counts is this one. */
  allow(request: FastifyRequest, reply: FastifyReply, action: PanelAction): Promise<boolean>;
  caller(request: FastifyRequest): { merchantId: string; mode: Mode };
  /** A panel link for someone else (invitations, resets): absolute when the public base URL is configured. */
  link(path: string): string;
  audit(request: FastifyRequest, action: string, target: string | null, detail?: Record<string, string>): Promise<void>;
}
