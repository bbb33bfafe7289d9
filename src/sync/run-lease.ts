import { AbortError } from '../errors.js';
import type { PlanChannel } from './plan-channel.js';

/** Who runs a plan's turn loop: a replica id, since when, and (fallback lease) until when unless renewed. */
export interface LeaseHolder {
  replica: string;
  since: number;
  expires?: number;
}

/** A held lease. See {@link RunLease.acquire}. */
export interface LeaseHandle {
  /** Aborts when the lease is lost: released, taken over (`steal`), or expired (fallback lease). Pass it to the run. */
  readonly signal: AbortSignal;
  /** Gives the lease up; other tabs hear `holder: null`. */
  release(): Promise<void>;
}

/** The part of `navigator.locks` a lease uses. */
export interface LockManagerLike {
  request(name: string, options: { ifAvailable?: boolean; steal?: boolean }, callback: (lock: unknown) => Promise<void>): Promise<void>;
  query(): Promise<{ held?: Array<{ name?: string }> }>;
}

/** Options of {@link createRunLease}. */
export interface RunLeaseOptions {
  /** The plan's storage key: one lease per key. */
  key: string;
  /** This tab's replica id. */
  replica: string;
  /** Web Locks. Default `globalThis.navigator.locks`, read when called; `null` uses the fallback lease. */
  locks?: LockManagerLike | null | undefined;
  /**
   * Where the holder is recorded (`<key>:lease`): with Web Locks only to say who holds it; for the
   * fallback lease, the lease itself. Default `globalThis.localStorage`.
   */
  storage?: Storage | null | undefined;
  /** The plan's channel: the lease announces its holder there and hears stop requests. */
  channel?: PlanChannel | undefined;
  /** Fallback lease: how long a holder that stopped renewing (a crashed tab) keeps it. Default 10 s. */
  ttlMs?: number | undefined;
  /** Fallback lease: how often the holder renews. Default a third of `ttlMs`. */
  renewMs?: number | undefined;
  /** Fallback lease: how long a claim waits to see whether another tab claimed at the same moment. Default 100 ms. */
  settleMs?: number | undefined;
  now?: (() => number) | undefined;
  timers?: { setTimeout: (run: () => void, ms: number) => unknown; clearTimeout: (handle: unknown) => void } | undefined;
}

/** The run lease of one plan. See {@link createRunLease}. */
export interface RunLease {
  /**
   * `locks` (Web Locks, released by the browser when a tab dies), `storage` (a renewed record that
   * expires), or `local` (neither is there, as in Node: the lease only keeps this object's runs apart).
   */
  readonly mechanism: 'locks' | 'storage' | 'local';
  /**
   * Takes the lease if no other tab holds it (resolves `null` if one does), or with `steal` from
   * whoever holds it (their handle's signal aborts). A tab that already holds it gets `null` too.
   */
  acquire(options?: { steal?: boolean }): Promise<LeaseHandle | null>;
  /** Who holds the lease now, or `null`. */
  holder(): Promise<LeaseHolder | null>;
  /** Asks the holder, over the channel, to stop its run. */
  requestStop(reason?: string): Promise<void>;
  /** Calls `listener` when another tab asks this holder to stop; returns the function that unsubscribes. */
  onStopRequest(listener: (request: { from: string; reason?: string }) => void): () => void;
  /** Calls `listener` when a tab announces it took or gave up the lease; returns the function that unsubscribes. */
  onHolderChange(listener: (holder: string | null, from: string) => void): () => void;
  /** Releases a held lease and stops listening. */
  close(): Promise<void>;
}

/**
 * Makes sure only one tab runs a plan's turn loop at a time. With Web Locks (`navigator.locks`)
 * the browser holds the lock and frees it when the holding tab closes or crashes; without them, a
 * record in localStorage that the holder renews every `renewMs` and that expires `ttlMs` after the
 * last renewal, so a crashed tab's lease lapses on its own. Either way the holder is recorded for
 * other tabs to show, announced on the channel, and hears their stop requests. With neither (Node,
 * a sandboxed frame) the lease is local: it keeps this lease's own runs apart and nothing more.
 *
 * Background tabs: browsers slow timers in hidden tabs (Chrome: to once a minute after five
 * minutes), so a fallback-lease holder hidden that long can lose its lease (its signal aborts).
 *
 * @example
 * ```ts
 * import { createPlanChannel } from './plan-channel.js';
 * const replica = 'k3f9a01x'; // this tab's id (createReplicaId())
 * const channel = createPlanChannel({ key: 'tour', replica });
 * const lease = createRunLease({ key: 'tour', replica, channel });
 * const handle = await lease.acquire();
 * if (!handle) console.log('running in another tab:', await lease.holder());
 * else await runWebAgent({ plan, task, tools, signal: handle.signal }).finally(() => handle.release());
 * ```
 */
