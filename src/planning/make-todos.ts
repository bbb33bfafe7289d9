import { z } from 'zod/mini';
import type { TodoSeed } from '../artifacts/todos.js';
import { PlanloopError, PlannerOutputError, ProviderError, ValidationError, throwIfAborted, toAbortError, untilAborted, type ValidationIssue } from '../errors.js';
import type { TaskPlan } from '../events.js';
import { streamOrGenerate, type FinishReason, type LLMMessage, type LLMProvider, type LLMRequest } from '../llm/provider.js';
import type { Plan } from '../plan.js';
import { formatIssues, toIssues } from '../validation.js';
import { parseModelJson } from './model-json.js';
import {
  MAX_TODOS,
  PLAN_OUTPUT_SCHEMA,
  plannerFeedback,
  plannerSystem,
  plannerUserMessage,
  type BrandPrompt,
  type PersonaInput,
  type SelectionContext,
  type SitemapConfig,
} from './prompts.js';
import { SummaryStream } from './summary-stream.js';

export type { BrandPrompt, PersonaInput, SelectionContext, SitemapConfig, SitemapPage } from './prompts.js';

/**
 * What the planning call takes. Only `task` is required; everything else, when given, goes into
 * the planner's prompt.
 *
 * @example
 * ```ts
 * const input: PlanInput = {
 *   task: 'Zeig mir die Preise',
 *   locale: 'de-DE',
 *   sitemap: [{ path: '/pricing', title: 'Pricing', description: 'plans and prices' }],
 *   selection: { text: 'Team plan', selector: '#team' },
 * };
 * ```
 */
export interface PlanInput {
  /** The user's request, as they wrote it. Must not be empty. */
  task: string;
  /** The pages the planner may take the user to. */
  sitemap?: SitemapConfig;
  brand?: BrandPrompt;
  persona?: PersonaInput;
  /** BCP-47 tag (`de-DE`): the language of the task summary and the todo descriptions. */
  locale?: string;
  /** What the user had selected on the page when they asked. */
  selection?: SelectionContext;
  /** Free-form extra context from the host. */
  hostContext?: string;
}

/** Options of `makeTodos`. */
export interface MakeTodosOptions {
  signal?: AbortSignal | undefined;
  /**
   * Receives the task summary as it streams: the new text and everything so far. If the call
   * retries, the summary starts again: a call with `('', '')` marks the restart.
   */
  onSummaryDelta?: ((delta: string, text: string) => void) | undefined;
  /** Bound on the whole call, retries included, in ms. `0` or `Infinity` turns it off. Default 30 000. */
  timeoutMs?: number | undefined;
  /** Further attempts after an unusable answer, each told what was wrong. Default 1. */
  retries?: number | undefined;
}

const optionalText = z.optional(z.string());
const InputSchema = z.object({
  task: z.string().check(z.trim(), z.minLength(1)),
  locale: optionalText,
  hostContext: optionalText,
});
const PageSchema = z.object({ path: z.string().check(z.trim(), z.minLength(1)), title: optionalText, description: optionalText });
/** Each of these fields is either a string or the object shape given here. */
const SHAPED_FIELDS = {
  sitemap: { schema: z.array(PageSchema), shape: 'an array of { path, title?, description? }' },
  brand: { schema: z.object({ name: z.string().check(z.trim(), z.minLength(1)), voice: optionalText, guidelines: optionalText }), shape: 'an object { name, voice?, guidelines? }' },
  persona: { schema: z.object({ name: optionalText, role: optionalText, tone: optionalText }), shape: 'an object { name?, role?, tone? }' },
  selection: { schema: z.object({ text: z.string(), selector: optionalText, url: optionalText }), shape: 'an object { text, selector?, url? }' },
} as const;

/**
 * Validates a {@link PlanInput}; throws a {@link ValidationError} naming every bad field.
 *
 * @example
 * ```ts
 * parsePlanInput({ task: '' }); // throws: task must not be empty
 * ```
 */
