import type { TodoItem, TodoPatch, TodosArtifact } from '../artifacts/todos.js';
import { EnvelopeError, type ValidationIssue } from '../errors.js';
import type { AdjustResult } from '../events.js';
import { formatIssues, toIssues } from '../validation.js';
import { FORBIDDEN_ADJUST_KEYS, TodoAdjustSchema, type TodoAdjust } from './schema.js';

/**
 * Validates a `todo_adjust` object (from the model or the host). Refuses keys that would add
 * todos with an error the model can act on. Throws {@link EnvelopeError}.
 *
 * @example
 * ```ts
 * parseTodoAdjust({ remove: ['t1'] }, ['t2', 't3']); // { remove: ['t1'], replace: [] }
 * parseTodoAdjust({ insert: [{ description: 'x' }] }, ['t2', 't3']); // throws envelope_insert_forbidden
 * ```
 */
export function parseTodoAdjust(input: unknown, remainingIds: readonly string[] = []): TodoAdjust {
  if (input === undefined || input === null) return { remove: [], replace: [] };
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw new EnvelopeError('envelope_invalid', 'todo_adjust must be an object like {"remove":["t1"],"replace":[]}.', {
      issues: [{ path: 'todo_adjust', message: 'must be an object' }],
    });
  }
  const forbidden = FORBIDDEN_ADJUST_KEYS.filter((key) => Object.hasOwn(input, key));
  if (forbidden.length > 0) throw insertForbidden(`the "${forbidden[0]}" key`, remainingIds);
  const result = TodoAdjustSchema.safeParse(input);
  if (!result.success) {
    const issues = toIssues(result.error.issues, ['todo_adjust'], input);
    throw new EnvelopeError('envelope_invalid', `Invalid todo_adjust: ${formatIssues(issues)}. Send {"remove":[ids],"replace":[{"id","description","intent"}]}.`, { issues });
  }
  return result.data;
}

/**
 * Like {@link parseTodoAdjust}, but returns `{ success, data | error }` instead of throwing.
 *
 * @example
 * ```ts
 * const result = safeParseTodoAdjust(input, plan.todos.remaining().map((todo) => todo.id));
 * if (!result.success) reply(result.error.message); // worded for the model
 * ```
 */
export function safeParseTodoAdjust(
  input: unknown,
  remainingIds: readonly string[] = [],
): { success: true; data: TodoAdjust } | { success: false; error: EnvelopeError } {
  try {
    return { success: true, data: parseTodoAdjust(input, remainingIds) };
  } catch (error) {
    if (error instanceof EnvelopeError) return { success: false, error };
    throw error;
  }
}

/** The error for any attempt to add todos, naming the ids the model may use instead. */
export function insertForbidden(what: string, remainingIds: readonly string[]): EnvelopeError {
  const ids = remainingIds.length > 0 ? ` (${remainingIds.join(', ')})` : '';
  return new EnvelopeError(
    'envelope_insert_forbidden',
    `todo_adjust cannot add todos (got ${what}); remove or replace existing ids${ids}. The plan is fixed when the run starts.`,
    { issues: [{ path: 'todo_adjust', message: `cannot add todos (${what})` }] },
  );
}

/** Options of {@link applyTodoAdjust}. */
export interface ApplyAdjustOptions {
  /** The todo this turn works on: it becomes `in_progress` in the same atomic change. */
  inProgress?: string | undefined;
  /** The highest todo id number ever handed out: ids above it (or of another shape) are "new". */
  lastId: number;
}

/**
 * Applies one turn's `todo_adjust` to the todos in one atomic edit: `remove` ids become
 * `completed`, `replace` entries rewrite todos in place, and `inProgress` starts a todo. A replace
 * of an id the plan never had is an attempt to add a todo and is refused; ids that existed once
 * (deleted since) or are already completed are skipped and reported in `ignored`.
 * Either everything applies or nothing does.
 *
 * @example
 * ```ts
 * const result = applyTodoAdjust(plan.todos, { remove: ['t1'], replace: [] }, { lastId: plan.todos.lastId });
 * result.completed; // ['t1']
 * ```
 */
export function applyTodoAdjust(
  todos: TodosArtifact,
  input: unknown,
  options: ApplyAdjustOptions,
): AdjustResult & { todos: TodoItem[]; changed: boolean } {
  const current = todos.list();
  const byId = new Map(current.map((item) => [item.id, item]));
  const remaining = current.filter((item) => item.status !== 'completed').map((item) => item.id);
  const adjust = parseTodoAdjust(input, remaining);

  const isNew = (id: string): boolean => {
    const match = /^t(\d+)$/.exec(id);
    return !byId.has(id) && (!match || Number(match[1]) > options.lastId);
  };
  const newIds = adjust.replace.map((entry) => entry.id).filter(isNew);
  if (newIds.length > 0) throw insertForbidden(`a replace of the new id ${newIds.join(', ')}`, remaining);

  const result: AdjustResult = { completed: [], replaced: [], ignored: [] };
  const patches = new Map<string, TodoPatch>();
  const patch = (id: string, change: TodoPatch) => patches.set(id, { ...patches.get(id), ...change });

  for (const entry of adjust.replace) {
    const item = byId.get(entry.id);
    if (!item) {
      result.ignored.push({ id: entry.id, reason: 'no longer in the plan' });
      continue;
    }
    const { id, ...change } = entry;
    patch(id, change as TodoPatch);
    result.replaced.push(id);
  }
  for (const id of adjust.remove) {
    const item = byId.get(id);
    if (!item) result.ignored.push({ id, reason: isNew(id) ? 'not a todo of this plan' : 'no longer in the plan' });
    else if (item.status === 'completed' || result.completed.includes(id)) result.ignored.push({ id, reason: 'already completed' });
    else {
      patch(id, { status: 'completed' });
      result.completed.push(id);
    }
  }
  const started = options.inProgress;
  if (started !== undefined && started !== '') {
    const item = byId.get(started);
    if (!item) result.ignored.push({ id: started, reason: 'turn_planning.todo_id is not a todo of this plan' });
    else if (item.status === 'pending' && !result.completed.includes(started)) patch(started, { status: 'in_progress' });
  }

  const edits = [...patches].map(([id, change]) => ({ id, patch: change }));
  try {
    todos.editMany(edits);
  } catch (error) {
    const issues: ValidationIssue[] = (error as { issues?: ValidationIssue[] }).issues ?? [];
    throw new EnvelopeError('envelope_invalid', `Invalid todo_adjust.replace: ${formatIssues(issues)}.`, { issues }, { cause: error });
  }
  // A replace with the text a todo already has changes nothing: no plan-update for it. Only the
  // edited todos are compared, so a long plan costs nothing extra here.
  const after = todos.list();
  const afterById = new Map(after.map((item) => [item.id, item]));
  const changed = edits.some(({ id }) => JSON.stringify(afterById.get(id)) !== JSON.stringify(byId.get(id)));
  return { ...result, todos: after, changed };
}
