import type { BancoId, Capability, Mode } from './contracts/bancos';
import { type OperationRequest, type Rail, CAPABILITY_OF } from './operation';

export interface EnabledBank {
  banco: BancoId;
  capabilities: readonly Capability[];
}

/** Per mode, the banks an operator enabled and what each may do (from configuration). */
export type RoutingTable = Readonly<Record<Mode, readonly EnabledBank[]>>;

/**
 * The rail of an operation (SPEC 4.3): a `cuenta` destination always goes by immediate credit; a
 * `telefono` goes by immediate credit unless `via` is `pago_movil`. A collection whose token step ran
 * is an immediate debit (the bank sent the OTP); one without is a C2P with the payer's own OTP.
 */
export function railFor(request: OperationRequest, hasToken = false): Rail {
  switch (request.kind) {
    case 'pagar': {
      const { beneficiario, via } = request.body;
      return beneficiario.tipo === 'telefono' && via === 'pago_movil' ? 'pago_movil' : 'credito_inmediato';
    }
    case 'token':
      return 'debito_inmediato';
    case 'cobrar':
      return hasToken ? 'debito_inmediato' : 'c2p';
    case 'reverso':
      return 'reverso';
  }
}

/**
 * Banks able to run the operation, best first: the preferred bank when it is enabled and able,
 * then the others in configured order. `excluded` removes banks already tried or with an open breaker.
 */
export function candidateBanks(
  table: RoutingTable,
  mode: Mode,
  request: OperationRequest,
  excluded: ReadonlySet<BancoId> = new Set(),
): BancoId[] {
  const needed = CAPABILITY_OF[request.kind];
  const able = table[mode]
    .filter((b) => !excluded.has(b.banco))
    .filter((b) => needed === 'reverso' || b.capabilities.includes(needed))
    .map((b) => b.banco);
  const preferred = 'banco_preferido' in request.body ? request.body.banco_preferido : undefined;
  if (preferred && able.includes(preferred)) return [preferred, ...able.filter((b) => b !== preferred)];
  return able;
}

/** The catalogue a key of `mode` sees (GET /bancos). */
export function catalogue(table: RoutingTable, mode: Mode): { banco: BancoId; capabilities: Capability[] }[] {
  return table[mode].map((b) => ({ banco: b.banco, capabilities: [...b.capabilities] }));
}

/** A bank serving account reads for an account number (its first four digits are its bank's code). */
export function bankForAccount(
  table: RoutingTable,
  mode: Mode,
  cuenta: string,
  capability: 'saldo' | 'movimientos',
  codeOf: (banco: BancoId) => string,
  fallback?: BancoId,
): BancoId | null {
  const able = table[mode].filter((b) => b.capabilities.includes(capability));
  const own = able.find((b) => codeOf(b.banco) === cuenta.slice(0, 4));
  if (own) return own.banco;
  return fallback && able.some((b) => b.banco === fallback) ? fallback : null;
}
