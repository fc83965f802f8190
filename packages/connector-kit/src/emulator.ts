import { randomInt } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * What the banks' emulators share: the faults a test can inject, the handle a test holds, the
 * sandbox's magic amounts and the process shell for local runs. Emulators serve tests and the
 * sandbox only; nothing here runs in the switch.
 */

/** The faults every emulator can inject; a bank's emulator may scope them further (a path, a resource). */
export interface FaultControls {
  /** Stop accepting connections (the listener closes, open sockets are cut) or accept them again. */
  refuseConnections(on: boolean): Promise<void>;
  /** The next n calls answer this HTTP status (default 500), executing nothing. */
  failNext(n: number, status?: number): void;
  /** The next n calls wait `ms` before being handled. */
  delayNext(n: number, ms: number): void;
  /** The next n calls are executed, then the connection is cut without an answer. */
  timeoutAfterAccept(n: number): void;
  /** The next n money orders are refused with this code (the bank's own, or an ISO 20022 reason). */
  rejectNext(n: number, code: string): void;
}

/** A running emulator, as a test holds it. */
export interface RunningEmulator<Ledger, Controls extends FaultControls> {
  /** Base URL of the bank's API. */
  url: string;
  ledger: Ledger;
  controls: Controls;
  close(): Promise<void>;
}

/**
 * The sandbox's magic amounts (docs/sandbox.md), by their cents: an order of .81 or .82 is taken and
 * answered by a cut connection (its outcome unknown to the switch); one of .83 settles only after the
 * slow delay.
 */
export const SANDBOX_CUT_CENTS: ReadonlySet<string> = new Set(['81', '82']);
export const SANDBOX_SLOW_CENTS = '83';

/** The two-digit cents of an amount in cents, as the magic amounts are written. */
export const centsOf = (amountCents: number): string => String(Math.abs(amountCents) % 100).padStart(2, '0');

/**
 * An emulator as a process for local runs: started, announced on stdout, closed on SIGTERM or SIGINT;
 * a failure to start ends the process with status 1.
 */
export function runEmulatorProcess(name: string, start: () => Promise<{ url: string; controlUrl?: string; close(): Promise<void> }>): void {
  Promise.resolve()
    .then(start)
    .then(
      (emulator) => {
        const controls = emulator.controlUrl ? ` (controls also on ${emulator.controlUrl})` : '';
        process.stdout.write(`${name} emulator listening on ${emulator.url}${controls}\n`);
        const stop = () => void emulator.close().then(() => process.exit(0));
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
      },
      (error: unknown) => {
        process.stderr.write(`${name} emulator failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
}

/**
 * The counted faults of `FaultControls`, planned by a test and taken by the emulator's request
 * handler, one per call. A new plan for a fault replaces the one still pending.
 */
export class FaultPlan {
  private fail = { n: 0, status: 500, scope: 'api' };
  private delay = { n: 0, ms: 0 };
  private cuts = 0;
  private reject = { n: 0, code: '' };

  /** `scope`: which calls fail, for an emulator with more than one kind (default `api`). */
  failNext(n: number, status = 500, scope = 'api'): void {
    this.fail = { n, status, scope };
  }

  delayNext(n: number, ms: number): void {
    this.delay = { n, ms };
  }

  timeoutAfterAccept(n: number): void {
    this.cuts = n;
  }

  rejectNext(n: number, code: string): void {
    this.reject = { n, code };
  }

  reset(): void {
    this.fail = { n: 0, status: 500, scope: 'api' };
    this.delay = { n: 0, ms: 0 };
    this.cuts = 0;
    this.reject = { n: 0, code: '' };
  }

  /** The HTTP status this call fails with, if a failure of its scope is planned. */
  takeFailure(scope = 'api'): number | undefined {
    if (this.fail.n <= 0 || this.fail.scope !== scope) return undefined;
    this.fail.n--;
    return this.fail.status;
  }

  /** How long this call waits, if a delay is planned. */
  takeDelay(): number | undefined {
    if (this.delay.n <= 0) return undefined;
    this.delay.n--;
    return this.delay.ms;
  }

  /** Whether this call's connection is cut after it is executed. */
  takeCut(): boolean {
    if (this.cuts <= 0) return false;
    this.cuts--;
    return true;
  }

  /** The code this money order is refused with, if a refusal is planned. */
  takeRejection(): string | undefined {
    if (this.reject.n <= 0) return undefined;
    this.reject.n--;
    return this.reject.code;
  }
}

/**
 * A request's whole body as text, once it has arrived. A request that fails, or whose body passes
 * `maxBytes`, is destroyed and never answered: the promise does not settle.
 */
export function readBody(req: IncomingMessage, maxBytes = Number.POSITIVE_INFINITY): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) req.destroy();
      else chunks.push(c);
    });
    req.on('error', () => req.destroy());
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/**
 * A payer's pago móvil arriving in a merchant's account (sandbox, tests): every emulator books it as
 * its bank would and serves it through its own statement call, so a connector reads it as in live.
 */
export interface IncomingPagoMovil {
  /** The merchant's receiving account (20 digits). */
  cuenta: string;
  monto: number;
  /** The payer's bank (4-digit code). */
  bancoPagador: string;
  /** The payer's phone, `0412…`. */
  telefonoPagador: string;
  identificacionPagador?: string;
  /** When the payer sent it. */
  at: Date;
  /** The day the bank books it (Caracas), when not the day of `at`: a 23:59 payment booked the next day. */
  bookedOn?: string;
  /** The reference the payer's bank shows the payer (12 digits); a fresh one by default. */
  referencia?: string;
  concepto?: string;
}

/** What the payer sees (`referencia`, `fecha`) and what the receiving bank books (`referenciaBanco`, `fechaBanco`). */
export interface IncomingReceipt {
  referencia: string;
  fecha: string;
  referenciaBanco: string;
  fechaBanco: string;
}

/** An emulator's books that take incoming payments. */
export interface IncomingPayments {
  receivePagoMovil(payment: IncomingPagoMovil): IncomingReceipt;
}

/** A payer bank's 12-digit reference (random: distinct in its last digits too, as a payer may give only those). */
export function payerReference(): string {
  return String(randomInt(100_000_000_000, 1_000_000_000_000));
}

const caracas = (at: Date) => new Date(at.getTime() - 4 * 3600_000).toISOString();
/** The calendar day in Caracas (UTC-4, no daylight saving). */
export const caracasDay = (at: Date): string => caracas(at).slice(0, 10);
/** The time of day in Caracas, `HH:MM:SS`. */
export const caracasTime = (at: Date): string => caracas(at).slice(11, 19);

/**
 * The receipt of an incoming payment: the payer's reference and day, and the bank's booking of them
 * (`bankReference` gives the receiving bank's form of the payer's reference).
 */
export function incomingReceipt(payment: IncomingPagoMovil, bankReference: (payer: string) => string): IncomingReceipt {
  const referencia = payment.referencia ?? payerReference();
  const fecha = caracasDay(payment.at);
  return { referencia, fecha, referenciaBanco: bankReference(referencia), fechaBanco: payment.bookedOn ?? fecha };
}
