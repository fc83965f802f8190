import { describe, expect, it } from 'vitest';
import { MOTIVOS_RECHAZO } from '@switch/shared';
import { CODIGOS_ERROR, ERRORES_CUENTAS, RAZONES_ISO } from '../emulator/catalog';
import { classify, CODES, isAuthFailure, isNotProcessed } from './codes';

describe('Bancaribe code table', () => {
  it('maps every code to a motivo_rechazo of SPEC 7.2', () => {
    for (const [code, entry] of Object.entries(CODES)) expect(MOTIVOS_RECHAZO, code).toContain(entry.motivo);
  });

  it('knows every code the bank can answer with (codigoError, balance errors, ISO reasons)', () => {
    const bankCodes = [...Object.keys(CODIGOS_ERROR).filter((c) => c !== '0'), ...Object.keys(ERRORES_CUENTAS), ...RAZONES_ISO];
    for (const code of bankCodes) expect(CODES[code], code).toBeDefined();
  });

  it('maps the invented codigoError list as PROTOCOLS §3.3 proposes', () => {
    expect(classify(5).motivo).toBe('OTP_INVALIDO');
    expect(classify('51').motivo).toBe('SALDO_INSUFICIENTE');
    expect(classify(56).motivo).toBe('NO_AFILIADO_SERVICIO');
    expect(classify(61).motivo).toBe('EXCEDE_LIMITE');
    expect(classify(94).motivo).toBe('DUPLICADA');
    expect(classify(96).motivo).toBe('RECHAZO_TECNICO');
    expect(classify(' 91 ')).toMatchObject({ motivo: 'BANCO_NO_DISPONIBLE', disposition: 'not_processed' });
  });

  it('maps the ISO 20022 reasons as PROTOCOLS §5.2 suggests', () => {
    const expected: Record<string, string> = {
      AB07: 'BANCO_NO_DISPONIBLE', AC01: 'CUENTA_NO_EXISTE', AC04: 'CUENTA_NO_EXISTE', AC06: 'CUENTA_BLOQUEADA', AC09: 'MONTO_INVALIDO',
      AG09: 'RECHAZO_TECNICO', AG10: 'BANCO_NO_DISPONIBLE', AM02: 'EXCEDE_LIMITE', AM03: 'MONTO_INVALIDO', AM04: 'SALDO_INSUFICIENTE',
      AM05: 'DUPLICADA', BE01: 'BENEFICIARIO_NO_COINCIDE', BE20: 'RECHAZO_TECNICO', CUST: 'CANCELADA_POR_PAGADOR', CH20: 'MONTO_INVALIDO',
      DT03: 'FUERA_DE_HORARIO', DU01: 'DUPLICADA', FF05: 'RECHAZO_TECNICO', FF07: 'RECHAZO_TECNICO', RC08: 'CUENTA_NO_EXISTE',
      RJCT: 'DESCONOCIDO', TKCM: 'OTP_INVALIDO', VE01: 'RECHAZO_TECNICO', VE02: 'RECHAZO_TECNICO', MD15: 'DESCONOCIDO',
    };
    for (const [code, motivo] of Object.entries(expected)) expect(classify(code), code).toMatchObject({ motivo, disposition: 'rejected' });
    expect(classify('AB01').disposition).toBe('unknown');
  });

  it('tells which codes prove the order was not processed', () => {
    const notProcessed = Object.keys(CODES).filter(isNotProcessed).sort();
    expect(notProcessed).toEqual(['101503', '303001', '900800', '91']);
  });

  it('tells credential and configuration failures apart (FIRMA_AUTH, never rerouted)', () => {
    for (const code of ['63', '103000', '701114', '101042', '900901', '900902', '900908', 'invalid_client', 'unsupported_grant_type']) {
      expect(isAuthFailure(code), code).toBe(true);
      expect(isNotProcessed(code), code).toBe(false);
    }
    expect(isAuthFailure('51')).toBe(false);
  });

  it('calls an unknown code unknown, never a rejection', () => {
    expect(classify('777')).toMatchObject({ disposition: 'unknown' });
    expect(classify(undefined).disposition).toBe('unknown');
    expect(classify(undefined).motivo).toBe('DESCONOCIDO');
    expect(classify(null).motivo).toBe('DESCONOCIDO');
  });
});
