import type { AdjustResult } from '../envelope/apply.js';
import { ENVELOPE_LIMITS, TURN_ENVELOPE_JSON_SCHEMA, type TurnAction, type TurnEnvelope, type TurnPlanning } from '../envelope/schema.js';
import { createEnvelopeStreamParser } from '../envelope/stream.js';
import { AbortError, EnvelopeError, PlanloopError } from '../errors.js';
import { toAbortError, untilAborted } from '../abort.js';
import type { Observation, ReasoningPhase } from '../events.js';
import { callModel, type ModelReply } from '../llm/call.js';
import { describedInPrompt } from '../llm/json-instruction.js';
import type { LLMMessage, LLMProvider, LLMUsage } from '../llm/provider.js';
import type { Plan } from '../plan.js';
import { createActionGate, type ActionGate } from './action-gate.js';
import type { ActionRisk, ConfirmResult } from './action-policy.js';
import { describeAction, dispatchAction, type ActionHandlers, type ActionOutcome } from './dispatch-action.js';
import { clip, TURN_INSTRUCTIONS } from './turn-prompt.js';

/** The bounds of one turn. Each ends the turn with a coded error that is fed back to the model once. */
export interface TurnLimits {
  /** Milliseconds the model may take to answer (a stalled or 1-byte-per-second stream). `0`: none. */
  timeoutMs: number;
  /** Characters the answer may have (a JSON object that never closes). */
  maxChars: number;
  /** Actions one envelope may carry. */
  maxActions: number;
}

/** What {@link playTurn} needs. */
export interface PlayTurnInput {
  plan: Plan;
  provider: LLMProvider;
  messages: LLMMessage[];
  handlers: ActionHandlers;
  runId: string;
  turn: number;
  limits: TurnLimits;
  signal?: AbortSignal | undefined;
  temperature?: number | undefined;
  maxTokens?: number | undefined;
  /** A line of the reasoning trail (plan, act, obs). */
  onStep: (phase: ReasoningPhase, summary: string) => void;
  /** An action is about to be dispatched, or was refused (see the `action` event). */
  onAction: (action: TurnAction, index: number, decision: ActionDecision) => void;
  /**
   * An action is done with: it ran (`outcome`, and whether a step of it was refused through
   * `ctx.confirm`), or it did not run at all (refused, past the action cap, the turn cancelled:
   * `refused` true, `outcome` empty); with the turn's todo. Called once for every action the
   * envelope carried, in order (a run's tour recorder files the action under the todo). Default: none.
   */
  onSettled?: ((action: TurnAction, outcome: ActionOutcome, refused: boolean, todoId: string | undefined) => void) | undefined;
  /**
   * The run's action policy (`createActionGate`). Default: a gate of this turn alone, without an
   * approval hook (`'irreversible'` tool actions are refused, the others run).
   */
  gate?: ActionGate | undefined;
}

/** What became of an action: it runs, or it was refused and why (the `action` event's fields). */
export interface ActionDecision {
  readonly decision: 'run' | 'refused';
  readonly risk?: ActionRisk;
  readonly approvedBy?: 'policy' | 'user';
  readonly reason?: string;
  readonly detail?: string;
}

/** How a turn ended: applied, or refused (its plan change rolled back) with an error to feed back. */
export type TurnOutcome =
  | {
      ok: true;
      envelope: TurnEnvelope;
      adjust: AdjustResult;
      observations: Observation[];
      usage: LLMUsage | undefined;
      finishSummary: string | undefined;
      /** Every action was a `risk: 'read'` tool: the turn's plan change was undone. */
      lookOnly: boolean;
      /** Tool actions (or steps of them) refused this turn: the model has not heard of them yet. */
      refusals: number;
    }
  | {
      ok: false;
      /** An `EnvelopeError`, `output_too_long`, or a `timeout` `AbortError`: worded for the model. */
      error: PlanloopError;
      /** The model's text, for the feedback message. */
      raw: string;
      observations: Observation[];
      /** The actions that already ran (they cannot be undone): the model is told not to repeat them. */
      done: string[];
    };

