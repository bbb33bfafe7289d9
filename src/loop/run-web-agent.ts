import { nanoid } from 'nanoid';
import type { TodoItem } from '../artifacts/todos.js';
import { TURN_ENVELOPE_JSON_SCHEMA, type TurnAction, type TurnEnvelope, type TurnPlanning } from '../envelope/schema.js';
import { createEnvelopeStreamParser } from '../envelope/stream.js';
import { EnvelopeError, PlanloopError, ProviderError, ValidationError, throwIfAborted, toAbortError, untilAborted } from '../errors.js';
import type { AdjustResult, Observation, ReasoningPhase, RunFinishReason } from '../events.js';
import { resolveProvider, streamOrGenerate, type FinishReason, type LLMMessage, type LLMRequest, type LLMSource, type LLMUsage } from '../llm/provider.js';
import type { Plan } from '../plan.js';
import type { PlanInput } from '../planning/make-todos.js';
import { buildTurnMessages, clip, type TurnToolSpec } from './turn-prompt.js';

/** What a tool handler (and `onNarrate`, `onAsk`) receives besides its arguments. */
export interface LoopToolContext {
  readonly runId: string;
  readonly turn: number;
  readonly plan: Plan;
  /** The todo this turn works on (`turn_planning.todo_id`). */
  readonly todoId: string | undefined;
  /** Aborts when the run is aborted: pass it on to `fetch` and the like. */
  readonly signal: AbortSignal | undefined;
}

/** A host tool: its result (any JSON-able value) or its error becomes an observation. */
export type LoopToolHandler = (args: Record<string, unknown>, context: LoopToolContext) => unknown;

/** A tool: a handler, or a handler with a one-line description the model sees (`open a page {path}`). */
export type LoopTool = LoopToolHandler | { run: LoopToolHandler; description?: string };

/** Options of {@link runWebAgent}. */
export interface RunWebAgentOptions {
  plan: Plan;
  /** The user's request. */
  task: string;
  /** The turn model. Default: the plan's `turn` role (then `default`). Planning always uses the plan's own `llm`. */
  llm?: LLMSource | undefined;
  /** What makeTodos gets. Default `{ task }`. */
  planInput?: PlanInput | undefined;
  /** The host's tools, by name. An unknown name becomes an error observation, not a crash. */
  tools?: Record<string, LoopTool> | undefined;
  /** Says `text` to the user, highlighting the element matched by the CSS `target`. Awaited. */
  onNarrate?: ((text: string, target: string | undefined, context: LoopToolContext) => void | Promise<void>) | undefined;
  /** Asks the user; the answer becomes an observation. Without it the model is told to decide itself. */
  onAsk?: ((question: string, context: LoopToolContext) => string | Promise<string>) | undefined;
  /** Shows the plan's summary and waits for the user's go (e.g. Space). `false` declines: the run ends, the plan is cleared. */
  announcePlan?: ((summary: string, todos: TodoItem[]) => boolean | Promise<boolean>) | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Whether to go on with a plan that has remaining todos instead of planning anew. Default: only
   * when the plan was made for this same `task` (or its task is unknown, as for a checklist), which
   * is what a reload wants while a new request plans afresh. `true` resumes whatever the task;
   * `false` always plans.
   */
  resume?: boolean | undefined;
  /** Turns allowed beyond the remaining todos; the bound is fixed when the turns start. Default 2. */
  maxTurnSlack?: number | undefined;
  /** Turns without a todo completed or replaced before the prompt nudges the model (0: never). Default 2. */
  stallTurns?: number | undefined;
  /** Earlier turns remembered in the prompt, one short line each. Default 4. */
  memorySize?: number | undefined;
  /** Replaces the envelope instructions (the turn system prompt). */
  systemPrompt?: string | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
}

/** How a run ended (a run that fails rejects instead). */
export interface RunResult {
  runId: string;
  reason: RunFinishReason;
  /** Turns played (retries of a bad envelope are not extra turns). */
  turns: number;
  /** `task_finish`'s summary, when the model sent one. */
  summary?: string;
  /** The todos at the end. */
  todos: TodoItem[];
}

/** Plans with a run going: two runs on one plan would undo each other's turns. */
const activeRuns = new WeakSet<Plan>();

/** Bad envelopes in a row (the first try and its retry) before the run ends with `run-error`. */
const MAX_ATTEMPTS = 2;

