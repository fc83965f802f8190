import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { bankRequests, TOPICS } from '../contracts/topics';
import type { BankRequestMessage, GatewayReplyMessage } from '../contracts/messages';
import type { Bus, Subscription } from '../ports/bus';
import type { BankConnector } from '../ports/bank';
import type { BancoId, Mode } from '../domain/bancos';
import type { BankOutcome } from '../domain/operation';
import type { Logger } from '../telemetry/logger';
import { measured, metrics } from '../telemetry/metrics';

export interface BankWorkerOptions {
  bus: Bus;
  banco: BancoId;
  /** The connector serving each mode this worker handles; requests of other modes are left to other workers. */
  connectors: Partial<Record<Mode, BankConnector>>;
  group: string;
  log: Logger;
}

/**
 * Drives one bank's connector from its request topic. Orders answer to the transaction actor, reads
 * to the gateway that asked. A connector that throws is treated as `unknown` for an order (it may
 * have reached the bank) and as a failed read otherwise.
 */
export async function startBankWorker(options: BankWorkerOptions): Promise<Subscription> {
  const { bus, banco, connectors, log } = options;
  const topic = bankRequests(banco);
  return bus.subscribe(topic, { group: options.group }, measured(options.group, topic.name, async ({ value }) => {
    const connector = connectors[value.mode];
    if (!connector) return;
    const end = metrics.bankCallDuration.startTimer({ bank: banco, operation: value.op });
    const outcome = await handle(bus, banco, connector, value, log);
    end({ outcome });
    metrics.bankCalls.inc({ bank: banco, operation: value.op, outcome });
  }));
}

/** Handles one request and returns its outcome's name (for metrics). */
async function handle(bus: Bus, banco: BancoId, connector: BankConnector, request: BankRequestMessage, log: Logger): Promise<string> {
  const call = <T>(work: () => Promise<T>) => bankCall(banco, request, work);
  switch (request.op) {
    case 'execute':
    case 'status': {
      let outcome: BankOutcome;
      try {
        outcome = await call(() => (request.op === 'execute' ? connector.execute(request) : connector.status(request)));
      } catch (error) {
        log.error({ err: error, txnId: request.txnId, op: request.op }, 'connector threw');
        outcome = { type: 'unknown', raw: { switch: `connector failure: ${error instanceof Error ? error.message : String(error)}` } };
      }
      await bus.publish(TOPICS.routerInbox, request.txnId, {
        type: 'bank_result',
        txnId: request.txnId,
        attempt: request.attempt,
        op: request.op,
        outcome,
      });
      return outcome.type;
    }
    case 'saldo':
    case 'movimientos': {
      let result: GatewayReplyMessage['result'];
      try {
        if (request.op === 'saldo') {
          const r = await call(() => connector.saldo(request.mode, request.query));
          result = r.ok ? { ok: true, saldo: r.value } : r;
        } else {
          const r = await call(() => connector.movimientos(request.mode, request.query));
          result = r.ok ? { ok: true, movimientos: r.value } : r;
        }
      } catch (error) {
        log.error({ err: error, op: request.op }, 'connector threw');
        result = { ok: false, motivo: 'RECHAZO_TECNICO', raw: { switch: 'connector failure' } };
      }
      await bus.publish(TOPICS.gatewayReplies, request.gatewayId, { correlationId: request.correlationId, gatewayId: request.gatewayId, result });
      return result.ok ? 'ok' : result.motivo;
    }
  }
}

const tracer = trace.getTracer('@switch/shared');

/**
 * The connector's call as its own span, `bank.<op>` (the bank's HTTP requests are its children), in the
 * trace the request message carried. A no-op when tracing is off.
 */
function bankCall<T>(banco: BancoId, request: BankRequestMessage, work: () => Promise<T>): Promise<T> {
  const attributes = {
    'switch.bank': banco,
    'switch.operation': request.op,
    'switch.mode': request.mode,
    ...('txnId' in request ? { 'switch.txn_id': request.txnId, 'switch.attempt': request.attempt } : {}),
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
