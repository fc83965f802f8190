/**
 * Reversible encoding of arbitrary JSON (a bank's raw answer) into documents that both MongoDB and
 * FerretDB 1.24 accept.
 *
 * - Object keys: `%` → `%25`, `.` → `%2E`, `$` → `%24` (percent-encoding). MongoDB and FerretDB refuse
 *   keys containing `.` or starting with `$`; `$` is escaped anywhere and `%` itself is escaped, so
 *   every `%` in a stored key starts one of these three escapes and decoding is unambiguous.
 *   Keys without those characters are stored as they are, so the switch's own fields stay queryable.
 * - An array directly inside an array (FerretDB rejects nested arrays, code 2) is stored as
 *   `{ "%array": [...] }`. No encoded key can be `%array` (its `%` is not followed by 25/2E/24), so
 *   the wrapper cannot be confused with bank data.
 *
 * Only plain objects and arrays are walked; strings, numbers, booleans, null (and any BSON values)
 * are kept as they are.
 */
const ARRAY_WRAPPER = '%array';
const ESCAPES: Record<string, string> = { '%': '%25', '.': '%2E', $: '%24' };
const UNESCAPES: Record<string, string> = { '%25': '%', '%2E': '.', '%24': '$' };

export const encodeKey = (key: string): string => key.replace(/[%.$]/g, (c) => ESCAPES[c]!);
export const decodeKey = (key: string): string => key.replace(/%(?:25|2E|24)/g, (e) => UNESCAPES[e]!);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function encodeDocument(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => (Array.isArray(item) ? { [ARRAY_WRAPPER]: encodeDocument(item) } : encodeDocument(item)));
  }
  if (!isPlainObject(value)) return value;
  // fromEntries defines own properties, so a bank key such as "__proto__" stays data.
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [encodeKey(k), encodeDocument(v)]));
}

export function decodeDocument(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => {
      if (isPlainObject(item)) {
        const keys = Object.keys(item);
        if (keys.length === 1 && keys[0] === ARRAY_WRAPPER && Array.isArray(item[ARRAY_WRAPPER])) {
          return decodeDocument(item[ARRAY_WRAPPER]);
        }
      }
      return decodeDocument(item);
    });
  }
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [decodeKey(k), decodeDocument(v)]));
}
