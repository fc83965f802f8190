import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Static } from '@sinclair/typebox';
import { setting, settings } from '@switch/platform/config/env';

/**
 * `npm run switch -- <command>`: the operator's onboarding tool. It talks to the running switch's
 * admin API, so it works the same against the embedded default and a deployed gateway.
 */
export const USAGE = `Usage: npm run switch -- <command> [options]

  merchant create --id <id> --nombre <name>       create a merchant
  merchant list                                    list merchants
  key issue --merchant <id> --mode test|live       issue an API key (the secret is shown once)
  key list --merchant <id>                         list a merchant's keys (no secrets)
  key revoke --merchant <id> --key <key id>        revoke a key
  webhook add --merchant <id> --mode test|live --url <url> [--events a,b]
                                                   register a webhook endpoint (its secret is shown once)
  webhook list --merchant <id>                     list a merchant's webhook endpoints (no secrets)
  account add --merchant <id> --mode test|live --banco <routing id> --cuenta <20 digits> [--telefono <11 digits>]
              [--rif <J123456789>]                 register an account the merchant collects into and pays from;
                                                   --rif is the holder's RIF (required for live bnc accounts
                                                   other than the switch's own: BNC acts for it)
  account list --merchant <id> [--mode test|live]  list a merchant's registered accounts
  panel invite --merchant <id> --email <address> [--role owner|developer|viewer]
                                                   invite a merchant's user to the panel (default owner);
                                                   prints the one-time link path /panel/invitacion/<token>
  panel reset --merchant <id> --email <address>   a one-time link for that panel user to set a new password
                                                   (24 hours; ends their sessions); prints its path
                                                   /panel/restablecer/<token>
  delivery list --txn <transaction id>             webhook deliveries of a transaction, every attempt
  delivery redeliver --id <delivery id>            attempt a delivery again now, same body
  review list                                      open operations flagged for manual review
  secrets reseal                                   after a secrets key rotation: seal every stored secret
                                                   under the current SWITCH_SECRETS_KEY (docs/operations.md)
  dead-letters list [--topic <name>]               dead letters of every switch topic (or one), with ids
  dead-letters redrive --topic <name> [--id <id>[,<id>...]]
                                                   publish dead letters again to their topic (all not yet
                                                   redriven, or those ids); each goes once

Connection: SWITCH_URL (the switch's OPERATOR port, e.g. http://127.0.0.1:9100, never the merchant
port) and SWITCH_ADMIN_TOKEN, or the .switch/admin.json that \`npm start\` writes.`;

export interface Connection {
  url: string;
  adminToken: string;
}

/** Where the switch is: the operator port and its token, or the state `npm start` writes. */
export const OnboardingSettings = settings(
  {
    url: setting.optionalString('SWITCH_URL', 'the operator port, e.g. `http://127.0.0.1:9100`', { defaultText: 'from `admin.json`' }),
    adminToken: setting.optionalString('SWITCH_ADMIN_TOKEN', 'the operator token', { defaultText: 'from `admin.json`' }),
    stateDir: setting.optionalString('SWITCH_STATE_DIR', 'where `npm start` wrote `admin.json`', {
      defaultText: '`.switch` in the working directory',
    }),
  },
  'Onboarding CLI (`npm run switch`)',
);

export function resolveConnection(env: Static<typeof OnboardingSettings>, cwd: string): Connection {
  let file: Partial<Connection> = {};
  const path = join(env.stateDir ?? join(cwd, '.switch'), 'admin.json');
  try {
    file = JSON.parse(readFileSync(path, 'utf8')) as Partial<Connection>;
  } catch {
    // No embedded switch state here; the environment must say where the switch is.
  }
  const url = env.url ?? file.url;
  const adminToken = env.adminToken ?? file.adminToken;
  if (!url || !adminToken) {
    throw new UsageError(
      `cannot find the switch: set SWITCH_URL (the operator port, e.g. http://127.0.0.1:9100) and SWITCH_ADMIN_TOKEN, or run \`npm start\` (it writes ${path})`,
    );
  }
  return { url: url.replace(/\/$/, ''), adminToken };
}

export class UsageError extends Error {}

