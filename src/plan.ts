import { editMarkdownDoc, MarkdownArtifact, type EditWithInstructionOptions, type MarkdownChangeEvent } from './artifacts/markdown.js';
import { advancedPast, idNumber, nextIds } from './artifacts/id-sequence.js';
import { replaceTodos, TodosArtifact, type TodoSeed, type TodosChangeEvent } from './artifacts/todos.js';
import { TypedEmitter, type Listener, type Unsubscribe } from './emitter.js';
import { applyAdjust, type AdjustResult, type ApplyAdjustOptions } from './envelope/apply.js';
import type { TodoAdjustInput } from './envelope/schema.js';
import { AbortError, ConflictError, PlanloopError, StorageError } from './errors.js';
import type { PlanEvents, TaskPlan } from './events.js';
import { resolveProvider, type LLMProvider, type LLMRole, type LLMSource } from './llm/provider.js';
import { EMPTY_PLAN_STATE, type MarkdownDoc, type PlanChangeMeta, type PlanState, type PlanStateHost, type TodoItem } from './plan-state.js';
import type { MakeTodosOptions, PlanInput } from './planning/make-todos.js';
import type { PlanSync, PlanSyncOptions, TodoWrite } from './storage/plan-sync.js';
import { createSaveQueue, type PlanSaveStatus, type SaveQueue } from './storage/save-queue.js';
import { safeParseSnapshot, snapshotToState, stateToSnapshot, type PlanSnapshot, type PlanStorageAdapter } from './storage/snapshot.js';
import { Store, type Transaction } from './store.js';

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
 * A held run lease (see `plan.acquireRun()`).
 *
 * @example
 * ```ts
 * const run = await plan.acquireRun();
 * try { await myLoop(run.signal); } finally { await run.release(); }
 * ```
 */
export interface RunHandle {
  /** Aborts when the run must stop: the caller's signal, `requestStop()` here or in another tab, or another tab took the lease over. */
  readonly signal: AbortSignal;
  /** Gives the lease up: call it when the run ends. */
  release(): Promise<void>;
}

/**
 * Who runs a plan's turn loop (see `plan.runHolder()`).
 *
 * @example
 * ```ts
 * const holder = await plan.runHolder();
 * stopButton.hidden = !holder || holder.self;
 * ```
 */
export interface RunHolder {
  /** The holding tab's replica id (`''` when unknown, or when the plan does not sync). */
  readonly replica: string;
  /** When it took the lease (ms since the epoch; 0 when unknown). */
  readonly since: number;
  /** Whether this plan holds it. */
  readonly self: boolean;
}

/**
 * A turn's changes to the plan, undone as one (see `plan.transaction()`).
 *
 * @example
 * ```ts
 * const turn = plan.transaction();
 * turn.adjust({ remove: ['t1'] }, { inProgress: 't2' });
 * if (replyWasBad) turn.rollback(); else turn.commit();
 * ```
 */
export interface PlanTransaction {
  /** The plan's state when the transaction began. */
  readonly checkpoint: PlanState;
  /** `plan.adjust`, as part of this transaction. */
  adjust(todoAdjust: TodoAdjustInput, options?: ApplyAdjustOptions): AdjustResult;
  /** Puts back the state as it was at the checkpoint, keeping changes others made meanwhile; ends the transaction. */
  rollback(): void;
  /** Keeps the transaction's changes; ends it. */
  commit(): void;
}

/** `held`: the stored plan could not be read, or could not be set aside: nothing is written until `hydrate()` succeeds or `discardStoredPlan()`. */
type Hydration = 'idle' | 'loading' | 'done' | 'held';

