import { describe, expect, it } from 'vitest';
import { MOTIVOS_RECHAZO } from '@switch/core/estados';
import { orderOutcome, orderRuleConflicts, statusOutcome } from '@switch/connector-kit/connector';
import { ACTIVO_CODES, isAuthFailure, meaningOf, wso2Key } from './codes';

describe('Banco Activo codes', () => {
  it('maps every code to a motivo of SPEC 7.2, with its source', () => {
    for (const [code, m] of Object.entries(ACTIVO_CODES)) {
      if (m.meaning === 'rejected' || m.meaning === 'not_processed') expect(MOTIVOS_RECHAZO, code).toContain(m.motivo);
      else if (m.motivo !== null) expect(MOTIVOS_RECHAZO, code).toContain(m.motivo);
      expect(m.descripcion.length, code).toBeGreaterThan(0);
      expect(['published', 'observed', 'assumed'], code).toContain(m.source);
    }
    // Nothing of Activo's own is public: its codes and the gateway's are assumed; the CCE's reasons are published.
    expect(ACTIVO_CODES['402']!.source).toBe('assumed');
    expect(ACTIVO_CODES[wso2Key('900901')]!.source).toBe('assumed');
    expect(ACTIVO_CODES.AM04!.source).toBe('published');
  });

  it('covers the business cases of the bank and the ISO 20022 reasons of the CCE', () => {
    expect(meaningOf('402').entry?.motivo).toBe('SALDO_INSUFICIENTE');
    expect(meaningOf('410').entry?.motivo).toBe('OTP_INVALIDO');
    expect(meaningOf('412').entry?.motivo).toBe('NO_AFILIADO_SERVICIO');
    expect(meaningOf('413').entry?.motivo).toBe('EXCEDE_LIMITE');
    expect(meaningOf('409').entry?.motivo).toBe('DUPLICADA');
    expect(meaningOf('500').entry?.motivo).toBe('RECHAZO_TECNICO');
    for (const iso of [
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
      'AB01',
    ]) {
      expect(ACTIVO_CODES[iso], iso).toBeDefined();
    }
    expect(meaningOf(undefined, 'AM04').entry?.motivo).toBe('SALDO_INSUFICIENTE');
    expect(meaningOf(undefined, 'TKCM').entry?.motivo).toBe('OTP_INVALIDO');
  });

  it('an ISO reason wins over the generic 422', () => {
    expect(meaningOf('422', 'AC01')).toMatchObject({ entry: { meaning: 'rejected', motivo: 'CUENTA_NO_EXISTE' }, codigo: 'AC01' });
    expect(meaningOf('422')).toMatchObject({ entry: { meaning: 'rejected', motivo: 'DESCONOCIDO' }, codigo: '422' });
    expect(meaningOf('422', 'ZZ99')).toMatchObject({ entry: { meaning: 'rejected', motivo: 'DESCONOCIDO' }, codigo: '422' });
  });

  it('unknown codes are unknown, never a rejection', () => {
    expect(meaningOf('777')).toEqual({ entry: undefined, codigo: '777' });
    expect(orderOutcome(meaningOf('777').entry, {})).toEqual({ type: 'unknown', raw: {} });
  });

  it('only "bank unavailable" answers are not processed', () => {
    const notProcessed = Object.entries(ACTIVO_CODES)
      .filter(([, m]) => m.meaning === 'not_processed')
      .map(([c]) => c);
    expect(notProcessed.sort()).toEqual(['503', wso2Key('101503'), wso2Key('900800'), wso2Key('900802')].sort());
    for (const c of notProcessed) expect(ACTIVO_CODES[c]!.motivo).toBe('BANCO_NO_DISPONIBLE');
  });

  it('gateway credential faults are FIRMA_AUTH, never business codes', () => {
    for (const f of ['900900', '900901', '900902', '900908']) expect(isAuthFailure(wso2Key(f)), f).toBe(true);
    expect(isAuthFailure('402')).toBe(false);
    expect(isAuthFailure(wso2Key('101503'))).toBe(false);
  });

  it('a backend timeout behind the gateway is undetermined, not a rejection', () => {
    expect(ACTIVO_CODES[wso2Key('101504')]!.meaning).toBe('unknown');
    expect(ACTIVO_CODES.AB01!.meaning).toBe('unknown');
  });

  it('follows the kit rule for orders: "no encontrada" (404) answering an order is unknown, queried; in a status, no such order', () => {
    expect(orderRuleConflicts(ACTIVO_CODES)).toEqual([]);
    expect(orderOutcome(meaningOf('404').entry, { codigo: '404' })).toEqual({ type: 'unknown', raw: { codigo: '404' } });
    expect(statusOutcome(meaningOf('404').entry, { codigo: '404' })).toMatchObject({ type: 'not_processed' });
  });
});
