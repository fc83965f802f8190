import { describe, expect, it } from 'vitest';
import { MOTIVOS_RECHAZO } from '@switch/shared';
import { ACTIVO_CODES, isAuthFailure, meaningOf, wso2Key } from './codes';

describe('Banco Activo codes', () => {
  it('maps every code to a motivo of SPEC 7.2', () => {
    for (const [code, m] of Object.entries(ACTIVO_CODES)) {
      expect(MOTIVOS_RECHAZO, code).toContain(m.motivo);
      expect(m.descripcion.length, code).toBeGreaterThan(0);
    }
  });

  it('covers the business cases of the bank and the ISO 20022 reasons of the CCE', () => {
    expect(meaningOf('402').motivo).toBe('SALDO_INSUFICIENTE');
    expect(meaningOf('410').motivo).toBe('OTP_INVALIDO');
    expect(meaningOf('412').motivo).toBe('NO_AFILIADO_SERVICIO');
    expect(meaningOf('413').motivo).toBe('EXCEDE_LIMITE');
    expect(meaningOf('409').motivo).toBe('DUPLICADA');
    expect(meaningOf('500').motivo).toBe('RECHAZO_TECNICO');
    for (const iso of ['AB07', 'AC01', 'AC04', 'AC06', 'AC09', 'AG09', 'AG10', 'AM02', 'AM03', 'AM04', 'AM05', 'BE01', 'BE20', 'CUST', 'CH20', 'DT03', 'DU01', 'FF05', 'FF07', 'RC08', 'RJCT', 'TKCM', 'VE01', 'VE02', 'MD15', 'AB01']) {
      expect(ACTIVO_CODES[iso], iso).toBeDefined();
    }
    expect(meaningOf(undefined, 'AM04').motivo).toBe('SALDO_INSUFICIENTE');
    expect(meaningOf(undefined, 'TKCM').motivo).toBe('OTP_INVALIDO');
  });

  it('an ISO reason wins over the generic 422', () => {
    expect(meaningOf('422', 'AC01')).toMatchObject({ motivo: 'CUENTA_NO_EXISTE', codigo: 'AC01' });
    expect(meaningOf('422')).toMatchObject({ motivo: 'DESCONOCIDO', codigo: '422' });
    expect(meaningOf('422', 'ZZ99')).toMatchObject({ motivo: 'DESCONOCIDO', codigo: '422' });
  });

  it('unknown codes are unknown, never a rejection', () => {
    expect(meaningOf('777')).toEqual({ motivo: 'DESCONOCIDO', descripcion: 'Código no reconocido', disposition: 'unknown', codigo: '777' });
  });

  it('only "bank unavailable" answers are not processed', () => {
    const notProcessed = Object.entries(ACTIVO_CODES).filter(([, m]) => m.disposition === 'not_processed').map(([c]) => c);
    expect(notProcessed.sort()).toEqual(['503', wso2Key('101503'), wso2Key('900800'), wso2Key('900802')].sort());
    for (const c of notProcessed) expect(ACTIVO_CODES[c]!.motivo).toBe('BANCO_NO_DISPONIBLE');
  });

  it('gateway credential faults are FIRMA_AUTH, never business codes', () => {
    for (const f of ['900900', '900901', '900902', '900908']) expect(isAuthFailure(wso2Key(f)), f).toBe(true);
    expect(isAuthFailure('402')).toBe(false);
    expect(isAuthFailure(wso2Key('101503'))).toBe(false);
  });

  it('a backend timeout behind the gateway is undetermined, not a rejection', () => {
    expect(ACTIVO_CODES[wso2Key('101504')]!.disposition).toBe('unknown');
    expect(ACTIVO_CODES.AB01!.disposition).toBe('unknown');
  });
});
