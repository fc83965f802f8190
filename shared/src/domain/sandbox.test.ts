import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MOTIVOS_RECHAZO } from './motivos';
import { SANDBOX, SANDBOX_BANKS, SANDBOX_NOT_BY_AMOUNT } from './sandbox';

/** The table docs/sandbox.md shows for a bank, as this module states it. */
export function sandboxTable(banco: keyof typeof SANDBOX): string {
  const rows = SANDBOX[banco].map(
    (v) =>
      `| \`.${v.centavos}\` | ${v.operacion} | ${v.estado}${v.final ? ` → ${v.final}` : ''} | ${v.motivo_rechazo ?? '—'} | ${v.descripcion} |`,
  );
  return ['| cents | request | estado | motivo_rechazo | what happens |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

describe('the sandbox table', () => {
  it('each bank uses a cents value once', () => {
    for (const banco of SANDBOX_BANKS) {
      const cents = SANDBOX[banco].map((v) => v.centavos);
      expect(new Set(cents).size, banco).toBe(cents.length);
    }
  });
  it('every SPEC 7.2 reason is provoked by some amount, or its absence is explained', () => {
    const shown = new Set(SANDBOX_BANKS.flatMap((b) => SANDBOX[b].map((v) => v.motivo_rechazo)));
    for (const motivo of MOTIVOS_RECHAZO) expect(shown.has(motivo) || motivo in SANDBOX_NOT_BY_AMOUNT, motivo).toBe(true);
  });
  it('docs/sandbox.md shows exactly these rows', () => {
    const doc = readFileSync(resolve(__dirname, '../../../docs/sandbox.md'), 'utf8');
    for (const banco of SANDBOX_BANKS) expect(doc, banco).toContain(sandboxTable(banco));
  });
});
