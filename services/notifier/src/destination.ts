/**
 * SSRF guard of webhook destinations: the rule lives in the platform (`packages/platform/src/runtime/destination.ts`)
 * so the operator API refuses an internal URL at registration with the same rule the notifier applies
 * inside each attempt's own connection.
 */
export {
  destinationAgent,
  isInternalAddress,
  refusedDestination,
  DestinationRefused,
  type Resolver,
} from '@switch/platform/runtime/destination';
