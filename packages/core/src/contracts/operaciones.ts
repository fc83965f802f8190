/**
 * The five money operations on the wire (SPEC 2.3, 2.4): what a merchant sends (token, cobrar, pagar,
 * consultar, reverso), the `Resultado` every one of them answers, and what makes two requests the same:
 * the idempotency key's scope, the body's fingerprint, the terms a cobrar repeats from its token and
 * the replayed header.
 */
import { literals, Instrumento, NOMBRE_PATTERN, httpTextForm, NONBLANK_TEXT_PATTERN, TEXT_PATTERN, TEXT_RULE, Monto } from './fields';
import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';
import { BANCOS, type Mode } from './bancos';
import { createHash } from 'node:crypto';
import { ESTADOS, MOTIVOS_RECHAZO } from '../estados';

/** The four money operations; token and cobrar share an idempotency key but are two operations. */
export const OPERATION_KINDS = ['token', 'cobrar', 'pagar', 'reverso'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

/**
 * A bare UUID. ajv's `uuid` format alone also accepts a `urn:uuid:` URN, whose first 8 characters
 * would make a meaningless test-mode bank reference (SPEC 4.10.2).
 */
export const UUID_PATTERN = '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$';

export const IdempotencyKey = Type.String({
  format: 'uuid',
  pattern: UUID_PATTERN,
  description: 'UUID (v4 recommended), unique per operation; reuse it to retry safely (SPEC 4.9, 7.4)',
});

/**
 * Plaza's C2P `motivo` carries 35 characters, the shortest of the rails, so a concepto of at most
 * 35 printable characters reaches every bank unchanged.
 */
export const Concepto = Type.String({ minLength: 1, maxLength: 35, pattern: '^[^\\u0000-\\u001f\\u007f]+$' });

export const CANALES = ['web', 'app', 'pos', 'api'] as const;
export const Canal = literals(CANALES, { description: 'Channel the merchant collected the order through' });

export const BancoPreferido = literals(BANCOS, {
  description:
    'Hint for the rail; honoured when that bank is enabled and able. Without it, test mode routes to `bnc`, the simulated bank, ' +
    'whose outcome no amount changes. Test mode, where a bank answers through its emulator (`npm start`, the test deployment): ' +
    "naming it here makes the cents of `monto.valor` pick the outcome, end to end; that bank's table is its `sandbox` in " +
    'GET /bancos (docs/sandbox.md).',
});

/** Fields every money operation shares (SPEC 2.3). Unknown fields, `mode` and `test` among them, are ignored. */
const sharedFields = {
  idempotency_key: IdempotencyKey,
  monto: Monto,
  concepto: Concepto,
  canal: Type.Optional(Canal),
  banco_preferido: Type.Optional(BancoPreferido),
} satisfies TProperties;

export const TokenBody = Type.Object({ ...sharedFields, cobrador: Instrumento, pagador: Instrumento });
export type TokenBody = Static<typeof TokenBody>;

export const Otp = Type.String({
  pattern: '^[0-9]{6,8}$',
  description:
    'OTP from the payer bank, 6 to 8 digits. Sent to the bank only: never kept in clear nor shown back (the transaction detail leaves it out)',
});
export const CobrarBody = Type.Object({ ...sharedFields, cobrador: Instrumento, pagador: Instrumento, otp: Otp });
export type CobrarBody = Static<typeof CobrarBody>;

export const PROPOSITOS = ['transferencia', 'nomina', 'proveedor'] as const;
export const VIAS = ['credito_inmediato', 'pago_movil'] as const;
export type Via = (typeof VIAS)[number];

export const PagarBody = Type.Object({
  ...sharedFields,
  ordenante: Instrumento,
  beneficiario: Instrumento,
  proposito: Type.Optional(literals(PROPOSITOS)),
  via: Type.Optional(literals(VIAS, { description: 'Rail; a destination of type cuenta always goes by credito_inmediato' })),
});
export type PagarBody = Static<typeof PagarBody>;

export const TransactionId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

export const ConsultarBody = Type.Object({ id: TransactionId });
export type ConsultarBody = Static<typeof ConsultarBody>;

/** SPEC 4.8 leaves the reverse request open: it names the operation to reverse. */
export const ReversoBody = Type.Object({
  idempotency_key: IdempotencyKey,
  id: TransactionId,
  concepto: Type.Optional(Concepto),
});
export type ReversoBody = Static<typeof ReversoBody>;

export const EstadoSchema = literals(ESTADOS, {
  description:
    'ACEPTADA (approved, settling), PENDIENTE (in interbank settlement), LIQUIDADA (settled, final), RECHAZADA (final, reason in motivo_rechazo), DESCONOCIDA (the bank may have moved the money: query /switch/v1/consultar, never resend with a new key). ERROR is listed by the contract but never produced by this switch: its own failures are retried until they pass.',
});
export const MotivoSchema = literals(MOTIVOS_RECHAZO);

/** Response of cobrar, cobrar/token, pagar, consultar and reverso (SPEC 2.4). */
export const Resultado = Type.Object({
  id: Type.String({ description: 'Transaction id, used by /consultar' }),
  estado: EstadoSchema,
  banco_usado: Type.Union([literals(BANCOS), Type.Null()], {
    description: 'Bank that processed the operation; null only when no bank was able to (BANCO_NO_DISPONIBLE by routing)',
  }),
  referencia_banco: Type.Union([Type.String(), Type.Null()]),
  endtoend: Type.Union([Type.String(), Type.Null()]),
  motivo_rechazo: Type.Union([MotivoSchema, Type.Null()]),
  intentos: Type.Integer({ minimum: 0 }),
  raw: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Untouched bank data' })),
});
export type Resultado = Static<typeof Resultado>;

/**
 * The HTTP form of the contracts' text patterns (./fields.ts): `concepto` and `nombre` refuse control
 * and invisible characters at the HTTP edge, in the schema that validates the request and that the
 * OpenAPI document publishes. The registered bus schemas keep the contracts' own patterns.
 */
const HTTP_TEXT = new Map([
  [Concepto.pattern!, { pattern: TEXT_PATTERN, description: `1 to 35 characters: ${TEXT_RULE}` }],
  [NOMBRE_PATTERN, { pattern: NONBLANK_TEXT_PATTERN, description: `1 to 40 characters, not all blank: ${TEXT_RULE}` }],
]);

/** A contract schema as the HTTP edge validates and publishes it. */
export const httpForm = <T extends TSchema>(schema: T): T => httpTextForm(schema, HTTP_TEXT);

/** Every text pattern of the HTTP form: a 400 on one of them is explained by TEXT_RULE. */
export const HTTP_TEXT_PATTERNS: ReadonlySet<string> = new Set([...HTTP_TEXT.values()].map((v) => v.pattern));

/** The response header that marks the answer to a repeated idempotency key (docs/decisions/0013-idempotency-scope-and-replay.md). */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** Canonical JSON: keys sorted at every level, so equal bodies have equal fingerprints. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Fingerprint of a validated request body: a repeat with another body under the same key is a conflict (409). */
export function fingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** The terms a cobrar must repeat from the token under its key: amount, payee account, payer. */
interface CollectionTerms {
  monto: { valor: number; moneda?: string };
  cobrador: unknown;
  pagador: unknown;
}

/**
 * The fields of a cobrar that differ from its token request (amount, payee account, payer): the gateway
 * refuses such a cobrar (422) and the transaction core rejects it if one ever reaches it.
 */
export function tokenMismatch(token: CollectionTerms, cobrar: CollectionTerms): string[] {
  const differs: string[] = [];
  if (token.monto.valor !== cobrar.monto.valor || (token.monto.moneda ?? 'VES') !== (cobrar.monto.moneda ?? 'VES')) differs.push('monto');
  if (canonicalJson(token.cobrador) !== canonicalJson(cobrar.cobrador)) differs.push('cobrador');
  if (canonicalJson(token.pagador) !== canonicalJson(cobrar.pagador)) differs.push('pagador');
  return differs;
}

/** The key an idempotency claim is stored under: one merchant, one mode, one operation kind; keys compare case-insensitively. */
export function idempotencyScope(merchantId: string, mode: Mode, kind: OperationKind, key: string): string {
  return `${merchantId}|${mode}|${kind}|${key.toLowerCase()}`;
}
