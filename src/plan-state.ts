import type { TodoCheck } from './todo-check.js';
import type { SyncMeta } from './sync/clock.js';

export type { TodoCheck } from './todo-check.js';

export type { ItemClock, Stamp, SyncMeta, Tombstone } from './sync/clock.js';

/*
 * The shapes of a plan's data: its state, its todos and documents, and the change descriptors its
 * events carry. Types only; the operations live beside the artifacts (`artifacts/todos.ts`,
 * `artifacts/markdown.ts`) and the store in `store.ts`.
 */

/**
 * The statuses a todo moves through.
 *
 * @example
 * ```ts
 * declare const value: string; // read from a form
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
  /**
   * The model rewrote this todo after the user approved the plan, and the user has not approved
   * the new text yet (set by a run with an approval hook; cleared when the user approves the
   * rewrite or edits the todo).
   */
  rewritten?: true;
  /**
   * What must be true for the todo to be done, checked by the SDK against the page and the run
   * (see `TodoCheck`): set by the planner, by the host, or absent (a run derives one from the
   * intent where it can: a narrate must be said, a navigate must reach its page, a fill must fill).
   */
  check?: TodoCheck;
  /**
   * What a run found about the todo, set by the loop: `checked` (completed, and its check held),
   * `held` (the model called it done, its check did not hold: it stayed open), `declined` (the
   * user declined its action in a run: it was not completed). Absent on a todo completed without a
   * check (the model's word) or not yet looked at.
   */
  evidence?: TodoEvidence;
}

/**
 * What a run found about a todo (see `TodoItem.evidence`).
 *
 * @example
 * ```ts
 * const shown: TodoEvidence[] = plan.todos.list().flatMap((todo) => (todo.evidence ? [todo.evidence] : []));
 * ```
 */
export type TodoEvidence = 'checked' | 'held' | 'declined';

/**
 * The longest title, in characters. Content is not capped here (a note can be long); storage
 * quotas bound it.
 *
 * @example
 * ```ts
 * declare const title: string; // what the user typed
 * title.length <= MARKDOWN_TITLE_MAX;
 * ```
 */
export const MARKDOWN_TITLE_MAX = 200;

/**
 * The values of {@link TodoEvidence}.
 *
 * @example
 * ```ts
 * TODO_EVIDENCE.includes('checked'); // true
 * ```
 */
export const TODO_EVIDENCE = ['checked', 'held', 'declined'] as const;

/**
 * A markdown document the model can edit on instruction.
 *
 * @example
 * ```ts
 * const doc: MarkdownDoc = { id: 'm1', title: 'Notes', content: '# Pricing\n', updatedAt: Date.now() };
 * ```
 */
export interface MarkdownDoc {
  /** `m1`, `m2`, … assigned on create; never reused within a plan. */
  id: string;
  title: string;
  content: string;
  /** Milliseconds since the epoch, set on create and on every edit; strictly increasing. */
  updatedAt: number;
}

/** What changed in one todo mutation, as `todos.onChange` reports it. */
export type TodosChange =
  | { type: 'create'; items: TodoItem[] }
  | { type: 'edit'; items: TodoItem[]; previous: TodoItem[] }
  | { type: 'delete'; ids: string[] }
  /** One todo moved from index `from` to index `to` (indexes in the whole list); nothing else changed. */
  | { type: 'move'; id: string; from: number; to: number }
  | { type: 'reset'; items: TodoItem[] }
  | { type: 'hydrate'; items: TodoItem[] }
  /** A rolled-back turn put the todos back: `items` is the whole list now. */
  | { type: 'restore'; items: TodoItem[] }
  /** Another tab's changes were merged in: `items` is the whole list now (a replan there comes as `reset`). */
  | { type: 'sync'; items: TodoItem[] };

/** What changed in one document mutation, as `markdown.onChange` reports it. */
export type MarkdownChange =
  | { type: 'create'; doc: MarkdownDoc }
  | { type: 'edit'; doc: MarkdownDoc; previous: MarkdownDoc }
  | { type: 'delete'; id: string }
  | { type: 'hydrate'; docs: MarkdownDoc[] }
  /** A rolled-back turn put the documents back: `docs` is every document now. */
  | { type: 'restore'; docs: MarkdownDoc[] }
  /** Another tab's changes were merged in: `docs` is every document now. */
  | { type: 'sync'; docs: MarkdownDoc[] };

/**
 * Everything a plan holds, as one immutable value: the todos, the documents, the summary and task
 * the todos were planned for, the id counters, and stored keys this version does not use. `Plan`
 * keeps exactly one and replaces it whole on every change (`plan.state`, the `state-change`
 * event); unchanged parts are shared between versions, so comparing `state.todos` with the
 * previous one by identity tells whether the todos changed.
 *
 * @example
 * ```ts
 * plan.on('state-change', ({ state, previous }) => {
 *   if (state.todos !== previous.todos) console.log(state.todos.length, 'todos');
 * });
 * ```
 */
export interface PlanState {
  readonly todos: readonly TodoItem[];
  readonly docs: readonly MarkdownDoc[];
  /** The one-sentence summary of the plan the todos came from; `''` when they came from elsewhere. */
  readonly summary: string;
  /** The user's task the todos were planned for; `''` when unknown. */
  readonly task: string;
  /** The highest id numbers ever handed out (`t<n>`, `m<n>`): ids are never reused. */
  readonly lastIds: { readonly todos: number; readonly markdown: number };
  /** Counts commits in this page's life (not stored): every change gets a higher one, a rollback too. */
  readonly revision: number;
  /** Keys of the stored snapshot this version does not use, written back as they were. */
  readonly extras: Readonly<Record<string, unknown>>;
  /**
   * The per-item clocks tabs merge by (stored as `snapshot.sync`), while the plan syncs with other
   * tabs; `undefined` otherwise. Every local commit, a rollback included, advances them.
   */
  readonly sync?: SyncMeta | undefined;
}

/**
 * The state of a new, empty plan.
 *
 * @example
 * ```ts
 * EMPTY_PLAN_STATE.todos.length; // 0
 * ```
 */
export const EMPTY_PLAN_STATE: PlanState = Object.freeze({
  todos: Object.freeze([]),
  docs: Object.freeze([]),
  summary: '',
  task: '',
  lastIds: Object.freeze({ todos: 0, markdown: 0 }),
  revision: 0,
  extras: Object.freeze({}),
});

/** Who made a change: the host's own calls, a turn, the planner, storage, a rollback, another tab (`sync`). */
export type PlanChangeOrigin = 'host' | 'adjust' | 'make-todos' | 'edit' | 'hydrate' | 'rollback' | 'sync';

/** What one commit changed, as the plan's change events report it. */
export interface PlanChangeMeta {
  readonly origin: PlanChangeOrigin;
  /** How the todos changed, when they did (a rollback or hydration reports the whole list). */
  readonly todos?: TodosChange;
  /** How the documents changed, when they did. */
  readonly markdown?: MarkdownChange;
}

/**
 * What the artifacts (`plan.todos`, `plan.markdown`) need from the plan: its state, its one
 * update, and its change events. `Plan` implements it; nothing else needs to.
 */
export interface PlanStateHost {
  readonly state: PlanState;
  update(recipe: (state: PlanState) => { state: PlanState; meta: PlanChangeMeta } | null): void;
}
