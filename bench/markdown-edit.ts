import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readEditAnswer } from '../src/planning/edit-answer.js';
import { EDITS_SYSTEM_PROMPT, REWRITE_SYSTEM_PROMPT } from '../src/planning/edit-prompts.js';
import { mergeText } from '../src/planning/merge-text.js';
import { median, ratio, round, timeSyncMs } from './measure.js';
import { countTokens } from './tokens.js';

/** A 20 KB handbook as a team would keep it: headings, lists, a table, quotes, long paragraphs. */
export const HANDBOOK = readFileSync(fileURLToPath(new URL('./markdown-handbook.md', import.meta.url)), 'utf8');

/** The paragraph the benchmark's instruction changes, and what the model makes of it. */
const OLD_PARAGRAPH =
  'Refunds are granted within fourteen days of a purchase or a renewal, for the full amount, without questions. After fourteen days, support decides case by case. The agent may explain this rule but must never say that a particular refund will be granted.';
const NEW_PARAGRAPH =
  'Refunds are granted within thirty days of a purchase or a renewal, for the full amount, without questions. After thirty days, support decides case by case. The agent may explain this rule and link to the refund form, but must never say that a particular refund will be granted.';
/** The "small constant" of the target: the block's three marker lines and line breaks, in tokens. */
export const EDIT_CONSTANT_TOKENS = 20;

/** One way to answer the instruction, and its output tokens. */
export interface EditAnswerTokens {
  answer: 'rewrite (document markers)' | 'rewrite (JSON, the former protocol)' | 'edits (whole paragraph as SEARCH)' | 'edits (elided SEARCH)';
  mode: 'rewrite' | 'edits';
  outputTokens: number;
  /** Output tokens ÷ the new paragraph's tokens. */
  perChanged: number | null;
}

/** One document size of the threshold sweep: a one-sentence change answered both ways. */
export interface SweepRow {
  chars: number;
  rewriteTokens: number;
  editTokens: number;
  /** The same document with every paragraph changed, answered as edits (one block per paragraph). */
  everywhereEditTokens: number;
}

/** What {@link benchMarkdownEdit} measured. */
export interface MarkdownEditResult {
  tokenizer: 'o200k_base';
  documentChars: number;
  documentTokens: number;
  /** Tokens of the paragraph before and after the change. */
  changed: { before: number; after: number };
  answers: EditAnswerTokens[];
  /** System prompt tokens of each mode (input, sent once per call). */
  systemPrompt: { rewrite: number; edits: number };
  sweep: SweepRow[];
  /** Median milliseconds: reading and applying the edits answer; merging a concurrent edit into the 20 KB document; a 100 KB worst case. */
  timings: { readEdits: number; merge20k: number; merge100kRewrite: number; runs: number };
}

/**
 * Counts the output tokens of the answers to a one-paragraph change of a 20 KB document: the whole
 * document rewritten (between the markers, and as the former JSON protocol), and the edit block a
 * model writes (with the whole paragraph as SEARCH, and with the elided SEARCH the prompt allows).
 * Each answer is checked to give the expected document through `readEditAnswer`. Also sweeps
 * document sizes for the rewrite/edits threshold, and times reading and merging.
 *
 * @example
 * ```ts
 * const { answers } = benchMarkdownEdit({ runs: 5 });
 * ```
 */
