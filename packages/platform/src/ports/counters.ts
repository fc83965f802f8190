/**
 * Shared counts: the live-money budgets the router reserves (velocity, daily limit) and the gateway
 * replicas alive (what each gateway divides a deployment-wide limit by).
 */
export interface Counters {
  counters: {
    /**
     * Adds to a named counter atomically and returns its new totals (amount and count). Counters
     * count within a window (the key names it): `keepUntil` (ISO 8601) is when that window is over
     * and nobody reads the counter any more; from then on the store may forget it.
     */
    add(key: string, amount: number, count: number, keepUntil: string): Promise<{ amount: number; count: number }>;
  };
  gatewayReplicas: {
    /**
     * Records that gateway `id` is alive at `at` (ISO 8601) and returns how many gateways (itself
     * included) were alive within `windowMs` before `at`: what each replica divides a deployment-wide
     * limit by (docs/decisions/0007-throttling-by-key-verdict.md).
     */
    beat(id: string, at: string, windowMs: number): Promise<number>;
  };
}
