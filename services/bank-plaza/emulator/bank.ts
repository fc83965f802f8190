import { type Ledger, plazaFecha, type Order, type OrderKind, type StoredAnswer } from './ledger';

/**
 * Banco Plaza's operations as the emulator runs them: validation of the bank's field formats,
 * duplicate detection by the merchant's reference, magic amounts, the ledger effects, and the
 * answer (code in headers, data in the body). Auth and faults are the server's business.
 */

export interface Call {
  params: string[];
  query: URLSearchParams;
  body: Record<string, unknown>;
}

export interface BankOptions {
  merchant: { rif: string; cuenta: string };
  otpTtlMs: number;
  now: () => Date;
  /** Told of every order that starts pending, to schedule its settlement. */
  onPending: (order: Order) => void;
}

/** Texts of each code (ASCII: they travel in HTTP headers). */
const TEXTS: Readonly<Record<string, string>> = {
  '0000': 'Operacion exitosa',
  '0013': 'Monto invalido',
  '0014': 'Cuenta o instrumento invalido',
  '0025': 'Registro no encontrado',
  '0030': 'Error de formato',
  '0051': 'Saldo insuficiente',
  '0055': 'OTP invalido o vencido',
  '0056': 'Cliente no afiliado al servicio',
  '0061': 'Excede el limite permitido',
  '0091': 'Banco no disponible, operacion no procesada',
  '0094': 'Operacion duplicada',
  '0401': 'Firma o api-key invalida',
  '0402': 'Nonce repetido o no creciente',
  RJCT: 'Operacion rechazada por la CCE',
};

/** ISO reasons the emulator may settle or reject with, and their texts. */
export const ISO_TEXTS: Readonly<Record<string, string>> = {
  ACCP: 'Liquidada',
  AC00: 'En espera del receptor',
  AB01: 'Tiempo de espera agotado',
  AB07: 'Agente fuera de linea',
  AC01: 'Numero de cuenta incorrecto',
  AC04: 'Cuenta cancelada',
  AC06: 'Cuenta bloqueada',
  AM02: 'Monto no permitido',
  AM04: 'Fondos insuficientes',
  AM05: 'Operacion duplicada',
  BE01: 'Datos del cliente no corresponden',
  CUST: 'Cancelada por el deudor',
  DT03: 'Fecha no bancaria',
  TKCM: 'Token de debito incorrecto',
  VE01: 'Rechazo tecnico',
  MD15: 'Rechazo definitivo',
};

/** [INV] HTTP status of each refusal; the code in the headers is what clients read. */
export function httpStatusOf(codigo: string): number {
  if (codigo === '0000') return 200;
  if (codigo === '0401' || codigo === '0402') return 401;
  if (codigo === '0091') return 503;
  if (codigo === '0025' || codigo === '0014') return 404;
  return 400;
}

/** A refusal with one of the bank's codes, or an ISO reason (sent as RJCT + reason in descripcionSistema). */
export function refusal(code: string, detail?: string): StoredAnswer {
  if (!/^[0-9]{4}$/.test(code) && code !== 'RJCT') {
    return {
      status: 400,
      codigo: 'RJCT',
      descripcionCliente: TEXTS.RJCT!,
      descripcionSistema: `${code} ${ISO_TEXTS[code] ?? 'Rechazada'}`,
      body: null,
    };
  }
  const text = TEXTS[code] ?? 'Operacion rechazada';
  return {
    status: httpStatusOf(code),
    codigo: code,
    descripcionCliente: text,
    descripcionSistema: detail ? `${text}: ${detail}` : text,
    body: null,
  };
}

const ok = (body: Record<string, unknown> | null, descripcionSistema = 'Operacion exitosa'): StoredAnswer => ({
  status: 200,
  codigo: '0000',
  descripcionCliente: 'Operacion exitosa',
  descripcionSistema,
  body,
});