export function parsePlanInput(input: unknown): PlanInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ValidationError('Cannot plan: makeTodos takes an object such as { task: "Show me the prices" }.', [
      { path: '(root)', message: 'must be an object' },
    ]);
  }
  const record = input as Record<string, unknown>;
  const issues: ValidationIssue[] = [];
  const base = InputSchema.safeParse(record);
  if (!base.success) issues.push(...toIssues(base.error.issues));
  if (typeof record.locale === 'string' && !isLanguageTag(record.locale)) {
    issues.push({ path: 'locale', message: 'must be a BCP-47 language tag such as "de-DE"' });
  }
  const parsed: Record<string, unknown> = {};
  for (const [key, { schema, shape }] of Object.entries(SHAPED_FIELDS)) {
    const value = record[key];
    if (value === undefined || typeof value === 'string') {
      if (value !== undefined) parsed[key] = value;
      continue;
    }
    if (typeof value !== 'object' || value === null) {
      issues.push({ path: key, message: `must be a string or ${shape}` });
      continue;
    }
    const result = schema.safeParse(value);
    if (result.success) parsed[key] = result.data;
    else issues.push(...toIssues(result.error.issues, [key]));
  }
  if (issues.length > 0 || !base.success) throw new ValidationError(`Cannot plan: ${formatIssues(issues)}.`, issues);
  return { ...parsed, ...definedOnly(base.data) } as PlanInput;
}

/**
 * Like {@link parsePlanInput}, but returns `{ success, data | error }` instead of throwing.
 *
 * @example
 * ```ts
 * const result = safeParsePlanInput({ task: form.task.value, locale: navigator.language });
 * if (!result.success) showProblems(result.error.issues);
 * ```
 */
export function safeParsePlanInput(input: unknown): { success: true; data: PlanInput } | { success: false; error: ValidationError } {
  try {
    return { success: true, data: parsePlanInput(input) };
  } catch (error) {
    if (error instanceof ValidationError) return { success: false, error };
    throw error;
  }
}

/**
 * The planning call: asks the plan's `plan` model for a task summary and ordered todos, then
 * resets `plan.todos` to exactly those (fresh ids, `pending`) and emits `plan-create` and
 * `plan-update` (source `make-todos`). Used through `plan.makeTodos(input, options)`.
 *
 * The answer is read tolerantly (code fences, prose around it, trailing commas, single quotes;
 * see `parseModelJson`) and validated: todos without a description are dropped, a missing intent
 * becomes `narrate`, an `expected_turn` that is not a positive number is dropped (fractions are
 * rounded), a todo written as a bare string becomes a `narrate` todo, a missing `task_summary`
 * becomes `''`, and a bare array is read as the todos. An answer with no usable todo (or more
 * than 50), or one cut off before its JSON closed (even if repairable: the plan would be partial),
 * is retried with feedback; after `retries`, {@link PlannerOutputError} (`planner_output_invalid`,
 * or `planner_output_truncated` when the last answer was cut off, with `raw` and `issues`). A
 * complete, usable answer counts even when the model reports its length limit. A failed, aborted
 * (`aborted`) or timed-out (`timeout`, the bound covers retries) call changes nothing. Provider
 * failures propagate as {@link ProviderError}. Defaults: `timeoutMs` 30 000, `retries` 1.
 *
 * @example
 * ```ts
 * const { task_summary, todos } = await makeTodos(plan, { task: 'Show me the prices', locale: 'en' }, {
 *   onSummaryDelta: (_delta, text) => banner.textContent = text,
 * });
 * ```
 */
