import { StorageError } from '../errors.js';
import type { PlanSnapshot } from '../storage/snapshot-format.js';

/**
 * Refuses to write `next` over a `stored` snapshot that has writes `next` has not merged (another
 * tab saved since this one last loaded): throws a `StorageError` with reason `conflict`. Does
 * nothing when either side has no sync clock (a plan that does not merge, or older data). Reads
 * only `sync.seen` (see `SyncMeta`), so that adapters do not carry the meta's validation.
 *
 * @example
 * ```ts
 * const storedManifest: unknown = JSON.parse(localStorage.getItem('tour') ?? 'null');
 * refuseUnmerged(storedManifest, plan.snapshot(), 'tour'); // then write
 * ```
 */
export function refuseUnmerged(stored: unknown, next: PlanSnapshot, key: string): void {
  const theirs = seenOf(stored);
  const ours = seenOf(next);
  if (!theirs || !ours) return;
  const unmerged = Object.keys(theirs).filter((replica) => (ours[replica] ?? 0) < (theirs[replica] as number));
  if (unmerged.length === 0) return;
  throw new StorageError(
    'storage_error',
    `The plan under "${key}" has changes this one has not merged (from ${unmerged.map((replica) => replica || 'an older snapshot').join(', ')}); nothing was written. Load it, merge (mergePlanSnapshots) and save again.`,
    { operation: 'save', reason: 'conflict' },
  );
}

/** `snapshot.sync.seen` when it is a record of counters, else `undefined`. */
function seenOf(snapshot: unknown): Record<string, number> | undefined {
  const seen = (snapshot as { sync?: { seen?: unknown } } | null)?.sync?.seen;
  if (typeof seen !== 'object' || seen === null || Array.isArray(seen)) return undefined;
  return Object.values(seen).every((n) => Number.isSafeInteger(n)) ? (seen as Record<string, number>) : undefined;
}
