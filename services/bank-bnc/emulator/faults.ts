/**
 * Faults on demand. Each applies to the next `n` matching requests; a fault without `path` matches
 * every operation except `Auth/LogOn` (so "fail the next order" does not spend itself on the logon
 * that precedes it); name `Auth/LogOn` to hit the logon.
 */
export type Fault =
  | { kind: 'fail'; status: number }
  | { kind: 'delay'; ms: number }
  | { kind: 'timeout_after_accept'; mode: 'hang' | 'destroy' }
  | { kind: 'reject'; code: string };

interface Armed {
  fault: Fault;
  remaining: number;
  path?: string;
}

export class FaultQueue {
  private armed: Armed[] = [];

  arm(fault: Fault, n: number, path?: string): void {
    if (n > 0) this.armed.push({ fault, remaining: n, path: path?.replace(/^\/+|^api\//g, '') });
  }

  /** Takes one use of the first armed fault of this kind matching the path. */
  take<K extends Fault['kind']>(kind: K, path: string): Extract<Fault, { kind: K }> | null {
    const hit = this.armed.find(
      (a) => a.fault.kind === kind && (a.path === undefined ? path !== 'Auth/LogOn' : a.path.toLowerCase() === path.toLowerCase()),
    );
    if (!hit) return null;
    hit.remaining--;
    if (hit.remaining <= 0) this.armed = this.armed.filter((a) => a !== hit);
    return hit.fault as Extract<Fault, { kind: K }>;
  }

  clear(): void {
    this.armed = [];
  }
}
