import type { Mode } from '@switch/core/contracts/bancos';
import type { CambioEsperado, EstadoEsperado } from '@switch/core/esperados';
import type { ClaimedMovement } from './movement-claims';
import type { PageCursor } from './transaction-reads';

/** One expected payment (`POST /cobros/esperados`) as stored. */
export interface ExpectedPayment {
  /** Derived from `scope`: a repeat of the request finds the one it created. */
  id: string;
  /** Idempotency scope (merchant, mode, kind, key). */
  scope: string;
  /** Of the request body: the same key with another body is a conflict. */
  fingerprint: string;
  idempotencyKey: string;
  merchantId: string;
  mode: Mode;
  ordenId: string;
  concepto: string;
  /** The code the payer writes in the concept (in `instrucciones.concepto`). */
  codigo: string;
  monto: number;
  /** 4-digit code of the receiving bank (the account's first digits). */
  banco: string;
  cuenta: string;
  telefono: string | null;
  rif: string | null;
  estado: EstadoEsperado;
  recibido: number;
  /** The credits that paid it, each with its movement claim id. */
  movimientos: (ClaimedMovement & { claimId: string })[];
  historial: (CambioEsperado & { en: string })[];
  venceEn: string;
  /** Bumped by every change; `announcedVersion` < `version` is a change whose webhooks are not all queued yet. */
  version: number;
  announcedVersion: number;
  createdAt: string;
  updatedAt: string;
}

/** Where the matcher is in one receiving account's credits: the day it reads and how many of that day's it has handled. */
export interface CreditCursor {
  /** `creditCursorKey` of the account. */
  key: string;
  fecha: string;
  seen: number;
  updatedAt: string;
}

/**
 * One receiving account as the matcher reads it. Live accounts belong to one merchant; test mode's
 * emulated accounts are shared, and each merchant sees only its own sandbox credits, so its cursor is its own.
 */
export const creditCursorKey = (mode: Mode, merchantId: string, banco: string, cuenta: string): string =>
  `${mode}|${mode === 'live' ? '' : `${merchantId}|`}${banco}|${cuenta}`;

/**
 * Expected payments, the matcher's cursors per receiving account and its lease. Every change of a
 * payment is a compare-and-set on `version`: two writers can never both win.
 */
export interface ExpectedPayments {
  expectedPayments: {
    /** Inserts it; `existing` when one with that id (the same idempotency scope) exists. */
    create(p: ExpectedPayment): Promise<{ created: true } | { created: false; existing: ExpectedPayment }>;
    get(id: string): Promise<ExpectedPayment | null>;
    /** A merchant's of one mode, newest first (ties by id), after `after`, of one state when given. */
    list(
      filter: { merchantId: string; mode: Mode; estado?: EstadoEsperado },
      limit: number,
      after?: PageCursor,
    ): Promise<ExpectedPayment[]>;
    /** Every open one (ESPERADO, PAGO_PARCIAL), of every merchant: the matcher's work. */
    listOpen(): Promise<ExpectedPayment[]>;
    /** Those with a change not yet announced (`announcedVersion` < `version`). */
    listUnannounced(): Promise<ExpectedPayment[]>;
    /** Replaces it when the stored version is `expectedVersion`; false otherwise. */
    replace(p: ExpectedPayment, expectedVersion: number): Promise<boolean>;
  };
  creditCursors: {
    get(key: string): Promise<CreditCursor | null>;
    set(cursor: CreditCursor): Promise<void>;
  };
}
