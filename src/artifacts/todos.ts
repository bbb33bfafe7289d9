import { z } from 'zod/mini';
import { TypedEmitter, type Unsubscribe } from '../emitter.js';
import { ValidationError, type ValidationIssue } from '../errors.js';
import { formatIssues, toIssues } from '../validation.js';
import { IdSequence } from './id-sequence.js';

/**
 * The statuses a todo moves through.
 *
 * @example
 * ```ts
 * TODO_STATUSES.includes(value as TodoStatus); // is it a status?
 * ```
 */
export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;

/** Where a todo stands. */
export type TodoStatus = (typeof TODO_STATUSES)[number];

/** The intents planloop's prompts name; any other non-empty string is allowed too. */
export type TodoIntent = 'navigate' | 'narrate' | 'click' | 'fill' | 'ask' | 'finish' | (string & {});

/**
 * One step of a plan.
 *
 * @example
 * ```ts
 * const item: TodoItem = { id: 't1', intent: 'navigate', description: 'Open the pricing page', status: 'pending', expected_turn: 1 };
 * ```
 */
export interface TodoItem {
  /** `t1`, `t2`, … assigned on create; never reused within a plan. */
  id: string;
  intent: TodoIntent;
  /** User-facing: what the user will see happen. */
  description: string;
  /** Defaults to `pending`. */
  status: TodoStatus;
  /** 1-based: the turn the planner expects to do this in. */
  expected_turn?: number;
}

/** What `create`/`createMany` take: a todo without its id; `status` defaults to `pending`. */
export interface TodoInput {
  intent: TodoIntent;
  description: string;
  status?: TodoStatus;
  expected_turn?: number;
}

/** What `reset` takes: a todo whose id is kept when given, assigned when not. */
export interface TodoSeed extends TodoInput {
  id?: string;
}

/** What `edit` takes: any fields but the id. */
export type TodoPatch = Partial<Omit<TodoItem, 'id'>> & { id?: string };

const text = z.string().check(z.trim(), z.minLength(1));

/** The zod schema of a stored or created todo (ids optional, status defaulted). */
export const TodoSeedSchema = z.object({
  id: z.optional(text),
  intent: text,
  description: text,
  status: z._default(z.enum(TODO_STATUSES), 'pending'),
  expected_turn: z.optional(z.int().check(z.positive())),
});

/** What changed in one mutation, as `onChange` reports it. */
export type TodosChange =
  | { type: 'create'; items: TodoItem[] }
  | { type: 'edit'; items: TodoItem[]; previous: TodoItem[] }
  | { type: 'delete'; ids: string[] }
  | { type: 'reset'; items: TodoItem[] }
  | { type: 'hydrate'; items: TodoItem[] };

/** The payload of `todos.onChange` and the plan's `todos-change` event. */
export interface TodosChangeEvent {
  /** A copy of the whole list after the change. */
  readonly todos: TodoItem[];
  readonly change: TodosChange;
}

const copy = (item: TodoItem): TodoItem => ({ ...item });

