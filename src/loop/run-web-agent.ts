import { nanoid } from 'nanoid';
import { EnvelopeError, PlanloopError, ValidationError } from '../errors.js';
import { throwIfAborted, toAbortError, untilAborted } from '../abort.js';
import type { Observation, ReasoningPhase, RunFinishReason } from '../events.js';
import { resolveProvider, type LLMMessage, type LLMSource } from '../llm/provider.js';
import type { Plan, RunHandle } from '../plan.js';
import { emitPlanEvent } from '../plan/emit-plan-event.js';
import type { TodoItem } from '../plan-state.js';
import type { PlanInput } from '../planning/make-todos.js';
import { createActionGate } from './action-gate.js';
import { DEFAULT_ACTION_POLICY, readActionPolicy, type ActionPolicyOptions } from './action-policy.js';
import type { ActionHandlers } from './dispatch-action.js';
import { DEFAULT_TURN_LIMITS, playTurn, type TurnLimits, type TurnOutcome } from './play-turn.js';
import { fenceBlock } from './prompt-fence.js';
import { redactHostSecrets, type HostSecrets } from './redact-prompt.js';
import { TurnMemory } from './turn-memory.js';
import { buildTurnMessages, clip, type TurnToolSpec } from './turn-prompt.js';
import type { Tour } from './tour.js';
import { createTourRecorder, type TourLocators } from './tour-recorder.js';

export type { LoopTool, LoopToolContext, LoopToolHandler, NarrateDeltaContext } from './dispatch-action.js';

/**
 * Options of {@link runWebAgent}. The action policy (`onApprove`, `approvalLevel`,
 * `approvalTimeoutMs`, `maxActions`) is described in {@link ActionPolicyOptions}.
 */
export interface RunWebAgentOptions extends ActionHandlers, ActionPolicyOptions {
  plan: Plan;
  /** The user's request. */
  task: string;
  /** The turn model. Default: the plan's `turn` role (then `default`). Planning always uses the plan's own `llm`. */
  llm?: LLMSource | undefined;
  /** What makeTodos gets. Default `{ task }`. */
  planInput?: PlanInput | undefined;
  /** Shows the plan's summary and waits for the user's go (e.g. Space). `false` declines: the run ends, the plan is cleared. */
  announcePlan?: ((summary: string, todos: TodoItem[]) => boolean | Promise<boolean>) | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Takes the plan's run over from another tab that is running it (its run stops) instead of
   * refusing with `run_in_progress`. Default `false`.
   */
  takeOver?: boolean | undefined;
  /**
   * Whether to go on with a plan that has remaining todos instead of planning anew. Default: only
   * when the plan was made for this same `task` (or its task is unknown, as for a checklist), which
   * is what a reload wants while a new request plans afresh. `true` resumes whatever the task;
   * `false` always plans.
   */
  resume?: boolean | undefined;
  /** Turns allowed beyond the remaining todos; the bound is fixed when the turns start. Default 2. */
  maxTurnSlack?: number | undefined;
  /**
   * Turns that only look (every action a tool with `risk: 'read'`, such as `planloop/dom`'s
   * `createLookTools`) that do not count against the turn bound. Such a turn never completes or
   * rewrites a todo, nor finishes the run. Default 3.
   */
  maxLookTurns?: number | undefined;
  /** Turns without a todo completed or replaced before the prompt nudges the model (0: never). Default 2. */
  stallTurns?: number | undefined;
  /** Earlier turns remembered in the prompt, one short line each. Default 4. */
  memorySize?: number | undefined;
  /**
   * What the page shows now, asked before every turn (e.g. `renderOutline(outlinePage({ maxTokens }))` from `planloop/dom`):
   * its text goes into that turn's prompt under `Page:`, cut to `observeBudget`. A throw becomes
   * a line saying the page could not be read; the turn goes on.
   */
  observe?: ((context: ObserveContext) => string | undefined | Promise<string | undefined>) | undefined;
  /**
   * The token budget of `observe`'s text, passed to it as `maxTokens` (`outlinePage` keeps to it);
   * text longer than 4 characters a token is cut. Default 400.
   */
  observeBudget?: number | undefined;
  /**
   * Where the page is, for the turn prompt's `URL:` line. Default: `location`'s path, query and
   * hash when running in a browser; `false` leaves the line out.
   */
  url?: (() => string | undefined) | false | undefined;
  /** Bounds of each turn (answer time, characters, actions). Defaults: {@link DEFAULT_TURN_LIMITS}. */
  turnLimits?: Partial<TurnLimits> | undefined;
  /** Replaces the envelope instructions (the turn system prompt); the data rule (`DATA_RULE`: what the fences mean) is kept after it. */
  systemPrompt?: string | undefined;
  /**
   * The values the model must never read: pass the same secrets `fill` types for `{{secret:name}}`
   * (a map, a list of values, or a function listing them). Every occurrence in a turn's messages
   * (page text the page echoed them into, tool results, observations, the URL) becomes `[secret]`.
   * Default none.
   */
  secrets?: HostSecrets | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  /**
   * Turns the targets the model names (outline refs) into locators for the run's `tour`, while
   * the elements are on the page: `planloop/dom`'s `createTourLocators`, with the same `root` and
   * `exclude` as the tools. Default none: the tour records each target as `null` (not replayable
   * without a model).
   */
  locators?: TourLocators | undefined;
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
  /**
   * What the run did, as a tour `replayTour` plays again without a model (see `Tour`); absent when
   * the plan ended empty (a declined plan). A resumed run's tour holds what this run did.
   */
  tour?: Tour;
}

