import { createCipheriv, createDecipheriv, createHash, pbkdf2Sync } from 'node:crypto';
import { caracasDate } from '@switch/connector-kit/formats';
import type { GuardedSend } from '@switch/connector-kit/send';
import { classify, extractCode, messageText } from './codes';

/**
 * BNC "ESolutions" protocol: the envelope and crypto (PROTOCOLS §1.2, pure functions shared by the
 * connector and the emulator so both sides speak exactly the same bytes), the day's WorkingKey
 * session (§1.3) and the transport over the kit's guarded send.
 *
 * Every call is `POST {ClientGUID, Reference, Value, Validation, swTestOperation}` where `Value` is
 * the inner JSON, UTF-16LE, AES-256-CBC/PKCS7 with key and IV from the classic .NET
 * `Rfc2898DeriveBytes(key, "Ivan Medvedev")` derivation, base64; `Validation` is the lowercase hex
 * SHA-256 of the same inner JSON in UTF-8. Answers are `{status, message, value, validation}`,
 * `value` encrypted with the key the request used.
 */

/** "Ivan Medvedev": the salt of the .NET snippet BNC's doc copies. */
export const BNC_SALT = Buffer.from([0x49, 0x76, 0x61, 0x6e, 0x20, 0x4d, 0x65, 0x64, 0x76, 0x65, 0x64, 0x65, 0x76]);
export const PBKDF2_ITERATIONS = 1000;

export interface KeyMaterial {
  key: Buffer;
  iv: Buffer;
}

// The derivation costs 1000 SHA-1 rounds; one key (the day's WorkingKey) serves every call.
const derived = new Map<string, KeyMaterial>();
const DERIVED_CACHE_LIMIT = 64;

export function deriveKeyMaterial(encryptionKey: string): KeyMaterial {
  const cached = derived.get(encryptionKey);
  if (cached) return cached;
  const dk = pbkdf2Sync(Buffer.from(encryptionKey, 'utf8'), BNC_SALT, PBKDF2_ITERATIONS, 48, 'sha1');
  const material = { key: dk.subarray(0, 32), iv: dk.subarray(32, 48) };
  if (derived.size >= DERIVED_CACHE_LIMIT) derived.delete(derived.keys().next().value as string);
  derived.set(encryptionKey, material);
  return material;
}

/** `Value`: base64 of AES-256-CBC over the UTF-16LE text. */
export function encryptValue(plaintext: string, encryptionKey: string): string {
  const { key, iv } = deriveKeyMaterial(encryptionKey);
  const cipher = createCipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([cipher.update(Buffer.from(plaintext, 'utf16le')), cipher.final()]).toString('base64');
}

/** Inverse of `encryptValue`; throws when the key is wrong (bad padding) or the text is not base64 AES. */
export function decryptValue(value: string, encryptionKey: string): string {
  const { key, iv } = deriveKeyMaterial(encryptionKey);
  const decipher = createDecipheriv('aes-256-cbc', key, iv);
  return Buffer.concat([decipher.update(Buffer.from(value, 'base64')), decipher.final()]).toString('utf16le');
}

/** `Validation`: lowercase hex SHA-256 of the inner JSON in UTF-8 (not UTF-16: verified on the doc's vector). */
export function validationOf(plaintext: string): string {
  return createHash('sha256').update(plaintext, 'utf8').digest('hex');
}

export interface BncRequestEnvelope {
  ClientGUID: string;
  Reference: string;
  Value: string;
  Validation: string;
  swTestOperation: boolean;
}

/** Seals an inner request. The JSON string is made once, so the ciphertext and the hash cover the same text. */
export function sealRequest(input: {
  clientGuid: string;
  reference: string;
  inner: unknown;
  encryptionKey: string;
  testOperation?: boolean;
}): BncRequestEnvelope {
  const plaintext = JSON.stringify(input.inner);
  return {
    ClientGUID: input.clientGuid,
    Reference: input.reference,
    Value: encryptValue(plaintext, input.encryptionKey),
    Validation: validationOf(plaintext),
    swTestOperation: input.testOperation ?? false,
  };
}

export interface BncResponseEnvelope {
  status: string;
  message: string;
  value: string | null;
  validation: string | null;
}

