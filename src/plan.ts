import { MarkdownArtifact } from './artifacts/markdown.js';
import { TodosArtifact } from './artifacts/todos.js';
import { TypedEmitter, type Listener, type Unsubscribe } from './emitter.js';
import { applyTodoAdjust } from './envelope/adjust.js';
import type { TodoItem, TodoSeed } from './artifacts/todos.js';
import type { TodoAdjustInput } from './envelope/schema.js';
import { PlanloopError, StorageError } from './errors.js';
import type { AdjustResult, PlanEvents, TaskPlan } from './events.js';
import { resolveProvider, type LLMProvider, type LLMRole, type LLMSource } from './llm/provider.js';
import { rewriteDocument } from './planning/edit-with-instruction.js';
import { makeTodos, type MakeTodosOptions, type PlanInput } from './planning/make-todos.js';
import { createSaveQueue, type SaveQueue } from './storage/save-queue.js';
import { SNAPSHOT_VERSION, safeParseSnapshot, type PlanSnapshot, type PlanStorageAdapter } from './storage/snapshot.js';

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
}

type HydrationState = 'idle' | 'loading' | 'done' | 'unreadable';

/**
 * A visible, persistent plan for an in-page agent: ordered todos, markdown documents, one
 * planning call (`makeTodos`) and the per-turn `adjust`.
 *
 * Persistence: the plan saves after every mutation (bursts coalesce, saves never overlap or land
 * out of order) and never writes storage before it has read it.
 *
 * Work done before hydration finishes is kept: stored todos and documents are loaded first and the
 * earlier local ones follow them (a local id that the stored plan uses, or used and deleted, gets a
 * fresh id). A
 * `todos.reset()` or `makeTodos()` before hydration finishes means "this is the plan now": the
 * stored todos are not merged back in, though their ids stay retired.
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

  readonly #events = new TypedEmitter<PlanEvents>();
  readonly #saves: SaveQueue | undefined;
  #hydration: HydrationState = 'idle';
  #ready: Promise<void> | undefined;
  #changedBeforeHydration = false;
  #resetBeforeHydration = false;
  #summary = '';
  #task = '';
  /**
   * Resets made by setTaskPlan whose change event has not been handled yet. A count, not a flag
   * around the call: events are queued, so a reset a listener makes during setTaskPlan (or a
   * setTaskPlan a listener makes during another reset) is told apart by its place in the queue.
   */
  #ownResets = 0;
  /** Keys of the stored snapshot this version does not use: written back as they were. */
  #extras: Record<string, unknown> = {};

  constructor(config: PlanConfig = {}) {
    this.llm = config.llm;
    this.agentName = config.agentName;
    this.appendSystemPrompt = config.appendSystemPrompt;
    this.systemPrompt = config.systemPrompt;
    this.storage = config.storage;
    this.todos = new TodosArtifact();
    this.markdown = new MarkdownArtifact({
      editor: (doc, instruction, options) => rewriteDocument(this, doc, instruction, options),
    });
    if (this.storage) {
      const storage = this.storage;
      this.#saves = createSaveQueue(() => this.#save(storage), {
        onError: (error) => this.#storageError('save', error),
      });
    }
    // Loading the stored plan writes nothing back; every other change (also one a listener makes
    // in response to hydration) is saved.
    this.todos.onChange((event) => {
      // A summary describes the todos it came with: a host reset (a decline, a checklist) drops it.
      if (event.change.type === 'reset') {
        if (this.#ownResets > 0) this.#ownResets--;
        else {
          this.#summary = '';
          this.#task = '';
        }
      }
      if (event.change.type !== 'hydrate') this.#noteChange(event.change.type === 'reset');
      this.#events.emit('todos-change', event);
    });
    this.markdown.onChange((event) => {
      if (event.change.type !== 'hydrate') this.#noteChange(false);
      this.#events.emit('markdown-change', event);
    });
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
   * reported (`storage-error`), handed to the adapter's `backup`, and the plan starts empty. A
   * load that throws (storage unreachable) is reported and the plan does not save over data it
   * could not read; call `hydrate()` again to retry.
   */
  hydrate(): Promise<void> {
    if (this.#ready && this.#hydration !== 'unreadable') return this.#ready;
    this.#ready = this.#load();
    return this.#ready;
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
   * tool-call graphs) so that one `on()` sees everything a run does.
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
   * The planning call: one model call that lays out a task summary and ordered todos, then
   * resets `plan.todos` to exactly those (fresh ids, `pending`) and emits `plan-create`. A failed
   * or aborted call changes nothing.
   */
  makeTodos(input: PlanInput, options: MakeTodosOptions = {}): Promise<TaskPlan> {
    return makeTodos(this, input, options);
  }

  /**
   * The one-sentence summary of the current todos: set by `makeTodos` (or `setTaskPlan`), stored
   * with them and restored after a reload; `''` when the todos came from elsewhere (a host
   * `todos.reset()`, a checklist), since it would no longer describe them.
   */
  get summary(): string {
    return this.#summary;
  }

  /**
   * The user's task the current todos were planned for (`makeTodos`' `input.task`), stored with
   * them; `''` when unknown. `runWebAgent` resumes a plan only for the same task by default.
   */
  get task(): string {
    return this.#task;
  }

  /**
   * Makes `taskPlan` the plan: its todos replace the list (ids assigned, statuses `pending` unless
   * given), its summary becomes `plan.summary` and its `task` (optional) `plan.task`, in one change; emits `plan-create` and
   * `plan-update`. This is what `makeTodos` does with the model's answer; a host with its own
   * planner can call it directly. Throws `ValidationError` (changing nothing) on bad todos.
   */
  setTaskPlan(taskPlan: { task_summary: string; todos: readonly TodoSeed[]; task?: string }): TaskPlan {
    const summary = typeof taskPlan.task_summary === 'string' ? taskPlan.task_summary : '';
    const previous = this.#summary;
    const previousTask = this.#task;
    let todos: TodoItem[];
    try {
      // Set first: the reset's save reads the summary with the todos, in one snapshot.
      this.#summary = summary;
      this.#task = typeof taskPlan.task === 'string' ? taskPlan.task.trim() : '';
      this.#ownResets++;
      todos = this.todos.reset(taskPlan.todos);
    } catch (error) {
      // The reset refused the todos before emitting anything: no event will take the count back.
      this.#ownResets--;
      this.#summary = previous;
      this.#task = previousTask;
      throw error;
    }
    const copies = () => todos.map((todo) => ({ ...todo }));
    this.#events.emit('plan-create', { plan: { task_summary: summary, todos: copies() } });
    this.#events.emit('plan-update', { todos: copies(), source: 'make-todos' });
    return { task_summary: summary, todos: copies() };
  }

  /**
   * Applies one turn's `todo_adjust` atomically: `remove` ids become `completed` (they stay in
   * `list()`), `replace` rewrites todos in place. Adding todos is refused. `inProgress` (the
   * turn's `todo_id`) starts that todo in the same change. Emits `plan-update`.
   */
  adjust(todoAdjust: TodoAdjustInput, options: { inProgress?: string } = {}): AdjustResult {
    const { todos, changed, ...result } = applyTodoAdjust(this.todos, todoAdjust, {
      inProgress: options.inProgress,
      lastId: this.todos.lastId,
    });
    if (changed) this.#events.emit('plan-update', { todos, source: 'adjust' });
    return result;
  }

  /** The plan as stored: todos, documents, the id counters, and any extra keys the stored snapshot had. */
  snapshot(): PlanSnapshot {
    return {
      ...cloneExtras(this.#extras),
      version: SNAPSHOT_VERSION,
      todos: this.todos.list(),
      markdownDocs: this.markdown.list(),
      lastIds: { todos: this.todos.lastId, markdown: this.markdown.lastId },
      ...(this.#summary ? { taskSummary: this.#summary } : {}),
      ...(this.#task ? { task: this.#task } : {}),
    };
  }

  /**
   * Resolves when every requested save has been attempted (failures go to `storage-error`). Like
   * `ready`, it starts hydration if `attachTo` has not: the plan saves only after it has read storage.
   */
  async flush(): Promise<void> {
    await this.ready;
    await this.#saves?.flush();
  }

  #noteChange(isReset: boolean): void {
    if (this.#hydration !== 'done') {
      this.#changedBeforeHydration = true;
      if (isReset) this.#resetBeforeHydration = true;
      return;
    }
    this.#saves?.request();
  }

  async #load(): Promise<void> {
    const storage = this.storage;
    if (!storage) {
      this.#hydration = 'done';
      return;
    }
    this.#hydration = 'loading';
    let raw: unknown;
    try {
      raw = await storage.load();
    } catch (error) {
      // A synchronous adapter (localStorage) throws inside attachTo(); report a microtask later, as
      // every other load outcome is, so a listener subscribed right after attachTo() hears it.
      await Promise.resolve();
      const unreadable = !(error instanceof StorageError && error.raw !== undefined);
      this.#storageError('load', error);
      if (unreadable) {
        this.#hydration = 'unreadable';
        return;
      }
      await this.#backup(storage, (error as StorageError).raw, (error as StorageError).message);
      raw = null;
    }
    let restored = false;
    if (raw !== null && raw !== undefined) {
      const parsed = safeParseSnapshot(raw);
      if (parsed.success) {
        const { version: _version, todos, markdownDocs, lastIds, taskSummary, task, ...extras } = parsed.data;
        this.#extras = extras;
        // The stored summary and task go with the stored todos, unless a reset before hydration replaced them.
        if (!this.#resetBeforeHydration) {
          if (taskSummary) this.#summary = taskSummary;
          if (task) this.#task = task;
        }
        this.todos.hydrate(todos, lastIds?.todos ?? 0, { keepLocalOnly: this.#resetBeforeHydration });
        this.markdown.hydrate(markdownDocs, lastIds?.markdown ?? 0);
        restored = true;
      } else {
        this.#storageError('load', parsed.error);
        await this.#backup(storage, raw, parsed.error.message);
      }
    }
    this.#hydration = 'done';
    this.#events.emit('plan-hydrate', { todos: this.todos.list(), markdownCount: this.markdown.list().length, restored });
    if (this.#changedBeforeHydration) this.#saves?.request();
  }

  async #backup(storage: PlanStorageAdapter, raw: unknown, reason: string): Promise<void> {
    if (!storage.backup) return;
    try {
      await storage.backup(raw, reason);
    } catch (error) {
      this.#storageError('save', new StorageError('save', 'Keeping the unreadable stored plan aside failed; the data is in this error\'s `raw`.', { raw }, { cause: error }));
    }
  }

  async #save(storage: PlanStorageAdapter): Promise<void> {
    await storage.save(this.snapshot());
  }

  #storageError(operation: 'load' | 'save', error: unknown): void {
    const storageError =
      error instanceof StorageError
        ? error
        : new StorageError(operation, `${operation === 'load' ? 'Loading' : 'Saving'} the plan failed: ${(error as Error)?.message ?? String(error)}`, {}, { cause: error });
    this.#events.emit('storage-error', { error: storageError });
  }
}

/** A deep copy of the stored snapshot's extra keys where they can be cloned, else a shallow one. */
function cloneExtras(extras: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(extras);
  } catch {
    return { ...extras };
  }
}
