/**
 * The memory adapters' copy of what they keep and hand out (so a caller never shares a stored
 * object): a deep copy of plain data (JSON-like records, messages and transaction documents), what
 * `structuredClone` gives for them, several times cheaper (no serialisation round trip). Anything
 * else (a Date, a Map, a typed array, a class instance) is copied by `structuredClone` itself, so the
 * isolation semantics are the same for every value. Own enumerable keys only; a `__proto__` key stays
 * data, as in the original.
 */
export function clonePlain<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = clonePlain(value[i]);
    return out as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copy = clonePlain((value as Record<string, unknown>)[key]);
    // Assigning `__proto__` would set the copy's prototype (JSON.parse makes it an own key): defined instead.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}