export function createRunLease(options: RunLeaseOptions): RunLease {
  const { key, replica, channel } = options;
  const locks = options.locks === undefined ? ((globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks ?? null) : options.locks;
  const storage = options.storage === undefined ? ((globalThis as { localStorage?: Storage }).localStorage ?? null) : options.storage;
  const ttlMs = options.ttlMs ?? 10_000;
  const renewMs = options.renewMs ?? Math.floor(ttlMs / 3);
  const settleMs = options.settleMs ?? 100;
  const now = options.now ?? Date.now;
  const timers = options.timers ?? {
    setTimeout: (run: () => void, ms: number): unknown => globalThis.setTimeout(run, ms),
    clearTimeout: (handle: unknown) => globalThis.clearTimeout(handle as number),
  };
  const recordKey = `${key}:lease`;
  const lockName = `planloop:${key}`;
  let current: { release: () => Promise<void> } | undefined;
  const stopListeners = new Set<(request: { from: string; reason?: string }) => void>();
  const holderListeners = new Set<(holder: string | null, from: string) => void>();

  const offChannel = channel?.onMessage((message) => {
    if (message.type === 'lease') for (const listener of [...holderListeners]) listener(message.holder, message.from);
    if (message.type === 'stop' && current && (message.to === undefined || message.to === replica)) {
      for (const listener of [...stopListeners]) listener({ from: message.from, ...(message.reason ? { reason: message.reason } : {}) });
    }
  });

  const readRecord = (): LeaseHolder | null => {
    try {
      const raw = JSON.parse(storage?.getItem(recordKey) ?? 'null') as Partial<LeaseHolder> | null;
      return raw && typeof raw.replica === 'string' && typeof raw.since === 'number' ? (raw as LeaseHolder) : null;
    } catch {
      return null;
    }
  };
  const writeRecord = (record: LeaseHolder): boolean => {
    try {
      storage?.setItem(recordKey, JSON.stringify(record));
      return true;
    } catch {
      return false;
    }
  };
  const clearRecord = (): void => {
    if (readRecord()?.replica === replica) storage?.removeItem(recordKey);
  };
  const announce = (holder: string | null): void => channel?.post({ type: 'lease', from: replica, holder });

  /**
   * A handle whose release aborts the signal, runs `giveUp`, clears the record and announces; a
   * lost lease (taken over, lapsed) only aborts and gives up: the record is the new holder's, and
   * this tab may not even see it yet (localStorage reaches other tabs asynchronously).
   */
  const makeHandle = (giveUp: () => void): { handle: LeaseHandle; lose: (why: string) => void } => {
    const controller = new AbortController();
    let done = false;
    const finish = (why: string, released: boolean): void => {
      if (done) return;
      done = true;
      current = undefined;
      controller.abort(new AbortError('aborted', why));
      if (released) clearRecord();
      giveUp();
      if (released) announce(null);
    };
    const handle: LeaseHandle = { signal: controller.signal, release: async () => finish(`The run lease of "${key}" was released.`, true) };
    current = handle;
    return { handle, lose: (why) => finish(why, false) };
  };

  const acquireWithLocks = (lockManager: LockManagerLike, steal: boolean): Promise<LeaseHandle | null> =>
    new Promise((resolve, reject) => {
      let lose: ((why: string) => void) | undefined;
      let letGo: () => void = () => {};
      const held = new Promise<void>((release) => (letGo = release));
      lockManager
        .request(lockName, steal ? { steal: true } : { ifAvailable: true }, async (lock) => {
          if (!lock) return resolve(null);
          const made = makeHandle(letGo);
          lose = made.lose;
          writeRecord({ replica, since: now() });
          announce(replica);
          resolve(made.handle);
          await held;
        })
        .catch((error: unknown) => {
          // The lock was stolen by another tab (AbortError), or the request failed outright.
          if (lose) lose(`The run lease of "${key}" was taken over by another tab.`);
          else reject(error);
        });
    });

  let localSince = 0;
  const acquireWithStorage = async (steal: boolean): Promise<LeaseHandle | null> => {
    if (!storage) {
      localSince = now();
      return makeHandle(() => {}).handle;
    }
    const found = readRecord();
    if (!steal && found && found.replica !== replica && (found.expires ?? 0) > now()) return null;
    const since = now();
    if (!writeRecord({ replica, since, expires: since + ttlMs })) return null;
    // Two tabs may claim at the same moment; the last write wins, and the other sees it here.
    await new Promise((resolve) => timers.setTimeout(() => resolve(undefined), settleMs));
    if (readRecord()?.replica !== replica || readRecord()?.since !== since) return null;
    let renewal: unknown;
    const made = makeHandle(() => timers.clearTimeout(renewal));
    const renew = (): void => {
      const record = readRecord();
      if (record?.replica !== replica || record.since !== since) {
        made.lose(`The run lease of "${key}" lapsed and another tab took it.`);
        return;
      }
      if (!writeRecord({ replica, since, expires: now() + ttlMs })) made.lose(`The run lease of "${key}" could not be renewed (storage refused the write).`);
      else renewal = timers.setTimeout(renew, renewMs);
    };
    renewal = timers.setTimeout(renew, renewMs);
    announce(replica);
    return made.handle;
  };

  return {
    mechanism: locks ? 'locks' : storage ? 'storage' : 'local',
    async acquire(acquireOptions = {}) {
      if (current) return null;
      const steal = acquireOptions.steal ?? false;
      return locks ? acquireWithLocks(locks, steal) : acquireWithStorage(steal);
    },
    async holder() {
      const record = readRecord();
      if (locks) {
        const { held = [] } = await locks.query();
        if (!held.some((lock) => lock.name === lockName)) return null;
        return record ? { replica: record.replica, since: record.since } : { replica: '', since: 0 };
      }
      if (!storage) return current ? { replica, since: localSince } : null;
      return record && (record.expires ?? 0) > now() ? record : null;
    },
    async requestStop(reason) {
      const holder = await this.holder();
      channel?.post({ type: 'stop', from: replica, ...(holder?.replica ? { to: holder.replica } : {}), ...(reason ? { reason } : {}) });
    },
    onStopRequest(listener) {
      stopListeners.add(listener);
      return () => void stopListeners.delete(listener);
    },
    onHolderChange(listener) {
      holderListeners.add(listener);
      return () => void holderListeners.delete(listener);
    },
    async close() {
      offChannel?.();
      stopListeners.clear();
      holderListeners.clear();
      await current?.release();
    },
  };
}
