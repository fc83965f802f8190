import {
  statementPage,
  invalidCursor,
  cursorOffset,
  bankCodeOf,
  credito,
  creditsOfDay,
  identificacionOf,
  phoneOf,
  saldoRead,
  defineConnector,
  type BankConnectorKit,
  type BankDefinition,
} from '@switch/connector-kit/connector';
import {
  CAPABILITIES,
  type Mode,
  type Movimiento,
  type Movimientos,
  type MovimientosQuery,
  type Saldo,
  type SaldoQuery,
  type CreditoRecibido,
  type CreditosQuery,
} from '@switch/core/contracts/bancos';
import type { BankOutcome } from '@switch/core/operation';
import type { ExecuteOrder, ReadOutcome, StatusQuery } from '@switch/connector-kit/bank-port';
import type { GuardedSend, KitDeps } from '@switch/connector-kit/send';
import type { ActivoConnectorConfig } from './config';
import { ActivoTransport } from './protocol';
import {
  c2pRequest,
  caracasDate,
  creditoRequest,
  debitoRequest,
  fechaActivo,
  isUnsendable,
  parseMontoActivo,
  operacionRequest,
  otpRequest,
  p2pRequest,
  type Merchant,
  type Unsendable,
} from './requests';
import { estatusOutcome, movimientoOf, nroReferencia, orderOutcome, readOutcome, round2, statusOutcome } from './responses';

export type ActivoConnectorDeps = KitDeps;

const rejectedHere = (motivo: 'NO_SOPORTADO' | 'OTP_INVALIDO' | 'FIRMA_AUTH', descripcion: string): BankOutcome => ({
  type: 'rejected',
  motivo,
  referencia: null,
  raw: { switch: true, codigo: motivo, descripcion },
});

const unsendable = (u: Unsendable): BankOutcome => rejectedHere(u.motivo, u.unsendable);

/**
 * Banco Activo (0171) behind its WSO2 gateway, as a kit definition. Token → OTP request; cobrar →
 * débito inmediato (after a token) or C2P; pagar → P2P (pago móvil) or crédito inmediato; reverso →
 * NO_SOPORTADO (the bank has no reversal). The `apikey` transport is protocol.ts, bodies requests.ts,
 * answers responses.ts, codes codes.ts; the kit's guarded send holds a breaker per operation.
 */
class ActivoBank implements BankDefinition {
  readonly banco = 'banco_activo' as const;
  readonly capabilities = CAPABILITIES;
  private readonly now: () => Date;
  private readonly merchant: Merchant;
  private readonly transport: ActivoTransport;

  constructor(config: ActivoConnectorConfig, kit: GuardedSend) {
    this.now = kit.now;
    this.transport = new ActivoTransport(kit, config.baseUrl, config.apiKey);
    this.merchant = { rif: config.rif, cuenta: config.cuenta, telefono: config.telefono, usuario: config.usuario, ip: config.ip };
  }

  /** A throw is the kit's to read: before any call a rejection, after one unknown (never rerouted). */
  execute(order: ExecuteOrder): Promise<BankOutcome> {
    return this.run(order);
  }

  private async run(order: ExecuteOrder): Promise<BankOutcome> {
    const { request, orderRef } = order;
    // Edge (merchant accounts): a live order's registered account replaces the configured one.
    const merchant = order.account
      ? { ...this.merchant, cuenta: order.account.cuenta, ...(order.account.telefono ? { telefono: order.account.telefono } : {}) }
      : this.merchant;
    switch (request.kind) {
      case 'token': {
        const result = await this.transport.call('otp', otpRequest(request.body, orderRef, merchant));
        return orderOutcome(result, (a, raw) => {
          const id = typeof a.body.id_solicitud === 'string' ? a.body.id_solicitud : nroReferencia(a);
          return { type: 'accepted', pending: false, referencia: id, endtoend: null, raw };
        });
      }
      case 'cobrar': {
        if (order.rail === 'debito_inmediato') {
          const idSolicitud = order.related?.referencia;
          if (!idSolicitud)
            return rejectedHere('OTP_INVALIDO', 'no OTP request at the bank for this collection (the token step has no id_solicitud)');
          const result = await this.transport.call('debito', debitoRequest(request.body, idSolicitud, orderRef, merchant));
          return orderOutcome(result, estatusOutcome);
        }
        const body = c2pRequest(request.body, orderRef, merchant);
        if (isUnsendable(body)) return unsendable(body);
        return orderOutcome(await this.transport.call('c2p', body), (a, raw) => ({
          type: 'settled',
          referencia: nroReferencia(a),
          endtoend: null,
          raw,
        }));
      }
      case 'pagar': {
        if (order.rail === 'pago_movil') {
          const body = p2pRequest(request.body, orderRef, merchant);
          if (isUnsendable(body)) return unsendable(body);
          return orderOutcome(await this.transport.call('p2p', body), (a, raw) => ({
            type: 'settled',
            referencia: nroReferencia(a),
            endtoend: null,
            raw,
          }));
        }
        const result = await this.transport.call('credito', creditoRequest(request.body, orderRef, merchant));
        return orderOutcome(result, estatusOutcome);
      }
      case 'reverso':
        return rejectedHere('NO_SOPORTADO', 'Banco Activo has no reversal service');
    }
  }

