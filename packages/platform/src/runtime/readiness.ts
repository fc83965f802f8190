/**
 * Readiness answers fast or not at all: a probe that hangs while a broker is paused (SIGSTOP) or a
 * database is unreachable is worse than a 503, since the orchestrator's own probe timeout then decides.
 * Each check gets `timeoutMs`; all run side by side, so the answer comes within that bound.
 */
export const READY_TIMEOUT_MS = 800;

/** Resolves when every check resolved within `timeoutMs`; else rejects naming each one that did not. */
export async function checkReady(checks: Record<string, () => Promise<unknown>>, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  const results = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await within(Promise.resolve().then(check), timeoutMs, 'no answer');
        return '';
      } catch (error) {
        return `${name}: ${error instanceof Error ? error.message : String(error)}`;
      }
    }),
  );
  const problems = results.filter(Boolean);
  if (problems.length > 0) throw new Error(problems.join('; '));
}

/** `work`, or a rejection "<what> within <ms> ms" after `ms` (the work itself is left to finish or fail on its own). */
export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Readiness that holds through a short dependency blip (docs/decisions/0177-liveness-and-steady-readiness.md):
 * ready when the check passes, and still ready while it has failed for less than `graceMs` since it
 * last passed; not ready before it ever passed. Pure: the check's outcome and the times in, the
 * verdict and the new last success out.
 */
export function steadyVerdict(
  lastOkAt: number | null,
  checkOk: boolean,
  now: number,
  graceMs: number,
): { ready: boolean; lastOkAt: number | null; held: boolean } {
  if (checkOk) return { ready: true, lastOkAt: now, held: false };
  const held = lastOkAt !== null && now - lastOkAt < graceMs;
  return { ready: held, lastOkAt, held };
}

/**
 * `check` wrapped by `steadyVerdict`: resolves while ready (also while a failure is held, with
 * `onHeld` told why), rejects with the check's own error once the failure outlasts `graceMs`.
 */
export function steadyReadiness(
  check: () => Promise<void>,
  graceMs: number,
  options: { now?: () => number; onHeld?: (error: unknown) => void } = {},
): () => Promise<void> {
  let lastOkAt: number | null = null;
  const now = options.now ?? Date.now;
  return async () => {
    let failure: unknown;
    try {
      await check();
    } catch (error) {
      failure = error ?? new Error('not ready');
    }
    const verdict = steadyVerdict(lastOkAt, failure === undefined, now(), graceMs);
    lastOkAt = verdict.lastOkAt;
    if (verdict.held) options.onHeld?.(failure);
    if (!verdict.ready) throw failure;
  };
}
