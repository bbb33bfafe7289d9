import type { StorageError } from '../errors.js';
import { readSnapshot, type PlanSnapshot, type SnapshotParseResult } from './snapshot.js';

/*
 * The stored-snapshot readers of the root entry. They call `readSnapshot` instead of re-exporting
 * it because the rooms loaded on first use share that reader: esbuild loads at start every file
 * the entry imports that any chunk uses, so the re-export put the reader at start for every page
 * (0.7 KB gzipped) whether it read a snapshot or not.
 */

/**
 * Validates stored data and migrates older formats, including the bare `{ todos, markdownDocs }`
 * of the original Plan module (no version, todos without status: they become `pending`).
 * Throws {@link StorageError} naming every problem.
 *
 * @example
 * ```ts
 * const snapshot = parseSnapshot(JSON.parse(localStorage.getItem('planloop') ?? '{}'));
 * ```
 */
export function parseSnapshot(raw: unknown): PlanSnapshot {
  const result = readSnapshot(raw);
  if (!result.success) throw result.error;
  return result.data;
}

/**
 * Like {@link parseSnapshot}, but returns `{ success, data | error }` instead of throwing. A field
 * added after the first format (`taskSummary`, `task`, `lastIds`) that is unusable is left out and
 * listed in `dropped` rather than making the whole stored plan unreadable: an id counter that is
 * not a whole number up to `Number.MAX_SAFE_INTEGER` is refused, and the ids go on after the
 * highest stored id instead; sync clocks (`sync`) that are malformed are left out, and the plan
 * merges as if the snapshot had none.
 *
 * @example
 * ```ts
 * const result = safeParseSnapshot(stored);
 * if (!result.success) console.warn(result.error.message);
 * ```
 */
export function safeParseSnapshot(raw: unknown): SnapshotParseResult {
  return readSnapshot(raw);
}