type SyncModule = typeof import('./storage/plan-sync.js');

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
 * plan.attachTo(agent);          // agent.plan === plan; hydration starts
 * await plan.ready;
 * const { task_summary, todos } = await plan.makeTodos({ task: 'Introduce the pricing page' });
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

  readonly #store = new Store<PlanState, PlanChangeMeta>(EMPTY_PLAN_STATE, { prepare: (next, previous, meta) => this.#prepare(next, previous, meta) });
  readonly #events = new TypedEmitter<PlanEvents>();
  readonly #saves: SaveQueue | undefined;
  readonly #syncOption: boolean | PlanSyncOptions | undefined;
  /** Set when the plan hydrated with sync on: stamps commits, merges, talks to other tabs. */
  #sync: PlanSync | undefined;
  #closed = false;
  #pulling: Promise<void> | undefined;
  #pullAgain = false;
  /** The run going in this tab (see acquireRun); `lost` once another tab took its lease. */
  #run: { controller: AbortController; since: number; lost: boolean } | undefined;
  /** Why saving is held (hydration `held`). */
  #held: StorageError | undefined;
  #reportedStatus = 'saved 0 undefined';
  #hydration: Hydration = 'idle';
  #ready: Promise<void> | undefined;
  #changedBeforeHydration = false;
  #replacedBeforeHydration = false;
  /** The last `updatedAt` handed out: document stamps strictly increase, even within a millisecond. */
  #lastStamp = 0;

  constructor(config: PlanConfig = {}) {
    this.llm = config.llm;
    this.agentName = config.agentName;
    this.appendSystemPrompt = config.appendSystemPrompt;
    this.systemPrompt = config.systemPrompt;
    this.storage = config.storage;
    this.#syncOption = config.sync;
    const host: PlanStateHost = {
      get state() {
        return store.state;
      },
      update: (recipe) => this.#update(recipe),
    };
    const store = this.#store;
    this.todos = new TodosArtifact(host, (listener) => this.on('todos-change', listener));
    this.markdown = new MarkdownArtifact({
      host,
      subscribe: (listener) => this.on('markdown-change', listener),
      stamp: () => this.#stamp(),
      editor: (doc, instruction, options) => this.#editWithInstruction(doc, instruction, options),
    });
    if (this.storage) {
      const storage = this.storage;
      // Errors become StorageErrors before the queue sees them: `flush()` rejects with one.
      const save = async (): Promise<void> => {
        for (let attempt = 1; ; attempt++) {
          const state = this.state;
          try {
            await storage.save(stateToSnapshot(state));
            this.#sync?.announce(state);
            return;
          } catch (error) {
            // Another tab saved changes this one has not merged (the adapter refused to write over
            // them): merge them in and save the merge. A tab that keeps winning that race is left
            // to the queue's retry.
            if (!this.#sync || attempt > 3 || !(error instanceof StorageError && error.reason === 'conflict')) throw asStorageError('save', error);
            await this.#pull().catch((failure: unknown) => {
              throw asStorageError('load', failure);
            });
          }
        }
      };
      this.#saves = createSaveQueue(save, { onError: (error) => this.#storageError('save', error) });
      this.#saves.onStatus(() => this.#statusChanged());
    }
    this.#store.subscribe((commit) => this.#onCommit(commit.state, commit.previous, commit.meta));
  }

  /** The whole plan as one immutable value. Never mutate it; read it, or subscribe to `state-change`. */
  get state(): PlanState {
    return this.#store.state;
  }

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
    return this.#ready ?? this.hydrate();
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
    if (this.#ready && this.#hydration !== 'held') return this.#ready;
    this.#ready = this.#load();
    return this.#ready;
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
   *   download(JSON.stringify(error.raw));  // the host keeps a copy...
   *   await plan.discardStoredPlan();       // ...then lets the plan write over it
   * });
   * ```
   */
  async discardStoredPlan(): Promise<void> {
    await this.#ready;
    if (this.#hydration !== 'held') return;
    this.#hydration = 'loading';
    const wanted = this.#wantedSync();
    await this.#finishHydration(undefined, wanted && (await this.#loadSync()), wanted);
    this.#saves?.request();
    await this.flush();
  }

  /** Where saving stands: `saved`, `pending`, `failing` (retrying with backoff), or `held` (see `hydrate`). Changes come as `save-status-change`. */
  get saveStatus(): PlanSaveStatus {
    if (!this.#saves) return { state: 'saved', failures: 0, lastSaved: undefined, error: undefined };
    if (this.#hydration === 'held') return { ...this.#saves.status, state: 'held', error: this.#held };
    if (this.#hydration !== 'done') return { ...this.#saves.status, state: this.#changedBeforeHydration ? 'pending' : 'saved' };
    return this.#saves.status;
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
   * try { await myLoop(plan, run.signal); } finally { await run.release(); }
   * ```
   */
  async acquireRun(options: { takeOver?: boolean | undefined; signal?: AbortSignal | undefined } = {}): Promise<RunHandle> {
    await this.ready;
    if (this.#run) throw new PlanloopError('run_in_progress', 'A run is already going on this plan in this tab: stop it (plan.requestStop()) or wait for it to end.');
    const controller = new AbortController();
    const run = { controller, since: Date.now(), lost: false };
    this.#run = run;
    const offs: Array<() => void> = [];
    const stop = (reason: unknown): void => controller.abort(reason);
    const follow = (signal: AbortSignal): void => {
      if (signal.aborted) return stop(signal.reason);
      const onAbort = (): void => stop(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      offs.push(() => signal.removeEventListener('abort', onAbort));
    };
    const lease = this.#sync?.lease;
    let handle: Awaited<ReturnType<NonNullable<typeof lease>['acquire']>> = null;
    try {
      handle = (await lease?.acquire()) ?? null;
      if (lease && !handle && options.takeOver) {
        // Ask the running tab to stop, and take the lease once it has let go, and its last state
        // (saved before it let go) is merged here: the two runs never write at once. From a tab
        // that does not answer, by force.
        const sync = this.#sync!;
        const previous = (await lease.holder())?.replica;
        await lease.requestStop('the run was taken over by another tab');
        const deadline = Date.now() + sync.takeOverWaitMs;
        const wait = () => new Promise((resolve) => setTimeout(resolve, 20));
        while (!handle && Date.now() < deadline) {
          await wait();
          handle = await lease.acquire();
        }
        if (handle && previous) {
          await this.#pull().catch(() => {});
          while (!sync.caughtUp(previous, this.state) && Date.now() < deadline) await wait();
        }
        handle ??= await lease.acquire({ steal: true });
      }
      if (lease && !handle) {
        const holder = await lease.holder();
        const who = holder?.replica === this.#sync?.replica ? 'this tab' : `another tab (${holder?.replica || 'unknown'}${holder?.since ? `, since ${new Date(holder.since).toISOString()}` : ''})`;
        throw new PlanloopError('run_in_progress', `This plan's turn loop is running in ${who}. Stop it there or with plan.requestStop(), or pass takeOver: true to take it over.`);
      }
    } catch (error) {
      this.#run = undefined;
      throw error;
    }
    if (options.signal) follow(options.signal);
    let released = false;
    if (handle) {
      // The lease went to another tab (taken over, lapsed): that tab goes on from this plan.
      handle.signal.addEventListener('abort', () => (run.lost = !released), { once: true });
      follow(handle.signal);
      offs.push(lease!.onStopRequest(({ from, reason }) => stop(new AbortError(`Another tab (${from}) asked this run to stop${reason ? `: ${reason}` : '.'}`))));
      this.#events.emit('run-holder-change', { holder: this.#sync!.replica, self: true });
      // Start from the newest stored plan: the previous holder saved its last turn before it let go.
      await this.#pull().catch((error: unknown) => this.#storageError('load', error));
    }
    return {
      signal: controller.signal,
      release: async () => {
        if (released) return;
        released = true;
        for (const off of offs) off();
        this.#run = undefined;
        if (!handle) return;
        // Saved before the lease is free, so that the next holder starts from this run's end.
        if (!run.lost) await this.flush().catch(() => {});
        await handle.release();
        this.#events.emit('run-holder-change', { holder: null, self: false });
      },
    };
  }

  /** Who runs this plan's turn loop now, in this tab or another, or `null`. */
  async runHolder(): Promise<RunHolder | null> {
    const sync = this.#sync;
    if (!sync || this.#closed) return this.#run ? { replica: sync?.replica ?? '', since: this.#run.since, self: true } : null;
    const holder = await sync.lease.holder();
    return holder && { replica: holder.replica, since: holder.since, self: holder.replica === sync.replica };
  }

  /** Stops the plan's run: the one in this tab at once, else asks the tab that holds the run lease to stop (its `run-error` says so). */
  async requestStop(reason?: string): Promise<void> {
    if (this.#run) this.#run.controller.abort(new AbortError(`The run was stopped${reason ? `: ${reason}` : ' (plan.requestStop()).'}`));
    else if (!this.#closed) await this.#sync?.lease.requestStop(reason);
  }

  /**
   * Disconnects the plan: no more retries or page-lifecycle listeners for saves, no more notices
   * from other tabs, and a held run lease is given up. The plan still works, in memory, and still
   * saves on each change and on `flush()`. For a host that replaces its plan (a storage switch).
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#saves?.close();
    await this.#sync?.close();
  }

  /** Subscribes to a typed event; returns the function that unsubscribes. */
  on<K extends keyof PlanEvents & string>(name: K, listener: Listener<PlanEvents[K]>): Unsubscribe {
    return this.#events.on(name, listener);
  }

  /** Subscribes to every event (`listener(name, payload)`): for forwarding and logging. */
  onAny(listener: (name: keyof PlanEvents & string, payload: PlanEvents[keyof PlanEvents]) => void): Unsubscribe {
    return this.#events.onAny(listener);
  }

  /**
   * Emits a plan event. For integrations built on the plan (the turn loop, dialect adapters,
   * tool-call graphs) so that one `on()` sees everything a run does. The change events
   * (`state-change`, `todos-change`, `markdown-change`) come from the plan itself.
   */
  emit<K extends keyof PlanEvents & string>(name: K, payload: PlanEvents[K]): void {
    this.#events.emit(name, payload);
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
        this.#events.emit('summary-delta', { delta, text });
        options.onSummaryDelta?.(delta, text);
      },
    });
    return this.#setTaskPlan({ ...planned, task: input.task }, 'make-todos');
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
  setTaskPlan(taskPlan: { task_summary: string; todos: readonly TodoSeed[]; task?: string }): TaskPlan {
    return this.#setTaskPlan(taskPlan, 'host');
  }

  /**
   * Applies one turn's `todo_adjust` atomically: `remove` ids become `completed` (they stay in
   * `list()`), `complete_before` completes every open todo above the one it names (what the
   * compact envelope's `todo` means), `replace` rewrites todos in place. Adding todos is refused. `inProgress` (the
   * turn's `todo_id`) starts that todo in the same change. Emits `plan-update` when the todos
   * changed. Throws `EnvelopeError`, changing nothing, on a bad adjust.
   */
  adjust(todoAdjust: TodoAdjustInput, options: ApplyAdjustOptions = {}): AdjustResult {
    return this.#adjust(todoAdjust, options, (recipe) => this.#update(recipe));
  }

  /**
   * Begins a transaction: a checkpoint of the whole state. `rollback()` restores it (summary,
   * task, ids, statuses, documents, and so what is stored), then re-applies the changes made
   * outside the transaction since (by the host, a tool, another tab), so only the transaction's
   * own changes are undone. `runWebAgent` runs each turn in one. While the plan syncs (other
   * tabs' changes arrive as merges, which cannot be replayed), `rollback()` instead undoes the
   * transaction's own writes field by field, keeping what was written since here or elsewhere,
   * as a change with new clocks; and when this tab's run lost its lease to another tab by force,
   * it keeps the changes (that tab goes on from them).
   *
   * @example
   * ```ts
   * const turn = plan.transaction();
   * turn.adjust(envelope.todo_adjust, { inProgress: envelope.turn_planning?.todo_id });
   * await act(envelope.actions).then(() => turn.commit(), () => turn.rollback());
   * ```
   */
  transaction(): PlanTransaction {
    const tx: Transaction<PlanState, PlanChangeMeta> = this.#store.begin();
    // While the plan syncs: the todos the transaction wrote, by who made them (see rollback).
    const writes = new Map<string, TodoWrite>();
    const restore = (state: PlanState): PlanChangeMeta => ({ origin: 'rollback', todos: { type: 'restore', items: state.todos.map(copy) } });
    return {
      checkpoint: tx.checkpoint,
      adjust: (todoAdjust, options = {}) => {
        // A run that lost its lease changes nothing more: the tab that took it over writes now.
        if (this.#run?.lost) return { completed: [], replaced: [], ignored: [] };
        const before = this.state;
        const result = this.#adjust(todoAdjust, options, (recipe) => tx.update(recipe));
        if (this.#sync && this.state !== before) {
          const previous = new Map(before.todos.map((todo) => [todo.id, todo]));
          for (const todo of this.state.todos) {
            const was = previous.get(todo.id);
            if (!was || was === todo) continue;
            const clock = this.state.sync?.todos[todo.id];
            const maker = clock ? `${clock[2]}:${clock[3]}` : todo.id;
            writes.set(maker, { maker, id: todo.id, before: writes.get(maker)?.before ?? was, after: todo });
          }
        }
        return result;
      },
      rollback: () => {
        // A turn cut short because another tab took the run over is kept, not undone: that tab
        // goes on from it, and undoing it now would race with that tab's writes.
        if (this.#run?.lost) return tx.commit();
        const before = this.state;
        const sync = this.#sync;
        if (sync) {
          // Replaying the updates made meanwhile onto the checkpoint cannot work here: they
          // include merges, whose outcome depends on clocks that a replay does not have. The
          // transaction's own writes are undone instead, field by field, as one new change.
          tx.commit();
          this.#update((state) => {
            const next = sync.revert(state, writes.values());
            return next && { state: next, meta: restore(next) };
          });
        } else tx.rollback(restore);
        if (this.state.todos !== before.todos) this.#events.emit('plan-update', { todos: this.todos.list(), source: 'adjust' });
      },
      commit: () => tx.commit(),
    };
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
    await this.ready;
    if (this.#hydration === 'held' && this.#changedBeforeHydration) throw this.#held;
    await this.#saves?.flush();
  }

  #update(recipe: (state: PlanState) => { state: PlanState; meta: PlanChangeMeta } | null): void {
    this.#store.update(recipe);
  }

  /**
   * The last step of every commit (a rollback's too): a higher revision, and while the plan syncs,
   * clocks advanced for what this tab changed. A rollback is stamped like any change, from the
   * clocks it replaces, so that other tabs take the restored values over the undone ones.
   */
  #prepare(next: PlanState, previous: PlanState, meta: PlanChangeMeta): PlanState {
    const local = this.#sync && meta.origin !== 'sync' && meta.origin !== 'hydrate';
    return { ...next, revision: previous.revision + 1, ...(local ? { sync: this.#sync!.stamp(previous, next, meta.todos?.type === 'reset') } : {}) };
  }

  #adjust(
    todoAdjust: TodoAdjustInput,
    options: ApplyAdjustOptions,
    commit: (recipe: (state: PlanState) => { state: PlanState; meta: PlanChangeMeta } | null) => void,
  ): AdjustResult {
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
    if (this.state.todos !== before) this.#events.emit('plan-update', { todos: this.todos.list(), source: 'adjust' });
    return result;
  }

  #setTaskPlan(taskPlan: { task_summary: string; todos: readonly TodoSeed[]; task?: string }, origin: 'host' | 'make-todos'): TaskPlan {
    const summary = typeof taskPlan.task_summary === 'string' ? taskPlan.task_summary : '';
    const task = typeof taskPlan.task === 'string' ? taskPlan.task.trim() : '';
    let items: TodoItem[] = [];
    this.#update((state) => {
      const step = replaceTodos(state, taskPlan.todos);
      items = step.items;
      return { state: { ...step.state, summary, task }, meta: { origin, todos: { type: 'reset', items: items.map(copy) } } };
    });
    const copies = (): TodoItem[] => items.map(copy);
    this.#events.emit('plan-create', { plan: { task_summary: summary, todos: copies() } });
    this.#events.emit('plan-update', { todos: copies(), source: 'make-todos' });
    return { task_summary: summary, todos: copies() };
  }

  async #editWithInstruction(before: MarkdownDoc, instruction: string, options: EditWithInstructionOptions): Promise<MarkdownDoc | null> {
    const provider = this.provider('edit');
    // Loaded on first use, like the planner.
    // (One destructured import each: bundlers tree-shake what a static destructuring names.)
    const { editDocument } = await import('./planning/edit-with-instruction.js');
    const { mergeDocument } = await import('./planning/merge-text.js');
    const edited = await editDocument(provider, before, instruction, options);
    const now = this.state.docs.find((doc) => doc.id === before.id);
    const proposed = { title: edited.title, content: edited.content };
    if (!now) throw new ConflictError(before.id, `Markdown doc ${before.id} was deleted while the model edited it; nothing was saved.`, [], proposed);
    // Edited meanwhile (the user, another tab): the model's change goes onto the new version when
    // the two touched different parts; where they overlap, the user's text is kept.
    const unchanged = now.title === before.title && now.content === before.content;
    const merged = unchanged ? { ok: true as const, value: edited } : mergeDocument(before, now, edited);
    if (!merged.ok) {
      throw new ConflictError(
        before.id,
        `Markdown doc ${before.id} was edited while the model worked, in the same place the model changed (${merged.conflicts.map((conflict) => (conflict.field === 'title' ? 'the title' : `line ${conflict.line}`)).join(', ')}); your version was kept. Try the instruction again.`,
        merged.conflicts,
        proposed,
      );
    }
    let result: MarkdownDoc | null = null;
    const updatedAt = this.#stamp();
    this.#update((state) => {
      const step = editMarkdownDoc(state, before.id, { title: merged.value.title, content: merged.value.content }, updatedAt);
      result = step?.doc ?? null;
      return step && step.state !== state ? { state: step.state, meta: { origin: 'edit', markdown: step.change } } : null;
    });
    return result ? { ...(result as MarkdownDoc) } : null;
  }

  #onCommit(state: PlanState, previous: PlanState, meta: PlanChangeMeta): void {
    if (this.#hydration !== 'done' && meta.origin !== 'hydrate') {
      this.#changedBeforeHydration = true;
      if (meta.todos?.type === 'reset') this.#replacedBeforeHydration = true;
      this.#statusChanged();
    } else if (meta.origin !== 'hydrate' && meta.origin !== 'sync') this.#saves?.request();
    this.#events.emit('state-change', { state, previous, origin: meta.origin });
    if (state.todos !== previous.todos) {
      const todos = state.todos.map(copy);
      const change = meta.todos ?? { type: 'restore', items: state.todos.map(copy) };
      this.#events.emit('todos-change', { todos, change } satisfies TodosChangeEvent);
    }
    if (state.docs !== previous.docs) {
      const docs = state.docs.map(copyDoc);
      const change = meta.markdown ?? { type: 'restore', docs: state.docs.map(copyDoc) };
      this.#events.emit('markdown-change', { docs, change } satisfies MarkdownChangeEvent);
    }
  }

  async #load(): Promise<void> {
    const storage = this.storage;
    if (!storage) {
      this.#hydration = 'done';
      return;
    }
    this.#hydration = 'loading';
    this.#statusChanged();
    const wanted = this.#wantedSync();
    // Loaded beside the stored plan: commits are stamped from the moment hydration commits.
    const syncModule = wanted && this.#loadSync();
    let raw: unknown;
    try {
      raw = await storage.load();
    } catch (caught) {
      // A synchronous adapter (localStorage) throws inside attachTo(); report a microtask later, as
      // every other load outcome is, so a listener subscribed right after attachTo() hears it.
      await Promise.resolve();
      const error = asStorageError('load', caught);
      this.#storageError('load', error);
      if (error.raw === undefined) {
        this.#hold(error);
        // A blocked IndexedDB opens once the tab holding it goes: hydrate then (and save what was done meanwhile).
        if (error.reason === 'blocked') {
          void storage.opened?.().then(() => {
            if (this.#hydration === 'held') void this.hydrate();
          });
        }
        return;
      }
      if (!(await this.#setAside(storage, error.raw, error.message))) return;
      raw = null;
    }
    let stored: PlanState | undefined;
    if (raw !== null && raw !== undefined) {
      const parsed = safeParseSnapshot(raw);
      if (parsed.success) {
        for (const issue of parsed.dropped) {
          this.#storageError('load', new StorageError('load', `The stored plan's ${issue.path} ${issue.message}; it was left out and the rest of the plan was kept.`));
        }
        stored = snapshotToState(parsed.data);
      } else {
        this.#storageError('load', parsed.error);
        if (!(await this.#setAside(storage, raw, parsed.error.message))) return;
      }
    }
    await this.#finishHydration(stored, syncModule && (await syncModule), wanted);
  }

  /** Commits what was stored (merged with the work done meanwhile), starts syncing, and lets saves go. */
  async #finishHydration(stored: PlanState | undefined, module: SyncModule | undefined, wanted: (PlanSyncOptions & { key: string }) | undefined): Promise<void> {
    if (module && wanted && !this.#sync && !this.#closed) {
      this.#sync = module.startPlanSync({
        ...wanted,
        onChange: () => this.#schedulePull(),
        onHolder: (holder) => this.#events.emit('run-holder-change', { holder, self: false }),
      });
    }
    const sync = this.#sync;
    const replaced = this.#replacedBeforeHydration;
    this.#store.update((local) => {
      const step = stored ? hydrated(local, stored, replaced) : null;
      if (!sync || (!stored && local.todos.length + local.docs.length === 0)) return step;
      // This tab's work from before hydration is its own new writes on top of what was stored.
      const next = step?.state ?? local;
      const base = stored ?? { ...EMPTY_PLAN_STATE, sync: undefined };
      return { state: { ...next, sync: sync.stamp(base, next, replaced) }, meta: step?.meta ?? { origin: 'hydrate' } };
    });
    this.#hydration = 'done';
    this.#held = undefined;
    const state = this.state;
    this.#events.emit('plan-hydrate', { todos: state.todos.map(copy), markdownCount: state.docs.length, restored: stored !== undefined });
    if (this.#changedBeforeHydration) this.#saves?.request();
    this.#statusChanged();
  }

  /** Sets unreadable data aside with the adapter's `backup`; when it cannot, holds saving (see `hydrate`) and says so. */
  async #setAside(storage: PlanStorageAdapter, raw: unknown, reason: string): Promise<boolean> {
    let why = 'cannot be set aside (this storage has no backup())';
    let cause: unknown;
    if (storage.backup) {
      try {
        await storage.backup(raw, reason);
        return true;
      } catch (error) {
        why = `could not be set aside (${error instanceof Error ? error.message : String(error)})`;
        cause = error;
      }
    }
    const failure = new StorageError(
      'save',
      `The unreadable stored plan ${why}; it is still stored. The plan keeps working in memory and writes nothing over it until you decide: export it (this error's raw, or the adapter's exportCorrupt()), then call plan.discardStoredPlan() to write over it; or free space (the adapter's discardCorrupt()) and call plan.hydrate() to set it aside again.`,
      { raw, reason: 'backup_failed' },
      cause === undefined ? {} : { cause },
    );
    this.#storageError('save', failure);
    this.#hold(failure);
    return false;
  }

  #hold(error: StorageError): void {
    this.#hydration = 'held';
    this.#held = error;
    this.#statusChanged();
  }

  /** Sync options when the plan should sync (see `PlanConfig.sync`), else `undefined`. */
  #wantedSync(): (PlanSyncOptions & { key: string }) | undefined {
    const option = this.#syncOption;
    const key = (typeof option === 'object' && option.key) || this.storage?.syncKey;
    if (option === false || !key) return undefined;
    const global = globalThis as { BroadcastChannel?: unknown; addEventListener?: unknown };
    if (option === undefined && typeof global.BroadcastChannel !== 'function' && typeof global.addEventListener !== 'function') return undefined;
    return { ...(typeof option === 'object' ? option : {}), key };
  }

  /** The sync code, loaded on first use (its own chunk); `undefined`, with a warning, when it cannot load. */
  #loadSync(): Promise<SyncModule | undefined> {
    return import('./storage/plan-sync.js').catch((error: unknown) => {
      this.#events.emit('plan-warning', { code: 'sync_unavailable', message: `Cross-tab sync could not load (${error instanceof Error ? error.message : String(error)}); this plan does not sync with other tabs.` });
      return undefined;
    });
  }

  /** Loads the stored plan and merges it in (another tab saved): conflicts become `sync-conflict`; a merge storage lacks is saved. */
  async #pull(): Promise<void> {
    const sync = this.#sync;
    const storage = this.storage;
    if (!sync || !storage) return;
    const raw = await storage.load();
    let remote: PlanSnapshot | null = null;
    if (raw !== null && raw !== undefined) {
      const parsed = safeParseSnapshot(raw);
      if (!parsed.success) throw parsed.error;
      remote = parsed.data;
    }
    let merge: ReturnType<PlanSync['merge']> = { step: null, conflicts: [], behind: false };
    const before = this.state.todos;
    // Merged at commit time, so that a change made while the load ran is merged too.
    this.#store.update((state) => (merge = sync.merge(state, remote)).step);
    for (const conflict of merge.conflicts) this.#events.emit('sync-conflict', { conflict });
    if (this.state.todos !== before) this.#events.emit('plan-update', { todos: this.todos.list(), source: 'sync' });
    if (merge.behind) this.#saves?.request();
  }

  /** Pulls once per notice burst: notices that arrive while a pull runs make one more. */
  #schedulePull(): void {
    if (this.#closed) return;
    if (this.#pulling) {
      this.#pullAgain = true;
      return;
    }
    this.#pulling = (async () => {
      do {
        this.#pullAgain = false;
        try {
          await this.#pull();
        } catch (error) {
          this.#storageError('load', error);
        }
      } while (this.#pullAgain);
      this.#pulling = undefined;
    })();
  }

  /** Emits `save-status-change` when `saveStatus` differs from the last one emitted. */
  #statusChanged(): void {
    const status = this.saveStatus;
    const key = `${status.state} ${status.failures} ${status.lastSaved}`;
    if (key === this.#reportedStatus) return;
    this.#reportedStatus = key;
    this.#events.emit('save-status-change', { status });
  }

  #stamp(): number {
    this.#lastStamp = Math.max(Date.now(), this.#lastStamp + 1);
    return this.#lastStamp;
  }

  #storageError(operation: 'load' | 'save', error: unknown): void {
    this.#events.emit('storage-error', { error: asStorageError(operation, error) });
  }
}

