import { describe, expect, it } from 'vitest';
import { createPlanChannel } from '../../src/sync/plan-channel.js';
import { createRunLease, type RunLeaseOptions } from '../../src/sync/run-lease.js';
import { fakeBroadcastChannels, fakeLocks, sharedLocalStorage } from '../helpers/fake-tabs.js';
import { fakeTimers, settle } from '../helpers/fake-timers.js';

const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two tabs of one origin, each with a channel and a lease on one plan key. */
function twoTabs(extra: (tab: 'A' | 'B') => Partial<RunLeaseOptions>) {
  const BroadcastChannel = fakeBroadcastChannels();
  const origin = sharedLocalStorage();
  const make = (replica: 'A' | 'B') => {
    const { storage } = origin.tab();
    const channel = createPlanChannel({ key: 'tour', replica, BroadcastChannel });
    return createRunLease({ key: 'tour', replica, channel, storage, ...extra(replica) });
  };
  return { a: make('A'), b: make('B'), storage: origin.shared };
}

describe('createRunLease with Web Locks', () => {
  it('lets one tab hold it; another sees who, asks it to stop, and takes it after the release', async () => {
    const locks = fakeLocks();
    const { a, b } = twoTabs(() => ({ locks }));
    expect(a.mechanism).toBe('locks');
    const handle = await a.acquire();
    expect(handle).not.toBeNull();
    expect(await b.acquire()).toBeNull();
    expect(await a.acquire()).toBeNull();
    expect(await b.holder()).toMatchObject({ replica: 'A' });

    const stops: unknown[] = [];
    a.onStopRequest((request) => stops.push(request));
    const holders: Array<string | null> = [];
    b.onHolderChange((holder) => holders.push(holder));
    await b.requestStop('the user pressed Stop in tab B');
    await tick();
    expect(stops).toEqual([{ from: 'B', reason: 'the user pressed Stop in tab B' }]);

    await handle!.release();
    expect(handle!.signal.aborted).toBe(true);
    await tick();
    expect(holders).toEqual(['A', null]);
    expect(await b.holder()).toBeNull();
    const taken = await b.acquire();
    expect(taken).not.toBeNull();
    expect(await a.holder()).toMatchObject({ replica: 'B' });
  });

  it("can be taken over with steal: the old holder's signal aborts", async () => {
    const locks = fakeLocks();
    const { a, b } = twoTabs(() => ({ locks }));
    const first = await a.acquire();
    const second = await b.acquire({ steal: true });
    expect(second).not.toBeNull();
    await tick();
    expect(first!.signal.aborted).toBe(true);
    expect((first!.signal.reason as Error).message).toMatch(/taken over by another tab/);
    expect(await a.holder()).toMatchObject({ replica: 'B' });
  });

  it('is free again when the holding tab dies', async () => {
    const locks = fakeLocks();
    const { a, b } = twoTabs(() => ({ locks }));
    await a.acquire();
    locks.crash('planloop:tour');
    expect(await b.holder()).toBeNull();
    expect(await b.acquire()).not.toBeNull();
  });
});

describe('createRunLease without Web Locks (a renewed record in storage)', () => {
  it('expires when the holder stops renewing (a crashed tab), and the old holder learns it lost it', async () => {
    const clocks = { A: fakeTimers(), B: fakeTimers() };
    let time = 0;
    const { a, b } = twoTabs((tab) => ({ locks: null, ttlMs: 3000, settleMs: 10, now: () => time, timers: clocks[tab].timers }));
    expect(a.mechanism).toBe('storage');
    const acquiring = a.acquire();
    await clocks.A.advance(10);
    const handle = await acquiring;
    expect(handle).not.toBeNull();
    expect(await b.acquire()).toBeNull();
    expect(await b.holder()).toMatchObject({ replica: 'A', expires: 3000 });
    // A renews while it lives.
    time = 1000;
    await clocks.A.advance(1000);
    expect(await b.holder()).toMatchObject({ replica: 'A', expires: 4000 });
    // A freezes (crashes): no more renewals. After the TTL the lease is free.
    time = 4001;
    expect(await b.holder()).toBeNull();
    const taking = b.acquire();
    await clocks.B.advance(10);
    expect(await taking).not.toBeNull();
    // A wakes up: its next renewal finds B's record, and its signal aborts.
    await clocks.A.advance(1000);
    expect(handle!.signal.aborted).toBe(true);
    expect(await a.holder()).toMatchObject({ replica: 'B' });
  });

  it('gives it to exactly one of two tabs claiming at the same moment', async () => {
    const clock = fakeTimers();
    const { a, b } = twoTabs(() => ({ locks: null, settleMs: 10, now: clock.now, timers: clock.timers }));
    const claims = Promise.all([a.acquire(), b.acquire()]);
    await clock.advance(10);
    await settle();
    const [first, second] = await claims;
    expect([first, second].filter(Boolean)).toHaveLength(1);
  });

  it('clears its record on release, so another tab can take it at once', async () => {
    const clock = fakeTimers();
    const { a, b, storage } = twoTabs(() => ({ locks: null, settleMs: 1, now: clock.now, timers: clock.timers }));
    const acquiring = a.acquire();
    await clock.advance(1);
    const handle = await acquiring;
    await handle!.release();
    expect(storage.getItem('tour:lease')).toBeNull();
    expect(clock.pendingCount).toBe(0);
    const taking = b.acquire();
    await clock.advance(1);
    expect(await taking).not.toBeNull();
  });
});

describe('createRunLease without Web Locks or storage', () => {
  it('is local: one holder at a time in this lease, and the holder is known', async () => {
    const lease = createRunLease({ key: 'tour', replica: 'A', locks: null, storage: null });
    expect(lease.mechanism).toBe('local');
    const handle = await lease.acquire();
    expect(handle).not.toBeNull();
    expect(await lease.acquire()).toBeNull();
    expect(await lease.holder()).toMatchObject({ replica: 'A' });
    await handle!.release();
    expect(handle!.signal.aborted).toBe(true);
    expect(await lease.holder()).toBeNull();
    expect(await lease.acquire()).not.toBeNull();
  });
});
