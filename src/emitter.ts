import { reportError } from './errors.js';

/** A listener receives one readonly payload. */
export type Listener<T> = (payload: T) => void;

/** Removes the listener it was returned for. Calling it twice is harmless. */
export type Unsubscribe = () => void;

/**
 * A small typed event emitter. A listener that throws is reported (the browser's `reportError`,
 * else `console.error`) and skipped: the emit, the other listeners and whatever caused the emit
 * all go on. Listeners added or removed during an emit take effect from the next one.
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
  readonly #listeners = new Map<keyof Events, Set<Listener<never>>>();
  readonly #any = new Set<(name: keyof Events & string, payload: Events[keyof Events]) => void>();

  /** Subscribes to one event; returns the function that unsubscribes. */
  on<K extends keyof Events & string>(name: K, listener: Listener<Events[K]>): Unsubscribe {
    // A wrapper per subscription: the same function subscribed twice is called twice, and each
    // unsubscribe removes its own.
    const entry: Listener<Events[K]> = (payload) => listener(payload);
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    set.add(entry as Listener<never>);
    return () => {
      set.delete(entry as Listener<never>);
    };
  }

  /** Subscribes to every event: `listener(name, payload)`. Used to forward events (subagents). */
  onAny(listener: (name: keyof Events & string, payload: Events[keyof Events]) => void): Unsubscribe {
    const entry: typeof listener = (name, payload) => listener(name, payload);
    this.#any.add(entry);
    return () => {
      this.#any.delete(entry);
    };
  }

  /** Calls every listener of `name` with `payload`, in subscription order, then the `onAny` ones. */
  emit<K extends keyof Events & string>(name: K, payload: Events[K]): void {
    for (const listener of [...(this.#listeners.get(name) ?? [])] as Array<Listener<Events[K]>>) call(() => listener(payload));
    for (const listener of [...this.#any]) call(() => listener(name, payload));
  }

  /** Whether anything listens to `name` (lets emitters skip building costly payloads). */
  has(name: keyof Events & string): boolean {
    return this.#any.size > 0 || (this.#listeners.get(name)?.size ?? 0) > 0;
  }
}

function call(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    reportError(error);
  }
}
