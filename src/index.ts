/**
 * planloop: a planner SDK for in-page LLM agents. The root entry holds what most hosts import
 * (the plan, the turn loop, the turn envelope's parser, models, storage adapters, errors), as an
 * explicit list. The parts of a hand-written turn loop (the action gate, `playTurn`, the finish
 * rules, the streaming envelope parser, `applyAdjust`, the turn prompt) are on `planloop/loop`; the stored snapshot's format on `planloop/storage`; the
 * planner and the document editor as pure functions (which `Plan` loads on first use) on
 * `planloop/planning`; other dialects (plan.md checklists, write_todos, plan-update streams,
 * subagents) on `planloop/interop`, tool-call graphs on `planloop/graph`, the page outline on
 * `planloop/dom`, the `<plan-panel>` element on `planloop/ui`, test fakes on `planloop/testing`.
 */

// The plan: one state, its two artifacts, transactions
export { Plan, type PlanConfig, type PlanTransaction, type RunHandle, type RunHolder } from './plan.js';
export type { PlanStore, PlanStoreListener } from './plan-store.js';
export {
  TODO_STATUSES,
  type PlanState,
  type PlanChangeOrigin,
  type TodoItem,
  type TodoStatus,
  type TodoIntent,
  type TodosChange,
  type MarkdownDoc,
  type MarkdownChange,
  type SyncMeta,
  type ItemClock,
  type Tombstone,
  type Stamp,
  type TodoEvidence,
} from './plan-state.js';
export type { TodoCheck } from './todo-check.js';
export type { TodoCheckInput } from './todo-check-text.js';
export { TODO_LIMITS, type TodosArtifact, type TodoInput, type TodoSeed, type TodoPatch, type TodosChangeEvent } from './artifacts/todos.js';
export {
  MARKDOWN_TITLE_MAX,
  type MarkdownArtifact,
  type MarkdownInput,
  type MarkdownPatch,
  type MarkdownChangeEvent,
  type EditWithInstructionOptions,
  type EditDelta,
} from './artifacts/markdown.js';

// Events and errors
export type {
  PlanEvents,
  PlanEventMap,
  PlanEventName,
  SubagentEventMap,
  TaskPlan,
  TaskPlanInput,
  AdjustResult,
  Observation,
  ReasoningPhase,
  RunFinishReason,
  PlanUpdateSource,
} from './events.js';
export type { Listener, Unsubscribe } from './emitter.js';
export {
  PlanloopError,
  isPlanloopError,
  ValidationError,
  EnvelopeError,
  AbortError,
  StorageError,
  type PlanloopErrorCode,
  type PlanloopErrorOptions,
  type ValidationErrorOptions,
  type ModelOutputErrorOptions,
  type StorageErrorOptions,
  type StorageErrorReason,
  type ValidationIssue,
} from './errors.js';
export {
  PlannerOutputError,
  ProviderError,
  ConflictError,
  EditError,
  RefusalError,
  refusalOf,
  type EditErrorCode,
  type ProviderErrorOptions,
  type RefusalErrorOptions,
  type ConflictErrorOptions,
  type EditErrorOptions,
} from './model-errors.js';
export { TourError, type TourErrorOptions, type TourStepFailure } from './loop/tour-error.js';

// Storage
export { createMemoryAdapter, type MemoryAdapter } from './storage/memory.js';
export { createLocalStorageAdapter, type LocalStorageAdapter, type LocalStorageAdapterOptions } from './storage/local-storage.js';
export { createIndexedDbAdapter, type IndexedDbAdapter, type IndexedDbAdapterOptions } from './storage/indexed-db.js';
export type { CorruptCopy, CorruptCopyAccess } from './storage/corrupt-copies.js';
export type { PlanSaveStatus, SaveState, SaveStatus } from './storage/save-queue.js';
export type { PlanSyncOptions } from './sync/plan-sync.js';
export type { BroadcastChannelLike } from './sync/plan-channel.js';
export type { LockManagerLike } from './sync/run-lease.js';
export type { MergeConflict as SyncConflict, PlanVersion } from './sync/merge-plan-snapshots.js';
// The snapshot's reader (validateSnapshot, SNAPSHOT_VERSION) is on `planloop/storage`.
export type { PlanSnapshot, PlanStorageAdapter } from './storage/snapshot-format.js';

// Models
export {
  createLLMRouter,
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
export { createFunctionProvider, type FunctionProviderFn, type FunctionProviderOutput, type FunctionProviderResult } from './llm/function-provider.js';
export { withRetry, type RetryOptions } from './llm/retry.js';

// Planning (types; the functions, which Plan loads on first use, are on `planloop/planning`)
export type {
  PlanInput,
  PlannedTodos,
  PlannerConfig,
  MakeTodosOptions,
  SitemapConfig,
  SitemapPage,
  BrandPrompt,
  PersonaInput,
  SelectionContext,
} from './planning/make-todos.js';
export type { EditDocumentOptions, EditDocumentResult } from './planning/edit-with-instruction.js';
export type { MergeResult, MergeConflict } from './planning/merge-text.js';

// The turn envelope: its parser. The parts of a hand-written loop (the streaming parser,
// validateTodoAdjust, applyAdjust, the JSON schema and limits) are on `planloop/loop`.
export type {
  TurnEnvelope,
  TodoAdjust,
  TodoAdjustInput,
  TodoReplace,
  TurnPlanning,
  TurnAction,
  NarrateAction,
  ToolAction,
  AskAction,
  TaskFinishAction,
} from './envelope/schema.js';
export {
  parseTurnEnvelope,
  safeParseTurnEnvelope,
  validateTurnEnvelope,
  type ParseTurnEnvelopeOptions,
  type SafeParseTurnEnvelopeResult,
} from './envelope/parse.js';

// The turn loop: a run (`startRun`), or one promise (`runWebAgent`). Its parts, for a hand-written
// loop with the same safety (the gate, playTurn, the finish rules, the turn prompt), are on `planloop/loop`.
export type { TurnToolSpec } from './loop/turn-prompt.js';
export type {
  ActionRisk,
  ActionPolicyOptions,
  ApprovalLevel,
  ApprovalRequest,
  ApprovalAnswer,
  ApproveHook,
  ConfirmStep,
  ConfirmResult,
} from './loop/action-policy.js';
export { startRun } from './loop/start-run.js';
export type { Run, RunState, RunPhase, RunEnd, PendingApproval } from './loop/run-state.js';
export type {
  RunOptions,
  RunStartOptions,
  RunApprovalOptions,
  RunPageOptions,
  RunPromptOptions,
  RunModelOptions,
  RunBoundsOptions,
} from './loop/run-options.js';
export type { UserChannels } from './loop/dispatch-action.js';
export type { FlatRunOptions } from './loop/flat-run-options.js';
export {
  runWebAgent,
  type RunWebAgentOptions,
  type ObserveContext,
  type RunResult,
  type LoopTool,
  type LoopToolHandler,
  type LoopToolContext,
  type NarrateDeltaContext,
} from './loop/run-web-agent.js';

// Recorded tours: replay one without a model (its format's validators, parseTour and validateTour, are on `planloop/loop`)
export { replayTour, type ReplayTourOptions, type ReplayChecks, type ReplayResult } from './loop/replay-tour.js';
export type { Tour, TourTodo, TourStep } from './loop/tour.js';
export type { TourLocators } from './loop/tour-recorder.js';
