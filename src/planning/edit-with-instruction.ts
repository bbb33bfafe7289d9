import type { EditWithInstructionOptions } from '../artifacts/markdown.js';
import { PlanloopError, ValidationError, reportError } from '../errors.js';
import { EditError, RefusalError, type EditErrorCode } from '../model-errors.js';
import { throwIfAborted } from '../abort.js';
import { callModel, withTimeout } from '../llm/call.js';
import type { LLMMessage, LLMProvider, LLMUsage } from '../llm/provider.js';
import { createEditPreview, readEditAnswer, type EditAnswerForm, type EditReadingFailure } from './edit-answer.js';
import { EDITS_SYSTEM_PROMPT, REWRITE_SYSTEM_PROMPT, editFeedback, editPrompt, wantsRewrite } from './edit-prompts.js';

/**
 * Documents at least this long (in characters) are edited with SEARCH/REPLACE blocks in `auto`
 * mode; shorter ones are rewritten whole. Measured (`npm run bench`, o200k tokens): a rewrite
 * costs about 0.23 output tokens per character (300 at 1,300 characters, 1,300 at 6,000, 4,300 at
 * 20,000: past a few KB it outgrows the 1–2 K output limits small local models default to), a
 * one-sentence edit 30 to 90 whatever the size, but a change to every paragraph twice the rewrite
 * (each block quotes the old text), and the edits prompt is 120 input tokens longer. Below 1,500
 * characters a rewrite stays under about 350 tokens, cannot fail on an anchor and is the cheaper
 * answer to the whole-note instructions short notes get ("make it a list", "friendlier").
 *
 * @example
 * ```ts
 * declare const note: MarkdownDoc;
 * const mode = note.content.length >= EDITS_MIN_CHARS ? 'edits' : 'rewrite'; // what `auto` picks
 * ```
 */
export const EDITS_MIN_CHARS = 1500;

/** Options of {@link editDocument}: the options of `plan.markdown.editWithInstruction`. */
export type EditDocumentOptions = EditWithInstructionOptions;

export type { EditDelta } from '../artifacts/markdown.js';

/** What {@link editDocument} returns: the new document and how it was made. */
export interface EditDocumentResult {
  title: string;
  content: string;
  /** `edits` when SEARCH/REPLACE blocks were applied, `rewrite` when the model sent the whole document. */
  kind: 'rewrite' | 'edits';
  /** How the answer was written: `blocks`, `markers`, `json`, `fence` or `plain`. */
  form: EditAnswerForm;
  /** The mode the model was asked for. */
  mode: 'rewrite' | 'edits';
  /** Whether the title or the content differ from the input. */
  changed: boolean;
  /** How many model calls it took (1 + retries used). */
  attempts: number;
  /** Token counts summed over the attempts, as the provider reported them. */
  usage: LLMUsage;
  /** The model's last answer, as it was. */
  raw: string;
}

/**
 * Asks a model to edit a markdown document as instructed and returns the new document. Pure:
 * stores nothing and changes nothing; the caller commits the result (merging it with
 * `mergeDocument` if the document changed meanwhile).
 *
 * Short documents (or `mode: 'rewrite'`, or an instruction asking for a rewrite) are rewritten
 * whole; longer ones are edited with SEARCH/REPLACE blocks, so the answer grows with the change and
 * not with the document. Every answer form models give is read (blocks, the document between
 * marker lines, JSON `{ content | markdown, title? }`, a markdown fence, plain markdown with prose
 * around; see `readEditAnswer`). An unusable answer is fed back to the model with what was wrong
 * (the failing block and why) and retried; after `retries`, an {@link EditError} with the last
 * answer's code: `edit_refused`, `edit_empty`, `edit_truncated`, `edit_invalid`,
 * `edit_anchor_missing` or `edit_anchor_ambiguous`. Edit blocks apply all or nothing. Streams when
 * the provider can. Aborts throw `aborted`, the time bound `timeout`; provider failures propagate
 * as {@link ProviderError}. Defaults: `mode` `auto`, `timeoutMs` 30 000, `retries` 1.
 *
 * @example
 * ```ts
 * declare const content: string; // the note's text
 * const editor = document.querySelector('textarea')!;
 * const result = await editDocument(provider, { title: 'Tour notes', content }, 'Fix the pricing paragraph: three tiers, not four.', {
 *   onDelta: ({ preview }) => { if (preview !== undefined) editor.value = preview; },
 * });
 * result.kind; // 'edits' for a long note
 * ```
 */