/** Builds an answer the way BNC does (used by the emulator; `inner` null for answers without a value). */
export function sealResponse(status: 'OK' | 'KO', message: string, inner: unknown, encryptionKey: string | null): BncResponseEnvelope {
  if (inner === null || inner === undefined || encryptionKey === null) return { status, message, value: null, validation: null };
  const plaintext = JSON.stringify(inner);
  return { status, message, value: encryptValue(plaintext, encryptionKey), validation: validationOf(plaintext) };
}

/**
 * Reads a field whatever its casing: the bank is ASP.NET (case-insensitive binding) and clients in
 * the wild send `value` as well as `Value`.
 */
export function field(obj: Record<string, unknown>, name: string): unknown {
  if (name in obj) return obj[name];
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(obj)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

/** Parses an answer body into the envelope, or null when it is not one (an HTML error page, a proxy's text). */
export function parseResponseEnvelope(body: string): { envelope: BncResponseEnvelope; json: Record<string, unknown> } | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return null;
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const obj = json as Record<string, unknown>;
  const status = field(obj, 'status');
  const message = field(obj, 'message');
  if (typeof status !== 'string' || typeof message !== 'string') return null;
  const value = field(obj, 'value');
  const validation = field(obj, 'validation');
  return {
    envelope: {
      status: status.toUpperCase(),
      message,
      value: typeof value === 'string' && value !== '' ? value : null,
      validation: typeof validation === 'string' && validation !== '' ? validation : null,
    },
    json: obj,
  };
}

export type OpenedValue =
  | { ok: true; value: unknown; plaintext: string }
  | { ok: true; value: null; plaintext: null }
  | { ok: false; problem: string };

/**
 * Decrypts and checks an answer's `value`: the validation must be the SHA-256 of the decrypted text
 * (verified on the doc's BCVRates example). An answer without a value opens to null.
 */
export function openValue(envelope: Pick<BncResponseEnvelope, 'value' | 'validation'>, encryptionKey: string): OpenedValue {
  if (envelope.value === null) return { ok: true, value: null, plaintext: null };
  let plaintext: string;
  try {
    plaintext = decryptValue(envelope.value, encryptionKey);
  } catch {
    return { ok: false, problem: 'value does not decrypt with the request key' };
  }
  if (envelope.validation !== null && envelope.validation.toLowerCase() !== validationOf(plaintext)) {
    return { ok: false, problem: 'validation does not match the decrypted value' };
  }
  try {
    return { ok: true, value: JSON.parse(plaintext) as unknown, plaintext };
  } catch {
    return { ok: false, problem: 'decrypted value is not JSON' };
  }
}

/** A WorkingKey as the doc shows it: 32 hex characters. */
export const WORKING_KEY_PATTERN = /^[0-9a-fA-F]{32}$/;

// ── Session (PROTOCOLS §1.3) ──────────────────────────────────────────────────────────────────

/** What a logon came to: a WorkingKey, or why the order cannot be sent. */
export type LogonResult =
  | { ok: true; workingKey: string }
  /** The bank refused our credentials: FIRMA_AUTH, never rerouted. */
  | { ok: false; kind: 'auth'; raw: Record<string, unknown> }
  /** No key could be had (bank unreachable, logon failed on its side): the order was never sent. */
  | { ok: false; kind: 'not_sent'; raw: Record<string, unknown> };

/**
 * The day's WorkingKey (PROTOCOLS §1.3). It dies at midnight Venezuelan time of the day it was
 * issued, so a key from an earlier day is replaced before use rather than after a refusal; a key the
 * bank revokes earlier is dropped with `invalidate` on EPIRWK. Concurrent callers share one logon.
 */
export class WorkingKeySession {
  private current: { key: string; day: string } | null = null;
  private pending: Promise<LogonResult> | null = null;
  private logons = 0;

  constructor(
    private readonly logon: () => Promise<LogonResult>,
    private readonly now: () => Date,
  ) {}

  /** Logons made so far (tests: "no second logon", "logged on again after midnight"). */
  get logonCount(): number {
    return this.logons;
  }

  async key(): Promise<LogonResult> {
    const today = caracasDate(this.now());
    if (this.current && this.current.day === today) return { ok: true, workingKey: this.current.key };
    if (!this.pending) {
      this.logons++;
      this.pending = this.logon()
        .then((result) => {
          if (result.ok) this.current = { key: result.workingKey, day: today };
          return result;
        })
        .finally(() => {
          this.pending = null;
        });
    }
    return this.pending;
  }

