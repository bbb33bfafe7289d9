import { untilAborted } from '../abort.js';
import type { TurnAction } from '../envelope/schema.js';
import type { Observation, ReasoningPhase } from '../events.js';
import type { ActionGate, GateTurn } from './action-gate.js';
import type { ActionRisk, ConfirmResult } from './action-policy.js';
import { describeAction, dispatchAction, type ActionOutcome, type LoopToolContext, type UserChannels } from './dispatch-action.js';
import { clip } from './turn-prompt.js';

/** What became of an action: it runs, or it was refused and why (the `action` event's fields). */
export interface ActionDecision {
  readonly decision: 'run' | 'refused';
  readonly risk?: ActionRisk;
  readonly approvedBy?: 'policy' | 'user';
  readonly reason?: string;
  readonly detail?: string;
}

/** A turn's actions, run one at a time in order, each tool action through the gate (see {@link actUnderGate}). */
export interface TurnActions {
  /** Queues the turn's action at `index`: it runs after those queued before it. */
  act(action: TurnAction, index: number): void;
  /** Runs `step` once the actions queued so far have finished. */
  after(step: () => void): void;
  /** Resolves once every queued action has run (rejects with an `AbortError` when the run stops first). */
  settled(): Promise<void>;
  /** Drops the actions not yet started (the turn was refused). */
  cancel(): void;
  /** Whether the actions were dropped. */
  readonly cancelled: boolean;
  /** What ran or was said, one short line each: after a bad reply the model is told not to repeat it. */
  readonly done: readonly string[];
  /** Tool actions (or steps of them) refused, which the model has not heard of yet. */
  readonly refusals: number;
  /** `task_finish`'s summary, once one ran. */
  readonly finishSummary: string | undefined;
}

/** What {@link actUnderGate} needs of its turn. */
export interface TurnActionsInput {
  gate: ActionGate;
  user: UserChannels;
  /** The context a handler gets (its `confirm` is filled in per action). */
  context: () => Omit<LoopToolContext, 'confirm'>;
  /** What the gate needs to know of the turn (its todo, its purpose), as known when the action runs. */
  turn: () => GateTurn;
  signal: AbortSignal | undefined;
  /** An action is about to run, or was refused. */
  onAction: (action: TurnAction, index: number, decision: ActionDecision) => void;
  /** The action is done with: it ran (`outcome`; `refused` when a step of it was refused), or it did not run (`refused` true, `outcome` empty). Once per action, in order. */
  onSettled?: ((action: TurnAction, outcome: ActionOutcome, refused: boolean, todoId: string | undefined) => void | Promise<void>) | undefined;
  /** A line of the reasoning trail. */
  onStep: (phase: ReasoningPhase, summary: string) => void;
  /** What an action observed (a tool's result or error, an answer, a refusal). */
  observe: (observation: Observation) => void;
  /** The narrate at `index` is about to run whole. */
  beforeNarrate: (index: number) => void;
}

/** Narrate and ask are no page actions: there is nothing riskier for them to confirm. */
const noStep = async (): Promise<ConfirmResult> => ({ approved: false, reason: 'only a tool can ask for a riskier step' });

/**
 * Acting under the gate: a turn's actions run one at a time, in the order they arrive. Each tool
 * action passes the run's gate first (the action cap, the user's approval of rewritten todos and of
 * risky tools); a refused one does not run, and the model hears why; a tool that asks for a
 * riskier step (`context.confirm`) asks the gate too. Narrate, ask and task_finish go to the
 * user's channels. Nothing runs once the actions were dropped or the run stopped.
 *
 * @example
 * ```ts
 * declare const input: TurnActionsInput; // the turn's (see playTurn)
 * const actions = actUnderGate(input);
 * actions.act({ type: 'tool', name: 'navigate', args: { path: '/pricing' } }, 0);
 * await actions.settled();
 * ```
 */
export function actUnderGate(input: TurnActionsInput): TurnActions {
  const { gate, signal } = input;
  const done: string[] = [];
  let chain = Promise.resolve();
  let cancelled = false;
  let refusals = 0;
  let finishSummary: string | undefined;
  const stopped = (): boolean => cancelled || signal?.aborted === true;

  const refuse = (observation: Observation): void => {
    refusals += 1;
    input.observe(observation);
  };

  const run = async (action: TurnAction, index: number): Promise<void> => {
    let settled: { outcome: ActionOutcome; refused: boolean } = { outcome: {}, refused: true };
    try {
      await attempt(action, index, (outcome, refused) => {
        settled = { outcome, refused };
      });
    } finally {
      // Awaited before the next action runs: the run's evidence is taken while the page shows it.
      await input.onSettled?.(action, settled.outcome, settled.refused, input.turn().todoId);
    }
  };

  const attempt = async (action: TurnAction, index: number, ran: (outcome: ActionOutcome, refused: boolean) => void): Promise<void> => {
    if (stopped() || gate.capped) return;
    if (action.type !== 'tool') {
      input.onAction(action, index, { decision: 'run' });
      input.onStep('act', describeAction(action));
      done.push(describeAction(action));
      if (action.type === 'narrate') input.beforeNarrate(index);
      const outcome = await dispatchAction(action, gate.tools, input.user, { ...input.context(), confirm: noStep });
      ran(outcome, false);
      if (outcome.finishSummary !== undefined) finishSummary = outcome.finishSummary;
      if (outcome.observation) input.observe(outcome.observation);
      return;
    }
    const turn = input.turn();
    const decision = await gate.admit(action, turn);
    if (stopped()) return;
    const risk = decision.risk === undefined ? {} : { risk: decision.risk };
    if (!decision.run) {
      input.onAction(action, index, { decision: 'refused', ...risk, reason: decision.reason, detail: decision.detail });
      input.onStep('act', `${describeAction(action)} (refused: ${decision.reason})`);
      // Past the cap the run ends after this turn: there is no next prompt to tell.
      if (decision.capped) return;
      refuse({
        kind: 'refused',
        name: action.name,
        summary: `${action.name} was not run: ${decision.reason}. Do not send it again unchanged: go on with another todo, or ask the user.`,
      });
      return;
    }
    input.onAction(action, index, { decision: 'run', ...risk, approvedBy: decision.approvedBy, detail: decision.detail });
    input.onStep('act', describeAction(action));
    done.push(describeAction(action));
    const steps: string[] = [];
    const confirm = gate.confirmFor(action, decision.risk ?? 'write', turn, (stepRisk, detail, reason) => {
      steps.push(reason);
      input.onAction(action, index, { decision: 'refused', risk: stepRisk, reason, detail });
    });
    const outcome = await dispatchAction(action, gate.tools, input.user, { ...input.context(), confirm });
    ran(outcome, steps.length > 0);
    if (steps.length > 0 && outcome.observation) {
      // The tool stopped at a step the policy or the user refused: the model hears it as a refusal.
      refuse({
        ...outcome.observation,
        kind: 'refused',
        summary: `${action.name} stopped before a step that was refused: ${steps.join('; ')}. It reported: ${clip(outcome.observation.summary, 120)}`,
      });
    } else if (outcome.observation) input.observe(outcome.observation);
  };

  return {
    act(action, index) {
      chain = chain.then(() => run(action, index));
    },
    after(step) {
      chain = chain.then(step);
    },
    settled: () => untilAborted(chain, signal),
    cancel() {
      cancelled = true;
    },
    get cancelled() {
      return cancelled;
    },
    done,
    get refusals() {
      return refusals;
    },
    get finishSummary() {
      return finishSummary;
    },
  };
}