/** Amount cents that pick an immediate refusal (before anything is executed). */
export const MAGIC_REFUSALS: Readonly<Record<string, string>> = {
  '13': '0013',
  '30': '0030',
  '44': 'AC06',
  '45': 'DT03',
  '46': 'CUST',
  '47': 'MD15',
  '51': '0051',
  '55': '0055',
  '56': '0056',
  '61': '0061',
  '91': '0091',
  '94': '0094',
};
/** Amount cents that make the interbank settlement of a CCE order fail with an ISO reason. */
export const MAGIC_SETTLEMENT: Readonly<Record<string, string>> = { '41': 'AC01', '42': 'AM04', '43': 'BE01', '82': 'AM04' };

export const cents = (monto: number) => String(Math.round(monto * 100) % 100).padStart(2, '0');

type Rule = RegExp | ((v: unknown) => boolean);
const isAmount = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && v > 0 && Math.abs(Math.round(v * 100) - v * 100) < 1e-6;
const text = (max: number) => (v: unknown) => typeof v === 'string' && v.trim().length >= 1 && [...v].length <= max;
const F = {
  banco: /^[0-9]{4}$/,
  id12: /^[VEJGP][0-9]{11}$/,
  tel10: /^4[0-9]{9}$/,
  tel11: /^04[0-9]{9}$/,
  cuenta: /^[0-9]{20}$/,
  ref12: /^[0-9A-Za-z]{12}$/,
  canal: /^23$/,
  moneda: /^VES$/,
};

/** The first field breaking its rule, or null. */
function invalid(body: Record<string, unknown>, rules: Record<string, Rule>): string | null {
  for (const [name, rule] of Object.entries(rules)) {
    const v = body[name];
    const good = typeof rule === 'function' ? rule(v) : typeof v === 'string' && rule.test(v);
    if (!good) return name;
  }
  return null;
}

export class EmulatedBank {
  constructor(
    readonly ledger: Ledger,
    private readonly options: BankOptions,
  ) {}

  /** The merchant reference a money call names, for per-reference call counts. */
  static referenceOf(route: string, call: Call): string | null {
    const b = call.body;
    const s = (v: unknown) => (typeof v === 'string' ? v : null);
    switch (route) {
      case 'cobroDI':
        return s(b.referencia_c);
      case 'pagoO':
        return s(b.referencia);
      case 'p2p':
        return s(b.idExterno);
      case 'c2p':
        return s(b.token) && s(b.telefonoPagador) ? `${s(b.telefonoPagador)}:${s(b.token)}` : null;
      case 'reversoC2P':
        return call.params[0] ?? null;
      default:
        return null;
    }
  }

  c2p(call: Call): StoredAnswer {
    const b = call.body;
    const bad = invalid(b, { banco: F.banco, id: F.id12, telefonoPagador: F.tel10, monto: isAmount, token: /^[0-9]{6,8}$/ });
    if (bad) return bad === 'token' ? refusal('0055', 'token') : refusal(bad === 'monto' ? '0013' : '0030', bad);
    if (b.telefonoCobrador !== undefined && !F.tel10.test(String(b.telefonoCobrador))) return refusal('0030', 'telefonoCobrador');
    if (b.motivo !== undefined && !text(35)(b.motivo)) return refusal('0030', 'motivo');
    const monto = b.monto as number;
    const key = `${b.telefonoPagador as string}:${b.token as string}`;
    return this.once(
      'c2p',
      key,
      () => {
        const payer = `0${b.telefonoPagador as string}`;
        if (!this.ledger.exists(payer)) return refusal('0056');
        if (b.token === '00000000') return refusal('0055');
        const referencia = this.ledger.nextReferencia();
        const concepto = typeof b.motivo === 'string' ? b.motivo : 'C2P';
        if (!this.ledger.transfer(payer, this.options.merchant.cuenta, monto, referencia, concepto)) return refusal('0051');
        const answer = ok({ referencia, codigoReverso: referencia.slice(-6) });
        this.record({
          referencia,
          merchantRef: key,
          kind: 'c2p',
          state: 'settled',
          monto,
          from: payer,
          to: this.options.merchant.cuenta,
          concepto,
          endtoend: null,
          planned: 'ACCP',
          answer,
        });
        return answer;
      },
      monto,
    );
  }

