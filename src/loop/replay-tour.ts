import type { Locator } from '../dom/locator.js';
import { throwIfAborted, untilAborted } from '../abort.js';
import { ENVELOPE_LIMITS, type TurnAction } from '../envelope/schema.js';
import { EnvelopeError, ValidationError, type ValidationIssue } from '../errors.js';
import { ProviderError } from '../model-errors.js';
import { TourError, type TourStepFailure } from './tour-error.js';
import type { Observation, ReasoningPhase, RunFinishReason } from '../events.js';
import { pathOf } from '../guards.js';
import { resolveProvider, type LLMChunk, type LLMMessage, type LLMProvider, type LLMUsage } from '../llm/provider.js';
import type { Plan, RunHandle } from '../plan.js';
import type { TodoItem } from '../plan-state.js';
import { readTodoCheck } from '../todo-check.js';
import { matchUrl, missingEvidence } from '../todo-check-text.js';
import { createActionGate } from './action-gate.js';
import { observePage } from './observe-page.js';
import { playTurn, type TurnConfig, type TurnOutcome } from './play-turn.js';
import { redactHostSecrets } from './redact-prompt.js';
import { openRun, type RunControl } from './run.js';
import { resolveRunOptions, type RunConfig, type RunOptions, type RunStartOptions } from './run-options.js';
import type { RunPhase, RunResult } from './run-state.js';
import { validateTour, type Tour, type TourCheckOptions, type TourStep, type TourTodo } from './tour.js';
import { createTourRecorder, type TourLocators } from './tour-recorder.js';
import { TurnMemory } from './turn-memory.js';
import { buildTurnMessages, clip } from './turn-prompt.js';

/*
 * Replaying a recorded tour: the same plan, tools, narration and approval hooks as a live run, and
 * no model. Each todo of the tour becomes one turn played by `playTurn` itself, whose "model" is
 * the tour: a local stream that writes the todo's envelope one action at a time, finding each
 * target again (by its locator, through the host's `locators`) only once the action before it has
 * run, so the page a target is looked for on is the page as it is now. Everything a live turn does
 * happens as it would: the plan change through the turn's transaction (`<plan-panel>` ticks the
 * same way), the action policy (a tour grants no approval), narration ordering, events. A step
 * that cannot be done goes to the host's model for that todo only, as a live turn with the tour's
 * steps as a hint; without one, the replay stops with a `TourError`. This file is the only one of
 * the replay that knows the loop's internals.
 */

/**
 * Options of {@link replayTour}: the plan, and a run's grouped options (see `RunOptions`) with the
 * same meaning, except that `model.provider` is only the model that repairs a step (default none:
 * no model is ever called; the plan's own is not used) and `page.locators` finds each step's
 * target again (required when the tour has targets). `page.observe`, `page.url`, `prompt` and
 * `model` shape a repair turn; `bounds.turnSlack`, `bounds.lookTurns` and `prompt.nudgeAfter` are
 * not used (a replay's turns are the tour's).
 */
export interface ReplayTourOptions extends Omit<RunOptions, 'task' | 'start'> {
  plan: Plan;
  /** How the replay starts: the announcement (`false` declines, as in a live run) and taking the plan's run over from another tab. */
  start?: Pick<RunStartOptions, 'announce' | 'takeOver'> | undefined;
  /** What a tour may hold on this page, and whether a todo's evidence holds. */
  checks?: ReplayChecks | undefined;
}

/** What a tour may hold on this page (`TourCheckOptions`) and the host's evidence check (`replayTour`'s `checks`). */
export interface ReplayChecks extends TourCheckOptions {
  /**
   * Whether a todo's evidence check holds after its steps (for tours whose todos carry `check`):
   * `true` holds; `false` or a line saying what is missing fails the step. Default: a check the
   * run knows (`TodoCheck`) is judged as a live run judges it, `url` by `page.url`, `visible` and
   * `field` by `page.check` (not judged without one); `narrated` and `tool` are what the replayed
   * steps did; any other check is kept in the tour but not judged.
   */
  checkTodo?: ((check: Record<string, unknown>, todo: TodoItem) => boolean | string | Promise<boolean | string>) | undefined;
}

