import type { BancoId, CreditoRecibido } from '@switch/core/contracts/bancos';
import type { EventoEsperado, WebhookEsperadoBody } from '@switch/core/contracts/esperados';
import { applyCredit, caracasDay, expiryOf, paymentForCredit, type CambioEsperado } from '@switch/core/esperados';
import { type AccountReadResult, type ReadCaller, venezuelanToday } from '@switch/platform/runtime/account-reads';
import { pendingDelivery, type DeliveryQueue } from '@switch/platform/ports/delivery-queue';
import { creditCursorKey, type CreditCursor, type ExpectedPayment, type ExpectedPayments } from '@switch/platform/ports/expected-payments';
import type { MerchantDirectory } from '@switch/platform/ports/merchant-directory';
import { movementClaimId, type MovementClaim, type MovementClaims } from '@switch/platform/ports/movement-claims';
import type { Leases } from '@switch/platform/ports/leases';
import { type Fence, LeaseKeeper, startLeasedLoop } from '@switch/platform/runtime/leased-loop';
import type { Logger } from '@switch/platform/telemetry/logger';
import { toCobroEsperado } from './expected-payments';

/** The name of the matcher's lease: one replica matches at a time. */
export const MATCHER_LEASE = 'expected-payments-matcher';
/** A round every 5 s; the lease outlasts a round, and a holder gone for a minute leaves it to another replica. */
export const EXPECTED_MATCHER_INTERVAL_MS = 5_000;
export const EXPECTED_MATCHER_LEASE_MS = 60_000;

export type MatcherStore = ExpectedPayments & MovementClaims & DeliveryQueue & Leases & Pick<MerchantDirectory, 'webhooks'>;

/** One day's credits of an account (accountReads.creditos). */
export type CreditReader = (
  caller: ReadCaller,
  q: { cuenta: string; fecha: string },
) => Promise<AccountReadResult<{ banco: BancoId; creditos: CreditoRecibido[] }>>;

export interface MatcherDeps {
  store: MatcherStore;
  creditos: CreditReader;
  /** This replica's name in the lease. */
  holder: string;
  /** How long a taken lease lasts without renewal: longer than one round. */
  leaseMs: number;
  now?: () => Date;
  log: Logger;
}

const addDay = (day: string): string => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

const EVENT_OF: Record<string, EventoEsperado | undefined> = {
  RECIBIDO: 'cobro_esperado.recibido',
  PAGO_PARCIAL: 'cobro_esperado.pago_parcial',
  SOBREPAGO: 'cobro_esperado.sobrepago',
  VENCIDO: 'cobro_esperado.vencido',
};

/**
 * The background matcher of expected payments (issue 31 item 3). Each round, under the lease:
 * for every receiving account with an open expected payment, read the credits after its cursor (the
 * day it reached and how many of that day's credits it handled; banks answer whole days), hand each
 * new credit to the payment it pays (claiming the movement: one movement pays one order, whether a
 * verification or the matcher claims it first), then expire what is past its time, then queue the
 * webhooks of every change not yet announced. The cursor moves after each credit is handled, and
 * handling a credit again finds its claim and its movement recorded: a round cut anywhere neither
 * matches a credit twice nor skips one.
 */
export class ExpectedMatcher {
  /** The matcher's lease, shared by its loop and by `round()`. */
  readonly keeper: LeaseKeeper;

