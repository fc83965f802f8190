import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MOTIVOS_RECHAZO } from './estados';
import { SANDBOX, SANDBOX_BANKS, SANDBOX_NOT_BY_AMOUNT } from './sandbox';

/** The rows docs/sandbox.md shows for a bank, as this module states them (cells trimmed: the formatter aligns tables). */
function expectedRows(banco: keyof typeof SANDBOX): string[][] {
  return SANDBOX[banco].map((v) => [
    `\`.${v.centavos}\``,
    v.operacion,
    `${v.estado}${v.final ? ` → ${v.final}` : ''}`,
    v.motivo_rechazo ?? '—',
    v.descripcion,
  ]);
}

/** The body rows of the first table under `### <banco>` in the document. */
function documentedRows(doc: string, banco: string): string[][] {
  const lines = doc.split('\n');
  const at = lines.indexOf(`### ${banco}`);
  if (at < 0) return [];
  const table: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.startsWith('|')) table.push(line);
    else if (table.length) break;
  }
  return table.slice(2).map((l) =>
    l
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim()),
  );
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
    for (const banco of SANDBOX_BANKS) expect(documentedRows(doc, banco), banco).toEqual(expectedRows(banco));
  });
});
