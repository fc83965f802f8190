import { venezuelanDate } from './formats';

/** What a logon came to: a WorkingKey, or why the order cannot be sent. */
export type LogonResult =
  | { ok: true; workingKey: string }
  /** The bank refused our credentials: FIRMA_AUTH, never rerouted. */
  | { ok: false; kind: 'auth'; raw: Record<string, unknown> }
  /** No key could be had (bank unreachable, logon failed on its side): the order was never sent. */
  | { ok: false; kind: 'not_sent'; raw: Record<string, unknown> };

/**
 * The day's WorkingKey (PROTOCOLS §1.3). It dies at midnight Venezuelan time of the day it was
 * issued, so a key from an earlier day is replaced before use rather than after a refusal; a key the
 * bank revokes earlier is dropped with `invalidate` on EPIRWK. Concurrent callers share one logon.
 */
export class WorkingKeySession {
  private current: { key: string; day: string } | null = null;
  private pending: Promise<LogonResult> | null = null;
  private logons = 0;

  constructor(
    private readonly logon: () => Promise<LogonResult>,
    private readonly now: () => Date,
  ) {}

  /** Logons made so far (tests: "no second logon", "logged on again after midnight"). */
  get logonCount(): number {
    return this.logons;
  }

  async key(): Promise<LogonResult> {
    const today = venezuelanDate(this.now());
    if (this.current && this.current.day === today) return { ok: true, workingKey: this.current.key };
    if (!this.pending) {
      this.logons++;
      this.pending = this.logon()
        .then((result) => {
          if (result.ok) this.current = { key: result.workingKey, day: today };
          return result;
        })
        .finally(() => {
          this.pending = null;
        });
    }
    return this.pending;
  }

  /** Drops the key the bank refused; a key already replaced by another caller's logon is kept. */
  invalidate(workingKey: string): void {
    if (this.current?.key === workingKey) this.current = null;
  }
}
