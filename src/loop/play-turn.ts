import type { AdjustResult } from '../envelope/apply.js';
import { ENVELOPE_LIMITS, TURN_ENVELOPE_JSON_SCHEMA, type TurnAction, type TurnEnvelope, type TurnPlanning } from '../envelope/schema.js';
import { createEnvelopeStreamParser } from '../envelope/stream.js';
import { AbortError, EnvelopeError, PlanloopError, toAbortError, untilAborted } from '../errors.js';
import type { Observation, ReasoningPhase } from '../events.js';
import { callModel, type ModelReply } from '../llm/call.js';
import type { LLMMessage, LLMProvider, LLMUsage } from '../llm/provider.js';
import type { Plan } from '../plan.js';
import { describeAction, dispatchAction, type ActionHandlers } from './dispatch-action.js';

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
  /** An action is about to be dispatched. */
  onAction: (action: TurnAction, index: number) => void;
}

/** How a turn ended: applied, or refused (its plan change rolled back) with an error to feed back. */
export type TurnOutcome =
  | { ok: true; envelope: TurnEnvelope; adjust: AdjustResult; observations: Observation[]; usage: LLMUsage | undefined; finishSummary: string | undefined }
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
 * const outcome = await playTurn({ plan, provider, messages, handlers: { tools }, runId, turn: 1, limits, onStep, onAction });
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

  const dispatch = async (action: TurnAction, index: number): Promise<void> => {
    if (cancelled || signal?.aborted) return;
    input.onAction(action, index);
    input.onStep('act', describeAction(action));
    done.push(describeAction(action));
    const context = { runId: input.runId, turn: input.turn, plan, todoId: planning?.todo_id, signal };
    const outcome = await dispatchAction(action, input.handlers, context);
    if (outcome.finishSummary !== undefined) finishSummary = outcome.finishSummary;
    if (outcome.observation) {
      observations.push(outcome.observation);
      input.onStep('obs', outcome.observation.summary);
    }
  };

  const parser = createEnvelopeStreamParser({
    remainingIds: plan.todos.remaining().map((todo) => todo.id),
    onTurnPlanning: (value) => {
      planning = value;
      input.onStep('plan', `${value.todo_id ?? 'no todo'}: ${value.does || '(not said)'}`);
    },
    onTodoAdjust: (value) => {
      try {
        adjust = turn.adjust(value, { inProgress: planning?.todo_id });
      } catch (error) {
        if (!(error instanceof EnvelopeError)) throw error;
        refused = error;
      }
    },
    onAction: (action, index) => {
      if (!refused) chain = chain.then(() => dispatch(action, index));
    },
    maxActions: limits.maxActions,
  });

  const fail = async (error: PlanloopError): Promise<TurnOutcome> => {
    cancelled = true;
    await untilAborted(chain, signal);
    turn.rollback();
    return { ok: false, error, raw: parser.text, observations, done };
  };

  let reply: ModelReply;
  try {
    reply = await callModel(
      input.provider,
      {
        messages: input.messages,
        jsonSchema: TURN_ENVELOPE_JSON_SCHEMA,
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
    if (!signal?.aborted && error instanceof AbortError && error.code === 'timeout') {
      return fail(new PlanloopError('timeout', `Your reply took longer than ${Math.round(limits.timeoutMs / 1000)} s and was stopped. Reply at once with a short envelope.`));
    }
    if (!signal?.aborted && error instanceof PlanloopError && error.code === 'output_too_long') return fail(error);
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
  turn.commit();
  return { ok: true, envelope, adjust, observations, usage: reply.usage, finishSummary };
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
