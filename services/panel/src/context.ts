import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AccountReads } from '@switch/platform/runtime/account-reads';
import type { Mode } from '@switch/core/contracts/bancos';
import type { PanelAction } from '@switch/usecases/panel-access';
import type { Sealer } from '@switch/platform/runtime/secret-box';
import type { PanelConfig } from './config';
import type { Flash } from './flash';
import type { PanelStore } from './ports';
import type { SandboxBooking } from '@switch/usecases/payment-verification';

/** What every panel route is given: the store, the panel's configuration and the page helpers. */
export interface PanelContext {
  store: PanelStore;
  accounts: AccountReads | undefined;
  /** Test mode: makes a payer's pago móvil arrive (the verify page's sandbox button); absent where no sandbox bank runs. */
  sandbox: SandboxBooking | undefined;
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
  /**
   * A panel link meant to be copied (invitations, resets): absolute, on the configured public base URL
   * (`SWITCH_PUBLIC_URL`) or else on the origin the request came to.
   */
  link(request: FastifyRequest, path: string): string;
  /** Where the merchant API is, for examples meant to be copied: the public base URL or the request's origin. */
  origin(request: FastifyRequest): string;
  /**
   * Ends a form that changed something (Post/Redirect/Get): a 303 to `path`, whose page shows `flash`
   * once; a reload of that page changes nothing and shows it no more.
   */
  done(request: FastifyRequest, reply: FastifyReply, path: string, flash: Flash): FastifyReply;
  audit(request: FastifyRequest, action: string, target: string | null, detail?: Record<string, string>): Promise<void>;
}
