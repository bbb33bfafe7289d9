/**
 * A `Storage` (the localStorage interface) over a Map, with a quota in characters like a browser's
 * (keys and values count; a write past it throws a DOMException named QuotaExceededError), a log of
 * every write, and a switch that makes the next writes fail.
 */
export interface RecordingStorage extends Storage {
  /** Every setItem, in order: the key and how many characters were written. */
  readonly writes: Array<{ key: string; chars: number }>;
  /** Every getItem, in order. */
  readonly reads: string[];
  /** Characters stored now (keys and values). */
  readonly used: number;
  quota: number;
  /** Makes setItem throw for keys this predicate accepts (until set back to undefined). */
  failWrites: ((key: string) => boolean) | undefined;
}

export function createRecordingStorage(quota = 5_000_000): RecordingStorage {
  const items = new Map<string, string>();
  const writes: Array<{ key: string; chars: number }> = [];
  const reads: string[] = [];
  const size = () => [...items].reduce((sum, [key, value]) => sum + key.length + value.length, 0);
  const storage = {
    writes,
    reads,
    quota,
    failWrites: undefined as ((key: string) => boolean) | undefined,
    get used() {
      return size();
    },
    get length() {
      return items.size;
    },
    key: (index: number) => [...items.keys()][index] ?? null,
    getItem(key: string) {
      reads.push(key);
      return items.get(key) ?? null;
    },
    setItem(key: string, value: string) {
      const text = String(value);
      if (storage.failWrites?.(key)) throw new DOMException('The write was refused.', 'UnknownError');
      const after = size() - (items.has(key) ? key.length + (items.get(key) as string).length : 0) + key.length + text.length;
      if (after > storage.quota) throw new DOMException(`Setting the value of '${key}' exceeded the quota.`, 'QuotaExceededError');
      items.set(key, text);
      writes.push({ key, chars: text.length });
    },
    removeItem: (key: string) => void items.delete(key),
    clear: () => items.clear(),
  };
  return storage as unknown as RecordingStorage;
}