  reversoC2P(call: Call): StoredAnswer {
    const referencia = call.params[0] ?? '';
    const order = this.ledger.orders.get(referencia);
    if (order?.kind !== 'c2p') return refusal('0025');
    if (order.reverso) return order.reverso.answer;
    if (!this.ledger.transfer(order.to, order.from, order.monto, referencia, `Reverso ${order.concepto}`.slice(0, 35)))
      return refusal('0051');
    const answer = ok({ referencia, codigoAnulacion: this.ledger.nextReferencia().slice(-8) });
    order.state = 'reversed';
    order.reverso = { answer, at: this.options.now() };
    return answer;
  }

  consultaC2P(call: Call): StoredAnswer {
    const order = this.ledger.orders.get(call.params[1] ?? '');
    if (order?.kind !== 'c2p') return refusal('0025');
    return ok({
      referencia: order.referencia,
      estado: order.state === 'reversed' ? 'REVERSADA' : 'APROBADA',
      monto: order.monto,
      fecha: plazaFecha(order.createdAt),
    });
  }

  tokenDI(call: Call): StoredAnswer {
    const b = call.body;
    const bad = invalid(b, { ...diRules(b), monto: isAmount, direccion_ip: text(45) });
    if (bad) return refusal(bad === 'monto' ? '0013' : '0030', bad);
    const magic = MAGIC_REFUSALS[cents(b.monto as number)];
    if (magic && magic !== '0055') return refusal(magic);
    const payer = payerKey(b);
    if (!this.ledger.exists(payer)) return refusal('0056');
    this.ledger.issueOtp(payer, this.options.otpTtlMs);
    return ok(null, 'OTP enviado al pagador');
  }

  cobroDI(call: Call): StoredAnswer {
    const b = call.body;
    const bad = invalid(b, {
      ...diRules(b),
      identificacion_b: F.id12,
      nombre_p: text(60),
      monto: isAmount,
      concepto: text(35),
      Token_p: /^[0-9]{6,8}$/,
      referencia_c: F.ref12,
    });
    if (bad) return bad === 'Token_p' ? refusal('0055') : refusal(bad === 'monto' ? '0013' : '0030', bad);
    const monto = b.monto as number;
    return this.once(
      'cobroDI',
      b.referencia_c as string,
      () => {
        const payer = payerKey(b);
        if (!this.ledger.consumeOtp(payer, b.Token_p as string)) return refusal('0055');
        const referencia = this.ledger.nextReferencia();
        const endtoend = this.ledger.nextEndToEnd();
        const answer = ok({ referencia_c: b.referencia_c, endtoend }, 'AC00 Enviada a la CCE');
        const planned = MAGIC_SETTLEMENT[cents(monto)] ?? (this.ledger.exists(payer) ? 'ACCP' : 'AC01');
        const to = b.cuenta_cobrador as string;
        this.pending({
          referencia,
          merchantRef: b.referencia_c as string,
          kind: 'cobroDI',
          monto,
          from: payer,
          to,
          concepto: b.concepto as string,
          endtoend,
          planned,
          answer,
        });
        return answer;
      },
      monto,
    );
  }

  consultarDI(call: Call): StoredAnswer {
    const ref = call.query.get('referencia_c') ?? '';
    const e2e = call.query.get('endtoend') ?? '';
    const order = (ref && this.ledger.byMerchantRef('cobroDI', ref)) || (e2e && this.ledger.byEndToEnd(e2e)) || undefined;
    // The bank answers about the collecting account named in the query: another account has no such debit.
    if (!order || order.to !== call.query.get('cuenta_cobrador')) return refusal('0025');
    return stateAnswer(order, { referencia_c: order.merchantRef, endtoend: order.endtoend, monto: order.monto });
  }

