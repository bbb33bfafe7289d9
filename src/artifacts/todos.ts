import type { Unsubscribe } from '../emitter.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { definedEntries, isRecord, pathOf, readInteger, readOneOf, readRecord, readText } from '../guards.js';
import { readTodoCheck, sameTodoCheck, type TodoCheck } from '../todo-check.js';
import {
  TODO_EVIDENCE,
  TODO_STATUSES,
  type PlanState,
  type PlanStateHost,
  type TodoEvidence,
  type TodoIntent,
  type TodoItem,
  type TodosChange,
  type TodoStatus,
} from '../plan-state.js';
import { formatIssues } from '../validation.js';
import { advancedPast, nextIds } from './id-sequence.js';

export { TODO_STATUSES, type TodoIntent, type TodoItem, type TodosChange, type TodoStatus } from '../plan-state.js';
export type { TodoCheck, TodoEvidence } from '../plan-state.js';

/** What `create`/`createMany` take: a todo without its id; `status` defaults to `pending`. */
export interface TodoInput {
  intent: TodoIntent;
  description: string;
  status?: TodoStatus;
  expected_turn?: number;
  /**
   * What must be true for it to be done, checked by a run (see `TodoCheck`; `parseTodoCheck` reads
   * the compact text `'see button "Start trial"'`). A malformed check is a `ValidationError` naming
   * `[i].check`. Default none: a run derives one from the intent where it can.
   */
  check?: TodoCheck;
}

/** What `reset` takes: a todo whose id is kept when given, assigned when not (and its mark, from storage). */
export interface TodoSeed extends TodoInput {
  id?: string;
  /** The model rewrote it and the user has not approved the new text (see `TodoItem.rewritten`). */
  rewritten?: true;
  /** What a run found about it (see `TodoItem.evidence`): kept from storage. */
  evidence?: TodoEvidence;
}

/**
 * What `edit` takes: any fields but the id (an `id` in a patch is ignored). An edit that changes
 * the description or intent without naming `rewritten` clears the mark (the user's own edit);
 * `rewritten: false` clears it too.
 */
export type TodoPatch = Partial<Omit<TodoItem, 'id' | 'rewritten' | 'check' | 'evidence'>> & {
  id?: string;
  rewritten?: boolean;
  /** A new check, or `null` to remove it. */
  check?: TodoCheck | null;
  /** What a run found (set by the loop); `null` clears it. A status change without it clears it too. */
  evidence?: TodoEvidence | null;
};

/** The payload of `todos.onChange` and the plan's `todos-change` event. */
export interface TodosChangeEvent {
  /** A copy of the whole list after the change. */
  readonly todos: TodoItem[];
  readonly change: TodosChange;
}

/**
 * The longest todo fields, in characters: a description is one user-facing line, an intent one
 * word. Longer input (a model that pasted a page into a todo) is refused, not stored. The caps
 * apply to what is written now (by the model, the host or the user); a plan stored before they
 * existed (0.1 had none) opens as it was, and its long todos stay usable.
 *
 * @example
 * ```ts
 * declare const description: string; // what the user typed
 * description.length <= TODO_LIMITS.description;
 * ```
 */
export const TODO_LIMITS = { description: 1000, intent: 40, id: 64 } as const;

/**
 * Checks one todo (an id is optional; a missing status becomes `pending`) and pushes what is
 * wrong under `path`. Returns the todo to keep: trimmed, without `undefined` fields. `limits`
 * are the caps to hold the text fields to: {@link TODO_LIMITS} by default; a stored snapshot is
 * read with none, and an edit caps only the fields it writes.
 *
 * @example
 * ```ts
 * const issues: ValidationIssue[] = [];
 * readTodoSeed({ intent: 'narrate', description: ' Hi ' }, '[0]', issues); // { intent: 'narrate', description: 'Hi', status: 'pending' }
 * ```
 */
export function readTodoSeed(value: unknown, path: string, issues: ValidationIssue[], limits: Partial<typeof TODO_LIMITS> = TODO_LIMITS): TodoSeed {
  const record = readRecord(value, path, issues);
  if (!record) return { intent: '', description: '' };
  const cap = (field: keyof typeof TODO_LIMITS) => (limits[field] === undefined ? {} : { max: limits[field] });
  const item: TodoSeed = {
    intent: readText(record.intent, pathOf(path, 'intent'), issues, cap('intent')),
    description: readText(record.description, pathOf(path, 'description'), issues, cap('description')),
    status: record.status === undefined ? 'pending' : readOneOf(record.status, TODO_STATUSES, pathOf(path, 'status'), issues),
  };
  if (record.id !== undefined) item.id = readText(record.id, pathOf(path, 'id'), issues, cap('id'));
  if (record.expected_turn !== undefined) item.expected_turn = readInteger(record.expected_turn, pathOf(path, 'expected_turn'), issues, 1);
  // Only a clear mark is kept: anything else (false, a string from storage) means not rewritten.
  if (record.rewritten === true) item.rewritten = true;
  if (record.check !== undefined && record.check !== null) {
    const check = readTodoCheck(record.check, pathOf(path, 'check'), issues);
    if (check) item.check = check;
  }
  // Only a known finding is kept (as the rewritten mark): anything else means none.
  if (typeof record.evidence === 'string' && (TODO_EVIDENCE as readonly string[]).includes(record.evidence)) item.evidence = record.evidence as TodoEvidence;
  return item;
}

