/**
 * `planloop/graph`: plans as graphs of tool calls linked through state (`†state.x` references,
 * fallbacks, gates, fan-out), validated before they run, with dry runs, approval, replanning and
 * Mermaid diagrams.
 */
export { runToolPlan, type RunToolPlanOptions, type ToolPlanRun, type GraphRun, type ToolPlanResult, type CallReport, type ToolGraphEvents } from './run.js';
export { validateToolPlan, type ValidateToolPlanOptions, type ToolPlanValidation } from './validate.js';
export { dryRunToolPlan, type ToolPlanDryRun, type DryRunCall, type ArgumentBinding } from './dry-run.js';
export type { ApproveHook, ApprovalDecision, ApprovalRequest } from './approval.js';
export { toMermaid } from './mermaid.js';
export {
  runReplanningLoop,
  type ReplanningLoopOptions,
  type ReplanningResult,
  type ReplanningTurn,
  type ReplanningEvents,
} from './replan.js';
export { GraphState } from './state.js';
export { defineTool, toolOutcome, isToolOutcome, type ToolCall, type GraphTool, type ToolContext, type ToolOutcome } from './tool.js';
export { isReferenceString, parseReferenceExpression, formatReference, type Reference, type ReferenceExpression } from './reference.js';
export {
  GraphValidationError,
  StateWriteOnceError,
  ToolCallError,
  TurnLimitError,
  type GraphIssue,
  type GraphIssueKind,
} from './errors.js';
