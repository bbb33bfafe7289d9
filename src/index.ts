/**
 * planloop: a planner SDK for in-page LLM agents. This is the public API, as an explicit list.
 * Test helpers live on `planloop/testing`, the `<plan-panel>` element on `planloop/ui`.
 */

// The plan and its artifacts
export { Plan, type PlanConfig } from './plan.js';
export {
  TodosArtifact,
  TODO_STATUSES,
  type TodoItem,
  type TodoInput,
  type TodoSeed,
  type TodoPatch,
  type TodoStatus,
  type TodoIntent,
  type TodosChange,
  type TodosChangeEvent,
} from './artifacts/todos.js';
export {
  MarkdownArtifact,
  type MarkdownDoc,
  type MarkdownInput,
  type MarkdownPatch,
  type MarkdownChange,
  type MarkdownChangeEvent,
  type EditWithInstructionOptions,
} from './artifacts/markdown.js';

// Events and errors
export type {
  PlanEvents,
  PlanEventMap,
  PlanEventName,
  SubagentEventMap,
  TaskPlan,
  AdjustResult,
  Observation,
  ReasoningPhase,
  RunFinishReason,
  PlanUpdateSource,
} from './events.js';
export type { Listener, Unsubscribe } from './emitter.js';
export {
  PlanloopError,
  ValidationError,
  PlannerOutputError,
  EnvelopeError,
  ProviderError,
  AbortError,
  ConflictError,
  StorageError,
  type PlanloopErrorCode,
  type ValidationIssue,
} from './errors.js';

// Storage
export { createMemoryAdapter, type MemoryAdapter } from './storage/memory.js';
export { createLocalStorageAdapter, type LocalStorageAdapterOptions } from './storage/local-storage.js';
export { createIndexedDbAdapter, type IndexedDbAdapterOptions } from './storage/indexed-db.js';
export {
  parseSnapshot,
  safeParseSnapshot,
  SNAPSHOT_VERSION,
  type PlanSnapshot,
  type PlanStorageAdapter,
  type SnapshotParseResult,
} from './storage/snapshot.js';

// Models
export {
  createLLMRouter,
  resolveProvider,
  streamOrGenerate,
  type LLMProvider,
  type LLMRouter,
  type LLMRouterConfig,
  type LLMSource,
  type LLMRole,
  type LLMRequest,
  type LLMResult,
  type LLMChunk,
  type LLMMessage,
  type LLMUsage,
  type FinishReason,
} from './llm/provider.js';

export { createOpenAICompatibleProvider, type OpenAICompatibleOptions } from './llm/openai-compatible.js';
export { createAnthropicProvider, type AnthropicOptions } from './llm/anthropic.js';
export {
  createChromePromptProvider,
  type ChromePromptProviderOptions,
  type ChromeLanguageModel,
  type ChromeLanguageModelSession,
  type ChromePromptOptions,
  type ChromeExpectedIO,
} from './llm/chrome-prompt.js';
export { createWebLLMProvider, type WebLLMEngine, type WebLLMProviderOptions } from './llm/webllm.js';
export { createFunctionProvider, type FunctionProviderFn, type FunctionProviderOutput } from './llm/function-provider.js';
export { withRetry, type RetryOptions } from './llm/retry.js';

// Planning
export { parseModelJson, type ModelJsonResult } from './planning/model-json.js';
export {
  parsePlanInput,
  safeParsePlanInput,
  type PlanInput,
  type MakeTodosOptions,
  type SitemapConfig,
  type SitemapPage,
  type BrandPrompt,
  type PersonaInput,
  type SelectionContext,
} from './planning/make-todos.js';
export { SummaryStream } from './planning/summary-stream.js';
export {
  readPlannerMessage,
  plannerUserMessage,
  plannerSystemPrompt,
  PLAN_OUTPUT_SCHEMA,
  PLANNER_INTENTS,
  TASK_MARKER,
  SITEMAP_MARKER,
} from './planning/prompts.js';

