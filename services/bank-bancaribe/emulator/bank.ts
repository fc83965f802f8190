import { randomInt } from 'node:crypto';
import { centsOf, SANDBOX_CUT_CENTS, SANDBOX_SLOW_CENTS } from '@switch/connector-kit/emulator';
import { envelope, isRecord, OPERACIONES_SOAP, RUTAS } from '../src/protocol';
import { CENTAVOS_LIQUIDACION, CENTAVOS_RECHAZO, CENTAVOS_SIN_CONFIRMACION, descripcionDe } from './catalog';
import { caracas, centsToString, phoneAccount, type BookedOrder, type Ledger, type Settlement } from './ledger';

/**
 * The bank behind the gateway: what each resource does with a request that passed authentication
 * and the fault switches. Answers are values `{status, body}`; the server writes them.
 */

export interface Merchant {
  rif: string;
  telefono: string;
  cuenta: string;
  hash: string;
  nombre: string;
}

export interface BankAnswer {
  status: number;
  body: unknown;
}

/** One resource of the gateway. */
export interface Resource {
  /** The merchant's reference the request carries, for duplicate detection and call counts. */
  reference(body: unknown): string | null;
  handle(body: unknown): BankAnswer;
  /** The answer of a refusal with `code`, in this resource's shape (nothing is booked). */
  refuse(code: string): BankAnswer;
}

const ok = (body: unknown): BankAnswer => ({ status: 200, body });

function cents(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.round(value * 100);
  if (typeof value === 'string' && /^[0-9]+(\.[0-9]{1,2})?$/.test(value.trim())) {
    const c = Math.round(Number(value.trim()) * 100);
    return c > 0 ? c : null;
  }
  return null;
}

const str = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : typeof value === 'number' ? String(value) : null;

/** RIFs compare by letter and number: `J000012114` is `J12114`. */
function sameRif(a: unknown, b: string): boolean {
  const norm = (v: string) => {
    const m = /^([VEJGP])0*([0-9]+)$/.exec(v.trim().toUpperCase());
    return m ? `${m[1]}${m[2]}` : v;
  };
  return typeof a === 'string' && norm(a) === norm(b);
}

/** Numeric where it is a number, as the SOAP services' `long` fields are. */
const asLong = (code: string): number | string => (/^-?[0-9]+$/.test(code) ? Number(code) : code);

export class EmulatedBank {
  private readonly keys = new Map<string, { clave: string; expiresMs: number }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private endToEndSeq = 1;

  constructor(
    readonly ledger: Ledger,
    readonly merchant: Merchant,
    private readonly options: { settleDelayMs: number; slowSettleDelayMs?: number; c2pKeyTtlMs: number; now: () => number },
  ) {}

  /** Set when the order just handled has a cut-connection amount (the kit's SANDBOX_CUT_CENTS) and was taken. */
  private cutPending = false;

  /** Whether the answer just produced must be replaced by a cut connection (read once). */
  takeCut(): boolean {
    const cut = this.cutPending;
    this.cutPending = false;
    return cut;
  }

  /** The payer's bank issuing a C2P key (what the payer would read in an SMS or app). */
  issueKey(telefono: string): { clave: string; expiresMs: number } {
    const issued = {
      clave: String(randomInt(0, 100_000_000)).padStart(8, '0').replace(/^0+$/, '12345678'),
      expiresMs: this.options.now() + this.options.c2pKeyTtlMs,
    };
    this.keys.set(telefono, issued);
    return issued;
  }

  /** Settles one pending crédito inmediato as planned, or as told. */
  settle(reference: string, outcome?: Settlement): boolean {
    const order = this.ledger.order(reference) ?? this.ledger.orderBySecuencial(reference);
    if (order?.type !== 'CI' || order.estatus !== 'AC00') return false;
    const result = outcome ?? order.plan ?? { estatus: 'ACCP' };
    if (result.estatus === 'ACCP') {
      this.ledger.transfer(null, order.to, order.cents, order.secuencial, 'CREDITO INMEDIATO RECIBIDO');
      order.estatus = 'ACCP';
    } else {
      this.ledger.transfer(null, order.from, order.cents, order.secuencial, `REVERSO CREDITO INMEDIATO ${result.codigoRechazo}`);
      order.estatus = 'RJCT';
      order.codigoRechazo = result.codigoRechazo;
    }
    return true;
  }

