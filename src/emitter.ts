import EventEmitter from 'eventemitter3';

/** A listener receives one readonly payload. */
export type Listener<T> = (payload: T) => void;

/** Removes the listener it was returned for. Calling it twice is harmless. */
export type Unsubscribe = () => void;

/**
 * Reports an error thrown by a listener without interrupting the emitter: the browser's
 * `reportError` (shows in the console and `window.onerror`), else `console.error`.
 */
function reportListenerError(error: unknown): void {
  const report = (globalThis as { reportError?: (error: unknown) => void }).reportError;
  if (typeof report === 'function') report(error);
  else console.error('[planloop] an event listener threw:', error);
}

/**
 * A small typed emitter on eventemitter3. A listener that throws is reported and skipped: the
 * emit, the other listeners and the mutation that caused the emit all go on.
 *
 * @example
 * ```ts
 * const emitter = new TypedEmitter<{ ping: { n: number } }>();
 * const off = emitter.on('ping', ({ n }) => console.log(n));
 * emitter.emit('ping', { n: 1 });
 * off();
 * ```
 */
export class TypedEmitter<Events extends object> {
  readonly #inner = new EventEmitter();
  readonly #onListenerError: (error: unknown) => void;
  readonly #any = new Set<(name: keyof Events & string, payload: Events[keyof Events]) => void>();

  readonly #ordered: boolean;
  readonly #queue: Array<[keyof Events & string, Events[keyof Events & string]]> = [];
  #emitting = false;

  /**
   * `ordered`: an emit made by a listener (re-entrantly) waits until the current emit has reached
   * every listener, so all listeners see events in the order they happened and end on the newest
   * payload. Default `false` (plain synchronous nesting).
   */
  constructor(options: { onListenerError?: (error: unknown) => void; ordered?: boolean } = {}) {
    this.#onListenerError = options.onListenerError ?? reportListenerError;
    this.#ordered = options.ordered ?? false;
  }

  /** Subscribes to one event; returns the function that unsubscribes. */
  on<K extends keyof Events & string>(name: K, listener: Listener<Events[K]>): Unsubscribe {
    const wrapped = (payload: Events[K]) => {
      try {
        listener(payload);
      } catch (error) {
        this.#onListenerError(error);
      }
    };
    this.#inner.on(name, wrapped);
    return () => {
      this.#inner.off(name, wrapped);
    };
  }

  /** Subscribes for the next emit only. */
  once<K extends keyof Events & string>(name: K, listener: Listener<Events[K]>): Unsubscribe {
    const off = this.on(name, (payload) => {
      off();
      listener(payload);
    });
    return off;
  }

  /** Calls every listener of `name` with `payload`, in subscription order. */
  emit<K extends keyof Events & string>(name: K, payload: Events[K]): void {
    if (!this.#ordered) {
      this.#dispatch(name, payload);
      return;
    }
    this.#queue.push([name, payload]);
    if (this.#emitting) return;
    this.#emitting = true;
    try {
      for (let next = this.#queue.shift(); next; next = this.#queue.shift()) this.#dispatch(next[0], next[1]);
    } finally {
      this.#emitting = false;
      this.#queue.length = 0;
    }
  }

  #dispatch<K extends keyof Events & string>(name: K, payload: Events[K]): void {
    this.#inner.emit(name, payload);
    for (const listener of [...this.#any]) {
      try {
        listener(name, payload);
      } catch (error) {
        this.#onListenerError(error);
      }
    }
  }

  /** Whether anything listens to `name` (lets emitters skip building costly payloads). */
  has(name: keyof Events & string): boolean {
    return this.#any.size > 0 || this.#inner.listenerCount(name) > 0;
  }

  /** Subscribes to every event: `listener(name, payload)`. Used to forward events (subagents). */
  onAny(listener: (name: keyof Events & string, payload: Events[keyof Events]) => void): Unsubscribe {
    this.#any.add(listener);
    return () => {
      this.#any.delete(listener);
    };
  }
}
