import { advancedPast } from '../artifacts/id-sequence.js';
import { readTodoSeed } from '../artifacts/todos.js';
import { readTodoCheck } from '../todo-check.js';
import { StorageError, type ValidationIssue } from '../errors.js';
import { describeValue, isRecord, pathOf, readArray, readInteger, readRecord, readText } from '../guards.js';
import { EMPTY_PLAN_STATE, MARKDOWN_TITLE_MAX, type MarkdownDoc, type PlanState, type TodoItem } from '../plan-state.js';
import { formatIssues } from '../validation.js';
import { readSyncMeta } from '../sync/clock.js';
import { SNAPSHOT_VERSION, type PlanSnapshot } from './snapshot-format.js';

export { SNAPSHOT_VERSION, stateToSnapshot, type PlanSnapshot, type PlanStorageAdapter } from './snapshot-format.js';

/** The result of {@link safeValidateSnapshot}. */
export type SnapshotValidation =
  | {
      success: true;
      data: PlanSnapshot;
      /** Fields that were refused and left out while the rest was kept (an impossible id counter, a summary that is not text). */
      dropped: ValidationIssue[];
    }
  | { success: false; error: StorageError; issues: ValidationIssue[] };

/**
 * Validates stored data and migrates older formats, including the bare `{ todos, markdownDocs }`
 * of the original Plan module (no version, todos without status: they become `pending`).
 * Throws {@link StorageError} naming every problem.
 *
 * @example
 * ```ts
 * const snapshot = validateSnapshot(JSON.parse(localStorage.getItem('planloop') ?? '{}'));
 * ```
 */
export function validateSnapshot(raw: unknown): PlanSnapshot {
  const result = safeValidateSnapshot(raw);
  if (!result.success) throw result.error;
  return result.data;
}

/**
 * Like {@link validateSnapshot}, but returns `{ success, data | error }` instead of throwing. A field
 * added after the first format (`taskSummary`, `task`, `lastIds`) that is unusable is left out and
 * listed in `dropped` rather than making the whole stored plan unreadable: an id counter that is
 * not a whole number up to `Number.MAX_SAFE_INTEGER` is refused, and the ids go on after the
 * highest stored id instead; sync clocks (`sync`) that are malformed are left out, and the plan
 * merges as if the snapshot had none.
 *
 * @example
 * ```ts
 * const stored = await adapter.load();
 * const result = safeValidateSnapshot(stored);
 * if (!result.success) console.warn(result.error.message);
 * ```
 */
