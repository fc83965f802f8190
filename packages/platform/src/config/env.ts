import {
  Kind,
  OptionalKind,
  Type,
  type Static,
  type TLiteral,
  type TObject,
  type TProperties,
  type TSchema,
  type TUnion,
} from '@sinclair/typebox';

/**
 * Typed configuration from the environment. Each variable is declared once as a TypeBox schema that
 * carries its name (`env`), type, default and a one-line description; a service composes the groups it
 * reads into one object schema and reads it once at start (`readSettings`). The same declarations
 * write docs/configuration.md (`renderReference`), so the documentation cannot drift from the code.
 */

/** A bad value, named: the service refuses to start with this message. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    problem: string,
  ) {
    super(`configuration ${variable}: ${problem}`);
  }
}

/** Where settings are read from: the process environment at start, or a test's own record. */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** What a declared variable carries besides its type. */
interface Declared {
  /** The environment variable. */
  env: string;
  description: string;
  /** How the default reads in the documentation when it is not a plain value ("host name and port"). */
  defaultText?: string;
  /** An empty value is kept as `''` (it means "none"), not taken as unset. */
  keepEmpty?: boolean;
}

interface Range {
  min?: number;
  max?: number;
}

const range = (r: Range) => ({ ...(r.min !== undefined ? { minimum: r.min } : {}), ...(r.max !== undefined ? { maximum: r.max } : {}) });

/** The declarations: each returns the variable's TypeBox schema, so a group's static type follows from them. */
export const setting = {
  int: (env: string, fallback: number, description: string, r: Range = {}, doc: Partial<Declared> = {}) =>
    Type.Integer({ env, description, default: fallback, ...range(r), ...doc }),
  optionalInt: (env: string, description: string, r: Range = {}, doc: Partial<Declared> = {}) =>
    Type.Optional(Type.Integer({ env, description, ...range(r), ...doc })),
  /** A decimal number (a probability). */
  number: (env: string, fallback: number, description: string, r: Range = {}) =>
    Type.Number({ env, description, default: fallback, ...range(r) }),
  bool: (env: string, fallback: boolean, description: string, doc: Partial<Declared> = {}) =>
    Type.Boolean({ env, description, default: fallback, ...doc }),
  optionalBool: (env: string, description: string, doc: Partial<Declared> = {}) =>
    Type.Optional(Type.Boolean({ env, description, ...doc })),
  string: (env: string, fallback: string, description: string, doc: Partial<Declared> = {}) =>
    Type.String({ env, description, default: fallback, ...doc }),
  optionalString: (env: string, description: string, doc: Partial<Declared> = {}) =>
    Type.Optional(Type.String({ env, description, ...doc })),
  oneOf: <const V extends string>(env: string, values: readonly [V, ...V[]], fallback: NoInfer<V>, description: string) =>
    Type.Union(
      values.map((v) => Type.Literal(v)),
      { env, description, default: fallback },
    ) as unknown as TUnion<TLiteral<V>[]>,
  /** Comma-separated milliseconds (a retry or backoff schedule). */
  durations: (env: string, fallback: readonly number[], description: string) =>
    Type.Array(Type.Integer({ minimum: 0 }), { env, description, default: [...fallback] }),
};

/** A group of settings, or a service's composition of groups (nested objects are groups). */
export const settings = <T extends TProperties>(properties: T, description?: string): TObject<T> =>
  Type.Object(properties, description ? { description } : {});

const declared = (s: TSchema): (TSchema & Declared) | undefined => (typeof s.env === 'string' ? (s as TSchema & Declared) : undefined);

/**
 * Reads `schema`'s variables from `source` (by default the process environment, read here and nowhere
 * else). A value that does not fit its declaration throws a ConfigError naming the variable.
 */
