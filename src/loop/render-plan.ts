import type { TodoItem } from '../artifacts/todos.js';

/** Anything that holds todos: a `Plan`, its `todos` artifact's owner, or a list. */
export type TodoSource = { todos: { list(): TodoItem[] } } | readonly TodoItem[];

/**
 * The line shown when no todo remains.
 *
 * @example
 * ```ts
 * renderPlanForTurn([]) === NOTHING_LEFT_LINE; // true
 * ```
 */
export const NOTHING_LEFT_LINE = 'No todos left: finish now with task_finish.';

/**
 * The intents planloop's planner names. Each restates its todo's description (`Open the pricing
 * page` is a navigate), so the turn prompt leaves them out; any other intent (a host's own) is
 * shown.
 */
const IMPLIED_INTENTS: ReadonlySet<string> = new Set(['navigate', 'narrate', 'click', 'fill', 'ask', 'finish']);

/**
 * The plan as the model sees it each turn: only the todos not completed, head first, one line
 * each: `<id> <description>`, or `<id> <intent>: <description>` for an intent other than the
 * planner's six (navigate, narrate, click, fill, ask, finish: the description already says
 * which). Every line starts with the todo id (hosts and the offline demo model parse that). The
 * planner's expected turn is added as `(turn <n>)` on the first line (is the run on schedule?)
 * and after that only where the order does not say it: on a todo planned for another turn than
 * the one after the todo above it (two todos in one turn, or a gap); one todo a turn, in order,
 * costs nothing more. About 9 tokens per todo. When nothing remains, one line saying the model
 * must finish.
 *
 * @example
 * ```ts
 * renderPlanForTurn(plan);
 * // t2 Show the three tiers (turn 2)
 * // t3 Open the free-trial form
 * // t4 highlight: Point at the price (turn 3)
 * ```
 */
export function renderPlanForTurn(source: TodoSource): string {
  const todos = Array.isArray(source) ? (source as readonly TodoItem[]) : (source as { todos: { list(): TodoItem[] } }).todos.list();
  const remaining = todos.filter((todo) => todo.status !== 'completed');
  if (remaining.length === 0) return NOTHING_LEFT_LINE;
  return remaining
    .map((todo, index) => {
      const above = remaining[index - 1];
      const implied = above?.expected_turn !== undefined && todo.expected_turn === above.expected_turn + 1;
      const turn = todo.expected_turn && !implied ? ` (turn ${todo.expected_turn})` : '';
      const intent = oneLine(todo.intent).replace(/ /g, '-');
      return `${todo.id} ${IMPLIED_INTENTS.has(intent) ? '' : `${intent}: `}${oneLine(todo.description)}${turn}`;
    })
    .join('\n');
}

/** Collapses whitespace so a description can never break the one-line-per-todo format. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
