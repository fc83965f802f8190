import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BANK_REQUEST_MODE_HEADER,
  bankRequests,
  TOPICS,
  type BankRequestMessage,
  type GatewayReplyMessage,
} from '@switch/core/contracts/topics';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Bus, Subscription } from '../ports/bus';
import type { BankConnector, OrderAccount, ReadContext, StatusQuery } from '@switch/connector-kit/bank-port';
import type { MerchantDirectory } from '../ports/merchant-directory';
import { bankOrderId, type OrderJournal } from '../ports/order-journal';
import type { TransactionReads } from '../ports/transaction-reads';
import type { BancoId, Mode } from '@switch/core/contracts/bancos';
import type { BankOutcome } from '@switch/core/operation';
import type { Logger } from '../telemetry/logger';
import { measured, metrics } from '../telemetry/metrics';
import type { Sealer } from './secret-box';

/**
 * The ports a bank worker uses: the order journal (what makes an order go to the bank at most once per
 * attempt), the merchant's accounts and the transaction an order belongs to (whose account it moves).
 */
export type BankWorkerStore = Pick<OrderJournal, 'bankOrders'> & Pick<MerchantDirectory, 'accounts'> & { transactions: TransactionReads };

export interface BankWorkerOptions {
  bus: Bus;
  store: BankWorkerStore;
  banco: BancoId;
  /** The connector serving each mode this worker handles; requests of other modes are left to other workers. */
  connectors: Partial<Record<Mode, BankConnector>>;
  group: string;
  log: Logger;
  /** Fault injection for drills and tests (`SWITCH_FAULT_PUBLISH_AFTER_BANK_CALL`); default none. */
  faults?: BankWorkerFaults;
  /** Tries to record a bank's answer in the journal before the message is left to redelivery. Default 8 (≈ 25 s). */
  recordTries?: number;
  /** Opens a cobrar's sealed OTP just before the bank call: it travels and is kept only sealed. */
  secrets: Pick<Sealer, 'open'>;
}

export interface BankWorkerFaults {
  /** Probability (0..1) that publishing an order's outcome fails right after the bank call. */
  publishAfterBankCall: number;
}

/** No fault injected: production. */
export const NO_FAULTS: BankWorkerFaults = { publishAfterBankCall: 0 };

/** Which process claimed an order, for whoever reads the journal. */
const WORKER_ID = `${hostname()}:${process.pid}`;

/**
 * Drives one bank's connector from its request topic. Orders answer to the transaction actor, reads
 * to the gateway that asked. A connector that throws is treated as `unknown` for an order (it may
 * have reached the bank) and as a failed read otherwise.
 */
export async function startBankWorker(options: BankWorkerOptions): Promise<Subscription> {
  const { bus, banco, connectors } = options;
  const faults = options.faults ?? NO_FAULTS;
  const worker = { ...options, faults }; // once, not per message
  const topic = bankRequests(banco);
  return bus.subscribe(
    topic,
    // The other mode's requests share the topic: skipped undecoded.
    { group: options.group, only: { header: BANK_REQUEST_MODE_HEADER, values: Object.keys(connectors) } },
    measured(options.group, topic.name, async ({ value }) => {
      const connector = connectors[value.mode];
      if (!connector) return;
      const end = metrics.bankCallDuration.startTimer({ bank: banco, operation: value.op });
      const outcome = await handle(worker, connector, value);
      end({ outcome });
      metrics.bankCalls.inc({ bank: banco, operation: value.op, outcome });
    }),
  );
}

type Worker = BankWorkerOptions & { faults: BankWorkerFaults };
type ExecuteRequest = Extract<BankRequestMessage, { op: 'execute' }>;
type StatusRequest = Extract<BankRequestMessage, { op: 'status' }>;

