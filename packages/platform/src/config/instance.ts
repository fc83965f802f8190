import { hostname } from 'node:os';
import type { Static } from '@sinclair/typebox';
import { ConfigError, setting, settings } from './env';

const INSTANCE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export const InstanceSettings = settings(
  {
    id: setting.optionalString(
      'SWITCH_INSTANCE_ID',
      "this process's stable name among its service's replicas (Kubernetes: the pod name): the gateway's reply address and its own consumer groups, a bank connector replica's breaker report (the router combines every live replica's), and the holder of a background loop's lease (outbox relay, reconciler, matcher, overview fold); letters, digits, `.`, `_`, `-`; never shared by two live processes of one service",
      { defaultText: 'host name and port' },
    ),
  },
  'Instance',
);

/**
 * This process's name among the replicas of its service, stable across its restarts: the reply address
 * a gateway puts on its commands, and the name of every consumer group the process keeps for itself
 * (broadcast listeners, its replies), so a restart rejoins its groups instead of leaving one behind per
 * start. `SWITCH_INSTANCE_ID` (in Kubernetes the pod name, from the downward API); by default the host
 * name, followed by `distinguisher` (a gateway's listening port) where one host runs several. Two live
 * processes of one service must not share it: they would split one group's partitions between them.
 */
export function instanceId(s: Static<typeof InstanceSettings> = {}, distinguisher?: string | number): string {
  const given = s.id;
  if (given !== undefined) {
    if (!INSTANCE_ID.test(given))
      throw new ConfigError('SWITCH_INSTANCE_ID', `"${given}" must be 1 to 100 letters, digits, '.', '_' or '-' (a pod name is)`);
    return given;
  }
  const host =
    hostname()
      .replace(/[^A-Za-z0-9._-]/g, '-')
      .slice(0, 80) || 'host';
  return distinguisher === undefined ? host : `${host}-${distinguisher}`;
}
