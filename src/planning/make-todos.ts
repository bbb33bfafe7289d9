import { readTodoCheckInput } from '../todo-check-text.js';
import { TODO_LIMITS, type TodoSeed } from '../artifacts/todos.js';
import { ValidationError, reportError, type ValidationIssue } from '../errors.js';
import { PlannerOutputError } from '../model-errors.js';
import { throwIfAborted } from '../abort.js';
import { isRecord, readText } from '../guards.js';
import { callModel, withTimeout } from '../llm/call.js';
import { parseModelJson } from '../llm/model-json.js';
import type { FinishReason, LLMMessage, LLMProvider } from '../llm/provider.js';
import { formatIssues } from '../validation.js';
import { MAX_TODOS, PLAN_OUTPUT_SCHEMA, plannerFeedback, plannerSystem, plannerUserMessage } from './prompts.js';
import { validatePlanInput, type PlanInput } from './plan-input.js';
import { SummaryStream } from './summary-stream.js';

export type { BrandPrompt, PersonaInput, SelectionContext, SitemapConfig, SitemapPage } from './prompts.js';
export { readSitemap, safeValidatePlanInput, validatePlanInput, type PlanInput } from './plan-input.js';

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

/** What {@link planTodos} needs besides the input: who the planner is and how it is told. */
export interface PlannerConfig {
  agentName?: string | undefined;
  systemPrompt?: string | undefined;
  appendSystemPrompt?: string | undefined;
}

/** What the planning call produced: the summary, and the todos without ids (the plan assigns them). */
export interface PlannedTodos {
  /** The one-sentence summary (the model writes it as `task_summary`). */
  summary: string;
  todos: TodoSeed[];
}

/** The longest task summary, in characters: one short sentence. */
export const MAX_SUMMARY = 500;

/**
 * The planning call, as a pure function: asks `provider` for a task summary and ordered todos and
 * returns them; changes nothing anywhere. `plan.makeTodos(input)` calls it and then makes the
 * answer the plan.
 *
 * The answer is read tolerantly (code fences, prose around it, trailing commas, single quotes;
 * see `parseModelJson`) and validated: todos without a description are dropped, a missing intent
 * becomes `narrate`, an `expected_turn` that is not a positive number is dropped (fractions are
 * rounded), a todo written as a bare string becomes a `narrate` todo, a missing `task_summary`
 * becomes `''`, and a bare array is read as the todos. An answer with no usable todo (or more
 * than 50, or a summary or description past its limit), or one cut off before its JSON closed
 * (even if repairable: the plan would be partial), is retried with feedback; after `retries`,
 * {@link PlannerOutputError} (`planner_output_invalid`, or `planner_output_truncated` when the
 * last answer was cut off, with `raw` and `issues`). A complete, usable answer counts even when
 * the model reports its length limit. Aborts throw `aborted`, the bound `timeout` (it covers
 * retries). Provider failures propagate as {@link ProviderError}. Defaults: `timeoutMs` 30 000,
 * `retries` 1.
 *
 * @example
 * ```ts
 * const { summary, todos } = await planTodos(provider, { task: 'Show me the prices', locale: 'en' }, {
 *   onSummaryDelta: (_delta, text) => (document.querySelector('#summary')!.textContent = text),
 * });
 * ```
 */
export async function planTodos(provider: LLMProvider, input: PlanInput, options: MakeTodosOptions & { planner?: PlannerConfig } = {}): Promise<PlannedTodos> {
  const parsedInput = validatePlanInput(input);
  const retries = checkCount(options.retries ?? 1, 'retries');
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (typeof timeoutMs !== 'number' || Number.isNaN(timeoutMs) || timeoutMs < 0) {
    throw new ValidationError('invalid_input', 'Cannot plan: timeoutMs must be a number of milliseconds (0 or Infinity for none).', {
      issues: [{ path: 'timeoutMs', message: 'must be a non-negative number' }],
    });
  }
  throwIfAborted(options.signal);
  // One bound over every attempt, not one per attempt.
  const deadline = withTimeout(options.signal, timeoutMs);
  try {
    return await askForPlan(provider, parsedInput, options, retries, deadline.signal);
  } finally {
    deadline.clear();
  }
}

