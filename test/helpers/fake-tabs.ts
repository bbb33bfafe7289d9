import type { BroadcastChannelLike } from '../../src/sync/plan-channel.js';
import type { LockManagerLike } from '../../src/sync/run-lease.js';
import { createRecordingStorage, type RecordingStorage } from './recording-storage.js';

/**
 * A BroadcastChannel constructor whose instances talk to each other (same name, never to
 * themselves), delivering structured clones a macrotask later, as browsers do. `sent` logs what
 * was posted, for measuring message sizes.
 */
export function fakeBroadcastChannels(): BroadcastChannelLike & { sent: unknown[] } {
  const open = new Set<FakeChannel>();
  const sent: unknown[] = [];
  class FakeChannel {
    onmessage: ((event: MessageEvent) => void) | null = null;
    constructor(readonly name: string) {
      open.add(this);
    }
    postMessage(data: unknown) {
      sent.push(data);
      const copy = structuredClone(data);
      for (const other of open) {
        if (other !== this && other.name === this.name) setTimeout(() => other.onmessage?.({ data: copy } as MessageEvent), 0);
      }
    }
    close() {
      open.delete(this);
    }
  }
  return Object.assign(FakeChannel, { sent });
}

/**
 * One origin's localStorage seen from several tabs: every tab shares the items, and a write by one
 * tab fires a `storage` event in the others (not in itself), as browsers do.
 */
export function sharedLocalStorage() {
  const shared = createRecordingStorage();
  const tabs: EventTarget[] = [];
  const tab = () => {
    const events = new EventTarget();
    tabs.push(events);
    const notify = (key: string | null, newValue: string | null) => {
      for (const other of tabs) {
        if (other === events) continue;
        const event = Object.assign(new Event('storage'), { key, newValue });
        setTimeout(() => other.dispatchEvent(event), 0);
      }
    };
    const storage = Object.create(shared) as RecordingStorage;
    storage.setItem = (key: string, value: string) => {
      shared.setItem(key, value);
      notify(key, String(value));
    };
    storage.removeItem = (key: string) => {
      shared.removeItem(key);
      notify(key, null);
    };
    return { storage, events };
  };
  return { shared, tab };
}

/**
 * Web Locks for several tabs of one origin: exclusive locks with `ifAvailable` and `steal` as
 * browsers implement them (a stolen holder's request promise rejects with an AbortError), and
 * `crash(name)` to free a lock the way a dying tab's locks are freed.
 */
export function fakeLocks(): LockManagerLike & { crash(name: string): void } {
  const held = new Map<string, { reject: (error: unknown) => void; resolve: () => void }>();
  return {
    request(name, options, callback) {
      if (options.steal) {
        const previous = held.get(name);
        held.delete(name);
        previous?.reject(new DOMException("Lock broken by another request with the 'steal' option.", 'AbortError'));
      } else if (held.has(name)) {
        if (options.ifAvailable) return callback(null);
        return Promise.reject(new Error('fakeLocks: waiting requests are not simulated'));
      }
      return new Promise<void>((resolve, reject) => {
        const entry = { reject, resolve };
        held.set(name, entry);
        callback({ name }).then(
          () => {
            if (held.get(name) === entry) held.delete(name);
            resolve();
          },
          (error: unknown) => {
            if (held.get(name) === entry) held.delete(name);
            reject(error);
          },
        );
      });
    },
    async query() {
      return { held: [...held.keys()].map((name) => ({ name })) };
    },
    crash(name) {
      const entry = held.get(name);
      held.delete(name);
      entry?.resolve();
    },
  };
}
