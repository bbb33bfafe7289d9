/**
 * `planloop/storage`: the stored snapshot's format, for a host that writes its own storage adapter
 * or reads stored plans itself: `validateSnapshot` / `safeValidateSnapshot` (validate and migrate
 * what was stored) and `SNAPSHOT_VERSION`. The adapters (`createLocalStorageAdapter`,
 * `createIndexedDbAdapter`, `createMemoryAdapter`) are on the root entry.
 */
export {
  validateSnapshot,
  safeValidateSnapshot,
  SNAPSHOT_VERSION,
  type PlanSnapshot,
  type PlanStorageAdapter,
  type SnapshotValidation,
} from './snapshot.js';