export async function editDocument(
  provider: LLMProvider,
  doc: { title: string; content: string; id?: string | undefined },
  instruction: string,
  options: EditDocumentOptions = {},
): Promise<EditDocumentResult> {
  const { retries, timeoutMs, mode: asked } = checkOptions(doc, instruction, options);
  // The check isProvider makes, written out: importing it would tie llm/provider.ts (loaded at
  // start) to the editor's chunk, and split it into a chunk of its own (test/size.test.ts).
  if (typeof (provider as LLMProvider | null)?.generate !== 'function')
    throw new PlanloopError('no_llm', 'editDocument needs a model: pass an LLM provider (an object with generate()).');
  throwIfAborted(options.signal);
  const providerName = typeof provider.name === 'string' && provider.name !== '' ? provider.name : undefined;
  const mode = asked !== 'auto' ? asked : doc.content.length >= EDITS_MIN_CHARS && !wantsRewrite(instruction) ? 'edits' : 'rewrite';
  const deadline = withTimeout(options.signal, timeoutMs);
  try {
    return await askForEdit(provider, doc, instruction, options, { retries, mode, providerName }, deadline.signal);
  } finally {
    deadline.clear();
  }
}

/** The attempts of {@link editDocument}, within its deadline's `signal`. */
async function askForEdit(
  provider: LLMProvider,
  doc: { title: string; content: string; id?: string | undefined },
  instruction: string,
  options: EditDocumentOptions,
  { retries, mode, providerName }: { retries: number; mode: 'rewrite' | 'edits'; providerName: string | undefined },
  signal: AbortSignal | undefined,
): Promise<EditDocumentResult> {
  const messages: LLMMessage[] = [
    { role: 'system', content: mode === 'edits' ? EDITS_SYSTEM_PROMPT : REWRITE_SYSTEM_PROMPT },
    { role: 'user', content: editPrompt(doc, instruction) },
  ];
  const usage: LLMUsage = {};
  let failure: EditReadingFailure | undefined;
  let raw = '';
  for (let attempt = 1; attempt <= retries + 1; attempt++) {
    if (failure) messages.push({ role: 'assistant', content: echo(raw) }, { role: 'user', content: editFeedback(mode, failure.problems) });
    const preview = options.onDelta ? createEditPreview(doc) : undefined;
    const request = { messages: [...messages], ...(signal ? { signal } : {}), ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}) };
    const reply = await callModel(provider, request, {
      onDelta: (delta, text) => {
        if (preview) isolate(() => options.onDelta?.({ delta, text, attempt, preview: preview(text) }));
      },
    }).catch((error: unknown) => {
      // The provider said the model declined: the same outcome as a reply that reads as a refusal, not retried.
      if (!RefusalError.isInstance(error)) throw error;
      const failure: EditReadingFailure = {
        ok: false,
        code: 'edit_refused',
        problems: [`the provider reported a refusal${error.refusal ? `: ${error.refusal.slice(0, 200)}` : ''}`],
        issues: [],
      };
      throw editError(failure, error.refusal, attempt, doc, providerName, error);
    });
    raw = reply.text;
    for (const key of ['inputTokens', 'outputTokens'] as const) {
      if (reply.usage?.[key] !== undefined) usage[key] = (usage[key] ?? 0) + reply.usage[key];
    }
    const reading = readEditAnswer(raw, doc, { mode, finishReason: reply.finishReason });
    if (reading.ok) {
      throwIfAborted(signal);
      const { kind, form, title, content } = reading;
      const changed = title !== doc.title || content !== doc.content;
      return { title, content, kind, form, mode, changed, attempts: attempt, usage, raw };
    }
    failure = reading;
  }
  throw editError(failure as EditReadingFailure, raw, retries + 1, doc, providerName);
}

