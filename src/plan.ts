/*
 * `Plan`: the facade a host holds. Every member forwards to one of the rooms in `src/plan/`:
 *
 * - `plan-core.ts`: the state and its transactions (adjust, a new task plan, the change events);
 * - `plan-persistence.ts` and, loaded with storage, `load-stored-plan.ts` / `hydrated.ts`:
 *   hydrate, save, hold;
 * - `start-syncing.ts` and `src/sync/` (loaded when a plan syncs): merge, lease, channel;
 * - `run-control.ts` (loaded on the first `acquireRun()`): the run lease and takeover;
 * - `edit-with-merge.ts` (loaded on the first `editWithInstruction()`): a model edit, merged.
 *
 * The rooms a plan needs only once it is used (storage, sync, a run, an edit, the planner) are
 * dynamic imports: a page that imports `Plan` loads them when it first needs them. Storage and run
 * control come as one chunk (`plan/deferred-rooms.ts`), sync as another (`src/sync/`).
 */
import { editMarkdownDoc, MarkdownArtifact, type EditWithInstructionOptions } from './artifacts/markdown.js';
import { TodosArtifact } from './artifacts/todos.js';
import type { Listener, Unsubscribe } from './emitter.js';
import type { AdjustResult, ApplyAdjustOptions } from './envelope/apply.js';
import type { TodoAdjustInput } from './envelope/schema.js';
import { AbortError, PlanloopError } from './errors.js';
import type { PlanEvents, TaskPlan, TaskPlanInput } from './events.js';
import { resolveProvider, type LLMProvider, type LLMRole, type LLMSource } from './llm/provider.js';
import { subscribePlanState, type PlanStore } from './plan-store.js';
import type { MarkdownDoc, PlanState, PlanStateHost } from './plan-state.js';
import type { MakeTodosOptions, PlanInput } from './planning/make-todos.js';
import { PlanCore, type PlanTransaction } from './plan/plan-core.js';
import { registerPlanEmitter } from './plan/emit-plan-event.js';
import { PlanPersistence } from './plan/plan-persistence.js';
import type { RunHandle, RunHolder } from './plan/run-control.js';
import type { PlanSaveStatus } from './storage/save-queue.js';
import { stateToSnapshot, type PlanSnapshot, type PlanStorageAdapter } from './storage/snapshot-format.js';
import type { PlanSyncOptions } from './sync/plan-sync.js';

export type { PlanTransaction } from './plan/plan-core.js';
export type { RunHandle, RunHolder } from './plan/run-control.js';

/**
 * What `new Plan()` takes.
 *
 * @example
 * ```ts
 * const config: PlanConfig = { llm, agentName: 'Guide', storage: createLocalStorageAdapter() };
 * ```
 */
export interface PlanConfig {
  /** A provider, or a router (`plan` role for makeTodos, `edit` for editWithInstruction, then `default`). */
  llm?: LLMSource | undefined;
  /** How the planner introduces itself ("You are <agentName>, …"). */
  agentName?: string | undefined;
  /** Strategic context (sitemap model, playbook): sent once per run, in the planning call only. */
  appendSystemPrompt?: string | undefined;
  /** Replaces the built-in planner prompt entirely. */
  systemPrompt?: string | undefined;
  /** Where the plan persists. Without it the plan lives in memory only. */
  storage?: PlanStorageAdapter | undefined;
  /**
   * Cross-tab sync: tabs of the origin on one stored plan merge one another's saves, report what
   * a merge drops (`sync-conflict`), and run its turn loop one at a time (`acquireRun`). Default:
   * on when `storage` is shared between tabs (it has a `syncKey`: the localStorage and IndexedDB
   * adapters) and the platform has BroadcastChannel or storage events; `false` turns it off; an
   * object turns it on with those parts injected (`key` for an adapter without `syncKey`).
   */
  sync?: boolean | PlanSyncOptions | undefined;
}

