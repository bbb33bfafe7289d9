import type { Plan } from '../plan.js';
import { groupFlatOptions, withFlatNames, type FlatRunOptions } from './flat-run-options.js';
import type { Run } from './run-state.js';
import type { RunOptions } from './run-options.js';
import type { RunResult } from './run-state.js';
import { startRun } from './start-run.js';

export type { LoopTool, LoopToolContext, LoopToolHandler, NarrateDeltaContext } from './dispatch-action.js';
export type { ObserveContext } from './run-options.js';
export type { RunResult } from './run-state.js';

/**
 * The 0.2 options of {@link runWebAgent}: the plan and the flat options.
 *
 * @deprecated since 0.3.0, pass `{ plan, ...RunOptions }` with the grouped options (see `RunOptions`, and CHANGELOG.md for each name); removed in 0.4.0
 */
export interface RunWebAgentOptions extends FlatRunOptions {
  plan: Plan;
}

/**
 * The reference turn loop, as one promise: `startRun(plan, options).result` (see `startRun` for
 * what a run does, and the README's Safety section for what every tool action passes). It takes
 * the grouped {@link RunOptions} with the `plan`, and until 0.4.0 the 0.2 flat options too
 * (`maxActions`, `onApprove`, `turnLimits`…, each moved to its group; a name given both ways is a
 * `ValidationError`). The run's events reach `plan.on(…)` until 0.4.0; for the run's state and
 * its own events, call `startRun`.
 *
 * Defaults: see `RUN_DEFAULTS` (`bounds.turnSlack` 2, `bounds.lookTurns` 3, `bounds.runActions`
 * 40, `prompt.memoryTurns` 4, `prompt.nudgeAfter` 2, `page.tokenBudget` 400, `model.timeoutMs`
 * 30,000, `approval.timeoutMs` 300,000); each number must be a whole number of at least 0, else a
 * `ValidationError` (`invalid_input`) before any model call.
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
 *   approval: { ask: (request) => panel.requestApproval(request) }, // asked before navigate and subscribe
 *   user: {
 *     narrateDelta: (delta, target, { text }) => bubble.show(text, target), // the words as they are written
 *     narrate: (text, target) => bubble.say(text, target), // the whole narrate: awaited
 *   },
 *   start: { announce: (summary) => confirmWithSpace(summary) },
 * });
 * result.reason; // 'task_finish'
 * ```
 */
export async function runWebAgent(options: (RunOptions & { plan: Plan }) | RunWebAgentOptions): Promise<RunResult> {
  const { plan } = options;
  // Not `...rest`: spreading would read a getter once (0.2 read `systemPrompt` before every turn).
  const grouped = groupFlatOptions(options);
  let run: Run;
  try {
    run = startRun(plan, grouped.options);
  } catch (error) {
    throw withFlatNames(error, grouped.origins);
  }
  return run.result;
}
