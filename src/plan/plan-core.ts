/*
 * The plan's state room: the one immutable state, its store, the change events, and the writes a
 * turn makes (adjust, a new task plan, transactions). Everything else in `Plan` (persistence,
 * sync, run control) is built on this; nothing here touches storage or other tabs, except through
 * the `sync` slot, which the persistence room fills when the plan starts syncing.
 */
import type { MarkdownChangeEvent } from '../artifacts/markdown.js';
import { replaceTodos, type TodosChangeEvent } from '../artifacts/todos.js';
import { TypedEmitter } from '../emitter.js';
import { applyAdjust, type AdjustResult, type ApplyAdjustOptions } from '../envelope/apply.js';
import type { TodoAdjustInput } from '../envelope/schema.js';
import type { PlanEvents, PlanUpdateSource, TaskPlan, TaskPlanInput } from '../events.js';
import { EMPTY_PLAN_STATE, type MarkdownDoc, type PlanChangeMeta, type PlanState, type TodoItem } from '../plan-state.js';
import { Store, type Commit, type Transaction } from '../store.js';
import type { PlanSync, TodoWrite } from '../sync/plan-sync.js';

/**
 * A turn's changes to the plan, undone as one (see `plan.transaction()`).
 *
 * @example
 * ```ts
 * const turn = plan.transaction();
 * turn.adjust({ remove: ['t1'] }, { inProgress: 't2' });
 * declare const replyWasBad: boolean; // the model's reply did not parse
 * if (replyWasBad) turn.rollback(); else turn.commit();
 * ```
 */
export interface PlanTransaction {
  /** The plan's state when the transaction began. */
  readonly checkpoint: PlanState;
  /** Like `plan.adjust`, as this transaction's own change: the one `rollback()` undoes (a `plan.adjust()` meanwhile stays). */
  adjust(todoAdjust: TodoAdjustInput, options?: ApplyAdjustOptions): AdjustResult;
  /**
   * Undoes this transaction's own changes (its `adjust`), keeping the changes others made
   * meanwhile (`plan.adjust()`, edits, another tab); ends the transaction. With nothing of its own
   * to undo it changes nothing and emits no event.
   */
  rollback(): void;
  /** Keeps the transaction's changes; ends it. */
  commit(): void;
}

/** One update of the state: the next state and what changed, or `null` for nothing. */
export type PlanRecipe = (state: PlanState) => { state: PlanState; meta: PlanChangeMeta } | null;

/** The run going in this tab (see `plan.acquireRun()`); `lost` once another tab took its lease. */
export interface LocalRun {
  readonly controller: AbortController;
  readonly since: number;
  lost: boolean;
}

/**
 * The state and its transactions. `Plan` holds one and forwards to it; the other rooms get it
 * too, to read the state, commit (`update`), emit events, and read the `sync` and `run` slots.
 *
 * @example
 * ```ts
 * const core = new PlanCore();
 * core.events.on('state-change', ({ state }) => console.log(state.todos.length, 'todos'));
 * core.adjust({ remove: ['t1'] }, {});
 * ```
 */
export class PlanCore {
  readonly events = new TypedEmitter<PlanEvents>();
  readonly store: Store<PlanState, PlanChangeMeta>;
  /** Set when the plan hydrated with sync on: stamps every local commit, and undoes a synced turn. */
  sync: PlanSync | undefined;
  /** The run going in this tab, if any (see run control). */
  run: LocalRun | undefined;
  /** The last `updatedAt` handed out: document stamps strictly increase, even within a millisecond. */
  #lastStamp = 0;

