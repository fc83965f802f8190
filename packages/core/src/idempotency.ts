import { createHash } from 'node:crypto';
import type { Mode } from './contracts/bancos';
import type { OperationKind } from './operation';

/** The response header that marks the answer to a repeated idempotency key (docs/decisions/0013-idempotency-scope-and-replay.md). */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** Canonical JSON: keys sorted at every level, so equal bodies have equal fingerprints. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Fingerprint of a validated request body: a repeat with another body under the same key is a conflict (409). */
export function fingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** The terms a cobrar must repeat from the token under its key: amount, payee account, payer. */
interface CollectionTerms {
  monto: { valor: number; moneda?: string };
  cobrador: unknown;
  pagador: unknown;
}

/**
 * The fields of a cobrar that differ from its token request (amount, payee account, payer): the gateway
 * refuses such a cobrar (422) and the transaction core rejects it if one ever reaches it.
 */
export function tokenMismatch(token: CollectionTerms, cobrar: CollectionTerms): string[] {
  const differs: string[] = [];
  if (token.monto.valor !== cobrar.monto.valor || (token.monto.moneda ?? 'VES') !== (cobrar.monto.moneda ?? 'VES')) differs.push('monto');
  if (canonicalJson(token.cobrador) !== canonicalJson(cobrar.cobrador)) differs.push('cobrador');
  if (canonicalJson(token.pagador) !== canonicalJson(cobrar.pagador)) differs.push('pagador');
  return differs;
}

/** The key an idempotency claim is stored under: one merchant, one mode, one operation kind; keys compare case-insensitively. */
export function idempotencyScope(merchantId: string, mode: Mode, kind: OperationKind, key: string): string {
  return `${merchantId}|${mode}|${kind}|${key.toLowerCase()}`;
}
