import { Type, type Static } from '@sinclair/typebox';
import type { Mode, Movimiento } from '@switch/core/contracts/bancos';
import type { TransactionReads } from '@switch/platform/ports/transaction-reads';
import { TransaccionesQuery, type TransaccionResumen } from '@switch/core/contracts/transacciones';
import { isListProblem, type ListProblem, toResumen, transactionFilter } from './transaction-list';

/**
 * The caller's transactions as CSV, for a spreadsheet: the list's filters, every matching operation
 * (no page size), read from the store a page at a time and written out as it is read, so an export
 * of 100 000 rows holds one page in memory.
 *
 * Two variants: `es` for a spreadsheet set to Spanish (Venezuela): `;` between fields, `1.719,83`,
 * times in Caracas time (`27/11/2026 07:15:00`), a UTF-8 byte order mark so accents open right; and
 * `numerico`, for programs: `,`, `1719.83`, ISO 8601 UTC times.
 */
export const EXPORT_FORMATS = ['es', 'numerico'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const TransaccionesExportQuery = Type.Composite(
  [
    Type.Omit(TransaccionesQuery, ['limite', 'cursor']),
    Type.Object({
      formato: Type.Optional(
        Type.Union(
          EXPORT_FORMATS.map((f) => Type.Literal(f)),
          { description: '`es` (default): `;`, `1.719,83`, Caracas time; `numerico`: `,`, `1719.83`, ISO 8601 UTC' },
        ),
      ),
    }),
  ],
  { additionalProperties: false },
);
export type TransaccionesExportQuery = Static<typeof TransaccionesExportQuery>;

/** Rows written per chunk (the store streams them in batches of its own): the most an export holds at once. */
export const EXPORT_PAGE = 500;

const COLUMNS = [
  'id',
  'creada',
  'operacion',
  'estado',
  'motivo_rechazo',
  'monto',
  'moneda',
  'concepto',
  'contraparte',
  'banco_usado',
  'referencia_banco',
  'idempotency_key',
  'actualizada',
] as const satisfies readonly (keyof TransaccionResumen)[];

const esAmount = new Intl.NumberFormat('es-VE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const esTime = new Intl.DateTimeFormat('es-VE', {
  timeZone: 'America/Caracas',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/**
 * One CSV field: quoted when it holds the separator, a quote or a line break; text a spreadsheet
 * would take for a formula (`=`, `+`, `-`, `@`, tab, CR first) gets a leading `'` (CSV injection).
 */
export function csvField(value: string, separator: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return safe.includes(separator) || /["\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** One transaction as a CSV line (with its `\r\n`). */
export function csvLine(row: TransaccionResumen, format: ExportFormat): string {
  const separator = format === 'es' ? ';' : ',';
  const cells = COLUMNS.map((column) => {
    const value = row[column];
    if (value === null || value === undefined) return '';
    if (column === 'monto') return format === 'es' ? esAmount.format(value as number) : (value as number).toFixed(2);
    if ((column === 'creada' || column === 'actualizada') && format === 'es')
      return esTime.format(new Date(value as string)).replace(',', '');
    return csvField(String(value), separator);
  });
  return `${cells.join(separator)}\r\n`;
}

/** The header line (the API's field names), after a byte order mark in the `es` variant. */
export function csvHeader(format: ExportFormat): string {
  return `${format === 'es' ? '\uFEFF' : ''}${COLUMNS.join(format === 'es' ? ';' : ',')}\r\n`;
}

/**
 * The export as text chunks, newest first: the header, then one chunk per `EXPORT_PAGE` rows as the
 * store streams them (`streamForMerchant`). A bad filter is the list's problem (checked before
 * anything is written).
 */
export function exportTransactions(
  store: { transactions: TransactionReads },
  caller: { merchantId: string; mode: Mode },
  q: TransaccionesExportQuery,
): AsyncGenerator<string> | ListProblem {
  const { formato, ...filters } = q;
  const format: ExportFormat = formato ?? 'es';
  const parsed = transactionFilter(caller, filters);
  if (isListProblem(parsed)) return parsed;
  return (async function* () {
    yield csvHeader(format);
    let lines: string[] = [];
    for await (const tx of store.transactions.streamForMerchant(parsed.filter)) {
      lines.push(csvLine(toResumen(tx), format));
      if (lines.length === EXPORT_PAGE) {
        yield lines.join('');
        lines = [];
      }
    }
    if (lines.length > 0) yield lines.join('');
  })();
}

const STATEMENT_COLUMNS = ['fecha', 'hora', 'referencia', 'concepto', 'tipo', 'monto', 'saldo'] as const;

/** The statement's header line (the API's field names), after a byte order mark in the `es` variant. */
export function statementCsvHeader(format: ExportFormat): string {
  return `${format === 'es' ? '\uFEFF' : ''}${STATEMENT_COLUMNS.join(format === 'es' ? ';' : ',')}\r\n`;
}

/**
 * One movement as a CSV line: `monto` signed (a debit negative), so a spreadsheet sums a column;
 * `fecha` as `27/11/2026` in the `es` variant (the bank's day, already Venezuelan), as sent otherwise.
 */
export function statementCsvLine(m: Movimiento, format: ExportFormat): string {
  const separator = format === 'es' ? ';' : ',';
  const figure = (v: number) => (format === 'es' ? esAmount.format(v) : v.toFixed(2));
  const cells = [
    format === 'es' ? m.fecha.split('-').reverse().join('/') : m.fecha,
    m.hora ?? '',
    csvField(m.referencia, separator),
    csvField(m.concepto, separator),
    m.tipo,
    figure(m.tipo === 'debito' ? -m.monto : m.monto),
    m.saldo === null ? '' : figure(m.saldo),
  ];
  return `${cells.join(separator)}\r\n`;
}
