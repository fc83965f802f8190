/**
 * Idempotency (SPEC 4.9, 7.4): one money operation, one `idempotency_key`. A NEW payment takes a NEW
 * key; a RETRY of the same payment (a timeout, a 503, a cut connection, DESCONOCIDA) sends the SAME
 * body with the SAME key, and the switch answers the original operation (`idempotent-replayed: true`)
 * instead of moving money twice. Never retry with a fresh key.
 */

/** A new UUID v4 key, for a new operation. */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * The body of a new operation with its key fixed once. Keep the returned object and send it again
 * as it is to retry: it is the same operation.
 */
export function withIdempotencyKey<B extends object>(body: B & { idempotency_key?: string }): B & { idempotency_key: string } {
  return { ...body, idempotency_key: body.idempotency_key ?? newIdempotencyKey() };
}