export function benchMarkdownEdit(options: { runs?: number } = {}): MarkdownEditResult {
  const runs = options.runs ?? 50;
  const doc = { title: 'Guided tours: team handbook', content: HANDBOOK };
  const expected = HANDBOOK.replace(OLD_PARAGRAPH, NEW_PARAGRAPH);
  if (expected === HANDBOOK) throw new Error('benchMarkdownEdit: the changed paragraph is not in the handbook');
  const newTokens = countTokens(NEW_PARAGRAPH);
  const elided = `${OLD_PARAGRAPH.split(' ').slice(0, 8).join(' ')} ... ${OLD_PARAGRAPH.split(' ').slice(-6).join(' ')}`;
  const candidates: Array<[EditAnswerTokens['answer'], 'rewrite' | 'edits', string]> = [
    ['rewrite (document markers)', 'rewrite', `--- document start ---\n${expected}--- document end ---`],
    ['rewrite (JSON, the former protocol)', 'rewrite', JSON.stringify({ content: expected })],
    ['edits (whole paragraph as SEARCH)', 'edits', block(OLD_PARAGRAPH, NEW_PARAGRAPH)],
    ['edits (elided SEARCH)', 'edits', block(elided, NEW_PARAGRAPH)],
  ];
  const answers = candidates.map(([answer, mode, text]): EditAnswerTokens => {
    const reading = readEditAnswer(text, doc, { mode });
    if (!reading.ok || reading.content !== expected) throw new Error(`benchMarkdownEdit: the answer "${answer}" does not give the expected document`);
    const outputTokens = countTokens(text);
    return { answer, mode, outputTokens, perChanged: ratio(outputTokens, newTokens) };
  });

  const editsAnswer = (candidates[3] as [string, string, string])[2];
  const readEdits = median(Array.from({ length: runs }, () => timeSyncMs(() => readEditAnswer(editsAnswer, doc, { mode: 'edits' }))));
  const ours = HANDBOOK.replace(
    '- The sign-up form loses the email field when a tour navigates back to it. A fix is in review.',
    '- The sign-up form keeps the email field now (fixed in 4.2).',
  );
  const merge20k = median(Array.from({ length: runs }, () => timeSyncMs(() => mergeText(HANDBOOK, ours, expected))));
  // The worst case the merge meets: a 100 KB document the model rewrote whole (every line changed).
  const big = Array.from({ length: 5 }, (_, copy) => HANDBOOK.replace(/^## /gm, `## ${copy + 1}. `)).join('\n');
  const bigOurs = big.replace('## 3. Glossary', '## 3. Words we use');
  const bigTheirs = big.replace(/[a-z]+/g, (word) => word.toUpperCase());
  const merge100kRewrite = median(Array.from({ length: Math.max(3, Math.round(runs / 10)) }, () => timeSyncMs(() => mergeText(big, bigOurs, bigTheirs))));

  return {
    tokenizer: 'o200k_base',
    documentChars: HANDBOOK.length,
    documentTokens: countTokens(HANDBOOK),
    changed: { before: countTokens(OLD_PARAGRAPH), after: newTokens },
    answers,
    systemPrompt: { rewrite: countTokens(REWRITE_SYSTEM_PROMPT), edits: countTokens(EDITS_SYSTEM_PROMPT) },
    sweep: [500, 1000, 1500, 3000, 6000, 20000].map((chars) => sweep(chars)),
    timings: { readEdits: round(readEdits), merge20k: round(merge20k), merge100kRewrite: round(merge100kRewrite), runs },
  };
}

/**
 * The handbook cut to about `chars` characters at a paragraph break, and the answers to changing
 * one sentence of its last paragraph, and to changing every paragraph a little.
 */
function sweep(chars: number): SweepRow {
  const cut = HANDBOOK.lastIndexOf('\n\n', chars);
  const text = `${HANDBOOK.slice(0, cut > 0 ? cut : chars)}\n`;
  const paragraphs = text.split('\n\n').filter((paragraph) => /[a-z]{4}/.test(paragraph) && !paragraph.startsWith('#'));
  const last = paragraphs.at(-1) ?? '';
  const sentence = last.split(/(?<=\.) /)[0] ?? last;
  const changedSentence = sentence.replace(/\b(\w+)(\W*)$/, 'changed$2');
  const rewrite = `--- document start ---\n${text.replace(sentence, changedSentence)}--- document end ---`;
  const everywhere = paragraphs.map((paragraph) => block(paragraph, paragraph.replace(/\bthe\b/, 'this'))).join('\n');
  return {
    chars: text.length,
    rewriteTokens: countTokens(rewrite),
    editTokens: countTokens(block(sentence, changedSentence)),
    everywhereEditTokens: countTokens(everywhere),
  };
}

function block(search: string, replace: string): string {
  return `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;
}
