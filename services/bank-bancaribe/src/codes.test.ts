import { describe, expect, it } from 'vitest';
import { MOTIVOS_RECHAZO } from '@switch/core/estados';
import { orderOutcome, orderRuleConflicts, statusOutcome } from '@switch/connector-kit/connector';
import { CODIGOS_ERROR, ERRORES_CUENTAS, RAZONES_ISO } from '../emulator/catalog';
import { classify, CODES, isAuthFailure, isNotProcessed } from './codes';

describe('Bancaribe code table', () => {
  it('maps every code to a motivo_rechazo of SPEC 7.2, with its source', () => {
    for (const [code, entry] of Object.entries(CODES)) {
      if (entry.meaning === 'rejected' || entry.meaning === 'not_processed' || entry.motivo !== null)
        expect(MOTIVOS_RECHAZO, code).toContain(entry.motivo);
      expect(['published', 'observed', 'assumed'], code).toContain(entry.source);
    }
    expect(CODES['51']!.source).toBe('assumed');
    expect(CODES['103000']!.source).toBe('observed');
    expect(CODES.AM04!.source).toBe('published');
    expect(CODES['900901']!.source).toBe('assumed');
  });

  it('knows every code the bank can answer with (codigoError, balance errors, ISO reasons)', () => {
    const bankCodes = [...Object.keys(CODIGOS_ERROR).filter((c) => c !== '0'), ...Object.keys(ERRORES_CUENTAS), ...RAZONES_ISO];
    for (const code of bankCodes) expect(CODES[code], code).toBeDefined();
  });

  it('maps the invented codigoError list as PROTOCOLS §3.3 proposes', () => {
    expect(classify(5)?.motivo).toBe('OTP_INVALIDO');
    expect(classify('51')?.motivo).toBe('SALDO_INSUFICIENTE');
    expect(classify(56)?.motivo).toBe('NO_AFILIADO_SERVICIO');
    expect(classify(61)?.motivo).toBe('EXCEDE_LIMITE');
    expect(classify(94)?.motivo).toBe('DUPLICADA');
    expect(classify(96)?.motivo).toBe('RECHAZO_TECNICO');
    expect(classify(' 91 ')).toMatchObject({ motivo: 'BANCO_NO_DISPONIBLE', meaning: 'not_processed' });
  });

  it('maps the ISO 20022 reasons as PROTOCOLS §5.2 suggests', () => {
    const expected: Record<string, string> = {
      AB07: 'BANCO_NO_DISPONIBLE',
      AC01: 'CUENTA_NO_EXISTE',
      AC04: 'CUENTA_NO_EXISTE',
      AC06: 'CUENTA_BLOQUEADA',
      AC09: 'MONTO_INVALIDO',
      AG09: 'RECHAZO_TECNICO',
      AG10: 'BANCO_NO_DISPONIBLE',
      AM02: 'EXCEDE_LIMITE',
      AM03: 'MONTO_INVALIDO',
      AM04: 'SALDO_INSUFICIENTE',
      AM05: 'DUPLICADA',
      BE01: 'BENEFICIARIO_NO_COINCIDE',
      BE20: 'RECHAZO_TECNICO',
      CUST: 'CANCELADA_POR_PAGADOR',
      CH20: 'MONTO_INVALIDO',
      DT03: 'FUERA_DE_HORARIO',
      DU01: 'DUPLICADA',
      FF05: 'RECHAZO_TECNICO',
      FF07: 'RECHAZO_TECNICO',
      RC08: 'CUENTA_NO_EXISTE',
      RJCT: 'DESCONOCIDO',
      TKCM: 'OTP_INVALIDO',
      VE01: 'RECHAZO_TECNICO',
      VE02: 'RECHAZO_TECNICO',
      MD15: 'DESCONOCIDO',
    };
    for (const [code, motivo] of Object.entries(expected)) expect(classify(code), code).toMatchObject({ motivo, meaning: 'rejected' });
    expect(classify('AB01')?.meaning).toBe('unknown');
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
    for (const code of ['777', undefined, null]) {
      expect(classify(code), String(code)).toBeUndefined();
      expect(orderOutcome(classify(code), {}), String(code)).toEqual({ type: 'unknown', raw: {} });
      expect(statusOutcome(classify(code), {}), String(code)).toEqual({ type: 'unknown', raw: {} });
    }
  });

  it('follows the kit rule for orders: "registro no encontrado" (25) answering an order is unknown, queried; in a status, no such order', () => {
    expect(orderRuleConflicts(CODES)).toEqual([]);
    expect(orderOutcome(classify('25'), { codigo: '25' })).toEqual({ type: 'unknown', raw: { codigo: '25' } });
    expect(statusOutcome(classify('25'), { codigo: '25' })).toMatchObject({ type: 'not_processed' });
  });
});