/** How a replay ended: a run's result, with the tour as it now stands and what the model did. */
export interface ReplayResult extends RunResult {
  /** The tour as played: steps re-located on the page as it is now, repaired steps in place of the failed ones. */
  tour: Tour;
  /** Model calls made (repair turns and their retries); 0 when every step was found again. */
  modelCalls: number;
  /** Tokens the repair turns used, as the provider reported them. */
  usage: LLMUsage;
  /** The steps the model repaired: the todo's id in the tour, the step's index, and why. */
  repairs: Array<{ todoId: string; index: number; reason: TourStepFailure; message: string }>;
}

/** A step that could not be replayed: its index among its todo's steps, and why. */
type Failure = { index: number; reason: TourStepFailure; message: string };

/** Bad repair replies in a row before the replay ends with `run-error` (as a live run). */
const MAX_ATTEMPTS = 2;

/**
 * Plays a recorded {@link Tour} again without a model: validates it whole first (a `TourError`
 * `tour_invalid` with the first bad path, before any plan change or tool call; also a tool step
 * naming a tool this host does not have), takes the plan's run lease, makes the tour's todos the
 * plan (`plan-create`, as `makeTodos` would), asks `start.announce`, then plays each todo as one
 * turn: the todo is named as a live envelope names it (`{"todo":"t3"}`: it becomes `in_progress`,
 * the open todos above it `completed`), and its steps run through the same action gate and
 * channels as a live run's actions, each target found again by its locator (`page.locators`) just
 * before its step. A tour grants no approval: `approval.ask` is asked as in a live run, and
 * without it irreversible steps are refused.
 *
 * A step that cannot be done (its target not found or ambiguous, the todo's `check` failing under
 * `checks.checkTodo`, or a step the policy or the user refused, which a tour cannot adapt to)
 * goes, with `model.provider`, to a live turn for that todo (the page, the tour's steps for it as
 * a hint, the refusal if any; `page.secrets` kept out), whose actions are recorded in the
 * result's tour in place of the failed ones; without a model the replay emits `run-error` and
 * rejects with a `TourError` `tour_step_failed` naming the step and why (the todos played before
 * it stay done). An abort rolls the turn back and rejects with an `AbortError`, as a live run.
 * The replay is a run: it becomes the plan's current run (`currentRun(plan)`, which
 * `<plan-panel>` follows) with its state, and emits a live run's events on the plan: `run-start`,
 * `plan-create`, `turn-start`, `action`, `turn-end`, `run-finish` or `run-error`. The run ends
 * after the last todo that has steps, completing it: `task_finish` with the tour's finish
 * summary, else `last_turn`. Defaults: no model (0 calls), `bounds.runActions` 40,
 * `approval.timeoutMs` 300,000, the page's origin only.
 *
 * @example
 * ```ts
 * import { createTourLocators } from 'planloop/dom';
 * declare const stored: string; // a tour a run recorded: JSON.stringify(result.tour)
 * declare const narrate: (text: string, target: string | undefined) => Promise<void>;
 * const locators = createTourLocators({ root: document.querySelector('main')!, exclude: '#guide' });
 * const result = await replayTour(parseTour(stored), { plan, tools, page: { locators }, user: { narrate }, approval: { ask: onApprove } });
 * result.modelCalls; // 0 when the page still had every target
 * ```
 */
export async function replayTour(input: Tour, options: ReplayTourOptions): Promise<ReplayResult> {
  if (typeof options !== 'object' || options === null) {
    throw new ValidationError('invalid_input', 'Cannot replay: the options must be an object with at least the plan.', {
      issues: [{ path: '', message: 'must be an object' }],
    });
  }
  const { plan, checks, ...rest } = options;
  const checkTodo = checks?.checkTodo;
  if (checkTodo !== undefined && typeof checkTodo !== 'function') {
    throw new ValidationError('invalid_input', 'Cannot replay: checks.checkTodo must be a function.', {
      issues: [{ path: 'checks.checkTodo', message: 'must be a function' }],
    });
  }
  const tour = validateTour(input, checks ?? {});
  const config = resolveRunOptions({ ...rest, task: tour.task });
  checkTourAgainstHost(tour, config);
  const run = openRun(plan, tour.task, config.signal, (control) => replay(plan, tour, config, checkTodo, control));
  return run.result as Promise<ReplayResult>;
}

