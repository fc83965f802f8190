import { randomInt } from 'node:crypto';
import { ACTIVO_CODES } from '../src/codes';
import { Ledger, type Order, type OrderKind } from './ledger';

/**
 * Banco Activo's services behind the gateway: each takes the flat JSON body and answers
 * `{code, descripcion, ...}` (HTTP 200 for business answers [INV]). Orders are deduplicated by
 * `locator`: a repeated locator gets the first answer again and nothing runs twice.
 */

export type Reply = { status: number; body: Record<string, unknown> };
export type Fields = Record<string, unknown>;
export type Service = OrderKind | 'operacion' | 'saldo' | 'movimientos';

export const SERVICE_OF_PATH: Readonly<Record<string, Service>> = {
  '/cobro/otp/1.0.0/otp': 'otp',
  '/cobro/debito/1.0.0/debito': 'debito',
  '/cobro/c2p/1.0.0/c2p': 'c2p',
  '/pago/p2p/1.0.0/p2p': 'p2p',
  // The older path of the same P2P service, still seen in integrations [code].
  '/pago/p2c/1.0.0/p2c': 'p2p',
  '/pago/credito/1.0.0/credito': 'credito',
  '/consulta/operacion/1.0.0/operacion': 'operacion',
  '/consulta/saldo/1.0.0/saldo': 'saldo',
  '/consulta/movimientos/1.0.0/movimientos': 'movimientos',
};

export const isOrderService = (s: Service): s is OrderKind =>
  s === 'otp' || s === 'debito' || s === 'c2p' || s === 'p2p' || s === 'credito';

/** Amount cents → the bank code it provokes (emulator/README.md, "magic values"). */
export const MAGIC_CODES: Readonly<Record<string, string>> = {
  '51': '402',
  '52': '410',
  '53': '412',
  '54': '413',
  '55': '414',
  '56': '503',
  '57': '500',
  '58': '409',
  '59': '415',
  '64': '406',
  '65': '416',
  '66': '418',
  '67': 'CUST',
  '68': 'MD15',
};
/** Amount cents → ISO reason a débito/crédito inmediato is accepted with, then rejected at settlement. */
export const MAGIC_LATE_REJECTION: Readonly<Record<string, string>> = { '61': 'AM04', '62': 'AC01', '63': 'AB07', '82': 'AM04' };
const OTP_MAGIC = new Set(['412', '503', '500']);
/** Débito/crédito inmediato answer business refusals as "422" plus the CCE's ISO reason. */
const ISO_OF: Readonly<Record<string, string>> = { '402': 'AM04', '414': 'AC01', '415': 'AC06', '409': 'AM05' };

const FORMATS: ReadonlyArray<[RegExp, RegExp]> = [
  [/^monto$/, /^[0-9]+,[0-9]{2}$/],
  [/^telefono_/, /^58[0-9]{10}$/],
  [/^(cedula_|rif_)/, /^([VEP][0-9]{1,9}|[JG][0-9]{9})$/],
  [/^bco_/, /^[0-9]{4}$/],
  [/^cuenta/, /^[0-9]{20}$/],
  [/^otp$/, /^[0-9]{6,8}$/],
  [/^fecha_/, /^[0-9]{2}\/[0-9]{2}\/[0-9]{4}$/],
  [/^tipo_instrumento$/, /^(CNTA|CELE)$/],
];

const REQUIRED: Readonly<Record<Service, readonly string[]>> = {
  otp: ['rif_comercio', 'cedula_pago', 'bco_pago', 'monto', 'locator', 'telefono_pago|cuenta_pago'],
  debito: ['id_solicitud', 'otp', 'cedula_pago', 'nombre_pago', 'bco_pago', 'monto', 'concepto', 'locator', 'telefono_pago|cuenta_pago'],
  c2p: ['usuario', 'rif_comercio', 'telefono_comercio', 'ip', 'monto', 'cedula_pago', 'telefono_pago', 'bco_pago', 'motivo', 'otp'],
  p2p: [
    'usuario',
    'cedula_pagador',
    'telefono_pagador',
    'ip',
    'monto',
    'cedula_benef',
    'telefono_benef',
    'bco_benef',
    'motivo',
    'tipo_cuenta',
  ],
  credito: ['cedula_benef', 'nombre_benef', 'tipo_instrumento', 'bco_benef', 'monto', 'concepto', 'locator', 'telefono_benef|cuenta_benef'],
  operacion: ['locator|nroReferencia|endtoend'],
  saldo: ['cuenta'],
  movimientos: ['cuenta', 'fecha_desde', 'fecha_hasta'],
};

