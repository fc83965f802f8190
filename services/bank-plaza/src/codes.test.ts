import { describe, expect, it } from 'vitest';
import { ISO20022_CODES, orderOutcome, orderRuleConflicts, statusOutcome } from '@switch/connector-kit/connector';
import { MOTIVOS_RECHAZO } from '@switch/core/estados';
import { classify, isoCodeIn, PLAZA_CODES } from './codes';

const ISO_5_2 = [
  'ACCP',
  'AC00',
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
  'TKCM',
  'VE01',
  'VE02',
  'MD15',
];

describe('code table', () => {
  it('gives every rejection a motivo of SPEC 7.2', () => {
    for (const [code, entry] of Object.entries({ ...PLAZA_CODES, ...ISO20022_CODES })) {
      if (entry.meaning === 'rejected' || entry.meaning === 'not_processed') {
        expect(MOTIVOS_RECHAZO, code).toContain(entry.motivo);
      }
    }
  });

  it('maps the invented Plaza codes of PROTOCOLS §2.5', () => {
    const expected = {
      '0051': 'SALDO_INSUFICIENTE',
      '0055': 'OTP_INVALIDO',
      '0056': 'NO_AFILIADO_SERVICIO',
      '0061': 'EXCEDE_LIMITE',
      '0094': 'DUPLICADA',
    };
    for (const [code, motivo] of Object.entries(expected))
      expect(classify(code, null).entry).toMatchObject({ meaning: 'rejected', motivo, source: 'assumed' });
    expect(classify('0091', null).entry).toMatchObject({ meaning: 'not_processed', motivo: 'BANCO_NO_DISPONIBLE' });
    expect(classify('0401', null).entry).toMatchObject({ meaning: 'rejected', motivo: 'FIRMA_AUTH', inStatus: 'unknown' });
    expect(classify('0402', null).entry).toMatchObject({ meaning: 'rejected', motivo: 'FIRMA_AUTH', inStatus: 'unknown' });
  });

  it('covers every ISO 20022 code of PROTOCOLS §5.2', () => {
    for (const code of ISO_5_2) expect(ISO20022_CODES[code], code).toBeDefined();
    expect(ISO20022_CODES.AM04!.motivo).toBe('SALDO_INSUFICIENTE');
    expect(ISO20022_CODES.TKCM!.motivo).toBe('OTP_INVALIDO');
    expect(ISO20022_CODES.AB07!.motivo).toBe('BANCO_NO_DISPONIBLE');
  });

  it('knows no meaning for an unlisted code (the kit reads it as unknown, never a rejection)', () => {
    expect(classify('0777', null)).toEqual({ code: '0777', entry: undefined });
    expect(classify('0007', 'sin detalle')).toEqual({ code: '0007', entry: undefined });
  });

  it('an answer code naming an inherited property (constructor, toString) is unlisted, not a meaning', () => {
    for (const code of ['constructor', 'toString', '__proto__']) expect(classify(code, null), code).toEqual({ code, entry: undefined });
  });
});

describe('reading an answer', () => {
  it('takes the reason of a generic CCE rejection from descripcionSistema', () => {
    expect(classify('RJCT', 'AM04 Fondos insuficientes')).toMatchObject({ code: 'AM04', entry: { motivo: 'SALDO_INSUFICIENTE' } });
    expect(classify('RJCT', 'sin detalle').entry!.motivo).toBe('DESCONOCIDO');
    expect(classify('0888', 'AC01 cuenta').entry!.motivo).toBe('CUENTA_NO_EXISTE');
  });

  it('keeps a specific Plaza code over an ISO text', () => {
    expect(classify('0051', 'AC01 x').entry!.motivo).toBe('SALDO_INSUFICIENTE');
  });

  it('reads the interbank status of a success', () => {
    expect(classify('0000', 'AC00 En espera')).toMatchObject({ code: 'AC00', entry: { meaning: 'pending' } });
    expect(classify('0000', 'ACCP Liquidada')).toMatchObject({ code: 'ACCP', entry: { meaning: 'settled' } });
    expect(classify('0000', 'Operacion exitosa')).toMatchObject({ code: '0000', entry: { meaning: 'settled' } });
  });

  it('finds only known ISO codes at the start of the text', () => {
    expect(isoCodeIn('AM04 Fondos')).toBe('AM04');
    expect(isoCodeIn('Fondos AM04')).toBeNull();
    expect(isoCodeIn('ZZ99 x')).toBeNull();
    expect(isoCodeIn(null)).toBeNull();
  });

  it('follows the kit rule for orders: "registro no encontrado" (0025) answering an order is unknown; in a status, no such order', () => {
    expect(orderRuleConflicts(PLAZA_CODES)).toEqual([]);
    expect(orderOutcome(classify('0025', null).entry, {})).toEqual({ type: 'unknown', raw: {} });
    expect(statusOutcome(classify('0025', null).entry, {})).toMatchObject({ type: 'not_processed' });
  });
});
