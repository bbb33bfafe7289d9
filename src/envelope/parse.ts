import type { z } from 'zod/mini';
import { EnvelopeError, formatPath, type ValidationIssue } from '../errors.js';
import { parseModelJson } from '../planning/model-json.js';
import { formatIssues, toIssues } from '../validation.js';
import { insertForbidden } from './adjust.js';
import {
  FORBIDDEN_ADJUST_KEYS,
  TodoAdjustSchema,
  TurnActionSchema,
  TurnPlanningSchema,
  type TodoAdjust,
  type TurnAction,
  type TurnEnvelope,
  type TurnPlanning,
} from './schema.js';

/** Options of {@link parseTurnEnvelope}. */
export interface ParseTurnEnvelopeOptions {
  /** The ids still open in the plan: an insert attempt's error names them as the ones to use. Default none. */
  remainingIds?: readonly string[];
}

/** The result of {@link safeParseTurnEnvelope}. */
export type SafeParseTurnEnvelopeResult = { success: true; data: TurnEnvelope } | { success: false; error: EnvelopeError };

const ENVELOPE_KEYS = ['turn_planning', 'todo_adjust', 'actions'] as const;
const SHAPE = '{"turn_planning":{…},"todo_adjust":{"remove":[],"replace":[]},"actions":[…]}';

/**
 * Reads one turn envelope from model text, as tolerant as `makeTodos` (code fences, prose around
 * the JSON, trailing commas, single quotes, `null` for absent fields) and validated with the zod
 * schemas. Throws an {@link EnvelopeError} whose message can be sent back to the model as is: what
 * was wrong, where, and what to send instead. A cut-off object is refused (a partial envelope is
 * never applied), and `__proto__` keys are dropped.
 *
 * @example
 * ```ts
 * const envelope = parseTurnEnvelope('```json\n{"turn_planning":{"todo_id":"t1","does":"Greet"},"actions":[{"type":"narrate","text":"Hi"}]}\n```');
 * envelope.actions[0]; // { type: 'narrate', text: 'Hi' }
 * ```
 */
export function parseTurnEnvelope(text: string, options: ParseTurnEnvelopeOptions = {}): TurnEnvelope {
  const json = parseModelJson(text);
  if (json.ok && !json.truncated) return withRaw(() => validateTurnEnvelope(unwrapSingle(json.value), options), text);
  const message = json.truncated
    ? 'Your reply was cut off before its JSON object closed. Send a shorter envelope (fewer or shorter actions).'
    : `Your reply has no usable JSON (${json.ok ? 'cut off' : json.error}). Reply with one JSON object: ${SHAPE}.`;
  throw new EnvelopeError('envelope_invalid', message, { raw: text, issues: [{ path: '(root)', message: json.truncated ? 'cut off' : 'no JSON object' }] });
}

/**
 * {@link parseTurnEnvelope} without throwing: `{ success: true, data }` or `{ success: false, error }`.
 *
 * @example
 * ```ts
 * const result = safeParseTurnEnvelope(text, { remainingIds: ['t2', 't3'] });
 * if (!result.success) messages.push({ role: 'user', content: result.error.message });
 * ```
 */
export function safeParseTurnEnvelope(text: string, options: ParseTurnEnvelopeOptions = {}): SafeParseTurnEnvelopeResult {
  try {
    return { success: true, data: parseTurnEnvelope(text, options) };
  } catch (error) {
    if (error instanceof EnvelopeError) return { success: false, error };
    throw error;
  }
}

/**
 * Validates an already parsed envelope value. Throws {@link EnvelopeError}, listing every bad
 * field at once. Used by {@link parseTurnEnvelope} and the streaming parser.
 *
 * @example
 * ```ts
 * validateTurnEnvelope({ actions: [{ type: 'task_finish', summary: 'Done' }] });
 * ```
 */
export function validateTurnEnvelope(value: unknown, options: ParseTurnEnvelopeOptions = {}): TurnEnvelope {
  if (!isRecord(value)) {
    throw invalid([{ path: '(root)', message: 'must be a JSON object' }]);
  }
  if (!ENVELOPE_KEYS.some((key) => Object.hasOwn(value, key))) {
    throw new EnvelopeError('envelope_invalid', `Your JSON is not a turn envelope: it has none of turn_planning, todo_adjust, actions. Reply with ${SHAPE}.`, {
      issues: [{ path: '(root)', message: 'not a turn envelope' }],
    });
  }
  checkForbidden(value.todo_adjust, options.remainingIds);
  const issues: ValidationIssue[] = [];
  const planning = value.turn_planning ?? undefined;
  const adjust = value.todo_adjust ?? undefined;
  const actions = value.actions ?? [];
  const turnPlanning = planning === undefined ? undefined : check(TurnPlanningSchema, compact(planning), ['turn_planning'], issues);
  const todoAdjust = adjust === undefined ? undefined : check(TodoAdjustSchema, compactAdjust(adjust), ['todo_adjust'], issues);
  const parsedActions: TurnAction[] = [];
  if (!Array.isArray(actions)) issues.push({ path: 'actions', message: 'must be an array' });
  else {
    actions.forEach((action, index) => {
      const parsed = check(TurnActionSchema, compact(action), ['actions', index], issues);
      if (parsed) parsedActions.push(parsed);
    });
  }
  if (issues.length > 0) throw invalid(issues);
  return {
    ...(turnPlanning ? { turn_planning: turnPlanning } : {}),
    ...(todoAdjust ? { todo_adjust: todoAdjust } : {}),
    actions: parsedActions,
  };
}