  settleAll(): number {
    return this.ledger.orders().filter((o) => this.settle(o.reference)).length;
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** The resources by path. */
  resources(): Readonly<Record<string, Resource>> {
    return {
      [RUTAS.c2p]: this.c2p(),
      [RUTAS.pagoB2p]: this.pagoB2p(),
      [RUTAS.consultaPago]: this.consultaPago(),
      [RUTAS.creditoInmediato]: this.creditoInmediato(),
      [RUTAS.consultaCredito]: this.consultaCredito(),
      [RUTAS.saldo]: this.saldo(),
      [RUTAS.movimientos]: this.movimientos(),
    };
  }

  // -------------------------------------------------------------------------------------------

  private c2p(): Resource {
    const op = OPERACIONES_SOAP.c2p;
    const answer = (code: string, secuencial: string | null) =>
      ok(
        envelope(op, {
          codigoError: asLong(code),
          descripcionError: descripcionDe(code),
          secuencial: secuencial === null ? 0 : Number(secuencial),
        }),
      );
    const inner = (body: unknown) =>
      isRecord(body)
        ? isRecord(body.request)
          ? body.request
          : isRecord(body.requestRegistrarPagoC2p)
            ? body.requestRegistrarPagoC2p
            : null
        : null;
    return {
      reference: (body) => str(inner(body)?.numeroReferencia),
      refuse: (code) => answer(code, null),
      handle: (body) => {
        const req = inner(body);
        const reference = str(req?.numeroReferencia);
        if (!req || !reference) return answer('96', null);
        const seen = this.ledger.order(reference);
        if (seen) return seen.answer;
        if (!sameRif(req.rif, this.merchant.rif) || str(req.telefonoCredito) !== this.merchant.telefono) return answer('63', null);
        return req.anulacion === 'S' ? this.anular(req, reference, answer) : this.cobrarC2p(req, reference, answer);
      },
    };
  }

  private cobrarC2p(
    req: Record<string, unknown>,
    reference: string,
    answer: (code: string, secuencial: string | null) => BankAnswer,
  ): BankAnswer {
    const amount = cents(req.montoTransaccion);
    const telefono = str(req.telefonoPersona) ?? '';
    const book = (code: string, from: string | null) =>
      this.bookSync('C2P', reference, amount ?? 0, code, from, this.merchant.cuenta, answer).answer;
    if (amount === null) return book('13', null);
    const magic = CENTAVOS_RECHAZO[amount % 100];
    if (magic) return book(magic, null);
    if (!this.keyAccepted(telefono, str(req.otp) ?? '')) return book('5', null);
    const payer = phoneAccount(telefono);
    if (this.ledger.account(payer).balanceCents < amount) return book('51', null);
    this.keys.delete(telefono);
    return book('0', payer);
  }

  private anular(
    req: Record<string, unknown>,
    reference: string,
    answer: (code: string, secuencial: string | null) => BankAnswer,
  ): BankAnswer {
    const original = this.ledger.orderBySecuencial(str(req.secuencialOriginal) ?? '');
    if (original?.type !== 'C2P' || (original.estatus !== 'APROBADA' && original.estatus !== 'ANULADA')) return answer('25', null);
    if (original.estatus === 'ANULADA') return answer('94', null);
    const order = this.bookSync('ANULACION', reference, original.cents, '0', this.merchant.cuenta, original.from, answer);
    original.estatus = 'ANULADA';
    order.voids = original.secuencial;
    return order.answer;
  }

  private pagoB2p(): Resource {
    const answer = (code: string, secuencial: string | null, confirmacion = code === '0' ? String(randomInt(100_000, 1_000_000)) : '0') =>
      ok({
        success: code === '0' && confirmacion !== '0' && confirmacion !== '-1',
        codigoConfirmacion: confirmacion,
        codigoError: code,
        descripcionError: descripcionDe(code),
        secuencial,
        message: code === '0' ? 'Operación procesada' : 'Operación rechazada',
      });
    return {
      reference: (body) => (isRecord(body) ? str(body.factura) : null),
      refuse: (code) => answer(code, null),
      handle: (body) => {
        const reference = isRecord(body) ? str(body.factura) : null;
        if (!isRecord(body) || !reference) return answer('96', null);
        const seen = this.ledger.order(reference);
        if (seen) return seen.answer;
        if (!sameRif(body.rif, this.merchant.rif) || str(body.telefonoDebito) !== this.merchant.telefono) return answer('63', null);
        const amount = cents(body.montoTransaccion);
        const to = phoneAccount(str(body.telefonoCredito) ?? '');
        const order = (code: string, from: string | null) => this.bookSync('B2P', reference, amount ?? 0, code, from, to, answer);
        const book = (code: string, from: string | null) => order(code, from).answer;
        if (amount === null) return book('13', null);
        if (amount % 100 === CENTAVOS_SIN_CONFIRMACION) {
          // The switch never confirmed: nothing moved, the query shows a technical rejection.
          const unconfirmed = order('96', null);
          unconfirmed.answer = answer('0', unconfirmed.secuencial, '-1');
          return unconfirmed.answer;
        }
        const magic = CENTAVOS_RECHAZO[amount % 100];
        if (magic) return book(magic, null);
        if (this.ledger.account(this.merchant.cuenta).balanceCents < amount) return book('51', null);
        return book('0', this.merchant.cuenta);
      },
    };
  }

  /** Books a synchronous order (moving the money when code is 0) and answers with it; 91 is never booked. */
  private bookSync(
    type: 'C2P' | 'ANULACION' | 'B2P',
    reference: string,
    amount: number,
    code: string,
    from: string | null,
    to: string | null,
    answer: (code: string, secuencial: string | null) => BankAnswer,
  ): BookedOrder {
    const secuencial = this.ledger.newSecuencial();
    const approved = code === '0';
    if (approved && type !== 'ANULACION' && SANDBOX_CUT_CENTS.has(centsOf(amount))) this.cutPending = true;
    if (approved)
      this.ledger.transfer(
        from,
        to,
        amount,
        secuencial,
        type === 'ANULACION' ? 'ANULACION PAGO C2P' : type === 'C2P' ? 'PAGO C2P' : 'PAGO MOVIL B2P',
      );
    const order: BookedOrder = {
      reference,
      type,
      secuencial,
      cents: amount,
      estatus: approved ? 'APROBADA' : 'RECHAZADA',
      codigoError: code,
      descripcionError: descripcionDe(code),
      codigoRechazo: null,
      endToEndId: null,
      plan: null,
      from,
      to,
      voids: null,
      answer: answer(code, approved ? secuencial : null),
      createdMs: this.options.now(),
    };
    return code === '91' ? order : this.ledger.book(order);
  }

  /** A key issued for the phone must match and be fresh; with none issued, any non-zero 6-8 digits pass. */
  private keyAccepted(telefono: string, otp: string): boolean {
    if (!/^[0-9]{6,8}$/.test(otp) || /^0+$/.test(otp)) return false;
    const issued = this.keys.get(telefono);
    if (!issued) return true;
    return issued.clave === otp && this.options.now() <= issued.expiresMs;
  }

  private consultaPago(): Resource {
    const answer = (code: string, lista: unknown[]) =>
      ok({ codigoError: code, descripcionError: code === '0' ? '' : descripcionDe(code), lista });
    return {
      reference: (body) => (isRecord(body) ? str(body.factura) : null),
      refuse: (code) => answer(code, []),
      handle: (body) => {
        if (!isRecord(body)) return answer('96', []);
        // The merchant's phone names whose payments are asked about: another phone is not this merchant's.
        const telefono = str(body.telefonoDebito);
        if (!sameRif(body.rif, this.merchant.rif) || (telefono !== null && telefono !== this.merchant.telefono)) return answer('63', []);
        const types = body.tipoTrx === 'B2P' ? ['B2P'] : ['C2P', 'ANULACION'];
        const secuencial = str(body.referencia);
        const factura = str(body.factura);
        const lista = this.ledger
          .orders()
          .filter((o) => types.includes(o.type))
          .filter((o) => (secuencial === null && factura === null) || o.secuencial === secuencial || o.reference === factura)
          .map((o) => {
            const { fecha, hora } = caracas(o.createdMs);
            return {
              referencia: o.secuencial,
              factura: o.reference,
              tipoTrx: o.type,
              fecha,
              hora,
              monto: centsToString(o.cents),
              estatus: o.estatus,
              codigoError: o.codigoError,
              descripcionError: o.descripcionError,
            };
          });
        return answer('0', lista);
      },
    };
  }

  private creditoInmediato(): Resource {
    const op = OPERACIONES_SOAP.creditoInmediato;
    const answer = (code: string, secuencial: string | null, endToEndId: string | null = null) =>
      ok(
        envelope(op, {
          codigoError: asLong(code),
          descripcionError: code === '0' ? 'OPERACION EN PROCESO' : descripcionDe(code),
          secuencial: secuencial === null ? 0 : Number(secuencial),
          ...(endToEndId ? { endToEndId } : {}),
        }),
      );
    const inner = (body: unknown) =>
      isRecord(body) && isRecord(body.requestIniciarCredInmediato) ? body.requestIniciarCredInmediato : null;
    return {
      reference: (body) => str(inner(body)?.numeroReferencia),
      refuse: (code) => answer(code, null),
      handle: (body) => {
        const req = inner(body);
        const reference = str(req?.numeroReferencia);
        if (!req || !reference) return answer('96', null);
        const seen = this.ledger.order(reference);
        if (seen) return seen.answer;
        if (req.hash !== this.merchant.hash || !sameRif(req.cedulaRifEmisor, this.merchant.rif)) return answer('63', null);
        const amount = cents(req.monto);
        if (amount === null) return answer('13', null);
        const magic = CENTAVOS_RECHAZO[amount % 100];
        if (magic) return answer(magic, null);
        if (this.ledger.account(this.merchant.cuenta).balanceCents < amount) return answer('51', null);
        const destino = str(req.cuentaDestino) ?? '';
        const to = req.tipoCtaCele === 'CELE' ? phoneAccount(`0${destino.replace(/^58/, '')}`) : destino;
        const secuencial = this.ledger.newSecuencial();
        const endToEndId = this.endToEnd();
        this.ledger.transfer(this.merchant.cuenta, null, amount, secuencial, 'CREDITO INMEDIATO ENVIADO');
        const rechazo = CENTAVOS_LIQUIDACION[amount % 100];
        const order = this.ledger.book({
          reference,
          type: 'CI',
          secuencial,
          cents: amount,
          estatus: 'AC00',
          codigoError: '0',
          descripcionError: 'OPERACION EN PROCESO',
          codigoRechazo: null,
          endToEndId,
          plan: rechazo ? { estatus: 'RJCT', codigoRechazo: rechazo } : { estatus: 'ACCP' },
          from: this.merchant.cuenta,
          to,
          voids: null,
          answer: answer('0', secuencial, endToEndId),
          createdMs: this.options.now(),
        });
        if (SANDBOX_CUT_CENTS.has(centsOf(amount))) this.cutPending = true;
        this.scheduleSettlement(
          order.reference,
          centsOf(amount) === SANDBOX_SLOW_CENTS ? (this.options.slowSettleDelayMs ?? 60_000) : undefined,
        );
        return order.answer;
      },
    };
  }

  private scheduleSettlement(reference: string, delayMs = this.options.settleDelayMs): void {
    if (this.options.settleDelayMs <= 0) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.settle(reference);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** [INV] `<originator bank><yyyyMMddHHmmss><10-digit sequence>` (PROTOCOLS §5.3). */
  private endToEnd(): string {
    const iso = new Date(this.options.now() - 4 * 3600_000).toISOString().replace(/[-T:]/g, '').slice(0, 14);
    return `0114${iso}${String(this.endToEndSeq++).padStart(10, '0')}`;
  }

  private consultaCredito(): Resource {
    const op = OPERACIONES_SOAP.consultaCredito;
    const answer = (code: string, order?: BookedOrder) =>
      ok(
        envelope(op, {
          codigoError: asLong(code),
          descripcionError: code === '0' ? '' : descripcionDe(code),
          ...(order
            ? {
                estatus: order.estatus,
                codigoRechazo: order.codigoRechazo,
                secuencial: Number(order.secuencial),
                referencia: order.reference,
                endToEndId: order.endToEndId,
              }
            : {}),
        }),
      );
    const inner = (body: unknown) =>
      isRecord(body) && isRecord(body.requestConsultarCredInmediato) ? body.requestConsultarCredInmediato : null;
    return {
      reference: (body) => str(inner(body)?.referencia),
      refuse: (code) => answer(code),
      handle: (body) => {
        const req = inner(body);
        if (!req) return answer('96');
        if (req.hash !== this.merchant.hash) return answer('63');
        const secuencial = str(req.secuencial);
        const reference = str(req.referencia);
        const order =
          (secuencial ? this.ledger.orderBySecuencial(secuencial) : undefined) ?? (reference ? this.ledger.order(reference) : undefined);
        return order && order.type === 'CI' ? answer('0', order) : answer('25');
      },
    };
  }

  /** Balance and statement share the client check and the account rules. */
  private checkCuenta(body: unknown): BankAnswer | { cuenta: string; body: Record<string, unknown> } {
    const error = (code: string) => ({ status: 400, body: { code, message: descripcionDe(code) } });
    if (!isRecord(body) || !str(body.clienteRIF)) return error('80049');
    if (!sameRif(body.clienteRIF, this.merchant.rif) || body.clienteHash !== this.merchant.hash) return error('103000');
    const cuenta = str(body.numeroCuenta);
    if (!cuenta) return error('101032');
    if (!/^0114[0-9]{16}$/.test(cuenta) || cuenta.endsWith('9999')) return error('201004');
    if (cuenta.endsWith('8888')) return error('101128');
    return { cuenta, body };
  }

  private saldo(): Resource {
    return {
      reference: () => null,
      refuse: (code) => ({ status: 400, body: { code, message: descripcionDe(code) } }),
      handle: (body) => {
        const checked = this.checkCuenta(body);
        if ('status' in checked) return checked;
        const balance = this.ledger.account(checked.cuenta).balanceCents / 100;
        return ok({
          producto: { numeroCuenta: checked.cuenta, tipo: 'CUENTA CORRIENTE' },
          saldo: { disponible: balance, contable: balance, bloqueado: 0 },
          moneda: { codigo: 'VES' },
        });
      },
    };
  }

  private movimientos(): Resource {
    const toIso = (d: unknown) => {
      const m = typeof d === 'string' ? /^([0-9]{2})\/([0-9]{2})\/([0-9]{4})$/.exec(d) : null;
      return m ? `${m[3]}-${m[2]}-${m[1]}` : null;
    };
    return {
      reference: () => null,
      refuse: (code) => ({ status: 400, body: { code, message: descripcionDe(code) } }),
      handle: (body) => {
        const checked = this.checkCuenta(body);
        if ('status' in checked) return checked;
        const desde = toIso(checked.body.fechaDesde);
        const hasta = toIso(checked.body.fechaHasta);
        if (!desde || !hasta) return { status: 400, body: { code: '400', message: 'Rango de fechas inválido (dd/MM/yyyy)' } };
        const movimientos = this.ledger
          .account(checked.cuenta)
          .lines.filter((l) => {
            const f = toIso(l.fecha) as string;
            return f >= desde && f <= hasta;
          })
          .map((l) => ({
            fecha: l.fecha,
            hora: l.hora,
            referencia: l.referencia,
            descripcion: l.descripcion,
            monto: centsToString(l.cents),
            tipo: l.tipo,
            saldo: centsToString(l.balanceCents),
            ...(l.origen ? { bancoOrigen: l.origen.banco, telefonoOrigen: l.origen.telefono, cedulaOrigen: l.origen.cedula } : {}),
          }));
        return ok({ producto: { numeroCuenta: checked.cuenta }, movimientos });
      },
    };
  }
}
