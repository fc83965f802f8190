import { describe, expect, it } from 'vitest';
import { breakerReportKey, unavailableBanks, type BreakerReport } from './breaker-view';

const report = (replica: string, open: boolean, receivedAt: number, banco: BreakerReport['banco'] = 'bnc'): BreakerReport => ({
  banco,
  mode: 'live',
  replica,
  open,
  receivedAt,
});

/** The view as the router keeps it: each replica's latest report under its own key. */
const latest = (reports: BreakerReport[]) => new Map(reports.map((r) => [breakerReportKey(r), r])).values();

describe('the breaker view across connector replicas', () => {
  it('two replicas disagreeing: the bank is routed around whichever reported last', () => {
    const a = report('bank-bnc-a', true, 1_000);
    const b = report('bank-bnc-b', false, 2_000);
    expect([...unavailableBanks(latest([a, b]), 'live', 3_000, 60_000)]).toEqual(['bnc']);
    expect([...unavailableBanks(latest([b, a]), 'live', 3_000, 60_000)]).toEqual(['bnc']);
    // Both keep reporting their own state: the view holds steady instead of switching with each report.
    const rounds = [a, b, { ...a, receivedAt: 11_000 }, { ...b, receivedAt: 12_000 }, { ...a, receivedAt: 21_000 }];
    for (let i = 1; i <= rounds.length; i++)
      expect(unavailableBanks(latest(rounds.slice(0, i)), 'live', 22_000, 60_000).has('bnc')).toBe(true);
  });

  it('the bank comes back once every fresh replica reports its breakers closed', () => {
    const reports = [report('a', true, 1_000), report('b', false, 2_000), report('a', false, 3_000)];
    expect(unavailableBanks(latest(reports), 'live', 4_000, 60_000).size).toBe(0);
  });

  it('a replica that stopped reporting counts for nothing once its report is stale', () => {
    const gone = report('a', true, 1_000);
    const alive = report('b', false, 50_000);
    expect(unavailableBanks(latest([gone, alive]), 'live', 60_999, 60_000).has('bnc')).toBe(true);
    expect(unavailableBanks(latest([gone, alive]), 'live', 61_000, 60_000).has('bnc')).toBe(false);
  });

  it('keeps banks and modes apart', () => {
    const reports = [
      report('a', true, 1_000, 'bnc'),
      report('a', false, 1_000, 'bancaribe'),
      { ...report('a', true, 1_000, 'banco_plaza'), mode: 'test' as const },
    ];
    expect([...unavailableBanks(latest(reports), 'live', 2_000, 60_000)]).toEqual(['bnc']);
    expect([...unavailableBanks(latest(reports), 'test', 2_000, 60_000)]).toEqual(['banco_plaza']);
  });
});