  /** Drops the key the bank refused; a key already replaced by another caller's logon is kept. */
  invalidate(workingKey: string): void {
    if (this.current?.key === workingKey) this.current = null;
  }
}

// ── Transport ─────────────────────────────────────────────────────────────────────────────────

/** A readable BNC answer: the envelope, its code and the decrypted value. */
export interface BncAnswer {
  httpStatus: number;
  status: string;
  message: string;
  code: string | null;
  text: string;
  /** The decrypted `value` (null when the answer has none or it could not be opened). */
  value: unknown;
  /** Why `value` could not be opened, when it could not. */
  valueProblem: string | null;
  /** The answer body as received (encrypted value included). */
  body: Record<string, unknown>;
}

/**
 * What one call to BNC came to. `not_sent`: provably never reached the bank (refused connection,
 * breaker open, no WorkingKey could be had). `unknown`: sent, no complete answer. `auth`: the bank
 * refused our credentials (logon refused, or EPIRWK again with a fresh key). `http_error`: an answer
 * that is not BNC's envelope (a proxy page, an IIS error). `answer`: BNC's envelope.
 */
export type BncCall =
  | { kind: 'answer'; answer: BncAnswer; relogon: boolean }
  | { kind: 'not_sent'; raw: Record<string, unknown> }
  | { kind: 'unknown'; raw: Record<string, unknown> }
  | { kind: 'auth'; raw: Record<string, unknown> }
  | { kind: 'http_error'; raw: Record<string, unknown>; httpStatus: number };

export interface BncClientConfig {
  baseUrl: string;
  clientGuid: string;
  masterKey: string;
}

type Sent = Exclude<BncCall, { kind: 'answer' } | { kind: 'auth' }> | { kind: 'answer'; answer: BncAnswer };

type Posted =
  | { kind: 'answer'; answer: BncAnswer }
  | { kind: 'not_sent'; reason: string }
  | { kind: 'unknown'; reason: string }
  | { kind: 'http_error'; httpStatus: number; body: string };

export const LOGON_PATH = 'Auth/LogOn';

/**
 * BNC's transport over the kit's guarded send (its breaker per path, its HTTP client and timeouts): seals each inner request with the right key, sends it through the breaker of its
 * operation, opens the answer, and handles the WorkingKey (logon, midnight expiry, one retry on
 * EPIRWK: the bank refused the key before looking at the order, so the retry cannot run it twice).
 */
export class BncClient {
  readonly session: WorkingKeySession;
  private seq = 0;

  private readonly now: () => Date;

  constructor(
    private readonly config: BncClientConfig,
    private readonly kit: GuardedSend,
  ) {
    this.now = kit.now;
    this.session = new WorkingKeySession(() => this.logon(), this.now);
  }

  /** A fresh `Reference` for calls that are not orders (logon, queries): unique in the day. */
  freshReference(prefix: string): string {
    const stamp = this.now()
      .toISOString()
      .replace(/[^0-9]/g, '')
      .slice(0, 14);
    this.seq = (this.seq + 1) % 1_000_000;
    return `${prefix}${stamp}${String(this.seq).padStart(6, '0')}${Math.floor(Math.random() * 1e6).toString(36)}`;
  }

  async call(path: string, inner: Record<string, unknown>, reference: string): Promise<BncCall> {
    const first = await this.session.key();
    if (!first.ok) return logonFailure(first);
    const sent = await this.send(path, inner, reference, first.workingKey);
    if (sent.kind !== 'answer') return sent;
    if (sent.answer.code !== 'EPIRWK') return { kind: 'answer', answer: sent.answer, relogon: false };

    this.session.invalidate(first.workingKey);
    const second = await this.session.key();
    if (!second.ok) return logonFailure(second);
    const retried = await this.send(path, inner, reference, second.workingKey);
    if (retried.kind === 'answer' && retried.answer.code === 'EPIRWK') {
      // A key the bank issued a moment ago refused again: a credential problem, not a stale key.
      this.session.invalidate(second.workingKey);
      return { kind: 'auth', raw: { ...answerRaw(retried.answer), relogon: true } };
    }
    return retried.kind === 'answer' ? { kind: 'answer', answer: retried.answer, relogon: true } : retried;
  }

