import {
  code,
  authRefusal,
  ISO20022_CODES,
  lookup,
  notFound,
  notProcessed,
  rejects,
  type CodeEntry,
  type CodeTable,
} from '@switch/connector-kit/connector';

/**
 * Every code Banco Plaza may answer with, in the kit's shape (code → meaning → motivo, with its
 * source). Only `0000` is seen in public integrations; the 4-digit rejections are assumed
 * (PROTOCOLS §2.5, numbered after ISO 8583 response codes); CCE operations pass ISO 20022 statuses
 * and reasons in `descripcionSistema` (the kit's `ISO20022_CODES`, PROTOCOLS §5.2). A code not listed
 * here is unknown to the switch: never a rejection. Change the data here, not the connector.
 */
export const CODIGO_EXITO = '0000';

/** A generic rejection whose real reason is the ISO code in `descripcionSistema`. */
export const GENERIC_REJECTION = 'RJCT';

export const PLAZA_CODES: CodeTable = {
  [CODIGO_EXITO]: code('settled', null, 'Operacion exitosa', 'observed'),
  '0013': rejects('MONTO_INVALIDO', 'Monto invalido', 'assumed'),
  '0014': rejects('CUENTA_NO_EXISTE', 'Cuenta o instrumento invalido', 'assumed'),
  '0025': notFound('Registro no encontrado', 'assumed'),
  '0030': rejects('RECHAZO_TECNICO', 'Error de formato', 'assumed'),
  '0051': rejects('SALDO_INSUFICIENTE', 'Saldo insuficiente', 'assumed'),
  '0055': rejects('OTP_INVALIDO', 'OTP invalido o vencido', 'assumed'),
  '0056': rejects('NO_AFILIADO_SERVICIO', 'Cliente no afiliado al servicio', 'assumed'),
  '0061': rejects('EXCEDE_LIMITE', 'Excede el limite permitido', 'assumed'),
  '0091': notProcessed('Banco no disponible, operacion no procesada', 'assumed'),
  '0094': rejects('DUPLICADA', 'Operacion duplicada', 'assumed'),
  '0401': authRefusal('Firma o api-key invalida', 'assumed'),
  '0402': authRefusal('Nonce repetido o fuera de ventana', 'assumed'),
  [GENERIC_REJECTION]: ISO20022_CODES.RJCT!,
};

export interface Classified {
  /** The code the meaning was taken from (the Plaza code, or the ISO reason behind a generic one). */
  code: string;
  /** Undefined when the code is in neither table: unknown to the switch. */
  entry: CodeEntry | undefined;
}

/** The ISO 20022 code leading `descripcionSistema` (`"AM04 Fondos insuficientes"` → `AM04`), if any. */
export function isoCodeIn(descripcionSistema: string | null): string | null {
  const m = /^\s*([A-Z0-9]{4})\b/.exec(descripcionSistema ?? '');
  return m && ISO20022_CODES[m[1]!] ? m[1]! : null;
}

/**
 * The meaning of one answer. A success may still carry an interbank status (AC00 pending, ACCP
 * settled); a generic rejection (or an unlisted code) is explained by its ISO reason when present.
 */
export function classify(codigo: string, descripcionSistema: string | null): Classified {
  // Own properties only: an answer code such as `constructor` must not find an inherited function.
  const own = lookup(PLAZA_CODES, codigo) ?? lookup(ISO20022_CODES, codigo);
  const iso = isoCodeIn(descripcionSistema);
  const isoEntry = iso ? ISO20022_CODES[iso] : undefined;
  if (codigo === CODIGO_EXITO) {
    if (isoEntry && (isoEntry.meaning === 'pending' || isoEntry.meaning === 'settled')) return { code: iso!, entry: isoEntry };
    return { code: codigo, entry: own };
  }
  if ((!own || codigo === GENERIC_REJECTION) && isoEntry) return { code: iso!, entry: isoEntry };
  return { code: codigo, entry: own };
}