export async function makeTodos(plan: Plan, input: PlanInput, options: MakeTodosOptions = {}): Promise<TaskPlan> {
  const parsedInput = parsePlanInput(input);
  const retries = checkCount(options.retries ?? 1, 'retries');
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs < 0) {
    throw new ValidationError('Cannot plan: timeoutMs must be a number of milliseconds (0 or Infinity for none).', [
      { path: 'timeoutMs', message: 'must be a non-negative number' },
    ]);
  }
  throwIfAborted(options.signal);
  const provider = plan.provider('plan');
  const signal = withTimeout(options.signal, timeoutMs);

  const messages: LLMMessage[] = [
    { role: 'system', content: plannerSystem(plan) },
    { role: 'user', content: plannerUserMessage(parsedInput) },
  ];
  let streamed = false;
  const emitSummary = (delta: string, text: string): void => {
    streamed = true;
    plan.emit('summary-delta', { delta, text });
    if (options.onSummaryDelta) isolate(() => options.onSummaryDelta?.(delta, text));
  };

  let failure: PlanFailure | undefined;
  let raw = '';
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (failure) {
      if (streamed) emitSummary('', '');
      messages.push({ role: 'assistant', content: echo(raw) }, { role: 'user', content: plannerFeedback(failure) });
    }
    const summary = new SummaryStream();
    const reply = await collectReply(provider, { messages: [...messages], jsonSchema: PLAN_OUTPUT_SCHEMA, ...(signal ? { signal } : {}) }, (delta) => {
      const added = summary.push(delta);
      if (added) emitSummary(added, summary.text);
    });
    raw = reply.text;
    const result = readPlan(reply.text, reply.finishReason);
    if (result.ok) {
      // An abort that lands after the answer but before it is applied still changes nothing.
      throwIfAborted(signal);
      // The scanner reads only a plain top-level task_summary; the whole-text parse also reads a
      // wrapped answer, an unquoted key or a repeated one. Make the deltas add up to what it read.
      if (summary.text !== result.summary) {
        if (!result.summary.startsWith(summary.text)) emitSummary('', '');
        const from = result.summary.startsWith(summary.text) ? summary.text.length : 0;
        emitSummary(result.summary.slice(from), result.summary);
      }
      return plan.setTaskPlan({ task_summary: result.summary, todos: result.items, task: parsedInput.task });
    }
    failure = result;
  }
  const last = failure as PlanFailure;
  const tries = `${retries + 1} attempt${retries === 0 ? '' : 's'}`;
  throw new PlannerOutputError(
    last.truncated ? 'planner_output_truncated' : 'planner_output_invalid',
    last.truncated
      ? `The planner's answer ${last.issues[0]?.message ?? 'was cut off'} (${tries}); nothing was changed. Raise the model's token limit or ask for a shorter plan. The text is in error.raw.`
      : `The planner's answer was unusable (${tries}): ${formatIssues(last.issues)}. Nothing was changed; the text is in error.raw.`,
    { raw, issues: last.issues },
  );
}

interface PlanFailure {
  ok: false;
  truncated: boolean;
  issues: ValidationIssue[];
  /** Short sentences for the model. */
  problems: string[];
}

type PlanReading = { ok: true; summary: string; items: TodoSeed[] } | PlanFailure;

const LooseTodo = z.object({
  description: z.string().check(z.trim(), z.minLength(1)),
  intent: z.catch(z.optional(z.string()), undefined),
  expected_turn: z.catch(z.optional(z.union([z.number(), z.string()])), undefined),
});

/**
 * Reads a planner answer into todos, or says what is wrong with it.
 *
 * @example
 * ```ts
 * readPlan('{"task_summary":"Tour","todos":[{"description":"Open pricing"}]}', 'stop');
 * // { ok: true, summary: 'Tour', items: [{ intent: 'narrate', description: 'Open pricing', status: 'pending' }] }
 * ```
 */
export function readPlan(text: string, finishReason?: FinishReason): PlanReading {
  const parsed = parseModelJson(text);
  // A JSON value that never closed is never used, even when repairable: the plan would be partial.
  if (parsed.truncated) return truncated(finishReason);
  const result = parsed.ok ? validatePlan(parsed.value) : invalid([{ path: '(root)', message: parsed.error }]);
  // A closed, usable answer counts even at the length limit: JSON modes (OpenAI's json_object,
  // small local models) often pad a finished object with whitespace until they hit the limit.
  return !result.ok && finishReason === 'length' ? truncated(finishReason) : result;
}

