import { describe, expect, it } from 'vitest';
import type { RouterInboxMessage } from './contracts/topics';
import { CAPABILITIES } from './contracts/bancos';
import { canTransition, isFinal } from './estados';
import { newTransaction, type BankOutcome, type OperationRequest, type Transaction } from './operation';
import type { RoutingTable } from './routing';
import {
  decide,
  DEFAULT_CORE_POLICY,
  dueAt,
  needsReview,
  releasesReversal,
  type CorePolicy,
  type DecisionContext,
  dispatch,
  requestStatus,
  resolveAttempt,
  transition,
} from './transaction-core';

const T0 = '2026-11-24T12:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const policy: CorePolicy = {
  ...DEFAULT_CORE_POLICY,
  backoffMs: [5_000, 60_000],
  orderDeadlineMs: 120_000,
  statusDeadlineMs: 60_000,
  notFoundSettleMs: 600_000,
};
const routing: RoutingTable = {
  test: [
    { banco: 'bnc', capabilities: [...CAPABILITIES] },
    { banco: 'banco_plaza', capabilities: [...CAPABILITIES] },
  ],
  live: [],
};

const cuenta = { tipo: 'cuenta' as const, valor: '01910000000000000001', banco: '0191', identificacion: 'J123456789', nombre: 'Tienda' };
const telefono = { tipo: 'telefono' as const, valor: '04141234567', banco: '0102', identificacion: 'V12345678', nombre: 'Ana' };
const KEY = '6f1c8a52-1d7e-4f55-9a0e-2b1c3d4e5f60';
const REQUESTS: Record<'pagar' | 'token' | 'cobrar', OperationRequest> = {
  pagar: {
    kind: 'pagar',
    body: {
      idempotency_key: KEY,
      monto: { valor: 10, moneda: 'VES' },
      concepto: 'x',
      ordenante: cuenta,
      beneficiario: telefono,
      via: 'pago_movil',
    },
  },
  token: {
    kind: 'token',
    body: { idempotency_key: KEY, monto: { valor: 10, moneda: 'VES' }, concepto: 'x', cobrador: cuenta, pagador: telefono },
  },
  cobrar: {
    kind: 'cobrar',
    body: {
      idempotency_key: KEY,
      monto: { valor: 10, moneda: 'VES' },
      concepto: 'x',
      cobrador: cuenta,
      pagador: telefono,
      otp: '12345678',
    },
  },
};

const fresh = (kind: keyof typeof REQUESTS = 'pagar') =>
  newTransaction({
    id: `txn_${kind}`,
    merchantId: 'm',
    mode: 'test',
    idempotencyKey: KEY,
    fingerprint: 'f',
    request: REQUESTS[kind],
    relatedId: null,
    now: T0,
  });
const inFlightTx = (kind: keyof typeof REQUESTS = 'pagar') => dispatch(fresh(kind), 'bnc', 'pago_movil', T0);
const answered = (tx: Transaction, outcome: BankOutcome['type']) => resolveAttempt(tx, 1, outcome, T0);
const accepted = (kind: keyof typeof REQUESTS = 'pagar') =>
  transition(answered(inFlightTx(kind), 'accepted'), 'ACEPTADA', 'bank_outcome', {}, T0);
const pendiente = () => transition(accepted(), 'PENDIENTE', 'status_query', {}, T0);
const desconocida = () => transition(answered(inFlightTx(), 'unknown'), 'DESCONOCIDA', 'bank_outcome', {}, T0);
const asking = () => requestStatus(desconocida(), T0);
const liquidada = () => transition(answered(inFlightTx(), 'settled'), 'LIQUIDADA', 'bank_outcome', {}, T0);
const rechazada = () => transition(answered(inFlightTx(), 'rejected'), 'RECHAZADA', 'bank_outcome', { motivo: 'SALDO_INSUFICIENTE' }, T0);

