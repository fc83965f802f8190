// Real MongoDB in Docker through testcontainers: the container the tests run on (test/infra/harness.ts)
// and `npm run stack` runs on where a Docker engine answers. testcontainers is loaded only when asked,
// so a machine without Docker never needs it.

/** The MongoDB line production targets (docs/operations.md). */
export const MONGODB_IMAGE = 'mongo:7.0';

const NO_RUNTIME = 'Could not find a working container runtime strategy';

/** Whether a Docker engine answers within timeoutMs (TESTCONTAINERS_DISABLED=1: never asked). */
export async function dockerAvailable(timeoutMs = 10_000) {
  if (process.env.TESTCONTAINERS_DISABLED === '1') return false;
  const { getContainerRuntimeClient } = await import('testcontainers');
  const probe = getContainerRuntimeClient().then(
    () => true,
    (e) => {
      if (e instanceof Error && e.message.includes(NO_RUNTIME)) return false;
      throw e;
    },
  );
  return Promise.race([probe, new Promise((r) => setTimeout(() => r(false), timeoutMs).unref())]);
}

/**
 * Starts MongoDB as production runs it: a single-member replica set (the module initiates it), so the
 * store's compare-and-set is MongoDB's own. directConnection: the member advertises its in-container
 * address, which the host cannot reach. testcontainers' reaper removes the container if this process
 * dies without stopping it; `stop()` removes it at once.
 * Returns { url, id, stop() }.
 */
export async function startMongoContainer() {
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const mongo = await new MongoDBContainer(MONGODB_IMAGE).start();
  return {
    url: `mongodb://${mongo.getHost()}:${mongo.getMappedPort(27017)}/?directConnection=true`,
    id: mongo.getId(),
    stop: async () => {
      await mongo.stop();
    },
  };
}