/** The planning attempts of {@link planTodos}, within its deadline's `signal`. */
async function askForPlan(
  provider: LLMProvider,
  parsedInput: PlanInput,
  options: MakeTodosOptions & { planner?: PlannerConfig },
  retries: number,
  signal: AbortSignal | undefined,
): Promise<PlannedTodos> {
  const messages: LLMMessage[] = [
    { role: 'system', content: plannerSystem(options.planner ?? {}) },
    { role: 'user', content: plannerUserMessage(parsedInput) },
  ];
  let streamed = false;
  const emitSummary = (delta: string, text: string): void => {
    streamed = true;
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
    const reply = await callModel(
      provider,
      { messages: [...messages], jsonSchema: PLAN_OUTPUT_SCHEMA, ...(signal ? { signal } : {}) },
      {
        onDelta: (delta) => {
          const added = summary.push(delta);
          if (added) emitSummary(added, summary.text);
        },
      },
    );
    raw = reply.text;
    const result = readPlan(reply.text, reply.finishReason);
    if (result.ok) {
      // An abort that lands after the answer still changes nothing.
      throwIfAborted(signal);
      // The scanner reads only a plain top-level task_summary; the whole-text parse also reads a
      // wrapped answer, an unquoted key or a repeated one. Make the deltas add up to what it read.
      if (summary.text !== result.summary) {
        if (!result.summary.startsWith(summary.text)) emitSummary('', '');
        const from = result.summary.startsWith(summary.text) ? summary.text.length : 0;
        emitSummary(result.summary.slice(from), result.summary);
      }
      return { summary: result.summary, todos: result.items };
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
  let record: Record<string, unknown> = Array.isArray(value) ? { todos: value } : isRecord(value) ? value : {};
  // Some models wrap the answer once: {"plan": {"task_summary": …, "todos": […]}}.
  const keys = Object.keys(record);
  const inner = keys.length === 1 ? record[keys[0] as string] : undefined;
  if (!('todos' in record) && isRecord(inner) && 'todos' in inner) record = inner;

  const issues: ValidationIssue[] = [];
  const summary = record.task_summary ?? '';
  if (typeof summary !== 'string') issues.push({ path: 'task_summary', message: 'must be a string (one short sentence)' });
  else if (summary.length > MAX_SUMMARY) issues.push({ path: 'task_summary', message: `must have at most ${MAX_SUMMARY} characters (one short sentence)` });
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
  const badChecks: ValidationIssue[] = [];
  todos.forEach((todo, index) => {
    const entry = typeof todo === 'string' ? { description: todo } : isRecord(todo) ? todo : {};
    const path = `todos[${index}]`;
    const description = readText(entry.description, `${path}.description`, dropped, { max: TODO_LIMITS.description });
    if (dropped.some((issue) => issue.path === `${path}.description`)) return;
    const intent = typeof entry.intent === 'string' && entry.intent.trim() ? entry.intent.trim().toLowerCase().slice(0, TODO_LIMITS.intent) : 'narrate';
    const item: TodoSeed = { intent, description, status: 'pending' };
    // A check the planner wrote must be one the SDK can evaluate: anything else is an answer to fix, never a silent pass.
    if (entry.check !== undefined && entry.check !== null && entry.check !== '') {
      const check = readTodoCheckInput(entry.check, `${path}.check`, badChecks);
      if (check) item.check = check;
    }
    const turn = typeof entry.expected_turn === 'string' ? Number(entry.expected_turn) : entry.expected_turn;
    // 1e20 is "a positive number" but no whole number the todos accept: dropped like the rest.
    if (typeof turn === 'number' && Number.isSafeInteger(Math.round(turn)) && Math.round(turn) >= 1) item.expected_turn = Math.round(turn);
    items.push(item);
  });
  // A description past the limit is an answer to fix, not a todo to drop silently.
  const overlong = dropped.filter((issue) => issue.message.startsWith('must have at most'));
  if (items.length === 0 || overlong.length > 0) {
    if (items.length === 0) {
      issues.push(
        todos.length === 0
          ? { path: 'todos', message: 'must have at least 1 todo' }
          : { path: 'todos', message: 'has no usable todo (each needs a non-empty description)' },
      );
    }
    issues.push(...(items.length === 0 ? dropped : overlong));
  }
  issues.push(...badChecks);
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

/** The earlier answer as fed back to the model: capped, and never empty (some APIs refuse empty messages). */
function echo(raw: string): string {
  if (raw.trim() === '') return '(empty answer)';
  return raw.length > 4000 ? `${raw.slice(0, 4000)}… (cut)` : raw;
}

function checkCount(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) {
    throw new ValidationError('invalid_input', `Cannot plan: ${name} must be a whole number of at least 0.`, {
      issues: [{ path: name, message: 'must be a non-negative integer' }],
    });
  }
  return value;
}

/** Runs a host callback; a throw is reported (like a throwing event listener) and the call goes on. */
function isolate(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    reportError(error);
  }
}