/**
 * A visible, persistent plan for an in-page agent: ordered todos, markdown documents, one
 * planning call (`makeTodos`) and the per-turn `adjust`.
 *
 * All of it is one immutable {@link PlanState} (`plan.state`), changed only by atomic updates:
 * each validates its change whole, commits it whole (or nothing), emits `state-change` once (and
 * `todos-change` / `markdown-change` for the part that changed), and schedules one save. A turn
 * runs as a transaction: `plan.transaction()` takes a checkpoint, and a failed turn is undone by
 * restoring it.
 *
 * Persistence: saves coalesce, never overlap or land out of order, and the plan never writes
 * storage before it has read it. Work done before hydration finishes is kept: stored todos and
 * documents come first and the earlier local ones follow them (a local id that the stored plan
 * uses, or used and deleted, gets a fresh id). A `todos.reset()` or `makeTodos()` before hydration
 * finishes means "this is the plan now": the stored todos are not merged back in, though their ids
 * stay retired. Stored data it cannot read is never written over until the host decides (see
 * `hydrate`). With `sync` (on by default for the localStorage and IndexedDB adapters) tabs on one
 * stored plan merge one another's changes and run its turn loop one at a time.
 *
 * @example
 * ```ts
 * const plan = new Plan({ llm, agentName: 'Guide', storage: createLocalStorageAdapter() });
 * const agent: { plan?: Plan } = {};
 * plan.attachTo(agent);          // agent.plan === plan; hydration starts
 * await plan.ready;
 * const { summary, todos } = await plan.makeTodos({ task: 'Introduce the pricing page' });
 * plan.adjust({ remove: [todos[0].id] });
 * ```
 */
export class Plan {
  readonly todos: TodosArtifact;
  readonly markdown: MarkdownArtifact;
  readonly llm: LLMSource | undefined;
  readonly agentName: string | undefined;
  readonly appendSystemPrompt: string | undefined;
  readonly systemPrompt: string | undefined;
  readonly storage: PlanStorageAdapter | undefined;

  readonly #core: PlanCore;
  readonly #persistence: PlanPersistence;

  constructor(config: PlanConfig = {}) {
    this.llm = config.llm;
    this.agentName = config.agentName;
    this.appendSystemPrompt = config.appendSystemPrompt;
    this.systemPrompt = config.systemPrompt;
    this.storage = config.storage;
    const core = new PlanCore((commit) => persistence.committed(commit.meta));
    const persistence = new PlanPersistence(core, config.storage, config.sync);
    this.#core = core;
    this.#persistence = persistence;
    registerPlanEmitter(this, core.events);
    const host: PlanStateHost = {
      get state() {
        return core.state;
      },
      update: (recipe) => core.update(recipe),
    };
    this.todos = new TodosArtifact(host, (listener) => this.on('todos-change', listener));
    this.markdown = new MarkdownArtifact({
      host,
      subscribe: (listener) => this.on('markdown-change', listener),
      stamp: () => core.stamp(),
      editor: (doc, instruction, options) => this.#editWithInstruction(doc, instruction, options),
    });
  }

  /** The whole plan as one immutable value. Never mutate it; read it, or subscribe to `state-change`. */
  get state(): PlanState {
    return this.#core.state;
  }

  /** The store contract (see {@link PlanStore}): `listener(state)` now and after every change; bound, so `$plan` in Svelte works. */
  readonly subscribe: PlanStore['subscribe'] = (listener) => subscribePlanState(this, listener);
  /** The store contract (see {@link PlanStore}): `plan.state`, the same object until the plan changes; bound, for `useSyncExternalStore`. */
  readonly getSnapshot: PlanStore['getSnapshot'] = () => this.state;

  /**
   * Makes the plan reachable as `host.plan` and starts hydration from storage. Calling it again,
   * with the same or another host, attaches again but hydrates only once.
   */
  attachTo<Host extends object>(host: Host): Host & { plan: Plan } {
    (host as Host & { plan: Plan }).plan = this;
    void this.hydrate();
    return host as Host & { plan: Plan };
  }

  /**
   * Resolves when hydration has finished (at once when there is no storage). Reading it starts
   * hydration if `attachTo` has not. Never rejects: load problems go to `storage-error`.
   */
  get ready(): Promise<void> {
    return this.#persistence.ready ?? this.hydrate();
  }

  /**
   * Loads the stored snapshot once. A stored plan that is corrupt or fails validation is
   * reported (`storage-error`), handed to the adapter's `backup`, and the plan starts empty. When
   * it cannot be set aside (no `backup`, or `backup` throws: reason `backup_failed`, with the
   * data in `error.raw`), or a load throws (storage unreachable, IndexedDB `blocked`), the plan
   * works in memory and writes nothing over the stored data (`saveStatus.state` is `held`) until
   * the host decides: `hydrate()` again (after freeing space; an adapter with `opened()` triggers
   * it itself once a blocked database opens), or `discardStoredPlan()`.
   */
  hydrate(): Promise<void> {
    return this.#persistence.hydrate();
  }

  /**
   * Gives up a stored plan that this plan could not read or set aside, and saves this plan over
   * it. Export it first if it matters (the `storage-error`'s `error.raw`, or the adapter's
   * `exportCorrupt()`). Does nothing unless saving is held. Resolves once saved; rejects like
   * `flush()`.
   *
   * @example
   * ```ts
   * plan.on('storage-error', async ({ error }) => {
   *   if (error.reason !== 'backup_failed') return;
   *   localStorage.setItem('plan-backup', JSON.stringify(error.raw)); // the host keeps a copy...
   *   await plan.discardStoredPlan();       // ...then lets the plan write over it
   * });
   * ```
   */
  async discardStoredPlan(): Promise<void> {
    await this.#persistence.discardStoredPlan();
  }

