import { reportError } from './errors.js';

/**
 * A step of the state: the next state and what the change was, or `null` for "nothing changed".
 *
 * @example
 * ```ts
 * const recipe: Recipe<number, string> = (n) => ({ state: n + 1, meta: 'increment' });
 * ```
 */
export type Recipe<S, M> = (state: S) => { state: S; meta: M } | null;

/** One committed change, as subscribers receive it. */
export interface Commit<S, M> {
  readonly state: S;
  readonly previous: S;
  readonly meta: M;
}

/**
 * A group of updates that can be undone as one. `rollback()` puts the state back to the checkpoint
 * taken when the transaction began, then replays the updates made outside the transaction since
 * (by the host, a tool, another tab), so only the transaction's own changes disappear. With no
 * such updates the state is the checkpoint itself.
 */
export interface Transaction<S, M> {
  /** The state when the transaction began. */
  readonly checkpoint: S;
  /** Commits `recipe` as part of this transaction. Throws what the recipe throws, changing nothing. */
  update(recipe: Recipe<S, M>): void;
  /** Undoes the transaction's updates (see above), as one commit described by `meta`, and ends it. */
  rollback(meta: (state: S) => M): void;
  /** Keeps the transaction's updates and ends it. */
  commit(): void;
}

/**
 * The core of the plan: one immutable state value, changed only by `update`, which applies a pure
 * recipe and commits its result whole (a recipe that throws changes nothing), then tells every
 * subscriber once. A subscriber that updates the store from inside its callback is told about its
 * own change after every subscriber has heard of the current one, so all of them see the changes
 * in the order they happened. A subscriber that throws is reported and skipped.
 *
 * @example
 * ```ts
 * const store = new Store<number, string>(0);
 * store.subscribe(({ state, meta }) => console.log(meta, state));
 * store.update((n) => ({ state: n + 1, meta: 'increment' })); // logs: increment 1
 * ```
 */
export class Store<S, M> {
  #state: S;
  readonly #listeners = new Set<(commit: Commit<S, M>) => void>();
  readonly #queue: Array<Commit<S, M>> = [];
  #delivering = false;
  /** Updates committed while a transaction is open, for replay on rollback. */
  #log: Array<{ owner: object | null; recipe: Recipe<S, M> }> = [];
  readonly #open = new Map<object, number>();
  readonly #onListenerError: (error: unknown) => void;
  readonly #prepare: ((next: S, previous: S, meta: M) => S) | undefined;

  /**
   * `prepare` (optional) is the last step of every commit, rollbacks included: it gets the state
   * about to be committed and the one it replaces, and returns the state to commit, with what
   * every state must carry (a commit counter, clocks). Replays inside a rollback do not pass
   * through it; the rollback's one commit does.
   */
  constructor(initial: S, options: { onListenerError?: (error: unknown) => void; prepare?: (next: S, previous: S, meta: M) => S } = {}) {
    this.#state = initial;
    this.#onListenerError = options.onListenerError ?? reportError;
    this.#prepare = options.prepare;
  }

  /** The current state. Never mutate it: it is shared. */
  get state(): S {
    return this.#state;
  }

  /** Applies `recipe` to the current state and commits its result (nothing when it returns `null`). */
  update(recipe: Recipe<S, M>): void {
    this.#apply(recipe, null);
  }

  /** Calls `listener` after every commit; returns the function that unsubscribes. */
  subscribe(listener: (commit: Commit<S, M>) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Begins a {@link Transaction} at the current state.
   *
   * @example
   * ```ts
   * const store = new Store<number, string>(0);
   * const turn = store.begin();
   * turn.update((n) => ({ state: n + 1, meta: 'turn' }));
   * declare const failed: boolean; // the turn's actions failed
   * if (failed) turn.rollback(() => 'rollback'); else turn.commit();
   * ```
   */
  begin(): Transaction<S, M> {
    const owner = {};
    const checkpoint = this.#state;
    this.#open.set(owner, this.#log.length);
    const end = (): void => {
      this.#open.delete(owner);
      if (this.#open.size === 0) this.#log = [];
    };
    return {
      checkpoint,
      update: (recipe) => {
        if (!this.#open.has(owner)) throw new Error('This transaction has ended.');
        this.#apply(recipe, owner);
      },
      rollback: (meta) => {
        const start = this.#open.get(owner);
        if (start === undefined) return;
        // Nothing of its own to undo: the state stays as it is (replaying the others' updates would
        // make an equal copy, and a commit, an event and a save for no change).
        if (!this.#log.slice(start).some((entry) => entry.owner === owner)) return end();
        let state = checkpoint;
        for (const entry of this.#log.slice(start)) {
          if (entry.owner === owner) continue;
          try {
            state = entry.recipe(state)?.state ?? state;
          } catch {
            // The update no longer applies without this transaction's changes (it built on them):
            // it goes with them.
          }
        }
        end();
        if (state !== this.#state) this.#commit(state, meta(state));
      },
      commit: end,
    };
  }

  #apply(recipe: Recipe<S, M>, owner: object | null): void {
    const step = recipe(this.#state);
    if (!step || step.state === this.#state) return;
    if (this.#open.size > 0) this.#log.push({ owner, recipe });
    this.#commit(step.state, step.meta);
  }

  #commit(next: S, meta: M): void {
    const previous = this.#state;
    const state = this.#prepare ? this.#prepare(next, previous, meta) : next;
    this.#state = state;
    this.#queue.push({ state, previous, meta });
    if (this.#delivering) return;
    this.#delivering = true;
    try {
      for (let commit = this.#queue.shift(); commit; commit = this.#queue.shift()) {
        for (const listener of [...this.#listeners]) {
          try {
            listener(commit);
          } catch (error) {
            this.#onListenerError(error);
          }
        }
      }
    } finally {
      this.#delivering = false;
    }
  }
}
