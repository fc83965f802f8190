import type { OperationRequest } from './operation';
import type { Instrumento } from './contracts/fields';

/**
 * Live-money controls (SPEC 4.10.5, 7.3): a daily amount limit per merchant and a risk engine of
 * blocklists and velocity on the subject, the party that receives the effect of the money: the payer
 * in cobrar/token, the beneficiary in pagar. Test mode skips both.
 */
export interface RiskPolicy {
  /** Live VES a merchant may move per Venezuelan calendar day; null = no limit. */
  dailyLimitVes: number | null;
  blockedIds: ReadonlySet<string>;
  blockedPhones: ReadonlySet<string>;
  blockedAccounts: ReadonlySet<string>;
  /** Operations per subject per rolling hour bucket; null = no velocity rule. */
  maxOperationsPerSubjectPerHour: number | null;
}

export const NO_RISK_RULES: RiskPolicy = {
  dailyLimitVes: null,
  blockedIds: new Set(),
  blockedPhones: new Set(),
  blockedAccounts: new Set(),
  maxOperationsPerSubjectPerHour: null,
};

export function subjectOf(request: OperationRequest): Instrumento | null {
  switch (request.kind) {
    case 'token':
    case 'cobrar':
      return request.body.pagador;
    case 'pagar':
      return request.body.beneficiario;
    case 'reverso':
      return null;
  }
}

/**
 * Whether an operation reserves the live budgets (daily limit, velocity): only those that move the
 * merchant's money, once per movement. A token only asks the bank to send the payer an OTP; its
 * collection is counted by its cobrar (counting both would count one collection twice). A reverso
 * gives back money already counted when it moved, at most the original's amount (docs/decisions/0031-live-money-through-merchant-accounts.md).
 * The blocklists apply to every operation with a subject, tokens included.
 */
export function reservesLiveBudget(request: OperationRequest): boolean {
  return request.kind === 'pagar' || request.kind === 'cobrar';
}

/** A blocklist hit on the subject, explained; null when the subject is on no list. */
export function blocklistHit(policy: RiskPolicy, subject: Instrumento): { rule: string; value: string } | null {
  if (policy.blockedIds.has(subject.identificacion)) return { rule: 'blocked_id', value: subject.identificacion };
  if (subject.tipo === 'telefono' && policy.blockedPhones.has(subject.valor)) return { rule: 'blocked_phone', value: subject.valor };
  if (subject.tipo === 'cuenta' && policy.blockedAccounts.has(subject.valor)) return { rule: 'blocked_account', value: subject.valor };
  return null;
}

/** Counter keys: one per merchant and Venezuelan day; one per subject and hour. */
export function dailyLimitKey(merchantId: string, at: Date): string {
  return `limit|${merchantId}|${new Date(at.getTime() - 4 * 3_600_000).toISOString().slice(0, 10)}`;
}
export function velocityKey(subject: Instrumento, at: Date): string {
  return `velocity|${subject.identificacion}|${subject.valor}|${at.toISOString().slice(0, 13)}`;
}
/** When the windows of the keys above, taken at `at`, are over (the store may then forget them). */
export function dailyLimitKeptUntil(at: Date): string {
  return new Date(at.getTime() + 24 * 3_600_000).toISOString();
}
export function velocityKeptUntil(at: Date): string {
  return new Date(at.getTime() + 3_600_000).toISOString();
}

export function parseList(value: string | undefined): Set<string> {
  return new Set(
    (value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}
