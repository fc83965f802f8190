/**
 * The one way a tool reaches the switch: a request of the merchant REST API, made with the caller's
 * own key. In the gateway it is injected into the same Fastify app (so validation, idempotency, rate
 * limits and error bodies are literally the REST API's); in the stdio server it goes over the network.
 */
export interface RestRequest {
  method: 'GET' | 'POST';
  /** Path under the base URL, e.g. `/switch/v1/pagar`. */
  path: string;
  /** JSON body of a POST. */
  body?: unknown;
  /** Query string of a GET, already as strings. */
  query?: Record<string, string>;
}

export interface RestAnswer {
  status: number;
  /** Parsed JSON body; a body that is not JSON is kept as its text. */
  body: unknown;
  /** The answer is a replay: the idempotency_key had been used already (header `idempotent-replayed: true`). */
  replayed?: boolean;
}

export type RestPort = (request: RestRequest) => Promise<RestAnswer>;

/** `path?a=1&b=2` for a GET's query. */
export function withQuery(path: string, query: Record<string, string> | undefined): string {
  const search = new URLSearchParams(query ?? {}).toString();
  return search ? `${path}?${search}` : path;
}

export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
