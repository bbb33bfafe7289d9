// About one token per short word (a long word is counted once per 8 letters), per 1 to 3 digits,
// per other symbol (punctuation, a letter outside A-Z), per line break and per indentation. On
// outline text this counts 1 to 10% more than o200k, the GPT-4o/GPT-5 tokenizer (`npm run bench`
// compares them), never less on the pages measured, and more still on non-Latin text: a budget
// errs on the safe side. Characters / 4, the usual rule of thumb for English prose, counted
// outline text a third too low: its lines are dense in brackets, quotes and short words.
const PIECES = /[A-Za-z]{1,8}|\d{1,3}|[^\sA-Za-z\d]|\n|^ +/gm;

/**
 * The outline's default token estimate: one per short word, number, symbol, line break and
 * indentation (see above), so that a budget of 400 is at most about 400 real tokens of outline text. Nothing in planloop
 * counts tokens at run time; pass your model's tokenizer as `outlinePage`'s `estimateTokens` for
 * an exact budget.
 *
 * @example
 * ```ts
 * import { estimateTokens } from 'planloop/dom';
 * estimateTokens('[e3] button "Start free trial"'); // 10 (o200k: 9)
 * ```
 */
export function estimateTokens(text: string): number {
  return text.match(PIECES)?.length ?? 0;
}
