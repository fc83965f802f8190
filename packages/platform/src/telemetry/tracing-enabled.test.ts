import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { trace, type Span } from '@opentelemetry/api';
import { startTracing, stopTracing } from './tracing';
import { loadTracingConfig } from '../config/tracing';
import { createLogger } from './logger';
import { MemoryBus } from '../adapters/memory/bus';
import { MemoryStore } from '../adapters/memory/store';
import { startBankWorker } from '../runtime/bank-worker';
import { bankRequests, TOPICS, type RouterInboxMessage } from '@switch/core/contracts/topics';
import type { BankConnector } from '@switch/connector-kit/bank-port';
import { SecretBox } from '../runtime/secret-box';

/**
 * Tracing on (an OTLP endpoint set), in this test process: modules patched, trace ids in logs, trace
 * context carried by the in-memory bus, the bank-call span, and the spans exported as OTLP/JSON when
 * tracing stops. (Across real processes and Kafka: test/e2e/tracing.e2e.test.ts.)
 */
type Exported = {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: { stringValue?: string } }[];
};
const received: { service: string; span: Exported }[] = [];
let receiver: Server;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type']?.includes('application/json')) {
        for (const rs of JSON.parse(body).resourceSpans ?? []) {
          const service = rs.resource.attributes.find((a: { key: string }) => a.key === 'service.name')?.value.stringValue;
          for (const ss of rs.scopeSpans) for (const span of ss.spans) received.push({ service, span });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`);
  vi.stubEnv('OTEL_SERVICE_NAME', undefined);
  vi.stubEnv('OTEL_TRACES_EXPORTER', undefined);
  vi.stubEnv('OTEL_SDK_DISABLED', undefined);
  // Nothing is exported before stopTracing flushes.
  vi.stubEnv('OTEL_BSP_SCHEDULE_DELAY', '3600000');
});

afterAll(async () => {
  await stopTracing();
  vi.unstubAllEnvs();
  await new Promise((r) => receiver.close(r));
});

describe('tracing on', () => {
  it('starts once and patches modules required after it', () => {
    const exit = process.exit;
    expect(startTracing('unit-service', loadTracingConfig())).toBe(true);
    expect(startTracing('unit-service', loadTracingConfig())).toBe(true);
    expect(process.exit).not.toBe(exit); // flushes before exiting
    const { Kafka } = createRequire(__filename)('kafkajs') as typeof import('kafkajs');
    expect('__wrapped' in Kafka.prototype.producer).toBe(true);
    expect('__wrapped' in Kafka.prototype.consumer).toBe(true);
  });

  it('puts the active trace and span ids in log lines', () => {
    let text = '';
    const log = createLogger(
      'unit',
      'info',
      new Writable({
        write: (chunk: Buffer, _e, done) => {
          text += chunk.toString();
          done();
        },
      }),
    );
    log.info('outside');
    const span = trace.getTracer('unit').startActiveSpan('logging', (s) => {
      log.info('inside');
      s.end();
      return s;
    });
    const [outside, inside] = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(outside).not.toHaveProperty('trace_id');
    expect(inside).toMatchObject({ trace_id: span.spanContext().traceId, span_id: span.spanContext().spanId });
  });

  it('carries the trace over the in-memory bus into the bank call span, and exports it on stop', async () => {
    const bus = new MemoryBus();
    const connector = {
      execute: async () => ({ type: 'settled', referencia: 'R-1', endtoend: null, raw: {} }),
    } as unknown as BankConnector;
    await startBankWorker({
      secrets: SecretBox.ephemeral(),
      bus,
      store: new MemoryStore(),
      banco: 'bnc',
      connectors: { test: connector },
      group: 'bank-test',
      log: createLogger('unit', 'silent'),
    });
    const answers: { value: RouterInboxMessage; headers: Record<string, string>; traceId: string | undefined }[] = [];
    await bus.subscribe(
      TOPICS.routerInbox,
      { group: 'probe' },
      async ({ value, headers }) => void answers.push({ value, headers, traceId: trace.getActiveSpan()?.spanContext().traceId }),
    );

    const txnId = 'txn_traced';
    const publisher: Span = await trace.getTracer('unit').startActiveSpan('publisher', async (span) => {
      await bus.publish(bankRequests('bnc'), txnId, {
        op: 'execute',
        txnId,
        attempt: 1,
        orderRef: `${txnId}-1`,
        mode: 'test',
        rail: 'pago_movil',
        idempotencyKey: '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60',
        related: null,
        request: {
          kind: 'pagar',
          body: {
            idempotency_key: '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60',
            monto: { valor: 15, moneda: 'VES' },
            concepto: 'traced',
            via: 'pago_movil',
            ordenante: { tipo: 'telefono', valor: '04140000001', banco: '0191', identificacion: 'J80066227', nombre: 'Comercio' },
            beneficiario: { tipo: 'telefono', valor: '04121112233', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
          },
        },
      });
      span.end();
      return span;
    });
    await bus.drained();
    const { traceId, spanId } = publisher.spanContext();
    // The answer the worker published is in the same trace, its traceparent in the message headers.
    expect(answers).toHaveLength(1);
    expect(answers[0]!.value).toMatchObject({ type: 'bank_result', txnId, outcome: { type: 'settled' } });
    expect(answers[0]!.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(answers[0]!.traceId).toBe(traceId);

    await stopTracing();
    const bank = received.find((r) => r.span.name === 'bank.execute');
    expect(bank?.service).toBe('unit-service');
    expect(bank?.span).toMatchObject({ traceId, parentSpanId: spanId });
    const attributes = Object.fromEntries(bank!.span.attributes.map((a) => [a.key, a.value.stringValue]));
    expect(attributes).toMatchObject({
      'switch.bank': 'bnc',
      'switch.operation': 'execute',
      'switch.mode': 'test',
      'switch.txn_id': txnId,
      'switch.outcome': 'settled',
    });
    await bus.close();
  });
});
