import type { StorageError } from '../errors.js';
import { safeParseSnapshot as readSnapshot, type PlanSnapshot, type SnapshotParseResult } from './snapshot.js';

/*
 * The stored-snapshot readers as the root entry exports them: they call the reader in snapshot.ts
 * instead of re-exporting it, because the rooms loaded on first use share that reader and esbuild
 * loads at start every file the entry imports that any chunk uses (used by the page or not):
 * re-exported, the reader cost every page that imports `Plan` 0.7 KB gzipped at start. (A
 * re-export of a re-export does not help: the library build resolves it to the original file.)
 * When the snapshot readers leave the root entry, this file goes with them.
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
 * Like {@link parseSnapshot}, but returns `{ success, data | error }` instead of throwing; fields
 * added after the first format that are unusable are left out and listed in `dropped` (see
 * `safeParseSnapshot` in storage/snapshot.ts).
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
