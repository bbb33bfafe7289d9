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
  /** @deprecated since 0.2.0, use validateSnapshot; removed in 0.3.0 */
  parseSnapshot,
  /** @deprecated since 0.2.0, use safeValidateSnapshot; removed in 0.3.0 */
  safeParseSnapshot,
  type PlanSnapshot,
  type PlanStorageAdapter,
  type SnapshotValidation,
  /** @deprecated since 0.2.0, use SnapshotValidation; removed in 0.3.0 */
  type SnapshotParseResult,
} from './snapshot.js';
