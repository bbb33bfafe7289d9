import { PlanloopError } from '../errors.js';

/*
 * Ids `t1`, `t2`, … (todos) and `m1`, `m2`, … (documents) come from a counter kept in the plan's
 * state and stored with it. The counter only moves forward and is never behind the highest id of
 * its shape the plan has seen, so an id is never handed out twice: not after deletes, a reset,
 * hydration or a rolled-back turn.
 */

/** The id prefixes of the plan's two sequences. */
export type IdPrefix = 't' | 'm';

/**
 * The number in `id` when it has the sequence's shape (`t12` → 12), else `undefined`. Numbers past
 * `Number.MAX_SAFE_INTEGER` are not of the shape: the counter could not represent them, and no id
 * the counter hands out can ever equal them.
 *
 * @example
 * ```ts
 * idNumber('t', 't12'); // 12
 * idNumber('t', 'm3'); // undefined
 * ```
 */
export function idNumber(prefix: IdPrefix, id: string): number | undefined {
  if (!id.startsWith(prefix)) return undefined;
  const digits = id.slice(prefix.length);
  if (!/^\d{1,16}$/.test(digits)) return undefined;
  const n = Number(digits);
  return Number.isSafeInteger(n) ? n : undefined;
}

/**
 * The counter moved past `ids`: the highest of `last` and every id number of the shape.
 *
 * @example
 * ```ts
 * advancedPast('t', 2, ['t1', 't7', 'custom']); // 7
 * ```
 */
export function advancedPast(prefix: IdPrefix, last: number, ids: Iterable<string>): number {
  let high = last;
  for (const id of ids) {
    const n = idNumber(prefix, id);
    if (n !== undefined && n > high) high = n;
  }
  return high;
}

/**
 * The next `count` ids after `last`, and the counter after them. Throws code `id_space_exhausted`
 * when the counter would pass `Number.MAX_SAFE_INTEGER` (a stored plan whose counter is near it):
 * ids would stop being unique, so nothing is handed out.
 *
 * @example
 * ```ts
 * nextIds('t', 4, 2); // { ids: ['t5', 't6'], last: 6 }
 * ```
 */
export function nextIds(prefix: IdPrefix, last: number, count: number): { ids: string[]; last: number } {
  if (last + count > Number.MAX_SAFE_INTEGER) {
    throw new PlanloopError(
      'id_space_exhausted',
      `No ${prefix === 't' ? 'todo' : 'document'} ids are left: the id counter is at ${last}, the largest safe number. Start a new plan (another storage key).`,
    );
  }
  const ids: string[] = [];
  for (let i = 1; i <= count; i++) ids.push(`${prefix}${last + i}`);
  return { ids, last: last + count };
}
