/*
 * A turn as a transaction on the plan: the model's envelope streams in, its plan change is applied
 * as soon as it is known, its actions run while it streams (acting under the gate:
 * act-under-gate.ts; a narrate's words in order: narration-order.ts), and the turn is committed
 * whole or rolled back to its checkpoint.
 */
import { toAbortError } from '../abort.js';
import type { AdjustResult, CompletionVerdict } from '../envelope/apply.js';
import { TURN_ENVELOPE_JSON_SCHEMA, type TurnAction, type TurnEnvelope, type TurnPlanning } from '../envelope/schema.js';
import { createEnvelopeStreamParser } from '../envelope/stream.js';
import { AbortError, EnvelopeError, PlanloopError } from '../errors.js';
import type { Observation, ReasoningPhase } from '../events.js';
import { callModel, type ModelReply } from '../llm/call.js';
import { describedInPrompt } from '../llm/json-instruction.js';
import type { LLMMessage, LLMProvider, LLMUsage } from '../llm/provider.js';
import type { Plan } from '../plan.js';
import { actUnderGate, type ActionDecision } from './act-under-gate.js';
import type { ActionGate } from './action-gate.js';
import type { ActionOutcome } from './dispatch-action.js';
import { createNarrationOrder } from './narration-order.js';
import type { RunConfig } from './run-options.js';
import type { ToolTable } from './tool-table.js';
import { TURN_INSTRUCTIONS } from './turn-prompt.js';

export type { ActionDecision } from './act-under-gate.js';

/**
 * What a turn reads of the run's resolved options (`resolveRunOptions`): how to talk to the user,
 * the model's settings and the bounds of its answer, and how many actions one envelope may carry.
 */
export interface TurnConfig {
  readonly user: RunConfig['user'];
  readonly model: Pick<RunConfig['model'], 'temperature' | 'maxTokens' | 'timeoutMs' | 'maxChars'>;
  readonly bounds: Pick<RunConfig['bounds'], 'turnActions'>;
}

