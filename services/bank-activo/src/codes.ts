import {
  authRefusal,
  code,
  ISO20022_CODES,
  lookup,
  notFound,
  notProcessed,
  rejects,
  undetermined,
  type CodeEntry,
  type CodeTable,
} from '@switch/connector-kit/connector';

/**
 * What a code from Banco Activo means to the switch, in the kit's `CodeTable` shape (code → meaning →
 * motivo, with its source: `assumed` for what nothing public shows, `published` for the CCE's ISO
 * 20022 reasons). Meanings (the kit's `Meaning`):
 * - `rejected`: the bank refused the order; nothing moved. Auth failures are FIRMA_AUTH (`authRefusal`):
 *   never rerouted, and in a status answer they say nothing of the order;
 * - `not_processed`: the bank (or its gateway) says explicitly it did not take the order: the only
 *   answer after which a payout may go to another bank;
 * - "not found" (`inStatus: 'not_processed'`): a status query names no order the bank knows;
 * - `unknown`: the bank itself cannot say whether the order ran (query later, never resend).
 * A code the table does not list is unknown: never a rejection.
 */

/** Gateway fault codes are namespaced so they can never collide with the bank's own `code` values. */
export const wso2Key = (faultCode: string): string => `wso2:${faultCode}`;

/**
 * The one table. Three families:
 * 1. Activo's `code` strings for business errors [INV → assumed]: §4.1 says "4xx/5xx strings" (e.g.
 *    "422"); the list itself is invented in the style of the other banks.
 * 2. WSO2 API Manager fault codes the gateway answers with [inf: standard WSO2 codes → assumed].
 * 3. ISO 20022 reason codes of the CCE (PROTOCOLS §5.2) [doc → published], sent as `motivo` on
 *    débito/crédito inmediato rejections and in status answers: the kit's `ISO20022_CODES`.
 */
export const ACTIVO_CODES: CodeTable = {
  // 1. Activo business codes [INV]
  '400': rejects('RECHAZO_TECNICO', 'Solicitud inválida (campo faltante o con formato errado)', 'assumed'),
  '402': rejects('SALDO_INSUFICIENTE', 'Fondos insuficientes', 'assumed'),
  // "Not found": in a status answer, no such order; on an order it does not say the order did not
  // run: unknown, then queried (the kit's rule).
  '404': notFound('Operación no encontrada', 'assumed'),
  '406': rejects('MONTO_INVALIDO', 'Monto inválido', 'assumed'),
  '409': rejects('DUPLICADA', 'Operación duplicada', 'assumed'),
  '410': rejects('OTP_INVALIDO', 'OTP inválido o vencido', 'assumed'),
  '412': rejects('NO_AFILIADO_SERVICIO', 'Cliente no afiliado al servicio', 'assumed'),
  '413': rejects('EXCEDE_LIMITE', 'Excede el límite diario o por operación', 'assumed'),
  '414': rejects('CUENTA_NO_EXISTE', 'Cuenta o teléfono no existe', 'assumed'),
  '415': rejects('CUENTA_BLOQUEADA', 'Cuenta bloqueada', 'assumed'),
  '416': rejects('BENEFICIARIO_NO_COINCIDE', 'Los datos del cliente no coinciden con la cuenta', 'assumed'),
  '418': rejects('FUERA_DE_HORARIO', 'Fuera del horario del servicio', 'assumed'),
  '422': rejects('DESCONOCIDO', 'Transacción rechazada', 'assumed'),
  // "System error" does not say the order did not run: unknown, then queried (the kit's rule).
  '500': code('unknown', 'RECHAZO_TECNICO', 'Error de sistema', 'assumed'),
  '503': notProcessed('Servicio no disponible, operación no procesada', 'assumed'),

  // 2. WSO2 gateway faults [inf]
  [wso2Key('900900')]: authRefusal('Unclassified Authentication Failure', 'assumed'),
  [wso2Key('900901')]: authRefusal('Invalid Credentials', 'assumed'),
  [wso2Key('900902')]: authRefusal('Missing Credentials', 'assumed'),
  [wso2Key('900905')]: authRefusal('Incorrect Access Token Type is provided', 'assumed'),
  [wso2Key('900906')]: authRefusal('No matching resource found in the API for the given request', 'assumed'),
  [wso2Key('900908')]: authRefusal('Resource forbidden (API not subscribed)', 'assumed'),
  [wso2Key('900800')]: notProcessed('Message throttled out', 'assumed'),
  [wso2Key('900802')]: notProcessed('Message throttled out (subscription quota)', 'assumed'),
  [wso2Key('101503')]: notProcessed('Error connecting to the back end', 'assumed'),
  [wso2Key('101504')]: undetermined('Connection timed out to the back end', 'assumed'),
  [wso2Key('101505')]: undetermined('Connection closed by the back end', 'assumed'),

  // 3. ISO 20022 reasons of the CCE [doc]: the kit's shared table.
  ...ISO20022_CODES,
};

/**
 * The entry of an answer: a precise ISO 20022 reason wins over the bank's generic code (a "422"
 * carrying `motivo: "AM04"` is SALDO_INSUFICIENTE). `entry` is undefined for a code the table does
 * not list: unknown (never a rejection).
 */
export function meaningOf(code: string | undefined, isoReason?: string | undefined): { entry: CodeEntry | undefined; codigo: string } {
  const iso = isoReason ? lookup(ACTIVO_CODES, isoReason) : undefined;
  if (isoReason && iso) return { entry: iso, codigo: isoReason };
  return { entry: code !== undefined ? lookup(ACTIVO_CODES, code) : undefined, codigo: code ?? isoReason ?? '' };
}

export function isAuthFailure(code: string): boolean {
  return lookup(ACTIVO_CODES, code)?.motivo === 'FIRMA_AUTH';
}