/**
 * The plan's ordered todo list. Every read returns a copy; every mutation validates first and
 * applies all of itself or nothing, then fires `onChange` once.
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
  #items: TodoItem[] = [];
  readonly #ids = new IdSequence('t');
  readonly #events = new TypedEmitter<{ change: TodosChangeEvent }>({ ordered: true });

  /** Every todo in order, completed ones included. */
  list(): TodoItem[] {
    return this.#items.map(copy);
  }

  /** The todos not yet completed, in order: what the per-turn prompt shows. */
  remaining(): TodoItem[] {
    return this.#items.filter((item) => item.status !== 'completed').map(copy);
  }

  /** The todo with `id`, or `null`. */
  get(id: string): TodoItem | null {
    const item = this.#find(id);
    return item ? copy(item) : null;
  }

  /** Appends one todo with a fresh id; throws {@link ValidationError} on bad input. */
  create(item: TodoInput): TodoItem {
    const [created] = this.createMany([item]);
    return created as TodoItem;
  }

  /** Appends several todos, all or none; the error names the index of each bad item. */
  createMany(items: readonly TodoInput[]): TodoItem[] {
    const parsed = parseSeeds(items, 'Cannot create todos');
    const created = parsed.map(({ id: _ignored, ...item }) => ({ ...item, id: this.#ids.next() }) as TodoItem);
    if (created.length === 0) return [];
    this.#items = [...this.#items, ...created];
    this.#emit({ type: 'create', items: created.map(copy) });
    return created.map(copy);
  }

  /**
   * Changes one todo. The id never changes (an `id` in the patch is ignored); the merged item is
   * validated. Returns the new todo, or `null` for an unknown id (and fires nothing).
   */
  edit(id: string, patch: TodoPatch): TodoItem | null {
    if (!this.#find(id)) return null;
    const [edited] = this.editMany([{ id, patch }]);
    return edited ?? null;
  }

  /**
   * Changes several todos at once, all or none, with one `onChange`. Unknown ids throw
   * {@link ValidationError}: callers filter first (as `plan.adjust` does).
   */
  editMany(edits: ReadonlyArray<{ id: string; patch: TodoPatch }>): TodoItem[] {
    if (!Array.isArray(edits)) {
      throw new ValidationError('Cannot edit todos: expected an array of { id, patch }.', [{ path: '(root)', message: 'must be an array' }]);
    }
    const next = [...this.#items];
    // One lookup table, not a scan per edit: a turn that edits many todos of a long plan stays linear.
    const positions = new Map(next.map((item, position) => [item.id, position]));
    const issues: ValidationIssue[] = [];
    const previous: TodoItem[] = [];
    const edited: TodoItem[] = [];
    const changed: TodoItem[] = [];
    edits.forEach((entry, index) => {
      const { id, patch } = (entry ?? {}) as { id?: string; patch?: TodoPatch };
      const position = id === undefined ? -1 : (positions.get(id) ?? -1);
      const current = next[position];
      if (id === undefined || !current) {
        issues.push({ path: `[${index}].id`, message: `"${String(id)}" is not a todo of this plan` });
        return;
      }
      if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
        issues.push({ path: `[${index}].patch`, message: 'must be an object of the fields to change' });
        return;
      }
      const merged = { ...current, ...definedOnly(patch), id };
      const result = TodoSeedSchema.safeParse(merged);
      if (!result.success) {
        issues.push(...toIssues(result.error.issues, [index], merged));
        return;
      }
      const item = { ...result.data, id } as TodoItem;
      edited.push(item);
      if (sameTodo(item, current)) return; // nothing to change: no event, no save
      previous.push(copy(current));
      changed.push(item);
      next[position] = item;
    });
    if (issues.length > 0) throw new ValidationError(`Cannot edit todos: ${formatIssues(issues)}.`, issues);
    if (changed.length > 0) {
      this.#items = next;
      this.#emit({ type: 'edit', items: changed.map(copy), previous });
    }
    return edited.map(copy);
  }

  /** Removes a todo. Its id is retired for good. Returns `false` for an unknown id. */
  delete(id: string): boolean {
    if (!this.#find(id)) return false;
    this.#items = this.#items.filter((item) => item.id !== id);
    this.#emit({ type: 'delete', ids: [id] });
    return true;
  }

  /**
   * Replaces the whole list (empty when `items` is omitted), all or none. Given ids are kept and
   * must be unique; missing ids are assigned after the highest id ever seen.
   */
  reset(items: readonly TodoSeed[] = []): TodoItem[] {
    const next = this.#withIds(parseSeeds(items, 'Cannot reset todos'));
    this.#items = next;
    this.#emit({ type: 'reset', items: next.map(copy) });
    return next.map(copy);
  }

  /** Subscribes to every successful mutation; returns the function that unsubscribes. */
  onChange(listener: (event: TodosChangeEvent) => void): Unsubscribe {
    return this.#events.on('change', listener);
  }

  /** The id counter, persisted in snapshots so deleted ids stay retired across reloads. */
  get lastId(): number {
    return this.#ids.last;
  }

  /**
   * Loads stored todos (ids and statuses exactly as stored) ahead of any todos created before
   * hydration finished. Used by `Plan`; hosts call `reset` instead.
   *
   * @internal
   */
  hydrate(stored: readonly TodoItem[], lastId: number, options: { keepLocalOnly: boolean }): void {
    // The stored plan's high-water mark: every id at or below it was handed out before the reload.
    const storedLast = stored.reduce((high, item) => Math.max(high, this.#ids.numberOf(item.id) ?? 0), lastId);
    this.#ids.advanceTo(storedLast);
    // The list stays exactly as the reset left it: nothing changed, so nothing to report.
    if (options.keepLocalOnly) return;
    const taken = new Set(stored.map((item) => item.id));
    // A local id the stored plan has, or had and deleted, gets a fresh one: ids are never reused.
    const retired = (id: string): boolean => taken.has(id) || (this.#ids.numberOf(id) ?? Number.POSITIVE_INFINITY) <= storedLast;
    let renamed = false;
    const local = this.#items.map((item) => {
      if (!retired(item.id)) return item;
      renamed = true;
      return { ...item, id: this.#ids.next() };
    });
    const merged = [...stored.map(copy), ...local];
    this.#items = merged;
    for (const item of merged) this.#ids.observe(item.id);
    if (stored.length > 0 || renamed) this.#emit({ type: 'hydrate', items: merged.map(copy) });
  }

  #withIds(items: TodoSeed[]): TodoItem[] {
    for (const item of items) if (item.id) this.#ids.observe(item.id);
    return items.map((item) => ({ ...item, id: item.id ?? this.#ids.next() }) as TodoItem);
  }

  #find(id: string): TodoItem | undefined {
    return this.#items.find((item) => item.id === id);
  }

  #emit(change: TodosChange): void {
    // An ordered emitter: a listener that mutates this artifact re-enters here, and its event waits
    // behind the current one, so every listener sees the changes in order and ends on the newest state.
    this.#events.emit('change', { todos: this.list(), change });
  }

}

/** Validates a batch; throws one {@link ValidationError} naming every bad field by index. */
function parseSeeds(items: readonly unknown[], what: string): TodoSeed[] {
  if (!Array.isArray(items)) {
    throw new ValidationError(`${what}: expected an array of todos.`, [{ path: '(root)', message: 'must be an array' }]);
  }
  const issues: ValidationIssue[] = [];
  const parsed: TodoSeed[] = [];
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const result = TodoSeedSchema.safeParse(item);
    if (!result.success) {
      issues.push(...toIssues(result.error.issues, [index], item));
      return;
    }
    const { id } = result.data;
    if (id !== undefined) {
      if (seen.has(id)) issues.push({ path: `[${index}].id`, message: `repeats id "${id}"; ids must be unique` });
      seen.add(id);
    }
    parsed.push(stripUndefined(result.data) as TodoSeed);
  });
  if (issues.length > 0) throw new ValidationError(`${what}: ${formatIssues(issues)}.`, issues);
  return parsed;
}

/** Drops keys whose value is `undefined`, so a patch `{ expected_turn: undefined }` keeps the old value. */
function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function stripUndefined<T extends object>(value: T): T {
  return definedOnly(value) as T;
}

/** Whether two todos hold the same values (an edit from one to the other changes nothing). */
function sameTodo(a: TodoItem, b: TodoItem): boolean {
  return a.intent === b.intent && a.description === b.description && a.status === b.status && a.expected_turn === b.expected_turn;
}