/** Every state a transaction can be in, as the router writes it. */
const STATES: Record<string, () => Transaction> = {
  new: () => fresh(),
  in_flight: () => inFlightTx(),
  token_in_flight: () => inFlightTx('token'),
  ACEPTADA: () => accepted(),
  token_ACEPTADA: () => accepted('token'),
  PENDIENTE: pendiente,
  DESCONOCIDA: desconocida,
  DESCONOCIDA_asking: asking,
  LIQUIDADA: liquidada,
  RECHAZADA: rechazada,
};

const OUTCOMES: Record<string, BankOutcome> = {
  settled: { type: 'settled', referencia: 'R', endtoend: 'E', raw: {} },
  accepted: { type: 'accepted', pending: false, referencia: 'R', endtoend: 'E', raw: {} },
  pending: { type: 'accepted', pending: true, referencia: 'R', endtoend: 'E', raw: {} },
  rejected: { type: 'rejected', motivo: 'SALDO_INSUFICIENTE', referencia: null, raw: {} },
  not_processed: { type: 'not_processed', raw: {} },
  unknown: { type: 'unknown', raw: {} },
};

/** Every message the actor receives, for a transaction `id`. */
function messages(id: string, tx: Transaction): Record<string, RouterInboxMessage> {
  const out: Record<string, RouterInboxMessage> = {
    execute: { type: 'execute', txnId: id, merchantId: 'm', mode: 'test', idempotencyKey: KEY, fingerprint: 'f', request: tx.request },
    query: { type: 'query', txnId: id },
    review: { type: 'review', txnId: id, reason: 'old' },
  };
  for (const [name, outcome] of Object.entries(OUTCOMES)) {
    out[`order:${name}`] = { type: 'bank_result', txnId: id, attempt: 1, op: 'execute', outcome };
    out[`status:${name}`] = { type: 'bank_result', txnId: id, attempt: tx.statusQuery?.seq ?? 1, op: 'status', outcome };
  }
  return out;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const ctx = (now = T0, over: Partial<DecisionContext> = {}): DecisionContext => ({
  now,
  policy,
  routing,
  unavailable: new Set(),
  related: null,
  refusal: null,
  ...over,
});

describe('transaction core: every message × every state', () => {
  const cells = Object.entries(STATES).flatMap(([state, make]) => Object.keys(messages('x', make())).map((m) => [state, m] as const));

  it.each(cells)('%s × %s keeps the invariants', (state, m) => {
    for (const now of [T0, at(10 * 60_000)]) {
      const tx = STATES[state]!();
      const before = structuredClone(tx);
      // Frozen all through: versions share their unchanged parts, so an edit that wrote into one
      // would change the version it came from (and throws here instead).
      const d = decide(deepFreeze(tx), deepFreeze(messages(tx.id, tx)[m]!), ctx(now));
      expect(tx, 'the input is never mutated').toEqual(before);
      if (!d.next) {
        expect(d.effects).toBeNull();
        continue;
      }
      // DESIGN rule 2: finals never change.
      expect(isFinal(tx.estado)).toBe(false);
      expect(d.next.version).toBe(tx.version + 1);
      if (d.next.estado !== tx.estado) {
        const last = d.next.history[d.next.history.length - 1]!;
        expect(canTransition(tx.estado, d.next.estado!, last.cause)).toBe(true);
        expect(last.version).toBe(d.next.version);
      }
      // Never a second order for an attempt: an order effect only for a new attempt.
      if (d.effects?.bank?.message.op === 'execute') expect(d.next.attempts.length).toBe(tx.attempts.length + 1);
      // The due time is the core's.
      expect(d.next.nextCheckAt).toBe(dueAt(d.next, policy));
      expect(d.effects!.event.version).toBe(d.next.version);
    }
  });

  const expected: [string, string, string | null, 'execute' | 'status' | null][] = [
    // state, message, estado after (null: nothing written), bank message
    ['new', 'execute', null, 'execute'],
    ['new', 'query', null, 'execute'],
    ['in_flight', 'execute', 'unchanged', null],
    ['in_flight', 'order:settled', 'LIQUIDADA', null],
    ['in_flight', 'order:accepted', 'ACEPTADA', null],
    ['in_flight', 'order:rejected', 'RECHAZADA', null],
    ['in_flight', 'order:unknown', 'DESCONOCIDA', null],
    ['in_flight', 'order:not_processed', null, 'execute'],
    ['in_flight', 'query', 'unchanged', null],
    ['in_flight', 'status:settled', 'unchanged', null],
    ['ACEPTADA', 'query', 'ACEPTADA', 'status'],
    ['ACEPTADA', 'order:settled', 'unchanged', null],
    ['token_ACEPTADA', 'query', 'unchanged', null],
    ['PENDIENTE', 'query', 'PENDIENTE', 'status'],
    ['DESCONOCIDA', 'execute', 'unchanged', null],
    ['DESCONOCIDA', 'query', 'DESCONOCIDA', 'status'],
    ['DESCONOCIDA_asking', 'query', 'unchanged', null],
    ['DESCONOCIDA_asking', 'status:settled', 'LIQUIDADA', null],
    ['DESCONOCIDA_asking', 'status:pending', 'PENDIENTE', null],
    ['DESCONOCIDA_asking', 'status:accepted', 'ACEPTADA', null],
    ['DESCONOCIDA_asking', 'status:rejected', 'RECHAZADA', null],
    ['DESCONOCIDA_asking', 'status:unknown', 'DESCONOCIDA', null],
    ['DESCONOCIDA_asking', 'status:not_processed', 'DESCONOCIDA', null],
    ['LIQUIDADA', 'query', 'unchanged', null],
    ['LIQUIDADA', 'status:rejected', 'unchanged', null],
    ['RECHAZADA', 'order:settled', 'unchanged', null],
    ['RECHAZADA', 'review', 'unchanged', null],
    ['DESCONOCIDA', 'review', 'DESCONOCIDA', null],
  ];
  it.each(expected)('%s × %s → %s (bank: %s)', (state, m, estado, bank) => {
    const tx = STATES[state]!();
    const d = decide(tx, messages(tx.id, tx)[m]!, ctx());
    if (estado === 'unchanged') expect(d.next).toBeNull();
    else expect(d.next?.estado ?? null).toBe(estado);
    expect(d.effects?.bank?.message.op ?? null).toBe(bank);
  });
});

describe('transaction core: deadlines and due times', () => {
  it('an order past its deadline becomes DESCONOCIDA and is asked about, never resent', () => {
    const tx = inFlightTx();
    expect(decide(tx, { type: 'query', txnId: tx.id }, ctx(at(policy.orderDeadlineMs - 1))).next).toBeNull();
    const d = decide(tx, { type: 'query', txnId: tx.id }, ctx(at(policy.orderDeadlineMs)));
    expect(d.next!.estado).toBe('DESCONOCIDA');
    expect(d.next!.attempts).toEqual([expect.objectContaining({ n: 1, outcome: 'unknown' })]);
    expect(d.next!.history.at(-1)).toMatchObject({ from: null, to: 'DESCONOCIDA', cause: 'order_deadline' });
    expect(d.effects!.bank!.message.op).toBe('status');
    // The order is fenced: a copy still queued for the bank is never sent late.
    expect(d.fence).toEqual({ txnId: tx.id, attempt: 1, banco: 'bnc', orderRef: `${tx.id}-1` });
    // A late answer to that order changes nothing; the status query decides.
    expect(
      decide(d.next!, { type: 'bank_result', txnId: tx.id, attempt: 1, op: 'execute', outcome: OUTCOMES.settled! }, ctx()).next,
    ).toBeNull();
  });

  it('a token past its deadline is DESCONOCIDA without a status query (tokens are not reconciled)', () => {
    const d = decide(inFlightTx('token'), { type: 'query', txnId: 'txn_token' }, ctx(at(policy.orderDeadlineMs)));
    expect(d.next!.estado).toBe('DESCONOCIDA');
    expect(d.effects!.bank).toBeNull();
    expect(d.next!.nextCheckAt).toBeNull();
  });

  it('a status query past its deadline is asked again with a new sequence; the stale answer is ignored', () => {
    const tx = asking();
    expect(decide(tx, { type: 'query', txnId: tx.id }, ctx(at(policy.statusDeadlineMs - 1))).next).toBeNull();
    const d = decide(tx, { type: 'query', txnId: tx.id }, ctx(at(policy.statusDeadlineMs)));
    expect(d.next!.statusQuery!.seq).toBe(tx.statusQuery!.seq + 1);
    const stale = decide(
      d.next!,
      { type: 'bank_result', txnId: tx.id, attempt: tx.statusQuery!.seq, op: 'status', outcome: OUTCOMES.settled! },
      ctx(),
    );
    expect(stale.next).toBeNull();
  });

  it('due times: the order deadline while in flight, the backoff while open, nothing for finals and answered tokens', () => {
    expect(dueAt(inFlightTx(), policy)).toBe(at(policy.orderDeadlineMs));
    expect(dueAt(accepted(), policy)).toBe(at(5_000));
    expect(dueAt({ ...accepted(), statusChecks: 1, lastStatusAt: at(1_000) }, policy)).toBe(at(61_000));
    expect(dueAt({ ...accepted(), statusChecks: 9, lastStatusAt: at(0) }, policy)).toBe(at(60_000));
    expect(dueAt(asking(), policy)).toBe(at(policy.statusDeadlineMs));
    expect(dueAt(liquidada(), policy)).toBeNull();
    expect(dueAt(rechazada(), policy)).toBeNull();
    expect(dueAt(accepted('token'), policy)).toBeNull();
    expect(dueAt(inFlightTx('token'), policy)).toBe(at(policy.orderDeadlineMs));
  });

  it('review: open money operations past the age, once; never tokens or finals', () => {
    expect(needsReview(desconocida(), at(3_600_000), 3_600_000)).toBe(true);
    expect(needsReview(desconocida(), at(3_599_999), 3_600_000)).toBe(false);
    expect(needsReview({ ...desconocida(), review: { since: T0, reason: 'x' } }, at(3_600_000), 3_600_000)).toBe(false);
    expect(needsReview(accepted('token'), at(3_600_000), 3_600_000)).toBe(false);
    expect(needsReview(liquidada(), at(3_600_000), 3_600_000)).toBe(false);
  });

  it('a payout the bank did not process goes to the next able bank; a collection is rejected', () => {
    const d = decide(
      inFlightTx(),
      { type: 'bank_result', txnId: 'txn_pagar', attempt: 1, op: 'execute', outcome: OUTCOMES.not_processed! },
      ctx(),
    );
    expect(d.rerouted).toEqual({ from: 'bnc', to: 'banco_plaza' });
    expect(d.effects!.bank).toMatchObject({ banco: 'banco_plaza', message: { op: 'execute', attempt: 2, orderRef: 'txn_pagar-2' } });
    const c = decide(
      inFlightTx('cobrar'),
      { type: 'bank_result', txnId: 'txn_cobrar', attempt: 1, op: 'execute', outcome: OUTCOMES.not_processed! },
      ctx(),
    );
    expect(c.next).toMatchObject({ estado: 'RECHAZADA', motivoRechazo: 'BANCO_NO_DISPONIBLE' });
  });

  it('a live-control refusal rejects before any bank is asked', () => {
    const d = decide(fresh(), { type: 'query', txnId: 'txn_pagar' }, ctx(T0, { refusal: { motivo: 'EXCEDE_LIMITE', raw: {} } }));
    expect(d.next).toMatchObject({ estado: 'RECHAZADA', motivoRechazo: 'EXCEDE_LIMITE' });
    expect(d.effects!.bank).toBeNull();
  });
});

describe('transaction core: what a reverso may reverse', () => {
  const reverso = (original: Transaction, over: Partial<Transaction> = {}) => ({
    ...newTransaction({
      id: 'txn_rev',
      merchantId: 'm',
      mode: 'test',
      idempotencyKey: KEY,
      fingerprint: 'f',
      request: { kind: 'reverso', body: { idempotency_key: KEY, id: original.id } } as OperationRequest,
      relatedId: original.id,
      now: T0,
    }),
    ...over,
  });
  const execute = (tx: Transaction): RouterInboxMessage => ({
    type: 'execute',
    txnId: tx.id,
    merchantId: tx.merchantId,
    mode: tx.mode,
    idempotencyKey: KEY,
    fingerprint: 'f',
    request: tx.request,
  });
  const run = (original: Transaction, over: Partial<Transaction> = {}) => {
    const tx = reverso(original, over);
    return decide(tx, execute(tx), ctx(T0, { related: original }));
  };
  const refused = (d: ReturnType<typeof decide>) => {
    expect(d.next).toMatchObject({ estado: 'RECHAZADA', motivoRechazo: 'NO_SOPORTADO' });
    expect(d.effects!.bank).toBeNull();
  };

  it('a settled payout or collection goes to the bank of the original', () => {
    for (const original of [
      liquidada(),
      { ...transition(answered(inFlightTx('cobrar'), 'settled'), 'LIQUIDADA', 'bank_outcome', {}, T0), id: 'txn_cobrar' },
    ]) {
      const d = run(original);
      expect(d.effects!.bank).toMatchObject({ banco: 'bnc' });
    }
  });
  it('a token is never reversed (it moves no money)', () => refused(run(accepted('token'))));
  it('a reverso is never reversed', () => {
    const settledReverso = { ...liquidada(), kind: 'reverso' as const, request: reverso(liquidada()).request };
    refused(run(settledReverso));
  });
  it('an operation not settled is not reversed', () => {
    for (const original of [accepted(), pendiente(), desconocida(), rechazada(), inFlightTx()]) refused(run(original));
  });
  it("another merchant's or mode's operation is not reversed", () => {
    refused(run(liquidada(), { merchantId: 'other' }));
    refused(run(liquidada(), { mode: 'live' }));
  });
  it('an operation that cannot be found is not reversed', () => {
    const tx = reverso(liquidada());
    refused(decide(tx, execute(tx), ctx(T0, { related: null })));
  });
  it("an original another reverso holds (the actor's claim) is not reversed again: DUPLICADA, no order", () => {
    const tx = reverso(liquidada());
    const d = decide(tx, execute(tx), ctx(T0, { related: liquidada(), reversedBy: 'txn_first' }));
    expect(d.next).toMatchObject({ estado: 'RECHAZADA', motivoRechazo: 'DUPLICADA', attempts: [] });
    expect(d.effects!.bank).toBeNull();
    expect(d.next!.history.at(-1)?.raw).toMatchObject({ switch: expect.stringContaining('txn_first') });
  });
  it("a reverso's event carries the amount reversed and names its original", () => {
    const original = liquidada();
    const d = run(original);
    expect(d.effects!.event).toMatchObject({ kind: 'reverso', monto: 10, moneda: 'VES', reversoDe: original.id });
    expect(decide(fresh(), messages('txn_pagar', fresh()).execute!, ctx()).effects!.event).not.toHaveProperty('reversoDe');
  });
  it('frees its original only when refused before any bank saw an order of it', () => {
    const original = liquidada();
    const started = run(original).next!;
    const refusedBySwitch = run(accepted()).next!;
    const outcome = (type: BankOutcome['type'], to: 'RECHAZADA' | 'LIQUIDADA') =>
      transition(resolveAttempt(started, 1, type, T0), to, 'bank_outcome', to === 'RECHAZADA' ? { motivo: 'NO_SOPORTADO' } : {}, T0);
    expect(releasesReversal(refusedBySwitch)).toBe(true);
    expect(releasesReversal(outcome('not_processed', 'RECHAZADA'))).toBe(true);
    expect(releasesReversal(outcome('rejected', 'RECHAZADA'))).toBe(false);
    expect(releasesReversal(outcome('settled', 'LIQUIDADA'))).toBe(false);
    expect(releasesReversal(started)).toBe(false);
    expect(releasesReversal(rechazada())).toBe(false);
  });
});

describe("transaction core: a cobrar under its token's key", () => {
  const token = () => ({ ...accepted('token'), id: 'txn_token' });
  const cobrar = (valor: number) => ({
    ...newTransaction({
      id: 'txn_cobrar',
      merchantId: 'm',
      mode: 'test',
      idempotencyKey: KEY,
      fingerprint: 'f',
      request: { kind: 'cobrar', body: { ...REQUESTS.cobrar.body, monto: { valor, moneda: 'VES' } } } as OperationRequest,
      relatedId: 'txn_token',
      now: T0,
    }),
  });
  const start = (tx: Transaction, related: Transaction | null) => decide(tx, messages(tx.id, tx).execute!, ctx(T0, { related }));

  it("the same terms as the token: sent to the token's bank on the token rail", () => {
    const d = start(cobrar(10), token());
    expect(d.effects!.bank).toMatchObject({ banco: 'bnc', message: { rail: 'debito_inmediato' } });
  });
  it('other terms than the recorded token: rejected, no order (whatever the gateway saw)', () => {
    const d = start(cobrar(5000), token());
    expect(d.next).toMatchObject({ estado: 'RECHAZADA', motivoRechazo: 'NO_SOPORTADO', attempts: [] });
    expect(d.effects!.bank).toBeNull();
  });
  it('a token not recorded yet cannot be compared: rejected, never run as a cobrar without token', () => {
    const d = start(cobrar(5000), null);
    expect(d.next).toMatchObject({ estado: 'RECHAZADA', attempts: [] });
    expect(d.effects!.bank).toBeNull();
  });
});

describe("transaction core: live money moves only through the merchant's registered accounts", () => {
  const LIVE: RoutingTable = {
    test: [],
    live: [
      { banco: 'bnc', capabilities: [...CAPABILITIES] },
      { banco: 'banco_plaza', capabilities: [...CAPABILITIES] },
      { banco: 'bancaribe', capabilities: [...CAPABILITIES] },
    ],
  };
  const account = (banco: 'bnc' | 'banco_plaza' | 'bancaribe', n: string) => ({ banco, cuenta: `0000000000000000000${n}`, telefono: null });
  const live = (kind: keyof typeof REQUESTS, accounts: ReturnType<typeof account>[], relatedId: string | null = null): Transaction => ({
    ...newTransaction({
      id: `txn_${kind}`,
      merchantId: 'm',
      mode: 'live',
      idempotencyKey: KEY,
      fingerprint: 'f',
      request: REQUESTS[kind],
      relatedId,
      now: T0,
    }),
    merchantAccounts: accounts,
  });
  const liveCtx = (over: Partial<DecisionContext> = {}) => ctx(T0, { routing: LIVE, ...over });
  const notProcessed = (tx: Transaction, attempt = 1): RouterInboxMessage => ({
    type: 'bank_result',
    txnId: tx.id,
    attempt,
    op: 'execute',
    outcome: OUTCOMES.not_processed!,
  });
  const started = (tx: Transaction, over: Partial<DecisionContext> = {}) => {
    const d = decide(tx, { type: 'query', txnId: tx.id }, liveCtx(over));
    return d.next!;
  };

  it('a payout the first bank did not process goes to the next bank holding an account, with that account', () => {
    const tx = started(live('pagar', [account('bnc', '1'), account('bancaribe', '3')]));
    expect(tx.bancoUsado).toBe('bnc');
    const d = decide(tx, notProcessed(tx), liveCtx());
    expect(d.rerouted).toEqual({ from: 'bnc', to: 'bancaribe' });
    expect(d.effects!.bank).toMatchObject({
      banco: 'bancaribe',
      message: { op: 'execute', attempt: 2, account: { cuenta: '00000000000000000003', telefono: null } },
    });
  });

  it('a payout whose merchant holds no account at another able bank is rejected BANCO_NO_DISPONIBLE, never sent elsewhere', () => {
    const tx = started(live('pagar', [account('bnc', '1')]));
    const d = decide(tx, notProcessed(tx), liveCtx());
    expect(d.rerouted).toBeUndefined();
    expect(d.effects!.bank).toBeNull();
    expect(d.next).toMatchObject({ estado: 'RECHAZADA', motivoRechazo: 'BANCO_NO_DISPONIBLE', bancoUsado: 'bnc' });
    expect(d.next!.attempts.map((a) => a.banco)).toEqual(['bnc']);
    expect(d.next!.raw).toMatchObject({ banco: 'bnc', reroute: expect.stringContaining('no registered account at another able bank') });
  });

  it('a live operation whose snapshot of accounts is missing is treated as holding none (never the switch account)', () => {
    const tx = live('pagar', []);
    delete tx.merchantAccounts;
    const d = decide(tx, { type: 'query', txnId: tx.id }, liveCtx());
    expect(d.next).toMatchObject({ estado: 'RECHAZADA', motivoRechazo: 'BANCO_NO_DISPONIBLE' });
    expect(d.effects!.bank).toBeNull();
  });

  it("a cobrar pinned to its token's bank and a reverso pinned to the original's carry the account there, or are refused", () => {
    const token = { ...started(live('token', [account('banco_plaza', '2')])), id: 'txn_token' };
    expect(token.bancoUsado).toBe('banco_plaza');
    const cobrar = decide(
      live('cobrar', [account('banco_plaza', '2')], token.id),
      { type: 'query', txnId: 'txn_cobrar' },
      liveCtx({ related: token }),
    );
    expect(cobrar.effects!.bank).toMatchObject({ banco: 'banco_plaza', message: { account: { cuenta: '00000000000000000002' } } });
    // The account at the token's bank was removed since: refused, not sent at another bank nor without an account.
    const orphan = decide(
      live('cobrar', [account('bnc', '1')], token.id),
      { type: 'query', txnId: 'txn_cobrar' },
      liveCtx({ related: token }),
    );
    expect(orphan.next).toMatchObject({ estado: 'RECHAZADA', motivoRechazo: 'BANCO_NO_DISPONIBLE' });
    expect(orphan.effects!.bank).toBeNull();

    const original = transition(answered(started(live('pagar', [account('bnc', '1')])), 'settled'), 'LIQUIDADA', 'bank_outcome', {}, T0);
    const reverso = (accounts: ReturnType<typeof account>[]): Transaction => ({
      ...live('pagar', accounts, original.id),
      id: 'txn_rev',
      kind: 'reverso',
      request: { kind: 'reverso', body: { idempotency_key: KEY, id: original.id } } as OperationRequest,
    });
    const ok = decide(reverso([account('bnc', '1')]), { type: 'query', txnId: 'txn_rev' }, liveCtx({ related: original }));
    expect(ok.effects!.bank).toMatchObject({ banco: 'bnc', message: { account: { cuenta: '00000000000000000001' } } });
    const none = decide(reverso([account('bancaribe', '3')]), { type: 'query', txnId: 'txn_rev' }, liveCtx({ related: original }));
    expect(none.next).toMatchObject({ estado: 'RECHAZADA', motivoRechazo: 'BANCO_NO_DISPONIBLE' });
    expect(none.effects!.bank).toBeNull();
  });
});
