import { CorePolicySettings } from '@switch/platform/config/core-policy';
import { healthSettings, ProcessSettings } from '@switch/platform/config/process';
import { InfraSettings } from '@switch/platform/config/infra';
import { InstanceSettings } from '@switch/platform/config/instance';
import { RiskSettings } from '@switch/platform/config/risk';
import { RoutingSettings } from '@switch/platform/config/routing';
import { setting, settings } from '@switch/platform/config/env';

/** The outbox relay's rounds. */
export const RouterSettings = settings(
  {
    relayIntervalMs: setting.int('SWITCH_OUTBOX_RELAY_MS', 1_000, "how often the router's outbox relay looks for writes left unmarked", {
      min: 50,
      max: 60_000,
    }),
    relayGraceMs: setting.int(
      'SWITCH_OUTBOX_GRACE_MS',
      10_000,
      "how old an unmarked write must be before the relay announces it again (younger ones are their handler's)",
      { min: 0, max: 600_000 },
    ),
    relayLeaseMs: setting.int(
      'SWITCH_OUTBOX_RELAY_LEASE_MS',
      10_000,
      "one replica's lease on the outbox relay (one replica relays, renewing every round): a holder killed without letting go is replaced after this; at least twice `SWITCH_OUTBOX_RELAY_MS`",
      { min: 1_000, max: 600_000 },
    ),
  },
  'Router',
);

/** The router process. */
export const RouterServiceSettings = settings({
  process: ProcessSettings,
  infra: InfraSettings,
  instance: InstanceSettings,
  health: healthSettings('router'),
  routing: RoutingSettings,
  risk: RiskSettings,
  policy: CorePolicySettings,
  router: RouterSettings,
});
