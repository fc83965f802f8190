import {
  statementPage,
  invalidCursor,
  cursorOffset,
  BankBreakers,
  BankHttpClient,
  CAPABILITIES,
  type BankConnector,
  type BankHttpResult,
  type BankOutcome,
  type ExecuteOrder,
  type Mode,
  type Movimiento,
  type Movimientos,
  type MovimientosQuery,
  type ReadOutcome,
  type Saldo,
  type SaldoQuery,
  type StatusQuery,
} from '@switch/shared';
import type { ActivoConnectorConfig } from './config';
import { caracasDate, fechaActivo, fechaIso, parseMontoActivo } from './formats';
import { estatusOutcome, nroReferencia, orderOutcome, readOutcome, statusOutcome, type Raw } from './interpret';
import { c2pRequest, creditoRequest, debitoRequest, operacionRequest, otpRequest, p2pRequest, isUnsendable, type Body, type Merchant, type Unsendable } from './messages';
import { activoHeaders, PATHS, type Operacion } from './protocol';

export interface ActivoConnectorDeps {
  http?: BankHttpClient;
  now?: () => Date;
}

const rejectedHere = (motivo: 'NO_SOPORTADO' | 'OTP_INVALIDO' | 'FIRMA_AUTH', descripcion: string): BankOutcome => ({
  type: 'rejected',
  motivo,
  referencia: null,
  raw: { switch: true, codigo: motivo, descripcion },
});

const unsendable = (u: Unsendable): BankOutcome => rejectedHere(u.motivo, u.unsendable);

/**
 * Banco Activo (0171) behind its WSO2 gateway. Token → OTP request; cobrar → débito inmediato (after
 * a token) or C2P; pagar → P2P (pago móvil) or crédito inmediato; reverso → NO_SOPORTADO (the bank
 * has no reversal). Every call goes through one breaker per operation and never throws.
 */
export class ActivoConnector implements BankConnector {
  readonly banco = 'banco_activo' as const;
  readonly capabilities = CAPABILITIES;
  readonly breakers: BankBreakers;
  private readonly http: BankHttpClient;
  private readonly ownsHttp: boolean;
  private readonly now: () => Date;
  private readonly merchant: Merchant;

  constructor(
    private readonly config: ActivoConnectorConfig,
    deps: ActivoConnectorDeps = {},
  ) {
    this.ownsHttp = deps.http === undefined;
    this.http = deps.http ?? new BankHttpClient({ connectTimeoutMs: config.connectTimeoutMs ?? 3_000 });
    this.now = deps.now ?? (() => new Date());
    this.breakers = new BankBreakers('banco_activo', config.breaker);
    this.merchant = { rif: config.rif, cuenta: config.cuenta, telefono: config.telefono, usuario: config.usuario, ip: config.ip };
  }

  async execute(order: ExecuteOrder): Promise<BankOutcome> {
    try {
      return await this.run(order);
    } catch (error) {
      // A bug after the send may hide a moved order: unknown, never rerouted.
      return { type: 'unknown', raw: { switch: `connector failure: ${error instanceof Error ? error.message : String(error)}` } };
    }
  }

  private async run(order: ExecuteOrder): Promise<BankOutcome> {
    const { request, orderRef } = order;
    // Edge (merchant accounts): a live order's registered account replaces the configured one.
    const merchant = order.account ? { ...this.merchant, cuenta: order.account.cuenta, ...(order.account.telefono ? { telefono: order.account.telefono } : {}) } : this.merchant;
    switch (request.kind) {
      case 'token': {
        const result = await this.call('otp', otpRequest(request.body, orderRef, merchant));
        return orderOutcome(result, (a, raw) => {
          const id = typeof a.body.id_solicitud === 'string' ? a.body.id_solicitud : nroReferencia(a);
          return { type: 'accepted', pending: false, referencia: id, endtoend: null, raw };
        });
      }
      case 'cobrar': {
        if (order.rail === 'debito_inmediato') {
          const idSolicitud = order.related?.referencia;
          if (!idSolicitud) return rejectedHere('OTP_INVALIDO', 'no OTP request at the bank for this collection (the token step has no id_solicitud)');
          const result = await this.call('debito', debitoRequest(request.body, idSolicitud, orderRef, merchant));
          return orderOutcome(result, estatusOutcome);
        }
        const body = c2pRequest(request.body, orderRef, merchant);
        if (isUnsendable(body)) return unsendable(body);
        return orderOutcome(await this.call('c2p', body), (a, raw) => ({ type: 'settled', referencia: nroReferencia(a), endtoend: null, raw }));
      }
      case 'pagar': {
        if (order.rail === 'pago_movil') {
          const body = p2pRequest(request.body, orderRef, merchant);
          if (isUnsendable(body)) return unsendable(body);
          return orderOutcome(await this.call('p2p', body), (a, raw) => ({ type: 'settled', referencia: nroReferencia(a), endtoend: null, raw }));
        }
        const result = await this.call('credito', creditoRequest(request.body, orderRef, merchant));
        return orderOutcome(result, estatusOutcome);
      }
      case 'reverso':
        return rejectedHere('NO_SOPORTADO', 'Banco Activo has no reversal service');
    }
  }