/**
 * Validates `turn_planning` on its own (for the streaming parser). Throws {@link EnvelopeError}.
 *
 * @example
 * ```ts
 * validateTurnPlanning({ todo_id: 't2', does: 'Show the tiers' }); // { todo_id: 't2', does: 'Show the tiers', is_last_turn: false }
 * ```
 */
export function validateTurnPlanning(value: unknown): TurnPlanning {
  return checkOrThrow(TurnPlanningSchema, compact(value), ['turn_planning']);
}

/**
 * Validates `todo_adjust` on its own (for the streaming parser): refuses insert/add/create keys,
 * tolerates `null` lists. Throws {@link EnvelopeError}.
 *
 * @example
 * ```ts
 * validateTodoAdjust({ remove: ['t1'], replace: null }); // { remove: ['t1'], replace: [] }
 * ```
 */
export function validateTodoAdjust(value: unknown, remainingIds: readonly string[] = []): TodoAdjust {
  if (value === null || value === undefined) return { remove: [], replace: [] };
  checkForbidden(value, remainingIds);
  return checkOrThrow(TodoAdjustSchema, compactAdjust(value), ['todo_adjust']);
}

/**
 * Validates action number `index` on its own (for the streaming parser). Throws {@link EnvelopeError}.
 *
 * @example
 * ```ts
 * validateTurnAction({ type: 'tool', name: 'navigate', args: { path: '/pricing' } }, 0);
 * ```
 */
export function validateTurnAction(value: unknown, index: number): TurnAction {
  return checkOrThrow(TurnActionSchema, compact(value), ['actions', index]);
}

function checkForbidden(adjust: unknown, remainingIds: readonly string[] = []): void {
  if (!isRecord(adjust)) return;
  const forbidden = FORBIDDEN_ADJUST_KEYS.find((key) => Object.hasOwn(adjust, key));
  if (forbidden) throw insertForbidden(`the "${forbidden}" key`, remainingIds);
}

function check<T>(schema: z.ZodMiniType<T>, value: unknown, path: PropertyKey[], issues: ValidationIssue[]): T | undefined {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    // zod reports an unknown discriminator as a bare invalid_union; name the allowed types instead.
    const options = (issue as { options?: unknown[] }).options;
    if (issue.code === 'invalid_union' && Array.isArray(options)) {
      issues.push({ path: formatPath([...path, ...issue.path]), message: `must be one of ${options.join(', ')}` });
    } else issues.push(...toIssues([issue], path, value));
  }
  return undefined;
}

function checkOrThrow<T>(schema: z.ZodMiniType<T>, value: unknown, path: PropertyKey[]): T {
  const issues: ValidationIssue[] = [];
  const parsed = check(schema, value, path, issues);
  if (issues.length > 0 || parsed === undefined) throw invalid(issues);
  return parsed;
}

function invalid(issues: ValidationIssue[]): EnvelopeError {
  return new EnvelopeError('envelope_invalid', `Invalid envelope: ${formatIssues(issues)}. Fix ${issues.length === 1 ? 'it' : 'them'} and send the whole envelope again.`, { issues });
}

function withRaw<T>(run: () => T, raw: string): T {
  try {
    return run();
  } catch (error) {
    if (!(error instanceof EnvelopeError)) throw error;
    throw new EnvelopeError(error.code as 'envelope_invalid' | 'envelope_insert_forbidden', error.message, { raw, issues: error.issues });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A shallow copy without `null` fields: small models write `"target": null` for "absent". Never
 * copies a `__proto__` key (defensive: parsed JSON has none already).
 */
function compact(value: unknown): unknown {
  if (!isRecord(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key, field]) => field !== null && key !== '__proto__'));
}

function compactAdjust(value: unknown): unknown {
  const adjust = compact(value);
  if (!isRecord(adjust) || !Array.isArray(adjust.replace)) return adjust;
  return { ...adjust, replace: adjust.replace.map(compact) };
}

/**
 * Some models wrap their one object in an array (`[{…}]`). The streaming parser reads the object
 * inside and may already have acted on it, so the whole-text parse must read it the same way.
 */
function unwrapSingle(value: unknown): unknown {
  return Array.isArray(value) && value.length === 1 && typeof value[0] === 'object' && value[0] !== null && !Array.isArray(value[0]) ? value[0] : value;
}