  pagoO(call: Call): StoredAnswer {
    const b = call.body;
    const byPhone = b.tipo_instrumento_b === 'T';
    const bad = invalid(b, {
      moneda: F.moneda,
      canal: F.canal,
      tipo_cce: /^E$/,
      tipo_proposito: /^[0-9]{3}$/,
      tipo_instrumento_b: /^[CT]$/,
      identificacion_o: F.id12,
      cuenta_origen: F.cuenta,
      cod_banco_d: F.banco,
      nombre_d: text(60),
      identificacion_b: F.id12,
      cod_banco_a: F.banco,
      nombre_a: text(60),
      ...(byPhone ? { telefono: F.tel11 } : { cuenta_destino: F.cuenta }),
      monto: isAmount,
      concepto: text(35),
    });
    if (bad) return refusal(bad === 'monto' ? '0013' : '0030', bad);
    if (b.referencia !== undefined && !F.ref12.test(String(b.referencia))) return refusal('0030', 'referencia');
    const monto = b.monto as number;
    const run = () => {
      const from = b.cuenta_origen as string;
      if (this.ledger.balance(from) < monto) return refusal('0051');
      const to = (byPhone ? b.telefono : b.cuenta_destino) as string;
      const numeroReferencia = this.ledger.nextReferencia();
      const endtoend = this.ledger.nextEndToEnd();
      const answer = ok({ numeroReferencia, endtoend }, 'AC00 Enviada a la CCE');
      const planned = MAGIC_SETTLEMENT[cents(monto)] ?? (this.ledger.exists(to) ? 'ACCP' : 'AC01');
      const merchantRef = typeof b.referencia === 'string' ? b.referencia : null;
      this.pending({
        referencia: numeroReferencia,
        merchantRef,
        kind: 'pagoO',
        monto,
        from,
        to,
        concepto: b.concepto as string,
        endtoend,
        planned,
        answer,
      });
      return answer;
    };
    return typeof b.referencia === 'string' ? this.once('pagoO', b.referencia, run, monto, b) : (this.magic(monto) ?? run());
  }

  consultaLiq(call: Call): StoredAnswer {
    const ref = call.query.get('referencia') ?? '';
    const order = this.ledger.byMerchantRef('pagoO', ref) ?? this.ledger.orders.get(ref);
    // The bank answers about the originating account named in the query: another account has no such credit.
    if (order?.kind !== 'pagoO' || order.from !== call.query.get('cuenta')) return refusal('0025');
    return stateAnswer(order, {
      numeroReferencia: order.referencia,
      referencia: order.merchantRef,
      endtoend: order.endtoend,
      monto: order.monto,
    });
  }

  p2p(call: Call): StoredAnswer {
    const b = call.body;
    const bad = invalid(b, {
      banco: F.banco,
      idBeneficiario: F.id12,
      telefono: F.tel11,
      telefonoAfiliado: F.tel11,
      monto: isAmount,
      motivo: text(35),
      canal: F.canal,
    });
    if (bad) return refusal(bad === 'monto' ? '0013' : '0030', bad);
    if (b.idExterno !== undefined && !text(64)(b.idExterno)) return refusal('0030', 'idExterno');
    const monto = b.monto as number;
    const run = () => {
      const from = typeof b.cuenta === 'string' && F.cuenta.test(b.cuenta) ? b.cuenta : this.options.merchant.cuenta;
      const to = b.telefono as string;
      if (!this.ledger.exists(to)) return refusal('0014');
      const numeroReferencia = this.ledger.nextReferencia();
      if (!this.ledger.transfer(from, to, monto, numeroReferencia, b.motivo as string)) return refusal('0051');
      const answer = ok({ numeroReferencia });
      const merchantRef = typeof b.idExterno === 'string' ? b.idExterno : null;
      this.record({
        referencia: numeroReferencia,
        merchantRef,
        kind: 'p2p',
        state: 'settled',
        monto,
        from,
        to,
        concepto: b.motivo as string,
        endtoend: null,
        planned: 'ACCP',
        answer,
      });
      return answer;
    };
    return typeof b.idExterno === 'string' ? this.once('p2p', b.idExterno, run, monto, b) : (this.magic(monto) ?? run());
  }

