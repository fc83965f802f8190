import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook } from '@switch-pagos/webhooks';
import { createLogger } from '@switch/platform/telemetry/logger';
import { newWebhookSecret } from '@switch/core/contracts/webhook';
import { registerWebhook } from '@switch/usecases/onboarding';
import { seedDemoMerchant, startEmbeddedSwitch, type EmbeddedSwitch } from '@switch/embedded';

/**
 * The integration kit's verifiers (kit/verifiers/*) and the Standard Webhooks reference libraries
 * (npm and PyPI `standardwebhooks`) verify REAL deliveries: the in-process switch makes a payout, its
 * notifier POSTs to a receiver here, and the captured bytes and headers are given to each verifier,
 * untouched and tampered with. Each language is compiled once for the whole file.
 */

const ROOT = resolve(__dirname, '../..');
const KIT = resolve(ROOT, 'kit/verifiers');
const BUILD = resolve(ROOT, '.cache/kit-verifiers');

interface Captured {
  body: Buffer;
  headers: IncomingHttpHeaders;
}

/** A merchant's receiver: keeps the raw bytes and headers of every POST, answers 200. */
async function startReceiver() {
  const got: Captured[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, got, close: () => new Promise((r) => server.close(r)) };
}

interface Case {
  name: string;
  body: Buffer;
  headers: Record<string, string>;
  secrets: string[];
  now: number;
}

/** The kit's line format (kit/verifiers/README.md, "Testing"): every value base64 so nothing needs escaping. */
function encode(cases: Case[]): string {
  const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
  return cases
    .map((c) =>
      [
        `case ${c.name}`,
        ...c.secrets.map((s) => `secret ${b64(s)}`),
        `now ${c.now}`,
        ...Object.entries(c.headers).map(([k, v]) => `header ${k} ${b64(v)}`),
        `body ${b64(c.body)}`,
        'end',
      ].join('\n'),
    )
    .join('\n')
    .concat('\n');
}