/**
 * One turn, as a transaction on the plan: streams the model's envelope and acts on it while it
 * streams (`todo_adjust` is applied once `turn_planning` and it have arrived, each action runs as
 * soon as its JSON closes, one at a time, in order). If the envelope turns out bad (invalid, cut
 * off, an insert attempt, more than `maxActions` actions), the answer passes `maxChars` or the
 * model takes longer than `timeoutMs`, the turn's plan change is rolled back, actions not yet
 * started are dropped, and the outcome says why. A run abort rolls back too and rejects with an
 * `AbortError`; a provider failure rolls back and rejects with the provider's error.
 *
 * @example
 * ```ts
 * const outcome = await playTurn({
 *   plan, provider, messages, handlers: { tools }, runId: 'run-1', turn: 1, limits: DEFAULT_TURN_LIMITS,
 *   onStep: (phase, summary) => console.log(phase, summary),
 *   onAction: (action, index, decision) => console.log(index, action.type, decision),
 * });
 * if (!outcome.ok) console.log(outcome.error.message); // fed back to the model on the retry
 * ```
 */
export async function playTurn(input: PlayTurnInput): Promise<TurnOutcome> {
  const { plan, signal, limits } = input;
  const turn = plan.transaction();
  const observations: Observation[] = [];
  const done: string[] = [];
  let planning: TurnPlanning | undefined;
  let adjust: AdjustResult | undefined;
  let refused: EnvelopeError | undefined;
  let cancelled = false;
  let finishSummary: string | undefined;
  let chain = Promise.resolve();
  // Narrations whose words have started to stream, by action index: `open` once the actions
  // before them have finished, so the host shows their words in order.
  const narrations = new Map<number, { open: boolean; failed: boolean; text: string; target: string | undefined; dispatched: boolean }>();
  const gate = input.gate ?? createActionGate({ plan, tools: input.handlers.tools });
  let refusals = 0;
  // Narrate and ask are no page actions: there is nothing riskier for them to confirm.
  const noStep = async (): Promise<ConfirmResult> => ({ approved: false, reason: 'only a tool can ask for a riskier step' });
  const context = () => ({ runId: input.runId, turn: input.turn, plan, todoId: planning?.todo_id, signal, confirm: noStep });

  const say = (index: number, delta: string): void => {
    const narration = narrations.get(index);
    const onDelta = input.handlers.onNarrateDelta;
    if (!narration || !onDelta || narration.failed || delta === '') return;
    try {
      onDelta(delta, narration.target, { ...context(), index, text: narration.text });
    } catch (error) {
      // A failing bubble must not end the turn: the model hears of it, like of a failing onNarrate.
      narration.failed = true;
      const observation: Observation = { kind: 'tool-error', name: 'narrate', summary: `narrate failed: ${clip(error instanceof Error ? error.message : error)}` };
      observations.push(observation);
      input.onStep('obs', observation.summary);
    }
  };

  const stream = (delta: string, index: number, target: string | undefined): void => {
    if (refused || cancelled || !input.handlers.onNarrateDelta) return;
    let narration = narrations.get(index);
    if (!narration) {
      const entry = { open: false, failed: false, text: '', target, dispatched: false };
      narrations.set(index, entry);
      narration = entry;
      chain = chain.then(() => {
        if (cancelled || signal?.aborted) return;
        entry.open = true;
        say(index, entry.text); // the words that came while earlier actions ran
      });
    }
    narration.text += delta;
    narration.target = target ?? narration.target;
    if (narration.open) say(index, delta);
  };

  const observe = (observation: Observation): void => {
    observations.push(observation);
    input.onStep('obs', observation.summary);
  };

  const dispatch = async (action: TurnAction, index: number): Promise<void> => {
    let settled: { outcome: ActionOutcome; refused: boolean } = { outcome: {}, refused: true };
    try {
      await act(action, index, (outcome, refused) => {
        settled = { outcome, refused };
      });
    } finally {
      input.onSettled?.(action, settled.outcome, settled.refused, planning?.todo_id);
    }
  };

  const act = async (action: TurnAction, index: number, ran: (outcome: ActionOutcome, refused: boolean) => void): Promise<void> => {
    if (cancelled || gate.capped || signal?.aborted) return;
    if (action.type !== 'tool') {
      input.onAction(action, index, { decision: 'run' });
      input.onStep('act', describeAction(action));
      done.push(describeAction(action));
      const narration = narrations.get(index);
      if (narration) narration.dispatched = true;
      const outcome = await dispatchAction(action, input.handlers, context());
      ran(outcome, false);
      if (outcome.finishSummary !== undefined) finishSummary = outcome.finishSummary;
      if (outcome.observation) observe(outcome.observation);
      return;
    }
    // The action policy first: the run's action cap, the user's approval of plan changes and of risky tools.
    const turnInfo = { todoId: planning?.todo_id, purpose: planning?.does || undefined, signal };
    const decision = await gate.admit(action, turnInfo);
    if (cancelled || signal?.aborted) return;
    const risk = decision.risk === undefined ? {} : { risk: decision.risk };
    if (!decision.run) {
      input.onAction(action, index, { decision: 'refused', ...risk, reason: decision.reason, detail: decision.detail });
      input.onStep('act', `${describeAction(action)} (refused: ${decision.reason})`);
      // Past the cap the run ends after this turn: there is no next prompt to tell.
      if (decision.capped) return;
      refusals += 1;
      observe({ kind: 'refused', name: action.name, summary: `${action.name} was not run: ${decision.reason}. Do not send it again unchanged: go on with another todo, or ask the user.` });
      return;
    }
    input.onAction(action, index, { decision: 'run', ...risk, approvedBy: decision.approvedBy, detail: decision.detail });
    input.onStep('act', describeAction(action));
    done.push(describeAction(action));
    const steps: string[] = [];
    const confirm = gate.confirmFor(action, decision.risk ?? 'write', turnInfo, (stepRisk, detail, reason) => {
      steps.push(reason);
      input.onAction(action, index, { decision: 'refused', risk: stepRisk, reason, detail });
    });
    const outcome = await dispatchAction(action, input.handlers, { ...context(), confirm });
    ran(outcome, steps.length > 0);
    if (steps.length > 0 && outcome.observation) {
      // The tool stopped at a step the policy or the user refused: the model hears it as a refusal.
      refusals += 1;
      observe({ ...outcome.observation, kind: 'refused', summary: `${action.name} stopped before a step that was refused: ${steps.join('; ')}. It reported: ${clip(outcome.observation.summary, 120)}` });
    } else if (outcome.observation) observe(outcome.observation);
  };

  const parser = createEnvelopeStreamParser({
    remainingIds: plan.todos.remaining().map((todo) => todo.id),
    onTurnPlanning: (value) => {
      planning = value;
      const todo = value.todo_id === undefined ? undefined : plan.todos.get(value.todo_id);
      input.onStep('plan', `${value.todo_id ?? 'no todo'}: ${value.does || todo?.description || '(not said)'}`);
    },
    onTodoAdjust: (value) => {
      try {
        gate.beforeAdjust(value);
        // A second call (a plan change written after the actions) adds to the first.
        const marks = { markRewrites: gate.marksRewrites };
        const result = turn.adjust(value, adjust ? marks : { ...marks, inProgress: planning?.todo_id });
        adjust = adjust ? mergeResults(adjust, result) : result;
      } catch (error) {
        if (!(EnvelopeError.isInstance(error))) throw error;
        refused = error;
      }
    },
    onNarrateDelta: (delta, target, { index }) => stream(delta, index, target),
    onAction: (action, index) => {
      if (!refused) chain = chain.then(() => dispatch(action, index));
    },
    maxActions: limits.maxActions,
  });

  const fail = async (error: PlanloopError): Promise<TurnOutcome> => {
    cancelled = true;
    await untilAborted(chain, signal);
    turn.rollback();
    // Words the user already saw of a narrate that never completed: the model must not say them again.
    for (const narration of narrations.values()) {
      if (narration.open && !narration.dispatched && narration.text) done.push(`narrate "${clip(narration.text, 60)}" (cut off)`);
    }
    return { ok: false, error, raw: parser.text, observations, done };
  };

  let reply: ModelReply;
  try {
    reply = await callModel(
      input.provider,
      {
        messages: input.messages,
        jsonSchema: turnSchema(input.messages),
        ...(signal ? { signal } : {}),
        ...(input.temperature === undefined ? {} : { temperature: input.temperature }),
        ...(input.maxTokens === undefined ? {} : { maxTokens: input.maxTokens }),
      },
      {
        // Already bad: stop paying for the rest.
        onDelta: (delta) => {
          parser.push(delta);
          return !(parser.error || refused);
        },
        maxChars: limits.maxChars,
        timeoutMs: limits.timeoutMs,
      },
    );
  } catch (error) {
    if (!signal?.aborted && AbortError.isInstance(error) && error.code === 'timeout') {
      return fail(new AbortError(
        'timeout',
        `Your reply took longer than ${Math.round(limits.timeoutMs / 1000)} s and was stopped. Reply at once with a short envelope.`,
        { cause: error },
      ));
    }
    if (!signal?.aborted && PlanloopError.isInstance(error) && error.code === 'output_too_long') return fail(error);
    cancelled = true;
    turn.rollback();
    throw signal?.aborted ? toAbortError(signal.reason) : error;
  }

  let error = refused ?? parser.error;
  let envelope: TurnEnvelope | undefined;
  if (!error) {
    const result = parser.end(); // may apply a held-back todo_adjust and dispatch held actions
    if (result.success) envelope = result.data;
    error = refused ?? (result.success ? undefined : result.error);
  }
  if (error || !envelope || !adjust) {
    const failure = error ?? new EnvelopeError('envelope_invalid', 'The envelope could not be applied. Send it again.');
    const cutOff = reply.finishReason === 'length' ? ' Your reply hit the length limit: keep it shorter.' : '';
    return fail(cutOff ? new EnvelopeError(failure.code as 'envelope_invalid', failure.message + cutOff, { raw: failure.raw, issues: failure.issues }) : failure);
  }
  await untilAborted(chain, signal);
  // A turn that only looked (every action a tool declared `risk: 'read'`) changes nothing in the
  // plan: it gathered what the next turn acts on, so its todo change is undone.
  const lookOnly = isLookOnly(envelope.actions, input.handlers);
  if (lookOnly) {
    turn.rollback();
    adjust = { completed: [], replaced: [], ignored: adjust.ignored };
  } else turn.commit();
  return { ok: true, envelope, adjust, observations, usage: reply.usage, finishSummary, lookOnly, refusals };
}

