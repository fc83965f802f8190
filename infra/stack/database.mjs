// Which database `npm run stack` runs on, chosen once at start. Production runs on MongoDB, so where a
// Docker engine answers the stack runs real MongoDB (the tests' container: infra/stack/mongo-container.mjs);
// elsewhere it runs the FerretDB stand-in the project's infra scripts start. STACK_DATABASE overrides.

/** The variable that overrides the choice: `mongo`, `ferretdb`, or `auto` (the default). */
export const DATABASE_OVERRIDE = 'STACK_DATABASE';

const ENGINES = ['mongo', 'ferretdb'];

/**
 * Pure: the override (the variable's value, when set) and whether a Docker engine answered (undefined
 * when it was not asked, because an override made the choice) → { engine, why }.
 */
export function chooseDatabase({ override, dockerReachable }) {
  const wanted = (override ?? '').trim().toLowerCase();
  if (ENGINES.includes(wanted)) return { engine: wanted, why: `${DATABASE_OVERRIDE}=${wanted}` };
  if (wanted !== '' && wanted !== 'auto') {
    throw new Error(`${DATABASE_OVERRIDE}=${override}: expected mongo, ferretdb or auto`);
  }
  return dockerReachable ? { engine: 'mongo', why: 'a Docker engine answers' } : { engine: 'ferretdb', why: 'no Docker engine answers' };
}

/** Whether the choice needs Docker asked first (an override decides without it). */
export function needsDockerProbe(override) {
  const wanted = (override ?? '').trim().toLowerCase();
  return !ENGINES.includes(wanted);
}

/** The line the stack prints about its choice. */
export function describeDatabase({ engine, why }, image) {
  return engine === 'mongo'
    ? `database: MongoDB (${image}, single-member replica set, in Docker): ${why}`
    : `database: FerretDB on PostgreSQL (infra/up.sh): ${why}`;
}
