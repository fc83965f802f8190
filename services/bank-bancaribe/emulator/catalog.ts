/**
 * What the emulated Bancaribe can answer, from the bank's side. Kept apart from the connector's
 * src/codes.ts on purpose: the tests check that the connector understands each of these.
 */

/** `codigoError` of C2P, payouts and crédito inmediato [INV] (ISO 8583 style, PROTOCOLS §3.3). */
export const CODIGOS_ERROR: Readonly<Record<string, string>> = {
  '0': 'TRANSACCION EXITOSA',
  '5': 'CLAVE DE PAGO INVALIDA O VENCIDA',
  '13': 'MONTO INVALIDO',
  '25': 'REGISTRO NO ENCONTRADO',
  '51': 'FONDOS INSUFICIENTES',
  '56': 'CLIENTE NO AFILIADO AL SERVICIO',
  '61': 'EXCEDE LIMITE DE MONTO',
  '63': 'VIOLACION DE SEGURIDAD',
  '91': 'BANCO NO DISPONIBLE',
  '94': 'TRANSACCION DUPLICADA',
  '96': 'ERROR DE SISTEMA',
};

/** Errors of the balance and statement services, `{code, message}` [code]. */
export const ERRORES_CUENTAS: Readonly<Record<string, string>> = {
  '80049': 'Debe indicar cédula / RIF.',
  '103000': 'El cliente no existe en los registros.',
  '701114': 'Cédula errada.',
  '101042': 'Cédula errada.',
  '201025': 'La moneda no corresponde a la cuenta.',
  '101032': 'Seleccione el producto correspondiente.',
  '101128': 'La cuenta no está vigente.',
  '201004': 'La cuenta registrada no existe.',
};

/** ISO 20022 reasons a crédito inmediato may be rejected with (`codigoRechazo`), PROTOCOLS §5.2. */
export const RAZONES_ISO: readonly string[] = [
  'AB01',
  'AB07',
  'AC01',
  'AC04',
  'AC06',
  'AC09',
  'AG09',
  'AG10',
  'AM02',
  'AM03',
  'AM04',
  'AM05',
  'BE01',
  'BE20',
  'CUST',
  'CH20',
  'DT03',
  'DU01',
  'FF05',
  'FF07',
  'RC08',
  'RJCT',
  'TKCM',
  'VE01',
  'VE02',
  'MD15',
];

/** Magic amounts: the cents of a C2P, payout or crédito inmediato choose a synchronous rejection. */
export const CENTAVOS_RECHAZO: Readonly<Record<number, string>> = {
  5: '5',
  13: '13',
  51: '51',
  56: '56',
  61: '61',
  91: '91',
  94: '94',
  96: '96',
};

/** Magic amounts: the cents of a crédito inmediato choose how it settles (otherwise ACCP). */
export const CENTAVOS_LIQUIDACION: Readonly<Record<number, string>> = {
  71: 'AC01',
  72: 'AC04',
  73: 'AC06',
  74: 'BE01',
  75: 'AM02',
  76: 'AG10',
  77: 'AB01',
  78: 'AM04',
  79: 'VE01',
  82: 'AM04',
  84: 'DT03',
  85: 'CUST',
  86: 'MD15',
};

/** Magic amount: a payout with these cents gets codigoError "0" but codigoConfirmacion "-1" and is not executed. */
export const CENTAVOS_SIN_CONFIRMACION = 98;

export const descripcionDe = (code: string): string => CODIGOS_ERROR[code] ?? ERRORES_CUENTAS[code] ?? `ERROR ${code}`;
