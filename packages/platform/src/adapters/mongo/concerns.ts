import { ReadConcern, type Db, type DbOptions, type MongoClient } from 'mongodb';

/**
 * The one place where the store's durability is stated: every collection of the store comes from the
 * database opened here, so every command inherits these, and neither `MONGO_URL` (`?w=1`, `j=false`,
 * `readPreference=secondary`…) nor a caller's client options can weaken them (database options
 * override both).
 *
 * - Writes wait for a majority of the replica set, journaled: an acknowledged claim, compare-and-set
 *   or counter addition survives the primary's loss (a w:1 write can be rolled back by the next
 *   primary, and a claim won twice is a payment made twice).
 * - Reads go to the primary, at majority: a decision that reads back its own writes (a lost
 *   compare-and-set that reads the winner, the idempotency claim's holder, a counter's sum) sees
 *   every acknowledged write, and never one that a failover could still roll back. A secondary may lag.
 *
 * FerretDB (the stand-in of CI and the drills) takes these and keeps one copy; a MongoDB replica set
 * honours them. docs/decisions/0171-store-majority-and-primary.md.
 */
export const STORE_CONCERNS = {
  writeConcern: { w: 'majority', journal: true },
  readConcern: 'majority',
  readPreference: 'primary',
} as const;

/** The store's database, with its concerns. */
export function durableDatabase(client: MongoClient, name: string): Db {
  const options: DbOptions = {
    writeConcern: { ...STORE_CONCERNS.writeConcern },
    readConcern: new ReadConcern(STORE_CONCERNS.readConcern),
    readPreference: STORE_CONCERNS.readPreference,
  };
  return client.db(name, options);
}
