// The merchant's webhook receiver: counts deliveries per (data.id, type). Answers 200 at once.
import { createServer } from 'node:http';

export async function startReceiver() {
  const deliveries = new Map(); // `${id} ${type}` → count
  let total = 0;
  let holdMs = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const k = `${body.data?.id} ${body.type}`;
        deliveries.set(k, (deliveries.get(k) ?? 0) + 1);
        total++;
      } catch {
        // not JSON: not a delivery of ours
      }
      // Counted at arrival; the answer may be held (`hold`), so a notifier killed meanwhile never sees it.
      if (holdMs > 0) setTimeout(() => res.writeHead(200).end(), holdMs);
      else res.writeHead(200).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    count: (id, type) => deliveries.get(`${id} ${type}`) ?? 0,
    total: () => total,
    /** Answers every delivery only after `ms` from now on (0: at once): deliveries stay in flight. */
    hold: (ms) => {
      holdMs = ms;
    },
    close: () => new Promise((r) => server.close(r)),
  };
}