  private async send(path: string, inner: Record<string, unknown>, reference: string, key: string): Promise<Sent> {
    const envelope = sealRequest({ clientGuid: this.config.clientGuid, reference, inner, encryptionKey: key });
    const posted = await this.post(path, envelope, key);
    switch (posted.kind) {
      case 'answer':
        return posted;
      case 'not_sent':
        return { kind: 'not_sent', raw: { reason: posted.reason, path, reference } };
      case 'unknown':
        return { kind: 'unknown', raw: { reason: posted.reason, path, reference } };
      case 'http_error':
        return {
          kind: 'http_error',
          httpStatus: posted.httpStatus,
          raw: { http_status: posted.httpStatus, body: posted.body.slice(0, 2000), path, reference },
        };
    }
  }

  private async post(path: string, envelope: BncRequestEnvelope, key: string): Promise<Posted> {
    const url = `${this.config.baseUrl.replace(/\/+$/, '')}/${path}`;
    const result = await this.kit.send({
      operation: path,
      url,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(envelope),
    });
    if (result.kind !== 'response') return { kind: result.kind, reason: String(result.raw.reason) };
    const parsed = parseResponseEnvelope(result.body);
    if (!parsed) return { kind: 'http_error', httpStatus: result.status, body: result.body };
    const { envelope: env, json } = parsed;
    const opened = openValue(env, key);
    const code = extractCode(env.message);
    return {
      kind: 'answer',
      answer: {
        httpStatus: result.status,
        status: env.status,
        message: env.message,
        code,
        text: messageText(env.message, code),
        value: opened.ok ? opened.value : null,
        valueProblem: opened.ok ? null : opened.problem,
        body: json,
      },
    };
  }

  private async logon(): Promise<LogonResult> {
    const inner = { ClientGUID: this.config.clientGuid };
    const envelope = sealRequest({
      clientGuid: this.config.clientGuid,
      reference: this.freshReference('L'),
      inner,
      encryptionKey: this.config.masterKey,
    });
    const posted = await this.post(LOGON_PATH, envelope, this.config.masterKey);
    switch (posted.kind) {
      case 'not_sent':
      case 'unknown':
        // A logon moves no money; without a key the order itself is never sent.
        return { ok: false, kind: 'not_sent', raw: { etapa: 'logon', reason: posted.reason } };
      case 'http_error': {
        const raw = { etapa: 'logon', http_status: posted.httpStatus, body: posted.body.slice(0, 2000) };
        return [401, 403, 404].includes(posted.httpStatus) ? { ok: false, kind: 'auth', raw } : { ok: false, kind: 'not_sent', raw };
      }
      case 'answer': {
        const a = posted.answer;
        // The logon's value is the WorkingKey itself: it never goes into `raw`.
        const raw = { etapa: 'logon', ...answerRaw(a), value: null, body: { status: a.status, message: a.message } };
        if (a.status === 'OK') {
          const key = (a.value as { WorkingKey?: unknown } | null)?.WorkingKey;
          if (typeof key === 'string' && WORKING_KEY_PATTERN.test(key)) return { ok: true, workingKey: key };
          // An OK we cannot open with our MasterKey means the keys do not match.
          return { ok: false, kind: 'auth', raw: { ...raw, problem: a.valueProblem ?? 'no WorkingKey in the logon answer' } };
        }
        const c = classify(a.code, 'query');
        return c.motivo === 'FIRMA_AUTH' ? { ok: false, kind: 'auth', raw } : { ok: false, kind: 'not_sent', raw };
      }
    }
  }
}

function logonFailure(result: Extract<LogonResult, { ok: false }>): BncCall {
  return result.kind === 'auth' ? { kind: 'auth', raw: result.raw } : { kind: 'not_sent', raw: result.raw };
}

/** The bank's answer as kept in `raw`: its status, code, text, decrypted value and the body as received. */
export function answerRaw(a: BncAnswer): Record<string, unknown> {
  return {
    http_status: a.httpStatus,
    status: a.status,
    codigo: a.code,
    descripcion: a.text,
    message: a.message,
    value: a.value,
    ...(a.valueProblem ? { value_problem: a.valueProblem } : {}),
    body: a.body,
  };
}
