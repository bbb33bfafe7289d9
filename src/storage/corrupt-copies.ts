/**
 * A copy of unreadable stored data that an adapter's `backup` set aside.
 *
 * @example
 * ```ts
 * const adapter = createLocalStorageAdapter({ key: 'tour-plan' });
 * const copies: CorruptCopy[] = await adapter.exportCorrupt();
 * console.log(JSON.stringify(copies.map((copy) => copy.raw)));
 * ```
 */
export interface CorruptCopy {
  /** The copy's own id (its storage key); pass it to `discardCorrupt`. */
  id: string;
  /** When it was set aside (ms since the epoch). */
  savedAt: number;
  /** The data as it was found: the parsed value, or the text when it was not JSON. */
  raw: unknown;
}

/**
 * What an adapter with `backup` offers so that a host can decide about unreadable data: look at
 * (and export) the copies set aside, and discard them to free space. The localStorage, IndexedDB
 * and memory adapters have it.
 *
 * The rule it serves: when `backup` throws (a `StorageError` with reason `backup_failed`, e.g. the
 * quota is full), the unreadable data is still under the plan's own key and the plan must not
 * write over it until the host decides: export `error.raw`, `discardCorrupt()` older copies and
 * retry the backup, or accept losing it.
 *
 * @example
 * ```ts
 * const adapter = createLocalStorageAdapter({ key: 'tour-plan' });
 * plan.on('storage-error', async ({ error }) => {
 *   if (error.reason !== 'backup_failed') return;
 *   await adapter.discardCorrupt(); // frees the space older copies took
 *   await plan.hydrate();           // sets the data aside again, then saves
 * });
 * ```
 */
export interface CorruptCopyAccess {
  /** Every copy set aside for this plan's key, oldest first. */
  exportCorrupt(): Promise<CorruptCopy[]> | CorruptCopy[];
  /** Deletes the copy with `id`, or every copy when `id` is omitted; returns how many were deleted. */
  discardCorrupt(id?: string): Promise<number> | number;
}

/**
 * The storage key a copy set aside at `time` goes under: `<key>.corrupt.<time>`.
 *
 * @example
 * ```ts
 * corruptKey('tour', 1700000000000); // 'tour.corrupt.1700000000000'
 * ```
 */
export function corruptKey(key: string, time: number): string {
  return `${corruptPrefix(key)}${time}`;
}

/**
 * The prefix of every copy set aside for `key`.
 *
 * @example
 * ```ts
 * Object.keys(localStorage).filter((name) => name.startsWith(corruptPrefix('tour')));
 * ```
 */
export function corruptPrefix(key: string): string {
  return `${key}.corrupt.`;
}

/**
 * When the copy under `id` was set aside (from its key), or 0 when the key does not say.
 *
 * @example
 * ```ts
 * corruptTime('tour', 'tour.corrupt.1700000000000'); // 1700000000000
 * ```
 */
export function corruptTime(key: string, id: string): number {
  const time = Number(id.slice(corruptPrefix(key).length).split('-')[0]);
  return Number.isFinite(time) ? time : 0;
}
