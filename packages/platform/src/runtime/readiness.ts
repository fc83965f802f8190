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