type Attempt =
  | { ok: true; envelope: TurnEnvelope; adjust: AdjustResult; observations: Observation[]; usage: LLMUsage | undefined; finishSummary: string | undefined }
  | { ok: false; error: EnvelopeError; raw: string; observations: Observation[]; done: string[] };

/**
 * The reference turn loop: plans once, then plays turns until the model finishes, every todo is
 * done, or the turn bound (remaining todos + `maxTurnSlack`, fixed when the turns start) is hit.
 *
 * Before the first turn it calls `plan.makeTodos(planInput)`, unless the plan already has
 * remaining todos planned for this task: then it resumes them (`run-start` has `resumed: true`),
 * e.g. after a reload with the plan restored from storage (see `resume`). With `announcePlan` it waits for the host's go (with
 * `plan.summary` and the todos); a decline clears the plan and resolves with reason `declined`. A
 * resumed plan is announced too when none of its todos has started, since it was never confirmed.
 *
 * Each turn sends the task, the remaining todos, last turn's observations, a short memory and,
 * after `stallTurns` turns without progress, a nudge; then streams the model's envelope and acts
 * on it while it streams: `turn_planning` (its todo becomes `in_progress`) and `todo_adjust` are
 * applied as soon as both have arrived, each action runs as soon as its object closes (one at a
 * time, in order): `narrate` -> `onNarrate`, `tool` -> `tools[name]`, `ask` -> `onAsk`,
 * `task_finish` -> the run ends after this turn.
 *
 * A bad envelope changes nothing in the plan: if it turns out bad after the adjust was applied
 * (a later action invalid, the JSON cut off, an insert attempt), the plan is restored to what it
 * was before the turn and actions not yet started are dropped. Actions that already ran cannot be
 * undone (they happened on the page), so the model is told the error and what already ran, and
 * the turn is retried once; a second bad envelope in a row ends the run with `run-error`. An
 * abort (between turns or mid-stream) also restores the turn's plan change, emits `run-error`
 * and rejects with an `AbortError` (code `aborted`). Any other failure (planning, the provider)
 * emits `run-error` and rejects with that error.
 *
 * When the run finishes through `task_finish` or `is_last_turn`, the last turn's todo is
 * completed. Events: `run-start`, `turn-start`, `action`, `turn-end` (with usage), `run-finish`,
 * `run-error`, and `reasoning-step` tagged `plan` (what the turn does), `act` (each action),
 * `obs` (each observation) and `reflect` (what the turn completed).
 * One run at a time per plan: starting another while one runs throws code `run_in_progress`.
 * Defaults: `maxTurnSlack` 2, `stallTurns` 2, `memorySize` 4, `resume` only for the same task; each of the three
 * numbers must be a whole number of at least 0, else a `ValidationError` (`invalid_input`) before any model call.
 *
 * @example
 * ```ts
 * const result = await runWebAgent({
 *   plan,
 *   task: 'Show me the pricing page',
 *   tools: { navigate: ({ path }) => router.go(String(path)) },
 *   onNarrate: (text, target) => bubble.say(text, target),
 *   announcePlan: (summary) => confirmWithSpace(summary),
 * });
 * result.reason; // 'task_finish'
 * ```
 */
