/**
 * A model-independent token estimate: one token per 4 characters, rounded up. Nothing in planloop
 * counts tokens at run time (the benchmarks count o200k tokens with gpt-tokenizer, and report how
 * the outline's estimate compares); pass your model's tokenizer as `estimateTokens` for exact budgets.
 *
 * @example
 * ```ts
 * import { estimateTokens } from 'planloop/dom';
 * estimateTokens('[e3] button "Start free trial"'); // 8
 * ```
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
