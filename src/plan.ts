import { editMarkdownDoc, MarkdownArtifact, type EditWithInstructionOptions, type MarkdownChangeEvent } from './artifacts/markdown.js';
import { advancedPast, idNumber, nextIds } from './artifacts/id-sequence.js';
import { replaceTodos, TodosArtifact, type TodoSeed, type TodosChangeEvent } from './artifacts/todos.js';
import { TypedEmitter, type Listener, type Unsubscribe } from './emitter.js';
import { applyAdjust, type AdjustResult } from './envelope/apply.js';
import type { TodoAdjustInput } from './envelope/schema.js';
import { ConflictError, PlanloopError, StorageError } from './errors.js';
import type { PlanEvents, TaskPlan } from './events.js';
import { resolveProvider, type LLMProvider, type LLMRole, type LLMSource } from './llm/provider.js';
import { EMPTY_PLAN_STATE, type MarkdownDoc, type PlanChangeMeta, type PlanState, type PlanStateHost, type TodoItem } from './plan-state.js';
import type { MakeTodosOptions, PlanInput } from './planning/make-todos.js';
import { createSaveQueue, type SaveQueue } from './storage/save-queue.js';
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
  adjust(todoAdjust: TodoAdjustInput, options?: { inProgress?: string | undefined }): AdjustResult;
  /** Puts back the state as it was at the checkpoint, keeping changes others made meanwhile; ends the transaction. */
  rollback(): void;
  /** Keeps the transaction's changes; ends it. */
  commit(): void;
}

type Hydration = 'idle' | 'loading' | 'done' | 'unreadable';

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
 * stay retired.
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

  readonly #store = new Store<PlanState, PlanChangeMeta>(EMPTY_PLAN_STATE);
  readonly #events = new TypedEmitter<PlanEvents>();
  readonly #saves: SaveQueue | undefined;
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
        try {
          await storage.save(this.snapshot());
        } catch (error) {
          throw asStorageError('save', error);
        }
      };
      this.#saves = createSaveQueue(save, { onError: (error) => this.#storageError('save', error) });
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
  adjust(todoAdjust: TodoAdjustInput, options: { inProgress?: string | undefined } = {}): AdjustResult {
    return this.#adjust(todoAdjust, options, (recipe) => this.#update(recipe));
  }

  /**
   * Begins a transaction: a checkpoint of the whole state. `rollback()` restores it (summary,
   * task, ids, statuses, documents, and so what is stored), then re-applies the changes made
   * outside the transaction since (by the host, a tool, another tab), so only the transaction's
   * own changes are undone. `runWebAgent` runs each turn in one.
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
    return {
      checkpoint: tx.checkpoint,
      adjust: (todoAdjust, options = {}) => this.#adjust(todoAdjust, options, (recipe) => tx.update(this.#counted(recipe))),
      rollback: () => {
        const before = this.state;
        tx.rollback((state) => ({ origin: 'rollback', todos: { type: 'restore', items: state.todos.map(copy) } }));
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
    await this.#saves?.flush();
  }

  #update(recipe: (state: PlanState) => { state: PlanState; meta: PlanChangeMeta } | null): void {
    this.#store.update(this.#counted(recipe));
  }

  /** The recipe with the revision counted: every commit gets a higher one. */
  #counted(recipe: (state: PlanState) => { state: PlanState; meta: PlanChangeMeta } | null) {
    return (state: PlanState) => {
      const step = recipe(state);
      return step && step.state !== state ? { state: { ...step.state, revision: this.#store.state.revision + 1 }, meta: step.meta } : null;
    };
  }

  #adjust(
    todoAdjust: TodoAdjustInput,
    options: { inProgress?: string | undefined },
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
    } else if (meta.origin !== 'hydrate') this.#saves?.request();
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
        for (const issue of parsed.dropped) {
          this.#storageError('load', new StorageError('load', `The stored plan's ${issue.path} ${issue.message}; it was left out and the rest of the plan was kept.`));
        }
        const stored = snapshotToState(parsed.data);
        const replaced = this.#replacedBeforeHydration;
        this.#store.update((local) => hydrated(local, stored, replaced));
        restored = true;
      } else {
        this.#storageError('load', parsed.error);
        await this.#backup(storage, raw, parsed.error.message);
      }
    }
    this.#hydration = 'done';
    const state = this.state;
    this.#events.emit('plan-hydrate', { todos: state.todos.map(copy), markdownCount: state.docs.length, restored });
    if (this.#changedBeforeHydration) this.#saves?.request();
  }

  async #backup(storage: PlanStorageAdapter, raw: unknown, reason: string): Promise<void> {
    if (!storage.backup) return;
    try {
      await storage.backup(raw, reason);
    } catch (error) {
      this.#storageError('save', new StorageError('save', "Keeping the unreadable stored plan aside failed; the data is in this error's `raw`.", { raw }, { cause: error }));
    }
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
