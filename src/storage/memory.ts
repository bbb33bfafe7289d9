import type { CorruptCopy, CorruptCopyAccess } from './corrupt-copies.js';
import type { PlanSnapshot, PlanStorageAdapter } from './snapshot.js';

/** A {@link PlanStorageAdapter} that keeps snapshots in memory, with what tests want to look at. */
export interface MemoryAdapter extends PlanStorageAdapter, CorruptCopyAccess {
  exportCorrupt(): CorruptCopy[];
  discardCorrupt(id?: string): number;
  /** A copy of the last saved snapshot, or `null`. */
  readonly snapshot: PlanSnapshot | null;
  /** How many saves have landed. */
  readonly saveCount: number;
  /** What `backup` was given, oldest first. */
  readonly backups: ReadonlyArray<{ raw: unknown; reason: string }>;
}

/**
 * Keeps the plan in memory: for tests, and for hosts that persist elsewhere. Snapshots are
 * cloned on the way in and out, so nothing outside can change what is stored.
 *
 * @example
 * ```ts
 * const storage = createMemoryAdapter();
 * const plan = new Plan({ llm, storage });
 * plan.todos.create({ intent: 'narrate', description: 'Say hello' });
 * await plan.flush();
 * storage.snapshot?.todos.length; // 1
 * ```
 */
export function createMemoryAdapter(initial: PlanSnapshot | null = null): MemoryAdapter {
  let stored: PlanSnapshot | null = initial ? structuredClone(initial) : null;
  let saveCount = 0;
  const backups: Array<{ raw: unknown; reason: string; id: string; savedAt: number }> = [];
  let backupCount = 0;
  return {
    load: () => (stored ? structuredClone(stored) : null),
    save(snapshot) {
      stored = structuredClone(snapshot);
      saveCount += 1;
    },
    backup(raw, reason) {
      backups.push({ raw: structuredClone(raw), reason, id: `backup-${++backupCount}`, savedAt: Date.now() });
    },
    exportCorrupt: () => backups.map(({ id, savedAt, raw }) => ({ id, savedAt, raw: structuredClone(raw) })),
    discardCorrupt(id) {
      const before = backups.length;
      backups.splice(0, backups.length, ...backups.filter((copy) => id !== undefined && copy.id !== id));
      return before - backups.length;
    },
    get snapshot() {
      return stored ? structuredClone(stored) : null;
    },
    get saveCount() {
      return saveCount;
    },
    get backups() {
      return backups.map(({ raw, reason }) => ({ raw, reason }));
    },
  };
}