  async status(query: StatusQuery): Promise<BankOutcome> {
    if (query.kind === 'reverso') return rejectedHere('NO_SOPORTADO', 'Banco Activo has no reversal service');
    try {
      const result = await this.call('operacion', operacionRequest(query));
      return statusOutcome(result, (a, raw) => {
        const outcome = estatusOutcome(a, raw);
        // An OTP request that stands is "accepted": there is nothing to settle.
        if (query.kind === 'token' && outcome.type === 'settled') return { type: 'accepted', pending: false, referencia: outcome.referencia, endtoend: null, raw };
        return outcome;
      });
    } catch (error) {
      return { type: 'unknown', raw: { switch: `connector failure: ${error instanceof Error ? error.message : String(error)}` } };
    }
  }

  async saldo(_mode: Mode, query: SaldoQuery): Promise<ReadOutcome<Saldo>> {
    try {
      const result = await this.call('saldo', { cuenta: query.cuenta });
      return readOutcome(result, (a, raw) => {
        const disponible = parseMontoActivo(a.body.saldo_disponible);
        const contable = a.body.saldo_contable === undefined ? disponible : parseMontoActivo(a.body.saldo_contable);
        if (disponible === null || contable === null) return { ok: false, motivo: 'RECHAZO_TECNICO', raw };
        const bloqueado = a.body.saldo_bloqueado === undefined ? Math.max(0, round2(contable - disponible)) : parseMontoActivo(a.body.saldo_bloqueado);
        if (bloqueado === null) return { ok: false, motivo: 'RECHAZO_TECNICO', raw };
        return {
          ok: true,
          value: { cuenta: query.cuenta, banco: this.banco, moneda: 'VES', disponible, contable, bloqueado, consultado_en: this.now().toISOString(), raw: a.body },
        };
      });
    } catch (error) {
      return { ok: false, motivo: 'RECHAZO_TECNICO', raw: { switch: `connector failure: ${error instanceof Error ? error.message : String(error)}` } };
    }
  }

  /** The bank answers the whole range at once; pages are cut here (cursor = offset in that list). */
  async movimientos(_mode: Mode, query: MovimientosQuery): Promise<ReadOutcome<Movimientos>> {
    const offset = cursorOffset(query.cursor);
    if (offset === null) return invalidCursor();
    const hasta = query.hasta ?? caracasDate(this.now());
    try {
      const result = await this.call('movimientos', { cuenta: query.cuenta, fecha_desde: fechaActivo(query.desde), fecha_hasta: fechaActivo(hasta) });
      return readOutcome(result, (a, raw) => {
        const list = Array.isArray(a.body.movimientos) ? a.body.movimientos.map(movimientoOf) : null;
        if (list === null || list.some((m) => m === null)) return { ok: false, motivo: 'RECHAZO_TECNICO', raw };
        return { ok: true, value: statementPage(this.banco, query, hasta, offset, list as Movimiento[]) };
      });
    } catch (error) {
      return { ok: false, motivo: 'RECHAZO_TECNICO', raw: { switch: `connector failure: ${error instanceof Error ? error.message : String(error)}` } };
    }
  }

  /** Stops the breakers' timers and, when the connector made its own HTTP client, its connections. */
  async close(): Promise<void> {
    this.breakers.shutdown();
    if (this.ownsHttp) await this.http.close();
  }

  private call(op: Operacion, body: Body): Promise<BankHttpResult> {
    return this.breakers.call(op, () =>
      this.http.send({
        url: `${this.config.baseUrl}${PATHS[op]}`,
        method: 'POST',
        headers: activoHeaders(this.config.apiKey),
        body: JSON.stringify(body),
        timeoutMs: this.config.timeoutMs,
      }),
    );
  }
}

function movimientoOf(raw: unknown): Movimiento | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Raw;
  const fecha = fechaIso(m.fecha);
  const monto = parseMontoActivo(m.monto);
  const tipo = m.tipo === 'D' ? 'debito' : m.tipo === 'C' ? 'credito' : null;
  if (fecha === null || monto === null || tipo === null) return null;
  const saldo = m.saldo === undefined ? null : parseMontoActivo(m.saldo);
  return {
    fecha,
    hora: typeof m.hora === 'string' && /^[0-9]{2}:[0-9]{2}:[0-9]{2}$/.test(m.hora) ? m.hora : null,
    referencia: String(m.referencia ?? ''),
    concepto: String(m.concepto ?? ''),
    tipo,
    monto: Math.abs(monto),
    saldo,
  };
}

const round2 = (n: number) => Math.round(n * 100) / 100;