  /** Where saving stands: `saved`, `pending`, `failing` (retrying with backoff), or `held` (see `hydrate`). Changes come as `save-status-change`. */
  get saveStatus(): PlanSaveStatus {
    return this.#persistence.saveStatus;
  }

  /**
   * Takes this plan's run lease: one turn loop at a time per plan, across the tabs that sync it
   * (`runWebAgent` does this; a host with its own loop should too). The handle's `signal` aborts
   * when the run must stop (see {@link RunHandle}); release it when the run ends. Throws
   * `run_in_progress`, naming the holder, when another tab (or a run in this one) holds it.
   * `takeOver` asks that tab to stop and takes the lease once it let go, or by force after
   * `sync.takeOverWaitMs` (default 2 s) when it does not answer. Waits for `ready`, and for the
   * newest stored plan.
   *
   * @example
   * ```ts
   * const run = await plan.acquireRun({ signal });
   * try { await runWebAgent({ plan, task, tools, signal: run.signal }); } finally { await run.release(); }
   * ```
   */
  async acquireRun(options: { takeOver?: boolean | undefined; signal?: AbortSignal | undefined } = {}): Promise<RunHandle> {
    await this.ready;
    // Loaded on first use: a page that never runs a turn loop never loads the lease and takeover.
    const { acquireRun } = await import('./plan/deferred-rooms.js');
    return acquireRun(this.#persistence, options);
  }

  /** Who runs this plan's turn loop now, in this tab or another, or `null`. */
  async runHolder(): Promise<RunHolder | null> {
    const { sync, run } = this.#core;
    if (!sync || this.#persistence.closed) return run ? { replica: sync?.replica ?? '', since: run.since, self: true } : null;
    const holder = await sync.lease.holder();
    return holder && { replica: holder.replica, since: holder.since, self: holder.replica === sync.replica };
  }

  /** Stops the plan's run: the one in this tab at once, else asks the tab that holds the run lease to stop (its `run-error` says so). */
  async requestStop(reason?: string): Promise<void> {
    const { run, sync } = this.#core;
    if (run) run.controller.abort(new AbortError('aborted', `The run was stopped${reason ? `: ${reason}` : ' (plan.requestStop()).'}`));
    else if (!this.#persistence.closed) await sync?.lease.requestStop(reason);
  }

  /**
   * Disconnects the plan: no more retries or page-lifecycle listeners for saves, no more notices
   * from other tabs, and a held run lease is given up. The plan still works, in memory, and still
   * saves on each change and on `flush()`. For a host that replaces its plan (a storage switch).
   */
  async close(): Promise<void> {
    this.#persistence.close();
    await this.#core.sync?.close();
  }

  /** Subscribes to a typed event; returns the function that unsubscribes. */
  on<K extends keyof PlanEvents & string>(name: K, listener: Listener<PlanEvents[K]>): Unsubscribe {
    return this.#core.events.on(name, listener);
  }

  /** Subscribes to every event (`listener(name, payload)`): for forwarding and logging. */
  onAny(listener: (name: keyof PlanEvents & string, payload: PlanEvents[keyof PlanEvents]) => void): Unsubscribe {
    return this.#core.events.onAny(listener);
  }

  /** The provider for `role` (`plan`, `turn`, `edit`), falling back to `default`; throws `no_llm` without one. */
  provider(role: LLMRole): LLMProvider {
    if (!this.llm) {
      throw new PlanloopError('no_llm', `This plan has no model for the "${role}" role: pass \`llm\` to new Plan({ llm }).`);
    }
    return resolveProvider(this.llm, role);
  }

  /**
   * The planning call: one model call that lays out a task summary and ordered todos (see
   * `planTodos`), then makes them the plan, as {@link setTaskPlan} does; streams the summary as
   * `summary-delta` events. A failed or aborted call changes nothing. The planner's code is
   * loaded on the first call (a dynamic import your bundler splits into its own chunk).
   */
  async makeTodos(input: PlanInput, options: MakeTodosOptions = {}): Promise<TaskPlan> {
    const provider = this.provider('plan');
    // Loaded on first use: the planner (its prompts, the tolerant JSON reader) is most of the
    // plan's code and runs once per task, after the page has loaded (see the README's sizes).
    const { planTodos } = await import('./planning/make-todos.js');
    const planned = await planTodos(provider, input, {
      ...options,
      planner: { agentName: this.agentName, systemPrompt: this.systemPrompt, appendSystemPrompt: this.appendSystemPrompt },
      onSummaryDelta: (delta, text) => {
        this.#core.events.emit('summary-delta', { delta, text });
        options.onSummaryDelta?.(delta, text);
      },
    });
    return this.#core.setTaskPlan({ ...planned, task: input.task }, 'make-todos');
  }

  /**
   * The one-sentence summary of the current todos: set by `makeTodos` (or `setTaskPlan`), stored
   * with them and restored after a reload; `''` when the todos came from elsewhere (a host
   * `todos.reset()`, a checklist), since it would no longer describe them.
   */
  get summary(): string {
    return this.state.summary;
  }

  /**
   * The user's task the current todos were planned for (`makeTodos`' `input.task`), stored with
   * them; `''` when unknown. `runWebAgent` resumes a plan only for the same task by default.
   */
  get task(): string {
    return this.state.task;
  }

  /**
   * Makes `taskPlan` the plan in one change: its todos replace the list (ids assigned, statuses
   * `pending` unless given), its summary becomes `plan.summary` and its `task` (optional)
   * `plan.task`; emits `plan-create` and `plan-update`. This is what `makeTodos` does with the
   * model's answer; a host with its own planner can call it directly. Throws `ValidationError`
   * (changing nothing) on bad todos.
   */
  setTaskPlan(taskPlan: TaskPlanInput): TaskPlan {
    return this.#core.setTaskPlan(taskPlan, 'host');
  }

  /**
   * Applies one turn's `todo_adjust` (`{ remove, replace, complete_before }`) atomically and
   * returns what it did. Outside any transaction: an open transaction's `rollback()` keeps it (use
   * the transaction's own `adjust` for a change that rollback undoes).
   */
  adjust(todoAdjust: TodoAdjustInput, options: ApplyAdjustOptions = {}): AdjustResult {
    return this.#core.adjust(todoAdjust, options);
  }

  /**
   * Begins a transaction: a checkpoint of the whole state. `rollback()` restores it (summary,
   * task, ids, statuses, documents, and so what is stored), then re-applies the changes made
   * outside the transaction since (by the host, a tool, another tab), so only the transaction's
   * own changes are undone: those made through it (`turn.adjust()`), not a `plan.adjust()` or an
   * edit made meanwhile. A rollback with nothing of its own to undo changes nothing and emits no
   * event. `runWebAgent` runs each turn in one. While the plan syncs (other
   * tabs' changes arrive as merges, which cannot be replayed), `rollback()` instead undoes the
   * transaction's own writes field by field, keeping what was written since here or elsewhere,
   * as a change with new clocks; and when this tab's run lost its lease to another tab by force,
   * it keeps the changes (that tab goes on from them).
   *
   * @example
   * ```ts
   * const turn = plan.transaction();
   * declare const envelope: TurnEnvelope; // the model's turn
   * declare function act(actions: TurnAction[]): Promise<void>;
   * turn.adjust(envelope.todo_adjust ?? {}, { inProgress: envelope.turn_planning?.todo_id });
   * await act(envelope.actions).then(() => turn.commit(), () => turn.rollback());
   * ```
   */
  transaction(): PlanTransaction {
    return this.#core.transaction();
  }

  /** The plan as stored: todos, documents, the id counters, summary, task, and any extra keys the stored snapshot had. */
  snapshot(): PlanSnapshot {
    return stateToSnapshot(this.state);
  }

  /**
   * Resolves when everything is saved: a save in flight is awaited and an unsaved state is saved at
   * once; if that fails too, rejects with the `StorageError` (the plan keeps retrying on its own,
   * with backoff). Like `ready`, it starts hydration if `attachTo` has not: the plan saves only
   * after it has read storage.
   */
  async flush(): Promise<void> {
    await this.#persistence.flush();
  }

  async #editWithInstruction(before: MarkdownDoc, instruction: string, options: EditWithInstructionOptions): Promise<MarkdownDoc | null> {
    const provider = this.provider('edit');
    // Loaded on first use, like the planner: the editor, its prompts and the three-way merge.
    const { editWithMerge } = await import('./plan/edit-with-merge.js');
    const next = await editWithMerge(this.#core, provider, before, instruction, options);
    let result: MarkdownDoc | null = null;
    const updatedAt = this.#core.stamp();
    this.#core.update((state) => {
      const step = editMarkdownDoc(state, before.id, next, updatedAt);
      result = step?.doc ?? null;
      return step && step.state !== state ? { state: step.state, meta: { origin: 'edit', markdown: step.change } } : null;
    });
    return result ? { ...(result as MarkdownDoc) } : null;
  }
}
