import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createLogger } from '@switch/platform/telemetry/logger';
import { SANDBOX, type SandboxBank, type SandboxValue } from '@switch/core/sandbox';
import { seedDemoMerchant, startEmbeddedSwitch, type EmbeddedSwitch } from '@switch/embedded';
import { cuentaBeneficiario, pagar, telefono, token } from './helpers';

/**
 * The test-mode sandbox (docs/sandbox.md): every magic amount of every bank, end to end through the
 * REST API of the in-process switch, its emulators behind the real connectors. The rows are the ones
 * /bancos publishes (packages/core/src/sandbox.ts), so what is documented is what is tested.
 */

const SETTLE_MS = 200;
/** Far above the ordinary settlement, so "still open after an ordinary one settled" holds on a busy machine. */
const SLOW_SETTLE_MS = 10_000;

describe('the sandbox fails on demand: magic amounts per bank (test mode, emulators)', () => {
  let sw: EmbeddedSwitch;
  let key: string;
  const send = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    sw.gateway.app.inject({ method, url, headers: { 'x-switch-key': key }, payload: payload as InjectOptions['payload'] });

  beforeAll(async () => {
    sw = await startEmbeddedSwitch({
      log: createLogger('test', 'silent'),
      env: {},
      banks: {
        emulators: true,
        emulatorSettleMs: SETTLE_MS,
        emulatorSlowSettleMs: SLOW_SETTLE_MS,
        // Breakers stay closed: the sandbox's failures are many and on purpose.
        env: { PLAZA_BREAKER_VOLUME: '10000', BANCARIBE_BREAKER_VOLUME: '10000', ACTIVO_BREAKER_VOLUME: '10000' },
      },
      reconciler: { intervalMs: 3_600_000 },
      config: { failureLimitPerIpPerMinute: 1_000_000 },
    });
    key = (await seedDemoMerchant(sw.store)).switchKey;
  });
  afterAll(async () => {
    await sw?.close();
  });

  const monto = (centavos: string) => ({ valor: Number(`100.${centavos}`), moneda: 'VES' });
  const consultar = async (id: string) => (await send('POST', '/switch/v1/consultar', { id })).json();

  /** Sends the row's request; returns the first answer. */
  async function provoke(banco: SandboxBank, v: SandboxValue) {
    if (v.operacion === 'pagar') {
      return send(
        'POST',
        '/switch/v1/pagar',
        pagar({ banco_preferido: banco, via: 'credito_inmediato', beneficiario: cuentaBeneficiario(), monto: monto(v.centavos) }),
      );
    }
    const body = token({ banco_preferido: banco, monto: monto(v.centavos) });
    if (v.operacion === 'cobrar/token') return send('POST', '/switch/v1/cobrar/token', body);
    // A collection: after its token step where the bank has one (the step accepts these amounts).
    if (banco !== 'bancaribe') {
      const tok = await send('POST', '/switch/v1/cobrar/token', body);
      expect(tok.json(), `token step of .${v.centavos}`).toMatchObject({ estado: 'ACEPTADA', banco_usado: banco });
    }
    return send('POST', '/switch/v1/cobrar', { ...body, otp: '12345678' });
  }

  it('GET /bancos in test mode lists each emulated bank with its magic amounts; bnc (simulated) has none', async () => {
    const res = await send('GET', '/switch/v1/bancos');
    expect(res.statusCode).toBe(200);
    const byBank = Object.fromEntries((res.json() as { banco: string; sandbox?: unknown }[]).map((e) => [e.banco, e]));
    expect(byBank.bnc).not.toHaveProperty('sandbox');
    for (const banco of Object.keys(SANDBOX) as SandboxBank[]) expect(byBank[banco]).toMatchObject({ sandbox: SANDBOX[banco] });
  });

  it('without banco_preferido a magic amount changes nothing: the simulated bank (bnc) answers as always', async () => {
    const res = await send('POST', '/switch/v1/pagar', pagar({ via: 'pago_movil', beneficiario: telefono(), monto: monto('51') }));
    expect(res.json()).toMatchObject({ estado: 'LIQUIDADA', banco_usado: 'bnc', raw: { simulated: true } });
  });

  it.each(Object.keys(SANDBOX) as SandboxBank[])(
    '%s: every magic amount gives its documented outcome',
    async (banco) => {
      const slow: { v: SandboxValue; id: string }[] = [];
      for (const v of SANDBOX[banco]) {
        const label = `${banco} .${v.centavos} (${v.operacion})`;
        const res = await provoke(banco, v);
        expect(res.statusCode, `${label}: ${res.body}`).toBe(200);
        const first = res.json();
        expect(first, label).toMatchObject({ estado: v.estado, banco_usado: banco });
        if (!v.final) {
          expect(first.motivo_rechazo, label).toBe(v.motivo_rechazo);
          continue;
        }
        expect(first.motivo_rechazo, label).toBeNull();
        if (v.centavos === '83') {
          slow.push({ v, id: first.id });
          continue;
        }
        await vi.waitFor(async () => expect((await consultar(first.id)).estado, label).toBe(v.final), { timeout: 20_000, interval: 100 });
        expect(await consultar(first.id), label).toMatchObject({ estado: v.final, motivo_rechazo: v.motivo_rechazo, banco_usado: banco });
      }

      // Slow settlement: an ordinary crédito inmediato sent after it settles first; the slow one settles later.
      expect(slow).toHaveLength(1);
      const ordinary = (await provoke(banco, { ...slow[0]!.v, centavos: '00' })).json();
      expect(ordinary).toMatchObject({ estado: 'ACEPTADA', banco_usado: banco });
      await vi.waitFor(async () => expect((await consultar(ordinary.id)).estado).toBe('LIQUIDADA'), { timeout: 20_000, interval: 100 });
      expect((await consultar(slow[0]!.id)).estado).toMatch(/^(ACEPTADA|PENDIENTE)$/);
      await vi.waitFor(async () => expect((await consultar(slow[0]!.id)).estado).toBe('LIQUIDADA'), { timeout: 60_000, interval: 250 });
    },
    180_000,
  );
});
