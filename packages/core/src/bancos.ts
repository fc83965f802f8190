/** Bank routing identifiers (SPEC 2.3 `banco_preferido`, 2.4 `banco_usado`). */
export const BANCOS = ['banco_plaza', 'bnc', 'bancaribe', 'banco_activo'] as const;
export type BancoId = (typeof BANCOS)[number];

/** Central-bank codes of the banks the switch routes through. */
export const CODIGO_BCV: Readonly<Record<BancoId, string>> = {
  banco_plaza: '0138',
  bnc: '0191',
  bancaribe: '0114',
  banco_activo: '0171',
};

/** What a bank can do for the switch (SPEC 2.5), plus `reverso` which the catalogue does not list. */
export const CAPABILITIES = ['cobrar', 'pagar', 'token', 'consultar', 'saldo', 'movimientos'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export type Mode = 'test' | 'live';
export const MODES: readonly Mode[] = ['test', 'live'];

export function isBancoId(value: string): value is BancoId {
  return (BANCOS as readonly string[]).includes(value);
}
