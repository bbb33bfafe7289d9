/*
 * The evidence vocabulary of a todo (`todo.check`): a small closed set of facts the SDK checks
 * itself, against the page (planloop/dom's `checkPage`) and the run (the loop's evidence ledger),
 * never by asking the model. The types and the reader of the object form, which the plan's core
 * loads at start, so it is kept small: the compact text a planner writes (`see button "Buy"`) is
 * read by `parseTodoCheck` (todo-check-text.ts), which only the planner and the loop load.
 */

/**
 * What must be true for a todo to count as done, checked by the SDK:
 * - `url`: the page is at `pattern` (a path such as `/pricing`; `*` matches anything; the query and
 *   the `#hash` count only when the pattern has them);
 * - `visible`: an element a person can see now whose accessible name contains `name` (case and
 *   spacing aside) and, when given, whose role is `role`;
 * - `field`: the field named `field` (its label, name or id) holds a value (`value` absent: filled),
 *   or holds `value`. A secret field (password, card, code…) can only be checked as filled;
 * - `narrated`: something was said to the user while the todo was the turn's todo;
 * - `tool`: the host's tool `name` ran and succeeded while the todo was the turn's todo;
 * - `none`: never checked, and nothing derived (the host's way to keep a todo on the model's word).
 *
 * @example
 * ```ts
 * const check: TodoCheck = { kind: 'visible', role: 'status', name: 'Trial started' };
 * plan.setTaskPlan({ summary: 'Start a trial', todos: [{ intent: 'click', description: 'Start the trial', check }] });
 * ```
 */
export type TodoCheck =
  | { readonly kind: 'url'; readonly pattern: string }
  | { readonly kind: 'visible'; readonly name: string; readonly role?: string }
  | { readonly kind: 'field'; readonly field: string; readonly value?: string }
  | { readonly kind: 'narrated' }
  | { readonly kind: 'tool'; readonly name: string }
  | { readonly kind: 'none' };

/**
 * The kinds of {@link TodoCheck}.
 *
 * @example
 * ```ts
 * TODO_CHECK_KINDS.includes('url'); // true
 * ```
 */
export const TODO_CHECK_KINDS = ['url', 'visible', 'field', 'narrated', 'tool', 'none'] as const;

/** The longest text in a check (a pattern, a name, a value), in characters. */
export const MAX_CHECK_TEXT = 200;

/** Field names whose value is a secret: a check may only ask whether such a field is filled. */
export const SECRET_FIELD_NAME =
  /(^|[^a-z])(pass(word|phrase|code)?|passwd|pwd|secret|token|api ?key|otp|one.?time|cvc|cvv|csc|ssn|pin|iban|card|security ?code)([^a-z]|$)/i;

/** The text fields of each kind (`?`: optional). */
const TEXT_FIELDS: Record<string, string[]> = {
  url: ['pattern'],
  visible: ['name', 'role?'],
  field: ['field', 'value?'],
  narrated: [],
  tool: ['name'],
  none: [],
};

/**
 * Reads a check in its object form, adding what is wrong to `issues` under `path`; returns the
 * check, or `undefined` when it is unusable (an issue says why): a malformed check never passes
 * silently. Text is refused here: `parseTodoCheck` (planloop/loop) reads the compact form.
 *
 * @example
 * ```ts
 * const issues: Array<{ path: string; message: string }> = [];
 * readTodoCheck({ kind: 'url', pattern: '/pricing' }, '[0].check', issues); // { kind: 'url', pattern: '/pricing' }
 * readTodoCheck({ kind: 'field', field: 'Password', value: 'hunter2' }, '[1].check', issues); // undefined, and an issue
 * ```
 */
export function readTodoCheck(value: unknown, path: string, issues: Array<{ path: string; message: string }>): TodoCheck | undefined {
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const fields = Object.hasOwn(TEXT_FIELDS, record.kind as string) ? TEXT_FIELDS[record.kind as string] : undefined;
  const fail = (where: string, message: string): undefined => void issues.push({ path: where, message });
  if (!fields) return fail(path, `must be a check object with a kind (${Object.keys(TEXT_FIELDS)})`);
  const check: Record<string, string> = { kind: record.kind as string };
  for (const field of fields) {
    const key = field.replace('?', '');
    const text = record[key];
    if (text === undefined && key !== field) continue;
    if (typeof text !== 'string' || !text.trim() || text.length > MAX_CHECK_TEXT) return fail(`${path}.${key}`, `must be 1 to ${MAX_CHECK_TEXT} characters`);
    check[key] = text.replace(/\s+/g, ' ').trim();
  }
  if (check.pattern?.[0] !== undefined && check.pattern[0] !== '/') return fail(`${path}.pattern`, 'must be a path such as /pricing');
  if (check.value !== undefined && SECRET_FIELD_NAME.test(check.field ?? ''))
    return fail(`${path}.value`, 'must be left out: a secret field is only checked as filled');
  if (check.role) check.role = check.role.toLowerCase();
  return check as unknown as TodoCheck;
}

/**
 * Whether two checks say the same (both absent counts as the same).
 *
 * @example
 * ```ts
 * sameTodoCheck({ kind: 'narrated' }, { kind: 'narrated' }); // true
 * ```
 */
export function sameTodoCheck(a: TodoCheck | undefined, b: TodoCheck | undefined): boolean {
  return a === b || (!!a && !!b && JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort()));
}
