import type { BancoId, Mode } from '@switch/core/contracts/bancos';

/** The movement a claim holds: one credit as its receiving bank reports it. */
export interface ClaimedMovement {
  banco: BancoId;
  cuenta: string;
  /** As the receiving bank writes it. */
  referencia: string;
  /** The bank's booking day, Caracas time. */
  fecha: string;
  /** VES, 2 decimals. */
  monto: number;
}

/** What holds a movement: a verification (`POST /cobros/verificar`) or an expected payment. */
export interface MovementClaimant {
  kind: 'verificacion' | 'esperado';
  id: string;
}

export interface MovementClaim {
  /** `movementClaimId` of the movement: the unique key. */
  id: string;
  mode: Mode;
  merchantId: string;
  movement: ClaimedMovement;
  claimant: MovementClaimant;
  createdAt: string;
}

export type MovementClaimResult = { claimed: true } | { claimed: false; existing: MovementClaim };

/**
 * The key of one bank movement: (bank, account, reference, date, amount in cents). Live accounts
 * belong to one merchant; test-mode accounts are not registered, so two merchants may name the same
 * emulated account and each claims its own movements (none learns of another's).
 */
export function movementClaimId(mode: Mode, merchantId: string, m: ClaimedMovement): string {
  const cents = Math.round(m.monto * 100);
  const owner = mode === 'live' ? '' : `${merchantId}|`;
  return `${mode}|${owner}${m.banco}|${m.cuenta}|${m.referencia}|${m.fecha}|${cents}`;
}

/**
 * Each bank movement pays once: of concurrent claims of one movement (`movementClaimId`) exactly
 * one wins, on every replica sharing the store; the others get the holder, to name it.
 */
export interface MovementClaims {
  movementClaims: {
    claim(claim: MovementClaim): Promise<MovementClaimResult>;
    get(id: string): Promise<MovementClaim | null>;
  };
}