  consultaP2P(call: Call): StoredAnswer {
    const order = this.ledger.byMerchantRef('p2p', call.params[1] ?? '');
    if (!order) return refusal('0025');
    return ok({ numeroReferencia: order.referencia, idExterno: order.merchantRef, estado: 'APROBADA', monto: order.monto });
  }

  /**
   * `POST /v0/cuentas/operaciones/{rif}` [INV shape]: the account's operations between two days, of
   * one `naturaleza` and, with `referencia`, those whose reference ends in it (a payer often gives
   * only the last digits); each with the payer's bank, phone and id.
   */
  operaciones(call: Call): StoredAnswer {
    const b = call.body;
    const cuenta = String(b.cuenta ?? '');
    const day = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
    if (!F.cuenta.test(cuenta)) return refusal('0030', 'cuenta');
    if (!day.test(String(b.fechaInicio ?? ''))) return refusal('0030', 'fechaInicio');
    if (!day.test(String(b.fechaFin ?? ''))) return refusal('0030', 'fechaFin');
    const referencia = b.referencia === undefined || b.referencia === null || b.referencia === '' ? null : String(b.referencia);
    if (referencia !== null && !/^[0-9]{4,20}$/.test(referencia)) return refusal('0030', 'referencia');
    if (!this.ledger.exists(cuenta)) return refusal('0014');
    const [d, h] = [String(b.fechaInicio).replace(/-/g, ''), String(b.fechaFin).replace(/-/g, '')];
    const naturaleza = b.naturaleza === 'C' || b.naturaleza === 'D' ? b.naturaleza : null;
    const movimientos = this.ledger
      .account(cuenta)
      .movimientos.filter((m) => m.fecha >= d && m.fecha <= h)
      .filter((m) => naturaleza === null || m.naturaleza === naturaleza)
      .filter((m) => referencia === null || m.referencia.endsWith(referencia))
      .map((m) => ({
        fecha: m.fecha,
        hora: m.hora,
        referencia: m.referencia,
        concepto: m.concepto,
        naturaleza: m.naturaleza,
        monto: m.monto,
        banco: m.pagador?.banco ?? null,
        telefono: m.pagador?.telefono ?? null,
        cedula: m.pagador?.cedula ?? null,
      }));
    return ok({ cuenta, movimientos });
  }

  movimientos(call: Call): StoredAnswer {
    const cuenta = call.params[0] ?? '';
    const desde = call.query.get('fechaInicio') ?? '';
    const hasta = call.query.get('fechafin') ?? '';
    const day = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
    if (!F.cuenta.test(cuenta)) return refusal('0030', 'cuenta');
    if (!day.test(desde)) return refusal('0030', 'fechaInicio');
    if (!day.test(hasta)) return refusal('0030', 'fechafin');
    if (!this.ledger.exists(cuenta)) return refusal('0014');
    const account = this.ledger.account(cuenta);
    const [d, h] = [desde.replace(/-/g, ''), hasta.replace(/-/g, '')];
    return ok({
      numero: cuenta,
      fechaApertura: plazaFecha(account.opened),
      tipoCuenta: 'CORRIENTE',
      estatus: 'ACTIVA',
      moneda: 'VES',
      saldoDisponible: account.balance,
      movimientos: account.movimientos
        .filter((m) => m.fecha >= d && m.fecha <= h)
        .map((m) => ({
          fecha: m.fecha,
          hora: m.hora,
          referencia: m.referencia,
          concepto: m.concepto,
          tipo: m.naturaleza === 'C' ? 'CR' : 'DB',
          naturaleza: m.naturaleza,
          monto: m.monto,
        })),
    });
  }

