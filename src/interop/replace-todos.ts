import type { TodoIntent, TodoItem, TodoSeed, TodoStatus } from '../artifacts/todos.js';
import type { Plan } from '../plan.js';

/** One item of a full-replace list (`write_todos`, a tool result): an optional id, the text, the status. */
export interface ReplacementTodo {
  id?: string | undefined;
  description: string;
  status: TodoStatus;
  /** The intent if the item is new (a kept todo keeps its own). Default: the `intent` option. */
  intent?: TodoIntent | undefined;
}

/**
 * Replaces a plan's whole todo list, keeping the ids of the todos it keeps. An item keeps a todo's
 * id when it names that id, else when its text equals (after trimming) the text of a todo not
 * claimed yet; it then also keeps that todo's intent and expected turn. Every other item is new: a
 * fresh id (never a reused one, also when the item names an unknown or deleted id) and `intent`.
 * All or nothing (validation errors throw and change nothing).
 *
 * @example
 * ```ts
 * replaceTodos(plan, [{ description: 'Open pricing', status: 'completed' }, { description: 'Ask for a demo', status: 'pending' }]);
 * ```
 */
export function replaceTodos(plan: Plan, items: readonly ReplacementTodo[], options: { intent?: TodoIntent } = {}): TodoItem[] {
  const current = plan.todos.list();
  const byId = new Map(current.map((todo) => [todo.id, todo]));
  const matches: Array<TodoItem | undefined> = items.map(() => undefined);
  const claimed = new Set<string>();
  // Ids first, so that an item naming an id is not beaten to it by an earlier item with the same text.
  items.forEach((item, index) => {
    const match = item.id === undefined || claimed.has(item.id) ? undefined : byId.get(item.id);
    if (match) {
      matches[index] = match;
      claimed.add(match.id);
    }
  });
  items.forEach((item, index) => {
    if (matches[index]) return;
    const text = item.description.trim();
    const match = current.find((todo) => !claimed.has(todo.id) && todo.description === text);
    if (match) {
      matches[index] = match;
      claimed.add(match.id);
    }
  });
  const seeds = items.map((item, index): TodoSeed => {
    const match = matches[index];
    if (!match) return { intent: item.intent ?? options.intent ?? 'narrate', description: item.description, status: item.status };
    const seed: TodoSeed = { id: match.id, intent: match.intent, description: item.description, status: item.status };
    if (match.expected_turn !== undefined) seed.expected_turn = match.expected_turn;
    return seed;
  });
  return plan.todos.reset(seeds);
}
