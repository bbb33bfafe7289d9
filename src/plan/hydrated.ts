/*
 * Merging a stored plan into a plan that changed before loading it finished (a pure function;
 * loaded with the persistence room).
 */
import { advancedPast, idNumber, nextIds } from '../artifacts/id-sequence.js';
import type { MarkdownDoc, PlanChangeMeta, PlanState, TodoItem } from '../plan-state.js';

/**
 * The state after loading `stored` into a plan that may have changed before it finished loading:
 * stored todos and documents first, then the local ones (a local id the stored plan has, or had
 * and deleted, gets a fresh id). When the local todos replaced the plan (`replaced`), the stored
 * todos are not merged back, but their ids stay retired.
 *
 * @example
 * ```ts
 * declare const stored: PlanState; // the stored plan, read once the plan had changed
 * const step = hydrated(plan.state, stored, false);
 * ```
 */
export function hydrated(local: PlanState, stored: PlanState, replaced: boolean): { state: PlanState; meta: PlanChangeMeta } | null {
  let todosCounter = Math.max(local.lastIds.todos, stored.lastIds.todos);
  let docsCounter = Math.max(local.lastIds.markdown, stored.lastIds.markdown);
  const rename = <T extends { id: string }>(
    items: readonly T[],
    taken: readonly T[],
    prefix: 't' | 'm',
    storedLast: number,
  ): { items: T[]; renamed: boolean } => {
    const ids = new Set(taken.map((item) => item.id));
    let renamed = false;
    const out = items.map((item) => {
      const retired = ids.has(item.id) || (idNumber(prefix, item.id) ?? Number.POSITIVE_INFINITY) <= storedLast;
      if (!retired) return item;
      renamed = true;
      const next = nextIds(prefix, prefix === 't' ? todosCounter : docsCounter, 1);
      if (prefix === 't') todosCounter = next.last;
      else docsCounter = next.last;
      return Object.freeze({ ...item, id: next.ids[0] as string });
    });
    return { items: out, renamed };
  };
  const localTodos = replaced ? { items: [...local.todos], renamed: false } : rename(local.todos, stored.todos, 't', stored.lastIds.todos);
  const localDocs = rename(local.docs, stored.docs, 'm', stored.lastIds.markdown);
  const todos = replaced ? localTodos.items : [...stored.todos, ...localTodos.items];
  const docs = [...stored.docs, ...localDocs.items];
  const state: PlanState = {
    todos,
    docs,
    summary: replaced ? local.summary : stored.summary || local.summary,
    task: replaced ? local.task : stored.task || local.task,
    lastIds: {
      todos: advancedPast(
        't',
        todosCounter,
        todos.map((todo) => todo.id),
      ),
      markdown: advancedPast(
        'm',
        docsCounter,
        docs.map((doc) => doc.id),
      ),
    },
    revision: local.revision + 1,
    extras: stored.extras,
  };
  const todosChanged = !replaced && (stored.todos.length > 0 || localTodos.renamed);
  const docsChanged = stored.docs.length > 0 || localDocs.renamed;
  return {
    state: { ...state, todos: todosChanged ? todos : local.todos, docs: docsChanged ? docs : local.docs },
    meta: {
      origin: 'hydrate',
      ...(todosChanged ? { todos: { type: 'hydrate' as const, items: todos.map(copy) } } : {}),
      ...(docsChanged ? { markdown: { type: 'hydrate' as const, docs: docs.map(copyDoc) } } : {}),
    },
  };
}

const copy = (todo: TodoItem): TodoItem => ({ ...todo });
const copyDoc = (doc: MarkdownDoc): MarkdownDoc => ({ ...doc });