/** `error` as a {@link StorageError} of `operation`, keeping it when it is one already. */
function asStorageError(operation: 'load' | 'save', error: unknown): StorageError {
  if (error instanceof StorageError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StorageError(operation, `${operation === 'load' ? 'Loading' : 'Saving'} the plan failed: ${message}`, {}, { cause: error });
}

const copy = (todo: TodoItem): TodoItem => ({ ...todo });
const copyDoc = (doc: MarkdownDoc): MarkdownDoc => ({ ...doc });

/**
 * The state after loading `stored` into a plan that may have changed before it finished loading:
 * stored todos and documents first, then the local ones (a local id the stored plan has, or had
 * and deleted, gets a fresh id). When the local todos replaced the plan (`replaced`), the stored
 * todos are not merged back, but their ids stay retired.
 */
function hydrated(local: PlanState, stored: PlanState, replaced: boolean): { state: PlanState; meta: PlanChangeMeta } | null {
  let todosCounter = Math.max(local.lastIds.todos, stored.lastIds.todos);
  let docsCounter = Math.max(local.lastIds.markdown, stored.lastIds.markdown);
  const rename = <T extends { id: string }>(items: readonly T[], taken: readonly T[], prefix: 't' | 'm', storedLast: number): { items: T[]; renamed: boolean } => {
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
      todos: advancedPast('t', todosCounter, todos.map((todo) => todo.id)),
      markdown: advancedPast('m', docsCounter, docs.map((doc) => doc.id)),
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
