import { throwIfAborted, untilAborted } from '../abort.js';
import type { TurnAction } from '../envelope/schema.js';
import type { PlanloopError } from '../errors.js';
import type { Observation, ReasoningPhase, RunFinishReason } from '../events.js';
import { resolveProvider, type LLMMessage, type LLMProvider } from '../llm/provider.js';
import type { Plan, RunHandle } from '../plan.js';
import { createActionGate } from './action-gate.js';
import type { ActionOutcome } from './dispatch-action.js';
import { assessFinish, createEvidenceLedger, recheckHeld, type EvidenceLedger, type UnverifiedTodo } from './evidence-ledger.js';
import { decideFinish, type FinishVerdict } from './finish-rules.js';
import { applyHostChecks } from './host-checks.js';
import { observePage } from './observe-page.js';
import { playTurn, type TurnOutcome } from './play-turn.js';
import { fenceBlock } from './prompt-fence.js';
import { redactHostSecrets } from './redact-prompt.js';
import { openRun, type RunControl } from './run.js';
import { resolveRunOptions, type RunConfig, type RunOptions } from './run-options.js';
import type { Run, RunPhase, RunResult } from './run-state.js';
import { createTourRecorder, type TourRecorder } from './tour-recorder.js';
import { TurnMemory } from './turn-memory.js';
import { buildTurnMessages, clip } from './turn-prompt.js';

/** Bad replies in a row (the first try and its retry) before the run ends with `run-error`. */
const MAX_ATTEMPTS = 2;

/**
 * Starts the reference turn loop on `plan` and returns the run: its state (`run.state`, a store:
 * `run.subscribe`, `run.getSnapshot`), its events (`run.on`), its result (`run.result`) and
 * `run.stop()`. The options are checked first, whole: a bad one throws a `ValidationError` here,
 * before any model call (see `resolveRunOptions`).
 *
 * The run takes the plan's run lease (one run at a time per plan, across the tabs that sync it:
 * another run here or in another tab rejects with `run_in_progress` naming the holder, unless
 * `start.takeOver`), then plans once with `plan.makeTodos(start.planInput)`, unless the plan
 * already has remaining todos planned for this task: then it resumes them (`run-start` has
 * `resumed: true`; see `start.resume`). With `start.announce` it waits for the host's go (a
 * decline clears the plan and ends the run with reason `declined`); a resumed plan none of whose
 * todos has started is announced too.
 *
 * Then it plays turns (see `playTurn`) until the finish rules (`decideFinish`) end it: the model
 * finishes (`task_finish`, the last turn: its todo is completed), nothing remains, the turn bound
 * (remaining todos + `bounds.turnSlack`, fixed when the turns start) or the action cap
 * (`bounds.runActions`) is reached. Each turn's prompt holds the task, the page's URL, the
 * remaining todos, last turn's observations, a short memory, what `page.observe` says the page
 * shows, and after `prompt.nudgeAfter` turns without progress a nudge; the host's `page.secrets`
 * are replaced by `[secret]` wherever they stand in it. A bad reply is rolled back
 * and retried once with the error (`turn-start` with `attempt: 2`); a second one in a row fails
 * the run with it. Every tool action passes the run's action gate (see `createActionGate` and the
 * README's Safety section). A stop (`run.stop()`, `signal`, `plan.requestStop()`, or the lease lost
 * to another tab) rolls the turn back and fails the run with an `AbortError` (code `aborted`); any
 * other failure (planning, the provider) fails it with that error.
 *
 * The result holds what the run did as a tour (`result.tour`, targets as locators with
 * `page.locators`), which `replayTour` plays again without a model.
 *
 * The run becomes the plan's current run once it holds the lease (`currentRun(plan)`, which
 * `<plan-panel>` follows). Its events are on the run; until 0.4.0 they are emitted on the plan too.
 *
 * @example
 * ```ts
 * const run = startRun(plan, {
 *   task: 'Show me the pricing page',
 *   tools,
 *   user: { narrate: (text) => console.log(text) },
 *   approval: { ask: (request, { signal }) => panel.requestApproval(request, { signal }) },
 *   start: { announce: () => panel.review() },
 * });
 * run.subscribe(({ phase, turn, maxTurns }) => console.log(phase, turn, maxTurns));
 * const result = await run.result; // { reason: 'task_finish', turns, summary, todos, tour }
 * ```
 */
export function startRun(plan: Plan, options: RunOptions): Run {
  const config = resolveRunOptions(options);
  return openRun(plan, config.task, config.signal, (control) => drive(plan, config, control));
}