/** Whether every action is a call of a tool that declares `risk: 'read'` (and there is at least one). */
function isLookOnly(actions: readonly TurnAction[], handlers: ActionHandlers): boolean {
  const tools = handlers.tools ?? {};
  return (
    actions.length > 0 &&
    actions.every((action) => {
      if (action.type !== 'tool' || !Object.hasOwn(tools, action.name)) return false;
      const tool = tools[action.name];
      return typeof tool === 'object' && (tool as { risk?: unknown }).risk === 'read';
    })
  );
}

/**
 * The default turn bounds: 30 s to answer (like `makeTodos`), 20,000 characters, and
 * `ENVELOPE_LIMITS.actions` actions.
 *
 * @example
 * ```ts
 * runWebAgent({ plan, task, turnLimits: { ...DEFAULT_TURN_LIMITS, timeoutMs: 60_000 } });
 * ```
 */
export const DEFAULT_TURN_LIMITS: TurnLimits = { timeoutMs: 30_000, maxChars: 20_000, maxActions: ENVELOPE_LIMITS.actions };

/** Two adjust results of one turn as one. */
function mergeResults(first: AdjustResult, second: AdjustResult): AdjustResult {
  return {
    completed: [...first.completed, ...second.completed],
    replaced: [...first.replaced, ...second.replaced],
    ignored: [...first.ignored, ...second.ignored],
  };
}

/** The envelope schema, marked as described in the prompt (TURN_INSTRUCTIONS shows the shape). */
const SCHEMA_IN_PROMPT = describedInPrompt(TURN_ENVELOPE_JSON_SCHEMA);

/**
 * The schema a turn sends: marked as already described when the system prompt carries
 * TURN_INSTRUCTIONS (also when a host appended to it), so a backend that cannot enforce it is not
 * told the shape a second time; a host prompt that replaced the instructions gets the schema whole.
 */
function turnSchema(messages: readonly LLMMessage[]): Record<string, unknown> {
  return messages.some((message) => message.role === 'system' && message.content.includes(TURN_INSTRUCTIONS)) ? SCHEMA_IN_PROMPT : TURN_ENVELOPE_JSON_SCHEMA;
}