function run(cmd: string, args: string[], options: { cwd?: string; input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((ok, fail) => {
    const child = execFile(
      cmd,
      args,
      { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, maxBuffer: 16 << 20 },
      (e, stdout, stderr) => (e ? fail(new Error(`${cmd} ${args.join(' ')} failed: ${e.message}\n${stderr}`)) : ok(stdout)),
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** `<name> ok` / `<name> fail <reason>` lines → { name: 'ok' | 'fail <reason>' }. */
const outcomes = (stdout: string) =>
  Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((l) => {
        const [name, ...rest] = l.split(' ');
        return [name, rest.join(' ')];
      }),
  );

const relevant = (h: IncomingHttpHeaders) =>
  Object.fromEntries(
    Object.entries(h).filter(([k]) => k.startsWith('webhook-') || k.startsWith('x-service-') || k === 'content-type') as [string, string][],
  );

describe('webhook verifiers in four languages and the Standard Webhooks libraries, on real deliveries', () => {
  let sw: EmbeddedSwitch;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let current: { delivery: Captured; secret: string };
  let cases: Case[];
  const expected = {
    positive: 'ok',
    tampered_body: 'fail bad_signature',
    wrong_secret: 'fail bad_signature',
    stale_timestamp: 'fail stale_timestamp',
    timestamp_replaced: 'fail bad_standard_signature',
    rotation_overlap: 'ok',
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    sw = await startEmbeddedSwitch({
      log: createLogger('test', 'silent'),
      notifier: { pollIntervalMs: 50 },
      reconciler: { intervalMs: 3_600_000 },
    });
    const { switchKey, merchantId } = await seedDemoMerchant(sw.store);
    const { endpoint, secret } = await registerWebhook(
      sw.store,
      { merchantId, mode: 'test', url: `${receiver.base}/current`, events: ['transaccion.liquidada'] },
      sw.secrets,
    );

    const res = await sw.gateway.app.inject({
      method: 'POST',
      url: '/switch/v1/pagar',
      headers: { 'x-switch-key': switchKey },
      payload: {
        idempotency_key: randomUUID(),
        monto: { valor: 150.5, moneda: 'VES' },
        concepto: 'Pago a proveedor ñandú',
        ordenante: { tipo: 'cuenta', valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Mi Tienda' },
        beneficiario: { tipo: 'telefono', valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana Pérez' },
        via: 'pago_movil',
      },
    });
    expect(res.json()).toMatchObject({ estado: 'LIQUIDADA' });
    await vi.waitFor(() => expect(receiver.got).toHaveLength(1), { timeout: 30_000, interval: 50 });
    const byUrl = (suffix: string) => receiver.got.find((g) => (g.headers['webhook-id'] as string).endsWith(suffix))!;
    current = { delivery: byUrl(endpoint.id), secret };

    const ts = Number(current.delivery.headers['webhook-timestamp']);
    const base = { body: current.delivery.body, headers: relevant(current.delivery.headers), secrets: [current.secret], now: ts };
    const tampered = Buffer.from(current.delivery.body.toString('utf8').replace('"monto":150.5', '"monto":1150.5'));
    expect(tampered.equals(current.delivery.body)).toBe(false);
    cases = [
      { name: 'positive', ...base },
      { name: 'tampered_body', ...base, body: tampered },
      { name: 'wrong_secret', ...base, secrets: [newWebhookSecret()] },
      { name: 'stale_timestamp', ...base, now: ts + 301 },
      // A replayed delivery with its timestamp refreshed: the SPEC signature still matches, the standard one does not.
      { name: 'timestamp_replaced', ...base, headers: { ...base.headers, 'webhook-timestamp': String(ts + 600) }, now: ts + 600 },
      { name: 'rotation_overlap', ...base, secrets: [newWebhookSecret(), current.secret] },
    ];
    mkdirSync(BUILD, { recursive: true });
  });

  afterAll(async () => {
    await sw?.close();
    await receiver?.close();
  });

  it('the deliveries are what SPEC 6 and Standard Webhooks say, and secrets are issued as whsec_ + base64', () => {
    const h = current.delivery.headers;
    expect(current.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(h['content-type']).toBe('application/json');
    expect(h['x-service-event']).toBe('transaccion.liquidada');
    expect(h['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(JSON.parse(current.delivery.body.toString('utf8'))).toMatchObject({
      type: 'transaccion.liquidada',
      data: { estado: 'LIQUIDADA' },
    });
  });

  it('TypeScript (@switch-pagos/webhooks)', () => {
    const got = Object.fromEntries(
      cases.map((c) => {
        const r = verifyWebhook(c.body, c.headers, { secret: c.secrets, nowSeconds: () => c.now });
        return [c.name, r.ok ? 'ok' : `fail ${r.reason}`];
      }),
    );
    expect(got).toEqual(expected);
    const ok = verifyWebhook<{ data: { estado: string } }>(current.delivery.body, current.delivery.headers, { secret: current.secret });
    expect(ok).toMatchObject({ ok: true, event: 'transaccion.liquidada', payload: { data: { estado: 'LIQUIDADA' } } });
    // A parsed body is not the raw body.
    expect(
      verifyWebhook(JSON.parse(current.delivery.body.toString()) as never, current.delivery.headers, { secret: current.secret }),
    ).toEqual({
      ok: false,
      reason: 'body_not_raw',
    });
  });

  it('Python (stdlib only)', async () => {
    const out = await run('python3', [resolve(KIT, 'python/switch_webhooks.py')], { input: encode(cases) });
    expect(outcomes(out)).toEqual(expected);
  });

  it('Go (stdlib only)', async () => {
    const bin = resolve(BUILD, 'verifycases-go');
    // No external modules: the build needs no network. GOTOOLCHAIN=local keeps it from fetching a toolchain.
    const env = { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod', CGO_ENABLED: '0' };
    await run('go', ['vet', './...'], { cwd: resolve(KIT, 'go'), env });
    await run('go', ['build', '-o', bin, './cmd/verifycases'], { cwd: resolve(KIT, 'go'), env });
    expect(outcomes(await run(bin, [], { input: encode(cases) }))).toEqual(expected);
  }, 240_000);

  it('Java (JDK 17 stdlib only)', async () => {
    const out = resolve(BUILD, 'java');
    const src = resolve(KIT, 'java/src/com/switchpagos/webhooks');
    await run('javac', ['--release', '17', '-d', out, resolve(src, 'WebhookVerifier.java'), resolve(src, 'VerifyCases.java')]);
    expect(outcomes(await run('java', ['-cp', out, 'com.switchpagos.webhooks.VerifyCases'], { input: encode(cases) }))).toEqual(expected);
  }, 240_000);

  it('npm standardwebhooks verifies the deliveries with the secret exactly as issued', () => {
    const wh = new Webhook(current.secret);
    expect(wh.verify(current.delivery.body.toString('utf8'), relevant(current.delivery.headers))).toMatchObject({
      type: 'transaccion.liquidada',
    });
    const byName = Object.fromEntries(cases.map((c) => [c.name, c]));
    expect(() => wh.verify(byName.tampered_body!.body.toString('utf8'), byName.tampered_body!.headers)).toThrow(/No matching signature/);
    expect(() =>
      new Webhook(newWebhookSecret()).verify(current.delivery.body.toString('utf8'), relevant(current.delivery.headers)),
    ).toThrow(/No matching signature/);
  });

  it('PyPI standardwebhooks verifies the deliveries with the secret exactly as issued', async () => {
    const byName = Object.fromEntries(cases.map((c) => [c.name, c]));
    const fresh: Case[] = [byName.positive!, byName.tampered_body!, byName.wrong_secret!];
    const out = outcomes(await run('bash', [resolve(ROOT, 'test/kit/standardwebhooks-pypi.sh')], { input: encode(fresh) }));
    expect(out).toEqual({
      positive: 'ok',
      tampered_body: 'fail No matching signature found',
      wrong_secret: 'fail No matching signature found',
    });
  }, 240_000);
});
