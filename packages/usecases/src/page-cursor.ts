import type { PageCursor } from '@switch/platform/ports/transaction-reads';

/** The opaque cursor of a newest-first page: the last row's time and id. */
export function encodeCursor(c: PageCursor): string {
  return Buffer.from(JSON.stringify([c.createdAt, c.id])).toString('base64url');
}

/** The cursor `encodeCursor` wrote, or null for anything else (a 400 naming `cursor` at the edge). */
export function decodeCursor(s: string): PageCursor | null {
  try {
    const v: unknown = JSON.parse(Buffer.from(s, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string' && !Number.isNaN(Date.parse(v[0])))
      return { createdAt: v[0], id: v[1] };
  } catch {
    // not a cursor of ours
  }
  return null;
}
