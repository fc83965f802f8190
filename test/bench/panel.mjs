// The panel's overview and CSV export at N stored operations (default 1,000,000): time to first byte
// and memory, printed as a table (docs/panel.md, "Overview and exports at a million operations").
//
//   npm run build && node --max-old-space-size=6144 test/bench/panel.mjs [N]
//
// The operations (one merchant, test mode, spread over the last 30 days: payouts and collections,
// settled, rejected, waiting, at the four banks) are written straight into a MemoryStore, then the
// panel plugin answers signed-in requests over Fastify's inject. Figures: time to the first chunk of
// the answer (inject's stream), time to the whole answer, and the process's RSS and heap before and
// after. The CSV export is timed to its first byte and over its first EXPORT_ROWS rows only.
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import { SecretBox } from '@switch/platform/runtime/secret-box';
import { createMerchant } from '@switch/usecases/onboarding';
import { hashPassword, loadPanelConfig, panelPlugin } from '@switch/panel';

const N = Number(process.argv[2] ?? 1_000_000);
const EXPORT_ROWS = 20_000;
const BANKS = ['banco_plaza', 'bnc', 'bancaribe', 'banco_activo'];
const MOTIVOS = ['SALDO_INSUFICIENTE', 'OTP_INVALIDO', 'CUENTA_NO_EXISTE', 'FUERA_DE_HORARIO'];
const mb = (bytes) => Math.round(bytes / 1048576);
const memory = () => {
  global.gc?.();
  const m = process.memoryUsage();
  return { rss: mb(m.rss), heap: mb(m.heapUsed) };
};

const store = new MemoryStore();
await createMerchant(store, { id: 'demo', nombre: 'Demo' });
await store.panelUsers.insert({
  id: 'duena@demo.test',
  merchantId: 'demo',
  role: 'owner',
  passwordHash: await hashPassword('correct horse battery staple'),
  active: true,
  invitedBy: null,
  createdAt: new Date().toISOString(),
});
const now = Date.now();
const seedStart = performance.now();
for (let i = 0; i < N; i++) {
  const created = new Date(now - Math.floor((i / N) * 30 * 86_400_000) - 1000).toISOString();
  const r = i % 20;
  const estado = r < 16 ? 'LIQUIDADA' : r < 18 ? 'RECHAZADA' : r === 18 ? 'PENDIENTE' : 'DESCONOCIDA';
  const kind = i % 3 === 0 ? 'cobrar' : 'pagar';
  await store.transactions.insert({
    id: `txn_${i.toString(36).padStart(8, '0')}`,
    merchantId: 'demo',
    mode: 'test',
    kind,
    idempotencyKey: `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`,
    request: {
      kind,
      body: {
        monto: { valor: 100 + (i % 5000) + 0.25, moneda: 'VES' },
        concepto: `Factura ${i}`,
        [kind === 'pagar' ? 'beneficiario' : 'pagador']: { nombre: 'Ana Pérez', valor: '04141234567' },
      },
    },
    estado,
    motivoRechazo: estado === 'RECHAZADA' ? MOTIVOS[i % MOTIVOS.length] : null,
    bancoUsado: BANKS[i % BANKS.length],
    referenciaBanco: estado === 'LIQUIDADA' ? `R${i}` : null,
    createdAt: created,
    updatedAt: new Date(Date.parse(created) + 800 + (i % 7) * 300).toISOString(),
    history: [],
    attempts: [],
  });
}
const seeded = { seconds: Math.round((performance.now() - seedStart) / 100) / 10, ...memory() };

const app = Fastify();
await app.register(panelPlugin, {
  prefix: '/panel',
  store,
  secrets: SecretBox.ephemeral(),
  config: loadPanelConfig({}),
  basePath: '/panel',
});
await app.ready();
const login = await app.inject({ method: 'GET', url: '/panel/login' });
let cookie = String(login.headers['set-cookie']).split(';')[0];
const csrf = /name="_csrf" value="([^"]+)"/.exec(login.body)[1];
const signedIn = await app.inject({
  method: 'POST',
  url: '/panel/login',
  headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ _csrf: csrf, email: 'duena@demo.test', password: 'correct horse battery staple' }).toString(),
});
cookie = String(signedIn.headers['set-cookie']).split(';')[0];

/** One request: ms to the first chunk, ms to the end (or to `maxRows` lines), bytes, memory after. */
async function measure(url, maxRows = Number.POSITIVE_INFINITY) {
  const before = memory();
  const start = performance.now();
  const res = await app.inject({ method: 'GET', url, headers: { cookie }, payloadAsStream: true });
  let first = null;
  let bytes = 0;
  let rows = 0;
  let peakRss = 0;
  for await (const chunk of res.stream()) {
    first ??= performance.now() - start;
    bytes += chunk.length;
    rows += chunk.toString('utf8').split('\r\n').length - 1;
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (rows >= maxRows) break;
  }
  const end = performance.now() - start;
  return {
    url,
    status: res.statusCode,
    ttfbMs: Math.round(first ?? end),
    totalMs: Math.round(end),
    rows: Number.isFinite(maxRows) ? rows : undefined,
    kB: Math.round(bytes / 1024),
    rssBefore: before.rss,
    rssPeak: mb(peakRss),
  };
}

const results = [
  await measure('/panel/resumen?periodo=30d'),
  await measure('/panel/resumen?periodo=30d'),
  await measure('/panel/resumen?periodo=hoy'),
  await measure('/panel/transacciones.csv', EXPORT_ROWS),
  await measure('/panel/transacciones.csv?estado=RECHAZADA&formato=numerico', EXPORT_ROWS),
];
console.log(
  `panel bench: ${N} operations seeded in ${seeded.seconds} s (RSS ${seeded.rss} MiB, heap ${seeded.heap} MiB), Node ${process.version}`,
);
console.table(results);
await app.close();
