import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BancoId, CreditoRecibido, CreditosQuery } from '@switch/core/contracts/bancos';
import type { ReadOutcome } from '@switch/connector-kit/bank-port';
import type { IncomingPagoMovil, IncomingReceipt } from '@switch/connector-kit/emulator';
import { EMULATOR_DEMO } from '@switch/embedded';
import { startBankSwitch, type BankSwitch } from './helpers';

/**
 * The connector kit's "credits of account X on day D" on every bank: a payer's pago móvil injected
 * into the bank's emulator is booked as that bank books it and read back by its real connector
 * through the bank's own statement protocol (BNC's HistoryByDate, Plaza's operations search,
 * Bancaribe's and Activo's statements), and by the simulated bank of test mode.
 */
type Bank = {
  banco: BancoId | 'sim';
  cuenta: string;
  receive(p: IncomingPagoMovil): IncomingReceipt | Promise<IncomingReceipt>;
  creditos(q: CreditosQuery): Promise<ReadOutcome<CreditoRecibido[]>>;
  failNext?(n: number, status: number): void;
};

let t: BankSwitch;
let banks: Bank[];
beforeAll(async () => {
  t = await startBankSwitch();
  const s = t.sw.banks.services;
  const d = EMULATOR_DEMO;
  banks = [
    {
      banco: 'bnc',
      cuenta: d.bnc.account,
      receive: (p) => t.emu.bnc.ledger.receivePagoMovil(p),
      creditos: (q) => s.bnc!.connectors.live!.creditos('live', q),
      failNext: (n, status) => t.emu.bnc.controls.failNext(n, status),
    },
    {
      banco: 'banco_plaza',
      cuenta: d.banco_plaza.account,
      receive: (p) => t.emu.banco_plaza.ledger.receivePagoMovil(p),
      creditos: (q) => s.banco_plaza!.connectors.test!.creditos('test', q),
      failNext: (n, status) => t.emu.banco_plaza.controls.failNext(n, status),
    },
    {
      banco: 'bancaribe',
      cuenta: d.bancaribe.cuenta,
      receive: (p) => t.emu.bancaribe.ledger.receivePagoMovil(p),
      creditos: (q) => s.bancaribe!.connectors.test!.creditos('test', q),
      failNext: (n, status) => t.emu.bancaribe.controls.failNext(n, status),
    },
    {
      banco: 'banco_activo',
      cuenta: d.banco_activo.account,
      receive: (p) => t.emu.banco_activo.ledger.receivePagoMovil(p),
      creditos: (q) => s.banco_activo!.connectors.test!.creditos('test', q),
      failNext: (n, status) => t.emu.banco_activo.controls.failNext(n, status),
    },
    {
      banco: 'sim',
      cuenta: '01910000000000000777',
      receive: (p) => t.sw.bank.receivePagoMovil(t.merchantId, p),
      creditos: (q) => t.sw.bank.creditos('test', q, { merchantId: t.merchantId }),
    },
  ];
});
afterAll(async () => {
  await t?.close();
});

const bank = (banco: Bank['banco']) => banks.find((b) => b.banco === banco)!;
const ok = <T>(r: ReadOutcome<T>): T => {
  if (!r.ok) throw new Error(`read failed: ${r.motivo} ${JSON.stringify(r.raw)}`);
  return r.value;
};
/** A Caracas wall-clock time as an instant (UTC-4). */
const caracas = (day: string, time: string) => new Date(`${day}T${time}-04:00`);

describe.each(['bnc', 'banco_plaza', 'bancaribe', 'banco_activo', 'sim'] as const)('credits of a day: %s', (banco) => {
  it("reads a payer's pago móvil back with its bank reference, day, amount and the payer's phone, id and bank", async () => {
    const b = bank(banco);
    const receipt = await b.receive({
      cuenta: b.cuenta,
      monto: 150.25,
      bancoPagador: '0102',
      telefonoPagador: '04141234567',
      identificacionPagador: 'V12345678',
      at: caracas('2026-11-20', '10:15:00'),
      referencia: '000123456789',
    });
    expect(receipt.referencia).toBe('000123456789');
    expect(receipt.fecha).toBe('2026-11-20');
    const credits = ok(await b.creditos({ cuenta: b.cuenta, fecha: '2026-11-20' }));
    const mine = credits.filter((c) => c.monto === 150.25);
    expect(mine).toHaveLength(1);
    const c = mine[0]!;
    expect(c.referencia).toBe(receipt.referenciaBanco);
    expect('000123456789'.endsWith(c.referencia.replace(/^0+/, ''))).toBe(true);
    expect(c.fecha).toBe('2026-11-20');
    expect(c.cuenta).toBe(b.cuenta);
    expect(c.pagador).toEqual({ telefono: '04141234567', identificacion: 'V12345678', banco: '0102' });
  });

  it('a payment sent at 23:59 and booked the next day is a credit of the next day, not of the day it was sent', async () => {
    const b = bank(banco);
    const receipt = await b.receive({
      cuenta: b.cuenta,
      monto: 77.77,
      bancoPagador: '0134',
      telefonoPagador: '04241112233',
      at: caracas('2026-11-21', '23:59:00'),
      bookedOn: '2026-11-22',
    });
    expect(receipt).toMatchObject({ fecha: '2026-11-21', fechaBanco: '2026-11-22' });
    const sentDay = ok(await b.creditos({ cuenta: b.cuenta, fecha: '2026-11-21' }));
    const nextDay = ok(await b.creditos({ cuenta: b.cuenta, fecha: '2026-11-22' }));
    expect(sentDay.filter((c) => c.monto === 77.77)).toEqual([]);
    expect(nextDay.filter((c) => c.monto === 77.77).map((c) => c.referencia)).toEqual([receipt.referenciaBanco]);
  });

  it('a bank that fails the statement call answers a motivo, never a list', async () => {
    const b = bank(banco);
    if (!b.failNext) return; // the simulated bank has no network to fail
    b.failNext(1, 503);
    const r = await b.creditos({ cuenta: b.cuenta, fecha: '2026-11-20' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(['BANCO_NO_DISPONIBLE', 'RECHAZO_TECNICO']).toContain(r.motivo);
  });
});

describe("Banco Plaza's search by reference", () => {
  it('answers only the operation whose reference ends in the digits the payer gives', async () => {
    const b = bank('banco_plaza');
    const at = caracas('2026-11-23', '09:00:00');
    const one = await b.receive({
      cuenta: b.cuenta,
      monto: 10,
      bancoPagador: '0105',
      telefonoPagador: '04161234567',
      at,
      referencia: '111122223333',
    });
    await b.receive({ cuenta: b.cuenta, monto: 10, bancoPagador: '0105', telefonoPagador: '04161234567', at, referencia: '999988887777' });
    const found = ok(await b.creditos({ cuenta: b.cuenta, fecha: '2026-11-23', referencia: '3333' }));
    expect(found.map((c) => c.referencia)).toEqual([one.referenciaBanco]);
    expect(ok(await b.creditos({ cuenta: b.cuenta, fecha: '2026-11-23', referencia: '4444' }))).toEqual([]);
  });
});
