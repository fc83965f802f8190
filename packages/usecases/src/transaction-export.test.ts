import { describe, expect, it } from 'vitest';
import { seedTransaction } from '../../platform/test/store-contract';
import { csvField, csvHeader, csvLine, EXPORT_PAGE, exportTransactions } from './transaction-export';
import type { TransaccionResumen } from '@switch/core/contracts/transacciones';
import { MemoryStore } from '@switch/platform/adapters/memory/store';
import type { Transaction } from '@switch/core/operation';

const row: TransaccionResumen = {
  id: 'txn_1',
  operacion: 'pagar',
  estado: 'LIQUIDADA',
  banco_usado: 'bnc',
  monto: 1719.83,
  moneda: 'VES',
  concepto: 'Factura 12; "enero"',
  contraparte: '=HYPERLINK("x")',
  idempotency_key: '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60',
  referencia_banco: 'R1',
  motivo_rechazo: null,
  creada: '2026-11-27T11:15:00.000Z',
  actualizada: '2026-11-27T11:15:01.000Z',
};

describe('transactions as CSV', () => {
  it('writes the es variant for a Spanish spreadsheet and the numeric one for programs', () => {
    expect(csvHeader('es').startsWith('\uFEFFid;creada;operacion;estado')).toBe(true);
    expect(csvHeader('numerico').startsWith('id,creada,')).toBe(true);
    expect(csvLine(row, 'es')).toBe(
      `txn_1;27/11/2026 07:15:00;pagar;LIQUIDADA;;1.719,83;VES;"Factura 12; ""enero""";"'=HYPERLINK(""x"")";bnc;R1;6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60;27/11/2026 07:15:01\r\n`,
    );
    expect(csvLine(row, 'numerico')).toBe(
      `txn_1,2026-11-27T11:15:00.000Z,pagar,LIQUIDADA,,1719.83,VES,"Factura 12; ""enero""","'=HYPERLINK(""x"")",bnc,R1,6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60,2026-11-27T11:15:01.000Z\r\n`,
    );
  });

  it('keeps a formula out of every text cell, and quotes separators and line breaks', () => {
    for (const start of ['=', '+', '-', '@']) expect(csvField(`${start}1+1`, ',')).toBe(`'${start}1+1`);
    expect(csvField('a,b', ',')).toBe('"a,b"');
    expect(csvField('a\nb', ';')).toBe('"a\nb"');
    expect(csvField('plain', ';')).toBe('plain');
  });

  it("streams every matching operation of the caller's only, a store page at a time, newest first", async () => {
    const store = new MemoryStore();
    const base = Date.parse('2026-11-01T12:00:00.000Z');
    const n = EXPORT_PAGE * 2 + 7;
    for (let i = 0; i < n; i++) {
      const at = new Date(base + i * 1000).toISOString();
      for (const merchantId of ['demo', 'otro'])
        await seedTransaction(store, {
          id: `txn_${merchantId}_${String(i).padStart(5, '0')}`,
          merchantId,
          mode: 'test',
          kind: 'pagar',
          idempotencyKey: `k-${merchantId}-${i}`,
          request: { kind: 'pagar', body: { monto: { valor: 1 + i, moneda: 'VES' }, concepto: 'x', beneficiario: { nombre: 'Ana' } } },
          estado: i % 2 ? 'LIQUIDADA' : 'RECHAZADA',
          motivoRechazo: i % 2 ? null : 'SALDO_INSUFICIENTE',
          bancoUsado: 'bnc',
          referenciaBanco: null,
          createdAt: at,
          updatedAt: at,
          history: [],
          attempts: [],
        } as unknown as Transaction);
    }
    const chunks: string[] = [];
    const out = exportTransactions(store, { merchantId: 'demo', mode: 'test' }, { formato: 'numerico' });
    if (!(Symbol.asyncIterator in out)) throw new Error(out.message);
    for await (const chunk of out) chunks.push(chunk);
    // The header, then one chunk per store page.
    expect(chunks).toHaveLength(1 + 3);
    const lines = chunks.join('').trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + n);
    expect(lines[1]).toMatch(new RegExp(`^txn_demo_${String(n - 1).padStart(5, '0')},`));
    expect(lines.slice(1).every((l) => l.startsWith('txn_demo_'))).toBe(true);
    const settled = exportTransactions(store, { merchantId: 'demo', mode: 'test' }, { estado: 'LIQUIDADA' });
    if (!(Symbol.asyncIterator in settled)) throw new Error(settled.message);
    let count = -1;
    for await (const chunk of settled) count += chunk.split('\r\n').length - 1;
    expect(count).toBe(Math.floor(n / 2));
    expect(exportTransactions(store, { merchantId: 'demo', mode: 'test' }, { desde: '2026-11-02', hasta: '2026-11-01' })).toEqual({
      field: 'hasta',
      message: 'is before desde',
    });
  });
});