/** The replay as a run: the lease, the tour's plan, the announcement, each todo's turn, the end. */
async function replay(plan: Plan, tour: Tour, config: RunConfig, checkTodo: ReplayChecks['checkTodo'], control: RunControl): Promise<ReplayResult> {
  const { runId } = control;
  const gate = createActionGate(plan, { ...config, approval: { ...config.approval, ask: control.asker(config.approval.ask, config.approval.timeoutMs) } });
  const recorder = createTourRecorder({ tools: config.tools, locators: config.page.locators });
  const memory = new TurnMemory(config.prompt.memoryTurns);
  const repairModel = config.model.provider ? counted(resolveProvider(config.model.provider, 'turn')) : undefined;
  // A replayed turn waits for the user as long as a live one's actions do: only the repair model's answer is timed.
  const replayConfig: TurnConfig = {
    user: config.user,
    model: { temperature: undefined, maxTokens: undefined, timeoutMs: 0, maxChars: Number.MAX_SAFE_INTEGER },
    bounds: { turnActions: ENVELOPE_LIMITS.actions },
  };
  const repairs: ReplayResult['repairs'] = [];
  let signal = control.signal;
  let phase: RunPhase = 'starting';
  let turn = 0;
  const enter = (next: RunPhase): void => {
    phase = next;
    control.set({ phase });
  };

  const step = (kind: ReasoningPhase, summary: string): void => {
    control.emit('reasoning-step', { runId, phase: kind, summary: clip(summary, 200), turn, timestamp: Date.now() });
  };
  const finish = (reason: RunFinishReason, summary?: string): ReplayResult => {
    const extra = summary === undefined ? {} : { summary };
    control.set({ phase: 'finished', end: { reason, ...extra } });
    control.emit('run-finish', { runId, reason, turns: turn, ...extra });
    const todos = plan.todos.list();
    const played = recorder.tour({ task: tour.task, locale: tour.locale, summary: plan.summary, todos }) ?? tour;
    return {
      runId,
      reason,
      turns: turn,
      ...extra,
      todos,
      tour: played,
      modelCalls: repairModel?.calls ?? 0,
      usage: { ...(repairModel?.usage ?? {}) },
      repairs,
    };
  };
  /** Plays one turn through playTurn: `provider` is its "model", the tour's stream or the repair model. */
  const play = (provider: LLMProvider, messages: LLMMessage[], turnConfig: TurnConfig, onSettled?: () => void): Promise<TurnOutcome> =>
    playTurn({
      plan,
      provider,
      messages,
      config: turnConfig,
      gate,
      runId,
      turn,
      signal,
      onStep: step,
      onAction: (action, index, decision) => {
        if (decision.decision === 'run') recorder.admit(action);
        control.emit('action', { runId, turn, index, action, ...decision });
      },
      onSettled: (action, outcome, refused, todoId) => {
        recorder.settle(action, outcome, refused, todoId);
        onSettled?.();
      },
    });
  const startTurn = (maxTurns: number, attempt: number): void => {
    control.set({ turn, maxTurns, attempt });
    control.emit('turn-start', { runId, turn, maxTurns, attempt });
  };
  const endTurn = (outcome: Extract<TurnOutcome, { ok: true }>, observations: Observation[]): void => {
    const usage = outcome.usage ? { usage: outcome.usage } : {};
    control.emit('turn-end', { runId, turn, envelope: outcome.envelope, adjust: outcome.adjust, observations: [...observations], ...usage });
  };

  let lease: RunHandle | undefined;
  let refusedLease = false;
  try {
    throwIfAborted(signal);
    await untilAborted(plan.ready, signal);
    lease = await plan.acquireRun({ takeOver: config.start.takeOver, signal }).catch((error: unknown) => {
      refusedLease = true;
      throw error;
    });
    signal = lease.signal;
    control.attach();
    control.emit('run-start', { runId, task: tour.task, resumed: false });
    plan.setTaskPlan({ summary: tour.summary, todos: tour.todos.map((todo) => ({ intent: todo.intent, description: todo.description })), task: tour.task });
    // The tour's todos by the ids the plan gave them: the user may remove or reorder todos at the announcement.
    const byPlanId = new Map(plan.todos.list().map((todo, index) => [todo.id, tour.todos[index] as TourTodo]));
    const announce = config.start.announce;
    if (announce) {
      enter('announcing');
      const go = await untilAborted(Promise.resolve(announce(plan.summary, plan.todos.list())), signal);
      if (!go) {
        plan.todos.reset();
        return finish('declined');
      }
    }
    enter('running');
    const order = plan.todos.list().filter((todo) => byPlanId.has(todo.id) && (byPlanId.get(todo.id) as TourTodo).steps.length > 0);
    let maxTurns = order.reduce((sum, todo) => sum + Math.max(1, Math.ceil((byPlanId.get(todo.id) as TourTodo).steps.length / ENVELOPE_LIMITS.actions)), 0);
    control.set({ maxTurns });

    for (const [position, todo] of order.entries()) {
      // A repair turn may have gone past this todo already.
      if (plan.todos.get(todo.id)?.status === 'completed') continue;
      const recorded = byPlanId.get(todo.id) as TourTodo;
      const lastTodo = position === order.length - 1;
      // Set by the tour's stream when a step cannot be written (a holder: TypeScript does not see the callback set it).
      const failed: { step?: Failure } = {};
      const failedStep = (): Failure | undefined => failed.step;
      let finishSummary: string | undefined;
      let refusals = 0;
      let turnObservations: Observation[] = [];
      for (let start = 0; start < recorded.steps.length && !failed.step; start += ENVELOPE_LIMITS.actions) {
        const chunk = recorded.steps.slice(start, start + ENVELOPE_LIMITS.actions);
        const last = lastTodo && start + ENVELOPE_LIMITS.actions >= recorded.steps.length;
        throwIfAborted(signal);
        turn += 1;
        startTurn(maxTurns, 1);
        const stream = tourStream(todo.id, last, chunk, start, config.page.locators, (found) => (failed.step = found));
        const outcome = await play(stream.provider, [], replayConfig, stream.settled);
        if (!outcome.ok) throw outcome.error;
        if (gate.capped) {
          endTurn(outcome, outcome.observations);
          step('reflect', `Stopped: the run's limit of ${config.bounds.runActions} actions is reached.`);
          return finish('action_limit');
        }
        refusals += outcome.refusals;
        finishSummary ??= outcome.finishSummary;
        turnObservations = [...turnObservations, ...outcome.observations];
        // A todo cut short by a failed step is not remembered as done: the repair turn redoes what is left.
        const cut = failedStep();
        if (!cut) memory.record(outcome.envelope, outcome.adjust);
        step('reflect', cut ? `Step ${cut.index + 1} of ${todo.id} could not be replayed: ${cut.message}` : `Replayed ${todo.id}.`);
        endTurn(outcome, outcome.observations);
      }
      let failure = failedStep();
      if (!failure && refusals > 0) {
        const refused = turnObservations.find((observation) => observation.kind === 'refused');
        failure = { index: refusedIndex(recorded.steps, refused), reason: 'refused', message: refused?.summary ?? 'a step was refused' };
      }
      const judge = checkTodo ?? ((check: Record<string, unknown>) => pageEvidence(check, config, signal));
      if (!failure && recorded.check && recorded.check.kind !== 'none') {
        const current = plan.todos.get(todo.id);
        const verdict = current
          ? await untilAborted(Promise.resolve(judge(structuredClone(recorded.check), current)), signal).catch((error: unknown) => {
              if (signal.aborted) throw error;
              return `the check failed to run (${clip(error instanceof Error ? error.message : error, 120)})`;
            })
          : true;
        if (verdict !== true)
          failure = {
            index: recorded.steps.length,
            reason: 'check-failed',
            message: typeof verdict === 'string' && verdict.trim() ? clip(verdict, 200) : 'its check does not hold',
          };
      }
      if (failure) {
        if (!repairModel) {
          throw new TourError(
            'tour_step_failed',
            `The recorded tour stopped at step ${failure.index + 1} of todo ${recorded.id} ("${clip(recorded.description, 60)}"): ${failure.message}. No model was given to repair it (pass model.provider to replayTour), or record the tour again.`,
            { step: { todoId: recorded.id, index: failure.index, reason: failure.reason } },
          );
        }
        repairs.push({ todoId: recorded.id, ...failure });
        maxTurns += 1;
        const repaired = await repairTurn(todo, recorded, failure, turnObservations, maxTurns);
        if (repaired.finishing) return repaired.finishSummary !== undefined ? finish('task_finish', repaired.finishSummary) : finish('last_turn');
        continue;
      }
      if (lastTodo || finishSummary !== undefined) {
        if (plan.todos.get(todo.id)?.status === 'in_progress') plan.adjust({ remove: [todo.id] });
        return finishSummary !== undefined ? finish('task_finish', finishSummary) : finish('last_turn');
      }
    }
    // The last todo was repaired by a turn that did not finish: the run ends as a live last turn does.
    const last = order.at(-1);
    if (last && plan.todos.get(last.id)?.status === 'in_progress') plan.adjust({ remove: [last.id] });
    return finish(order.length === 0 ? 'no_todos' : 'last_turn');
  } catch (caught) {
    throw control.fail(caught, { phase, signal, report: !refusedLease });
  } finally {
    await lease?.release();
  }

  /** One live turn for the todo a step failed in: the page as it is, the tour's steps as a hint. */
  async function repairTurn(
    todo: TodoItem,
    recorded: TourTodo,
    failure: { index: number; reason: TourStepFailure; message: string },
    seen: Observation[],
    maxTurns: number,
  ): Promise<{ finishing: boolean; finishSummary: string | undefined }> {
    const provider = repairModel as LLMProvider & { calls: number };
    turn += 1;
    const hint: Observation = { kind: 'feedback', summary: repairHint(todo.id, recorded, failure) };
    const observe = config.page.observe;
    const page = observe ? await observePage(observe, { turn, plan, signal, maxTokens: config.page.tokenBudget }) : undefined;
    const url = config.page.url?.();
    const { instructions } = config.prompt;
    const systemPrompt = typeof instructions === 'function' ? instructions() : instructions;
    let feedback: LLMMessage[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      startTurn(maxTurns, attempt);
      // The replay's own bound: the repair turn is not told it is the last one unless it is.
      const prompt = {
        task: tour.task,
        todos: plan.todos.list(),
        turn,
        maxTurns,
        memory: memory.lines,
        observations: [...seen, hint],
        url,
        page,
        locale: tour.locale,
      };
      const system = { tools: config.tools.specs, ...(systemPrompt ? { systemPrompt } : {}) };
      const messages = redactHostSecrets([...buildTurnMessages(prompt, system), ...feedback], config.page.secrets);
      const outcome = await play(provider, messages, config);
      if (outcome.ok) {
        memory.record(outcome.envelope, outcome.adjust);
        step('reflect', `Repaired ${todo.id} with a live turn.`);
        endTurn(outcome, outcome.observations);
        const planning = outcome.envelope.turn_planning;
        const finishing = !outcome.lookOnly && outcome.refusals === 0 && (outcome.finishSummary !== undefined || planning?.is_last_turn === true);
        if (finishing) {
          const current = planning?.todo_id;
          if (current && plan.todos.get(current)?.status === 'in_progress') plan.adjust({ remove: [current] });
        }
        return { finishing, finishSummary: outcome.finishSummary };
      }
      step('obs', `Rejected reply: ${outcome.error.message}`);
      if (attempt === MAX_ATTEMPTS) throw outcome.error;
      feedback = [
        { role: 'assistant', content: outcome.raw.trim() === '' ? '(empty reply)' : outcome.raw.slice(0, 2000) },
        {
          role: 'user',
          content: [outcome.error.message, ...(outcome.done.length > 0 ? [`Already done this turn, do not repeat: ${outcome.done.join('; ')}.`] : [])].join(
            '\n',
          ),
        },
      ];
    }
    throw new EnvelopeError('envelope_invalid', 'The repair turn produced no envelope.');
  }
}

