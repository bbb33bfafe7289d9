/** Where the queue stands: `saved` (nothing to write), `pending` (a save is due or running), `failing` (the last attempt failed; a retry is scheduled). */
export type SaveState = 'saved' | 'pending' | 'failing';

/** A {@link SaveQueue}'s status, for a host to show ("saved 2 s ago", "not saved: disk full"). */
export interface SaveStatus {
  readonly state: SaveState;
  /** Consecutive failed attempts (0 unless `failing`). */
  readonly failures: number;
  /** When the last save landed (`Date.now()`), or `undefined` before the first. */
  readonly lastSaved: number | undefined;
  /** What the last attempt threw, while `failing`. */
  readonly error: unknown;
}

/**
 * A plan's save status (`plan.saveStatus`, the `save-status-change` event): its save queue's, or
 * `held` while the plan will not write because it could not read the stored plan or set it aside
 * (`error` says why; `plan.hydrate()` or `plan.discardStoredPlan()` ends it).
 *
 * @example
 * ```ts
 * const badge = document.querySelector('#save-badge')!;
 * plan.on('save-status-change', ({ status }) => (badge.textContent = status.state === 'saved' ? 'Saved' : 'Not saved yet'));
 * ```
 */
export interface PlanSaveStatus extends Omit<SaveStatus, 'state'> {
  readonly state: SaveState | 'held';
}

/** Options of {@link createSaveQueue}. */
export interface SaveQueueOptions {
  /** Called with what each failed attempt threw (every failure, retries included). */
  onError: (error: unknown) => void;
  /** Backoff of automatic retries: `initialMs` doubling to `maxMs`, each jittered to between half and all of it. Default 250 ms to 30 s. */
  retry?: { initialMs?: number; maxMs?: number } | undefined;
  /** Timer functions. Default: the global `setTimeout` / `clearTimeout`, read when the queue is created. */
  timers?: { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void } | undefined;
  /** Jitter source in [0, 1). Default `Math.random`. */
  random?: (() => number) | undefined;
  /**
   * Where `pagehide` and `visibilitychange` are heard for a last attempt before the page goes
   * away. Default `globalThis` when it is an event target (a window), read when the queue is
   * created; `null` listens nowhere.
   */
  lifecycle?: EventTarget | null | undefined;
}

/**
 * Serializes saves: at most one in flight, never out of order, and a burst of requests while one
 * is in flight coalesces into a single save of the newest state. A failed save is retried on its
 * own with backoff until one lands; `flush()` retries at once and rejects if it still fails.
 *
 * When the page is hidden or left (`pagehide`, `visibilitychange` to hidden) an unsaved state gets
 * one last attempt, started inside the event: a synchronous store (localStorage) has really
 * written when the event returns; an asynchronous one (IndexedDB) may not finish before the page
 * is frozen or discarded.
 *
 * @example
 * ```ts
 * const queue = createSaveQueue(() => adapter.save(plan.snapshot()), { onError: console.warn });
 * queue.request(); queue.request(); // one save, after the current microtask
 * await queue.flush();              // rejects with the error if the state still cannot be saved
 * queue.status.state;               // 'saved'
 * ```
 */
export interface SaveQueue {
  /** Asks for a save of the state as it will be when the save starts. While `failing`, the state waits for the next retry. */
  request(): void;
  /**
   * Resolves when nothing is left unsaved. Waits for a save in flight; an unsaved state is saved
   * at once (not at the next retry), and if that attempt fails too, rejects with its error.
   */
  flush(): Promise<void>;
  /** The current status. */
  readonly status: SaveStatus;
  /** Calls `listener` whenever the status changes; returns the function that unsubscribes. */
  onStatus(listener: (status: SaveStatus) => void): () => void;
  /** Stops the automatic retries and the page-lifecycle listeners. `request` and `flush` still work. */
  close(): void;
}

