import { ValidationError, type ValidationIssue } from '../errors.js';
import type { Plan } from '../plan.js';
import type { TodoItem } from '../plan-state.js';
import type { TodoCheck } from '../todo-check.js';
import { readTodoCheckInput } from '../todo-check-text.js';
import { formatIssues } from '../validation.js';

/**
 * Sets the checks a run's `start.checks` gives, on every open todo at once or on none: a malformed
 * check is a `ValidationError` naming the todo (`start.checks(t3)`), and the plan is left as it was.
 *
 * @example
 * ```ts
 * applyHostChecks(plan, (todo) => (todo.intent === 'click' ? 'see status "Saved"' : undefined));
 * ```
 */
export function applyHostChecks(plan: Plan, checks: ((todo: TodoItem) => TodoCheck | string | undefined) | undefined): void {
  if (!checks) return;
  const issues: ValidationIssue[] = [];
  const edits: Array<{ id: string; patch: { check: TodoCheck } }> = [];
  for (const todo of plan.todos.list()) {
    if (todo.status === 'completed') continue;
    const given = checks(todo);
    if (given === undefined) continue;
    const check = readTodoCheckInput(given, `start.checks(${todo.id})`, issues);
    if (check) edits.push({ id: todo.id, patch: { check } });
  }
  if (issues.length > 0) throw new ValidationError('invalid_input', `Cannot run: ${formatIssues(issues)}.`, { issues });
  if (edits.length > 0) plan.todos.editMany(edits);
}
