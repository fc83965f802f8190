import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createInvite } from '@switch/usecases/panel-access';
import { createMerchant } from '@switch/usecases/onboarding';
import { pagarBody, startTestSwitch, type TestSwitch } from '../api/helpers';

/**
 * The merchant panel in a real headless Chromium (Debian's, installed by test/browser/install.sh):
 * what a merchant does, what an attacker tries, and an axe-core check of every page. One browser
 * for the file; a context per person. Every checked page is saved as a screenshot under
 * `.artifacts/panel/` (CI keeps it; git ignores it); `PANEL_SCREENSHOTS=1` also writes the two
 * images docs/panel.md shows (docs/panel/overview.png, docs/panel/detail.png).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'correct horse battery staple';
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const ARTIFACTS = resolve(__dirname, '../../.artifacts/panel');
const DOCS_SHOTS = process.env.PANEL_SCREENSHOTS === '1' ? resolve(__dirname, '../../docs/panel') : null;
/** The pages docs/panel.md shows, by the name they are checked under. */
const DOCUMENTED: Record<string, string> = { resumen: 'overview.png', 'transaccion-detalle': 'detail.png' };

/** A local webhook receiver whose answer the test changes; also serves an attacker's page. */
async function receiver() {
  const status = { code: 500 };
  let received = 0;
  let attackerPage = '';
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET') return res.writeHead(200, { 'content-type': 'text/html' }).end(attackerPage);
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(status.code).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/hooks`,
    base,
    status,
    received: () => received,
    setAttackerPage: (html: string) => {
      attackerPage = html;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.skipIf(!existsSync(CHROMIUM))('merchant panel in a browser', () => {
  let t: TestSwitch;
  let base: string;
  let browser: Browser;
  let hook: Awaited<ReturnType<typeof receiver>>;
  const contexts: BrowserContext[] = [];
  const seriousViolations: string[] = [];
  const checked: string[] = [];

  const newPage = async (viewport = { width: 1280, height: 900 }): Promise<Page> => {
    // The panel's CSP allows no inline script; the accessibility checker is injected past it.
    const context = await browser.newContext({ bypassCSP: true, viewport });
    contexts.push(context);
    context.setDefaultTimeout(15_000);
    return context.newPage();
  };

  /** axe-core on the current page: serious and critical violations are collected (the last test asserts none). */
  const check = async (page: Page, name: string) => {
    await page.addScriptTag({ content: AXE });
    // A string, run in the page: axe's own API, no DOM types needed here.
    const violations = (await page.evaluate(
      `axe.run().then((r) => r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id + ' (' + v.nodes.length + ')'))`,
    )) as string[];
    for (const v of violations) seriousViolations.push(`${name}: ${v}`);
    checked.push(name);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
    const documented = DOCUMENTED[name];
    if (DOCS_SHOTS && documented) await page.screenshot({ path: join(DOCS_SHOTS, documented), fullPage: true });
  };

  const acceptInvite = async (page: Page, merchantId: string, email: string, role: 'owner' | 'developer' | 'viewer') => {
    const { token } = await createInvite(t.sw.store, { merchantId, email, role, invitedBy: null });
    await page.goto(`${base}/panel/invitacion/${token}`);
    await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repita la contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await page.waitForURL(`${base}/panel/resumen`);
  };

  const signIn = async (page: Page, email: string) => {
    await page.goto(`${base}/panel/login`);
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill(PASSWORD);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(`${base}/panel/resumen`);
  };

  let owner: Page;
  let switchKey: string;
  let payoutId: string;

  beforeAll(async () => {
    t = await startTestSwitch({ config: { adminToken: 'operator-token-0123456789' } });
    base = (await t.sw.gateway.app.listen({ host: '127.0.0.1', port: 0 })).replace('[::1]', 'localhost');
    hook = await receiver();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    owner = await newPage();
    // The balances page reads the merchant's registered accounts (decision 0204).
    await t.sw.store.accounts.register({
      merchantId: t.merchantId,
      mode: 'test',
      banco: 'bnc',
      cuenta: '01910000000000000001',
      telefono: null,
      createdAt: new Date().toISOString(),
    });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
    await hook?.close();
  });

  it('an invited owner sets a password, signs out and signs in again', async () => {
    await acceptInvite(owner, t.merchantId, 'duena@demo.test', 'owner');
    await check(owner, 'resumen-vacio');
    await owner.getByRole('button', { name: 'Cerrar sesión' }).click();
    await owner.waitForURL(`${base}/panel/login`);
    await check(owner, 'login');
    await owner.getByLabel('Correo electrónico').fill('duena@demo.test');
    await owner.getByLabel('Contraseña').fill('wrong password here');
    await owner.getByRole('button', { name: 'Entrar' }).click();
    expect(await owner.getByRole('alert').textContent()).toContain('incorrectos');
    await signIn(owner, 'duena@demo.test');
  });

  it('creates a test key shown once with its x-switch-key value, and pays out with it through the REST API', async () => {
    await owner.getByRole('link', { name: 'Claves API' }).click();
    await owner.getByRole('button', { name: 'Crear clave' }).click();
    switchKey = await owner.locator('#new-key').inputValue();
    expect(switchKey).toMatch(/^demo:sk_test_/);
    // The curl example names the switch's host: it runs as copied.
    await expect(owner.locator('pre').textContent()).resolves.toContain(`curl -s ${base}/switch/v1/bancos`);
    await check(owner, 'claves');
    // A reload after the form shows the page again and changes nothing: no second key, no secret.
    const keys = (await t.sw.store.apiKeys.listForMerchant(t.merchantId)).length;
    await owner.reload();
    expect((await t.sw.store.apiKeys.listForMerchant(t.merchantId)).length).toBe(keys);
    expect(await owner.locator('#new-key').count()).toBe(0);
    // The list, opened again, shows the key by its hint only.
    await owner.goto(`${base}/panel/claves`);
    expect(await owner.locator('#new-key').count()).toBe(0);
    expect(await owner.locator('main').textContent()).toContain(`…${switchKey.slice(-4)}`);
    expect(await owner.locator('main').textContent()).not.toContain(switchKey.split(':')[1]);
  });

  it('adds an endpoint at a local receiver, sees the failed delivery of a payout, and redelivers it', async () => {
    await owner.getByRole('link', { name: 'Webhooks' }).click();
    await owner.getByLabel('URL del endpoint').fill(hook.url);
    await owner.getByRole('button', { name: 'Agregar endpoint' }).click();
    await expect(owner.locator('#new-secret').inputValue()).resolves.toMatch(/^whsec_/);
    await check(owner, 'webhooks');
    await owner.reload();
    expect(await t.sw.store.webhooks.listForMerchant(t.merchantId, 'test')).toHaveLength(1);
    expect(await owner.locator('#new-secret').count()).toBe(0);
    const pago = await fetch(`${base}/switch/v1/pagar`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-switch-key': switchKey },
      body: JSON.stringify(pagarBody()),
    });
    const body = (await pago.json()) as { id: string; estado: string };
    expect(body.estado).toBe('LIQUIDADA');
    payoutId = body.id;
    await vi.waitFor(() => expect(hook.received()).toBeGreaterThanOrEqual(1), { timeout: 20_000, interval: 50 });
    await owner.getByRole('link', { name: /^Ver / }).first().click();
    await vi.waitFor(
      async () => {
        await owner.reload();
        await expect(owner.locator('.delivery-pending').filter({ hasText: payoutId }).locator('tbody tr').count()).resolves.toBeGreaterThan(
          0,
        );
      },
      { timeout: 20_000, interval: 200 },
    );
    const delivery = owner.locator('.delivery').filter({ hasText: payoutId });
    await expect(delivery.locator('tbody').textContent()).resolves.toContain('500');
    await check(owner, 'webhook-detalle');
    hook.status.code = 200;
    await delivery.getByRole('button', { name: /^Reenviar/ }).click();
    // A confirmation once; a reload neither repeats it nor sends again.
    await expect(owner.getByRole('status').filter({ hasText: 'Entrega en cola' }).count()).resolves.toBe(1);
    await owner.reload();
    await expect(owner.getByRole('status').filter({ hasText: 'Entrega en cola' }).count()).resolves.toBe(0);
    await vi.waitFor(
      async () => {
        await owner.reload();
        await expect(owner.locator('.delivery-delivered').filter({ hasText: payoutId }).count()).resolves.toBe(1);
      },
      { timeout: 20_000, interval: 200 },
    );
  });

  it('finds the payout in the transaction list and opens its detail with history and deliveries', async () => {
    await owner.getByRole('link', { name: 'Transacciones' }).click();
    await owner.getByLabel('ID de transacción').fill(payoutId);
    await owner.getByRole('button', { name: 'Filtrar' }).click();
    await check(owner, 'transacciones');
    // Money and state for people: Bs. with es-VE separators, Caracas time labelled, the label with its code on hover.
    const row = owner.locator('tbody tr').first();
    await expect(row.textContent()).resolves.toMatch(/Bs\. 125,50/);
    await expect(row.textContent()).resolves.toMatch(/VET/);
    await expect(row.locator('a.pill').getAttribute('title')).resolves.toBe('LIQUIDADA');
    await row.locator('a.pill').click();
    await expect(owner.locator('h1').textContent()).resolves.toBe('Pago · Bs. 125,50');
    await expect(owner.locator('.summary').textContent()).resolves.toContain(payoutId);
    await expect(owner.locator('.timeline').textContent()).resolves.toContain('Liquidada');
    // The request and the raw answers are folded.
    await expect(owner.locator('details:not([open]) pre').count()).resolves.toBeGreaterThan(0);
    await expect(owner.locator('.delivery-delivered').count()).resolves.toBe(1);
    await check(owner, 'transaccion-detalle');
  });

  it('shows balances, team and audit pages, and switches to English and to live mode', async () => {
    await owner.getByRole('link', { name: 'Saldos' }).click();
    // An account the merchant has not registered is refused before any bank is asked.
    await owner.goto(`${base}/panel/saldos?cuenta=01910000000000000009`);
    await expect(owner.locator('[role="alert"]').textContent()).resolves.toContain('no está registrada');
    await owner.getByLabel('Cuenta').selectOption('01910000000000000001');
    await owner.getByRole('button', { name: 'Consultar' }).click();
    expect(await owner.locator('main').textContent()).toContain('Disponible');
    await check(owner, 'saldos');
    await owner.getByRole('link', { name: 'Verificar pago' }).click();
    const form = owner.locator('#verify-form');
    await form.getByLabel('Monto (Bs.)').fill('10');
    await form.getByLabel('Referencia (los últimos 6 dígitos bastan)').fill('123456');
    await form.getByLabel('Banco del pagador (código)').fill('0102');
    await form.getByLabel('Teléfono del pagador').fill('04141234567');
    await form.getByLabel('Cuenta que recibió el pago').fill('01910000000000000001');
    await form.getByRole('button', { name: 'Verificar', exact: true }).click();
    await expect(owner.locator('main').textContent()).resolves.toContain('NO ENCONTRADO');
    await check(owner, 'verificar');
    await owner.getByRole('link', { name: 'Equipo' }).click();
    await check(owner, 'equipo');
    await owner.getByRole('link', { name: 'Auditoría' }).click();
    await expect(owner.locator('table').textContent()).resolves.toContain('Entrega reenviada');
    await owner.getByLabel('Qué').selectOption('delivery.redeliver');
    await owner.getByRole('button', { name: 'Filtrar' }).click();
    await expect(owner.locator('tbody tr').count()).resolves.toBe(1);
    await check(owner, 'auditoria');
    await owner.getByRole('link', { name: 'English' }).click();
    await expect(owner.locator('html').getAttribute('lang')).resolves.toBe('en');
    await owner.getByRole('button', { name: 'Live' }).click();
    await owner.getByRole('link', { name: 'API keys' }).click();
    await expect(owner.locator('.banner-live').count()).resolves.toBe(1);
    await check(owner, 'claves-live-en');
    await owner.getByRole('button', { name: 'Test' }).click();
    await owner.getByRole('link', { name: 'Español' }).click();
  });

  it('a viewer sees no key button and a forced key creation is refused (403)', async () => {
    const viewer = await newPage();
    await acceptInvite(viewer, t.merchantId, 'lector@demo.test', 'viewer');
    await viewer.goto(`${base}/panel/claves`);
    expect(await viewer.getByRole('button', { name: 'Crear clave' }).count()).toBe(0);
    const keysBefore = (await t.sw.store.apiKeys.listForMerchant(t.merchantId)).length;
    const csrf = await viewer.locator('input[name="_csrf"]').first().inputValue();
    // The browser context's own request client: the viewer's session cookie, a valid CSRF token.
    const forced = await viewer.context().request.post(`${base}/panel/claves`, { form: { _csrf: csrf } });
    const status = forced.status();
    expect(status).toBe(403);
    expect((await t.sw.store.apiKeys.listForMerchant(t.merchantId)).length).toBe(keysBefore);
  });

  it("a second merchant's owner sees none of the first's objects", async () => {
    await createMerchant(t.sw.store, { id: 'ajeno', nombre: 'Comercio ajeno' });
    const stranger = await newPage();
    await acceptInvite(stranger, 'ajeno', 'ajeno@otro.test', 'owner');
    await expect(stranger.locator('main').textContent()).resolves.not.toContain(payoutId);
    const detail = await stranger.goto(`${base}/panel/transacciones/${payoutId}`);
    expect(detail!.status()).toBe(404);
    await check(stranger, 'no-encontrado');
    await stranger.goto(`${base}/panel/webhooks`);
    await expect(stranger.locator('main').textContent()).resolves.not.toContain(hook.url);
    await stranger.goto(`${base}/panel/claves`);
    await expect(stranger.locator('main').textContent()).resolves.not.toContain('…');
  });

  it('refuses a cross-site form (CSRF) and a session id planted before sign-in (fixation)', async () => {
    const keysBefore = (await t.sw.store.apiKeys.listForMerchant(t.merchantId)).length;
    hook.setAttackerPage(
      `<!doctype html><form id="f" method="post" action="${base}/panel/claves"></form><script>document.getElementById('f').submit()</script>`,
    );
    const attacked = await owner.goto(hook.base);
    await owner.waitForLoadState('load');
    expect(attacked!.ok()).toBe(true);
    await vi.waitFor(async () => expect(await owner.locator('h1').textContent()).toBeTruthy(), { timeout: 10_000 });
    expect((await t.sw.store.apiKeys.listForMerchant(t.merchantId)).length).toBe(keysBefore);

    const attacker = await newPage();
    await attacker.goto(`${base}/panel/login`);
    const planted = (await attacker.context().cookies()).find((c) => c.name === 'panel_session')!;
    expect(planted).toBeDefined();
    const victim = await newPage();
    await victim.context().addCookies([{ ...planted }]);
    await signIn(victim, 'duena@demo.test');
    const after = (await victim.context().cookies()).find((c) => c.name === 'panel_session')!;
    expect(after.value).not.toBe(planted.value);
    await attacker.goto(`${base}/panel/claves`);
    expect(attacker.url()).toBe(`${base}/panel/login`);
  });

  it('the overview says how today went, with its charts, in both languages', async () => {
    await owner.goto(`${base}/panel/resumen`);
    await expect(owner.locator('.kpis').textContent()).resolves.toMatch(/Pagado\s*Bs\. 125,50/);
    await expect(owner.locator('svg.chart').count()).resolves.toBeGreaterThan(0);
    await owner.getByRole('link', { name: '30 días' }).click();
    await expect(owner.locator('svg.chart rect.series-b').count()).resolves.toBe(30);
    await check(owner, 'resumen');
    await owner.goto(`${base}/panel/resumen?lang=en`);
    await expect(owner.locator('.kpis').textContent()).resolves.toMatch(/Paid out\s*Bs\. 125\.50/);
    await check(owner, 'resumen-en');
    await owner.goto(`${base}/panel/resumen?lang=es`);
  });

  it('is readable on a phone: no page is wider than the screen, and a list keeps state and amount', async () => {
    const phone = await newPage({ width: 390, height: 844 });
    await signIn(phone, 'duena@demo.test');
    const pages = [
      'resumen',
      'transacciones',
      `transacciones/${payoutId}`,
      'claves',
      'webhooks',
      'saldos',
      'verificar',
      'equipo',
      'auditoria',
      'cuenta',
    ];
    for (const path of pages) {
      await phone.goto(`${base}/panel/${path}`);
      const width = (await phone.evaluate('document.documentElement.scrollWidth')) as number;
      expect(width, path).toBeLessThanOrEqual(390);
      mkdirSync(ARTIFACTS, { recursive: true });
      await phone.screenshot({
        path: join(ARTIFACTS, `movil-${path.startsWith('transacciones/') ? 'detalle' : path}.png`),
        fullPage: true,
      });
    }
    // A transaction's detail leads with its state and amount, on screen without scrolling sideways.
    await phone.goto(`${base}/panel/transacciones/${payoutId}`);
    for (const shown of [phone.locator('.summary .pill').first(), phone.locator('h1')]) {
      await expect(shown.isVisible()).resolves.toBe(true);
      const box = (await shown.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await expect(phone.locator('h1').textContent()).resolves.toContain('Bs. 125,50');
    // The balances form offers the registered account, whole, within the screen.
    await phone.goto(`${base}/panel/saldos`);
    const account = phone.getByLabel('Cuenta');
    await expect(account.isVisible()).resolves.toBe(true);
    expect((await account.boundingBox())!.x + (await account.boundingBox())!.width).toBeLessThanOrEqual(390);
    await phone.goto(`${base}/panel/transacciones`);
    const row = phone.locator('tbody tr').first();
    await expect(row.locator('a.pill').isVisible()).resolves.toBe(true);
    await expect(row.locator('td.num').isVisible()).resolves.toBe(true);
    await expect(row.locator('td.col-concept').isVisible()).resolves.toBe(false);
    await check(phone, 'transacciones-movil');
  });

  it('has no serious or critical accessibility violations on any page (axe-core)', () => {
    expect(checked.length).toBeGreaterThanOrEqual(14);
    expect(seriousViolations, seriousViolations.join('; ')).toEqual([]);
  });
});
