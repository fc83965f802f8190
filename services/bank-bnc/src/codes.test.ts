import { MOTIVOS_RECHAZO } from '@switch/core/estados';
import { orderRuleConflicts } from '@switch/connector-kit/connector';
import { describe, expect, it } from 'vitest';
import { simfStatus } from './responses';
import { BNC_CODES, BNC_FAMILY_CODES, classify, extractCode, messageText } from './codes';

describe('BNC code table', () => {
  it('every code maps to a motivo of SPEC 7.2, a disposition and its source', () => {
    for (const [code, entry] of Object.entries(BNC_CODES)) {
      expect(MOTIVOS_RECHAZO, code).toContain(entry.motivo);
      expect(['published', 'observed', 'assumed'], code).toContain(entry.source);
      for (const family of ['p2p', 'c2p', 'simf', 'query'] as const) {
        expect(['reject', 'not_processed', 'unknown', 'refresh_key', 'success', 'pending'], code).toContain(
          classify(code, family).disposition,
        );
      }
    }
    for (const table of Object.values(BNC_FAMILY_CODES)) {
      for (const [code, override] of Object.entries(table)) {
        expect(MOTIVOS_RECHAZO, code).toContain(override.motivo);
        expect(BNC_CODES[code], code).toBeDefined();
      }
    }
  });

  it('covers the documented codes: EPI, Pago Móvil / C2P G-codes, ISO 20022 reasons and SMF001', () => {
    const documented = [
      ...[
        'EPIRWK',
        'EPICNF',
        'EPIONA',
        'EPIIMS',
        'EPIHV',
        'EPIR01',
        'EPIR02',
        'EPIR03',
        'EPIE00',
        'EPIE02',
        'EPIE03',
        'EPIKNF',
        'EPIEDD',
        'EPIECP',
        'EPIEMP',
        'P2PEMP',
      ],
      ...['EPIMC1', 'EPIMC2', 'EPIAVF', 'EPICCA', 'EPIAVM', 'EPIANF', 'EPIEBR', 'EPIESF', 'EPIGN1', 'EPIGN2', 'EPIURS'],
      ...['G05', 'G12', 'G14', 'G41', 'G43', 'G51', 'G52', 'G61', 'G62', 'G65', 'G80', 'G91', 'G96', 'G56', 'G13', 'G55'],
      ...['AC00', 'AB01', 'AB07', 'AC01', 'AC04', 'AC06', 'AC09', 'ACCP', 'AG09', 'AG10', 'AM02', 'AM03', 'AM04', 'AM05', 'BE01', 'BE20'],
      ...['CUST', 'CH20', 'DT03', 'DU01', 'FF05', 'FF07', 'RC08', 'RJCT', 'TKCM', 'VE01', 'VE02', 'SMF001'],
    ];
    for (const code of documented) expect(BNC_CODES[code], code).toBeDefined();
  });

  it('maps the money reasons as PROTOCOLS reads them', () => {
    const m = (code: string, family: 'p2p' | 'c2p' | 'simf' = 'p2p') => classify(code, family).motivo;
    expect(m('G51')).toBe('SALDO_INSUFICIENTE');
    expect(m('G55', 'c2p')).toBe('OTP_INVALIDO');
    expect(m('G52')).toBe('NO_AFILIADO_SERVICIO');
    expect(m('G41')).toBe('NO_AFILIADO_SERVICIO');
    expect(m('G41', 'c2p')).toBe('CUENTA_BLOQUEADA');
    expect(m('G61')).toBe('EXCEDE_LIMITE');
    expect(m('G62')).toBe('CUENTA_BLOQUEADA');
    expect(m('G80')).toBe('BENEFICIARIO_NO_COINCIDE');
    expect(m('AM04', 'simf')).toBe('SALDO_INSUFICIENTE');
    expect(m('TKCM', 'simf')).toBe('OTP_INVALIDO');
    expect(m('AC01', 'simf')).toBe('CUENTA_NO_EXISTE');
    for (const auth of ['EPICNF', 'EPIONA', 'EPIHV', 'EPIR02'])
      expect(classify(auth, 'p2p')).toMatchObject({ motivo: 'FIRMA_AUTH', disposition: 'reject' });
  });

  it('only codes that place the failure before execution are not_processed', () => {
    for (const code of ['G05', 'G12', 'G91', 'G96', 'EPIR03', 'AB07'])
      expect(classify(code, 'p2p').disposition, code).toBe('not_processed');
    for (const code of ['EPIE00', 'EPIEMP', 'EPIECP', 'EPIURS', 'AB01']) expect(classify(code, 'p2p').disposition, code).toBe('unknown');
    expect(classify('EPIRWK', 'p2p').disposition).toBe('refresh_key');
  });

  it('follows the kit rule for orders: SMF001 ("operación no encontrada") answering an order is unknown, never a reroute', () => {
    expect(orderRuleConflicts(BNC_CODES)).toEqual([]);
    expect(classify('SMF001', 'simf', 'order')).toMatchObject({ known: true, disposition: 'unknown' });
    expect(classify('EPIMC2', 'p2p', 'order')).toMatchObject({ motivo: 'FIRMA_AUTH', disposition: 'reject' });
    expect(classify('EPIMC1', 'c2p', 'order')).toMatchObject({ motivo: 'FIRMA_AUTH', disposition: 'reject' });
  });

  it('an unknown or missing code is unknown, never a rejection', () => {
    expect(classify('ZZ99', 'p2p')).toMatchObject({ known: false, disposition: 'unknown' });
    expect(classify(null, 'simf')).toMatchObject({ known: false, disposition: 'unknown' });
  });

  it('extracts the code at the head of a message, known codes first', () => {
    expect(extractCode('000000Consulta exitosa')).toBe('000000');
    expect(extractCode('EPIRWKPetición denegada por medidas de seguridad')).toBe('EPIRWK');
    // A blind 6-character cut would read EPIHVH.
    expect(extractCode('EPIHVHash de la petición inválido')).toBe('EPIHV');
    expect(extractCode('G51 Insufficient funds')).toBe('G51');
    expect(extractCode('G51Fondos insuficientes')).toBe('G51');
    expect(extractCode('XYZ123 algo')).toBe('XYZ123');
    expect(extractCode('sin código')).toBeNull();
    expect(extractCode('')).toBeNull();
    expect(messageText('G51Fondos insuficientes', 'G51')).toBe('Fondos insuficientes');
  });
});

describe('status answers', () => {
  it('an unlisted code or TxSts to a status query → unknown, never rejected', () => {
    const call = (status: string, code: string | null, value: unknown = null) => ({
      kind: 'answer' as const,
      relogon: false,
      answer: { httpStatus: 200, status, message: `${code ?? ''}x`, code, text: 'x', value, valueProblem: null, body: {} },
    });
    expect(simfStatus(call('KO', '0007')).type).toBe('unknown');
    expect(simfStatus(call('OK', '000000', { TxSts: 'XXXX' })).type).toBe('unknown');
    expect(simfStatus(call('OK', '000000', { TxSts: 'RJCT', RsnCode: 'ZZ99' }))).toMatchObject({ type: 'rejected', motivo: 'DESCONOCIDO' });
    expect(simfStatus(call('KO', 'SMF001')).type).toBe('not_processed');
  });
});
