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
    const outcome = await handle(bus, connector, value, log);
    end({ outcome });
    metrics.bankCalls.inc({ bank: banco, operation: value.op, outcome });
  }));
}

/** Handles one request and returns its outcome's name (for metrics). */
async function handle(bus: Bus, connector: BankConnector, request: BankRequestMessage, log: Logger): Promise<string> {
  switch (request.op) {
    case 'execute':
    case 'status': {
      let outcome: BankOutcome;
      try {
        outcome = request.op === 'execute' ? await connector.execute(request) : await connector.status(request);
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
          const r = await connector.saldo(request.mode, request.query);
          result = r.ok ? { ok: true, saldo: r.value } : r;
        } else {
          const r = await connector.movimientos(request.mode, request.query);
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
