import { isReferenceString, type Reference, type ReferenceExpression } from './reference.js';

/** The keys of a call that are not arguments. */
const RESERVED_KEYS: ReadonlySet<string> = new Set(['_tool', '_outputPath']);

/** A call's arguments: every key but `_tool` and `_outputPath`. */
export function argumentsOf(call: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(call).filter(([key]) => !RESERVED_KEYS.has(key)));
}

/**
 * Copies `value`, replacing every reference string (also inside arrays and plain objects) by
 * what `replace` returns for it. `path` is where the reference stands (`['filters', 'city']`).
 */
export function mapReferences(
  value: unknown,
  replace: (text: string, path: readonly (string | number)[]) => unknown,
  path: readonly (string | number)[] = [],
): unknown {
  if (isReferenceString(value)) return replace(value, path);
  if (Array.isArray(value)) return value.map((item, i) => mapReferences(item, replace, [...path, i]));
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapReferences(item, replace, [...path, key])]));
  }
  return value;
}

/** Every reference string in `value`, with where it stands. */
export function referenceSites(value: unknown): { text: string; path: readonly (string | number)[] }[] {
  const sites: { text: string; path: readonly (string | number)[] }[] = [];
  mapReferences(value, (text, path) => sites.push({ text, path }));
  return sites;
}

/** Whether `value` is a plain object (an object literal or JSON object). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** A stable string for a call (sorted keys), to recognise the same call in a later turn. */
export function callKey(call: unknown): string {
  return JSON.stringify(call, (_key, value: unknown) =>
    isPlainObject(value)
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((key) => [key, value[key]]),
        )
      : value,
  );
}

/** Whether a path exists yet, is settled as missing, or may still be written. */
export type PathStatus = 'present' | 'absent' | 'waiting';

/** What an argument reference binds to: a value, nothing yet, or nothing ever. */
export type SiteBinding = { status: 'present'; value: unknown } | { status: 'waiting' } | { status: 'absent'; missing: readonly Reference[] };

/**
 * Binds one argument reference. `probe` says where each path stands: a fallback takes the first
 * present path but waits while an earlier one may still be written; a gate (and a single
 * reference) needs every path and passes the last; anything settled as missing wins over waiting,
 * so a gate that can never open is known at once.
 */
export function bindSite(
  site: { readonly expression: ReferenceExpression; readonly producers: readonly (readonly number[])[] },
  probe: (ref: Reference, producers: readonly number[]) => PathStatus,
  read: (ref: Reference) => unknown,
): SiteBinding {
  const { op, refs } = site.expression;
  const statuses = refs.map((ref, i) => probe(ref, site.producers[i] ?? []));
  if (op === 'or') {
    for (const [i, status] of statuses.entries()) {
      if (status === 'present') return { status, value: read(refs[i]!) };
      if (status === 'waiting') return { status };
    }
    return { status: 'absent', missing: refs };
  }
  const missing = refs.filter((_ref, i) => statuses[i] === 'absent');
  if (missing.length > 0) return { status: 'absent', missing };
  if (statuses.includes('waiting')) return { status: 'waiting' };
  return { status: 'present', value: read(refs.at(-1)!) };
}
