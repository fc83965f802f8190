import { randomUUID } from 'node:crypto';
import type { MotivoRechazo } from '@switch/core/estados';
import {
  type Movimientos,
  type MovimientosQuery,
  type Saldo,
  type CreditoRecibido,
  type CreditosQuery,
  CODIGO_BCV,
  type BancoId,
  type Mode,
} from '@switch/core/contracts/bancos';
import { type BankRequestMessage, type GatewayReplyMessage, TOPICS, bankRequestHeaders, bankRequests } from '@switch/core/contracts/topics';
import { sandboxConcept } from '@switch/core/pago-movil';
import { bankForAccount, type RoutingTable } from '@switch/core/routing';
import type { Bus, Subscription } from '../ports/bus';
import type { MerchantDirectory } from '../ports/merchant-directory';
import type { PageCursor, TransactionReads } from '../ports/transaction-reads';

/** The ports account reads use: a merchant's accounts, and its transactions (to tell its own movements). */
export type AccountReadStore = Pick<MerchantDirectory, 'accounts'> & { transactions: TransactionReads };

/** Longest statement window one request may ask for (BNC's HistoryByDate limit). */
export const MAX_STATEMENT_DAYS = 31;

type ReadRequest = Omit<Extract<BankRequestMessage, { op: 'saldo' | 'movimientos' | 'creditos' }>, 'correlationId' | 'gatewayId'>;

/**
 * Request/reply over the bus for balance and statement reads, for one instance of a process that
 * asks (a gateway, a standalone panel). A connector answers on `TOPICS.gatewayReplies` addressed by
 * `gatewayId`, keyed by it on an addressed topic: every instance reads only its own key's partition
 * (latest only), in a group named after its stable instance id, and skips other instances' replies
 * that share the partition.
 */
export class BankReadClient {
  private readonly waiters = new Map<string, (reply: GatewayReplyMessage) => void>();
  private subscription: Subscription | undefined;

  /** `instanceId` goes in `gatewayId`: a panel instance uses its own, as a gateway does. Both stable (no per-start group). */
  constructor(
    private readonly bus: Bus,
    readonly instanceId: string,
    private readonly group = `${instanceId}-reads`,
  ) {}

  async start(): Promise<void> {
    this.subscription = await this.bus.subscribe(
      TOPICS.gatewayReplies,
      { group: this.group, key: this.instanceId, latestOnly: true, maxAttempts: 1 },
      async ({ value }) => {
        if (value.gatewayId === this.instanceId) this.waiters.get(value.correlationId)?.(value);
      },
    );
  }

  async stop(): Promise<void> {
    await this.subscription?.close();
    this.subscription = undefined;
  }

  /** Sends a read to a bank's connector and waits for its answer; null when the wait ran out. */
  async read(banco: BancoId, request: ReadRequest, timeoutMs: number): Promise<GatewayReplyMessage | null> {
    const correlationId = `${this.instanceId}:${randomUUID()}`;
    let timer: NodeJS.Timeout | undefined;
    // Registered before the request is sent: a fast answer is never missed.
    const answer = new Promise<GatewayReplyMessage | null>((resolve) => {
      timer = setTimeout(() => {
        this.waiters.delete(correlationId);
        resolve(null);
      }, timeoutMs);
      this.waiters.set(correlationId, (reply) => {
        clearTimeout(timer);
        this.waiters.delete(correlationId);
        resolve(reply);
      });
    });
    try {
      const message = { ...request, correlationId, gatewayId: this.instanceId } as BankRequestMessage;
      await this.bus.publish(bankRequests(banco), correlationId, message, bankRequestHeaders(message));
    } catch (error) {
      clearTimeout(timer);
      this.waiters.delete(correlationId);
      throw error;
    }
    return answer;
  }
}

/** Why a read gave no figures: each caller renders it its own way (HTTP problem, page message). */
export type AccountReadProblem =
  /** A query field the caller can fix (window, cursor): the fields and why. */
  | { kind: 'invalid'; detail: Record<string, string> }
  /** Live mode: the account is not one of the caller's registered accounts; nothing was sent. */
  | { kind: 'not_registered'; cuenta: string }
  /** No enabled bank of the mode serves this read for that account; nothing was sent. */
  | { kind: 'no_bank'; message: string }
  /** The bank does not know the account. */
  | { kind: 'unknown_account' }
  /** The bank refused the query for a reason of its own (a `motivo_rechazo`). */
  | { kind: 'refused'; motivo: MotivoRechazo }
  /** The bank could not answer (down, technical rejection) or did not answer in time. */
  | { kind: 'bank_unavailable'; motivo: string | null }
  /** The switch could not reach its own store or bus. */
  | { kind: 'dependency_down'; cause: string };

export type AccountReadResult<T> = { ok: true; value: T } | { ok: false; problem: AccountReadProblem };