export async function runWebAgent(options: RunWebAgentOptions): Promise<RunResult> {
  const { plan, task, signal } = options;
  // A NaN slack (say from Number(field.value)) would make the bound never hit: refuse it up front.
  const slack = wholeNumber(options.maxTurnSlack ?? 2, 'maxTurnSlack');
  const stallTurns = wholeNumber(options.stallTurns ?? 2, 'stallTurns');
  const memorySize = wholeNumber(options.memorySize ?? 4, 'memorySize');
  const tools = options.tools ?? {};
  const toolSpecs: TurnToolSpec[] = Object.entries(tools).map(([name, tool]) =>
    typeof tool !== 'function' && tool.description ? { name, description: tool.description } : { name },
  );
  const runId = nanoid(10);
  let turn = 0;

  const step = (phase: ReasoningPhase, summary: string): void => {
    plan.emit('reasoning-step', { runId, phase, summary: clip(summary, 200), turn, timestamp: Date.now() });
  };
  const finish = (reason: RunFinishReason, summary?: string): RunResult => {
    const extra = summary === undefined ? {} : { summary };
    plan.emit('run-finish', { runId, reason, turns: turn, ...extra });
    return { runId, reason, turns: turn, ...extra, todos: plan.todos.list() };
  };

  if (activeRuns.has(plan)) {
    throw new PlanloopError('run_in_progress', 'A run is already going on this plan: abort it (through its AbortSignal) or wait for it to end before starting another.');
  }
  activeRuns.add(plan);
  try {
    throwIfAborted(signal);
    await untilAborted(plan.ready, signal);
    // By default only a plan made for this same task (or for no recorded task: a checklist, a host
    // reset) is resumed, so todos a finished or stopped run left are not taken for a new request.
    // (A task that is not a string, from plain JS, is no match here: makeTodos then refuses it with a ValidationError.)
    const trimmed = (value: unknown): string | undefined => (typeof value === 'string' ? value.trim() : undefined);
    const sameTask = !plan.task || plan.task === trimmed(task) || plan.task === trimmed(options.planInput?.task);
    const resumed = plan.todos.remaining().length > 0 && (options.resume === true || (options.resume === undefined && sameTask));
    plan.emit('run-start', { runId, task, resumed });
    const provider = options.llm ? resolveProvider(options.llm, 'turn') : plan.provider('turn');
    // A resumed plan none of whose todos has started was never confirmed (say, the page reloaded at
    // the announcement, or the plan was seeded from a checklist): it is announced like a new one.
    const unconfirmed = !resumed || plan.todos.list().every((todo) => todo.status === 'pending');
    if (!resumed) await plan.makeTodos(options.planInput ?? { task }, signal ? { signal } : {});
    if (options.announcePlan && unconfirmed) {
      const go = await untilAborted(Promise.resolve(options.announcePlan(plan.summary, plan.todos.list())), signal);
      if (!go) {
        plan.todos.reset();
        return finish('declined');
      }
    }

    const maxTurns = plan.todos.remaining().length + slack;
    const memory: string[] = [];
    let observations: Observation[] = [];
    let stalled = 0;

    const playAttempt = async (messages: LLMMessage[]): Promise<Attempt> => {
      const before = plan.todos.list();
      const remainingIds = plan.todos.remaining().map((todo) => todo.id);
      const attemptObservations: Observation[] = [];
      const done: string[] = [];
      let planning: TurnPlanning | undefined;
      let adjust: AdjustResult | undefined;
      let refused: EnvelopeError | undefined;
      let cancelled = false;
      let finishSummary: string | undefined;
      let chain = Promise.resolve();

      const observe = (observation: Observation): void => {
        attemptObservations.push(observation);
        step('obs', observation.summary);
      };
      const dispatch = async (action: TurnAction, index: number): Promise<void> => {
        if (cancelled || signal?.aborted) return;
        plan.emit('action', { runId, turn, index, action });
        step('act', describe(action));
        done.push(describe(action));
        const context: LoopToolContext = { runId, turn, plan, todoId: planning?.todo_id, signal };
        const name = action.type === 'tool' ? action.name : action.type;
        try {
          if (action.type === 'narrate') await options.onNarrate?.(action.text, action.target, context);
          else if (action.type === 'task_finish') finishSummary = action.summary;
          else if (action.type === 'ask') {
            if (!options.onAsk) observe({ kind: 'feedback', summary: `No one can answer "${clip(action.question, 80)}" here; decide yourself.` });
            else {
              const answer = await options.onAsk(action.question, context);
              if (signal?.aborted) return;
              observe({ kind: 'answer', summary: `User answered: ${clip(answer)}`, data: answer });
            }
          } else {
            // Own keys only: a model naming "constructor" or "toString" must not reach Object.prototype.
            const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
            if (!tool) {
              const known = Object.keys(tools).join(', ') || 'none';
              observe({ kind: 'tool-error', name, summary: `${name} failed: no such tool (tools: ${known}).` });
              return;
            }
            const result = await (typeof tool === 'function' ? tool : tool.run)(action.args, context);
            if (signal?.aborted) return; // the run has ended (run-error): nothing more is recorded
            observe({ kind: 'tool-result', name, summary: `${name}: ${result === undefined ? 'ok' : clip(result)}`, data: result });
          }
        } catch (error) {
          if (!signal?.aborted) observe({ kind: 'tool-error', name, summary: `${name} failed: ${clip(error instanceof Error ? error.message : error)}` });
        }
      };

      const parser = createEnvelopeStreamParser({
        remainingIds,
        onTurnPlanning: (value) => {
          planning = value;
          step('plan', `${value.todo_id ?? 'no todo'}: ${value.does || '(not said)'}`);
        },
        onTodoAdjust: (value) => {
          try {
            adjust = plan.adjust(value, planning?.todo_id ? { inProgress: planning.todo_id } : {});
          } catch (error) {
            if (!(error instanceof EnvelopeError)) throw error;
            refused = error;
          }
        },
        onAction: (action, index) => {
          if (!refused) chain = chain.then(() => dispatch(action, index));
        },
      });

      let usage: LLMUsage | undefined;
      let finishReason: FinishReason | undefined;
      try {
        const request: LLMRequest = {
          messages,
          jsonSchema: TURN_ENVELOPE_JSON_SCHEMA,
          ...(signal ? { signal } : {}),
          ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
          ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
        };
        const iterator = streamOrGenerate(provider, request)[Symbol.asyncIterator]();
        try {
          for (;;) {
            const next = await untilAborted(iterator.next(), signal);
            if (next.done) break;
            const chunk = next.value;
            if (chunk.type === 'finish') {
              finishReason = chunk.finishReason;
              usage = chunk.usage;
            } else {
              parser.push(chunk.delta);
              if (parser.error || refused) break; // already bad: stop paying for the rest
            }
          }
        } finally {
          // Let the provider close its stream; never wait on it.
          iterator.return?.().catch(() => {});
        }
        let error = refused ?? parser.error;
        let envelope: TurnEnvelope | undefined;
        if (!error) {
          const result = parser.end(); // may apply a held-back todo_adjust and dispatch held actions
          if (result.success) envelope = result.data;
          error = refused ?? (result.success ? undefined : result.error);
        }
        if (error || !envelope || !adjust) {
          cancelled = true;
          await untilAborted(chain, signal);
          restore(plan, before);
          const cutOff = finishReason === 'length' ? ' Your reply hit the length limit: keep it shorter.' : '';
          const failure = error ?? new EnvelopeError('envelope_invalid', 'The envelope could not be applied. Send it again.');
          return { ok: false, error: cutOff ? withMessage(failure, failure.message + cutOff) : failure, raw: parser.text, observations: attemptObservations, done };
        }
        await untilAborted(chain, signal);
        return { ok: true, envelope, adjust, observations: attemptObservations, usage, finishSummary };
      } catch (error) {
        cancelled = true;
        restore(plan, before);
        if (signal?.aborted) throw toAbortError(signal.reason);
        if (error instanceof PlanloopError) throw error;
        throw new ProviderError(`The turn model call failed: ${error instanceof Error ? error.message : String(error)}`, { provider: 'unknown', retryable: false }, { cause: error });
      }
    };

    for (;;) {
      if (plan.todos.remaining().length === 0) return finish('no_todos');
      if (turn >= maxTurns) return finish('turn_limit');
      throwIfAborted(signal);
      turn += 1;
      const nudge =
        stallTurns > 0 && stalled >= stallTurns
          ? `${stalled} turns without a todo done. Remove the ids you finished, replace todos that changed, or finish.`
          : undefined;
      let feedback: LLMMessage[] = [];
      let attempt: Attempt | undefined;
      for (let number = 1; number <= MAX_ATTEMPTS; number++) {
        plan.emit('turn-start', { runId, turn, maxTurns, attempt: number });
        const prompt = { task, todos: plan.todos.list(), turn, maxTurns, memory, observations, ...(nudge ? { nudge } : {}) };
        const messages = [...buildTurnMessages(prompt, { tools: toolSpecs, ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}) }), ...feedback];
        attempt = await playAttempt(messages);
        if (attempt.ok) break;
        step('obs', `Rejected reply: ${attempt.error.message}`);
        if (number === MAX_ATTEMPTS) throw attempt.error;
        feedback = [
          { role: 'assistant', content: attempt.raw.trim() === '' ? '(empty reply)' : attempt.raw.slice(0, 2000) },
          { role: 'user', content: retryMessage(attempt.error, attempt.done, attempt.observations) },
        ];
      }
      if (!attempt?.ok) throw new PlanloopError('envelope_invalid', 'The turn produced no envelope.');

      const { envelope, adjust } = attempt;
      observations = attempt.observations;
      if (adjust.ignored.length > 0) {
        const ignored: Observation = { kind: 'feedback', summary: `Ignored in todo_adjust: ${adjust.ignored.map((entry) => `${entry.id} (${entry.reason})`).join(', ')}.` };
        observations.push(ignored);
        step('obs', ignored.summary);
      }
      const progress = adjust.completed.length + adjust.replaced.length > 0;
      stalled = progress ? 0 : stalled + 1;
      const planning = envelope.turn_planning;
      memory.push(`${turn} ${planning?.todo_id ?? '-'} ${clip(planning?.does || '(not said)', 60)} [${envelope.actions.map(kindOf).join(', ')}]`);
      memory.splice(0, Math.max(0, memory.length - memorySize));
      const finishing = attempt.finishSummary !== undefined || planning?.is_last_turn === true;
      const completed = adjust.completed.length > 0 ? `Completed ${adjust.completed.join(', ')}.` : 'No todo completed.';
      step('reflect', `${completed}${adjust.replaced.length > 0 ? ` Rewrote ${adjust.replaced.join(', ')}.` : ''}${finishing ? ' Finishing.' : ''}`);
      plan.emit('turn-end', { runId, turn, envelope, adjust, observations: [...observations], ...(attempt.usage ? { usage: attempt.usage } : {}) });
      if (finishing) {
        const current = planning?.todo_id;
        if (current && plan.todos.get(current)?.status === 'in_progress') plan.adjust({ remove: [current] });
        return attempt.finishSummary !== undefined ? finish('task_finish', attempt.finishSummary) : finish('last_turn');
      }
    }
  } catch (caught) {
    const error = signal?.aborted ? toAbortError(signal.reason) : caught instanceof Error ? caught : new Error(String(caught));
    plan.emit('run-error', { runId, turn, error });
    throw error;
  } finally {
    activeRuns.delete(plan);
  }
}

