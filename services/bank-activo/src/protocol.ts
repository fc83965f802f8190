import type { BankHttpResult, GuardedSend } from '@switch/connector-kit/send';

/**
 * Banco Activo's merchant API as it travels: a WSO2 API Manager gateway that authenticates with an
 * `apikey` header [code], flat JSON bodies, `code: "200"` on success [code]. Paths of the C2P and
 * P2P services are seen in public code [code]; the others follow the same `/<area>/<api>/1.0.0/<op>`
 * pattern and are [INV] (PROTOCOLS.md §4.1).
 */

export const PATHS = {
  /** Débito inmediato, step 1: the bank sends the payer an OTP [INV]. */
  otp: '/cobro/otp/1.0.0/otp',
  /** Débito inmediato, step 2: debit with that OTP [INV]. */
  debito: '/cobro/debito/1.0.0/debito',
  /** Cobro C2P with the key the payer got from his own bank [code]. */
  c2p: '/cobro/c2p/1.0.0/c2p',
  /** Pago móvil payout ("vuelto") [code]. */
  p2p: '/pago/p2p/1.0.0/p2p',
  /** Crédito inmediato through the CCE [INV]. */
  credito: '/pago/credito/1.0.0/credito',
  /** State of an order by locator / nroReferencia / endtoend [INV]. */
  operacion: '/consulta/operacion/1.0.0/operacion',
  saldo: '/consulta/saldo/1.0.0/saldo',
  movimientos: '/consulta/movimientos/1.0.0/movimientos',
} as const;
export type Operacion = keyof typeof PATHS;

/** The bank's success code, a string [code]. */
export const CODE_OK = '200';

/** Headers of every call: the WSO2 subscription key travels as `apikey` [code]. */
export function activoHeaders(apiKey: string): Record<string, string> {
  return { apikey: apiKey, 'content-type': 'application/json', accept: 'application/json' };
}

/** A WSO2 gateway fault: the gateway itself answered (auth, throttling, routing, backend reach). */
export interface Wso2Fault {
  code: string;
  message: string;
  description: string;
}

/**
 * What one HTTP answer holds, before any business meaning: a gateway fault, the bank's flat JSON
 * answer, or something unreadable (an HTML error page, a cut body).
 */
export type ActivoAnswer =
  | { kind: 'fault'; status: number; fault: Wso2Fault; body: unknown }
  | { kind: 'answer'; status: number; code: string; descripcion: string; body: Record<string, unknown> }
  | { kind: 'unreadable'; status: number; body: string };

export function readAnswer(status: number, text: string): ActivoAnswer {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'unreadable', status, body: text };
  }
  if (!isObject(body)) return { kind: 'unreadable', status, body: text };
  if (isObject(body.fault)) {
    const f = body.fault;
    return {
      kind: 'fault',
      status,
      body,
      fault: { code: String(f.code ?? ''), message: String(f.message ?? ''), description: String(f.description ?? '') },
    };
  }
  if (typeof body.code !== 'string' && typeof body.code !== 'number') return { kind: 'unreadable', status, body: text };
  // Integrations read both spellings of the description field [code].
  const descripcion = firstString(body.descripcion, body.description, body.message) ?? '';
  return { kind: 'answer', status, code: String(body.code), descripcion, body };
}

/** WSO2's fault body, as the gateway writes it (the emulator answers with the same shape). */
export function wso2Fault(
  code: number,
  message: string,
  description: string,
): { fault: { code: number; message: string; description: string } } {
  return { fault: { code, message, description } };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((v): v is string => typeof v === 'string');
}

/** Banco Activo's transport over the kit's guarded send: one breaker per operation, the `apikey` header, flat JSON. */
export class ActivoTransport {
  constructor(
    private readonly kit: GuardedSend,
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  call(op: Operacion, body: Record<string, string>): Promise<BankHttpResult> {
    return this.kit.result({
      operation: op,
      url: `${this.baseUrl}${PATHS[op]}`,
      method: 'POST',
      headers: activoHeaders(this.apiKey),
      body: JSON.stringify(body),
    });
  }
}
