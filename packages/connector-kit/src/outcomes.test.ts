import { describe, expect, it } from 'vitest';
import {
  authRefusal,
  code,
  ISO20022_CODES,
  notFound,
  notProcessed,
  orderMeaning,
  orderOutcome,
  orderRuleConflicts,
  rejects,
  statusOutcome,
  type CodeTable,
} from './outcomes';

describe('the one rule for answers to orders', () => {
  it('a "no such record" code answering an order is an unknown outcome (queried), never a final rejection or a reroute', () => {
    // The shapes the banks' tables used before the rule: rejected / not processed on an order, "no such order" in a status.
    const rejectedButNotFound = code('rejected', 'DESCONOCIDO', 'Registro no encontrado', 'assumed', 'not_processed');
    const notProcessedButNotFound = code('not_processed', 'DESCONOCIDO', 'Operación no encontrada', 'published', 'not_processed');
    for (const entry of [rejectedButNotFound, notProcessedButNotFound, notFound('Registro no encontrado', 'assumed')]) {
      expect(orderMeaning(entry)).toBe('unknown');
      expect(orderOutcome(entry, { codigo: 'X' })).toEqual({ type: 'unknown', raw: { codigo: 'X' } });
      // The same code in a status answer settles the order: the bank has no such order.
      expect(statusOutcome(entry, {})).toMatchObject({ type: 'not_processed' });
    }
  });

  it('an unlisted code is unknown; a code known to mean "not executed" still ends the order', () => {
    expect(orderOutcome(undefined, {})).toEqual({ type: 'unknown', raw: {} });
    expect(orderOutcome(rejects('SALDO_INSUFICIENTE', 'Fondos insuficientes', 'assumed'), {}, { referencia: 'r1' })).toEqual({
      type: 'rejected',
      motivo: 'SALDO_INSUFICIENTE',
      referencia: 'r1',
      raw: {},
    });
    expect(orderOutcome(ISO20022_CODES.RJCT, {})).toMatchObject({ type: 'rejected', motivo: 'DESCONOCIDO' });
    expect(orderOutcome(notProcessed('Banco no disponible', 'assumed'), {})).toEqual({ type: 'not_processed', raw: {} });
    expect(orderOutcome(authRefusal('Firma invalida', 'assumed'), {})).toMatchObject({ type: 'rejected', motivo: 'FIRMA_AUTH' });
    expect(orderOutcome(ISO20022_CODES.ACCP, {})).toMatchObject({ type: 'settled' });
  });

  it('orderRuleConflicts names the entries of a table that claim a "no such record" answer ended an order', () => {
    const table: CodeTable = {
      '25': code('rejected', 'DESCONOCIDO', 'Registro no encontrado', 'assumed', 'not_processed'),
      SMF001: code('not_processed', 'DESCONOCIDO', 'Operación no encontrada', 'published', 'not_processed'),
      '0025': notFound('Registro no encontrado', 'assumed'),
      '51': rejects('SALDO_INSUFICIENTE', 'Fondos insuficientes', 'assumed'),
    };
    expect(orderRuleConflicts(table).sort()).toEqual(['25', 'SMF001']);
    expect(orderRuleConflicts(ISO20022_CODES)).toEqual([]);
  });
});
