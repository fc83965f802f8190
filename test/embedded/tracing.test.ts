import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmbeddedProcess, type EmbeddedProcess } from './process';

/**
 * `npm start` honours the standard OTEL_* variables like every service (packages/platform/src/telemetry/tracing.ts):
 * with an OTLP endpoint set, one payout is one trace, from the HTTP server span to the bank call,
 * exported over OTLP/HTTP JSON under OTEL_SERVICE_NAME.
 */
interface Span {
  service: string;
  traceId: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}
const SERVER = 2;

let receiver: Server;
const spans: Span[] = [];
let sw: EmbeddedProcess;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces' && String(req.headers['content-type']).includes('application/json')) {
        type Attr = { key: string; value: Record<string, unknown> };
        const flat = (list: Attr[] = []) => Object.fromEntries(list.map((a) => [a.key, Object.values(a.value)[0]]));
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        for (const rs of body.resourceSpans ?? []) {
          const service = String(flat(rs.resource?.attributes)['service.name']);
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              spans.push({ service, traceId: s.traceId, name: s.name, kind: s.kind, attributes: flat(s.attributes) });
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  sw = await startEmbeddedProcess({
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
    OTEL_SERVICE_NAME: 'switch-local',
    OTEL_BSP_SCHEDULE_DELAY: '100',
  });
});

afterAll(async () => {
  await sw?.stop();
  await new Promise((r) => receiver.close(r));
});

describe('npm start with OTEL_* variables', () => {
  it('exports one trace per payout, from the HTTP request to the bank call, under OTEL_SERVICE_NAME', async () => {
    const res = await fetch(`${sw.baseUrl}/switch/v1/pagar`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-switch-key': sw.key },
      body: JSON.stringify({
        idempotency_key: randomUUID(),
        monto: { valor: 12.34 },
        concepto: 'tracing',
        ordenante: { tipo: 'cuenta', valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Comercio' },
        beneficiario: { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' },
        via: 'pago_movil',
      }),
    });
    expect(((await res.json()) as { estado: string }).estado).toBe('LIQUIDADA');

    const serverSpan = () =>
      spans.find(
        (s) => s.kind === SERVER && Object.values(s.attributes).some((v) => typeof v === 'string' && v.includes('/switch/v1/pagar')),
      );
    await expect.poll(serverSpan, { timeout: 30_000 }).toBeDefined();
    const { traceId, service } = serverSpan()!;
    expect(service).toBe('switch-local');
    // The bank call ran in the same process, continuing the request's trace over the in-process bus.
    await expect.poll(() => spans.find((s) => s.name === 'bank.execute' && s.traceId === traceId), { timeout: 30_000 }).toBeDefined();
  });
});