const descripcionOf = (code: string) => ACTIVO_CODES[code]?.descripcion ?? 'Transacción rechazada';
const cents = (monto: string) => Math.round(Number(monto.replace(',', '.')) * 100);
const amount = (c: number) => `${Math.floor(c / 100)},${String(c % 100).padStart(2, '0')}`;
const isoDate = (ddmmyyyy: string) => `${ddmmyyyy.slice(6)}-${ddmmyyyy.slice(3, 5)}-${ddmmyyyy.slice(0, 2)}`;

export interface BankOptions {
  merchantAccount: string;
  defaultBalanceCents: number;
  otpTtlMs: number;
  now: () => Date;
  seed?: Record<string, number>;
  /** Called for every order accepted pending (AC00), so the server can schedule its settlement. */
  onPending: (order: Order) => void;
}

export class ActivoBank {
  readonly ledger: Ledger;
  private internalLocators = 0;

  constructor(private readonly options: BankOptions) {
    this.ledger = new Ledger(options.merchantAccount, options.defaultBalanceCents, options.now, options.seed);
  }

  /** Checks the body; null when it is a well-formed request of that service. */
  validate(service: Service, body: Fields): Reply | null {
    for (const spec of REQUIRED[service]) {
      const alternatives = spec.split('|');
      const present = alternatives.filter((f) => body[f] !== undefined && body[f] !== null && body[f] !== '');
      if (present.length === 0) return this.invalid(`Campo requerido: ${spec.replace(/\|/g, ' o ')}`);
      if (alternatives.length > 1 && present.length > 1 && service !== 'operacion')
        return this.invalid(`Indique solo uno de: ${alternatives.join(', ')}`);
    }
    for (const [field, value] of Object.entries(body)) {
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') return this.invalid(`Campo inválido: ${field} debe ser texto`);
      const rule = FORMATS.find(([name]) => name.test(field));
      if (rule && !rule[1].test(value)) return this.invalid(`Campo inválido: ${field}`);
    }
    if (service === 'credito') {
      const cele = body.tipo_instrumento === 'CELE';
      if (cele !== (body.telefono_benef !== undefined)) return this.invalid('tipo_instrumento no corresponde al instrumento');
    }
    if (typeof body.monto === 'string' && cents(body.monto) <= 0)
      return { status: 200, body: { code: '406', descripcion: descripcionOf('406') } };
    return null;
  }

  /** The first answer to this locator, counted as one more call; undefined for a new order. */
  replay(body: Fields): Reply | undefined {
    const order = typeof body.locator === 'string' ? this.ledger.orders.get(body.locator) : undefined;
    if (!order) return undefined;
    order.calls++;
    return order.answer;
  }

  /**
   * Answers with a rejection (forced by a control or a magic amount): `code` is the bank's own code or
   * an ISO 20022 reason. Débito/crédito inmediato refusals travel as "422" plus the ISO reason.
   * "503" (not processed) leaves no order behind.
   */
  reject(service: OrderKind, body: Fields, code: string): Reply {
    if (code === '503') return { status: 503, body: { code, descripcion: descripcionOf(code) } };
    const iso = /^[A-Z]{2}[0-9A-Z]{2}$/.test(code) ? code : service === 'debito' || service === 'credito' ? ISO_OF[code] : undefined;
    const reply: Reply = {
      status: 200,
      body: iso ? { code: '422', descripcion: descripcionOf(iso), motivo: iso } : { code, descripcion: descripcionOf(code) },
    };
    const order = this.newOrder(service, body, 'RJCT', reply);
    order.motivo = iso ?? code;
    reply.body.nroReferencia = order.nroReferencia;
    return reply;
  }

