/**
 * What tabs tell each other about one plan. Small on purpose: a `changed` notice carries no plan
 * data; the receiver loads the plan from storage (one source of truth, also for tabs that were
 * asleep) and merges it.
 * - `changed`: `from` saved the plan; `revision` is its own write counter after the save (its
 *   `seen` entry): a receiver whose `seen` for `from` is at least that has every change `from`
 *   made up to that save;
 * - `lease`: `holder` now runs the plan's turn loop (`null`: nobody does);
 * - `stop`: please stop the run (`to`: the holder asked; every holder when absent).
 */
export type PlanChannelMessage =
  | { type: 'changed'; from: string; revision: number }
  | { type: 'lease'; from: string; holder: string | null }
  | { type: 'stop'; from: string; to?: string; reason?: string };

/** The part of the `BroadcastChannel` constructor a channel uses. */
export type BroadcastChannelLike = new (
  name: string,
) => {
  postMessage(message: unknown): void;
  close(): void;
  onmessage: ((event: MessageEvent) => void) | null;
};

/** Options of {@link createPlanChannel}. */
export interface PlanChannelOptions {
  /** The plan's storage key: tabs on one key share a channel. */
  key: string;
  /** This tab's replica id: messages it posts carry it. */
  replica: string;
  /** The BroadcastChannel constructor; `null` to use the storage fallback. Default `globalThis.BroadcastChannel`, read when called. */
  BroadcastChannel?: BroadcastChannelLike | null | undefined;
  /**
   * The fallback where BroadcastChannel is missing: messages are written to `<key>:channel` in
   * this Storage, and other tabs hear its `storage` events. Default `globalThis.localStorage`.
   */
  storage?: Storage | null | undefined;
  /** Where `storage` events arrive. Default `globalThis` when it is an event target (a window). */
  events?: EventTarget | null | undefined;
}

/** A channel between the tabs of one origin about one plan. See {@link createPlanChannel}. */
export interface PlanChannel {
  /** How messages travel: `broadcast` (BroadcastChannel), `storage` (storage events), or `none` (this tab is alone). */
  readonly transport: 'broadcast' | 'storage' | 'none';
  /** Sends to every other tab (and other plans on this page) on the same key; never to itself. */
  post(message: PlanChannelMessage): void;
  /** Calls `listener` with each well-formed message from another tab; returns the function that unsubscribes. */
  onMessage(listener: (message: PlanChannelMessage) => void): () => void;
  /** Stops sending and listening. */
  close(): void;
}

/**
 * Opens the channel tabs use to tell each other about one plan: over BroadcastChannel, or where
 * that is missing over localStorage's `storage` event. Either way a localStorage adapter's write
 * of the plan's key in another tab is heard as a `changed` notice (`from: ''`, `revision` 0) once
 * that write is visible in this tab. Malformed messages are dropped.
 *
 * @example
 * ```ts
 * const replica = 'k3f9a01x'; // this tab's id (createReplicaId())
 * const channel = createPlanChannel({ key: 'tour', replica });
 * channel.onMessage((message) => {
 *   if (message.type === 'changed') console.log(`tab ${message.from} saved revision ${message.revision}`);
 * });
 * channel.post({ type: 'changed', from: replica, revision: 12 });
 * ```
 */
export function createPlanChannel(options: PlanChannelOptions): PlanChannel {
  const { key, replica } = options;
  const listeners = new Set<(message: PlanChannelMessage) => void>();
  const deliver = (data: unknown): void => {
    const message = readMessage(data);
    if (!message || message.from === replica) return;
    for (const listener of [...listeners]) listener(message);
  };

  const Broadcast =
    options.BroadcastChannel === undefined ? (globalThis as { BroadcastChannel?: BroadcastChannelLike }).BroadcastChannel : options.BroadcastChannel;
  const storage = options.storage === undefined ? (globalThis as { localStorage?: Storage }).localStorage : options.storage;
  const events = options.events === undefined ? defaultEvents() : options.events;
  const channelKey = `${key}:channel`;
  // A write of the plan's key by another tab is a change, heard also when BroadcastChannel
  // carries the messages: Chromium hands localStorage writes to other tabs asynchronously, and a
  // BroadcastChannel notice can arrive before the write it announces is visible here; the
  // storage event comes once it is.
  const onStorage = (event: Event): void => {
    const { key: changed, newValue } = event as StorageEvent;
    if (changed === key && newValue !== null) deliver({ type: 'changed', from: '', revision: 0 });
    if (Broadcast || changed !== channelKey || newValue === null) return;
    try {
      deliver(JSON.parse(newValue));
    } catch {
      // Not ours, or cut short: ignored.
    }
  };
  events?.addEventListener('storage', onStorage);
  const close = (): void => {
    events?.removeEventListener('storage', onStorage);
    listeners.clear();
  };

  if (Broadcast) {
    const channel = new Broadcast(`planloop:${key}`);
    channel.onmessage = (event) => deliver(event.data);
    // Node's BroadcastChannel keeps the process alive while it is open: a plan that syncs must not.
    (channel as { unref?: () => void }).unref?.();
    return {
      transport: 'broadcast',
      post: (message) => channel.postMessage(message),
      onMessage: (listener) => subscribe(listeners, listener),
      close: () => {
        channel.onmessage = null;
        channel.close();
        close();
      },
    };
  }
  if (!storage || !events) return { transport: 'none', post: () => {}, onMessage: (listener) => subscribe(listeners, listener), close };
  let sent = 0;
  return {
    transport: 'storage',
    post(message) {
      // A storage event fires only when the value changes: a counter makes every message new.
      try {
        storage.setItem(channelKey, JSON.stringify({ ...message, n: `${replica}:${++sent}` }));
      } catch {
        // A full storage cannot carry the notice; the other tabs catch up on their next load.
      }
    },
    onMessage: (listener) => subscribe(listeners, listener),
    close,
  };
}

function subscribe<T>(listeners: Set<T>, listener: T): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

function defaultEvents(): EventTarget | null {
  const global = globalThis as { addEventListener?: unknown };
  return typeof global.addEventListener === 'function' ? (globalThis as unknown as EventTarget) : null;
}

/** A message from another tab, checked field by field (another tab may run another planloop version). */
function readMessage(data: unknown): PlanChannelMessage | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const message = data as Record<string, unknown>;
  if (typeof message.from !== 'string') return undefined;
  switch (message.type) {
    case 'changed':
      return typeof message.revision === 'number' ? { type: 'changed', from: message.from, revision: message.revision } : undefined;
    case 'lease':
      return typeof message.holder === 'string' || message.holder === null ? { type: 'lease', from: message.from, holder: message.holder } : undefined;
    case 'stop':
      return {
        type: 'stop',
        from: message.from,
        ...(typeof message.to === 'string' ? { to: message.to } : {}),
        ...(typeof message.reason === 'string' ? { reason: message.reason } : {}),
      };
    default:
      return undefined;
  }
}
