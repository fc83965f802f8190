import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagarBody, startTestSwitch, telefono, type TestSwitch } from './helpers';

/** The value of one series in a Prometheus text scrape (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string>): number {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (want.every((l) => line.includes(l))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

describe('metrics after a scripted flow (what an SRE scrapes)', () => {
  let t: TestSwitch;
  beforeAll(async () => {
    t = await startTestSwitch();
  });
  afterAll(async () => {
    await t.close();
  });
  const scrape = async () => (await t.operator({ method: 'GET', url: '/metrics' })).body;

  it('moves the HTTP, operation, bank-call and processing series as the flow implies', async () => {
    const before = await scrape();
    const pm = await t.post('/switch/v1/pagar', pagarBody({ beneficiario: telefono(), via: 'pago_movil' }));
    const ci = await t.post('/switch/v1/pagar', pagarBody({ via: 'credito_inmediato' }));
    expect(pm.json().estado).toBe('LIQUIDADA');
    expect(ci.json().estado).toBe('ACEPTADA');
    expect((await t.post('/switch/v1/consultar', { id: ci.json().id })).json().estado).toBe('LIQUIDADA');
    expect((await t.post('/switch/v1/pagar', { nope: true })).statusCode).toBe(400);
    await t.settle();
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);

    expect(delta('http_requests_total', { service: 'gateway', route: '/switch/v1/pagar', method: 'POST', status_code: '200' })).toBe(2);
    expect(delta('http_requests_total', { service: 'gateway', route: '/switch/v1/pagar', method: 'POST', status_code: '400' })).toBe(1);
    expect(delta('http_request_duration_seconds_count', { service: 'gateway', route: '/switch/v1/consultar', method: 'POST' })).toBe(1);
    expect(delta('switch_operations_started_total', { kind: 'pagar', mode: 'test' })).toBe(2);
    expect(
      delta('switch_operations_finished_total', { kind: 'pagar', bank: 'bnc', rail: 'pago_movil', mode: 'test', estado: 'LIQUIDADA' }),
    ).toBe(1);
    expect(
      delta('switch_operations_finished_total', {
        kind: 'pagar',
        bank: 'bnc',
        rail: 'credito_inmediato',
        mode: 'test',
        estado: 'ACEPTADA',
      }),
    ).toBe(1);
    expect(
      delta('switch_operations_finished_total', {
        kind: 'pagar',
        bank: 'bnc',
        rail: 'credito_inmediato',
        mode: 'test',
        estado: 'LIQUIDADA',
      }),
    ).toBe(1);
    expect(delta('switch_reconciler_resolutions_total', { from_estado: 'ACEPTADA', to_estado: 'LIQUIDADA' })).toBe(1);
    expect(delta('switch_bank_calls_total', { bank: 'bnc', operation: 'execute', outcome: 'settled' })).toBe(1);
    expect(delta('switch_bank_calls_total', { bank: 'bnc', operation: 'execute', outcome: 'accepted' })).toBe(1);
    expect(delta('switch_bank_calls_total', { bank: 'bnc', operation: 'status', outcome: 'settled' })).toBe(1);
    expect(delta('switch_message_processing_duration_seconds_count', { group: 'router' })).toBeGreaterThanOrEqual(5);
    // Ids never become labels: the label sets stay bounded.
    expect(after).not.toContain(ci.json().id);
  });
});