/** What `observe` receives before each turn. */
export interface ObserveContext {
  readonly turn: number;
  readonly plan: Plan;
  readonly signal: AbortSignal | undefined;
  /** The token budget for the text (`observeBudget`). */
  readonly maxTokens: number;
}

/** Bad replies in a row (the first try and its retry) before the run ends with `run-error`. */
const MAX_ATTEMPTS = 2;

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
 * Each turn sends the task, the page's URL, the remaining todos, last turn's observations, a
 * short memory, what `observe` says the page shows, and after `stallTurns` turns without progress
 * a nudge; then plays the turn (see `playTurn`): streams the model's envelope and acts on it while
 * it streams: the plan change (the named todo becomes `in_progress`, the open todos above it
 * `completed`, rewrites applied) goes in as soon as it is known, before the first action; a
 * narrate's words go to `onNarrateDelta` while they are written; each action runs as soon as its
 * object closes (one at a time, in order): `narrate` -> `onNarrate`, `tool` -> `tools[name]`,
 * `ask` -> `onAsk`, `task_finish` -> the run ends after this turn.
 *
 * Each turn is a transaction on the plan. A bad reply changes nothing in the plan: if it turns out
 * bad after the adjust was applied (a later action invalid, the JSON cut off, an insert attempt,
 * too many actions, too long, too slow: see `turnLimits`), the plan is rolled back to its
 * checkpoint and actions not yet started are dropped. Actions that already ran cannot be undone
 * (they happened on the page; a narrate cut off mid-stream left its first words on screen, and
 * gets no `onNarrate`), so the model is told the error and what already ran or was said, and the
 * turn is retried once (`turn-start` with `attempt: 2`: a host may clear its bubble there); a second bad reply in a row ends the run with `run-error`. An abort (between
 * turns or mid-stream) also rolls the turn back, emits `run-error` and rejects with an
 * `AbortError` (code `aborted`). Any other failure (planning, the provider) emits `run-error` and
 * rejects with that error.
 *
 * Every tool action passes the action policy first (see `ActionPolicyOptions`): each tool
 * declares its `risk` (`'read'`, `'write'`, `'irreversible'`; undeclared: `'write'`); `onApprove`
 * is asked before each action at or above `approvalLevel` (default: every action not `'read'`),
 * and only a clear yes lets it run (a throw, `approvalTimeoutMs` without an answer, an abort or
 * anything else is a no); without `onApprove`, `'irreversible'` actions are refused and the others
 * run. A tool that finds out at run time that it is about to do something riskier asks through
 * `context.confirm(step)`, under the same rules. A refusal never ends the run: the action does not
 * run, the plan stays as the turn left it, the `action` event says `refused` and why, and the next
 * prompt tells the model (a turn with a refusal does not finish the run). With `onApprove`, a todo
 * the model rewrites (`replace`) is marked `rewritten` and the user is asked about it (a
 * `'plan-change'` request) before the next tool action: a yes clears the mark, a no puts the text
 * the user approved back and refuses the action. `maxActions` (default 40) bounds the tool actions
 * of a run (run, failed or refused): the next one does not run and the run ends with reason
 * `action_limit` after that turn.
 *
 * When the run finishes through `task_finish` or `is_last_turn`, the last turn's todo is
 * completed. Events: `run-start`, `turn-start`, `action`, `turn-end` (with usage), `run-finish`,
 * `run-error`, and `reasoning-step` tagged `plan` (what the turn does), `act` (each action),
 * `obs` (each observation) and `reflect` (what the turn completed).
 * One run at a time per plan, across the tabs that sync it: the run takes the plan's run lease
 * (`plan.acquireRun`), and starting another while one runs, here or in another tab, throws code
 * `run_in_progress` naming the holder (`takeOver: true` takes it over instead). The run stops, as
 * an abort, when another tab takes the lease over or asks it to stop (`plan.requestStop()`).
 * Defaults: `maxTurnSlack` 2, `stallTurns` 2, `memorySize` 4, `maxLookTurns` 3, `observeBudget` 400,
 * `maxActions` 40, `approvalTimeoutMs` 300,000, `resume` only for the same task; each of these
 * numbers must be a whole number of at least 0, else a `ValidationError` (`invalid_input`) before
 * any model call, as for a tool `risk` or an `approvalLevel` that is not one of the known values.
 *
 * @example
 * ```ts
 * declare const router: { go(path: string): void };
 * declare const api: { subscribe(): Promise<void> };
 * declare const bubble: { show(text: string, target?: string): void; say(text: string, target?: string): Promise<void> };
 * declare function confirmWithSpace(summary: string): Promise<boolean>;
 * const result = await runWebAgent({
 *   plan,
 *   task: 'Show me the pricing page',
 *   tools: {
 *     navigate: { risk: 'write', description: 'open a page {path}', run: ({ path }) => router.go(String(path)) },
 *     subscribe: { risk: 'irreversible', description: 'subscribe to the newsletter', run: () => api.subscribe() },
 *   },
 *   onApprove: (request) => panel.requestApproval(request), // asked before navigate and subscribe
 *   onNarrateDelta: (delta, target, { text }) => bubble.show(text, target), // the words as they are written
 *   onNarrate: (text, target) => bubble.say(text, target), // the whole narrate: awaited
 *   announcePlan: (summary) => confirmWithSpace(summary),
 * });
 * result.reason; // 'task_finish'
 * ```
 */