export function readSettings<T extends TProperties>(schema: TObject<T>, source: EnvSource = process.env): Static<TObject<T>> {
  const out: Record<string, unknown> = {};
  for (const [key, s] of Object.entries(schema.properties)) {
    const d = declared(s);
    if (!d) {
      out[key] = readSettings(s as TObject, source);
      continue;
    }
    const value = readOne(d, source[d.env]);
    if (value !== undefined) out[key] = value;
  }
  return out as Static<TObject<T>>;
}

function readOne(s: TSchema & Declared, text: string | undefined): unknown {
  const name = s.env;
  const v = text?.trim();
  if (v === undefined || v === '') {
    if (s.keepEmpty && v === '') return '';
    if (s.default !== undefined) return Array.isArray(s.default) ? [...s.default] : s.default;
    if (s[OptionalKind] === 'Optional') return undefined;
    throw new ConfigError(name, 'is required');
  }
  switch (s[Kind]) {
    case 'Integer': {
      if (!/^-?[0-9]+$/.test(v)) throw new ConfigError(name, `"${v}" is not an integer`);
      return inRange(name, Number(v), s);
    }
    case 'Number': {
      const n = Number(v);
      if (!Number.isFinite(n)) throw new ConfigError(name, `"${v}" is not a number`);
      return inRange(name, n, s);
    }
    case 'Boolean': {
      if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
      if (['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
      throw new ConfigError(name, `"${v}" is not a boolean (true/false)`);
    }
    case 'Union': {
      const values = literals(s);
      if (!values.includes(v)) throw new ConfigError(name, `"${v}" is not one of ${values.join(', ')}`);
      return v;
    }
    case 'Array': {
      const steps = v.split(',').map((x) => x.trim());
      if (steps.some((x) => !/^[0-9]+$/.test(x))) throw new ConfigError(name, `"${v}" is not a comma-separated list of milliseconds`);
      return steps.map(Number);
    }
    default:
      return v;
  }
}

function inRange(name: string, n: number, s: TSchema): number {
  if (typeof s.minimum === 'number' && n < s.minimum) throw new ConfigError(name, `${n} is below the minimum ${s.minimum}`);
  if (typeof s.maximum === 'number' && n > s.maximum) throw new ConfigError(name, `${n} is above the maximum ${s.maximum}`);
  return n;
}

const literals = (s: TSchema): string[] => (s.anyOf as TSchema[]).map((l) => String(l.const));

/** One declared variable as the documentation shows it. */
export interface SettingDoc {
  variable: string;
  type: string;
  default: string;
  description: string;
}

/** Every variable `schema` declares, in declaration order (nested groups included). */
export function settingDocs(schema: TObject): SettingDoc[] {
  return Object.values(schema.properties).flatMap((s) => {
    const d = declared(s);
    if (!d) return settingDocs(s as TObject);
    return [{ variable: d.env, type: typeText(d), default: defaultText(d), description: d.description }];
  });
}

function typeText(s: TSchema): string {
  const bounds = typeof s.minimum === 'number' || typeof s.maximum === 'number' ? ` ${s.minimum ?? '…'}–${s.maximum ?? '…'}` : '';
  switch (s[Kind]) {
    case 'Integer':
      return `integer${bounds}`;
    case 'Number':
      return `number${bounds}`;
    case 'Boolean':
      return 'boolean';
    case 'Union':
      return literals(s)
        .map((l) => `\`${l}\``)
        .join(', ');
    case 'Array':
      return 'ms list';
    default:
      return 'string';
  }
}

function defaultText(s: TSchema & Declared): string {
  if (s.defaultText !== undefined) return s.defaultText;
  if (s.default === undefined) return 'unset';
  if (Array.isArray(s.default)) return `\`${s.default.join(',')}\``;
  if (s.default === '') return 'empty';
  return `\`${String(s.default)}\``;
}

/** A markdown table of settings, its columns padded as the formatter (Biome) aligns them. */
function table(docs: SettingDoc[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = [
    ['variable', 'type', 'default', 'meaning'],
    ...docs.map((d) => [`\`${d.variable}\``, cell(d.type), cell(d.default), cell(d.description)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(3, ...rows.map((r) => [...r[i]!].length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c + ' '.repeat(widths[i]! - [...c].length)).join(' | ')} |`;
  return [line(rows[0]!), `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.slice(1).map(line)].join('\n');
}

/** One process and the settings it reads (each a group or a composition of groups). */
export interface ServiceSettings {
  name: string;
  about: string;
  settings: TObject[];
}

interface Group {
  title: string;
  docs: SettingDoc[];
}

/** The titled groups of a schema (an untitled object is a composition: its groups are looked for inside). */
function groupsOf(schema: TObject): Group[] {
  const own = Object.values(schema.properties).filter((s) => declared(s));
  const nested = Object.values(schema.properties).filter((s) => !declared(s)) as TObject[];
  const here =
    own.length > 0 ? [{ title: schema.description ?? '', docs: settingDocs(settings(Object.fromEntries(own.map((s, i) => [i, s])))) }] : [];
  return [...here, ...nested.flatMap((n) => (n.description ? [{ title: n.description, docs: settingDocs(n) }] : groupsOf(n)))];
}

const anchor = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .trim()
    .replace(/ /g, '-');

/**
 * The configuration reference of `services`: the groups read by more than one process once (same
 * variables, same defaults), then each process with the shared groups it reads and its own tables.
 */
export function renderReference(services: ServiceSettings[]): string {
  const key = (g: Group) => `${g.title}\n${table(g.docs)}`;
  const perService = services.map((s) => {
    const seen = new Set<string>();
    const groups: Group[] = [];
    for (const g of s.settings.flatMap(groupsOf)) {
      const docs = g.docs.filter((d) => !seen.has(d.variable));
      for (const d of docs) seen.add(d.variable);
      if (docs.length > 0) groups.push({ title: g.title || s.name, docs });
    }
    return { service: s, groups };
  });
  const uses = new Map<string, number>();
  for (const { groups } of perService) for (const k of new Set(groups.map(key))) uses.set(k, (uses.get(k) ?? 0) + 1);
  const shared = new Map<string, Group>();
  for (const { groups } of perService) for (const g of groups) if ((uses.get(key(g)) ?? 0) > 1) shared.set(key(g), g);
  const out: string[] = ['## Shared groups', ''];
  for (const g of shared.values()) out.push(`### ${g.title} settings`, '', table(g.docs), '');
  out.push('## Per process', '');
  for (const { service, groups } of perService) {
    out.push(`### ${service.name}`, '', service.about, '');
    const common = groups.filter((g) => shared.has(key(g))).map((g) => `[${g.title}](#${anchor(`${g.title} settings`)})`);
    if (common.length > 0) out.push(`Reads the shared groups ${common.join(', ')}.`, '');
    for (const g of groups.filter((x) => !shared.has(key(x)))) out.push(`#### ${g.title}`, '', table(g.docs), '');
  }
  return out.join('\n').trimEnd();
}

/**
 * `schema`'s values by variable name, for settings declared per prefix (a bank's `<BANK>_TEST_*` and
 * `<BANK>_LIVE_*`). Asking for a variable the schema does not declare is a programming error.
 */
export function readVariables(schema: TObject, source?: EnvSource): <T = string | undefined>(variable: string) => T {
  const values = new Map<string, unknown>();
  const walk = (s: TObject, read: Record<string, unknown>) => {
    for (const [key, p] of Object.entries(s.properties)) {
      const d = declared(p);
      if (d) values.set(d.env, read[key]);
      else walk(p as TObject, read[key] as Record<string, unknown>);
    }
  };
  walk(schema, readSettings(schema, source) as Record<string, unknown>);
  return <T>(variable: string): T => {
    if (!values.has(variable)) throw new Error(`${variable} is not declared in this configuration`);
    return values.get(variable) as T;
  };
}

/**
 * A copy of the process environment, taken once at start, for a process that derives several
 * services' configurations from it (the embedded switch overlays its own defaults on it).
 */
export function environmentSnapshot(): EnvSource {
  return { ...process.env };
}