export function parseFlags(args: string[]): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value`);
    flags[arg.slice(2)] = value;
    i++;
  }
  return flags;
}

interface Request {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
}

/** Maps a command line to one admin API request. */
export function toRequest(args: string[]): Request {
  const [resource, action, ...rest] = args;
  const flags = parseFlags(rest);
  const need = (name: string) => {
    const v = flags[name];
    if (!v) throw new UsageError(`--${name} is required`);
    return v;
  };
  const merchant = () => encodeURIComponent(need('merchant'));
  switch (`${resource} ${action}`) {
    case 'merchant create':
      return { method: 'POST', path: '/admin/v1/merchants', body: { id: need('id'), nombre: need('nombre') } };
    case 'merchant list':
      return { method: 'GET', path: '/admin/v1/merchants' };
    case 'key issue':
      return { method: 'POST', path: `/admin/v1/merchants/${merchant()}/keys`, body: { mode: need('mode') } };
    case 'key list':
      return { method: 'GET', path: `/admin/v1/merchants/${merchant()}/keys` };
    case 'key revoke':
      return { method: 'DELETE', path: `/admin/v1/merchants/${merchant()}/keys/${encodeURIComponent(need('key'))}` };
    case 'webhook add': {
      const body: Record<string, unknown> = { mode: need('mode'), url: need('url') };
      if (flags.events) body.events = flags.events.split(',').map((e) => e.trim());
      return { method: 'POST', path: `/admin/v1/merchants/${merchant()}/webhooks`, body };
    }
    case 'account add': {
      const body: Record<string, unknown> = { mode: need('mode'), banco: need('banco'), cuenta: need('cuenta') };
      if (flags.telefono) body.telefono = flags.telefono;
      if (flags.rif) body.rif = flags.rif;
      return { method: 'POST', path: `/admin/v1/merchants/${merchant()}/accounts`, body };
    }
    case 'account list':
      return {
        method: 'GET',
        path: `/admin/v1/merchants/${merchant()}/accounts${flags.mode ? `?mode=${encodeURIComponent(flags.mode)}` : ''}`,
      };
    case 'webhook list':
      return { method: 'GET', path: `/admin/v1/merchants/${merchant()}/webhooks` };
    case 'panel invite':
      return {
        method: 'POST',
        path: `/admin/v1/merchants/${merchant()}/panel-invites`,
        body: { email: need('email'), role: flags.role ?? 'owner' },
      };
    case 'panel reset':
      return {
        method: 'POST',
        path: `/admin/v1/merchants/${merchant()}/panel-users/${encodeURIComponent(need('email'))}/password-reset`,
      };
    case 'delivery list':
      return { method: 'GET', path: `/admin/v1/transactions/${encodeURIComponent(need('txn'))}/deliveries` };
    case 'delivery redeliver':
      return { method: 'POST', path: `/admin/v1/deliveries/${encodeURIComponent(need('id'))}/redeliver` };
    case 'review list':
      return { method: 'GET', path: '/admin/v1/review' };
    case 'secrets reseal':
      return { method: 'POST', path: '/admin/v1/secrets/reseal', body: {} };
    case 'dead-letters list':
      return { method: 'GET', path: `/admin/v1/dead-letters${flags.topic ? `?topic=${encodeURIComponent(flags.topic)}` : ''}` };
    case 'dead-letters redrive': {
      const body: Record<string, unknown> = { topic: need('topic') };
      if (flags.id)
        body.ids = flags.id
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean);
      return { method: 'POST', path: '/admin/v1/dead-letters/redrive', body };
    }
    default:
      throw new UsageError(`unknown command "${args.join(' ')}"`);
  }
}

export async function run(
  args: string[],
  connection: Connection,
  fetchImpl: typeof fetch = fetch,
): Promise<{ ok: boolean; output: string }> {
  const request = toRequest(args);
  const response = await fetchImpl(`${connection.url}${request.path}`, {
    method: request.method,
    headers: { authorization: `Bearer ${connection.adminToken}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
    ...(request.body ? { body: JSON.stringify(request.body) } : {}),
  });
  const text = await response.text();
  let output = text;
  try {
    output = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // not JSON: print as is
  }
  return { ok: response.ok, output };
}