export type ReadCaller = { merchantId: string; mode: Mode };
/** A statement query as a caller gives it; `hasta` defaults to today (Venezuelan day), `limite` to 100. */
export type StatementQuery = { cuenta: string; desde: string; hasta?: string; limite?: number; cursor?: string };

/** Balance and statement reads for an authenticated caller (a bank answers over the bus). */
export interface AccountReads {
  saldo(caller: ReadCaller, cuenta: string): Promise<AccountReadResult<Saldo>>;
  movimientos(caller: ReadCaller, q: StatementQuery): Promise<AccountReadResult<Movimientos>>;
  /**
   * The credits of the caller's account on one day (Caracas), with the bank that holds it. Live: its
   * own registered account only. Test: only the payments the caller's sandbox made arrive.
   */
  creditos(caller: ReadCaller, q: CreditosQuery): Promise<AccountReadResult<{ banco: BancoId; creditos: CreditoRecibido[] }>>;
}

export interface AccountReadDeps {
  routing: RoutingTable;
  store: AccountReadStore;
  client: Pick<BankReadClient, 'read'>;
  readTimeoutMs: number;
}

const fail = (problem: AccountReadProblem) => ({ ok: false, problem }) as const;

/** Today's calendar day in Venezuela (UTC-4, no daylight saving). */
export const venezuelanToday = (now = Date.now()): string => new Date(now - 4 * 3600_000).toISOString().slice(0, 10);

/** The statement window's rules: `desde` not in the future, `hasta` not before it, at most 31 days. */
export function checkStatementWindow(desde: string, hasta: string | undefined, today: string): Record<string, string> {
  const detail: Record<string, string> = {};
  const last = hasta ?? today;
  if (desde > today) detail.desde = 'must not be in the future';
  if (hasta && hasta < desde) detail.hasta = 'must not be before desde';
  else if ((Date.parse(last) - Date.parse(desde)) / 86_400_000 >= MAX_STATEMENT_DAYS) {
    detail.hasta = `the window may span at most ${MAX_STATEMENT_DAYS} days`;
  }
  return detail;
}

/** How far before a statement window a test operation may have started and still settle inside it. */
const TEST_STATEMENT_LOOKBACK_DAYS = 7;
/** Most of a merchant's test operations one statement read looks at (pages of 500). */
const TEST_STATEMENT_MAX_OPERATIONS = 20_000;

/**
 * Test mode: the bank references of the caller's own operations at `banco` that may show in a
 * statement of [desde, hasta] (Venezuelan days). Test accounts are not registered to anyone: every
 * merchant's test payouts at an emulated bank leave from the one account its connector is configured
 * with, and the bank keeps one ledger per account, so its statement holds every merchant's movements.
 * The switch shows a merchant only the movements whose reference is one of its own operations'.
 */
async function ownReferences(
  store: AccountReadStore,
  caller: ReadCaller,
  banco: BancoId,
  desde: string,
  hasta: string,
): Promise<Set<string>> {
  const day = 86_400_000;
  // A Venezuelan day D runs from D 04:00 UTC; a day of margin after `hasta` for clocks.
  const from = new Date(Date.parse(`${desde}T04:00:00Z`) - TEST_STATEMENT_LOOKBACK_DAYS * day).toISOString();
  const to = new Date(Date.parse(`${hasta}T04:00:00Z`) + 2 * day).toISOString();
  const refs = new Set<string>();
  const filter = { merchantId: caller.merchantId, mode: caller.mode, banco, desde: from, hasta: to };
  let after: PageCursor | undefined;
  for (let seen = 0; seen < TEST_STATEMENT_MAX_OPERATIONS; ) {
    const page = await store.transactions.listForMerchant(filter, 500, after);
    for (const tx of page) if (tx.referenciaBanco) refs.add(tx.referenciaBanco);
    seen += page.length;
    if (page.length < 500) break;
    const last = page[page.length - 1]!;
    after = { createdAt: last.createdAt, id: last.id };
  }
  return refs;
}

/**
 * The merchant API's account reads (`/switch/v1/saldo`, `/movimientos`), one implementation for every
 * process that shows them (the gateway, the merchant panel, embedded or standalone).
 */