function wholeNumber(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ValidationError(`Cannot run: ${name} must be a whole number of at least 0, not ${String(value)}.`, [{ path: name, message: 'must be a non-negative integer' }]);
  }
  return value;
}

/** What the model is told after a bad envelope: the error, and what already ran. */
function retryMessage(error: EnvelopeError, done: string[], observations: Observation[]): string {
  const parts = [error.message];
  if (done.length > 0) parts.push(`Already done this turn, do not repeat: ${done.join('; ')}.`);
  if (observations.length > 0) parts.push(`Observed: ${observations.map((observation) => observation.summary).join(' ')}`);
  return parts.join('\n');
}

function describe(action: TurnAction): string {
  switch (action.type) {
    case 'narrate':
      return `narrate "${clip(action.text, 60)}"${action.target ? ` at ${action.target}` : ''}`;
    case 'tool':
      return `${action.name} ${clip(action.args, 80)}`;
    case 'ask':
      return `ask "${clip(action.question, 60)}"`;
    default:
      return 'task_finish';
  }
}

function kindOf(action: TurnAction): string {
  return action.type === 'tool' ? action.name : action.type;
}

function withMessage(error: EnvelopeError, message: string): EnvelopeError {
  return new EnvelopeError(error.code as 'envelope_invalid' | 'envelope_insert_forbidden', message, { raw: error.raw, issues: error.issues });
}

/**
 * Puts the todos back as they were before a turn that failed. Uses edits (a plan panel shows the
 * todos moving back); a reset only when an edit cannot express it (a field the turn added).
 */
function restore(plan: Plan, before: TodoItem[]): void {
  const now = new Map(plan.todos.list().map((todo) => [todo.id, todo]));
  // A todo the host deleted during the turn (a tool, the user) stays deleted: only the turn's own change is undone.
  const changed = before.filter((todo) => now.has(todo.id) && JSON.stringify(todo) !== JSON.stringify(now.get(todo.id)));
  if (changed.length === 0) return;
  const editable = changed.every((todo) => Object.keys(now.get(todo.id) ?? {}).every((key) => key in todo));
  if (editable) plan.todos.editMany(changed.map(({ id, ...patch }) => ({ id, patch })));
  else plan.todos.reset(plan.todos.list().map((todo) => before.find((old) => old.id === todo.id) ?? todo));
  plan.emit('plan-update', { todos: plan.todos.list(), source: 'adjust' });
}
