/**
 * `planloop/interop`: the other planning dialects agents speak, on a planloop `Plan`: `plan.md`
 * checklists, the `write_todos` full-replace tool (with tool definitions for OpenAI, Anthropic,
 * the AI SDK and LangChain), plan-update streams, subagent event forwarding, context capsules,
 * AG-UI state events (`STATE_SNAPSHOT`, `STATE_DELTA`, steps) both ways, and a run's approvals as
 * AG-UI interrupts (and their resume).
 */
export {
  parseChecklist,
  toChecklist,
  seedFromChecklist,
  CHECKLIST_MAX_BYTES,
  type ChecklistTodo,
  type ChecklistWarning,
  type ParsedChecklist,
  type ChecklistOptions,
  type ChecklistSeedResult,
} from './checklist.js';
export {
  createWriteTodos,
  writeTodosJsonSchema,
  PLANNER_OVERUSE,
  type HostTools,
  type WriteTodosOptions,
  type WriteTodosAck,
  type WriteTodosRejection,
  type WriteTodosResult,
  type WriteTodosCallContext,
  type WriteTodosCallResult,
  type WriteTodosTool,
} from './write-todos.js';
export { replaceTodos, type ReplacementTodo } from './replace-todos.js';
export { normalizeToolCall, countPlannerOnlyTurns, type ToolCallLike, type NormalizedToolCall } from './tool-calls.js';
export {
  toOpenAIChatTool,
  toOpenAIResponsesTool,
  toAnthropicTool,
  toAISDKTool,
  type ToolSpec,
  type OpenAIChatTool,
  type OpenAIResponsesTool,
  type AnthropicTool,
  type AISDKTool,
  type AISDKToolCallOptions,
  toLangChainTool,
  type LangChainToolArgs,
  type LangChainToolRuntime,
} from './tool-definitions.js';
export { createPlanUpdateStream, type PlanUpdate, type PlanUpdateStream, type PlanUpdateStreamOptions } from './plan-update-stream.js';
export { forwardSubagentEvents } from './subagent.js';
export {
  streamPlanToAGUI,
  toAGUIState,
  applyAGUIState,
  type AGUIPlanState,
  type AGUITodo,
  type AGUIPlanEvent,
  type AGUIStateSnapshotEvent,
  type AGUIStateDeltaEvent,
  type AGUIStepStartedEvent,
  type AGUIStepFinishedEvent,
  type AGUIStreamOptions,
} from './ag-ui.js';
export { diffJSON, type JsonPatchOperation } from './json-patch.js';
export {
  ContextCapsuleSchema,
  createContextCapsule,
  validateContextCapsule,
  safeValidateContextCapsule,
  renderContextCapsule,
  type ContextCapsule,
  type ContextCapsuleInput,
} from './context-capsule.js';
export {
  toAGUIInterrupt,
  toAGUIRunInterrupted,
  applyAGUIResume,
  APPROVAL_RESPONSE_SCHEMA,
  type AGUIInterrupt,
  type AGUIRunInterruptedEvent,
} from './ag-ui-interrupts.js';