/** Validates a batch; throws one {@link ValidationError} naming every bad field by index. */
function readSeeds(items: unknown, what: string): TodoSeed[] {
  const issues: ValidationIssue[] = [];
  if (!Array.isArray(items))
    throw new ValidationError('invalid_input', `${what}: expected an array of todos.`, { issues: [{ path: '(root)', message: 'must be an array' }] });
  const seen = new Set<string>();
  const seeds = items.map((item, index) => {
    const seed = readTodoSeed(item, `[${index}]`, issues);
    if (seed.id !== undefined && seed.id !== '') {
      if (seen.has(seed.id)) issues.push({ path: `[${index}].id`, message: `repeats id "${seed.id}"; ids must be unique` });
      seen.add(seed.id);
    }
    return seed;
  });
  if (issues.length > 0) throw new ValidationError('invalid_input', `${what}: ${formatIssues(issues)}.`, { issues });
  return seeds;
}

/** Whether two todos hold the same values (an edit from one to the other changes nothing). */
function sameTodo(a: TodoItem, b: TodoItem): boolean {
  return (
    a.id === b.id &&
    a.intent === b.intent &&
    a.description === b.description &&
    a.status === b.status &&
    a.expected_turn === b.expected_turn &&
    a.rewritten === b.rewritten &&
    a.evidence === b.evidence &&
    sameTodoCheck(a.check, b.check)
  );
}

const freeze = (item: TodoItem): TodoItem => Object.freeze(item);
const copy = (item: TodoItem): TodoItem => ({ ...item });

/**
 * Appends todos with fresh ids: the pure step behind `todos.createMany`.
 *
 * @example
 * ```ts
 * const { state, created } = appendTodos(plan.state, [{ intent: 'narrate', description: 'Say hi' }]);
 * ```
 */
export function appendTodos(state: PlanState, inputs: unknown): { state: PlanState; created: TodoItem[] } {
  const seeds = readSeeds(inputs, 'Cannot create todos');
  const { ids, last } = nextIds('t', state.lastIds.todos, seeds.length);
  const created = seeds.map(({ id: _ignored, ...seed }, index) => freeze({ ...seed, id: ids[index] as string } as TodoItem));
  return { state: { ...state, todos: [...state.todos, ...created], lastIds: { ...state.lastIds, todos: last } }, created };
}

/**
 * Changes several todos at once, all or none: the pure step behind `todos.editMany` and
 * `plan.adjust`. Unknown ids and bad fields throw one {@link ValidationError} naming each by index.
 * `changed` holds only the todos whose values differ (an edit to the same values changes nothing).
 *
 * @example
 * ```ts
 * const { state, changed } = editTodos(plan.state, [{ id: 't1', patch: { status: 'completed' } }]);
 * ```
 */