  /** `beforeEvents` hears every commit before the change events go out (the save bookkeeping). */
  constructor(beforeEvents?: (commit: Commit<PlanState, PlanChangeMeta>) => void) {
    this.store = new Store<PlanState, PlanChangeMeta>(EMPTY_PLAN_STATE, { prepare: (next, previous, meta) => this.#prepare(next, previous, meta) });
    if (beforeEvents) this.store.subscribe(beforeEvents);
    this.store.subscribe((commit) => this.#emitChanges(commit));
  }

  get state(): PlanState {
    return this.store.state;
  }

  update(recipe: PlanRecipe): void {
    this.store.update(recipe);
  }

  /** A document stamp: now, or one more than the last one when the clock has not moved on. */
  stamp(): number {
    this.#lastStamp = Math.max(Date.now(), this.#lastStamp + 1);
    return this.#lastStamp;
  }

  /** Emits `plan-update` with the todos as they are now. */
  planUpdate(source: PlanUpdateSource): void {
    this.events.emit('plan-update', { todos: this.state.todos.map(copy), source });
  }

  /** `plan.adjust`, committed through `commit` (the store, or a transaction). */
  adjust(todoAdjust: TodoAdjustInput, options: ApplyAdjustOptions, commit: (recipe: PlanRecipe) => void = (recipe) => this.update(recipe)): AdjustResult {
    let result: AdjustResult = { completed: [], replaced: [], ignored: [] };
    const before = this.state.todos;
    commit((state) => {
      const step = applyAdjust(state, todoAdjust, options);
      result = step.result;
      if (step.state === state) return null;
      const changed = step.state.todos.filter((todo, index) => todo !== state.todos[index]);
      const previous = state.todos.filter((todo, index) => todo !== step.state.todos[index]);
      return { state: step.state, meta: { origin: 'adjust', todos: { type: 'edit', items: changed.map(copy), previous: previous.map(copy) } } };
    });
    if (this.state.todos !== before) this.planUpdate('adjust');
    return result;
  }

  /** `plan.setTaskPlan` (origin `host`), and what `makeTodos` does with the model's answer. */
  setTaskPlan(taskPlan: TaskPlanInput, origin: 'host' | 'make-todos'): TaskPlan {
    const summary = typeof taskPlan.summary === 'string' ? taskPlan.summary : '';
    const task = typeof taskPlan.task === 'string' ? taskPlan.task.trim() : '';
    let items: TodoItem[] = [];
    this.update((state) => {
      const step = replaceTodos(state, taskPlan.todos);
      items = step.items;
      return { state: { ...step.state, summary, task }, meta: { origin, todos: { type: 'reset', items: items.map(copy) } } };
    });
    const copies = (): TodoItem[] => items.map(copy);
    this.events.emit('plan-create', { plan: { summary, task_summary: summary, todos: copies() } });
    this.events.emit('plan-update', { todos: copies(), source: 'make-todos' });
    return { summary, task_summary: summary, todos: copies() };
  }

  /** `plan.transaction()`: see there. */
  transaction(): PlanTransaction {
    const tx: Transaction<PlanState, PlanChangeMeta> = this.store.begin();
    // While the plan syncs: the todos the transaction wrote, by who made them (see rollback).
    const writes = new Map<string, TodoWrite>();
    const restore = (state: PlanState): PlanChangeMeta => ({ origin: 'rollback', todos: { type: 'restore', items: state.todos.map(copy) } });
    return {
      checkpoint: tx.checkpoint,
      adjust: (todoAdjust, options = {}) => {
        // A run that lost its lease changes nothing more: the tab that took it over writes now.
        if (this.run?.lost) return { completed: [], replaced: [], ignored: [] };
        const before = this.state;
        const result = this.adjust(todoAdjust, options, (recipe) => tx.update(recipe));
        if (this.sync && this.state !== before) {
          const previous = new Map(before.todos.map((todo) => [todo.id, todo]));
          for (const todo of this.state.todos) {
            const was = previous.get(todo.id);
            if (!was || was === todo) continue;
            // Asked of the sync code (loaded: the plan syncs), so that the clocks stay out of what
            // a page loads at start (they are shared with the lazy sync and storage chunks).
            const maker = this.sync.makerOf(this.state, todo.id);
            writes.set(maker, { maker, id: todo.id, before: writes.get(maker)?.before ?? was, after: todo });
          }
        }
        return result;
      },
      rollback: () => {
        // A turn cut short because another tab took the run over is kept, not undone: that tab
        // goes on from it, and undoing it now would race with that tab's writes.
        if (this.run?.lost) return tx.commit();
        const before = this.state;
        const sync = this.sync;
        if (sync) {
          // Replaying the updates made meanwhile onto the checkpoint cannot work here: they
          // include merges, whose outcome depends on clocks that a replay does not have. The
          // transaction's own writes are undone instead, field by field, as one new change.
          tx.commit();
          this.update((state) => {
            const next = sync.revert(state, writes.values());
            return next && { state: next, meta: restore(next) };
          });
        } else tx.rollback(restore);
        if (this.state.todos !== before.todos) this.planUpdate('adjust');
      },
      commit: () => tx.commit(),
    };
  }

  /**
   * The last step of every commit (a rollback's too): a higher revision, and while the plan syncs,
   * clocks advanced for what this tab changed. A rollback is stamped like any change, from the
   * clocks it replaces, so that other tabs take the restored values over the undone ones.
   */
  #prepare(next: PlanState, previous: PlanState, meta: PlanChangeMeta): PlanState {
    const sync = meta.origin !== 'sync' && meta.origin !== 'hydrate' ? this.sync : undefined;
    return { ...next, revision: previous.revision + 1, ...(sync ? { sync: sync.stamp(previous, next, meta.todos?.type === 'reset') } : {}) };
  }

  #emitChanges({ state, previous, meta }: Commit<PlanState, PlanChangeMeta>): void {
    this.events.emit('state-change', { state, previous, origin: meta.origin });
    if (state.todos !== previous.todos) {
      const todos = state.todos.map(copy);
      const change = meta.todos ?? { type: 'restore', items: state.todos.map(copy) };
      this.events.emit('todos-change', { todos, change } satisfies TodosChangeEvent);
    }
    if (state.docs !== previous.docs) {
      const docs = state.docs.map(copyDoc);
      const change = meta.markdown ?? { type: 'restore', docs: state.docs.map(copyDoc) };
      this.events.emit('markdown-change', { docs, change } satisfies MarkdownChangeEvent);
    }
  }
}

const copy = (todo: TodoItem): TodoItem => ({ ...todo });
const copyDoc = (doc: MarkdownDoc): MarkdownDoc => ({ ...doc });
