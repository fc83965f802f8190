import type { FastifyRequest } from 'fastify';
import type { PageCursor } from '@switch/platform/ports/transaction-reads';
import { queryField } from './fields';

/** Deliveries shown per page (an endpoint's, a transaction's): newest first, then older ones by a cursor. */
export const DELIVERIES_PAGE = 25;

const cursorText = (c: PageCursor): string => Buffer.from(JSON.stringify([c.createdAt, c.id])).toString('base64url');

/** The cursor of an "older deliveries" link; null when it is not one of ours. */
function cursorOf(text: string): PageCursor | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'string' && typeof v[1] === 'string') return { createdAt: v[0], id: v[1] };
  } catch {
    // not a cursor of ours: the first page
  }
  return null;
}

/** Where the request's page of deliveries starts (`desde_entrega`); undefined for the first page. */
export function deliveriesAfter(request: FastifyRequest): PageCursor | undefined {
  const from = queryField(request, 'desde_entrega');
  return typeof from === 'string' ? (cursorOf(from) ?? undefined) : undefined;
}

/**
 * A page read with one row more than it shows (`DELIVERIES_PAGE + 1`): the rows to show and the
 * query string of the next page's link, null on the last page.
 */
export function deliveryPage<T extends { createdAt: string; id: string }>(rows: T[]): { shown: T[]; next: string | null } {
  const last = rows.length > DELIVERIES_PAGE ? rows[DELIVERIES_PAGE - 1] : undefined;
  return {
    shown: rows.slice(0, DELIVERIES_PAGE),
    next: last ? `?desde_entrega=${cursorText({ createdAt: last.createdAt, id: last.id })}` : null,
  };
}