  execute(service: OrderKind, body: Fields): Reply {
    const monto = body.monto as string;
    const magic = MAGIC_CODES[monto.slice(-2)];
    // An OTP request only fails for reasons about the payer or the bank, so the debit that follows can
    // still be driven to its own magic outcome with the same amount.
    if (magic && (service !== 'otp' || OTP_MAGIC.has(magic))) return this.reject(service, body, magic);
    switch (service) {
      case 'otp':
        return this.otp(body);
      case 'debito':
        return this.debito(body);
      case 'c2p':
        return this.c2p(body);
      case 'p2p':
        return this.p2p(body);
      case 'credito':
        return this.credito(body);
    }
  }

  private otp(b: Fields): Reply {
    const instrumento = (b.telefono_pago ?? b.cuenta_pago) as string;
    if (!this.ledger.exists(instrumento)) return this.reject('otp', b, typeof b.telefono_pago === 'string' ? '412' : '414');
    const reply: Reply = { status: 200, body: { code: '200', descripcion: 'OTP enviado' } };
    const order = this.newOrder('otp', b, 'ACCP', reply);
    const otp = String(randomInt(0, 100_000_000)).padStart(8, '0');
    this.ledger.grantOtp({
      idSolicitud: order.nroReferencia,
      otp,
      instrumento,
      montoCents: order.montoCents,
      expiresAt: this.options.now().getTime() + this.options.otpTtlMs,
      used: false,
    });
    Object.assign(reply.body, { id_solicitud: order.nroReferencia, nroReferencia: order.nroReferencia });
    return reply;
  }

  private debito(b: Fields): Reply {
    const grant = this.ledger.otps.get(b.id_solicitud as string);
    const payer = (b.telefono_pago ?? b.cuenta_pago) as string;
    const valid =
      grant !== undefined &&
      !grant.used &&
      grant.otp === b.otp &&
      grant.expiresAt > this.options.now().getTime() &&
      grant.instrumento === payer &&
      grant.montoCents === cents(b.monto as string);
    if (!valid) return this.reject('debito', b, '410');
    if (!this.ledger.exists(payer)) return this.reject('debito', b, '414');
    const to = (b.cuenta_comercio as string | undefined) ?? this.ledger.merchantAccount;
    if (!this.ledger.hold(payer, cents(b.monto as string))) return this.reject('debito', b, '402');
    grant.used = true;
    return this.pending('debito', b, payer, to);
  }

  private credito(b: Fields): Reply {
    const from = (b.cuenta_ordenante as string | undefined) ?? this.ledger.merchantAccount;
    const to = (b.cuenta_benef ?? b.telefono_benef) as string;
    if (!this.ledger.exists(to)) return this.reject('credito', b, '414');
    if (!this.ledger.hold(from, cents(b.monto as string))) return this.reject('credito', b, '402');
    return this.pending('credito', b, from, to);
  }

  private pending(kind: 'debito' | 'credito', b: Fields, from: string, to: string): Reply {
    const reply: Reply = { status: 200, body: { code: '200', descripcion: 'Operación aceptada, en compensación' } };
    const order = this.newOrder(kind, b, 'AC00', reply, { from, to });
    const late = MAGIC_LATE_REJECTION[(b.monto as string).slice(-2)];
    order.planned = late ? { estatus: 'RJCT', motivo: late } : { estatus: 'ACCP', motivo: null };
    Object.assign(reply.body, { nroReferencia: order.nroReferencia, endtoend: order.endtoend, estatus: 'AC00' });
    this.options.onPending(order);
    return reply;
  }

  private c2p(b: Fields): Reply {
    const payer = b.telefono_pago as string;
    if (/^0+$/.test(b.otp as string)) return this.reject('c2p', b, '410');
    if (!this.ledger.exists(payer)) return this.reject('c2p', b, '412');
    return this.immediate('c2p', b, payer, this.ledger.merchantAccount, 'Cobro procesado');
  }

