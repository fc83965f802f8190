/** The served OpenAPI document with every local `$ref` replaced by what it names (for reading it in tests). */
export function dereferenced<T>(doc: T): T {
  const resolve = (pointer: string): unknown =>
    pointer
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc as unknown);
  const walk = (node: unknown, seen: string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen));
    if (node === null || typeof node !== 'object') return node;
    const o = node as Record<string, unknown>;
    if (typeof o.$ref === 'string' && o.$ref.startsWith('#/')) {
      if (seen.includes(o.$ref)) throw new Error(`circular $ref ${o.$ref}`);
      const { $ref, ...siblings } = o;
      return { ...(walk(resolve($ref), [...seen, $ref]) as object), ...siblings };
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, walk(v, seen)]));
  };
  return walk(doc, []) as T;
}