function validatePlan(value: unknown): PlanReading {
  let record = (Array.isArray(value) ? { todos: value } : value) as Record<string, unknown>;
  // Some models wrap the answer once: {"plan": {"task_summary": …, "todos": […]}}.
  const keys = Object.keys(record);
  const inner = keys.length === 1 ? record[keys[0] as string] : undefined;
  if (!('todos' in record) && typeof inner === 'object' && inner !== null && 'todos' in inner) record = inner as Record<string, unknown>;

  const issues: ValidationIssue[] = [];
  const summary = record.task_summary ?? '';
  if (typeof summary !== 'string') issues.push({ path: 'task_summary', message: 'must be a string (one short sentence)' });
  const todos = record.todos;
  if (!Array.isArray(todos)) {
    issues.push({ path: 'todos', message: todos === undefined ? 'is required (an array of todos)' : 'must be an array of todos' });
    return invalid(issues);
  }
  if (todos.length > MAX_TODOS) {
    issues.push({ path: 'todos', message: `has ${todos.length} items; a plan has at most ${MAX_TODOS} (usually 2 to 6)` });
    return invalid(issues);
  }
  const items: TodoSeed[] = [];
  const dropped: ValidationIssue[] = [];
  todos.forEach((todo, index) => {
    const result = LooseTodo.safeParse(typeof todo === 'string' ? { description: todo } : todo);
    if (!result.success) {
      dropped.push(...toIssues(result.error.issues, ['todos', index]));
      return;
    }
    const { description, intent, expected_turn } = result.data;
    const item: TodoSeed = { intent: intent?.trim().toLowerCase() || 'narrate', description, status: 'pending' };
    const turn = typeof expected_turn === 'string' ? Number(expected_turn) : expected_turn;
    // 1e20 is "a positive number" but no whole number the todos accept: dropped like the rest.
    if (turn !== undefined && Number.isSafeInteger(Math.round(turn)) && Math.round(turn) >= 1) item.expected_turn = Math.round(turn);
    items.push(item);
  });
  if (items.length === 0) {
    issues.push(
      todos.length === 0 ? { path: 'todos', message: 'must have at least 1 todo' } : { path: 'todos', message: 'has no usable todo (each needs a non-empty description)' },
      ...dropped,
    );
  }
  if (issues.length > 0) return invalid(issues);
  return { ok: true, summary: summary as string, items };
}

function truncated(finishReason: FinishReason | undefined): PlanFailure {
  const message = finishReason === 'length' ? 'was cut off by the length limit' : 'ended before its JSON closed';
  return { ok: false, truncated: true, issues: [{ path: '(root)', message }], problems: [`the answer ${message}`] };
}

function invalid(issues: ValidationIssue[]): PlanFailure {
  return { ok: false, truncated: false, issues, problems: issues.map((issue) => `${issue.path} ${issue.message}`) };
}


/**
 * One model call, streamed when the provider can: returns the whole text and how it finished,
 * passing each delta to `onDelta`. Stops waiting as soon as `request.signal` aborts, even if the
 * provider ignores it. Errors: the abort as an `AbortError` (`aborted` or `timeout`), a
 * {@link PlanloopError} from the provider as is, anything else wrapped in a {@link ProviderError}.
 *
 * @example
 * ```ts
 * const { text, finishReason } = await collectReply(provider, { messages, signal }, (delta) => log(delta));
 * ```
 */
export async function collectReply(
  provider: LLMProvider,
  request: LLMRequest,
  onDelta?: (delta: string) => void,
): Promise<{ text: string; finishReason: FinishReason | undefined }> {
  const { signal } = request;
  throwIfAborted(signal);
  const iterator = streamOrGenerate(provider, request)[Symbol.asyncIterator]();
  let text = '';
  let finishReason: FinishReason | undefined;
  try {
    for (;;) {
      throwIfAborted(signal);
      const step = await untilAborted(iterator.next(), signal);
      if (step.done) break;
      const chunk = step.value;
      if (chunk.type === 'text-delta') {
        text += chunk.delta;
        onDelta?.(chunk.delta);
      } else if (chunk.type === 'finish') finishReason = chunk.finishReason;
    }
  } catch (error) {
    // Let the provider clean up (close its stream); never wait on it.
    iterator.return?.().catch(() => {});
    if (signal?.aborted) throw toAbortError(signal.reason);
    if (error instanceof PlanloopError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ProviderError(`The model call failed: ${message}`, { provider: 'unknown', retryable: false }, { cause: error });
  }
  throwIfAborted(signal);
  return { text, finishReason };
}

function withTimeout(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal | undefined {
  // Timers overflow past 2^31 - 1 ms (about 24.8 days) and fire at once: treat longer as none.
  if (timeoutMs === 0 || timeoutMs > 2_147_483_647) return signal;
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

/** The earlier answer as fed back to the model: capped, and never empty (some APIs refuse empty messages). */
function echo(raw: string): string {
  if (raw.trim() === '') return '(empty answer)';
  return raw.length > 4000 ? `${raw.slice(0, 4000)}… (cut)` : raw;
}

function checkCount(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new ValidationError(`Cannot plan: ${name} must be a whole number of at least 0.`, [{ path: name, message: 'must be a non-negative integer' }]);
  }
  return value;
}

function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** Runs a host callback; a throw is reported (like a throwing event listener) and the call goes on. */
function isolate(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
    if (typeof report === 'function') report(error);
    else console.error('[planloop] onSummaryDelta threw:', error);
  }
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