/**
 * The tour's side of a replayed turn, as a stream a turn reads like a model's: the todo named, then
 * each step as an action, written only once the action before it has settled, with its targets
 * found again on the page as it is then. A step whose target is not found ends the envelope there
 * (`onFailure` says which and why).
 */
function tourStream(
  todoId: string,
  last: boolean,
  steps: readonly TourStep[],
  offset: number,
  locators: TourLocators | undefined,
  onFailure: (failure: { index: number; reason: TourStepFailure; message: string }) => void,
): { provider: LLMProvider; settled: () => void } {
  let release: (() => void) | undefined;
  const settled = (): void => {
    const done = release;
    release = undefined;
    done?.();
  };
  async function* write(signal: AbortSignal | undefined): AsyncIterable<LLMChunk> {
    yield { type: 'text-delta', delta: `{"todo":${JSON.stringify(todoId)},${last ? '"last":true,' : ''}"actions":[` };
    for (const [index, recorded] of steps.entries()) {
      const action = actionOf(recorded, locators);
      if (!action.ok) {
        onFailure({ index: offset + index, reason: action.reason, message: action.message });
        break;
      }
      const done = new Promise<void>((resolve) => (release = resolve));
      yield { type: 'text-delta', delta: `${index > 0 ? ',' : ''}${JSON.stringify(action.action)}` };
      await untilAborted(done, signal);
    }
    yield { type: 'text-delta', delta: ']}' };
    yield { type: 'finish', finishReason: 'stop' };
  }
  const provider: LLMProvider = {
    generate: () => Promise.reject(new ProviderError('provider_error', 'A replayed turn is streamed.', { provider: 'replay', retryable: false })),
    stream: (request) => write(request.signal),
  };
  return { provider, settled };
}

