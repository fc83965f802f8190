/**
 * Stable key → partition mapping, so one key always lands on one partition (FNV-1a over the key's
 * UTF-16 code units: no hash object per message, unlike a crypto digest).
 */
export function partitionOf(key: string, partitions: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % partitions;
}