export function editTodos(
  state: PlanState,
  edits: ReadonlyArray<{ id: string; patch: TodoPatch }>,
): { state: PlanState; edited: TodoItem[]; changed: TodoItem[]; previous: TodoItem[] } {
  if (!Array.isArray(edits)) {
    throw new ValidationError('invalid_input', 'Cannot edit todos: expected an array of { id, patch }.', {
      issues: [{ path: '(root)', message: 'must be an array' }],
    });
  }
  const next = [...state.todos];
  // One lookup table, not a scan per edit: a turn that edits many todos of a long plan stays linear.
  const positions = new Map(next.map((item, position) => [item.id, position]));
  const issues: ValidationIssue[] = [];
  const edited: TodoItem[] = [];
  const changed: TodoItem[] = [];
  const previous: TodoItem[] = [];
  edits.forEach((entry, index) => {
    const { id, patch } = (isRecord(entry) ? entry : {}) as { id?: unknown; patch?: unknown };
    const position = typeof id === 'string' ? positions.get(id) : undefined;
    const current = position === undefined ? undefined : next[position];
    if (!current || position === undefined) {
      issues.push({ path: `[${index}].id`, message: `"${String(id)}" is not a todo of this plan` });
      return;
    }
    if (!isRecord(patch)) {
      issues.push({ path: `[${index}].patch`, message: 'must be an object of the fields to change' });
      return;
    }
    // Caps hold what this edit writes, not text stored before the caps existed.
    const written = definedEntries(patch);
    const limits = Object.fromEntries(Object.entries(TODO_LIMITS).filter(([field]) => field in written));
    // A new text that does not say it is the model's (the user's or the host's edit) is approved text.
    const retold =
      (written.description !== undefined && written.description !== current.description) || (written.intent !== undefined && written.intent !== current.intent);
    const mark = retold && !('rewritten' in written) ? { rewritten: false } : {};
    // A finding is about the status it was made for: a new status without one clears it.
    const finding = written.status !== undefined && written.status !== current.status && !('evidence' in written) ? { evidence: null } : {};
    // `null` removes a check or a finding (definedEntries dropped it from `written`).
    const removed = { ...(patch.check === null ? { check: null } : {}), ...(patch.evidence === null ? { evidence: null } : {}) };
    const seed = readTodoSeed({ ...current, ...written, ...mark, ...finding, ...removed, id: current.id }, `[${index}]`, issues, limits);
    const item = freeze({ ...seed, id: current.id } as TodoItem);
    edited.push(item);
    if (sameTodo(item, current)) return; // nothing to change: no event, no save
    previous.push(current);
    changed.push(item);
    next[position] = item;
  });
  if (issues.length > 0) throw new ValidationError('invalid_input', `Cannot edit todos: ${formatIssues(issues)}.`, { issues });
  return { state: changed.length > 0 ? { ...state, todos: next } : state, edited, changed, previous };
}

/**
 * Moves one todo to another place in the list: the pure step behind `todos.move`. `toIndex` is the
 * todo's index afterwards, clamped to the list; ids, statuses and every other todo stay as they
 * were. Returns `null` for an unknown id; throws {@link ValidationError} for an index that is not
 * a whole number. When the todo is already there, `state` comes back unchanged.
 *
 * @example
 * ```ts
 * const step = moveTodo(plan.state, 't3', 0); // t3 first, the others after it in their order
 * ```
 */
export function moveTodo(state: PlanState, id: string, toIndex: number): { state: PlanState; from: number; to: number } | null {
  if (!Number.isSafeInteger(toIndex)) {
    throw new ValidationError('invalid_input', `Cannot move todo ${String(id)}: the index must be a whole number, not ${String(toIndex)}.`, {
      issues: [{ path: 'toIndex', message: 'must be an integer' }],
    });
  }
  const from = state.todos.findIndex((item) => item.id === id);
  if (from < 0) return null;
  const to = Math.min(Math.max(0, toIndex), state.todos.length - 1);
  if (to === from) return { state, from, to };
  const todos = [...state.todos];
  const [item] = todos.splice(from, 1);
  todos.splice(to, 0, item as TodoItem);
  return { state: { ...state, todos }, from, to };
}

/**
 * Replaces the whole list, all or none: the pure step behind `todos.reset` and a new plan. Given
 * ids are kept (and must be unique); missing ids are assigned after the highest id ever seen.
 *
 * @example
 * ```ts
 * const { state, items } = replaceTodos(plan.state, [{ intent: 'narrate', description: 'Say hi' }]);
 * ```
 */
export function replaceTodos(state: PlanState, seeds: unknown): { state: PlanState; items: TodoItem[] } {
  const parsed = readSeeds(seeds, 'Cannot reset todos');
  const observed = advancedPast(
    't',
    state.lastIds.todos,
    parsed.flatMap((seed) => (seed.id ? [seed.id] : [])),
  );
  const { ids, last } = nextIds('t', observed, parsed.filter((seed) => !seed.id).length);
  let fresh = 0;
  const items = parsed.map((seed) => freeze({ ...seed, id: seed.id || (ids[fresh++] as string) } as TodoItem));
  return { state: { ...state, todos: items, lastIds: { ...state.lastIds, todos: last } }, items };
}

/**
 * The plan's ordered todo list: a thin view of `plan.state.todos`. Every read returns a copy; every
 * mutation validates first and commits all of itself or nothing as one change of the plan, then
 * fires `onChange` once.
 *
 * @example
 * ```ts
 * const [first] = plan.todos.createMany([
 *   { intent: 'navigate', description: 'Open pricing' },
 *   { intent: 'narrate', description: 'Explain the tiers' },
 * ]);
 * plan.todos.edit(first.id, { status: 'completed' });
 * plan.todos.list().map((todo) => todo.status); // ['completed', 'pending']
 * ```
 */
export class TodosArtifact {
  readonly #host: PlanStateHost;
  readonly #subscribe: (listener: (event: TodosChangeEvent) => void) => Unsubscribe;

