import type { BankBreakers, BankHttpClient } from '@switch/shared';
import { classify, extractCode, messageText } from './codes';
import { openValue, parseResponseEnvelope, sealRequest, WORKING_KEY_PATTERN, type BncRequestEnvelope } from './protocol';
import { WorkingKeySession, type LogonResult } from './session';

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
  timeoutMs: number;
}

type Sent = Exclude<BncCall, { kind: 'answer' } | { kind: 'auth' }> | { kind: 'answer'; answer: BncAnswer };

type Posted =
  | { kind: 'answer'; answer: BncAnswer }
  | { kind: 'not_sent'; reason: string }
  | { kind: 'unknown'; reason: string }
  | { kind: 'http_error'; httpStatus: number; body: string };

export const LOGON_PATH = 'Auth/LogOn';

/**
 * BNC's transport: seals each inner request with the right key, sends it through the breaker of its
 * operation, opens the answer, and handles the WorkingKey (logon, midnight expiry, one retry on
 * EPIRWK: the bank refused the key before looking at the order, so the retry cannot run it twice).
 */
export class BncClient {
  readonly session: WorkingKeySession;
  private seq = 0;

  constructor(
    private readonly config: BncClientConfig,
    private readonly http: BankHttpClient,
    private readonly breakers: BankBreakers,
    private readonly now: () => Date,
  ) {
    this.session = new WorkingKeySession(() => this.logon(), now);
  }

  /** A fresh `Reference` for calls that are not orders (logon, queries): unique in the day. */
  freshReference(prefix: string): string {
    const stamp = this.now().toISOString().replace(/[^0-9]/g, '').slice(0, 14);
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
        return { kind: 'http_error', httpStatus: posted.httpStatus, raw: { http_status: posted.httpStatus, body: posted.body.slice(0, 2000), path, reference } };
    }
  }

  private async post(path: string, envelope: BncRequestEnvelope, key: string): Promise<Posted> {
    const url = `${this.config.baseUrl.replace(/\/+$/, '')}/${path}`;
    const result = await this.breakers.call(path, () =>
      this.http.send({ url, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(envelope), timeoutMs: this.config.timeoutMs }),
    );
    if (result.kind !== 'response') return result;
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
    const envelope = sealRequest({ clientGuid: this.config.clientGuid, reference: this.freshReference('L'), inner, encryptionKey: this.config.masterKey });
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