/** The run: the lease, plan or resume, announce, the turns, the end. */
async function drive(plan: Plan, config: RunConfig, run: RunControl): Promise<RunResult> {
  const { runId } = run;
  const { task } = config;
  let signal = run.signal;
  let phase: RunPhase = 'starting';
  const enter = (next: RunPhase): void => {
    phase = next;
    run.set({ phase });
  };
  const recorder = createTourRecorder({ tools: config.tools, locators: config.page.locators });
  const finish = (reason: RunFinishReason, summary?: string, unverified?: readonly UnverifiedTodo[]): RunResult => {
    const extra = { ...(summary === undefined ? {} : { summary }), ...(unverified ? { unverified: [...unverified] } : {}) };
    const turns = run.state.turn;
    run.set({ phase: 'finished', end: { reason, ...extra } });
    run.emit('run-finish', { runId, reason, turns, ...extra });
    const todos = plan.todos.list();
    const tour = recorder.tour({ task: plan.task || task, locale: config.start.planInput?.locale, summary: plan.summary, todos });
    return { runId, reason, turns, ...extra, todos, ...(tour ? { tour } : {}) };
  };

  let lease: RunHandle | undefined;
  let refused = false;
  try {
    throwIfAborted(signal);
    await untilAborted(plan.ready, signal);
    lease = await plan.acquireRun({ takeOver: config.start.takeOver, signal }).catch((error: unknown) => {
      refused = true;
      throw error;
    });
    // From here on one signal: the run's, a stop request, or the lease lost to another tab.
    signal = lease.signal;
    run.attach();
    const { resumed, unconfirmed } = startOrResume(plan, config);
    run.emit('run-start', { runId, task, resumed });
    const provider = config.model.provider ? resolveProvider(config.model.provider, 'turn') : plan.provider('turn');
    if (!resumed) {
      enter('planning');
      await plan.makeTodos(config.start.planInput ?? { task }, { signal });
    }
    const announce = config.start.announce;
    if (announce && unconfirmed) {
      enter('announcing');
      const go = await untilAborted(Promise.resolve(announce(plan.summary, plan.todos.list())), signal);
      if (!go) {
        plan.todos.reset();
        return finish('declined');
      }
    }
    applyHostChecks(plan, config.start.checks);
    enter('running');
    const end = await playTurns(plan, config, run, provider, signal, recorder);
    return finish(end.reason, end.summary, end.unverified);
  } catch (caught) {
    // A run refused because another tab runs the plan never started: it is not this plan's error.
    throw run.fail(caught, { phase, signal, report: !refused });
  } finally {
    await lease?.release();
  }
}

/**
 * The turns, until the finish rules end them: each turn's prompt (the page, the memory, a nudge),
 * the turn played (once more with the error after a bad reply), its news (events, the reasoning
 * trail), and the verdict of `decideFinish`. Resolves with how the run ends.
 */
