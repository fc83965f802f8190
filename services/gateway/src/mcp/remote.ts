import { REPLAYED_HEADER } from '@switch/core/contracts/operaciones';
import { parseJsonBody, withQuery, type RestPort } from './rest';

/**
 * The merchant REST API of a switch somewhere else, for the stdio server: each tool call is one HTTP
 * request with the key in `x-switch-key`. The wait is longer than the gateway's own answer timeout
 * (30 s by default), so a slow bank ends as the switch's DESCONOCIDA rather than as a cut here.
 */
export function remoteRest(baseUrl: string, switchKey: string, timeoutMs = 65_000): RestPort {
  const base = baseUrl.replace(/\/+$/, '');
  return async ({ method, path, body, query }) => {
    const headers: Record<string, string> = { 'x-switch-key': switchKey, accept: 'application/json' };
    const init: RequestInit = { method, headers, signal: AbortSignal.timeout(timeoutMs) };
    if (method === 'POST') {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body ?? {});
    }
    const res = await fetch(`${base}${withQuery(path, query)}`, init);
    return { status: res.status, body: parseJsonBody(await res.text()), replayed: res.headers.get(REPLAYED_HEADER) === 'true' };
  };
}
