import { randomBytes } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';

/**
 * `n` time-ordered UUIDv7 ids for rows written together. One draw of random bytes for all of them:
 * asking the system for 16 bytes per id cost a fifth of a 100,000-row import.
 */
export function timeOrderedIds(n: number): string[] {
  if (n <= 0) return [];
  const random = randomBytes(n * 16);
  const msecs = Date.now();
  // One timestamp and a counter (`seq`): ids of one batch sort in the order they were made.
  const start = random.readUInt32BE(0) >>> 8;
  const ids = new Array<string>(n);
  for (let i = 0; i < n; i++) ids[i] = uuidv7({ msecs, seq: start + i, random: random.subarray(i * 16, i * 16 + 16) });
  return ids;
}
