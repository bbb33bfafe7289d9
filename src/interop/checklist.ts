import type { TodoIntent, TodoItem, TodoStatus } from '../artifacts/todos.js';
import { ValidationError } from '../errors.js';
import type { Plan } from '../plan.js';
import { emitPlanEvent } from '../plan/emit-plan-event.js';

/**
 * Checklists larger than this many UTF-8 bytes (64 KiB) seed nothing.
 *
 * @example
 * ```ts
 * declare const text: string; // a plan.md
 * if (new TextEncoder().encode(text).length > CHECKLIST_MAX_BYTES) console.warn('plan.md too large to seed');
 * ```
 */
export const CHECKLIST_MAX_BYTES = 64 * 1024;

/** One todo read from a checklist line: no id yet. */
export interface ChecklistTodo {
  intent: TodoIntent;
  description: string;
  status: TodoStatus;
}

/** A problem with a checklist that is not an error (the file is still usable, or simply skipped). */
export interface ChecklistWarning {
  code: 'checklist_too_large';
  message: string;
}

/** What {@link parseChecklist} returns. */
export interface ParsedChecklist {
  todos: ChecklistTodo[];
  warnings: ChecklistWarning[];
}

/** Options of {@link parseChecklist} and {@link seedFromChecklist}. */
export interface ChecklistOptions {
  /** The intent every parsed todo gets (a checklist line has none). Default `'narrate'`. */
  intent?: TodoIntent;
  /** The size limit in UTF-8 bytes. Default {@link CHECKLIST_MAX_BYTES} (64 KiB). */
  maxBytes?: number;
}

