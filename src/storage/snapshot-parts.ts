import type { PlanSnapshot } from './snapshot.js';

/**
 * How the localStorage and IndexedDB adapters store a snapshot so that a change does not rewrite
 * every document: each document's content lives in its own immutable part, under a key named for
 * that version (`<key>:doc:<id>:<tag>`), and the plan's key holds a manifest: the snapshot with
 * each document's `content` replaced by `part`, the key of its content.
 *
 * A save writes the new parts first, then the manifest, then deletes the parts only the replaced
 * manifest used. A crash before the manifest leaves the previous manifest and all of its parts in
 * place, so a load always reads one consistent snapshot, never new todos with half-written
 * documents; the orphaned new parts are swept when space runs out. A manifest read by a planloop
 * that predates parts fails validation (documents without content) and is kept aside, not lost.
 *
 * @example
 * ```ts
 * const storage = localStorage;
 * const storedManifest: unknown = JSON.parse(storage.getItem('plan') ?? 'null');
 * const cache = new Map<string, string>(); // part key -> content written before
 * const write = planPartsWrite(plan.snapshot(), storedManifest, cache, partKeyMaker('plan'));
 * for (const [key, content] of write.parts) storage.setItem(key, content);
 * storage.setItem('plan', JSON.stringify(write.manifest));
 * for (const key of write.stale) storage.removeItem(key);
 * ```
 */
export interface PartsWrite {
  /** What to store under the plan's key, after `parts`. */
  manifest: Record<string, unknown>;
  /** New parts, `[key, content]`, to store before the manifest. */
  parts: Array<[key: string, content: string]>;
  /** Parts the stored manifest used and the new one does not: delete them after the manifest. */
  stale: string[];
  /** Every part the new manifest uses, with its content: the adapter's cache after the save. */
  refs: Map<string, string>;
}

/**
 * Plans a save of `snapshot` over the `stored` manifest: a document whose content is the one
 * `cache` holds for its stored part keeps that part; any other gets a new part from `newPartKey`.
 *
 * @example
 * ```ts
 * const { parts } = planPartsWrite(plan.snapshot(), null, new Map(), (id) => `plan:doc:${id}:1`); // every document is new
 * ```
 */
export function planPartsWrite(snapshot: PlanSnapshot, stored: unknown, cache: ReadonlyMap<string, string>, newPartKey: (docId: string) => string): PartsWrite {
  const storedParts = partKeysByDoc(stored);
  const refs = new Map<string, string>();
  const parts: Array<[string, string]> = [];
  const markdownDocs = snapshot.markdownDocs.map(({ content, ...doc }) => {
    let part = storedParts.get(doc.id);
    // Comparing strings the plan shares with the cache is a pointer check; a rewrite is a full one.
    if (part === undefined || cache.get(part) !== content) {
      part = newPartKey(doc.id);
      parts.push([part, content]);
    }
    refs.set(part, content);
    return { ...doc, part };
  });
  const stale = [...storedParts.values()].filter((key) => !refs.has(key));
  return { manifest: { ...snapshot, markdownDocs }, parts, stale, refs };
}

/**
 * Rebuilds the snapshot a manifest describes, reading each document's content with `read`
 * (`undefined` or `null` when the part is missing). Anything that is not a manifest (an older
 * whole snapshot, garbage for the plan to validate) comes back as it was.
 *
 * @example
 * ```ts
 * const storage = localStorage;
 * const { snapshot, missing } = readPartsSnapshot(JSON.parse(storage.getItem('plan') ?? 'null'), (key) => storage.getItem(key));
 * ```
 */
export function readPartsSnapshot(
  manifest: unknown,
  read: (partKey: string) => string | null | undefined,
): { snapshot: unknown; missing: string[]; refs: Map<string, string> } {
  const refs = new Map<string, string>();
  const missing: string[] = [];
  if (!isRecord(manifest) || !Array.isArray(manifest.markdownDocs)) return { snapshot: manifest, missing, refs };
  const markdownDocs = manifest.markdownDocs.map((entry: unknown) => {
    const part = partOf(entry);
    if (part === undefined) return entry;
    const content = read(part);
    if (typeof content !== 'string') {
      missing.push(part);
      return entry;
    }
    refs.set(part, content);
    const { part: _part, ...doc } = entry as Record<string, unknown>;
    return { ...doc, content };
  });
  return { snapshot: { ...manifest, markdownDocs }, missing, refs };
}

/**
 * The part keys a stored manifest uses, by document id (empty for anything else).
 *
 * @example
 * ```ts
 * const keys = [...partKeysByDoc(JSON.parse(localStorage.getItem('plan') ?? 'null')).values()];
 * ```
 */
export function partKeysByDoc(manifest: unknown): Map<string, string> {
  const parts = new Map<string, string>();
  if (!isRecord(manifest) || !Array.isArray(manifest.markdownDocs)) return parts;
  for (const entry of manifest.markdownDocs) {
    const part = partOf(entry);
    if (part !== undefined) parts.set(String((entry as { id?: unknown }).id), part);
  }
  return parts;
}

/**
 * Makes part keys `<key>:doc:<id>:<tag>`, unique to this writer (a random prefix and a counter),
 * so two tabs never write the same part key.
 *
 * @example
 * ```ts
 * const partKey = partKeyMaker('tour');
 * partKey('m1'); // 'tour:doc:m1:k3x9a0'
 * ```
 */
export function partKeyMaker(key: string, random: () => number = Math.random): (docId: string) => string {
  const writer = Math.floor(random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0');
  let count = 0;
  return (docId) => `${partPrefix(key)}${docId}:${writer}${(count++).toString(36)}`;
}

/**
 * The prefix every part key of the plan under `key` starts with.
 *
 * @example
 * ```ts
 * Object.keys(localStorage).filter((name) => name.startsWith(partPrefix('tour')));
 * ```
 */
export function partPrefix(key: string): string {
  return `${key}:doc:`;
}

function partOf(entry: unknown): string | undefined {
  return isRecord(entry) && typeof entry.part === 'string' && !('content' in entry) ? entry.part : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