async function playTurns(
  plan: Plan,
  config: RunConfig,
  run: RunControl,
  provider: LLMProvider,
  signal: AbortSignal,
  recorder: TourRecorder,
): Promise<{ reason: RunFinishReason; summary?: string; unverified?: readonly UnverifiedTodo[] }> {
  const { runId } = run;
  const gate = createActionGate(plan, { ...config, approval: { ...config.approval, ask: run.asker(config.approval.ask, config.approval.timeoutMs) } });
  // A todo an earlier run left in progress (a reload, another tab) did its steps out of this run's sight.
  const inherited = new Set(plan.todos.list().flatMap((todo) => (todo.status === 'in_progress' ? [todo.id] : [])));
  const ledger = createEvidenceLedger({
    inherited,
    checkPage: config.page.check,
    url: config.page.url,
    isRead: (name) => config.tools.get(name)?.risk === 'read',
    signal,
  });
  let finishRefusals = 0;
  const memory = new TurnMemory(config.prompt.memoryTurns);
  let turn = 0;
  let maxTurns = plan.todos.remaining().length + config.bounds.turnSlack;
  let looks = 0;
  let observations: Observation[] = [];
  const step = (kind: ReasoningPhase, summary: string): void => {
    run.emit('reasoning-step', { runId, phase: kind, summary: clip(summary, 200), turn, timestamp: Date.now() });
  };
  const position = (unverified?: readonly UnverifiedTodo[]) => ({
    turn,
    maxTurns,
    looks,
    lookTurns: config.bounds.lookTurns,
    remaining: plan.todos.remaining().length,
    capped: gate.capped,
    ...(unverified ? { unverified, finishRefusals } : {}),
  });
  run.set({ maxTurns });
  let verdict: FinishVerdict = decideFinish(position());
  while (verdict.next === 'continue') {
    ({ maxTurns, looks } = verdict);
    throwIfAborted(signal);
    turn += 1;
    run.set({ turn, maxTurns, attempt: 0 });
    const { nudgeAfter } = config.prompt;
    const nudge =
      nudgeAfter > 0 && memory.stalled >= nudgeAfter
        ? `${memory.stalled} turns without a todo done. Name the next todo, replace todos that changed, or finish.`
        : undefined;
    const page = config.page.observe ? await observePage(config.page.observe, { turn, plan, signal, maxTokens: config.page.tokenBudget }) : undefined;
    const prompt = {
      task: config.task,
      turn,
      maxTurns,
      memory: memory.lines,
      observations,
      nudge,
      url: config.page.url?.(),
      page,
      locale: config.start.planInput?.locale,
    };
    const { instructions } = config.prompt;
    const systemPrompt = typeof instructions === 'function' ? instructions() : instructions;
    const system = { tools: config.tools.specs, ...(systemPrompt ? { systemPrompt } : {}) };
    let feedback: LLMMessage[] = [];
    let outcome: TurnOutcome;
    // The run's evidence before the turn: which todos its plan change may complete.
    const verdicts = await ledger.verdicts(plan.todos.list());
    const evidence = evidenceStep(plan, ledger, prompt.url);
    for (let attempt = 1; ; attempt++) {
      run.set({ turn, maxTurns, attempt });
      run.emit('turn-start', { runId, turn, maxTurns, attempt });
      outcome = await playTurn({
        plan,
        provider,
        messages: redactHostSecrets([...buildTurnMessages({ ...prompt, todos: plan.todos.list() }, system), ...feedback], config.page.secrets),
        config,
        gate,
        runId,
        turn,
        signal,
        onStep: step,
        onAction: (action, index, decision) => {
          if (decision.decision === 'run') recorder.admit(action);
          else evidence.refused(action);
          run.emit('action', { runId, turn, index, action, ...decision });
        },
        onSettled: (action, outcome, refused, todoId) => {
          recorder.settle(action, outcome, refused, todoId);
          return evidence.settled(action, outcome, refused, todoId);
        },
        verdict: (id) => verdicts.get(id) ?? { complete: true, checked: false },
      });
      if (outcome.ok || gate.capped) break;
      step('obs', `Rejected reply: ${outcome.error.message}`);
      if (attempt === MAX_ATTEMPTS) throw outcome.error;
      feedback = [
        { role: 'assistant', content: outcome.raw.trim() === '' ? '(empty reply)' : outcome.raw.slice(0, 2000) },
        { role: 'user', content: retryMessage(outcome.error, outcome.done, outcome.observations) },
      ];
    }
    const planning = outcome.ok ? outcome.envelope.turn_planning : undefined;
    // A finish the rules would take is first weighed on the evidence: what does not hold is listed
    // for the rules; what holds is completed as the turn ends (the turn's todo with it).
    const asksToFinish =
      outcome.ok && !gate.capped && !outcome.lookOnly && outcome.refusals === 0 && (outcome.finishSummary !== undefined || planning?.is_last_turn === true);
    const assessed = asksToFinish ? await assessFinish(ledger, plan, planning?.todo_id) : undefined;
    const unverified = assessed?.unverified;
    const held = outcome.ok && !asksToFinish && !outcome.lookOnly ? await recheckHeld(ledger, plan, outcome.adjust.held) : [];
    verdict = decideFinish(
      position(unverified),
      outcome.ok
        ? { finishSummary: outcome.finishSummary, lastTurn: planning?.is_last_turn === true, lookOnly: outcome.lookOnly, refusals: outcome.refusals }
        : undefined,
    );
    const usage = outcome.ok && outcome.usage ? { usage: outcome.usage } : {};
    if (gate.capped) {
      step('reflect', `Stopped: the run's limit of ${config.bounds.runActions} actions is reached.`);
      if (outcome.ok)
        run.emit('turn-end', { runId, turn, envelope: outcome.envelope, adjust: outcome.adjust, observations: [...outcome.observations], ...usage });
      continue; // the verdict is action_limit
    }
    if (!outcome.ok) throw outcome.error; // unreachable: only a capped run leaves the attempts without an envelope
    const { envelope, adjust } = outcome;
    observations = outcome.observations;
    if (verdict.next === 'continue' && unverified && unverified.length > 0) finishRefusals += 1;
    const notes = [
      ...held.map((line) => `${line}.`),
      ...(adjust.ignored.length > 0 ? [`Ignored in todo_adjust: ${adjust.ignored.map((entry) => `${entry.id} (${entry.reason})`).join(', ')}.`] : []),
      ...(verdict.note ? [verdict.note] : []),
    ];
    for (const note of notes) {
      observations.push({ kind: 'feedback', summary: note });
      step('obs', note);
    }
    memory.record(envelope, adjust);
    const finishing = verdict.next === 'end' && verdict.completeCurrent;
    const completed = adjust.completed.length > 0 ? `Completed ${adjust.completed.join(', ')}.` : 'No todo completed.';
    step('reflect', `${completed}${adjust.replaced.length > 0 ? ` Rewrote ${adjust.replaced.join(', ')}.` : ''}${finishing ? ' Finishing.' : ''}`);
    run.emit('turn-end', { runId, turn, envelope, adjust, observations: [...observations], ...usage });
    assessed?.settle(verdict.next === 'end' && verdict.completeCurrent);
  }
  return {
    reason: verdict.reason,
    ...(verdict.summary === undefined ? {} : { summary: verdict.summary }),
    ...(verdict.unverified ? { unverified: verdict.unverified } : {}),
  };
}

