import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decryptValue, sealRequest, validationOf } from '../src/protocol';
import { startEmulator, type Emulator } from './server';

const GUID = '4A074C46-DD4E-4E54-8010-B80A6A8758F4';
const MASTER = 'test-master-key';
const ACCOUNT = '01910001482101010049';
const credentials = { clientGuid: GUID, masterKey: MASTER, clientId: 'J000121532', account: ACCOUNT };

let clock = new Date('2025-06-10T15:00:00Z');
let seq = 0;
const ref = (p = 'T') => `${p}${Date.now()}${++seq}`;

interface Answer {
  http: number;
  status: string;
  message: string;
  value: unknown;
}

/** A raw client speaking the protocol by hand, so the emulator's checks can be hit one by one. */
async function post(emu: Emulator, path: string, envelope: Record<string, unknown>, key: string | null): Promise<Answer> {
  const res = await fetch(`${emu.url}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(envelope),
  });
  const body = (await res.json()) as { status: string; message: string; value: string | null; validation: string | null };
  let value: unknown = null;
  if (body.value && key) {
    const plain = decryptValue(body.value, key);
    expect(body.validation).toBe(validationOf(plain));
    value = JSON.parse(plain);
  }
  return { http: res.status, status: body.status, message: body.message, value };
}

const seal = (inner: unknown, key: string, reference = ref(), guid = GUID) =>
  ({ ...sealRequest({ clientGuid: guid, reference, inner, encryptionKey: key }) }) as Record<string, unknown>;

async function logon(emu: Emulator): Promise<string> {
  const a = await post(emu, 'Auth/LogOn', seal({ ClientGUID: GUID }, MASTER), MASTER);
  expect(a.status).toBe('OK');
  return (a.value as { WorkingKey: string }).WorkingKey;
}

const p2p = (amount: number, operationRef = '') => ({
  Amount: amount,
  BeneficiaryBankCode: 102,
  BeneficiaryCellPhone: '584241234567',
  BeneficiaryEmail: '',
  BeneficiaryID: 'V012345678',
  BeneficiaryName: 'Ana',
  Description: 'vuelto',
  OperationRef: operationRef,
});

describe('BNC emulator: what the bank verifies', () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, credentials, now: () => clock });
  });
  afterAll(() => emu.close());

  it('logs on with the MasterKey and issues a new random 32-hex WorkingKey each time', async () => {
    const a = await logon(emu);
    const b = await logon(emu);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(b).not.toBe(a);
  });

  it('refuses a logon sealed with another MasterKey (EPIHV) and an unknown ClientGUID (EPICNF)', async () => {
    expect((await post(emu, 'Auth/LogOn', seal({ ClientGUID: GUID }, 'wrong-key'), null)).message).toMatch(/^EPIHV/);
    const other = '11111111-2222-3333-4444-555555555555';
    expect((await post(emu, 'Auth/LogOn', seal({ ClientGUID: other }, MASTER, ref(), other), null)).message).toMatch(/^EPICNF/);
  });

  it('refuses a ClientGUID inside that differs from the one outside (EPIR02)', async () => {
    const a = await post(emu, 'Auth/LogOn', seal({ ClientGUID: '11111111-2222-3333-4444-555555555555' }, MASTER), null);
    expect(a).toMatchObject({ status: 'KO' });
    expect(a.message).toMatch(/^EPIR02/);
  });

  it('refuses a Validation that is not the hash of the Value (EPIHV)', async () => {
    const key = await logon(emu);
    const env = seal({ ClientID: 'J000121532' }, key);
    env.Validation = validationOf('{"ClientID":"J000121533"}');
    expect((await post(emu, 'Position/Current', env, key)).message).toMatch(/^EPIHV/);
  });

  it('accepts lowercase value/validation, as ASP.NET binding does', async () => {
    const key = await logon(emu);
    const env = seal({ ClientID: 'J000121532' }, key);
    const lower = {
      ClientGUID: env.ClientGUID,
      Reference: env.Reference,
      value: env.Value,
      validation: env.Validation,
      swTestOperation: false,
    };
    const a = await post(emu, 'Position/Current', lower, key);
    expect(a.status).toBe('OK');
    expect(a.value).toEqual({ [ACCOUNT]: { CurrencyCode: 'VES', Balance: emu.ledger.balanceOf(ACCOUNT) } });
  });

  it('refuses a revoked WorkingKey and one of an earlier day with EPIRWK', async () => {
    const key = await logon(emu);
    emu.controls.revokeWorkingKeys();
    const revoked = await post(emu, 'Position/Current', seal({ ClientID: 'J000121532' }, key), key);
    expect(revoked).toMatchObject({ status: 'KO', message: 'EPIRWKPetición denegada por medidas de seguridad' });

    const today = await logon(emu);
    clock = new Date(clock.getTime() + 24 * 3600_000);
    const stale = await post(emu, 'Position/Current', seal({ ClientID: 'J000121532' }, today), today);
    expect(stale.message).toMatch(/^EPIRWK/);
    expect(emu.controls.stats().refusals.EPIRWK).toBeGreaterThanOrEqual(2);
  });

  it('swTestOperation validates without executing', async () => {
    const key = await logon(emu);
    const before = emu.controls.orderCount();
    const env = { ...seal(p2p(10), key), swTestOperation: true };
    expect((await post(emu, 'MobPayment/SendP2P', env, key)).status).toBe('OK');
    expect(emu.controls.orderCount()).toBe(before);
  });

  it('rejects a repeated Reference of the day (G94, the documented duplicate refusal), executing once', async () => {
    const key = await logon(emu);
    const reference = ref('P');
    const balance = emu.ledger.balanceOf(ACCOUNT);
    const duplicates = emu.controls.stats().duplicates;
    const first = await post(emu, 'MobPayment/SendP2P', seal(p2p(12.5), key, reference), key);
    const again = await post(emu, 'MobPayment/SendP2P', seal(p2p(12.5), key, reference), key);
    // Another operation under the same Reference is refused too: the Reference, not the body, is the key.
    const other = await post(emu, 'MobPayment/SendP2P', seal(p2p(3), key, reference), key);
    expect(first.status).toBe('OK');
    expect(again).toMatchObject({ status: 'KO', message: expect.stringMatching(/^G94/) });
    expect(again.value).toBeNull();
    expect(other).toMatchObject({ status: 'KO', message: expect.stringMatching(/^G94/) });
    expect(emu.ledger.balanceOf(ACCOUNT)).toBe(balance - 12.5);
    expect(emu.controls.callsFor(reference)).toBe(3);
    expect(emu.controls.stats().duplicates).toBe(duplicates + 2);
  });

  it('takes a Reference again once a refusal at the door (EPIRWK) left it unused', async () => {
    const key = await logon(emu);
    const reference = ref('P');
    const refused = await post(emu, 'MobPayment/SendP2P', seal(p2p(4), 'ffffffffffffffffffffffffffffffff', reference), key);
    expect(refused).toMatchObject({ status: 'KO', message: expect.stringMatching(/^EPIRWK/) });
    expect((await post(emu, 'MobPayment/SendP2P', seal(p2p(4), key, reference), key)).status).toBe('OK');
  });

  it('answers SwAlreadySent with the original result for a paid OperationRef', async () => {
    const key = await logon(emu);
    const first = await post(emu, 'MobPayment/SendP2P', seal(p2p(13, 'OPREF-1'), key), key);
    const repeat = await post(emu, 'MobPayment/SendP2P', seal(p2p(13, 'OPREF-1'), key), key);
    expect(first.value).toMatchObject({ SwAlreadySent: false });
    expect(repeat.value).toEqual({ ...(first.value as object), SwAlreadySent: true });
  });

  it('refuses a model that does not bind (EPIIMS) and does not keep its Reference', async () => {
    const key = await logon(emu);
    const reference = ref('M');
    const bad = await post(emu, 'MobPayment/SendP2P', seal({ ...p2p(10), BeneficiaryCellPhone: '04241234567' }, key, reference), key);
    expect(bad.message).toMatch(/^EPIIMS.*BeneficiaryCellPhone/);
    expect((await post(emu, 'MobPayment/SendP2P', seal(p2p(10), key, reference), key)).status).toBe('OK');
  });

  it('is driven over HTTP too: OTP of a token, forced rejections, state', async () => {
    const key = await logon(emu);
    const token = { Amount: 20, DebtorAccount: '584141234567', DebtorAccountType: 'CELE', DebtorBank: '0102', DebtorID: 'V012345678' };
    expect((await post(emu, 'SIMF/DebitTokenRequest', seal(token, key), key)).status).toBe('OK');
    const otp = (await (await fetch(`${emu.url.replace(/\/api$/, '')}/__emulator/otp?telefono=04141234567`)).json()) as { otp: string };
    expect(otp.otp).toMatch(/^[1-9][0-9]{7}$/);

    await fetch(`${emu.url.replace(/\/api$/, '')}/__emulator/rejectNext`, { method: 'POST', body: JSON.stringify({ n: 1, code: 'G62' }) });
    expect((await post(emu, 'MobPayment/SendP2P', seal(p2p(10), key), key)).message).toMatch(/^G62/);
    const state = (await (await fetch(`${emu.url.replace(/\/api$/, '')}/__emulator/state`)).json()) as { orderCount: number };
    expect(state.orderCount).toBe(emu.controls.orderCount());
  });

  it('refuses connections on demand and accepts again', async () => {
    await emu.controls.refuseConnections(true);
    await expect(fetch(`${emu.url}/Auth/LogOn`, { method: 'POST', body: '{}' })).rejects.toThrow();
    await emu.controls.refuseConnections(false);
    expect(await logon(emu)).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('BNC emulator: asynchronous settlement', () => {
  it('keeps a SIMF credit pending, then settles it by itself after settleDelayMs', async () => {
    const emu = await startEmulator({ port: 0, credentials, settleDelayMs: 20 });
    try {
      const key = await logon(emu);
      const credit = {
        Amount: 40,
        CreditorBank: '0102',
        CreditorID: 'V012345678',
        CreditorAccType: 'CNTA',
        CreditorAccount: '01020000000000000001',
        CreditorName: 'Ana',
        Concept: 'pago',
      };
      const a = await post(emu, 'SIMF/CreditBeginner', seal(credit, key), key);
      expect(a).toMatchObject({ http: 202, status: 'OK', value: { Status: 'AC00' } });
      const reference = (a.value as { Reference: string }).Reference;
      await vi.waitFor(() => expect(emu.ledger.orders.get(reference)?.state).toBe('settled'));
      const status = await post(emu, 'SIMF/GetStatusTrans', seal({ OperationType: 'CREDITO', Reference: reference }, key), key);
      expect(status.value).toMatchObject({ Reference: reference, TxSts: 'ACCP' });
      expect(emu.ledger.balanceOf('01020000000000000001')).toBe(1_000_040);
    } finally {
      await emu.close();
    }
  });
});
