/*
 * Run control: the run lease a turn loop holds (`plan.acquireRun()`), one run at a time per plan
 * across the tabs that sync it, and the takeover of another tab's run. Loaded on first use, with
 * the storage room (`deferred-rooms.ts`). Its clock and timers are the sync's (`PlanSyncOptions.now` / `.timers`), which
 * tests control. `plan.requestStop()` and `plan.runHolder()` stay in `plan.ts` (a few lines each).
 */
import { AbortError, PlanloopError } from '../errors.js';
import type { LeaseHandle } from '../sync/run-lease.js';
import type { PersistenceHost } from './persistence-host.js';

/**
 * A held run lease (see `plan.acquireRun()`).
 *
 * @example
 * ```ts
 * const run = await plan.acquireRun();
 * try { await runWebAgent({ plan, task, tools, signal: run.signal }); } finally { await run.release(); }
 * ```
 */
export interface RunHandle {
  /** Aborts when the run must stop: the caller's signal, `requestStop()` here or in another tab, or another tab took the lease over. */
  readonly signal: AbortSignal;
  /** Gives the lease up: call it when the run ends. */
  release(): Promise<void>;
}

/**
 * Who runs a plan's turn loop (see `plan.runHolder()`).
 *
 * @example
 * ```ts
 * const holder = await plan.runHolder();
 * const stopButton = document.querySelector<HTMLButtonElement>('#stop')!;
 * stopButton.hidden = !holder || holder.self;
 * ```
 */
export interface RunHolder {
  /** The holding tab's replica id (`''` when unknown, or when the plan does not sync). */
  readonly replica: string;
  /** When it took the lease (ms since the epoch; 0 when unknown). */
  readonly since: number;
  /** Whether this plan holds it. */
  readonly self: boolean;
}

/** How often a takeover looks whether the running tab has let go. */
const TAKEOVER_POLL_MS = 20;

/**
 * `plan.acquireRun()` once the plan is ready: see there.
 *
 * @example
 * ```ts
 * import type { PersistenceHost } from './persistence-host.js';
 * declare const persistence: PersistenceHost;
 * const run = await acquireRun(persistence, { takeOver: true });
 * ```
 */
export async function acquireRun(p: PersistenceHost, options: { takeOver?: boolean | undefined; signal?: AbortSignal | undefined }): Promise<RunHandle> {
  const { core } = p;
  if (core.run)
    throw new PlanloopError('run_in_progress', 'A run is already going on this plan in this tab: stop it (plan.requestStop()) or wait for it to end.');
  const sync = core.sync;
  const controller = new AbortController();
  const run = { controller, since: sync ? sync.now() : Date.now(), lost: false };
  core.run = run;
  const offs: Array<() => void> = [];
  const stop = (reason: unknown): void => controller.abort(reason);
  const follow = (signal: AbortSignal): void => {
    if (signal.aborted) {
      stop(signal.reason);
      return;
    }
    const onAbort = (): void => stop(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    offs.push(() => signal.removeEventListener('abort', onAbort));
  };
  const pull = (): Promise<void> => p.pull?.() ?? Promise.resolve();
  const lease = sync?.lease;
  let handle: LeaseHandle | null = null;
  try {
    handle = (await lease?.acquire()) ?? null;
    if (sync && lease && !handle && options.takeOver) {
      // Ask the running tab to stop, and take the lease once it has let go, and its last state
      // (saved before it let go) is merged here: the two runs never write at once. From a tab
      // that does not answer, by force.
      const previous = (await lease.holder())?.replica;
      await lease.requestStop('the run was taken over by another tab');
      const deadline = sync.now() + sync.takeOverWaitMs;
      while (!handle && sync.now() < deadline) {
        await sync.sleep(TAKEOVER_POLL_MS);
        handle = await lease.acquire();
      }
      if (handle && previous) {
        await pull().catch(() => {});
        while (!sync.caughtUp(previous, core.state) && sync.now() < deadline) await sync.sleep(TAKEOVER_POLL_MS);
      }
      handle ??= await lease.acquire({ steal: true });
    }
    if (lease && !handle) {
      const holder = await lease.holder();
      const who =
        holder?.replica === sync?.replica
          ? 'this tab'
          : `another tab (${holder?.replica || 'unknown'}${holder?.since ? `, since ${new Date(holder.since).toISOString()}` : ''})`;
      throw new PlanloopError(
        'run_in_progress',
        `This plan's turn loop is running in ${who}. Stop it there or with plan.requestStop(), or pass takeOver: true to take it over.`,
      );
    }
  } catch (error) {
    core.run = undefined;
    throw error;
  }
  if (options.signal) follow(options.signal);
  let released = false;
  if (handle && sync && lease) {
    // The lease went to another tab (taken over, lapsed): that tab goes on from this plan.
    handle.signal.addEventListener('abort', () => (run.lost = !released), { once: true });
    follow(handle.signal);
    offs.push(
      lease.onStopRequest(({ from, reason }) => stop(new AbortError('aborted', `Another tab (${from}) asked this run to stop${reason ? `: ${reason}` : '.'}`))),
    );
    core.events.emit('run-holder-change', { holder: sync.replica, self: true });
    // Start from the newest stored plan: the previous holder saved its last turn before it let go.
    await pull().catch((error: unknown) => p.storageError('load', error));
  }
  const held = handle;
  return {
    signal: controller.signal,
    release: async () => {
      if (released) return;
      released = true;
      for (const off of offs) off();
      core.run = undefined;
      if (!held) return;
      // Saved before the lease is free, so that the next holder starts from this run's end.
      if (!run.lost) await p.flush().catch(() => {});
      await held.release();
      core.events.emit('run-holder-change', { holder: null, self: false });
    },
  };
}
