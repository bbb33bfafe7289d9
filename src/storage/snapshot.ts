import { z } from 'zod/mini';
import { MarkdownDocSchema, type MarkdownDoc } from '../artifacts/markdown.js';
import { TodoSeedSchema, type TodoItem } from '../artifacts/todos.js';
import { StorageError, type ValidationIssue } from '../errors.js';
import { formatIssues, toIssues } from '../validation.js';

/**
 * The snapshot format this version writes. Older formats are migrated on load.
 *
 * @example
 * ```ts
 * const stale = (snapshot.version ?? 0) < SNAPSHOT_VERSION;
 * ```
 */
export const SNAPSHOT_VERSION = 1;

/**
 * Everything a plan persists. Extra keys are kept as they are.
 *
 * @example
 * ```ts
 * const snapshot: PlanSnapshot = { version: 1, todos: [], markdownDocs: [] };
 * ```
 */
export interface PlanSnapshot {
  version?: number;
  todos: TodoItem[];
  markdownDocs: MarkdownDoc[];
  /** The highest ids ever handed out, so deleted ids stay retired across reloads. */
  lastIds?: { todos: number; markdown: number };
  /** The one-sentence summary of the plan the todos came from (`makeTodos`), when there is one. */
  taskSummary?: string;
  /** The user's task the todos were planned for, when known. */
  task?: string;
  [extra: string]: unknown;
}

/**
 * Where a plan persists. `load` may return the stored value unvalidated: the plan validates it.
 * `backup` (optional) keeps unusable stored data aside before the plan writes over it.
 *
 * @example
 * ```ts
 * const storage: PlanStorageAdapter = {
 *   load: () => JSON.parse(sessionStorage.getItem('plan') ?? 'null'),
 *   save: (snapshot) => sessionStorage.setItem('plan', JSON.stringify(snapshot)),
 * };
 * ```
 */
export interface PlanStorageAdapter {
  load(): Promise<PlanSnapshot | null> | PlanSnapshot | null;
  save(snapshot: PlanSnapshot): Promise<void> | void;
  backup?(raw: unknown, reason: string): Promise<void> | void;
}

const StoredTodoSchema = z.extend(TodoSeedSchema, { id: z.string().check(z.trim(), z.minLength(1)) });

const SnapshotSchema = z.looseObject({
  version: z.optional(z.int().check(z.nonnegative())),
  todos: z._default(z.array(StoredTodoSchema), []),
  markdownDocs: z._default(z.array(MarkdownDocSchema), []),
  // Keys added later than the format: a value of another kind (a host's own key of that name, from
  // before planloop used it) is dropped rather than making the whole stored plan unreadable.
  taskSummary: z.catch(z.optional(z.string()), undefined),
  task: z.catch(z.optional(z.string()), undefined),
  lastIds: z.optional(
    z.object({ todos: z.int().check(z.nonnegative()), markdown: z.int().check(z.nonnegative()) }),
  ),
});

/** The result of {@link safeParseSnapshot}. */
export type SnapshotParseResult =
  | { success: true; data: PlanSnapshot }
  | { success: false; error: StorageError; issues: ValidationIssue[] };

/**
 * Validates stored data and migrates older formats, including the bare `{ todos, markdownDocs }`
 * of the original Plan module (no version, todos without status: they become `pending`).
 * Throws {@link StorageError} naming every problem.
 *
 * @example
 * ```ts
 * const snapshot = parseSnapshot(JSON.parse(localStorage.getItem('planloop') ?? '{}'));
 * ```
 */
export function parseSnapshot(raw: unknown): PlanSnapshot {
  const result = safeParseSnapshot(raw);
  if (!result.success) throw result.error;
  return result.data;
}

/**
 * Like {@link parseSnapshot}, but returns `{ success, data | error }` instead of throwing.
 *
 * @example
 * ```ts
 * const result = safeParseSnapshot(stored);
 * if (!result.success) console.warn(result.error.message);
 * ```
 */
export function safeParseSnapshot(raw: unknown): SnapshotParseResult {
  const fail = (message: string, issues: ValidationIssue[] = []): SnapshotParseResult => ({
    success: false,
    error: new StorageError('load', message, { raw }),
    issues,
  });
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return fail(`Stored plan is not an object (got ${raw === null ? 'null' : Array.isArray(raw) ? 'an array' : typeof raw}); it was kept aside and the plan starts empty.`);
  }
  const version = (raw as { version?: unknown }).version;
  if (typeof version === 'number' && version > SNAPSHOT_VERSION) {
    return fail(`Stored plan has format version ${version}, newer than this planloop reads (${SNAPSHOT_VERSION}); upgrade planloop. The data was kept aside.`);
  }
  const parsed = SnapshotSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = toIssues(parsed.error.issues, [], raw);
    return fail(`Stored plan failed validation: ${formatIssues(issues)}. It was kept aside and the plan starts empty.`, issues);
  }
  const data = parsed.data;
  const duplicate = firstDuplicate(data.todos.map((todo) => todo.id)) ?? firstDuplicate(data.markdownDocs.map((doc) => doc.id));
  if (duplicate) return fail(`Stored plan repeats the id "${duplicate}"; it was kept aside and the plan starts empty.`);
  const todos = data.todos.map((todo) => withoutUndefined(todo) as TodoItem);
  return { success: true, data: withoutUndefined({ ...data, version: SNAPSHOT_VERSION, todos }) as PlanSnapshot };
}

function firstDuplicate(ids: string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
