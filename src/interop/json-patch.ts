/** One RFC 6902 JSON Patch operation, of the kinds {@link diffJSON} writes. */
export type JsonPatchOperation = { op: 'add'; path: string; value: unknown } | { op: 'remove'; path: string } | { op: 'replace'; path: string; value: unknown };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key as a JSON Pointer (RFC 6901) segment: `~` is `~0`, `/` is `~1`. */
const segment = (key: string | number): string => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/** Whether every element is an object with a string `id`, each id once: a list diffed by id. */
function keyed(list: readonly unknown[]): list is ReadonlyArray<{ id: string }> {
  const ids = new Set<string>();
  for (const item of list) {
    if (!isObject(item) || typeof item.id !== 'string' || ids.has(item.id)) return false;
    ids.add(item.id);
  }
  return true;
}

/**
 * Whether appliers refuse a path through `key` under `path`: `__proto__`, and `prototype` inside
 * `constructor` (fast-json-patch, which AG-UI frontends use, throws on them to stop prototype pollution).
 */
const banned = (key: string, path: string): boolean => key === '__proto__' || (key === 'prototype' && path.endsWith('/constructor'));

/**
 * The JSON Patch (RFC 6902) that turns `before` into `after`, both JSON values: objects key by
 * key; lists of objects with unique `id`s item by item (removes from the end first, then adds at
 * their places, then the changes inside items; a new order replaces the list); anything else is
 * replaced whole. Applying the patch to `before` gives a value deep-equal to `after`. No path
 * goes through a key appliers refuse (`__proto__`, or `prototype` inside `constructor`): an
 * object where such a key was added, removed or changed is replaced whole, so the patch applies
 * with fast-json-patch's prototype guard on.
 *
 * @example
 * ```ts
 * diffJSON({ todos: [{ id: 't1', status: 'pending' }] }, { todos: [{ id: 't1', status: 'completed' }] });
 * // [{ op: 'replace', path: '/todos/0/status', value: 'completed' }]
 * ```
 */
export function diffJSON(before: unknown, after: unknown, path = ''): JsonPatchOperation[] {
  if (Object.is(before, after)) return [];
  if (isObject(before) && isObject(after)) {
    const ops: JsonPatchOperation[] = [];
    for (const key of Object.keys(before)) {
      if (Object.hasOwn(after, key)) continue;
      if (banned(key, path)) return [{ op: 'replace', path, value: after }];
      ops.push({ op: 'remove', path: `${path}/${segment(key)}` });
    }
    for (const [key, value] of Object.entries(after)) {
      const at = `${path}/${segment(key)}`;
      const changes: JsonPatchOperation[] = Object.hasOwn(before, key) ? diffJSON(before[key], value, at) : [{ op: 'add', path: at, value }];
      if (changes.length > 0 && banned(key, path)) return [{ op: 'replace', path, value: after }];
      ops.push(...changes);
    }
    return ops;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    if (keyed(before) && keyed(after)) {
      const byId = diffById(before, after, path);
      if (byId) return byId;
    } else if (before.length === after.length) {
      return before.flatMap((item, index) => diffJSON(item, after[index], `${path}/${index}`));
    }
  }
  return [{ op: 'replace', path, value: after }];
}

/** A keyed list's patch, or `null` when the kept items changed order (the caller replaces the list). */
function diffById(before: ReadonlyArray<{ id: string }>, after: ReadonlyArray<{ id: string }>, path: string): JsonPatchOperation[] | null {
  const afterIds = new Set(after.map((item) => item.id));
  const beforeIds = new Set(before.map((item) => item.id));
  const kept = before.filter((item) => afterIds.has(item.id));
  const keptAfter = after.filter((item) => beforeIds.has(item.id));
  if (kept.some((item, index) => item.id !== keptAfter[index]?.id)) return null;
  const ops: JsonPatchOperation[] = [];
  for (let index = before.length - 1; index >= 0; index -= 1) {
    if (!afterIds.has((before[index] as { id: string }).id)) ops.push({ op: 'remove', path: `${path}/${index}` });
  }
  after.forEach((item, index) => {
    if (!beforeIds.has(item.id)) ops.push({ op: 'add', path: `${path}/${index}`, value: item });
  });
  const old = new Map(before.map((item) => [item.id, item]));
  after.forEach((item, index) => {
    const previous = old.get(item.id);
    if (previous) ops.push(...diffJSON(previous, item, `${path}/${index}`));
  });
  return ops;
}
