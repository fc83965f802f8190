import type { Mode } from '@switch/core/contracts/bancos';
import type { Verificacion } from '@switch/core/contracts/verificacion';

/** A verification's final answer, kept under its idempotency scope: a repeat of the request gets it again. */
export interface VerificationRecord {
  /** merchant, mode and idempotency key: the unique key. */
  scope: string;
  merchantId: string;
  mode: Mode;
  /** Of the request body: the same key with another body is a conflict. */
  fingerprint: string;
  answer: Verificacion;
  createdAt: string;
}

export type VerificationSaveResult = { saved: true } | { saved: false; existing: VerificationRecord };

/**
 * The answers of `POST /cobros/verificar` that do not change by asking again (VERIFICADO,
 * MONTO_DISTINTO, YA_RECLAMADO). Saving is atomic: of concurrent saves of one scope exactly one wins.
 */
export interface Verifications {
  verifications: {
    save(record: VerificationRecord): Promise<VerificationSaveResult>;
    get(scope: string): Promise<VerificationRecord | null>;
  };
}