export function accountReads(deps: AccountReadDeps): AccountReads {
  const bankFor = (mode: Mode, cuenta: string, capability: 'saldo' | 'movimientos'): AccountReadResult<BancoId> => {
    // In test mode the simulated bank answers for accounts of banks without an enabled test route.
    const banco = bankForAccount(deps.routing, mode, cuenta, capability, (b) => CODIGO_BCV[b], mode === 'test' ? 'bnc' : undefined);
    if (!banco)
      return fail({
        kind: 'no_bank',
        message: `no enabled bank serves ${capability} for accounts of bank ${cuenta.slice(0, 4)} in ${mode} mode`,
      });
    return { ok: true, value: banco };
  };

  /**
   * Live: only the caller's own registered account may be read, at the bank that holds it (nothing
   * sent otherwise). Test mode checks no register (SPEC 4.10.4): the simulated bank keeps one ledger
   * per merchant instead.
   */
  const bankOfOwn = async (
    caller: ReadCaller,
    cuenta: string,
    capability: 'saldo' | 'movimientos',
  ): Promise<AccountReadResult<BancoId>> => {
    if (caller.mode !== 'live') return bankFor(caller.mode, cuenta, capability);
    let account: Awaited<ReturnType<MerchantDirectory['accounts']['find']>>;
    try {
      account = await deps.store.accounts.find('live', cuenta);
    } catch (error) {
      return fail({ kind: 'dependency_down', cause: String(error) });
    }
    if (!account || account.merchantId !== caller.merchantId) return fail({ kind: 'not_registered', cuenta });
    const able = deps.routing.live.some((b) => b.banco === account.banco && b.capabilities.includes(capability));
    if (!able) return fail({ kind: 'no_bank', message: `bank ${account.banco} of that account does not serve ${capability} in live mode` });
    return { ok: true, value: account.banco };
  };

  const ask = async (banco: BancoId, request: ReadRequest): Promise<AccountReadResult<GatewayReplyMessage['result'] & { ok: true }>> => {
    let reply: GatewayReplyMessage | null;
    try {
      reply = await deps.client.read(banco, request, deps.readTimeoutMs);
    } catch (error) {
      return fail({ kind: 'dependency_down', cause: String(error) });
    }
    if (!reply) return fail({ kind: 'bank_unavailable', motivo: null });
    const result = reply.result;
    if (result.ok) return { ok: true, value: result };
    // A connector names the query field it could not use (e.g. a cursor it never gave): a client error.
    const field = result.raw.field;
    if (typeof field === 'string') return fail({ kind: 'invalid', detail: { [field]: String(result.raw.descripcion ?? 'is invalid') } });
    if (result.motivo === 'CUENTA_NO_EXISTE') return fail({ kind: 'unknown_account' });
    if (result.motivo === 'BANCO_NO_DISPONIBLE' || result.motivo === 'RECHAZO_TECNICO')
      return fail({ kind: 'bank_unavailable', motivo: result.motivo });
    return fail({ kind: 'refused', motivo: result.motivo });
  };

  return {
    saldo: async (caller, cuenta) => {
      const banco = await bankOfOwn(caller, cuenta, 'saldo');
      if (!banco.ok) return banco;
      const r = await ask(banco.value, { op: 'saldo', mode: caller.mode, query: { cuenta, moneda: 'VES' }, merchantId: caller.merchantId });
      if (!r.ok) return r;
      if (!('saldo' in r.value)) return fail({ kind: 'bank_unavailable', motivo: null });
      return { ok: true, value: r.value.saldo };
    },
    creditos: async (caller, q) => {
      const banco = await bankOfOwn(caller, q.cuenta, 'movimientos');
      if (!banco.ok) return banco;
      const r = await ask(banco.value, { op: 'creditos', mode: caller.mode, query: q, merchantId: caller.merchantId });
      if (!r.ok) return r;
      if (!('creditos' in r.value)) return fail({ kind: 'bank_unavailable', motivo: null });
      const tag = sandboxConcept(caller.merchantId);
      const creditos = caller.mode === 'live' ? r.value.creditos : r.value.creditos.filter((c) => c.concepto.includes(tag));
      return { ok: true, value: { banco: banco.value, creditos } };
    },
    movimientos: async (caller, q) => {
      const today = venezuelanToday();
      const detail = checkStatementWindow(q.desde, q.hasta, today);
      if (Object.keys(detail).length) return fail({ kind: 'invalid', detail });
      const query: MovimientosQuery = { cuenta: q.cuenta, desde: q.desde, hasta: q.hasta ?? today, limite: q.limite ?? 100 };
      if (q.cursor) query.cursor = q.cursor;
      const banco = await bankOfOwn(caller, q.cuenta, 'movimientos');
      if (!banco.ok) return banco;
      const r = await ask(banco.value, { op: 'movimientos', mode: caller.mode, query, merchantId: caller.merchantId });
      if (!r.ok) return r;
      if (!('movimientos' in r.value)) return fail({ kind: 'bank_unavailable', motivo: null });
      if (caller.mode === 'live') return { ok: true, value: r.value.movimientos };
      let own: Set<string>;
      try {
        own = await ownReferences(deps.store, caller, banco.value, query.desde, query.hasta ?? today);
      } catch (error) {
        return fail({ kind: 'dependency_down', cause: String(error) });
      }
      const page = r.value.movimientos;
      return { ok: true, value: { ...page, movimientos: page.movimientos.filter((m) => own.has(m.referencia)) } };
    },
  };
}
