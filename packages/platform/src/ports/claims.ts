import type { Mode } from '@switch/core/contracts/bancos';
import type { OperationKind } from '@switch/core/contracts/operaciones';

/** Idempotency scope: merchant + mode + operation kind + key (DESIGN rule 5). */
export interface IdempotencyClaim {
  scope: string;
  merchantId: string;
  mode: Mode;
  kind: OperationKind;
  key: string;
  fingerprint: string;
  txnId: string;
  createdAt: string;
}

/**
 * The one reverso an original may have (DESIGN rule 9), keyed by the original's id: of concurrent
 * claims exactly one wins, on every replica sharing the store.
 */
export interface ReversalClaim {
  /** The operation reversed. */
  originalId: string;
  /** The reverso transaction that holds the original. */
  reversoId: string;
  /** The idempotency scope of the request that claimed it: a repeat of that request joins it. */
  scope: string;
  createdAt: string;
}

export type ReversalClaimResult = { claimed: true } | { claimed: false; existing: ReversalClaim };

export type ClaimResult = { claimed: true } | { claimed: false; existing: IdempotencyClaim };

/**
 * The claims that make a request run once: idempotency keys (the gateway's, DESIGN rule 5) and the
 * one reverso an original may have (gateway and router, DESIGN rule 9). Each claim is atomic: of
 * concurrent claims exactly one wins, on every replica sharing the store.
 */
export interface Claims {
  idempotency: {
    claim(claim: IdempotencyClaim): Promise<ClaimResult>;
    get(scope: string): Promise<IdempotencyClaim | null>;
    /**
     * Deletes the claim of `scope` if it still names `txnId` (its claimer's operation), so a retry with
     * the key runs the operation: only for a claim whose operation certainly never started.
     */
    release(scope: string, txnId: string): Promise<void>;
  };
  reversals: {
    /** Atomic: of concurrent claims of one original, exactly one wins; the others get the holder. */
    claim(claim: ReversalClaim): Promise<ReversalClaimResult>;
    get(originalId: string): Promise<ReversalClaim | null>;
    /**
     * Frees the original for a later reverso, only while `reversoId` holds it (a reverso refused before
     * any bank saw it); `false` when another reverso, or none, holds it.
     */
    release(originalId: string, reversoId: string): Promise<boolean>;
  };
}