  private p2p(b: Fields): Reply {
    const to = b.telefono_benef as string;
    if (!this.ledger.exists(to)) return this.reject('p2p', b, '412');
    return this.immediate('p2p', b, this.ledger.merchantAccount, to, 'Pago procesado');
  }

  private immediate(kind: 'c2p' | 'p2p', b: Fields, from: string, to: string, descripcion: string): Reply {
    const c = cents(b.monto as string);
    if (!this.ledger.hold(from, c)) return this.reject(kind, b, '402');
    const reply: Reply = { status: 200, body: { code: '200', descripcion } };
    const order = this.newOrder(kind, b, 'ACCP', reply, { from, to });
    this.ledger.post(from, 'D', c, order.nroReferencia, order.concepto, true);
    this.ledger.post(to, 'C', c, order.nroReferencia, order.concepto);
    reply.body.nroReferencia = order.nroReferencia;
    return reply;
  }

  operacion(b: Fields): Reply {
    const order = this.ledger.find({
      locator: b.locator as string | undefined,
      nroReferencia: b.nroReferencia as string | undefined,
      endtoend: b.endtoend as string | undefined,
    });
    if (!order) return { status: 200, body: { code: '404', descripcion: descripcionOf('404') } };
    return {
      status: 200,
      body: {
        code: '200',
        descripcion: 'Consulta exitosa',
        locator: order.locator,
        nroReferencia: order.nroReferencia,
        endtoend: order.endtoend,
        estatus: order.estatus,
        ...(order.motivo ? { motivo: order.motivo } : {}),
        monto: amount(order.montoCents),
      },
    };
  }

  saldo(b: Fields): Reply {
    const cuenta = b.cuenta as string;
    if (!this.ledger.exists(cuenta)) return { status: 200, body: { code: '414', descripcion: descripcionOf('414') } };
    const a = this.ledger.account(cuenta);
    return {
      status: 200,
      body: { code: '200', cuenta, saldo_disponible: amount(a.disponibleCents), saldo_contable: amount(a.contableCents), moneda: 'VES' },
    };
  }

  movimientos(b: Fields): Reply {
    const cuenta = b.cuenta as string;
    if (!this.ledger.exists(cuenta)) return { status: 200, body: { code: '414', descripcion: descripcionOf('414') } };
    const desde = isoDate(b.fecha_desde as string);
    const hasta = isoDate(b.fecha_hasta as string);
    const movimientos = this.ledger
      .account(cuenta)
      .movements.filter((m) => isoDate(m.fecha) >= desde && isoDate(m.fecha) <= hasta)
      .map((m) => ({
        fecha: m.fecha,
        hora: m.hora,
        referencia: m.referencia,
        concepto: m.concepto,
        monto: amount(m.montoCents),
        tipo: m.tipo,
        saldo: amount(m.saldoCents),
        ...(m.origen ? { bco_origen: m.origen.banco, telefono_origen: m.origen.telefono, cedula_origen: m.origen.cedula } : {}),
      }));
    return { status: 200, body: { code: '200', cuenta, movimientos } };
  }

  private invalid(descripcion: string): Reply {
    return { status: 400, body: { code: '400', descripcion } };
  }

  private newOrder(
    kind: OrderKind,
    b: Fields,
    estatus: Order['estatus'],
    answer: Reply,
    flow: { from: string; to: string } | null = null,
  ): Order {
    const locator = typeof b.locator === 'string' && b.locator !== '' ? b.locator : `sin-locator-${++this.internalLocators}`;
    const async = kind === 'debito' || kind === 'credito';
    const order: Order = {
      locator,
      kind,
      nroReferencia: this.ledger.nextReferencia(),
      endtoend: async ? this.ledger.nextEndtoend() : null,
      estatus,
      motivo: null,
      montoCents: cents(b.monto as string),
      concepto: String(b.concepto ?? b.motivo ?? ''),
      from: flow?.from ?? null,
      to: flow?.to ?? null,
      planned: { estatus: 'ACCP', motivo: null },
      answer,
      calls: 1,
      createdAt: this.options.now(),
      settledAt: null,
    };
    this.ledger.record(order);
    return order;
  }
}