/** Handles one request and returns its outcome's name (for metrics). */
async function handle(worker: Worker, connector: BankConnector, request: BankRequestMessage): Promise<string> {
  const { bus, banco, log } = worker;
  const call = <T>(work: () => Promise<T>) => bankCall(banco, request, work);
  const answerRouter = (asked: ExecuteRequest | StatusRequest, outcome: BankOutcome) =>
    bus.publish(TOPICS.routerInbox, asked.txnId, {
      type: 'bank_result',
      txnId: asked.txnId,
      attempt: asked.attempt,
      op: asked.op,
      outcome,
    });
  switch (request.op) {
    case 'execute': {
      const refused = liveWithoutAccount(request);
      if (refused) {
        // Never sent, so never claimed: a redelivery is refused alike; the router reroutes or rejects it.
        log.error({ txnId: request.txnId, attempt: request.attempt }, 'live order without the merchant account refused before the bank');
        await answerRouter(request, refused);
        return 'refused_no_account';
      }
      const { outcome, sent } = await executeOnce(worker, connector, await withHolder(worker.store, banco, request));
      if (sent && Math.random() < worker.faults.publishAfterBankCall) throw new Error('injected fault: publish failed after the bank call');
      await answerRouter(request, outcome);
      return sent ? outcome.type : 'journal_replay';
    }
    case 'status': {
      // A status query moves no money: asking again is always safe, so it is not journaled.
      const query = await statusWithAccount(worker.store, banco, request);
      const outcome: BankOutcome = query
        ? await guarded(log, request, () => call(() => connector.status(query)))
        : { type: 'unknown', raw: { switch: NO_ACCOUNT_STATUS } };
      await answerRouter(request, outcome);
      return outcome.type;
    }
    case 'saldo':
    case 'movimientos':
    case 'creditos': {
      let result: GatewayReplyMessage['result'];
      const context = await readContext(worker.store, request);
      try {
        if (request.op === 'saldo') {
          const r = await call(() => connector.saldo(request.mode, request.query, context));
          result = r.ok ? { ok: true, saldo: r.value } : r;
        } else if (request.op === 'movimientos') {
          const r = await call(() => connector.movimientos(request.mode, request.query, context));
          result = r.ok ? { ok: true, movimientos: r.value } : r;
        } else {
          const query = request.query;
          const r = connector.creditos
            ? await call(() => connector.creditos!(request.mode, query, context))
            : ({ ok: false, motivo: 'NO_SOPORTADO', raw: { switch: 'this bank does not read incoming credits' } } as const);
          result = r.ok ? { ok: true, creditos: r.value } : r;
        }
      } catch (error) {
        log.error({ err: error, op: request.op }, 'connector threw');
        result = { ok: false, motivo: 'RECHAZO_TECNICO', raw: { switch: 'connector failure' } };
      }
      await bus.publish(TOPICS.gatewayReplies, request.gatewayId, {
        correlationId: request.correlationId,
        gatewayId: request.gatewayId,
        result,
      });
      return result.ok ? 'ok' : result.motivo;
    }
  }
}

/**
 * The registered accounts of a live transaction, as snapshotted when it was created (what routing
 * used). Bank messages carry only the account number and phone (their schemas are registered and a
 * new field would not pass the registry's BACKWARD check), so what else a connector needs of the
 * account — its holder's RIF, and for a status query the account itself — is read here, once per
 * message. A store that cannot be read throws before any bank call: the bus retries.
 */
async function transactionAccount(
  store: BankWorkerStore,
  txnId: string,
  banco: BancoId,
): Promise<{ merchantId: string; account: OrderAccount | null } | null> {
  const tx = await store.transactions.get(txnId);
  if (!tx) return null;
  const held = tx.merchantAccounts?.find((a) => a.banco === banco);
  return {
    merchantId: tx.merchantId,
    account: held ? { cuenta: held.cuenta, telefono: held.telefono, ...(held.rif ? { rif: held.rif } : {}) } : null,
  };
}

/** A live order's account with its holder's RIF (BNC acts for it as `ChildClientID`). */
async function withHolder(
  store: BankWorkerStore,
  bancoId: BancoId,
  request: ExecuteRequest,
): Promise<ExecuteRequest & { account?: OrderAccount }> {
  if (request.mode !== 'live' || !request.account) return request;
  const found = await transactionAccount(store, request.txnId, bancoId);
  const account = found?.account;
  if (!account || account.cuenta !== request.account.cuenta) return request;
  return { ...request, account };
}

/**
 * The second, independent guard of live money (the router routes live orders only to banks holding
 * one of the merchant's accounts and puts it on the order): a live order without an account would
 * make the connector act with its configured credentials, the switch's own. It is refused before the
 * journal and the bank: `not_processed`, since provably nothing reached the bank.
 */