/** A tour step as the action a turn carries, with its targets found again; or why it cannot be. */
function actionOf(
  step: TourStep,
  locators: TourLocators | undefined,
): { ok: true; action: TurnAction } | { ok: false; reason: TourStepFailure; message: string } {
  const find = (locator: Locator | null, what: string): { ok: true; target: string } | { ok: false; reason: TourStepFailure; message: string } => {
    if (locator === null) return { ok: false, reason: 'not-found', message: `the recording has no locator for ${what}` };
    if (!locators) return { ok: false, reason: 'not-found', message: 'no locators were given to find targets with' };
    const found = locators.find(locator);
    if (found.ok) return found;
    return { ok: false, reason: found.reason === 'ambiguous' ? 'ambiguous' : 'not-found', message: `${what}: ${found.message}` };
  };
  switch (step.type) {
    case 'narrate': {
      if (step.target === undefined) return { ok: true, action: { type: 'narrate', text: step.text } };
      // A narration whose target the recording could not locate pointed at nothing then either.
      if (step.target === null) return { ok: true, action: { type: 'narrate', text: step.text } };
      const found = find(step.target, "the narration's target");
      return found.ok ? { ok: true, action: { type: 'narrate', target: found.target, text: step.text } } : found;
    }
    case 'tool': {
      const args: Record<string, unknown> = structuredClone(step.args);
      for (const [name, locator] of Object.entries(step.targets ?? {})) {
        const found = find(locator, `args.${name} of ${step.name}`);
        if (!found.ok) return found;
        args[name] = found.target;
      }
      return { ok: true, action: { type: 'tool', name: step.name, args } };
    }
    case 'ask':
      return { ok: true, action: { type: 'ask', question: step.question } };
    default:
      return { ok: true, action: { type: 'task_finish', summary: step.summary } };
  }
}

