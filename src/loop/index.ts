/**
 * `planloop/loop`: the turn loop, as a run (`startRun`, also on the root) and in parts, for a host
 * that writes its own loop with the same safety: the options read once (`resolveRunOptions`), the
 * action gate (`createActionGate`: risks, approval, the action cap, rewritten todos), one turn as a
 * transaction (`playTurn`), the finish rules (`decideFinish`), the turn prompt
 * (`buildTurnMessages`, `renderPlanForTurn`) with the host's secrets kept out (`redactHostSecrets`),
 * and below them the envelope while it streams (`createEnvelopeStreamParser`), a plan change
 * validated and applied (`validateTodoAdjust`, `applyAdjust`), the envelope's JSON schema and
 * limits, and what a backend that cannot enforce a JSON schema is told (`describedInPrompt`,
 * `jsonInstruction`); and recorded tours: their format (`validateTour`, `parseTour`) and
 * `replayTour`, which plays one without a model.
 */

// The run
export { startRun } from './start-run.js';
export type { Run, RunState, RunPhase, RunEnd, RunResult, PendingApproval } from './run-state.js';
export { currentRun, followRuns } from './plan-runs.js';
export {
  resolveRunOptions,
  RUN_DEFAULTS,
  type RunOptions,
  type RunConfig,
  type RunStartOptions,
  type RunApprovalOptions,
  type RunPageOptions,
  type RunPromptOptions,
  type RunModelOptions,
  type RunBoundsOptions,
  type ApprovalConfig,
  type ObserveContext,
} from './run-options.js';
export type { UserChannels, LoopTool, LoopToolHandler, LoopToolContext, NarrateDeltaContext } from './dispatch-action.js';
export type { ToolTable, ToolEntry } from './tool-table.js';

// A hand-written loop with the same safety
export { createActionGate, describeToolAction, type ActionGate, type GateConfig, type GateDecision, type GateTurn } from './action-gate.js';
export { playTurn, type PlayTurnInput, type TurnConfig, type TurnOutcome, type ActionDecision } from './play-turn.js';
export { decideFinish, HELD_FINISH_NOTE, type FinishVerdict, type RunPosition, type TurnFacts } from './finish-rules.js';
export {
  assessFinish,
  completionVerdict,
  createEvidenceLedger,
  notDoneLine,
  recheckHeld,
  type CheckOutcome,
  type EvidenceLedger,
  type EvidenceLedgerOptions,
  type PageChecker,
  type UnverifiedTodo,
} from './evidence-ledger.js';
export { applyHostChecks } from './host-checks.js';
export { formatTodoCheck, matchUrl, missingEvidence, parseTodoCheck, readTodoCheckInput, type TodoCheckInput } from '../todo-check-text.js';
export { readTodoCheck, sameTodoCheck, TODO_CHECK_KINDS, type TodoCheck } from '../todo-check.js';

// The turn envelope, by hand
export {
  TURN_ENVELOPE_JSON_SCHEMA,
  ENVELOPE_LIMITS,
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
} from '../envelope/schema.js';
export { validateTodoAdjust, safeValidateTodoAdjust } from '../envelope/todo-adjust.js';
export { applyAdjust, type ApplyAdjustOptions } from '../envelope/apply.js';
export { createEnvelopeStreamParser, type EnvelopeStreamOptions, type EnvelopeStreamParser, type NarrateDelta } from '../envelope/stream.js';

// The turn prompt
export { renderPlanForTurn, NOTHING_LEFT_LINE, type TodoSource } from './render-plan.js';
export { TURN_INSTRUCTIONS, DATA_RULE, buildTurnMessages, turnSystemPrompt, turnUserPrompt, type TurnPromptInput, type TurnToolSpec } from './turn-prompt.js';
export { ACTION_RISKS } from './action-policy.js';
export {
  /** @deprecated since 0.3.0, use RUN_DEFAULTS; removed in 0.4.0 */
  DEFAULT_ACTION_POLICY,
} from './run-options.js';
export { redactHostSecrets, type HostSecrets } from './redact-prompt.js';

// What a backend that cannot enforce the schema is told (for a provider of your own)
export { describedInPrompt, jsonInstruction } from '../llm/json-instruction.js';

// Recorded tours: the format, its validators, and the replay
export {
  TOUR_FORMAT,
  TOUR_VERSION,
  TOUR_LIMITS,
  validateTour,
  safeValidateTour,
  parseTour,
  safeParseTour,
  type Tour,
  type TourTodo,
  type TourStep,
  type TourCheckOptions,
  type SafeTourResult,
} from './tour.js';
export type { TourLocators } from './tour-recorder.js';
export { replayTour, type ReplayTourOptions, type ReplayChecks, type ReplayResult } from './replay-tour.js';
