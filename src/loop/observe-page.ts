import { toAbortError, untilAborted } from '../abort.js';
import type { ObserveContext, RunPageOptions } from './run-options.js';
import { clip } from './turn-prompt.js';

/**
 * What `page.observe` says the page shows for this turn, cut to its budget (4 characters a token,
 * a safety net for text that ignores the budget); a throw becomes a line the model can read. An
 * abort of `context.signal` rejects with an `AbortError`.
 *
 * @example
 * ```ts
 * const page = await observePage(() => document.title, { turn: 1, plan, signal, maxTokens: 400 });
 * ```
 */
export async function observePage(observe: NonNullable<RunPageOptions['observe']>, context: ObserveContext): Promise<string | undefined> {
  const maxChars = context.maxTokens * 4;
  let text: string | undefined;
  try {
    text = await untilAborted(Promise.resolve(observe(context)), context.signal);
  } catch (error) {
    if (context.signal?.aborted) throw toAbortError(context.signal.reason);
    return `(the page could not be read: ${clip(error instanceof Error ? error.message : error, 120)})`;
  }
  if (typeof text !== 'string' || maxChars === 0) return undefined;
  return text.length > maxChars ? `${text.slice(0, maxChars)}\n… (cut to the budget)` : text;
}