/** Refuses, before anything runs, a tour this host cannot play: a tool it does not have, targets without locators. */
function checkTourAgainstHost(tour: Tour, config: RunConfig): void {
  const { tools } = config;
  const issues: ValidationIssue[] = [];
  let targets = false;
  tour.todos.forEach((todo, t) => {
    todo.steps.forEach((step, s) => {
      const path = pathOf(pathOf(pathOf('todos', t), 'steps'), s);
      if (step.type === 'tool' && !tools.get(step.name))
        issues.push({
          path: pathOf(path, 'name'),
          message: `names the tool "${clip(step.name, 40)}", which this page does not have (tools: ${tools.names.join(', ') || 'none'})`,
        });
      if ((step.type === 'narrate' && step.target) || (step.type === 'tool' && Object.values(step.targets ?? {}).some(Boolean))) targets = true;
    });
  });
  if (issues.length > 0) {
    const first = issues[0] as ValidationIssue;
    throw new TourError('tour_invalid', `Cannot use this tour here: ${first.path} ${first.message}. Nothing was run.`, { issues });
  }
  if (targets && !config.page.locators) {
    throw new ValidationError(
      'invalid_input',
      'Cannot replay: the tour points at elements, and replayTour has no locators to find them (pass page.locators: createTourLocators() from planloop/dom).',
      {
        issues: [{ path: 'page.locators', message: 'is required for a tour with targets' }],
      },
    );
  }
}

