import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestMerchant, isolatedRun, reportServicesOnFailure, type ServiceProcess, startService, stopAllServices } from './processes';

/**
 * Tracing across processes: gateway, router and bank-sim on real Kafka, the schema registry and a
 * MongoDB-compatible server, exporting OTLP/HTTP JSON to a receiver in this test. One payout must be
 * one trace, from the merchant's HTTP request at the gateway, over every Kafka hop, to the bank call
 * in bank-sim's process.
 */
const RUN = isolatedRun('e2etr');
const ADMIN = RUN.adminToken;

/** A span as read from OTLP/JSON, flattened with its service's name. */
interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}
const SPAN_KIND = { SERVER: 2, PRODUCER: 4, CONSUMER: 5 } as const;

type OtlpValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
type OtlpAttribute = { key: string; value: OtlpValue };
type OtlpTraces = {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: OtlpAttribute[] }[];
    }[];
  }[];
};

const attributes = (list: OtlpAttribute[] = []): Record<string, unknown> =>
  Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue]));
/** OTLP/JSON ids are hex; tolerate base64 too. */
const hexId = (id: string | undefined): string =>
  !id ? '' : /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex');

/** An OTLP/HTTP receiver accepting JSON on POST /v1/traces. */
async function startOtlpReceiver() {
  const spans: ExportedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !String(req.headers['content-type']).includes('application/json')) {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpTraces;
      for (const rs of body.resourceSpans ?? []) {
        const service = String(attributes(rs.resource?.attributes)['service.name']);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              service,
              traceId: hexId(s.traceId),
              spanId: hexId(s.spanId),
              parentSpanId: hexId(s.parentSpanId),
              name: s.name,
              kind: s.kind,
              attributes: attributes(s.attributes),
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, close: () => new Promise((r) => server.close(r)) };
}

describe('tracing: one trace from the merchant request to the bank call, across processes', () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let gateway: ServiceProcess | undefined;
  let _router: ServiceProcess | undefined;
  let sim: ServiceProcess | undefined;
  let key: string;

  beforeAll(async () => {
    RUN.requireInfra();
    receiver = await startOtlpReceiver();
    const env = {
      ...RUN.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
    };
    // bank-sim exports only when its batch fills or when it stops: its spans reach the receiver through
    // the flush of its graceful shutdown.
    [_router, sim] = await Promise.all([
      startService('router', env),
      startService('bank-sim', { ...env, OTEL_BSP_SCHEDULE_DELAY: '3600000' }),
    ]);
    // The gateway logs its requests at info: those lines must carry the request's trace id.
    gateway = await startService('gateway', { ...env, LOG_LEVEL: 'info' });
    key = (await createTestMerchant(gateway, ADMIN, 'tr', 'Tracing')).key;
  });

  afterAll(async () => {
    await stopAllServices();
    await receiver?.close();
  });

  reportServicesOnFailure();

  it('links the gateway HTTP server span to bank-sim bank.execute span through Kafka; logs and shutdown flush included', async () => {
    const res = await fetch(`http://127.0.0.1:${gateway!.port}/switch/v1/pagar`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-switch-key': key },
      body: JSON.stringify({
        idempotency_key: randomUUID(),
        monto: { valor: 12.34 },
        concepto: 'tracing',
        ordenante: { tipo: 'cuenta', valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Comercio' },
        beneficiario: { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
        via: 'pago_movil',
      }),
    });
    const body = (await res.json()) as { id: string; estado: string };
    expect(body.estado).toBe('LIQUIDADA');
    const txnId = body.id;

    // The gateway's server span for this request (the only /pagar request of the run).
    const serverSpan = () =>
      receiver.spans.find(
        (s) =>
          s.service === 'gateway' &&
          s.kind === SPAN_KIND.SERVER &&
          Object.values(s.attributes).some((v) => typeof v === 'string' && v.includes('/switch/v1/pagar')),
      );
    await expect.poll(() => serverSpan(), { timeout: 30_000 }).toBeDefined();
    const traceId = serverSpan()!.traceId;
    // The router's spans of the operation arrive in its next batches.
    await expect
      .poll(
        () =>
          receiver.spans.some(
            (s) =>
              s.service === 'router' &&
              s.traceId === traceId &&
              s.kind === SPAN_KIND.PRODUCER &&
              String(s.attributes['messaging.destination.name']).includes('bank'),
          ),
        {
          timeout: 30_000,
        },
      )
      .toBe(true);

    // Its log lines name the trace (pino mixin), e.g. fastify's "request completed".
    const logged = () =>
      gateway!
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { trace_id?: string; span_id?: string });
    await expect.poll(() => logged().some((l) => l.trace_id === traceId && typeof l.span_id === 'string'), { timeout: 10_000 }).toBe(true);

    // bank-sim still holds its spans; a graceful stop exports them before the process exits.
    expect(await sim!.stop()).toBe(0);
    const bankSpan = () =>
      receiver.spans.find((s) => s.service === 'bank-sim' && s.name === 'bank.execute' && s.attributes['switch.txn_id'] === txnId);
    await expect.poll(() => bankSpan(), { timeout: 30_000 }).toBeDefined();
    const bank = bankSpan()!;
    expect(bank.attributes).toMatchObject({ 'switch.bank': 'bnc', 'switch.operation': 'execute', 'switch.mode': 'test' });

    // One trace: every exported span that names this transaction (Kafka message keys, bank attributes) is in it.
    const ofTxn = receiver.spans.filter(
      (s) => s.attributes['messaging.kafka.message.key'] === txnId || s.attributes['switch.txn_id'] === txnId,
    );
    expect(new Set(ofTxn.map((s) => s.traceId))).toEqual(new Set([traceId]));
    expect(new Set(ofTxn.map((s) => s.service))).toEqual(new Set(['gateway', 'router', 'bank-sim']));

    // The parent chain from the bank call climbs, service by service, to the gateway's server span.
    const byId = new Map(receiver.spans.filter((s) => s.traceId === traceId).map((s) => [s.spanId, s]));
    const chain: ExportedSpan[] = [bank];
    for (let s = bank; s.parentSpanId; ) {
      const parent = byId.get(s.parentSpanId);
      if (!parent) throw new Error(`span ${s.name} (${s.service}) has a parent that was not exported: ${s.parentSpanId}`);
      s = parent;
      chain.push(s);
    }
    expect(chain.at(-1)).toBe(serverSpan());
    const hops = chain.map((s) => `${s.service}:${s.kind}`);
    // Consumer spans in bank-sim and router, continuing producer spans of router and gateway.
    expect(hops).toEqual(
      expect.arrayContaining([
        `bank-sim:${SPAN_KIND.CONSUMER}`,
        `router:${SPAN_KIND.PRODUCER}`,
        `router:${SPAN_KIND.CONSUMER}`,
        `gateway:${SPAN_KIND.PRODUCER}`,
      ]),
    );
    expect(chain.map((s) => s.service).filter((v, i, all) => v !== all[i - 1])).toEqual(['bank-sim', 'router', 'gateway']);
  }, 120_000);
});
