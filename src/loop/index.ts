/**
 * `planloop/loop`: the parts of a turn loop, for a host that writes its own instead of calling
 * `runWebAgent` (which is on the root entry, with `parseTurnEnvelope`): the envelope while it
 * streams (`createEnvelopeStreamParser`), a plan change validated and applied
 * (`validateTodoAdjust`, `applyAdjust`), the envelope's JSON schema and limits, and the turn prompt
 * (`buildTurnMessages`, `renderPlanForTurn`) with the action policy's defaults, what a backend
 * that cannot enforce a JSON schema is told (`describedInPrompt`, `jsonInstruction`); and recorded
 * tours: their format (`validateTour`, `parseTour`) and `replayTour`, which plays one without a model.
 */

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
export { ACTION_RISKS, DEFAULT_ACTION_POLICY } from './action-policy.js';
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
export { replayTour, type ReplayTourOptions, type ReplayResult } from './replay-tour.js';