/**
 * One turn's side of the run's evidence: each action is recorded for the turn's todo once it is
 * done with (awaited before the next one runs, so evidence the page shows only for a moment
 * counts), and the todo is checked; a tool action the gate or the user refused marks its todo
 * `evidence: 'declined'` (an action that runs for it later clears the mark).
 */
function evidenceStep(plan: Plan, ledger: EvidenceLedger, turnUrl: string | undefined) {
  const refusedActions = new WeakSet<TurnAction>();
  return {
    refused(action: TurnAction): void {
      refusedActions.add(action);
    },
    async settled(action: TurnAction, outcome: ActionOutcome, refused: boolean, todoId: string | undefined): Promise<void> {
      const todo = todoId === undefined ? null : plan.todos.get(todoId);
      if (!todo || todoId === undefined) return;
      const kind = outcome.observation?.kind;
      const failed = refused || kind === 'tool-error' || (action.type === 'ask' && kind !== 'answer') || (action.type === 'narrate' && kind === 'feedback');
      ledger.start(todoId, turnUrl);
      const wasDeclined = ledger.declined(todoId);
      ledger.record(todoId, action, refusedActions.has(action) ? 'refused' : failed ? 'failed' : 'ok');
      const declined = ledger.declined(todoId);
      if (declined && todo.evidence !== 'declined' && todo.status !== 'completed') plan.todos.edit(todoId, { evidence: 'declined' });
      else if (wasDeclined && !declined && todo.evidence === 'declined') plan.todos.edit(todoId, { evidence: null });
      if (!declined) await ledger.check(plan.todos.get(todoId) ?? todo);
    },
  };
}

/**
 * Whether a run goes on with the plan's remaining todos or plans afresh. By default only a plan
 * made for this same task (or for no recorded task: a checklist, a host reset) is resumed, so
 * todos a finished or stopped run left are not taken for a new request. A resumed plan none of
 * whose todos has started was never confirmed (the page reloaded at the announcement, or the plan
 * came from a checklist): it is announced like a new one.
 */
function startOrResume(plan: Plan, config: RunConfig): { resumed: boolean; unconfirmed: boolean } {
  // A task that is not a string (plain JS) is no match here: makeTodos then refuses it with a ValidationError.
  const trimmed = (value: unknown): string | undefined => (typeof value === 'string' ? value.trim() : undefined);
  const sameTask = !plan.task || plan.task === trimmed(config.task) || plan.task === trimmed(config.start.planInput?.task);
  const resume = config.start.resume;
  const resumed = plan.todos.remaining().length > 0 && (resume === true || (resume === undefined && sameTask));
  const unconfirmed = !resumed || plan.todos.list().every((todo) => todo.status === 'pending');
  return { resumed, unconfirmed };
}

/** What the model is told after a bad reply: the error, and what already ran (what the tools said, fenced as in the turn prompt). */
function retryMessage(error: PlanloopError, done: string[], observations: Observation[]): string {
  const parts = [error.message];
  if (done.length > 0) parts.push(`Already done this turn, do not repeat: ${done.join('; ')}.`);
  if (observations.length > 0)
    parts.push(fenceBlock('data', `Observed:\n${observations.map((observation) => `- ${clip(observation.summary, 400)}`).join('\n')}`));
  return parts.join('\n');
}
