import { editTodos, type TodoPatch } from '../artifacts/todos.js';
import { idNumber } from '../artifacts/id-sequence.js';
import { EnvelopeError, ValidationError } from '../errors.js';
import type { PlanState } from '../plan-state.js';
import { formatIssues } from '../validation.js';
import { insertForbidden, validateTodoAdjust } from './todo-adjust.js';

/** What applying a `todo_adjust` did. */
export interface AdjustResult {
  /** Ids that became `completed`. */
  completed: string[];
  /** Ids rewritten in place. */
  replaced: string[];
  /** Ids that were skipped, and why (unknown, already completed, …). */
  ignored: Array<{ id: string; reason: string }>;
  /**
   * Ids the change would have completed that stayed open, and what is missing, as one short line
   * (`t3 not done: the page is not at /pricing`): only with a `verdict` (see {@link ApplyAdjustOptions}).
   */
  held?: Array<{ id: string; line: string }>;
}

/**
 * Whether a todo may be completed now: yes with (`checked: true`) or without (`false`) evidence,
 * or no, with the line that says what is missing (`declined`: the user declined its action).
 */
export type CompletionVerdict =
  | { readonly complete: true; readonly checked: boolean }
  | { readonly complete: false; readonly line: string; readonly declined?: boolean };

/** Options of {@link applyAdjust}. */
export interface ApplyAdjustOptions {
  /** The todo this turn works on: it becomes `in_progress` in the same change. */
  inProgress?: string | undefined;
  /**
   * Marks each todo whose text (description or intent) a `replace` changes with `rewritten: true`,
   * for the user to approve (a run with an approval hook sets it). Default `false`.
   */
  markRewrites?: boolean | undefined;
  /**
   * Asked for each todo the change would complete (`remove`, `complete_before`): a todo it holds
   * stays open, is marked `evidence: 'held'` (or `'declined'`) and is reported in `held`; one it
   * lets complete with evidence is marked `evidence: 'checked'`. Default: every completion goes
   * through, unmarked (a host's own `adjust` is trusted).
   */
  verdict?: ((id: string) => CompletionVerdict) | undefined;
}

/**
 * Applies one turn's `todo_adjust` to a plan state, purely: `remove` ids become `completed`,
 * `replace` entries rewrite todos in place, every open todo listed before `complete_before` (the
 * compact envelope's `todo`) becomes `completed`, and `inProgress` starts a todo. A replace of an id the
 * plan never had is an attempt to add a todo and is refused (`envelope_insert_forbidden`); ids
 * that existed once (deleted since) or are already completed are skipped and reported in
 * `ignored`. Validates with the same validator as the envelope parser; throws
 * {@link EnvelopeError} and returns nothing on bad input. `state` is the same object when nothing
 * changed.
 *
 * @example
 * ```ts
 * const { state, result } = applyAdjust(plan.state, { remove: ['t1'] }, { inProgress: 't2' });
 * result.completed; // ['t1']
 * ```
 */
export function applyAdjust(state: PlanState, input: unknown, options: ApplyAdjustOptions = {}): { state: PlanState; result: AdjustResult } {
  const byId = new Map(state.todos.map((item) => [item.id, item]));
  const remaining = state.todos.filter((item) => item.status !== 'completed').map((item) => item.id);
  const adjust = validateTodoAdjust(input, remaining);

  // "New" is what the id counter never handed out: a deleted id is old, not an insert.
  const isNew = (id: string): boolean => !byId.has(id) && (idNumber('t', id) ?? Number.POSITIVE_INFINITY) > state.lastIds.todos;
  const newIds = adjust.replace.map((entry) => entry.id).filter(isNew);
  if (newIds.length > 0) throw insertForbidden(`a replace of the new id ${newIds.join(', ')}`, remaining);

  const result: AdjustResult = { completed: [], replaced: [], ignored: [] };
  const patches = new Map<string, TodoPatch>();
  const patch = (id: string, change: TodoPatch): void => {
    patches.set(id, { ...patches.get(id), ...change });
  };
  for (const { id, ...change } of adjust.replace) {
    const item = byId.get(id);
    if (!item) result.ignored.push({ id, reason: 'no longer in the plan' });
    else {
      const rewrites =
        (change.description !== undefined && change.description.trim() !== item.description) ||
        (change.intent !== undefined && change.intent.trim() !== item.intent);
      // A rewrite of a todo still waiting for the user's approval stays marked, with or without markRewrites.
      patch(id, (options.markRewrites && rewrites) || item.rewritten ? { ...change, rewritten: true } : change);
      result.replaced.push(id);
    }
  }
  const complete = (id: string): void => {
    const verdict = options.verdict?.(id);
    if (verdict && !verdict.complete) {
      if (result.held?.some((entry) => entry.id === id)) return;
      // Held open: back to pending when the turn works on another todo (one todo in progress at a time).
      const away = options.inProgress !== undefined && options.inProgress !== id && byId.get(id)?.status === 'in_progress';
      patch(id, { evidence: verdict.declined ? 'declined' : 'held', ...(away ? { status: 'pending' as const } : {}) });
      (result.held ??= []).push({ id, line: verdict.line });
      return;
    }
    patch(id, { status: 'completed', evidence: verdict?.complete && verdict.checked ? 'checked' : null });
    result.completed.push(id);
  };
  for (const id of adjust.remove) {
    const item = byId.get(id);
    if (!item) result.ignored.push({ id, reason: isNew(id) ? 'not a todo of this plan' : 'no longer in the plan' });
    else if (item.status === 'completed' || result.completed.includes(id)) result.ignored.push({ id, reason: 'already completed' });
    else complete(id);
  }
  const before = adjust.complete_before;
  if (before !== undefined) {
    const index = state.todos.findIndex((item) => item.id === before);
    // The same id as inProgress is reported once, below.
    if (index < 0 && before !== options.inProgress) result.ignored.push({ id: before, reason: 'the turn names a todo this plan does not have' });
    for (const item of state.todos.slice(0, Math.max(0, index))) {
      if (item.status === 'completed' || result.completed.includes(item.id)) continue;
      complete(item.id);
    }
  }
  const started = options.inProgress;
  if (started) {
    const item = byId.get(started);
    if (!item) result.ignored.push({ id: started, reason: 'the turn names a todo this plan does not have' });
    else if (item.status === 'pending' && !result.completed.includes(started)) patch(started, { status: 'in_progress' });
  }

  try {
    const edited = editTodos(
      state,
      [...patches].map(([id, change]) => ({ id, patch: change })),
    );
    return { state: edited.state, result };
  } catch (error) {
    if (!ValidationError.isInstance(error)) throw error;
    const issues = error.issues.map((issue) => ({ ...issue, path: `todo_adjust.replace${issue.path}` }));
    throw new EnvelopeError('envelope_invalid', `Invalid todo_adjust.replace: ${formatIssues(issues)}.`, { issues, cause: error });
  }
}