function liveWithoutAccount(request: ExecuteRequest): Extract<BankOutcome, { type: 'not_processed' }> | null {
  if (request.mode !== 'live' || request.account) return null;
  return {
    type: 'not_processed',
    raw: {
      switch: `refused by the switch before the bank: this live order carries no registered account of merchant ${request.merchantId ?? '(unnamed)'} at this bank, and it is never sent under the switch's own credentials`,
    },
  };
}

const NO_ACCOUNT_STATUS =
  "not asked: the transaction has no registered account of its merchant at this bank, and a live status query is never asked as the switch's own client";

/**
 * A live status query asks about the account the order was made with, as the merchant that holds it;
 * null when there is none (never asked with the switch's own credentials: the outcome stays unknown).
 */
async function statusWithAccount(store: BankWorkerStore, bancoId: BancoId, request: StatusRequest): Promise<StatusQuery | null> {
  if (request.mode !== 'live') return request;
  const found = await transactionAccount(store, request.txnId, bancoId);
  if (!found?.account) return null;
  return { ...request, merchantId: found.merchantId, account: found.account };
}

/**
 * Who reads, and the registered account read when it is the reader's (live: the gateway lets only
 * registered accounts through): the bank must be asked as the merchant that holds it (BNC's
 * `ChildClientID`), not as the switch. A store that cannot be read throws: the bus retries.
 */
async function readContext(
  store: BankWorkerStore,
  request: Extract<BankRequestMessage, { op: 'saldo' | 'movimientos' | 'creditos' }>,
): Promise<ReadContext> {
  if (!request.merchantId) return {};
  const held = await store.accounts.find(request.mode, request.query.cuenta);
  if (!held || held.merchantId !== request.merchantId) return { merchantId: request.merchantId };
  const account = { cuenta: held.cuenta, telefono: held.telefono, ...(held.rif ? { rif: held.rif } : {}) };
  return { merchantId: request.merchantId, account };
}

/**
 * Sends one attempt's order at most once, whatever is redelivered, retried, crashed or rebalanced:
 * the journal is claimed before the call and the outcome recorded before it is published. A
 * redelivery that finds the outcome answers it again; one that finds only the claim never calls the
 * bank again: the attempt is `unknown`, which the router resolves by asking the bank's status.
 */
async function executeOnce(
  worker: Worker,
  connector: BankConnector,
  request: ExecuteRequest,
): Promise<{ outcome: BankOutcome; sent: boolean }> {
  const { store, banco, log } = worker;
  const id = bankOrderId(request.txnId, request.attempt);
  // A store that cannot be reached throws here, before any bank call: the bus retries the message.
  const claim = await store.bankOrders.claim({
    id,
    txnId: request.txnId,
    attempt: request.attempt,
    banco,
    orderRef: request.orderRef,
    claimedBy: WORKER_ID,
    claimedAt: new Date().toISOString(),
    outcome: null,
    recordedAt: null,
  });
  if (!claim.claimed) {
    if (claim.existing.outcome) return { outcome: claim.existing.outcome, sent: false };
    log.warn(
      { txnId: request.txnId, attempt: request.attempt, claimedBy: claim.existing.claimedBy },
      'order claimed before without a recorded outcome: not sent again',
    );
    const raw = {
      switch:
        'this order was claimed by an earlier delivery that recorded no outcome (crash, failover or redelivery); it is never sent twice: its status is asked instead',
      claimedAt: claim.existing.claimedAt,
    };
    return { outcome: { type: 'unknown', raw }, sent: false };
  }
  const order = withOpenOtp(request, worker.secrets);
  if (!order) {
    // Claimed by this delivery and provably never sent: the OTP does not open with this worker's keys
    // (a secrets key missing here). Recorded, so a redelivery answers the same.
    log.error({ txnId: request.txnId, attempt: request.attempt }, 'the order OTP does not open with this worker secrets keys: not sent');
    const unsent: BankOutcome = {
      type: 'not_processed',
      raw: { switch: 'the order could not be prepared (secrets key); it was not sent' },
    };
    await recordOutcome(store, id, unsent, log, worker.recordTries);
    return { outcome: unsent, sent: false };
  }
  let outcome = await guarded(log, request, () => bankCall(banco, request, () => connector.execute(order)));
  if (outcome.type === 'rejected' && outcome.motivo === 'DUPLICADA') outcome = await originalOf(worker, connector, request, outcome);
  await recordOutcome(store, id, outcome, log, worker.recordTries);
  return { outcome, sent: true };
}

