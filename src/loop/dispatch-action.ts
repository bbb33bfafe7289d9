import type { TurnAction } from '../envelope/schema.js';
import type { Observation } from '../events.js';
import type { LoopToolContext, ToolTable } from './tool-table.js';
import { clip } from './turn-prompt.js';

export type { LoopTool, LoopToolContext, LoopToolHandler } from './tool-table.js';

/** What `user.narrateDelta` receives besides the new words. */
export interface NarrateDeltaContext extends LoopToolContext {
  /** The narrate's index among the turn's actions: a new index starts a new narration. */
  readonly index: number;
  /** The narration's whole text so far, this delta included. */
  readonly text: string;
}

/** How a run talks to the user (`options.user`): its ways to speak and to ask. */
export interface UserChannels {
  /**
   * Says `text` to the user, highlighting the element `target` names. Awaited. Called once the
   * narrate's JSON has closed (after its `narrateDelta` pieces, when there is one). Default: none.
   */
  narrate?: ((text: string, target: string | undefined, context: LoopToolContext) => void | Promise<void>) | undefined;
  /**
   * A narrate's words while the model writes them: each new piece, with the `target` when the model
   * wrote it first (as the prompt asks) and `context.text`, everything so far. Pieces of a narrate
   * come after the actions before it have finished and before its `narrate`; put together they
   * are the text `narrate` gets. Not awaited. If the turn is refused after some words came,
   * no `narrate` follows for that narrate. Default: none (only `narrate`).
   */
  narrateDelta?: ((delta: string, target: string | undefined, context: NarrateDeltaContext) => void) | undefined;
  /** Asks the user; the answer becomes an observation. Default: none (the model is told to decide itself). */
  ask?: ((question: string, context: LoopToolContext) => string | Promise<string>) | undefined;
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
 * Runs one action through the host's handlers: `narrate` → `user.narrate`, `tool` → the tool of
 * that name, `ask` → `user.ask`, `task_finish` → a finish summary. Never throws: a failing or unknown tool
 * becomes a `tool-error` observation the model can act on. Nothing is observed after `signal`
 * aborts (the run has ended).
 *
 * @example
 * ```ts
 * declare const context: LoopToolContext; // the run's, for this turn
 * const { tools: table } = resolveRunOptions({ task, tools });
 * const { observation } = await dispatchAction({ type: 'tool', name: 'navigate', args: { path: '/pricing' } }, table, {}, context);
 * observation?.summary; // 'navigate: ok'
 * ```
 */
export async function dispatchAction(action: TurnAction, tools: ToolTable, user: UserChannels, context: LoopToolContext): Promise<ActionOutcome> {
  const { signal } = context;
  const name = action.type === 'tool' ? action.name : action.type;
  try {
    switch (action.type) {
      case 'narrate':
        await user.narrate?.(action.text, action.target, context);
        return {};
      case 'task_finish':
        return { finishSummary: action.summary };
      case 'ask': {
        if (!user.ask) return { observation: { kind: 'feedback', summary: `No one can answer "${clip(action.question, 80)}" here; decide yourself.` } };
        const answer = await user.ask(action.question, context);
        return signal?.aborted ? {} : { observation: { kind: 'answer', summary: `User answered: ${clip(answer)}`, data: answer } };
      }
      default: {
        // The table holds own names only: a model naming "constructor" or "toString" finds nothing.
        const tool = tools.get(name);
        if (!tool) {
          const known = tools.names.join(', ') || 'none';
          return { observation: { kind: 'tool-error', name, summary: `${name} failed: no such tool (tools: ${known}).` } };
        }
        const result = await tool.run(action.args, context);
        if (signal?.aborted) return {};
        // A read tool's result is what the model asked to see: it is kept whole up to READ_RESULT_CHARS.
        const max = tool.risk === 'read' ? READ_RESULT_CHARS : undefined;
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
