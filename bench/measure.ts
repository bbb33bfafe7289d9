/** Small helpers shared by the benchmarks: timing, medians, rounding. */

/**
 * The median of `values` (the mean of the middle two for an even count); `NaN` when empty.
 *
 * @example
 * ```ts
 * median([3, 1, 2]); // 2
 * ```
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Rounds to `digits` decimals (3 by default) so results files stay readable.
 *
 * @example
 * ```ts
 * round(0.123456); // 0.123
 * ```
 */
export function round(value: number, digits = 3): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * Milliseconds taken by `fn` (awaited when it returns a promise).
 *
 * @example
 * ```ts
 * const ms = await timeMs(() => plan.flush());
 * ```
 */
export async function timeMs(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/**
 * Milliseconds taken by a synchronous `fn`.
 *
 * @example
 * ```ts
 * const ms = timeSyncMs(() => renderPlanForTurn(plan));
 * ```
 */
export function timeSyncMs(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/**
 * `a / b`, rounded to 1 decimal; `null` when `b` is 0.
 *
 * @example
 * ```ts
 * ratio(1340, 375); // 3.6
 * ```
 */
export function ratio(a: number, b: number): number | null {
  return b === 0 ? null : round(a / b, 1);
}