/** The order with a cobrar's OTP opened, as only the connector sees it; null when it does not open. */
function withOpenOtp(request: ExecuteRequest, secrets: Pick<Sealer, 'open'>): ExecuteRequest | null {
  if (request.request.kind !== 'cobrar') return request;
  try {
    return { ...request, request: { kind: 'cobrar', body: { ...request.request.body, otp: secrets.open(request.request.body.otp) } } };
  } catch {
    return null;
  }
}

/**
 * "Duplicate reference" means the bank has an order with this reference already: the first delivery
 * of this attempt, whose answer was lost. Its status is what the merchant must be told, never a
 * rejection (the first one may have moved the money).
 */
async function originalOf(
  worker: Worker,
  connector: BankConnector,
  request: ExecuteRequest,
  duplicate: Extract<BankOutcome, { type: 'rejected' }>,
): Promise<BankOutcome> {
  const query = {
    txnId: request.txnId,
    attempt: request.attempt,
    orderRef: request.orderRef,
    mode: request.mode,
    rail: request.rail,
    kind: request.request.kind,
    referencia: duplicate.referencia,
    endtoend: null,
    ...(request.merchantId ? { merchantId: request.merchantId } : {}),
    ...(request.account ? { account: request.account } : {}),
  };
  const status = await guarded(worker.log, request, () =>
    bankCall(worker.banco, { ...query, op: 'status' }, () => connector.status(query)),
  );
  const raw = {
    switch: 'the bank answered duplicate reference: the original order was asked for its status',
    duplicate: duplicate.raw,
    status: status.raw,
  };
  if (status.type === 'settled' || status.type === 'accepted') return { ...status, raw };
  if (status.type === 'rejected' && status.motivo !== 'DUPLICADA') return { ...status, raw };
  return { type: 'unknown', raw };
}

/**
 * The bank has answered: keep trying to write it down for a while (a store blip must not turn a
 * known answer into an unknown one), then give up and let the bus redeliver, which reads the claim
 * without an outcome and goes the status-query way.
 */
async function recordOutcome(store: BankWorkerStore, id: string, outcome: BankOutcome, log: Logger, tries = 8): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await store.bankOrders.recordOutcome(id, outcome, new Date().toISOString());
      return;
    } catch (error) {
      if (attempt >= tries) throw error;
      log.warn({ err: error, order: id, attempt }, 'recording a bank outcome failed; retrying');
      await sleep(Math.min(5_000, 100 * 2 ** attempt));
    }
  }
}

/** A connector that throws is treated as `unknown`: the order may have reached the bank. */
async function guarded(
  log: Logger,
  request: Extract<BankRequestMessage, { op: 'execute' | 'status' }>,
  work: () => Promise<BankOutcome>,
): Promise<BankOutcome> {
  try {
    return await work();
  } catch (error) {
    log.error({ err: error, txnId: request.txnId, op: request.op }, 'connector threw');
    return { type: 'unknown', raw: { switch: `connector failure: ${error instanceof Error ? error.message : String(error)}` } };
  }
}

const tracer = trace.getTracer('@switch/platform');

/**
 * The connector's call as its own span, `bank.<op>` (the bank's HTTP requests are its children), in the
 * trace the request message carried. A no-op when tracing is off.
 */
function bankCall<T>(
  banco: BancoId,
  request: Pick<BankRequestMessage, 'op' | 'mode'> & Partial<{ txnId: string; attempt: number }>,
  work: () => Promise<T>,
): Promise<T> {
  const attributes = {
    'switch.bank': banco,
    'switch.operation': request.op,
    'switch.mode': request.mode,
    ...(request.txnId !== undefined ? { 'switch.txn_id': request.txnId, 'switch.attempt': request.attempt ?? 0 } : {}),
  };
  return tracer.startActiveSpan(`bank.${request.op}`, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      const result = await work();
      const r = result as { type?: unknown; ok?: unknown; motivo?: unknown };
      const outcome = typeof r.type === 'string' ? r.type : r.ok === true ? 'ok' : typeof r.motivo === 'string' ? r.motivo : undefined;
      if (outcome) span.setAttribute('switch.outcome', outcome);
      return result;
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}
