import type { Instrumento } from '@switch/shared';

/**
 * Our instrument forms → Banco Activo's, and back. Only the comma-decimal amount is seen in public
 * code [code]; phone, id and date forms are [INV] choices kept here so one edit changes them all.
 */

/** 150 → "150,00": Activo sends and answers amounts as comma-decimal strings, no thousands mark [code]. */
export function montoActivo(valor: number): string {
  const cents = Math.round(valor * 100);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, '0')}`;
}

/** "1.234,56" / "1234,56" / "150" → number; null when it is not an amount. */
export function parseMontoActivo(text: unknown): number | null {
  if (typeof text === 'number') return Number.isFinite(text) ? text : null;
  if (typeof text !== 'string') return null;
  const t = text.trim();
  if (!/^-?[0-9]{1,3}(\.?[0-9]{3})*(,[0-9]{1,2})?$/.test(t) && !/^-?[0-9]+(,[0-9]{1,2})?$/.test(t)) return null;
  return Number(t.replace(/\./g, '').replace(',', '.'));
}

/** "04141234567" → "584141234567" [INV]: the CCE's CELE form (country code, no trunk 0). */
export function telefonoActivo(local: string): string {
  return `58${local.replace(/^0/, '')}`;
}

/** "584141234567" → "04141234567". */
export function telefonoLocal(activo: string): string {
  return activo.startsWith('58') ? `0${activo.slice(2)}` : activo;
}

/**
 * "V12345678" stays; legal-entity RIFs (J, G) are padded to 9 digits, "J80066227" → "J080066227",
 * the way RIFs are printed [INV].
 */
export function cedulaActivo(identificacion: string): string {
  const letter = identificacion.charAt(0).toUpperCase();
  const digits = identificacion.slice(1).replace(/[^0-9]/g, '');
  return letter === 'J' || letter === 'G' ? `${letter}${digits.padStart(9, '0')}` : `${letter}${digits}`;
}

/** "2024-03-05" → "05/03/2024" [INV]: dates in the bank's dd/MM/yyyy. */
export function fechaActivo(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}/${m}/${y}`;
}

/** "05/03/2024" → "2024-03-05"; null when it is not such a date. */
export function fechaIso(activo: unknown): string | null {
  if (typeof activo !== 'string') return null;
  const m = /^([0-9]{2})\/([0-9]{2})\/([0-9]{4})$/.exec(activo.trim());
  return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
}

/** ISO 20022 instrument kind of the crédito inmediato: account or mobile phone. */
export function tipoInstrumento(instrumento: Pick<Instrumento, 'tipo'>): 'CNTA' | 'CELE' {
  return instrumento.tipo === 'cuenta' ? 'CNTA' : 'CELE';
}

/**
 * The `cuenta_x` or `telefono_x` field pair the bank takes for an instrument: exactly one is sent.
 */
export function instrumentoActivo<S extends string>(suffix: S, instrumento: Pick<Instrumento, 'tipo' | 'valor'>): Record<string, string> {
  return instrumento.tipo === 'cuenta' ? { [`cuenta_${suffix}`]: instrumento.valor } : { [`telefono_${suffix}`]: telefonoActivo(instrumento.valor) };
}

/** Caracas time (UTC-4, no daylight saving): the bank's calendar day. */
export function caracasDate(at: Date): string {
  return new Date(at.getTime() - 4 * 3600_000).toISOString().slice(0, 10);
}
