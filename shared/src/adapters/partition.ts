import { createHash } from 'node:crypto';

/** Stable key → partition mapping, so one key always lands on one partition. */
export function partitionOf(key: string, partitions: number): number {
  return createHash('sha1').update(key).digest().readUInt32BE(0) % partitions;
}