const MODES = new Set(['auto', 'rewrite', 'edits']);

function checkOptions(doc: { title: string; content: string }, instruction: string, options: EditDocumentOptions) {
  const issues: Array<{ path: string; message: string }> = [];
  if (typeof doc !== 'object' || doc === null || typeof doc.content !== 'string') issues.push({ path: 'doc.content', message: 'must be a string' });
  if (typeof doc?.title !== 'string') issues.push({ path: 'doc.title', message: 'must be a string' });
  if (typeof instruction !== 'string' || instruction.trim() === '') issues.push({ path: 'instruction', message: 'must not be empty: say what to change' });
  const retries = options.retries ?? 1;
  if (!Number.isInteger(retries) || retries < 0) issues.push({ path: 'retries', message: 'must be a whole number of at least 0' });
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs < 0)
    issues.push({ path: 'timeoutMs', message: 'must be a non-negative number of milliseconds (0 or Infinity for none)' });
  const mode = options.mode ?? 'auto';
  if (!MODES.has(mode)) issues.push({ path: 'mode', message: "must be 'auto', 'rewrite' or 'edits'" });
  if (options.maxTokens !== undefined && !(Number.isInteger(options.maxTokens) && options.maxTokens > 0))
    issues.push({ path: 'maxTokens', message: 'must be a positive whole number' });
  if (issues.length > 0) {
    throw new ValidationError('invalid_input', `Cannot edit the document: ${issues.map((issue) => `${issue.path} ${issue.message}`).join('; ')}.`, { issues });
  }
  return { retries, timeoutMs, mode };
}

const WHAT: Record<EditErrorCode, string> = {
  edit_refused: 'declined to edit',
  edit_empty: 'gave an empty answer for',
  edit_truncated: 'was cut off while editing',
  edit_invalid: 'gave no usable document or edits for',
  edit_anchor_missing: 'quoted text that is not in',
  edit_anchor_ambiguous: 'quoted text that occurs more than once in',
};

function editError(
  failure: EditReadingFailure,
  raw: string,
  tries: number,
  doc: { title: string; id?: string | undefined },
  provider: string | undefined,
  cause?: unknown,
): EditError {
  const who = provider ? `The model (${provider})` : 'The model';
  const which = doc.id ? `markdown doc ${doc.id}` : `the document "${doc.title}"`;
  const fix =
    failure.code === 'edit_truncated'
      ? " Raise the model's token limit (maxTokens), or use mode 'edits' for a long document."
      : failure.code === 'edit_refused'
        ? ' Rephrase the instruction, or edit the document yourself.'
        : ' Try again, or a larger model.';
  const message = `${who} ${WHAT[failure.code]} ${which} (${tries} attempt${tries === 1 ? '' : 's'}): ${failure.problems.join('; ')}. The document is unchanged; the answer is in error.raw.${fix}`;
  return new EditError(failure.code, message, { raw, issues: failure.issues, provider, ...(cause === undefined ? {} : { cause }) });
}

/** The earlier answer as fed back: capped, and never empty (some APIs refuse empty messages). */
function echo(raw: string): string {
  if (raw.trim() === '') return '(empty answer)';
  return raw.length > 8000 ? `${raw.slice(0, 8000)}… (cut)` : raw;
}

/** Runs a host callback; a throw is reported (like a throwing event listener) and the edit goes on. */
function isolate(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    reportError(error);
  }
}
