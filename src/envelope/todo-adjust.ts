import { EnvelopeError, type ValidationIssue } from '../errors.js';
import { definedEntries, isRecord, pathOf, readInteger, readArray, readRecord, readText } from '../guards.js';
import { formatIssues } from '../validation.js';
import { ENVELOPE_LIMITS, FORBIDDEN_ADJUST_KEYS, type TodoAdjust, type TodoReplace } from './schema.js';

/*
 * The validator of a turn's plan change (`todo_adjust`), which `plan.adjust` needs, apart from the
 * envelope's text parser (`parse.ts`), which a page needs only once it reads model text: a plan
 * alone does not load the tolerant JSON reader. The error helpers the envelope parser shares are
 * here too.
 */

const ADJUST_SHAPE = '{"remove":["t1"],"replace":[{"id":"t3","description":"…","intent":"…"}]}';

/**
 * Validates `todo_adjust` (from the model or the host): refuses insert/add/create keys with an
 * error the model can act on, reads `null` or absent lists as empty, keeps `complete_before` when
 * given. Throws {@link EnvelopeError}.
 *
 * @example
 * ```ts
 * validateTodoAdjust({ remove: ['t1'], replace: null }); // { remove: ['t1'], replace: [] }
 * validateTodoAdjust({ insert: [{ description: 'x' }] }, ['t2', 't3']); // throws envelope_insert_forbidden
 * ```
 */
export function validateTodoAdjust(value: unknown, remainingIds: readonly string[] = []): TodoAdjust {
  if (value === null || value === undefined) return { remove: [], replace: [] };
  return orThrow((issues) => readTodoAdjust(value, remainingIds, issues));
}

/**
 * Like {@link validateTodoAdjust}, but returns `{ success, data | error }` instead of throwing.
 *
 * @example
 * ```ts
 * declare const input: unknown; // the model's todo_adjust
 * const result = safeValidateTodoAdjust(input, plan.todos.remaining().map((todo) => todo.id));
 * if (!result.success) messages.push({ role: 'user', content: result.error.message }); // worded for the model
 * ```
 */
export function safeValidateTodoAdjust(
  value: unknown,
  remainingIds: readonly string[] = [],
): { success: true; data: TodoAdjust } | { success: false; error: EnvelopeError } {
  return safely(() => validateTodoAdjust(value, remainingIds));
}

/**
 * The error for any attempt to add todos, naming the ids the model may use instead.
 *
 * @example
 * ```ts
 * throw insertForbidden('the "insert" key', ['t2', 't3']);
 * ```
 */
export function insertForbidden(what: string, remainingIds: readonly string[] = []): EnvelopeError {
  const ids = remainingIds.length > 0 ? ` (${remainingIds.join(', ')})` : '';
  return new EnvelopeError(
    'envelope_insert_forbidden',
    `Todos cannot be added (got ${what}); name or replace existing ids${ids}. The plan is fixed when the run starts.`,
    { issues: [{ path: 'todo_adjust', message: `cannot add todos (${what})` }] },
  );
}

/** Reads `todo_adjust`, adding what is wrong to `issues`; throws at once on an attempt to add todos. */
export function readTodoAdjust(value: unknown, remainingIds: readonly string[] | undefined, issues: ValidationIssue[]): TodoAdjust {
  if (!isRecord(value)) {
    issues.push({ path: 'todo_adjust', message: `must be an object like ${ADJUST_SHAPE}` });
    return { remove: [], replace: [] };
  }
  const forbidden = FORBIDDEN_ADJUST_KEYS.find((key) => Object.hasOwn(value, key));
  if (forbidden) throw insertForbidden(`the "${forbidden}" key`, remainingIds);
  const fields = definedEntries(value);
  const remove = readArray(fields.remove ?? [], 'todo_adjust.remove', issues, (id, path) => readText(id, path, issues, { max: ENVELOPE_LIMITS.name }));
  const replace = readArray(fields.replace ?? [], 'todo_adjust.replace', issues, (entry, path) => readReplace(entry, path, issues));
  if (fields.complete_before === undefined) return { remove, replace };
  return { remove, replace, complete_before: readText(fields.complete_before, 'todo_adjust.complete_before', issues, { max: ENVELOPE_LIMITS.name }) };
}

/** Reads one `replace` entry, adding what is wrong to `issues`. */
export function readReplace(value: unknown, path: string, issues: ValidationIssue[]): TodoReplace {
  const record = readRecord(value, path, issues);
  if (!record) return { id: '' };
  const fields = definedEntries(record);
  const replace: TodoReplace = { id: readText(fields.id, pathOf(path, 'id'), issues, { max: ENVELOPE_LIMITS.name }) };
  if (fields.description !== undefined) replace.description = readText(fields.description, pathOf(path, 'description'), issues);
  if (fields.intent !== undefined) replace.intent = readText(fields.intent, pathOf(path, 'intent'), issues);
  if (fields.expected_turn !== undefined) replace.expected_turn = readInteger(fields.expected_turn, pathOf(path, 'expected_turn'), issues, 1);
  return replace;
}

/** Runs `read`, then throws the issues it found as one EnvelopeError. */
export function orThrow<T>(read: (issues: ValidationIssue[]) => T): T {
  const issues: ValidationIssue[] = [];
  const value = read(issues);
  if (issues.length > 0) throw invalid(issues);
  return value;
}

/** `run`'s result, or the EnvelopeError it threw, as `{ success, data | error }`. */
export function safely<T>(run: () => T): { success: true; data: T } | { success: false; error: EnvelopeError } {
  try {
    return { success: true, data: run() };
  } catch (error) {
    if (EnvelopeError.isInstance(error)) return { success: false, error };
    throw error;
  }
}

/** The EnvelopeError for `issues`, worded for the model. */
export function invalid(issues: ValidationIssue[]): EnvelopeError {
  return new EnvelopeError(
    'envelope_invalid',
    `Invalid envelope: ${formatIssues(issues)}. Fix ${issues.length === 1 ? 'it' : 'them'} and send the whole envelope again.`,
    { issues },
  );
}
