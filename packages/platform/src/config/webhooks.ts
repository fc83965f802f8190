import type { Static } from '@sinclair/typebox';
import type { DestinationPolicy } from '../runtime/destination';
import { SWITCH_DEFAULT_PORTS } from './listeners';
import { ConfigError, setting, settings } from './env';

/**
 * Where webhooks may go (runtime/destination.ts): the notifier's rule for deliveries, and the gateway's
 * and the panel's for registration, test and live mode alike.
 */
export const DestinationSettings = settings(
  {
    allowLoopback: setting.bool(
      'SWITCH_WEBHOOK_ALLOW_LOOPBACK',
      false,
      'allow loopback receivers only (`127.0.0.0/8`, `::1`, `localhost`): local receivers; a deployment leaves it off',
      { defaultText: '`false` (`true` in `npm start` and `npm run stack`)' },
    ),
    allowPrivate: setting.bool(
      'SWITCH_WEBHOOK_ALLOW_PRIVATE',
      false,
      'allow every internal address (tests and drills on a private network; never a deployment); otherwise every attempt connects only to a public address vetted inside its own DNS lookup',
    ),
    ownPorts: setting.optionalString(
      'SWITCH_OWN_PORTS',
      "comma-separated ports the switch listens on besides the defaults (3000, 3100, 9100–9109) and this process's own: never a webhook destination on an internal address",
    ),
  },
  'Webhook destinations',
);

/**
 * The destination rule, the same in the gateway, the panel and the notifier: the allowances, and the
 * switch's own ports (the defaults, the ports this process listens on, and `SWITCH_OWN_PORTS`).
 */
export function destinationPolicy(s: Static<typeof DestinationSettings>, listening: readonly number[] = []): DestinationPolicy {
  const ownPorts = new Set(SWITCH_DEFAULT_PORTS);
  for (const port of listening) if (port > 0) ownPorts.add(port);
  for (const item of s.ownPorts ? s.ownPorts.split(',').map((x) => x.trim()) : []) {
    if (!/^[0-9]{1,5}$/.test(item) || Number(item) < 1 || Number(item) > 65535)
      throw new ConfigError('SWITCH_OWN_PORTS', `"${item}" is not a port (a comma-separated list of 1–65535)`);
    ownPorts.add(Number(item));
  }
  return { allowLoopback: s.allowLoopback, allowPrivate: s.allowPrivate, ownPorts };
}

/** The strictest rule: public addresses only (a deployment's default), the switch's default ports kept out. */
export const PUBLIC_DESTINATIONS_ONLY: DestinationPolicy = {
  allowLoopback: false,
  allowPrivate: false,
  ownPorts: new Set(SWITCH_DEFAULT_PORTS),
};

/** How long a rotated webhook secret keeps signing beside the new one (docs/webhooks.md "Rotating the secret"). */
export const RotationSettings = settings(
  {
    overlapSeconds: setting.int(
      'SWITCH_WEBHOOK_ROTATION_OVERLAP_S',
      86_400,
      'after a webhook secret rotation (API or panel), how long the previous secret keeps signing beside the new one (0 ends it at once)',
      { min: 0, max: 7 * 86_400 },
    ),
  },
  'Webhook secret rotation',
);