  /** Made by `Plan`; hosts use `plan.todos`. */
  constructor(host: PlanStateHost, subscribe: (listener: (event: TodosChangeEvent) => void) => Unsubscribe) {
    this.#host = host;
    this.#subscribe = subscribe;
  }

  /** Every todo in order, completed ones included. */
  list(): TodoItem[] {
    return this.#host.state.todos.map(copy);
  }

  /** The todos not yet completed, in order: what the per-turn prompt shows. */
  remaining(): TodoItem[] {
    return this.#host.state.todos.filter((item) => item.status !== 'completed').map(copy);
  }

  /** The todo with `id`, or `null`. */
  get(id: string): TodoItem | null {
    const item = this.#host.state.todos.find((todo) => todo.id === id);
    return item ? copy(item) : null;
  }

  /** Appends one todo with a fresh id; throws {@link ValidationError} on bad input. */
  create(item: TodoInput): TodoItem {
    return this.createMany([item])[0] as TodoItem;
  }

  /** Appends several todos, all or none; the error names the index of each bad item. */
  createMany(items: readonly TodoInput[]): TodoItem[] {
    let created: TodoItem[] = [];
    this.#host.update((state) => {
      const step = appendTodos(state, items);
      created = step.created;
      return created.length === 0 ? null : { state: step.state, meta: { origin: 'host', todos: { type: 'create', items: created.map(copy) } } };
    });
    return created.map(copy);
  }

  /**
   * Changes one todo. The id never changes (an `id` in the patch is ignored); the merged item is
   * validated. Returns the new todo, or `null` for an unknown id (and fires nothing).
   */
  edit(id: string, patch: TodoPatch): TodoItem | null {
    if (!this.#host.state.todos.some((todo) => todo.id === id)) return null;
    return this.editMany([{ id, patch }])[0] ?? null;
  }

  /**
   * Changes several todos at once, all or none, with one `onChange`. Unknown ids throw
   * {@link ValidationError}: callers filter first (as `plan.adjust` does).
   */
  editMany(edits: ReadonlyArray<{ id: string; patch: TodoPatch }>): TodoItem[] {
    let edited: TodoItem[] = [];
    this.#host.update((state) => {
      const step = editTodos(state, edits);
      edited = step.edited;
      if (step.changed.length === 0) return null;
      return { state: step.state, meta: { origin: 'host', todos: { type: 'edit', items: step.changed.map(copy), previous: step.previous.map(copy) } } };
    });
    return edited.map(copy);
  }

  /** Removes a todo. Its id is retired for good. Returns `false` for an unknown id. */
  delete(id: string): boolean {
    let found = false;
    this.#host.update((state) => {
      const todos = state.todos.filter((item) => item.id !== id);
      found = todos.length !== state.todos.length;
      return found ? { state: { ...state, todos }, meta: { origin: 'host', todos: { type: 'delete', ids: [id] } } } : null;
    });
    return found;
  }

  /**
   * Moves a todo so that it ends up at `toIndex` (0 is first; an index past either end means that
   * end), keeping its id, status and fields: for a user reordering a plan before it runs. One
   * `onChange` of type `move`; none when it is already there. Returns `false` for an unknown id;
   * throws {@link ValidationError} for an index that is not a whole number.
   */
  move(id: string, toIndex: number): boolean {
    let found = false;
    this.#host.update((state) => {
      const step = moveTodo(state, id, toIndex);
      found = step !== null;
      if (!step || step.state === state) return null;
      return { state: step.state, meta: { origin: 'host', todos: { type: 'move', id, from: step.from, to: step.to } } };
    });
    return found;
  }

  /**
   * Replaces the whole list (empty when `items` is omitted), all or none. Given ids are kept and
   * must be unique; missing ids are assigned after the highest id ever seen. The plan's summary and
   * task are cleared in the same change: they described the todos that are gone (`setTaskPlan`
   * replaces the todos with a new summary instead).
   */
  reset(items: readonly TodoSeed[] = []): TodoItem[] {
    let replaced: TodoItem[] = [];
    this.#host.update((state) => {
      const step = replaceTodos(state, items);
      replaced = step.items;
      return { state: { ...step.state, summary: '', task: '' }, meta: { origin: 'host', todos: { type: 'reset', items: replaced.map(copy) } } };
    });
    return replaced.map(copy);
  }

  /** Subscribes to every change of the todos; returns the function that unsubscribes. */
  onChange(listener: (event: TodosChangeEvent) => void): Unsubscribe {
    return this.#subscribe(listener);
  }

  /** The id counter, stored with the plan so deleted ids stay retired across reloads. */
  get lastId(): number {
    return this.#host.state.lastIds.todos;
  }
}