/** What the repair turn is told: what failed, and what the recording did for the todo. */
function repairHint(todoId: string, recorded: TourTodo, failure: { index: number; reason: TourStepFailure; message: string }): string {
  const steps = recorded.steps.map((step, index) => `${index + 1}. ${describeStep(step)}${index < failure.index ? ' (done)' : ''}`).join(' ');
  const what =
    failure.reason === 'check-failed'
      ? `${todoId} is not done after its recorded steps: ${failure.message}`
      : `step ${failure.index + 1} of ${todoId} could not be replayed: ${failure.message}`;
  return `Replaying a recorded tour, ${what}. The recording did: ${steps} Do what is left of ${todoId} on the page as it is now, in the tour's words where they still fit; do not go on to later todos.`;
}

function describeStep(step: TourStep): string {
  switch (step.type) {
    case 'narrate':
      return `narrate "${clip(step.text, 120)}"${step.target ? ` at ${step.target.role} "${clip(step.target.name, 40)}"` : ''}`;
    case 'tool':
      return `${step.name} ${clip({ ...step.args, ...Object.fromEntries(Object.entries(step.targets ?? {}).map(([name, locator]) => [name, locator ? `${locator.role} "${locator.name}"` : '?'])) }, 100)}`;
    case 'ask':
      return `ask "${clip(step.question, 80)}"`;
    default:
      return 'finish';
  }
}

/** The index of the step a refusal was about (the first tool step of that name), else 0. */
function refusedIndex(steps: readonly TourStep[], refused: Observation | undefined): number {
  const index = steps.findIndex((step) => step.type === 'tool' && step.name === refused?.name);
  return Math.max(0, index);
}

/** `provider` counting its calls and the tokens it reports. */
function counted(provider: LLMProvider): LLMProvider & { calls: number; usage: LLMUsage } {
  const state = { calls: 0, usage: {} as LLMUsage };
  const add = (usage: LLMUsage | undefined): void => {
    if (usage?.inputTokens !== undefined) state.usage.inputTokens = (state.usage.inputTokens ?? 0) + usage.inputTokens;
    if (usage?.outputTokens !== undefined) state.usage.outputTokens = (state.usage.outputTokens ?? 0) + usage.outputTokens;
  };
  const stream = provider.stream?.bind(provider);
  return {
    get calls() {
      return state.calls;
    },
    get usage() {
      return state.usage;
    },
    async generate(request) {
      state.calls += 1;
      const result = await provider.generate(request);
      add(result.usage);
      return result;
    },
    ...(stream
      ? {
          async *stream(request) {
            state.calls += 1;
            for await (const chunk of stream(request)) {
              if (chunk.type === 'finish') add(chunk.usage);
              yield chunk;
            }
          },
        }
      : {}),
  } as LLMProvider & { calls: number; usage: LLMUsage };
}

/** A recorded check judged as a live run judges it: `true`, or what is missing (see `ReplayChecks.checkTodo`). */
async function pageEvidence(value: Record<string, unknown>, config: RunConfig, signal: AbortSignal): Promise<true | string> {
  const check = readTodoCheck(value, 'check', []);
  if (!check || check.kind === 'none' || check.kind === 'narrated' || check.kind === 'tool') return true;
  const url = config.page.url?.();
  if (check.kind === 'url') return url === undefined || matchUrl(check.pattern, url) || missingEvidence(check);
  if (!config.page.check) return true;
  const result = await config.page.check(check, { url, signal });
  return result.ok || result.missing;
}
