/**
 * `planloop/planning`: the planner and the document editor as pure functions (a provider and
 * input in, values out; nothing is stored), for hosts with their own state, and the three-way
 * merge. `Plan` uses the same functions: `plan.makeTodos` and `plan.markdown.editWithInstruction`
 * load them on their first call, so a page that only shows a plan never downloads them.
 */
export {
  planTodos,
  validatePlanInput,
  safeValidatePlanInput,
  readSitemap,
  type PlanInput,
  type PlannedTodos,
  type PlannerConfig,
  type MakeTodosOptions,
  type SitemapConfig,
  type SitemapPage,
  type BrandPrompt,
  type PersonaInput,
  type SelectionContext,
} from './make-todos.js';
export { plannerSystemPrompt } from './prompts.js';
export { editDocument, EDITS_MIN_CHARS, type EditDocumentOptions, type EditDocumentResult } from './edit-with-instruction.js';
export { mergeText, mergeDocument, type MergeResult, type MergeConflict } from './merge-text.js';
// One model call (streamed when the provider can, bounded, refusals typed), as the planner, the
// editor and the turn loop make it: on this subpath, not the root, so that a page importing `Plan`
// does not load it at start (the rooms that call it come on first use).
export { callModel, type CallModelOptions, type ModelReply } from '../llm/call.js';