export async function runWebAgent(options: RunWebAgentOptions): Promise<RunResult> {
  const { plan, task } = options;
  let signal = options.signal;
  // A NaN slack (say from Number(field.value)) would make the bound never hit: refuse it up front.
  const slack = wholeNumber(options.maxTurnSlack ?? 2, 'maxTurnSlack');
  const stallTurns = wholeNumber(options.stallTurns ?? 2, 'stallTurns');
  const maxLooks = wholeNumber(options.maxLookTurns ?? 3, 'maxLookTurns');
  const memory = new TurnMemory(wholeNumber(options.memorySize ?? 4, 'memorySize'));
  const observeTokens = wholeNumber(options.observeBudget ?? 400, 'observeBudget');
  const limits: TurnLimits = { ...DEFAULT_TURN_LIMITS, ...definedOnly(options.turnLimits ?? {}) };
  for (const [name, value] of Object.entries(limits)) wholeNumber(value, `turnLimits.${name}`);
  const approvalTimeoutMs = wholeNumber(options.approvalTimeoutMs ?? DEFAULT_ACTION_POLICY.approvalTimeoutMs, 'approvalTimeoutMs');
  const maxActions = wholeNumber(options.maxActions ?? DEFAULT_ACTION_POLICY.maxActions, 'maxActions');
  readActionPolicy(options, options.tools ?? {});
  const urlOf = options.url === false ? undefined : (options.url ?? browserUrl);
  const gate = createActionGate({ ...options, approvalTimeoutMs, maxActions, tools: options.tools, url: urlOf });
  const toolSpecs: TurnToolSpec[] = Object.entries(options.tools ?? {}).map(([name, tool]) =>
    typeof tool !== 'function' && tool.description ? { name, description: tool.description } : { name },
  );
  const runId = nanoid(10);
  const recorder = createTourRecorder({ tools: options.tools, locators: options.locators });
  let turn = 0;

  const step = (phase: ReasoningPhase, summary: string): void => {
    emitPlanEvent(plan, 'reasoning-step', { runId, phase, summary: clip(summary, 200), turn, timestamp: Date.now() });
  };
  const finish = (reason: RunFinishReason, summary?: string): RunResult => {
    const extra = summary === undefined ? {} : { summary };
    emitPlanEvent(plan, 'run-finish', { runId, reason, turns: turn, ...extra });
    const todos = plan.todos.list();
    const tour = recorder.tour({ task: plan.task || task, locale: options.planInput?.locale, summary: plan.summary, todos });
    return { runId, reason, turns: turn, ...extra, todos, ...(tour ? { tour } : {}) };
  };

  let run: RunHandle | undefined;
  let refused = false;
  try {
    throwIfAborted(signal);
    await untilAborted(plan.ready, signal);
    run = await plan.acquireRun({ takeOver: options.takeOver, signal }).catch((error: unknown) => {
      refused = true;
      throw error;
    });
    // From here on one signal: the caller's, a stop request, or the lease lost to another tab.
    signal = run.signal;
    const { resumed, unconfirmed } = startOrResume(plan, options);
    emitPlanEvent(plan, 'run-start', { runId, task, resumed });
    const provider = options.llm ? resolveProvider(options.llm, 'turn') : plan.provider('turn');
    if (!resumed) await plan.makeTodos(options.planInput ?? { task }, signal ? { signal } : {});
    if (options.announcePlan && unconfirmed) {
      const go = await untilAborted(Promise.resolve(options.announcePlan(plan.summary, plan.todos.list())), signal);
      if (!go) {
        plan.todos.reset();
        return finish('declined');
      }
    }

    let maxTurns = plan.todos.remaining().length + slack;
    let looks = 0;
    let observations: Observation[] = [];
    for (;;) {
      if (plan.todos.remaining().length === 0) return finish('no_todos');
      if (turn >= maxTurns) return finish('turn_limit');
      throwIfAborted(signal);
      turn += 1;
      const nudge =
        stallTurns > 0 && memory.stalled >= stallTurns
          ? `${memory.stalled} turns without a todo done. Name the next todo, replace todos that changed, or finish.`
          : undefined;
      const page = options.observe ? await observePage(options.observe, { turn, plan, signal, maxTokens: observeTokens }) : undefined;
      const url = urlOf?.();
      let feedback: LLMMessage[] = [];
      let outcome: TurnOutcome | undefined;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        emitPlanEvent(plan, 'turn-start', { runId, turn, maxTurns, attempt });
        const prompt = { task, todos: plan.todos.list(), turn, maxTurns, memory: memory.lines, observations, nudge, url, page, locale: options.planInput?.locale };
        const system = { tools: toolSpecs, ...(options.systemPrompt ? { systemPrompt: options.systemPrompt } : {}) };
        outcome = await playTurn({
          plan,
          provider,
          messages: redactHostSecrets([...buildTurnMessages(prompt, system), ...feedback], options.secrets),
          handlers: options,
          runId,
          turn,
          limits,
          signal,
          temperature: options.temperature,
          maxTokens: options.maxTokens,
          onStep: step,
          onAction: (action, index, decision) => {
            if (decision.decision === 'run') recorder.admit(action);
            emitPlanEvent(plan, 'action', { runId, turn, index, action, ...decision });
          },
          onSettled: (action, outcome, refusedStep, todoId) => recorder.settle(action, outcome, refusedStep, todoId),
          gate,
        });
        if (gate.capped) break;
        if (outcome.ok) break;
        step('obs', `Rejected reply: ${outcome.error.message}`);
        if (gate.capped) break;
        if (attempt === MAX_ATTEMPTS) throw outcome.error;
        feedback = [
          { role: 'assistant', content: outcome.raw.trim() === '' ? '(empty reply)' : outcome.raw.slice(0, 2000) },
          { role: 'user', content: retryMessage(outcome.error, outcome.done, outcome.observations) },
        ];
      }
      if (gate.capped) {
        step('reflect', `Stopped: the run's limit of ${maxActions} actions is reached.`);
        if (outcome?.ok) emitPlanEvent(plan, 'turn-end', { runId, turn, envelope: outcome.envelope, adjust: outcome.adjust, observations: [...outcome.observations], ...(outcome.usage ? { usage: outcome.usage } : {}) });
        return finish('action_limit');
      }
      if (!outcome?.ok) throw new EnvelopeError('envelope_invalid', 'The turn produced no envelope.');

      const { envelope, adjust } = outcome;
      observations = outcome.observations;
      if (adjust.ignored.length > 0) {
        const ignored: Observation = { kind: 'feedback', summary: `Ignored in todo_adjust: ${adjust.ignored.map((entry) => `${entry.id} (${entry.reason})`).join(', ')}.` };
        observations.push(ignored);
        step('obs', ignored.summary);
      }
      memory.record(envelope, adjust);
      const planning = envelope.turn_planning;
      // A refusal the model has not heard of yet keeps the run going: it may try another way or tell the user.
      const refusedFinish = outcome.refusals > 0 && (outcome.finishSummary !== undefined || planning?.is_last_turn === true);
      if (refusedFinish) {
        const held: Observation = { kind: 'feedback', summary: 'The run did not finish: an action was refused this turn. Tell the user what was not done, then finish.' };
        observations.push(held);
        step('obs', held.summary);
      }
      // A turn that only looked finishes nothing (its plan change was undone) and, up to
      // `maxLookTurns`, does not use up a turn of the bound.
      const finishing = !outcome.lookOnly && !refusedFinish && (outcome.finishSummary !== undefined || planning?.is_last_turn === true);
      if (outcome.lookOnly && looks < maxLooks) {
        looks += 1;
        maxTurns += 1;
      }
      const completed = adjust.completed.length > 0 ? `Completed ${adjust.completed.join(', ')}.` : 'No todo completed.';
      step('reflect', `${completed}${adjust.replaced.length > 0 ? ` Rewrote ${adjust.replaced.join(', ')}.` : ''}${finishing ? ' Finishing.' : ''}`);
      emitPlanEvent(plan, 'turn-end', { runId, turn, envelope, adjust, observations: [...observations], ...(outcome.usage ? { usage: outcome.usage } : {}) });
      if (finishing) {
        const current = planning?.todo_id;
        if (current && plan.todos.get(current)?.status === 'in_progress') plan.adjust({ remove: [current] });
        return outcome.finishSummary !== undefined ? finish('task_finish', outcome.finishSummary) : finish('last_turn');
      }
    }
  } catch (caught) {
    const error = signal?.aborted ? toAbortError(signal.reason) : caught instanceof Error ? caught : new Error(String(caught));
    // A run refused because another tab runs the plan never started: it is not this plan's error.
    if (!refused) emitPlanEvent(plan, 'run-error', { runId, turn, error });
    throw error;
  } finally {
    await run?.release();
  }
}

