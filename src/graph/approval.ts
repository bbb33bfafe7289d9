import { PlanloopError } from '../errors.js';
import { dryRunGraph, type ToolPlanDryRun } from './dry-run.js';
import type { GraphState } from './state.js';
import type { ToolCall } from './tool.js';
import { analyzeToolPlan, type ToolGraph, type ValidateToolPlanOptions } from './validate.js';

/** What an approval hook decides: approve (`true`/`'approve'`), reject (`false`/`'reject'`), or an edited plan. */
export type ApprovalDecision = boolean | 'approve' | 'reject' | readonly ToolCall[];

/** What an approval hook is shown: the validated plan and its dry run. */
export interface ApprovalRequest {
  calls: readonly ToolCall[];
  dryRun: ToolPlanDryRun;
}

/**
 * Runs after validation and before anything executes. Rejecting throws a `PlanloopError` with
 * code `plan_rejected`; an edited plan is validated again and runs without asking again.
 *
 * @example
 * ```ts
 * declare function confirmWithUser(preview: ToolPlanDryRun): Promise<boolean>;
 * const approve: ApproveHook = async ({ calls, dryRun }) => (await confirmWithUser(dryRun)) ? 'approve' : 'reject';
 * ```
 */
export type ApproveHook = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;

/** Asks `approve` about `graph`; returns the graph to run (the edited one when it was edited). */
export async function reviewToolPlan(
  graph: ToolGraph,
  approve: ApproveHook,
  options: ValidateToolPlanOptions & { input: Record<string, unknown>; state: GraphState },
): Promise<ToolGraph> {
  const calls = graph.calls.map((call) => call.call);
  const decision = await approve({ calls, dryRun: await dryRunGraph(graph, options.input, options.state) });
  if (decision === true || decision === 'approve') return graph;
  if (decision === false || decision === 'reject') {
    throw new PlanloopError('plan_rejected', 'The approval hook rejected the tool-call plan; nothing ran.');
  }
  if (Array.isArray(decision)) {
    const result = analyzeToolPlan(decision as readonly ToolCall[], options);
    if (!result.ok) throw result.error;
    return result.graph;
  }
  // Failing closed: a hook that forgot to return must not let the plan run.
  throw new PlanloopError(
    'plan_rejected',
    `The approval hook returned ${String(decision)}; return true or 'approve', false or 'reject', or an edited plan (an array of calls). Nothing ran.`,
  );
}
