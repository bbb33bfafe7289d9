import type { TurnAction } from '../envelope/schema.js';
import type { Observation } from '../events.js';
import type { Plan } from '../plan.js';
import type { ActionRisk, ConfirmResult, ConfirmStep } from './action-policy.js';
import { clip } from './turn-prompt.js';

/** What a tool handler (and `onNarrate`, `onAsk`) receives besides its arguments. */
export interface LoopToolContext {
  readonly runId: string;
  readonly turn: number;
  readonly plan: Plan;
  /** The todo this turn works on (`turn_planning.todo_id`). */
  readonly todoId: string | undefined;
  /** Aborts when the run is aborted: pass it on to `fetch` and the like. */
  readonly signal: AbortSignal | undefined;
  /**
   * Asks, through the run's action policy, before a step riskier than the tool declared (a click
   * that would submit a form, leave the site, open a tab, download): the user's `onApprove` when
   * the approval level asks for it, a refusal for `'irreversible'` without a hook. A step no
   * riskier than the tool's declared risk is approved at once. On a refusal do not take the step,
   * and return the reason: the model reads it (the action is reported as `refused`).
   */
  confirm(step: ConfirmStep): Promise<ConfirmResult>;
}

/** What `onNarrateDelta` receives besides the new words. */
export interface NarrateDeltaContext extends LoopToolContext {
  /** The narrate's index among the turn's actions: a new index starts a new narration. */
  readonly index: number;
  /** The narration's whole text so far, this delta included. */
  readonly text: string;
}

/** A host tool: its result (any JSON-able value) or its error becomes an observation. */
export type LoopToolHandler = (args: Record<string, unknown>, context: LoopToolContext) => unknown;

/**
 * A tool: a handler, or a handler with a one-line description the model sees (`open a page {path}`),
 * its `risk` (default `'write'`) and `describe(args)`, the words the user is shown when asked to
 * approve it (default: the description with its `{placeholders}` filled in).
 */
export type LoopTool =
  | LoopToolHandler
  | {
      run: LoopToolHandler;
      description?: string;
      /** How consequential the tool's action is: `'read'`, `'write'` or `'irreversible'`. Default `'write'`. */
      risk?: ActionRisk;
      /** What the action will do, for the user approving it ("Submit the form 'Start trial'"). */
      describe?: (args: Record<string, unknown>) => string;
      /**
       * The arguments that name an element on the page (an outline ref): a recorded tour stores
       * them as locators, and a replay finds the element again before the tool runs. Default `['target']`.
       */
      targets?: readonly string[];
    };

/** The host's side of the actions: its tools and its ways to speak and ask. */
export interface ActionHandlers {
  /** The host's tools, by name. An unknown name becomes an error observation, not a crash. */
  tools?: Record<string, LoopTool> | undefined;
  /**
   * Says `text` to the user, highlighting the element `target` names. Awaited. Called once the
   * narrate's JSON has closed (after its `onNarrateDelta` pieces, when there is one).
   */
  onNarrate?: ((text: string, target: string | undefined, context: LoopToolContext) => void | Promise<void>) | undefined;
  /**
   * A narrate's words while the model writes them: each new piece, with the `target` when the model
   * wrote it first (as the prompt asks) and `context.text`, everything so far. Pieces of a narrate
   * come after the actions before it have finished and before its `onNarrate`; put together they
   * are the text `onNarrate` gets. Not awaited. If the turn is refused after some words came,
   * no `onNarrate` follows for that narrate (see `runWebAgent`). Default: none (only `onNarrate`).
   */
  onNarrateDelta?: ((delta: string, target: string | undefined, context: NarrateDeltaContext) => void) | undefined;
  /** Asks the user; the answer becomes an observation. Without it the model is told to decide itself. */
  onAsk?: ((question: string, context: LoopToolContext) => string | Promise<string>) | undefined;
}

/** Longest result of a tool declared `risk: 'read'` that goes into the next prompt (others: 160 characters). */
const READ_RESULT_CHARS = 6000;

/** What dispatching one action produced. */
export interface ActionOutcome {
  /** What the next prompt should say about it (a tool's result or error, the user's answer). */
  observation?: Observation;
  /** `task_finish`'s summary: the run ends after this turn. */
  finishSummary?: string;
}

/**
 * Runs one action through the host's handlers: `narrate` → `onNarrate`, `tool` → `tools[name]`,
 * `ask` → `onAsk`, `task_finish` → a finish summary. Never throws: a failing or unknown tool
 * becomes a `tool-error` observation the model can act on. Nothing is observed after `signal`
 * aborts (the run has ended).
 *
 * @example
 * ```ts
 * declare const context: LoopToolContext; // the run's, for this turn
 * const { observation } = await dispatchAction({ type: 'tool', name: 'navigate', args: { path: '/pricing' } }, { tools }, context);
 * observation?.summary; // 'navigate: ok'
 * ```
 */
export async function dispatchAction(action: TurnAction, handlers: ActionHandlers, context: LoopToolContext): Promise<ActionOutcome> {
  const { signal } = context;
  const tools = handlers.tools ?? {};
  const name = action.type === 'tool' ? action.name : action.type;
  try {
    switch (action.type) {
      case 'narrate':
        await handlers.onNarrate?.(action.text, action.target, context);
        return {};
      case 'task_finish':
        return { finishSummary: action.summary };
      case 'ask': {
        if (!handlers.onAsk) return { observation: { kind: 'feedback', summary: `No one can answer "${clip(action.question, 80)}" here; decide yourself.` } };
        const answer = await handlers.onAsk(action.question, context);
        return signal?.aborted ? {} : { observation: { kind: 'answer', summary: `User answered: ${clip(answer)}`, data: answer } };
      }
      default: {
        // Own keys only: a model naming "constructor" or "toString" must not reach Object.prototype.
        const tool = Object.hasOwn(tools, name) ? tools[name] : undefined;
        if (!tool) {
          const known = Object.keys(tools).join(', ') || 'none';
          return { observation: { kind: 'tool-error', name, summary: `${name} failed: no such tool (tools: ${known}).` } };
        }
        const result = await (typeof tool === 'function' ? tool : tool.run)(action.args, context);
        if (signal?.aborted) return {};
        // A read tool's result is what the model asked to see: it is kept whole up to READ_RESULT_CHARS.
        const max = typeof tool === 'object' && (tool as { risk?: unknown }).risk === 'read' ? READ_RESULT_CHARS : undefined;
        return { observation: { kind: 'tool-result', name, summary: `${name}: ${result === undefined ? 'ok' : clip(result, max)}`, data: result } };
      }
    }
  } catch (error) {
    if (signal?.aborted) return {};
    return { observation: { kind: 'tool-error', name, summary: `${name} failed: ${clip(error instanceof Error ? error.message : error)}` } };
  }
}

/**
 * One short line saying what an action does, for the reasoning trail and the turn memory.
 *
 * @example
 * ```ts
 * describeAction({ type: 'narrate', text: 'These are the plans.' }); // 'narrate "These are the plans."'
 * ```
 */
export function describeAction(action: TurnAction): string {
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
