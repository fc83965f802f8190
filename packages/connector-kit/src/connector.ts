import type {
  BancoId,
  Capability,
  Mode,
  Movimientos,
  MovimientosQuery,
  Saldo,
  SaldoQuery,
  CreditoRecibido,
  CreditosQuery,
} from '@switch/core/contracts/bancos';
import type { BankOutcome } from '@switch/core/operation';
import type { BankConnector, ExecuteOrder, ReadContext, ReadOutcome, StatusQuery } from './bank-port';
import { type BankBreakers, GuardedSend, tracked, type KitDeps, type SendOptions } from './send';
import { FormatError } from './formats';
import { rejectedOutcome, unknownOutcome } from './outcomes';

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A real bank's connector: guarded by its breakers, holding connections it must close. */
export interface GuardedConnector extends BankConnector {
  readonly breakers: BankBreakers;
  close(): Promise<void>;
}

/**
 * What a bank gives the kit: its own protocol, requests, responses and codes, wired in four
 * methods. Each receives the kit's guarded send; none needs to catch: the kit turns a throw into
 * the right outcome (see `BankConnectorKit`).
 */
export interface BankDefinition extends BankConnector {
  /** Releases what the bank's protocol holds besides the kit's HTTP pool (none by default). */
  close?(): Promise<void>;
}

/**
 * The connector every bank is: a `BankDefinition` behind the kit's rules. It never throws:
 * - an order that throws before any request left is refused here (a `FormatError` with its motivo,
 *   anything else RECHAZO_TECNICO): the bank never saw it;
 * - an order that throws after a request left is `unknown`: it may have moved money;
 * - a status query that throws is `unknown` (the state stays);
 * - a read that throws fails with the FormatError's motivo or RECHAZO_TECNICO.
 */
export class BankConnectorKit<B extends BankDefinition = BankDefinition> implements GuardedConnector {
  readonly banco: BancoId;
  readonly capabilities: readonly Capability[];
  readonly breakers: BankBreakers;

  constructor(
    /** The bank's own part, exposed for tests and operations (e.g. BNC's session). */
    readonly bank: B,
    readonly kit: GuardedSend,
  ) {
    this.banco = bank.banco;
    this.capabilities = bank.capabilities;
    this.breakers = kit.breakers;
  }

  async execute(order: ExecuteOrder): Promise<BankOutcome> {
    const run = await tracked(() => this.bank.execute(order));
    if ('value' in run) return run.value;
    if (run.sent) return unknownOutcome({ switch: `connector failure after sending: ${message(run.error)}` });
    if (run.error instanceof FormatError)
      return rejectedOutcome(run.error.motivo, { switch: true, codigo: 'FORMATO', descripcion: run.error.message });
    return rejectedOutcome('RECHAZO_TECNICO', {
      switch: true,
      codigo: 'NO_ENVIADA',
      descripcion: `order not built: ${message(run.error)}`,
    });
  }

  async status(query: StatusQuery): Promise<BankOutcome> {
    try {
      return await this.bank.status(query);
    } catch (error) {
      return unknownOutcome({ switch: `status not read: ${message(error)}` });
    }
  }

  /** `context` names the reader and its registered account: the bank is asked as the merchant that holds it. */
  saldo(mode: Mode, query: SaldoQuery, context?: ReadContext): Promise<ReadOutcome<Saldo>> {
    return read(() => this.bank.saldo(mode, query, context));
  }

  movimientos(mode: Mode, query: MovimientosQuery, context?: ReadContext): Promise<ReadOutcome<Movimientos>> {
    return read(() => this.bank.movimientos(mode, query, context));
  }

  creditos(mode: Mode, query: CreditosQuery, context?: ReadContext): Promise<ReadOutcome<CreditoRecibido[]>> {
    const bank = this.bank;
    if (!bank.creditos) return Promise.resolve(notSupported(`${this.banco} does not read incoming credits`));
    return read(() => bank.creditos!(mode, query, context));
  }

  async close(): Promise<void> {
    await this.bank.close?.();
    await this.kit.close();
  }
}

/** A read this bank cannot do: refused, nothing sent. */
export const notSupported = (descripcion: string): Extract<ReadOutcome<never>, { ok: false }> => ({
  ok: false,
  motivo: 'NO_SOPORTADO',
  raw: { switch: true, codigo: 'NO_SOPORTADO', descripcion },
});

async function read<T>(work: () => Promise<ReadOutcome<T>>): Promise<ReadOutcome<T>> {
  try {
    return await work();
  } catch (error) {
    return { ok: false, motivo: error instanceof FormatError ? error.motivo : 'RECHAZO_TECNICO', raw: { switch: message(error) } };
  }
}

/**
 * Defines a bank's connector class from its definition: `new Connector(config, deps)` builds the
 * kit's guarded send for the bank and the bank's part over it.
 */
export function defineConnector<C extends SendOptions, D extends KitDeps, B extends BankDefinition>(
  banco: BancoId,
  build: (config: C, kit: GuardedSend, deps: D) => B,
): new (
  config: C,
  deps?: D,
) => BankConnectorKit<B> {
  return class extends BankConnectorKit<B> {
    constructor(config: C, deps: D = {} as D) {
      const kit = new GuardedSend(banco, config, deps);
      super(build(config, kit, deps), kit);
    }
  };
}

/** A bank's balance figures: `contable` defaults to `disponible` and `bloqueado` to 0 when the bank gives only the available balance. */
export interface SaldoFigures {
  disponible: number;
  contable?: number | null;
  bloqueado?: number | null;
}

/** A balance read as the switch reports it (`GET /saldo`), from a bank's figures at `at`. */
export function saldoRead(
  banco: BancoId,
  cuenta: string,
  figures: SaldoFigures,
  at: Date,
  raw: Record<string, unknown>,
): ReadOutcome<Saldo> {
  const { disponible } = figures;
  return {
    ok: true,
    value: {
      cuenta,
      banco,
      moneda: 'VES',
      disponible,
      contable: figures.contable ?? disponible,
      bloqueado: figures.bloqueado ?? 0,
      consultado_en: at.toISOString(),
      raw,
    },
  };
}