  /** The magic refusal an amount picks, if any. */
  private magic(monto: number): StoredAnswer | null {
    const code = MAGIC_REFUSALS[cents(monto)];
    return code ? refusal(code) : null;
  }

  /**
   * Runs an order once per merchant reference. A pago móvil repeated with the same `idExterno` and
   * the same body is answered with the original answer and executes nothing (`idExterno` is the
   * documented idempotency key, PROTOCOLS §2.4). Any other repeat of a merchant reference (the CCE
   * `referencia`/`referencia_c`, a C2P key, an `idExterno` with another body) is refused as a
   * duplicate, 0094 [assumed: ISO AM05/DU01, PROTOCOLS §5.2]: the bank never answers one order with
   * another's result. "Not processed" (0091) is not remembered: nothing was done.
   */
  private once(kind: OrderKind, ref: string, run: () => StoredAnswer, monto: number, body?: Record<string, unknown>): StoredAnswer {
    const id = `${kind}:${ref}`;
    const fingerprint = JSON.stringify(body ?? null);
    const seen = this.ledger.byMerchantRef(kind, ref);
    const refused = this.ledger.refusals.get(id);
    if (seen || refused) {
      if (kind === 'p2p' && this.fingerprints.get(id) === fingerprint) return seen ? seen.answer : refused!;
      return refusal('0094', ref);
    }
    const answer = this.magic(monto) ?? run();
    if (answer.codigo !== '0091') this.fingerprints.set(id, fingerprint);
    if (answer.codigo !== '0000' && answer.codigo !== '0091') this.ledger.refusals.set(id, answer);
    return answer;
  }

  /** The body each merchant reference was first sent with. */
  private readonly fingerprints = new Map<string, string>();

  private record(o: Omit<Order, 'reason' | 'createdAt' | 'settledAt' | 'reverso'>): Order {
    return this.ledger.add({ ...o, reason: null, createdAt: this.options.now(), settledAt: null, reverso: null });
  }

  private pending(o: Omit<Order, 'reason' | 'createdAt' | 'settledAt' | 'reverso' | 'state'>): void {
    this.options.onPending(this.record({ ...o, state: 'pending' }));
  }
}

function diRules(b: Record<string, unknown>): Record<string, Rule> {
  return {
    moneda: F.moneda,
    canal: F.canal,
    Tvalidacion_p: /^[CT]$/,
    identificacion_p: F.id12,
    cuenta_cobrador: F.cuenta,
    ...(b.Tvalidacion_p === 'C' ? { cuenta_pagador: F.cuenta } : { telefono_pagador: F.tel11 }),
    cod_banco_p: F.banco,
  };
}

function payerKey(b: Record<string, unknown>): string {
  return (b.Tvalidacion_p === 'C' ? b.cuenta_pagador : b.telefono_pagador) as string;
}

/** A CCE order's state: ACCP settled, AC00 pending (both 0000), or RJCT with the ISO reason. */
function stateAnswer(order: Order, body: Record<string, unknown>): StoredAnswer {
  const estado = order.state === 'pending' ? 'AC00' : order.state === 'rejected' ? 'RJCT' : 'ACCP';
  const full = { ...body, estado, ...(order.reason ? { motivo: order.reason } : {}) };
  if (estado === 'RJCT') {
    const reason = order.reason ?? 'VE01';
    return {
      status: 200,
      codigo: 'RJCT',
      descripcionCliente: TEXTS.RJCT!,
      descripcionSistema: `${reason} ${ISO_TEXTS[reason] ?? 'Rechazada'}`,
      body: full,
    };
  }
  return ok(full, `${estado} ${ISO_TEXTS[estado]}`);
}
