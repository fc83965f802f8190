import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MongoClient } from 'mongodb';
import type { CreditoRecibido } from '@switch/core/contracts/bancos';
import { MongoStore } from '@switch/platform/adapters/mongo/store';
import type { AccountReads } from '@switch/platform/runtime/account-reads';
import { verifyPayment } from './payment-verification';

/**
 * Each movement pays once across replicas: gateways sharing one FerretDB (MONGO_URL, `npm run
 * infra:up`) verifying one payment at the same moment.
 */
describe('verifications of one movement on two replicas sharing the store (FerretDB)', () => {
  const url = process.env.MONGO_URL;
  const database = `verify_test_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const stores: MongoStore[] = [];

  beforeAll(async () => {
    if (!url) throw new Error('MONGO_URL is not set: run `npm run infra:up` and `source .cache/infra.env`, then run the tests again');
    for (let i = 0; i < 2; i++) stores.push(await MongoStore.connect({ url, database }));
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    if (url) {
      const admin = await MongoClient.connect(url);
      await admin.db(database).dropDatabase();
      await admin.close();
    }
  });

  it('of 50 concurrent verifications of one movement exactly one is VERIFICADO, the others YA_RECLAMADO naming it', async () => {
    const credit: CreditoRecibido = {
      banco: 'bnc',
      cuenta: '01910000000000000001',
      referencia: '23456789',
      fecha: '2026-11-27',
      hora: null,
      monto: 250,
      concepto: 'PAGO MOVIL',
      pagador: { telefono: '04141234567', identificacion: null, banco: '0102' },
    };
    const reads: Pick<AccountReads, 'creditos'> = {
      creditos: async (_caller, q) => ({ ok: true, value: { banco: 'bnc', creditos: q.fecha === credit.fecha ? [credit] : [] } }),
    };
    const now = () => new Date('2026-11-27T15:00:00Z');
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        verifyPayment(
          { reads, store: stores[i % 2]!, now },
          { merchantId: 'm-1', mode: 'live' },
          {
            idempotency_key: randomUUID(),
            monto: { valor: 250, moneda: 'VES' },
            banco_pagador: '0102',
            telefono_pagador: '04141234567',
            referencia: '123456789',
            fecha: '2026-11-27',
            cobrador: { tipo: 'cuenta', valor: credit.cuenta, banco: '0191', identificacion: 'J123456789', nombre: 'Tienda' },
          },
        ),
      ),
    );
    const values = answers.map((a) => (a.ok ? a.value : null));
    const won = values.filter((v) => v?.estado === 'VERIFICADO');
    expect(won).toHaveLength(1);
    const lost = values.filter((v) => v?.estado === 'YA_RECLAMADO');
    expect(lost).toHaveLength(49);
    for (const v of lost) expect(v!.reclamado_por).toEqual({ tipo: 'verificacion', id: won[0]!.id });
  });
});