/** Creates a {@link SaveQueue} around `save`, which reads the newest state when it runs. */
export function createSaveQueue(save: () => Promise<void> | void, options: SaveQueueOptions): SaveQueue {
  const { initialMs = 250, maxMs = 30_000 } = options.retry ?? {};
  // The global functions, called as methods of globalThis (a browser requires that `this`).
  const timers = (options.timers ?? globalThis) as NonNullable<SaveQueueOptions['timers']>;
  const random = options.random ?? Math.random;
  const lifecycle = options.lifecycle === undefined ? (typeof globalThis.addEventListener === 'function' ? globalThis : null) : options.lifecycle;

  /** A change has not landed yet (requested, or its save failed). */
  let dirty = false;
  let running: Promise<boolean> | undefined;
  let failures = 0;
  let error: unknown;
  let lastSaved: number | undefined;
  let timer: unknown;
  let closed = false;
  let reported = '';
  const listeners = new Set<(status: SaveStatus) => void>();

  const read = (): SaveStatus => ({ state: failures ? 'failing' : dirty || running ? 'pending' : 'saved', failures, lastSaved, error });
  const changed = (): void => {
    const status = read();
    const key = `${status.state} ${failures} ${lastSaved}`;
    if (key === reported) return;
    reported = key;
    for (const listener of listeners) listener(status);
  };
  const cancelRetry = (): void => {
    timers.clearTimeout(timer);
    timer = undefined;
  };

  /** Saves until nothing is unsaved; resolves `false` when an attempt failed (a retry is then scheduled). */
  const run = async (immediate: boolean): Promise<boolean> => {
    // Let the current synchronous burst of mutations finish before reading the state, unless the
    // page is going away (then the save must start inside the event).
    if (!immediate) await undefined;
    while (dirty) {
      dirty = false;
      try {
        await save();
      } catch (caught) {
        dirty = true;
        failures += 1;
        error = caught;
        cancelRetry();
        if (!closed) {
          timer = timers.setTimeout(
            () => {
              timer = undefined;
              if (!running && dirty) void start(false);
            },
            Math.round(Math.min(maxMs, initialMs * 2 ** (failures - 1)) * (0.5 + random() / 2)),
          );
        }
        options.onError(caught);
        return false;
      }
      failures = 0;
      error = undefined;
      lastSaved = Date.now();
      cancelRetry();
    }
    return true;
  };
  const start = (immediate: boolean): Promise<boolean> => {
    // Bookkeeping in a continuation: a synchronous save that throws settles run() before it returns.
    const attempt: Promise<boolean> = run(immediate).finally(() => {
      if (running === attempt) {
        running = undefined;
        // A request that came after the last check of the loop, while this attempt still counted
        // as running, started nothing: start it now (after a failure the retry timer has it).
        if (dirty && !failures) void start(false);
      }
      changed();
    });
    running = attempt;
    changed();
    return attempt;
  };

  // `visibilitychange` is fired at the document (and bubbles to the window): its state is read there.
  const onLifecycle = (event: Event): void => {
    if (event.type === 'visibilitychange' && (event.target as { visibilityState?: string } | null)?.visibilityState !== 'hidden') return;
    if (running || !dirty) return;
    cancelRetry();
    void start(true);
  };
  lifecycle?.addEventListener('pagehide', onLifecycle);
  lifecycle?.addEventListener('visibilitychange', onLifecycle);

  return {
    request() {
      dirty = true;
      // While failing, the retry timer (or a flush) saves the newest state: no hammering a full
      // disk. After close() there is no timer: a request saves at once again.
      if (!running && !(failures && timer)) void start(false);
      else changed();
    },
    async flush() {
      for (;;) {
        if (running) {
          await running;
          continue;
        }
        if (!dirty) return;
        cancelRetry();
        if (!(await start(true))) throw error;
      }
    },
    get status() {
      return read();
    },
    onStatus(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close() {
      closed = true;
      cancelRetry();
      lifecycle?.removeEventListener('pagehide', onLifecycle);
      lifecycle?.removeEventListener('visibilitychange', onLifecycle);
    },
  };
}
