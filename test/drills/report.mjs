// The drills' table. Every count other than time must be 0 (a drill that did not recover within its
// limit shows it through its counts: stranded operations, missing webhooks, lost requests).
export const MUST_BE_ZERO = [
  'lost',
  'duplicate_bank_orders',
  'ledger_mismatches',
  'unresolved',
  'unannounced',
  'webhooks_missing',
  'final_changed',
  // Cluster mode only (absent elsewhere: counted as 0).
  'under_replicated',
  'offsets_backwards',
  'consumer_lag',
];

export function violationsOf(r) {
  // A count that could not be read (-1) is a violation too.
  return MUST_BE_ZERO.reduce((n, k) => n + (r[k] < 0 ? 1 : (r[k] ?? 0)), 0);
}

export function printTable(results, log) {
  const head = [
    'drill',
    'sent',
    'answered',
    'lost',
    'dup orders',
    'ledger',
    'unresolved',
    'unannounced',
    'webhooks',
    'final chg',
    'URP',
    'offs back',
    'lag',
    'recovery s',
  ];
  const rows = results.map((r) =>
    [
      r.name,
      r.sent,
      r.answered,
      r.lost,
      r.duplicate_bank_orders,
      r.ledger_mismatches,
      r.unresolved,
      r.unannounced,
      r.webhooks_missing,
      r.final_changed,
      r.under_replicated ?? '-',
      r.offsets_backwards ?? '-',
      r.consumer_lag ?? '-',
      r.recovery_s ?? 'no',
    ].map(String),
  );
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(width[i]) : c.padStart(width[i]))).join('  ');
  log('');
  log(line(head));
  log(width.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) log(line(r));
  log('');
}
