import { EnvelopeError, type ValidationIssue } from '../errors.js';
import { definedEntries, isRecord, pathOf, readArray, readOneOf, readRecord, readText } from '../guards.js';
import { parseModelJson } from '../llm/model-json.js';
import { ACTION_TYPES, ENVELOPE_LIMITS, FORBIDDEN_ADJUST_KEYS, type TodoAdjust, type TurnAction, type TurnEnvelope, type TurnPlanning } from './schema.js';
import { insertForbidden, invalid, orThrow, readReplace, readTodoAdjust, safely } from './todo-adjust.js';

export { insertForbidden, validateTodoAdjust, safeValidateTodoAdjust } from './todo-adjust.js';

/*
 * One validator per shape (turn_planning, todo_adjust (in `todo-adjust.ts`), an action, the envelope), used by the
 * whole-text parser, the streaming parser and `plan.adjust` alike. Each reads a value from the
 * model or the host, never throws anything but an EnvelopeError, and words its errors for the
 * model: what was wrong, where, and what to send instead.
 */

/** Options of {@link parseTurnEnvelope}. */
export interface ParseTurnEnvelopeOptions {
  /** The ids still open in the plan: an insert attempt's error names them as the ones to use. Default none. */
  remainingIds?: readonly string[] | undefined;
  /** The most actions one envelope may carry. Default `ENVELOPE_LIMITS.actions` (20). */
  maxActions?: number | undefined;
}

/** The result of {@link safeParseTurnEnvelope}. */
export type SafeParseTurnEnvelopeResult = { success: true; data: TurnEnvelope } | { success: false; error: EnvelopeError };

/**
 * The keys of the plan part of an envelope: the full form's two, then the compact form's three.
 *
 * @example
 * ```ts
 * ENVELOPE_HEADER_KEYS.includes('todo'); // true
 * ```
 */
export const ENVELOPE_HEADER_KEYS = ['turn_planning', 'todo_adjust', 'todo', 'last', 'replace'] as const;

/** The plan part of an envelope, read from either form: what the turn works on and the plan change. */
export interface EnvelopeHeader {
  turn_planning?: TurnPlanning;
  todo_adjust?: TodoAdjust;
}

const ENVELOPE_KEYS = [...ENVELOPE_HEADER_KEYS, 'actions'] as const;
const SHAPE = '{"todo":"t2","actions":[…]}';

/**
 * Reads one turn envelope from model text, in either form (the compact `{"todo":"t2",…}` is read
 * into the full `TurnEnvelope`: its implied completions become `todo_adjust.complete_before`),
 * tolerantly (code fences, prose around the JSON,
 * trailing commas, single quotes, `null` for absent fields, one object wrapped in `[ ]`) and
 * validated. Throws an {@link EnvelopeError} whose message can be sent back to the model as is. A
 * cut-off object is refused (a partial envelope is never applied); `__proto__` keys are dropped.
 * Anything that is not a string is refused with code `envelope_invalid`, never a TypeError.
 *
 * @example
 * ```ts
 * const envelope = parseTurnEnvelope('```json\n{"todo":"t2","actions":[{"type":"narrate","text":"Hi"}]}\n```');
 * envelope.actions[0]; // { type: 'narrate', text: 'Hi' }
 * envelope.todo_adjust; // { remove: [], replace: [], complete_before: 't2' }
 * ```
 */