/**
 * Whether a run goes on with the plan's remaining todos or plans afresh. By default only a plan
 * made for this same task (or for no recorded task: a checklist, a host reset) is resumed, so
 * todos a finished or stopped run left are not taken for a new request. A resumed plan none of
 * whose todos has started was never confirmed (the page reloaded at the announcement, or the plan
 * came from a checklist): it is announced like a new one.
 */
function startOrResume(plan: Plan, options: RunWebAgentOptions): { resumed: boolean; unconfirmed: boolean } {
  // A task that is not a string (plain JS) is no match here: makeTodos then refuses it with a ValidationError.
  const trimmed = (value: unknown): string | undefined => (typeof value === 'string' ? value.trim() : undefined);
  const sameTask = !plan.task || plan.task === trimmed(options.task) || plan.task === trimmed(options.planInput?.task);
  const resumed = plan.todos.remaining().length > 0 && (options.resume === true || (options.resume === undefined && sameTask));
  const unconfirmed = !resumed || plan.todos.list().every((todo) => todo.status === 'pending');
  return { resumed, unconfirmed };
}

/** `observe`'s text for this turn, cut to its budget; a failure becomes a line the model can read. */
export async function observePage(observe: (context: ObserveContext) => string | undefined | Promise<string | undefined>, context: ObserveContext): Promise<string | undefined> {
  // A safety net for text that ignores the budget: 4 characters a token is generous for prose.
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

/** The page's path, query and hash when running in a browser. */
export function browserUrl(): string | undefined {
  const location = (globalThis as { location?: Location }).location;
  return location?.pathname ? `${location.pathname}${location.search}${location.hash}` : undefined;
}

/** `value`, when it is a whole number of at least 0; else a `ValidationError` naming the option. */
export function wholeNumber(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ValidationError(
      'invalid_input',
      `Cannot run: ${name} must be a whole number of at least 0, not ${String(value)}.`,
      { issues: [{ path: name, message: 'must be a non-negative integer' }] },
    );
  }
  return value;
}

/** `value` without its `undefined` entries. */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

/** What the model is told after a bad reply: the error, and what already ran (what the tools said, fenced as in the turn prompt). */
function retryMessage(error: PlanloopError, done: string[], observations: Observation[]): string {
  const parts = [error.message];
  if (done.length > 0) parts.push(`Already done this turn, do not repeat: ${done.join('; ')}.`);
  if (observations.length > 0) parts.push(fenceBlock('data', `Observed:\n${observations.map((observation) => `- ${clip(observation.summary, 400)}`).join('\n')}`));
  return parts.join('\n');
}