  constructor(private readonly deps: MatcherDeps) {
    this.keeper = new LeaseKeeper({
      leases: deps.store.leases,
      name: MATCHER_LEASE,
      holder: deps.holder,
      ttlMs: deps.leaseMs,
      log: deps.log,
      // A given clock (tests) drives both the lease and the fence; else the wall and monotonic clocks.
      ...(deps.now ? { now: () => this.now().getTime(), monotonic: () => this.now().getTime() } : {}),
    });
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** One round now (tests, operators); false when another replica holds the lease. */
  async round(): Promise<boolean> {
    const fence = await this.keeper.hold();
    if (!fence) return false;
    await this.match(fence);
    return true;
  }

  /**
   * One round under the lease. It checks the fence before each account, credit and announcement:
   * a holder paused past its lease and overtaken stops as soon as it runs again (what it did before
   * is safe to repeat: claims, compare-and-set and delivery ids).
   */
  async match(fence: Fence): Promise<void> {
    const { store } = this.deps;
    const now = this.now();
    const open = await store.expectedPayments.listOpen();
    const byAccount = new Map<string, ExpectedPayment[]>();
    for (const p of open) {
      const key = creditCursorKey(p.mode, p.merchantId, p.banco, p.cuenta);
      byAccount.set(key, [...(byAccount.get(key) ?? []), p]);
    }
    for (const [key, payments] of byAccount) {
      if (!fence.holds()) return;
      const readThrough = await this.readAccount(key, payments, now, fence);
      // Expiry only once the account's credits are read up to now: a payment booked in time is never called VENCIDO.
      if (readThrough) for (const p of payments) await this.change(p.id, (fresh) => expiryOf(fresh, now), now);
    }
    await this.announce(now, fence);
  }

  /** Reads the account's days from its cursor to today; true when every day was read. */
  private async readAccount(key: string, payments: ExpectedPayment[], now: Date, fence: Fence): Promise<boolean> {
    const { store } = this.deps;
    const first = payments[0]!;
    const caller = { merchantId: first.merchantId, mode: first.mode };
    const earliest = payments.map((p) => caracasDay(p.createdAt)).sort()[0]!;
    const stored = await store.creditCursors.get(key);
    let cursor: CreditCursor =
      stored && stored.fecha >= earliest ? stored : { key, fecha: earliest, seen: 0, updatedAt: now.toISOString() };
    const today = venezuelanToday(now.getTime());
    for (;;) {
      const read = await this.deps.creditos(caller, { cuenta: first.cuenta, fecha: cursor.fecha });
      if (!read.ok) {
        this.deps.log?.warn({ account: key, fecha: cursor.fecha, problem: read.problem.kind }, 'expected payments: credits not read');
        return false;
      }
      const credits = read.value.creditos;
      for (let i = cursor.seen; i < credits.length; i++) {
        if (!fence.holds()) return false;
        await this.handleCredit(read.value.banco, credits[i]!, payments, now);
        cursor = { key, fecha: cursor.fecha, seen: i + 1, updatedAt: now.toISOString() };
        await store.creditCursors.set(cursor);
      }
      if (cursor.fecha >= today) return true;
      cursor = { key, fecha: addDay(cursor.fecha), seen: 0, updatedAt: now.toISOString() };
      await store.creditCursors.set(cursor);
    }
  }

  private async handleCredit(banco: BancoId, credit: CreditoRecibido, payments: ExpectedPayment[], now: Date): Promise<void> {
    const { store } = this.deps;
    // The payments as they are now: an earlier credit of this round may have changed one.
    const fresh = (await Promise.all(payments.map((p) => store.expectedPayments.get(p.id)))).filter(
      (p): p is ExpectedPayment => p !== null,
    );
    const target = paymentForCredit(fresh, credit);
    if (!target) return;
    const movement = { banco, cuenta: credit.cuenta, referencia: credit.referencia, fecha: credit.fecha, monto: credit.monto };
    const claim: MovementClaim = {
      id: movementClaimId(target.mode, target.merchantId, movement),
      mode: target.mode,
      merchantId: target.merchantId,
      movement,
      claimant: { kind: 'esperado', id: target.id },
      createdAt: now.toISOString(),
    };
    const result = await store.movementClaims.claim(claim);
    // Another holds it (a verification of that transfer, or another order): it pays that one only.
    if (!result.claimed && (result.existing.claimant.kind !== 'esperado' || result.existing.claimant.id !== target.id)) return;
    await this.change(
      target.id,
      (p) => (p.movimientos.some((m) => m.claimId === claim.id) ? null : applyCredit(p, credit.monto)),
      now,
      (p) => ({
        recibido: Math.round((p.recibido + credit.monto) * 100) / 100,
        movimientos: [...p.movimientos, { ...movement, claimId: claim.id }],
      }),
    );
  }

  /** Applies the move `decide` picks to the stored payment, by compare-and-set (read again on a lost race). */
  private async change(
    id: string,
    decide: (p: ExpectedPayment) => CambioEsperado | null,
    now: Date,
    extra: (p: ExpectedPayment) => Partial<ExpectedPayment> = () => ({}),
  ): Promise<void> {
    const { store } = this.deps;
    for (;;) {
      const p = await store.expectedPayments.get(id);
      if (!p) return;
      const move = decide(p);
      if (!move) return;
      const at = now.toISOString();
      const next: ExpectedPayment = {
        ...p,
        ...extra(p),
        estado: move.to,
        historial: [...p.historial, { ...move, en: at }],
        version: p.version + 1,
        updatedAt: at,
      };
      if (await store.expectedPayments.replace(next, p.version)) return;
    }
  }

  /** Queues the webhooks of every change not yet announced, to each active endpoint of the merchant's mode, then marks it announced. */
  private async announce(now: Date, fence: Fence): Promise<void> {
    const { store } = this.deps;
    for (const p of await store.expectedPayments.listUnannounced()) {
      if (!fence.holds()) return;
      const type = EVENT_OF[p.estado];
      if (type) {
        const endpoints = (await store.webhooks.listForMerchant(p.merchantId, p.mode)).filter((e) => e.active && !e.deletedAt);
        const body: WebhookEsperadoBody = { type, sentAt: now.toISOString(), data: toCobroEsperado(p) };
        for (const endpoint of endpoints) {
          const delivery = pendingDelivery(
            {
              // One delivery per change and endpoint: a round cut after some inserts repeats none.
              id: `${p.id}.v${p.version}.${endpoint.id}`,
              merchantId: p.merchantId,
              mode: p.mode,
              endpointId: endpoint.id,
              url: endpoint.url,
              txnId: p.id,
              event: type,
              body: JSON.stringify(body),
            },
            now,
          );
          await store.deliveries.insert(delivery);
        }
      }
      await store.expectedPayments.replace({ ...p, announcedVersion: p.version }, p.version);
    }
  }
}

export interface MatcherLoop {
  matcher: ExpectedMatcher;
  stop(): Promise<void>;
}

/** Runs a round every `intervalMs` on the replica holding the lease (startLeasedLoop); a stop lets the lease go. */
export function startExpectedMatcher(deps: MatcherDeps, intervalMs: number): MatcherLoop {
  const matcher = new ExpectedMatcher(deps);
  const loop = startLeasedLoop({
    keeper: matcher.keeper,
    intervalMs,
    round: (fence) => matcher.match(fence),
    log: deps.log,
    what: 'expected payments matcher',
  });
  return { matcher, stop: () => loop.stop() };
}