/** What {@link playTurn} needs. */
export interface PlayTurnInput {
  plan: Plan;
  provider: LLMProvider;
  /** The turn's prompt (`buildTurnMessages`), and any feedback after a bad reply. */
  messages: LLMMessage[];
  /** The run's resolved options (`resolveRunOptions`); the turn reads `user`, `model` and `bounds.turnActions`. */
  config: TurnConfig;
  /** The run's action policy (`createActionGate`): its tools, their risks, the approvals and the action cap. One per run. */
  gate: ActionGate;
  runId: string;
  turn: number;
  signal?: AbortSignal | undefined;
  /** A line of the reasoning trail (plan, act, obs). */
  onStep?: ((phase: ReasoningPhase, summary: string) => void) | undefined;
  /** An action is about to be dispatched, or was refused (see the `action` event). */
  onAction?: ((action: TurnAction, index: number, decision: ActionDecision) => void) | undefined;
  /**
   * An action is done with: it ran (`outcome`, and whether a step of it was refused through
   * `ctx.confirm`), or it did not run at all (refused, past the action cap, the turn cancelled:
   * `refused` true, `outcome` empty); with the turn's todo. Called once for every action the
   * envelope carried, in order (a run's tour recorder files the action under the todo). Default: none.
   */
  onSettled?: ((action: TurnAction, outcome: ActionOutcome, refused: boolean, todoId: string | undefined) => void | Promise<void>) | undefined;
  /**
   * Asked for each todo the turn's plan change would complete (see `applyAdjust`'s `verdict`): the
   * run's evidence (a todo whose check does not hold stays open). Default: every completion goes
   * through, on the model's word.
   */
  verdict?: ((id: string) => CompletionVerdict) | undefined;
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
 * soon as its JSON closes, one at a time, in order, each tool action through the run's `gate`,
 * a narrate's words in order: see `actUnderGate` and `createNarrationOrder`). If the envelope
 * turns out bad (invalid, cut off, an insert attempt, more than `bounds.turnActions` actions),
 * the answer passes `model.maxChars` or the model takes longer than `model.timeoutMs`, the turn's
 * plan change is rolled back, actions not yet started are dropped, and the outcome says why. A
 * turn whose actions all only looked (`risk: 'read'` tools) has its plan change undone too. A run
 * abort rolls back and rejects with an `AbortError`; a provider failure rolls back and rejects
 * with the provider's error.
 *
 * @example
 * ```ts
 * const config = resolveRunOptions({ task, tools });
 * const outcome = await playTurn({
 *   plan, provider, messages, config, gate: createActionGate(plan, config), runId: 'run-1', turn: 1,
 *   onAction: (action, index, decision) => console.log(index, action.type, decision),
 * });
 * if (!outcome.ok) console.log(outcome.error.message); // fed back to the model on the retry
 * ```
 */
export async function playTurn(input: PlayTurnInput): Promise<TurnOutcome> {
  const { plan, signal, config, gate } = input;
  const transaction = plan.transaction();
  const observations: Observation[] = [];
  const onStep = input.onStep ?? (() => {});
  let planning: TurnPlanning | undefined;
  let adjust: AdjustResult | undefined;
  let refused: EnvelopeError | undefined;
  const observe = (observation: Observation): void => {
    observations.push(observation);
    onStep('obs', observation.summary);
  };
  const context = () => ({ runId: input.runId, turn: input.turn, plan, todoId: planning?.todo_id, signal });
  const actions = actUnderGate({
    gate,
    user: config.user,
    context,
    turn: () => ({ todoId: planning?.todo_id, purpose: planning?.does || undefined, signal }),
    signal,
    onAction: input.onAction ?? (() => {}),
    onSettled: input.onSettled,
    onStep,
    observe,
    beforeNarrate: (index) => narrations.dispatched(index),
  });
  const narrations = createNarrationOrder({
    narrateDelta: config.user.narrateDelta,
    context: (index, text) => ({ ...context(), index, text, confirm: async () => ({ approved: false, reason: 'only a tool can ask for a riskier step' }) }),
    after: (step) => actions.after(step),
    stopped: () => refused !== undefined || actions.cancelled || signal?.aborted === true,
    onFailure: observe,
  });

  const parser = createEnvelopeStreamParser({
    remainingIds: plan.todos.remaining().map((todo) => todo.id),
    onTurnPlanning: (value) => {
      planning = value;
      const todo = value.todo_id === undefined ? undefined : plan.todos.get(value.todo_id);
      onStep('plan', `${value.todo_id ?? 'no todo'}: ${value.does || todo?.description || '(not said)'}`);
    },
    onTodoAdjust: (value) => {
      try {
        gate.beforeAdjust(value);
        // A second call (a plan change written after the actions) adds to the first.
        const marks = { markRewrites: gate.marksRewrites, verdict: input.verdict };
        const result = transaction.adjust(value, adjust ? marks : { ...marks, inProgress: planning?.todo_id });
        adjust = adjust ? mergeResults(adjust, result) : result;
      } catch (error) {
        if (!EnvelopeError.isInstance(error)) throw error;
        refused = error;
      }
    },
    onNarrateDelta: (delta, target, { index }) => narrations.stream(delta, index, target),
    onAction: (action, index) => {
      if (!refused) actions.act(action, index);
    },
    maxActions: config.bounds.turnActions,
  });

  const fail = async (error: PlanloopError): Promise<TurnOutcome> => {
    actions.cancel();
    await actions.settled();
    transaction.rollback();
    // Words the user already saw of a narrate that never completed: the model must not say them again.
    return { ok: false, error, raw: parser.text, observations, done: [...actions.done, ...narrations.cutOff()] };
  };

  let reply: ModelReply;
  try {
    reply = await callModel(
      input.provider,
      {
        messages: input.messages,
        jsonSchema: turnSchema(input.messages),
        ...(signal ? { signal } : {}),
        ...(config.model.temperature === undefined ? {} : { temperature: config.model.temperature }),
        ...(config.model.maxTokens === undefined ? {} : { maxTokens: config.model.maxTokens }),
      },
      {
        // Already bad: stop paying for the rest.
        onDelta: (delta) => {
          parser.push(delta);
          return !(parser.error || refused);
        },
        maxChars: config.model.maxChars,
        timeoutMs: config.model.timeoutMs,
      },
    );
  } catch (error) {
    if (!signal?.aborted && AbortError.isInstance(error) && error.code === 'timeout') {
      return fail(
        new AbortError(
          'timeout',
          `Your reply took longer than ${Math.round(config.model.timeoutMs / 1000)} s and was stopped. Reply at once with a short envelope.`,
          { cause: error },
        ),
      );
    }
    if (!signal?.aborted && PlanloopError.isInstance(error) && error.code === 'output_too_long') return fail(error);
    actions.cancel();
    transaction.rollback();
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
    return fail(
      cutOff ? new EnvelopeError(failure.code as 'envelope_invalid', failure.message + cutOff, { raw: failure.raw, issues: failure.issues }) : failure,
    );
  }
  await actions.settled();
  // A turn that only looked (every action a tool declared `risk: 'read'`) changes nothing in the
  // plan: it gathered what the next turn acts on, so its todo change is undone.
  const lookOnly = isLookOnly(envelope.actions, gate.tools);
  if (lookOnly) {
    transaction.rollback();
    adjust = { completed: [], replaced: [], ignored: adjust.ignored };
  } else transaction.commit();
  return { ok: true, envelope, adjust, observations, usage: reply.usage, finishSummary: actions.finishSummary, lookOnly, refusals: actions.refusals };
}

/** Whether every action is a call of a tool that declares `risk: 'read'` (and there is at least one). */
function isLookOnly(actions: readonly TurnAction[], tools: ToolTable): boolean {
  return actions.length > 0 && actions.every((action) => action.type === 'tool' && tools.get(action.name)?.risk === 'read');
}

/** Two adjust results of one turn as one. */
function mergeResults(first: AdjustResult, second: AdjustResult): AdjustResult {
  return {
    completed: [...first.completed, ...second.completed],
    replaced: [...first.replaced, ...second.replaced],
    ignored: [...first.ignored, ...second.ignored],
    ...(first.held || second.held ? { held: [...(first.held ?? []), ...(second.held ?? [])] } : {}),
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
