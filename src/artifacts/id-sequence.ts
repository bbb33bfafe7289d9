/**
 * Hands out ids `t1`, `t2`, … for one artifact. The counter only moves forward and is never behind
 * the highest id it has seen, so an id is never reused: not after deletes, `reset`, or hydration.
 *
 * @example
 * ```ts
 * const ids = new IdSequence('t');
 * ids.observe('t5');
 * ids.next(); // 't6'
 * ```
 */
export class IdSequence {
  readonly prefix: string;
  #last = 0;
  readonly #pattern: RegExp;

  constructor(prefix: string) {
    this.prefix = prefix;
    this.#pattern = new RegExp(`^${prefix}(\\d+)$`);
  }

  /** The next unused id. */
  next(): string {
    this.#last += 1;
    return `${this.prefix}${this.#last}`;
  }

  /** Moves the counter past `id` when it has this sequence's shape (`t12`); other ids are ignored. */
  observe(id: string): void {
    const n = this.numberOf(id);
    if (n !== undefined && n > this.#last) this.#last = n;
  }

  /** The number in `id` when it has this sequence's shape (`t12` gives 12), else `undefined`. */
  numberOf(id: string): number | undefined {
    const match = this.#pattern.exec(id);
    if (!match?.[1]) return undefined;
    const n = Number(match[1]);
    return Number.isSafeInteger(n) ? n : undefined;
  }

  /** The highest number handed out or seen; `0` when none. Persisted so deleted ids stay retired. */
  get last(): number {
    return this.#last;
  }

  /** Moves the counter forward to at least `n` (never back). */
  advanceTo(n: number): void {
    if (Number.isSafeInteger(n) && n > this.#last) this.#last = n;
  }
}