  async status(query: StatusQuery): Promise<BankOutcome> {
    if (query.kind === 'reverso') return rejectedHere('NO_SOPORTADO', 'Banco Activo has no reversal service');
    const result = await this.transport.call('operacion', operacionRequest(query));
    return statusOutcome(result, (a, raw) => {
      const outcome = estatusOutcome(a, raw);
      // An OTP request that stands is "accepted": there is nothing to settle.
      if (query.kind === 'token' && outcome.type === 'settled')
        return { type: 'accepted', pending: false, referencia: outcome.referencia, endtoend: null, raw };
      return outcome;
    });
  }

  async saldo(_mode: Mode, query: SaldoQuery): Promise<ReadOutcome<Saldo>> {
    const result = await this.transport.call('saldo', { cuenta: query.cuenta });
    return readOutcome(result, (a, raw) => {
      const disponible = parseMontoActivo(a.body.saldo_disponible);
      const contable = a.body.saldo_contable === undefined ? disponible : parseMontoActivo(a.body.saldo_contable);
      if (disponible === null || contable === null) return { ok: false, motivo: 'RECHAZO_TECNICO', raw };
      const bloqueado =
        a.body.saldo_bloqueado === undefined ? Math.max(0, round2(contable - disponible)) : parseMontoActivo(a.body.saldo_bloqueado);
      if (bloqueado === null) return { ok: false, motivo: 'RECHAZO_TECNICO', raw };
      return saldoRead(this.banco, query.cuenta, { disponible, contable, bloqueado }, this.now(), a.body);
    });
  }

  /** The day's credits from the statement call, with the payer's bank, phone and id where the line has them. */
  async creditos(_mode: Mode, query: CreditosQuery): Promise<ReadOutcome<CreditoRecibido[]>> {
    const fecha = fechaActivo(query.fecha);
    const result = await this.transport.call('movimientos', { cuenta: query.cuenta, fecha_desde: fecha, fecha_hasta: fecha });
    return readOutcome(result, (a, raw) => {
      const lines = Array.isArray(a.body.movimientos) ? (a.body.movimientos as unknown[]) : null;
      if (lines === null) return { ok: false, motivo: 'RECHAZO_TECNICO', raw };
      const credits: CreditoRecibido[] = [];
      for (const line of lines) {
        const m = movimientoOf(line);
        if (m === null) return { ok: false, motivo: 'RECHAZO_TECNICO', raw };
        if (m.tipo !== 'credito') continue;
        const r = line as Record<string, unknown>;
        credits.push(
          credito(this.banco, query.cuenta, m, {
            telefono: phoneOf(r.telefono_origen),
            identificacion: identificacionOf(r.cedula_origen),
            banco: bankCodeOf(r.bco_origen),
          }),
        );
      }
      return { ok: true, value: creditsOfDay(query.fecha, credits) };
    });
  }

  /** The bank answers the whole range at once; pages are cut here (cursor = offset in that list). */
  async movimientos(_mode: Mode, query: MovimientosQuery): Promise<ReadOutcome<Movimientos>> {
    const offset = cursorOffset(query.cursor);
    if (offset === null) return invalidCursor();
    const hasta = query.hasta ?? caracasDate(this.now());
    const result = await this.transport.call('movimientos', {
      cuenta: query.cuenta,
      fecha_desde: fechaActivo(query.desde),
      fecha_hasta: fechaActivo(hasta),
    });
    return readOutcome(result, (a, raw) => {
      const list = Array.isArray(a.body.movimientos) ? a.body.movimientos.map(movimientoOf) : null;
      if (list === null || list.some((m) => m === null)) return { ok: false, motivo: 'RECHAZO_TECNICO', raw };
      return { ok: true, value: statementPage(this.banco, query, hasta, offset, list as Movimiento[]) };
    });
  }
}

/** Banco Activo's connector: the kit's, over `ActivoBank`. */
export const ActivoConnector = defineConnector<ActivoConnectorConfig, ActivoConnectorDeps, ActivoBank>(
  'banco_activo',
  (config, kit) => new ActivoBank(config, kit),
);
export type ActivoConnector = BankConnectorKit<ActivoBank>;