// A list item (`-`, `*`, `+`, `1.` or `1)`), then a one-character box and the item's text.
// `s`: U+2028/U+2029 are text here (lines are split on \r and \n only), so `.` must match them.
const ITEM = /^[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+\[([ xX~/])\](?:[ \t]+(.*))?$/s;
// A code fence of three or more backticks or tildes, at any indentation (fences inside list items are indented).
const FENCE = /^[ \t]*(`{3,}|~{3,})(.*)$/s;

const MARKERS: Record<string, TodoStatus> = { ' ': 'pending', x: 'completed', X: 'completed', '~': 'in_progress', '/': 'in_progress' };
const BOXES: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

/**
 * Reads the todos of a `plan.md` checklist, in document order.
 *
 * - `[ ]` is pending, `[x]`/`[X]` completed, `[~]` in progress (`[/]`, the Obsidian Tasks marker, too).
 * - Any list marker counts: `-`, `*`, `+` bullets and numbered items (`1.`, `1)`), as GitHub renders
 *   all of them as task lists. Nested (indented) items are read as part of the same flat list.
 * - Text is trimmed; items with no text, other boxes (`[-]`), other markdown, blockquoted items and
 *   every line inside a ``` or ~~~ fence are ignored. An unclosed fence runs to the end.
 * - A file over `maxBytes` (64 KiB) gives no todos and a `checklist_too_large` warning. An empty
 *   file gives an empty list. A leading byte order mark is skipped; a `text` that is not a string
 *   throws a `ValidationError` (`invalid_input`).
 *
 * @example
 * ```ts
 * parseChecklist('- [x] Open pricing\n- [ ] Explain the tiers').todos;
 * // [{ intent: 'narrate', description: 'Open pricing', status: 'completed' },
 * //  { intent: 'narrate', description: 'Explain the tiers', status: 'pending' }]
 * ```
 */
export function parseChecklist(text: string, options: ChecklistOptions = {}): ParsedChecklist {
  const { intent = 'narrate', maxBytes = CHECKLIST_MAX_BYTES } = options;
  if (typeof text !== 'string') {
    const shown = String(JSON.stringify(text) ?? text).slice(0, 40);
    throw new ValidationError('invalid_input', `The checklist text must be a string (the contents of plan.md), not ${shown}.`, {
      issues: [{ path: '', message: 'must be a string' }],
    });
  }
  // Windows editors save plan.md with a byte order mark, and readFileSync(…, 'utf8') keeps it:
  // it would stick to the first line and hide its item.
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const bytes = new TextEncoder().encode(text).byteLength;
  if (bytes > maxBytes) {
    return {
      todos: [],
      warnings: [
        {
          code: 'checklist_too_large',
          message: `The checklist is ${bytes} bytes, over the ${maxBytes}-byte limit, so it seeded no todos. Shorten it, or split it into smaller plans.`,
        },
      ],
    };
  }
  const todos: ChecklistTodo[] = [];
  let fence: { char: string; length: number } | undefined;
  for (const line of text.split(/\r\n|\n|\r/)) {
    const [, run = '', info = ''] = FENCE.exec(line) ?? [];
    if (fence) {
      // Only a bare fence of the same character, at least as long, closes the block.
      if (run[0] === fence.char && run.length >= fence.length && info.trim() === '') fence = undefined;
      continue;
    }
    // A backtick fence's info string may not contain a backtick (CommonMark); then it is not a fence.
    if (run && !(run[0] === '`' && info.includes('`'))) {
      fence = { char: run[0] as string, length: run.length };
      continue;
    }
    const item = ITEM.exec(line);
    const description = item?.[2]?.trim();
    if (!item || !description) continue;
    todos.push({ intent, description, status: MARKERS[item[1] as string] as TodoStatus });
  }
  return { todos, warnings: [] };
}

/**
 * Writes todos as a checklist, one `- [ ]`, `- [~]` or `- [x]` line each (line breaks inside a
 * description become spaces). Parsing the result gives the same descriptions and statuses back.
 *
 * @example
 * ```ts
 * toChecklist(plan.todos.list()); // '- [x] Open pricing\n- [~] Explain the tiers\n'
 * ```
 */
export function toChecklist(todos: ReadonlyArray<Pick<TodoItem, 'description' | 'status'>>): string {
  return todos.map((todo) => `- ${Object.hasOwn(BOXES, todo.status) ? BOXES[todo.status] : BOXES.pending} ${oneLine(todo.description)}\n`).join('');
}

/**
 * Each run of whitespace holding a line break becomes one space. Whitespace runs are matched
 * whole (`\s+`), not as `\s*[\r\n]+\s*`, which backtracks quadratically over long runs of spaces.
 */
function oneLine(text: string): string {
  return text.trim().replace(/\s+/g, (run) => (run.includes('\n') || run.includes('\r') ? ' ' : run));
}

/** What {@link seedFromChecklist} did. */
export interface ChecklistSeedResult {
  /** `false` when the file was too large and the plan was left as it was. */
  seeded: boolean;
  /** The plan's todos after seeding (fresh ids). */
  todos: TodoItem[];
  warnings: ChecklistWarning[];
}

/**
 * Seeds a plan from a `plan.md` checklist: its todos replace the plan's (fresh ids, never reused),
 * then `plan-update` is emitted with source `'checklist'`. An empty checklist empties the plan
 * and planning stays on. A file over 64 KiB seeds nothing: the plan is untouched and a
 * `plan-warning` (`checklist_too_large`) is emitted. The checklist is a seed only: later changes
 * to the plan are not written back to it (use {@link toChecklist} for that).
 *
 * @example
 * ```ts
 * const { todos } = seedFromChecklist(plan, await (await fetch('/plan.md')).text());
 * ```
 */
export function seedFromChecklist(plan: Plan, text: string, options: ChecklistOptions = {}): ChecklistSeedResult {
  const { todos, warnings } = parseChecklist(text, options);
  for (const warning of warnings) emitPlanEvent(plan, 'plan-warning', warning);
  if (warnings.length > 0) return { seeded: false, todos: plan.todos.list(), warnings };
  const seeded = plan.todos.reset(todos);
  emitPlanEvent(plan, 'plan-update', { todos: seeded, source: 'checklist' });
  return { seeded: true, todos: seeded, warnings };
}