export function safeValidateSnapshot(raw: unknown): SnapshotValidation {
  const fail = (message: string, issues: ValidationIssue[] = []): SnapshotValidation => ({
    success: false,
    error: new StorageError('storage_error', message, { operation: 'load', raw }),
    issues,
  });
  if (!isRecord(raw)) {
    return fail(`Stored plan is not an object (got ${describeValue(raw)}); it was kept aside and the plan starts empty.`);
  }
  const version = raw.version;
  if (typeof version === 'number' && version > SNAPSHOT_VERSION) {
    return fail(`Stored plan has format version ${version}, newer than this planloop reads (${SNAPSHOT_VERSION}); upgrade planloop. The data was kept aside.`);
  }
  const issues: ValidationIssue[] = [];
  if (version !== undefined) readInteger(version, 'version', issues);
  // A check this version cannot read (written by a later one, or damaged) is left out of its todo
  // and listed in `dropped`: the todo itself is still good.
  const badChecks: ValidationIssue[] = [];
  const todos = readArray(raw.todos ?? [], 'todos', issues, (todo, path) => {
    // No length caps on what an earlier version stored and read: the caps hold new writes only.
    const { check, ...rest } = isRecord(todo) ? todo : { check: undefined };
    const seed = readTodoSeed(isRecord(todo) ? rest : todo, path, issues, {});
    if (seed.id === undefined) issues.push({ path: `${path}.id`, message: 'is required (a string)' });
    if (check !== undefined && check !== null) {
      const found = readTodoCheck(check, `${path}.check`, badChecks);
      if (found) seed.check = found;
    }
    return seed as TodoItem;
  });
  const markdownDocs = readArray(raw.markdownDocs ?? [], 'markdownDocs', issues, (doc, path) => readMarkdownDoc(doc, path, issues));
  if (issues.length > 0) {
    return fail(`Stored plan failed validation: ${formatIssues(issues)}. It was kept aside and the plan starts empty.`, issues);
  }
  const duplicate = firstDuplicate(todos.map((todo) => todo.id)) ?? firstDuplicate(markdownDocs.map((doc) => doc.id));
  if (duplicate) return fail(`Stored plan repeats the id "${duplicate}"; it was kept aside and the plan starts empty.`);

  // Keys added later than the format: an unusable value (a host's own key of that name, from
  // before planloop used it, or a counter past the safe range) is left out, the rest is kept.
  const dropped: ValidationIssue[] = [...badChecks];
  const { version: _version, todos: _todos, markdownDocs: _docs, taskSummary, task, lastIds, sync, ...extras } = raw;
  const data: PlanSnapshot = { ...extras, version: SNAPSHOT_VERSION, todos, markdownDocs };
  if (typeof taskSummary === 'string') data.taskSummary = taskSummary;
  else if (taskSummary !== undefined) dropped.push({ path: 'taskSummary', message: `must be a string, not ${describeValue(taskSummary)}` });
  if (typeof task === 'string') data.task = task;
  else if (task !== undefined) dropped.push({ path: 'task', message: `must be a string, not ${describeValue(task)}` });
  if (lastIds !== undefined) {
    const counterIssues: ValidationIssue[] = [];
    const record = readRecord(lastIds, 'lastIds', counterIssues);
    const counters = record && {
      todos: readInteger(record.todos, 'lastIds.todos', counterIssues),
      markdown: readInteger(record.markdown, 'lastIds.markdown', counterIssues),
    };
    if (counters && counterIssues.length === 0) data.lastIds = counters;
    else dropped.push(...counterIssues);
  }
  if (sync !== undefined) {
    const meta = readSyncMeta(sync);
    if (meta) data.sync = meta;
    else dropped.push({ path: 'sync', message: 'is not a valid sync clock (version 1); the plan merges as if it had none' });
  }
  return { success: true, data, dropped };
}

/**
 * The plan state a stored snapshot stands for: its todos, documents, summary and task, its id
 * counters moved past every stored id, and its extra keys.
 *
 * @example
 * ```ts
 * const stored = await adapter.load();
 * const state = snapshotToState(validateSnapshot(stored));
 * ```
 */
export function snapshotToState(snapshot: PlanSnapshot): PlanState {
  const { version: _version, todos, markdownDocs, lastIds, taskSummary, task, sync, ...extras } = snapshot;
  return {
    ...EMPTY_PLAN_STATE,
    todos: todos.map((todo) => Object.freeze({ ...todo })),
    docs: markdownDocs.map((doc) => Object.freeze({ ...doc })),
    summary: taskSummary ?? '',
    task: task ?? '',
    lastIds: {
      todos: advancedPast(
        't',
        lastIds?.todos ?? 0,
        todos.map((todo) => todo.id),
      ),
      markdown: advancedPast(
        'm',
        lastIds?.markdown ?? 0,
        markdownDocs.map((doc) => doc.id),
      ),
    },
    extras,
    sync,
  };
}

function firstDuplicate(ids: string[]): string | undefined {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

/** Checks a stored document and pushes what is wrong under `path`. */
function readMarkdownDoc(value: unknown, path: string, issues: ValidationIssue[]): MarkdownDoc {
  const record = readRecord(value, path, issues);
  if (!record) return { id: '', title: '', content: '', updatedAt: 0 };
  return {
    id: readText(record.id, pathOf(path, 'id'), issues),
    title: readText(record.title, pathOf(path, 'title'), issues, { max: MARKDOWN_TITLE_MAX }),
    content: readText(record.content, pathOf(path, 'content'), issues, { nonEmpty: false }),
    updatedAt: readInteger(record.updatedAt, pathOf(path, 'updatedAt'), issues),
  };
}
