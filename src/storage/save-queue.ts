/**
 * Serializes saves: at most one in flight, never out of order, and a burst of requests while one
 * is in flight coalesces into a single save of the newest state. A failed save is reported and
 * not retried on its own; the next request retries with the then-newest state.
 *
 * @example
 * ```ts
 * const queue = createSaveQueue(() => adapter.save(plan.snapshot()), { onError: console.warn });
 * queue.request(); queue.request(); // one save, after the current microtask
 * await queue.flush();
 * ```
 */
export interface SaveQueue {
  /** Asks for a save of the state as it will be when the save starts. */
  request(): void;
  /** Resolves when no save is pending or in flight (errors go to `onError`, not here). */
  flush(): Promise<void>;
}

/** Creates a {@link SaveQueue} around `save`, which reads the newest state when it runs. */
export function createSaveQueue(save: () => Promise<void> | void, options: { onError: (error: unknown) => void }): SaveQueue {
  let pending = false;
  let running: Promise<void> | null = null;

  const run = async (): Promise<void> => {
    // Let the current synchronous burst of mutations finish before reading the state.
    await Promise.resolve();
    while (pending) {
      pending = false;
      try {
        await save();
      } catch (error) {
        options.onError(error);
      }
    }
    running = null;
  };

  return {
    request() {
      pending = true;
      running ??= run();
    },
    async flush() {
      while (running) await running;
    },
  };
}
