import { Type, type TString } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';

/**
 * What the panel's pages read from a request, typed by route schemas (the TypeBox type provider).
 *
 * Queries and forms come from a browser: a field may be missing, repeated (an array) or anything at
 * all, and a page answers each on the page itself (the form again, with its error), never with a bare
 * 400. So their schemas name no shape a request could fail: each handler checks what it reads.
 */

/** The parameters of a path, each a string (a path parameter always is). */
export const PathParams = <K extends string>(...names: K[]) =>
  Type.Object(Object.fromEntries(names.map((name) => [name, Type.String()])) as Record<K, TString>);

/** A page's query: every field as the browser sent it. */
export const PageQuery = Type.Record(Type.String(), Type.Unknown());

const isFields = (value: unknown): value is Readonly<Record<string, unknown>> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The fields of a posted form. Forms get no body schema: validation would run before the CSRF check
 * and answer a request without a form (no body at all) with a 400 where the panel answers 403.
 */
export const formOf = (request: FastifyRequest): Readonly<Record<string, unknown>> => (isFields(request.body) ? request.body : {});

/** One field of the query, for a hook that runs on every page (no route schema types it there). */
export const queryField = (request: FastifyRequest, name: string): unknown => (isFields(request.query) ? request.query[name] : undefined);