export function parseTurnEnvelope(text: string, options: ParseTurnEnvelopeOptions = {}): TurnEnvelope {
  if (typeof text !== 'string') {
    throw new EnvelopeError(
      'envelope_invalid',
      `Expected the model's reply as text, got ${text === null ? 'null' : typeof text}. Reply with one JSON object: ${SHAPE}.`,
      {
        issues: [{ path: '(root)', message: 'must be a string' }],
      },
    );
  }
  const json = parseModelJson(text);
  if (json.ok && !json.truncated) {
    try {
      return validateTurnEnvelope(unwrapSingle(json.value), options);
    } catch (error) {
      throw withRaw(error as EnvelopeError, text);
    }
  }
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
 * declare const text: string; // the model's reply
 * const result = safeParseTurnEnvelope(text, { remainingIds: ['t2', 't3'] });
 * if (!result.success) messages.push({ role: 'user', content: result.error.message });
 * ```
 */
export function safeParseTurnEnvelope(text: string, options: ParseTurnEnvelopeOptions = {}): SafeParseTurnEnvelopeResult {
  return safely(() => parseTurnEnvelope(text, options));
}

/**
 * Validates an already parsed envelope value. Throws {@link EnvelopeError}, listing every bad
 * field at once.
 *
 * @example
 * ```ts
 * validateTurnEnvelope({ actions: [{ type: 'task_finish', summary: 'Done' }] });
 * ```
 */
export function validateTurnEnvelope(value: unknown, options: ParseTurnEnvelopeOptions = {}): TurnEnvelope {
  if (!isRecord(value)) throw invalid([{ path: '(root)', message: 'must be a JSON object' }]);
  if (!ENVELOPE_KEYS.some((key) => Object.hasOwn(value, key))) {
    throw new EnvelopeError('envelope_invalid', `Your JSON is not a turn envelope: it has none of todo, actions. Reply with ${SHAPE}.`, {
      issues: [{ path: '(root)', message: 'not a turn envelope' }],
    });
  }
  const issues: ValidationIssue[] = [];
  const { turn_planning: turnPlanning, todo_adjust: todoAdjust } = readHeader(value, options.remainingIds, issues);
  const actions = readArray(value.actions ?? [], 'actions', issues, (action, path) => readTurnAction(action, path, issues));
  const maxActions = options.maxActions ?? ENVELOPE_LIMITS.actions;
  // Checked after the items, so the issues name every bad action too; but one more error wins.
  if (actions.length > maxActions) throw tooManyActions(maxActions, issues);
  if (issues.length > 0) throw invalid(issues);
  return {
    ...(turnPlanning ? { turn_planning: turnPlanning } : {}),
    ...(todoAdjust ? { todo_adjust: todoAdjust } : {}),
    actions,
  };
}

/**
 * Validates the plan part of an envelope on its own, from the members written so far (for the
 * streaming parser): either form, normalized as {@link validateTurnEnvelope} does. Throws
 * {@link EnvelopeError}.
 *
 * @example
 * ```ts
 * validateEnvelopeHeader({ todo: 't3' });
 * // { turn_planning: { todo_id: 't3', does: '', is_last_turn: false }, todo_adjust: { remove: [], replace: [], complete_before: 't3' } }
 * ```
 */
export function validateEnvelopeHeader(members: Record<string, unknown>, options: ParseTurnEnvelopeOptions = {}): EnvelopeHeader {
  return orThrow((issues) => readHeader(members, options.remainingIds, issues));
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
  return orThrow((issues) => readTurnAction(value, `actions[${index}]`, issues));
}

/**
 * The error for an envelope with more than `max` actions: none of them should run.
 *
 * @example
 * ```ts
 * throw tooManyActions(20);
 * ```
 */
export function tooManyActions(max: number, issues: ValidationIssue[] = []): EnvelopeError {
  return new EnvelopeError('envelope_invalid', `Your envelope has more than ${max} actions. Send at most ${max} actions per turn.`, {
    issues: [{ path: 'actions', message: `has more than ${max} actions` }, ...issues],
  });
}

/**
 * The plan part of an envelope, from either form. Compact: `todo` names the todo now being done
 * (the open todos above it are done: `complete_before`), `last` is `is_last_turn`, `replace` the
 * rewrites. Full: `turn_planning` and `todo_adjust` as written, nothing implied. A `todo` with an
 * explicit `todo_adjust` takes the adjust as written (the way to keep an earlier todo open). Keys
 * that would add todos are refused at the top level too.
 */
function readHeader(value: Record<string, unknown>, remainingIds: readonly string[] | undefined, issues: ValidationIssue[]): EnvelopeHeader {
  const forbidden = FORBIDDEN_ADJUST_KEYS.find((key) => Object.hasOwn(value, key));
  if (forbidden) throw insertForbidden(`the "${forbidden}" key`, remainingIds);
  const { turn_planning: planning, todo_adjust: adjust, todo, last, replace } = definedEntries(value);
  const header: EnvelopeHeader = {};
  if (planning !== undefined && (todo !== undefined || last !== undefined)) {
    issues.push({
      path: todo === undefined ? 'last' : 'todo',
      message: 'cannot be combined with turn_planning: write "todo" (and "last") or turn_planning, not both',
    });
  }
  if (adjust !== undefined && replace !== undefined) {
    issues.push({ path: 'replace', message: 'cannot be combined with todo_adjust: put it inside todo_adjust, or leave todo_adjust out' });
  }
  if (planning !== undefined) header.turn_planning = readTurnPlanning(planning, issues);
  else if (todo !== undefined || last !== undefined) {
    header.turn_planning = { does: '', is_last_turn: last === undefined ? false : readBoolean(last, 'last', issues) };
    const id = todo === undefined ? '' : readText(todo, 'todo', issues, { nonEmpty: false, max: ENVELOPE_LIMITS.name }).trim();
    if (id) header.turn_planning.todo_id = id;
  }
  if (adjust !== undefined) header.todo_adjust = readTodoAdjust(adjust, remainingIds, issues);
  else {
    const completeBefore = todo === undefined ? undefined : header.turn_planning?.todo_id;
    if (replace !== undefined || completeBefore) {
      const rewrites = replace === undefined ? [] : readArray(replace, 'replace', issues, (entry, path) => readReplace(entry, path, issues));
      header.todo_adjust = { remove: [], replace: rewrites, ...(completeBefore ? { complete_before: completeBefore } : {}) };
    }
  }
  return header;
}

function readBoolean(value: unknown, path: string, issues: ValidationIssue[]): boolean {
  if (typeof value === 'boolean') return value;
  issues.push({ path, message: 'must be true or false' });
  return false;
}

function readTurnPlanning(value: unknown, issues: ValidationIssue[]): TurnPlanning {
  const record = readRecord(value, 'turn_planning', issues);
  if (!record) return { does: '', is_last_turn: false };
  const fields = definedEntries(record);
  const planning: TurnPlanning = {
    does: fields.does === undefined ? '' : readText(fields.does, 'turn_planning.does', issues, { nonEmpty: false, max: ENVELOPE_LIMITS.text }),
    is_last_turn: false,
  };
  if (fields.todo_id !== undefined)
    planning.todo_id = readText(fields.todo_id, 'turn_planning.todo_id', issues, { nonEmpty: false, max: ENVELOPE_LIMITS.name });
  if (fields.is_last_turn !== undefined) planning.is_last_turn = readBoolean(fields.is_last_turn, 'turn_planning.is_last_turn', issues);
  return planning;
}

function readTurnAction(value: unknown, path: string, issues: ValidationIssue[]): TurnAction {
  const record = readRecord(value, path, issues);
  if (!record) return { type: 'task_finish', summary: '' };
  const fields = definedEntries(record);
  const type = readOneOf(fields.type, ACTION_TYPES, pathOf(path, 'type'), issues);
  const text = (key: string, options: { nonEmpty?: boolean; max?: number } = {}): string =>
    readText(fields[key], pathOf(path, key), issues, { max: ENVELOPE_LIMITS.text, ...options });
  switch (type) {
    case 'narrate': {
      const action: TurnAction = { type, text: text('text') };
      if (fields.target !== undefined) action.target = text('target', { nonEmpty: false, max: ENVELOPE_LIMITS.name });
      return action;
    }
    case 'tool': {
      const name = text('name', { max: ENVELOPE_LIMITS.name });
      const args = fields.args === undefined ? {} : readRecord(fields.args, pathOf(path, 'args'), issues);
      return { type, name, args: args ? definedArgs(args) : {} };
    }
    case 'ask':
      return { type, question: text('question') };
    default:
      return { type: 'task_finish', summary: fields.summary === undefined ? '' : text('summary', { nonEmpty: false }) };
  }
}

/** The tool's arguments as given, without a `__proto__` key (nulls are kept: a tool may mean them). */
function definedArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(args)) if (key !== '__proto__') out[key] = args[key];
  return out;
}

function withRaw(error: EnvelopeError, raw: string): EnvelopeError {
  if (!EnvelopeError.isInstance(error)) return error;
  return new EnvelopeError(error.code as 'envelope_invalid' | 'envelope_insert_forbidden', error.message, { raw, issues: error.issues });
}

/**
 * Some models wrap their one object in an array (`[{…}]`). The streaming parser reads the object
 * inside and may already have acted on it, so the whole-text parse must read it the same way.
 */
function unwrapSingle(value: unknown): unknown {
  return Array.isArray(value) && value.length === 1 && isRecord(value[0]) ? value[0] : value;
}