// The turn envelope
export {
  TurnEnvelopeSchema,
  TodoAdjustSchema,
  TurnActionSchema,
  TURN_ENVELOPE_JSON_SCHEMA,
  type TurnEnvelope,
  type TodoAdjust,
  type TodoAdjustInput,
  type TodoReplace,
  type TurnPlanning,
  type TurnAction,
  type NarrateAction,
  type ToolAction,
  type AskAction,
  type TaskFinishAction,
} from './envelope/schema.js';
export { parseTodoAdjust, safeParseTodoAdjust } from './envelope/adjust.js';

// Tool-call graphs
export { runToolPlan, type RunToolPlanOptions, type ToolPlanRun, type GraphRun, type ToolPlanResult, type CallReport, type ToolGraphEvents } from './graph/run.js';
export { validateToolPlan, type ValidateToolPlanOptions, type ToolPlanValidation } from './graph/validate.js';
export { dryRunToolPlan, type ToolPlanDryRun, type DryRunCall, type ArgumentBinding } from './graph/dry-run.js';
export type { ApproveHook, ApprovalDecision, ApprovalRequest } from './graph/approval.js';
export { toMermaid } from './graph/mermaid.js';
export {
  runReplanningLoop,
  type ReplanningLoopOptions,
  type ReplanningResult,
  type ReplanningTurn,
  type ReplanningEvents,
} from './graph/replan.js';
export { GraphState } from './graph/state.js';
export { defineTool, toolOutcome, isToolOutcome, type ToolCall, type GraphTool, type ToolContext, type ToolOutcome } from './graph/tool.js';
export { isReferenceString, parseReferenceExpression, formatReference, type Reference, type ReferenceExpression } from './graph/reference.js';
export {
  GraphValidationError,
  StateWriteOnceError,
  ToolCallError,
  TurnLimitError,
  type GraphIssue,
  type GraphIssueKind,
} from './graph/errors.js';

// Other planning dialects: plan.md checklists, write_todos, plan-update streams, subagents
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
} from './interop/checklist.js';
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
} from './interop/write-todos.js';
export { replaceTodos, type ReplacementTodo } from './interop/replace-todos.js';
export { normalizeToolCall, countPlannerOnlyTurns, type ToolCallLike, type NormalizedToolCall } from './interop/tool-calls.js';
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
} from './interop/tool-definitions.js';
export { createPlanUpdateStream, type PlanUpdate, type PlanUpdateStream, type PlanUpdateStreamOptions } from './interop/plan-update-stream.js';
export { forwardSubagentEvents } from './interop/subagent.js';
export {
  ContextCapsuleSchema,
  createContextCapsule,
  parseContextCapsule,
  safeParseContextCapsule,
  renderContextCapsule,
  type ContextCapsule,
  type ContextCapsuleInput,
} from './interop/context-capsule.js';

// The turn loop
export {
  parseTurnEnvelope,
  safeParseTurnEnvelope,
  validateTurnEnvelope,
  type ParseTurnEnvelopeOptions,
  type SafeParseTurnEnvelopeResult,
} from './envelope/parse.js';
export { createEnvelopeStreamParser, type EnvelopeStreamOptions, type EnvelopeStreamParser } from './envelope/stream.js';
export { renderPlanForTurn, NOTHING_LEFT_LINE, type TodoSource } from './loop/render-plan.js';
export {
  TURN_INSTRUCTIONS,
  buildTurnMessages,
  turnSystemPrompt,
  turnUserPrompt,
  readTurnMessage,
  type TurnPromptInput,
  type TurnToolSpec,
  type TurnMessageReading,
} from './loop/turn-prompt.js';
export {
  runWebAgent,
  type RunWebAgentOptions,
  type RunResult,
  type LoopTool,
  type LoopToolHandler,
  type LoopToolContext,
} from './loop/run-web-agent.js';
