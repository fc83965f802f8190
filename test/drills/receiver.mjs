// The merchant's webhook receiver: counts deliveries per (data.id, type). Answers 200 at once.
import { createServer } from 'node:http';

export async function startReceiver() {
  const deliveries = new Map(); // `${id} ${type}` → count
  let total = 0;
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
      res.writeHead(200).end();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}/hooks`,
    count: (id, type) => deliveries.get(`${id} ${type}`) ?? 0,
    total: () => total,
    close: () => new Promise((r) => server.close(r)),
  };
}
