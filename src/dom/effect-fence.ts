import { ValidationError } from '../errors.js';
import { checkNavigation } from './check-navigation.js';
import type { ConsequenceKind } from './consequential-words.js';
import { bodyFields, clip, fieldList, formFields, formName, quote, whereTo } from './effect-words.js';
import { PRIVATE_ATTRIBUTE, isSecretField } from './element-state.js';
import { redactSecrets, redactUrl, redactValues } from '../secret-text.js';

/*
 * The effect fence: while a page action runs (a click, typing, a scroll) and for a bounded while
 * after, everything the page sets off that leaves the page is caught before it leaves: requests
 * (fetch, XMLHttpRequest, sendBeacon), form submissions (a submit button, form.submit(),
 * requestSubmit(), formaction), navigations (the Navigation API's navigate event), new windows
 * (window.open, a link with a target) and downloads. Reads pass: a GET to the page's own origin
 * and a navigation inside the document. Everything else is held and asked about in words that say
 * what it does; a yes releases it as the page made it, a no cancels it as a network error would.
 *
 * How: the fence patches the page's globals while it is open (and puts back the very property
 * descriptors it found when the last fence closes), listens for `submit`, `click` and `navigate`
 * at the window, and wraps the callbacks of the timers, animation frames and microtasks queued
 * while it is open, so that they run inside the fence that queued them, also after it closed
 * (then what they set off is stopped: nobody is asking any more).
 */

/** What an effect is: a request, a beacon, a form submission, a navigation, a new window, a download. */
export type EffectKind = 'request' | 'beacon' | 'form' | 'navigation' | 'window' | 'download';

/** Something the page set off while the fence was open, held before it left. */
export interface PageEffect {
  readonly kind: EffectKind;
  /** `GET`, `POST`, `DELETE`…; `GET` for navigations, windows and downloads. */
  readonly method: string;
  /** Where it goes, absolute. */
  readonly url: string;
  /** In the user's words: `It sends a DELETE to /api/account`. */
  readonly words: string;
  /** For the model: `send a DELETE to /api/account`. */
  readonly what: string;
  /** What it amounts to: `send`, `delete`, `leave`, `new-window` or `download`. */
  readonly consequence: ConsequenceKind;
}

/** A held effect and what became of it. */
export interface FencedEffect extends PageEffect {
  /** `released` after a yes (or as part of what was approved before the action); `stopped` otherwise. */
  readonly outcome: 'released' | 'stopped';
  /** Why it was stopped, for the model. */
  readonly reason?: string;
}

/** A question about held effects, for the user: structurally `activate`'s `ActivateStep` and the loop's `ConfirmStep`. */
export interface EffectStep {
  risk: 'irreversible';
  /** The whole question: `Click the button "Check name". It sends a POST to /api/account/delete.` */
  detail: string;
  url?: string;
  /** What the effect does, as observed: `It sends a POST to /api/account/delete`. */
  effect?: string;
  /** What it amounts to (see {@link PageEffect.consequence}). */
  consequence?: string;
}

/** Options of {@link fenceEffects}. */
export interface EffectFenceOptions {
  /**
   * Asks the user about a held effect (pass the loop's `context.confirm`). Only `{ approved: true }`
   * releases it; a throw or anything else stops it. Default none: every held effect is stopped.
   */
  confirm?: ((step: EffectStep) => Promise<{ approved: boolean; reason?: string }> | { approved: boolean; reason?: string }) | undefined;
  /** `'act'` (default): held effects are asked about. `'read'`: a look changes nothing, so every held effect is stopped, unasked. */
  mode?: 'act' | 'read' | undefined;
  /** What the action is, in the user's words, put before the effect in a question: `Click the button "Continue"`. */
  action?: string | undefined;
  /** Origins a navigation or a new window may go to, after a yes (as `checkNavigation`). Other origins are stopped, unasked. Default none. */
  allowedOrigins?: readonly string[] | undefined;
  /** Origins (besides the page's own) whose GET requests are reads and pass, e.g. your API's. Default none. */
  readOrigins?: readonly string[] | undefined;
  /** Downloads may be asked about. Default `false`: a download is stopped, unasked. */
  allowDownloads?: boolean | undefined;
  /**
   * Before letting a navigation on this site go ahead, fetch its URL once (GET, cookies of this
   * site, body dropped after the headers) to see whether the server sends it to another site or
   * sends a file to download. Costs a request per navigation. Default `true`.
   */
  probeNavigations?: boolean | undefined;
  /** Effects approved before the action ran (the form a submit button sends): released unasked. */
  approved?: ((effect: PageEffect) => boolean) | undefined;
  /** How long the page must stay quiet (no timer of the action due, nothing held) before the fence closes, in ms. Default 150. */
  settleMs?: number | undefined;
  /** The longest the fence waits for the action's timers, in ms, not counting time spent asking the user. Default 3,000. */
  maxMs?: number | undefined;
  /** Hears of effects stopped after the fence closed (a timer of the action that fired late). */
  onLate?: ((effect: FencedEffect) => void) | undefined;
  /** The window to fence. Default: the global `window`. */
  window?: Window | undefined;
}

/** What {@link fenceEffects} returns. */
export interface FenceResult<T> {
  /** What the work returned. */
  value: T;
  /** Every effect that was held, released or stopped, in order. Reads are not listed. */
  effects: FencedEffect[];
  /** For the model: what was stopped and why, or `''` when nothing was. */
  stopped: string;
}

type Approval = { approved: boolean; reason?: string };
type AnyFn = (...args: never[]) => unknown;

/**
 * Runs `work` (a click, typing, a scroll: anything that runs the page's handlers) inside an effect
 * fence, waits until the page is quiet, and says what was held. See the file comment for what is
 * caught; reads (GET of this site, navigations inside the document) pass. A held effect to an
 * origin `allowedOrigins` does not list, a download without `allowDownloads`, a synchronous
 * request, and every held effect in `mode: 'read'` or without `confirm` is stopped unasked; the
 * rest goes to `confirm` one at a time, as irreversible. Released: the page's `fetch` promise
 * resolves with the real response; a held `window.open` returned `null` (as under a popup
 * blocker) and the window opens on the yes. Stopped: `fetch` rejects with a `TypeError`, an
 * XMLHttpRequest fires `error`, a navigation or a form submission does not happen.
 * Fences nest (an inner one holds what its work sets off) and every patched global is put back
 * exactly when the last one closes.
 * Defaults: `mode` `'act'`, no `confirm` (everything held is stopped), same origin only, no
 * downloads, navigations probed, 150 ms of quiet after two rendering steps, at most 3 s of waiting.
 *
 * @example
 * ```ts
 * import { fenceEffects } from 'planloop/dom';
 *
 * const tools: Record<string, LoopTool> = {
 *   archive: {
 *     risk: 'write',
 *     description: 'archive the open message',
 *     run: async (_args, context) => {
 *       const { stopped } = await fenceEffects(() => document.querySelector<HTMLButtonElement>('#archive')?.click(), { confirm: context.confirm, action: 'Archive the message' });
 *       return stopped || 'archived';
 *     },
 *   },
 * };
 * ```
 */
export async function fenceEffects<T>(work: () => T | Promise<T>, options: EffectFenceOptions = {}): Promise<FenceResult<T>> {
  checkFenceTimes(options, 'fenceEffects');
  const win = options.window ?? (globalThis as { window?: Window }).window;
  if (!win) return { value: await work(), effects: [], stopped: '' };
  const manager = managerFor(win);
  const fence = new Fence(manager, options);
  manager.open(fence);
  let value: T;
  try {
    value = await manager.within(fence, work);
    await fence.settle();
  } finally {
    fence.closing = true;
    manager.close(fence);
  }
  return { value, effects: [...fence.effects], stopped: fence.stoppedWords() };
}

/**
 * Throws a `ValidationError` (`invalid_input`) naming `where` unless `settleMs` and `maxMs`, when
 * given, are numbers of milliseconds, 0 or more: a fence that cannot tell when the page is quiet
 * or when to give up would hold the action for ever. For the tools' factories, so a host hears of
 * it when it makes them, not at the first click.
 *
 * @example
 * ```ts
 * checkFenceTimes({ settleMs: 300 }, 'createPageTools');
 * ```
 */
export function checkFenceTimes(options: Pick<EffectFenceOptions, 'settleMs' | 'maxMs'>, where: string): void {
  const issues = (['settleMs', 'maxMs'] as const)
    .filter((key) => options[key] !== undefined && !(typeof options[key] === 'number' && Number.isFinite(options[key]) && options[key] >= 0))
    .map((key) => ({ path: key, message: `must be a number of milliseconds, 0 or more, not ${String(options[key])}` }));
  const first = issues[0];
  if (first) throw new ValidationError('invalid_input', `${where}: ${first.path} ${first.message}.`, { issues });
}

/**
 * Runs `work` outside every effect fence: what it calls synchronously (a `fetch` to log an
 * approval, say) is not held. For a host's own code that runs while a page action is fenced.
 *
 * @example
 * ```ts
 * import { outsideFence } from 'planloop/dom';
 *
 * const onApprove = (request: { detail: string }) => {
 *   outsideFence(() => void fetch('/audit', { method: 'POST', body: request.detail }));
 *   return confirm(`${request.detail}?`);
 * };
 * ```
 */
export function outsideFence<T>(work: () => T, win: Window | undefined = (globalThis as { window?: Window }).window): T {
  const manager = win ? managers.get(win) : undefined;
  if (!manager) return work();
  return manager.within(OUTSIDE, work);
}

const DEFAULT_SETTLE_MS = 150;
const DEFAULT_MAX_MS = 3000;
/** How long the fence waits for the page's rendering steps before it stops counting on them. */
const FRAME_WAIT_MS = 1000;
/** How often the fence looks whether the page is quiet. */
const POLL_MS = 25;

/** Content types a browser saves rather than shows. */
const DOWNLOADED_TYPES =
  /^(application\/(octet-stream|zip|x-zip|x-7z|x-rar|x-tar|gzip|x-gzip|x-msdownload|x-msi|x-apple-diskimage|vnd\.android|java-archive|x-sh)|binary\/)/i;

/** A sentinel "fence" for code that runs outside every fence. */
const OUTSIDE = Symbol('outside the fence');
type Attribution = Fence | typeof OUTSIDE;

/** One open fence: its options, what it held, what is still pending. */
class Fence {
  readonly effects: FencedEffect[] = [];
  /** Timers and frames of this fence not run yet (those due within `maxMs`). */
  pending = 0;
  /** Probes and questions of this fence not answered yet: always waited for. */
  busy = 0;
  /** When something last happened (a callback ran, an effect came, a question was answered). */
  lastActivity = now();
  /** Time spent waiting for the user, not counted against `maxMs`. */
  asking = 0;
  closing = false;
  closed = false;
  readonly started = now();
  readonly mode: 'act' | 'read' | 'late';
  /** Questions, asked one at a time. */
  #queue: Promise<void> = Promise.resolve();
  /** Answers already given in this fence, by effect (the same request twice is asked once). */
  readonly #answers = new Map<string, Promise<Approval>>();

  constructor(
    readonly manager: Manager,
    readonly options: EffectFenceOptions,
    late?: Fence,
  ) {
    this.mode = late ? 'late' : (options.mode ?? 'act');
    this.parent = late;
  }

  readonly parent: Fence | undefined;

  get maxMs(): number {
    return this.options.maxMs ?? DEFAULT_MAX_MS;
  }

  /** Whether a timer due in `delay` ms is waited for. */
  waitsFor(delay: number): boolean {
    return !this.closing && now() - this.started - this.asking + Math.max(0, delay) <= this.maxMs;
  }

  touch(): void {
    this.lastActivity = now();
  }

  /** Waits until nothing of this fence is pending and the page has been quiet for `settleMs`, or `maxMs` passed. */
  async settle(): Promise<void> {
    const settleMs = this.options.settleMs ?? DEFAULT_SETTLE_MS;
    // What the page does at its next rendering steps (IntersectionObserver, ResizeObserver, scroll
    // events: a scroll sentinel) belongs to this action too, however long a busy machine takes to
    // render; a page that renders no frame for a second (throttled) is not waited for longer.
    let rendered = false;
    void this.manager.frames(2).then(() => {
      rendered = true;
    });
    for (;;) {
      await this.manager.sleep(POLL_MS);
      if (this.busy > 0) continue;
      const quiet = now() - this.lastActivity >= settleMs;
      if (this.pending === 0 && quiet && (rendered || now() - this.started > FRAME_WAIT_MS)) break;
      if (now() - this.started - this.asking > this.maxMs) break;
    }
    await this.#queue;
  }

  /**
   * Decides about one effect: `release` it (now or after a yes) or `cancel` it. Reads never come
   * here. `refusal` is a rule that stops it unasked.
   */
  hold(raw: PageEffect, release: () => void, cancel: () => void, refusal?: string): void {
    this.touch();
    // The words, the URL and what the model reads of an effect never carry a secret: not a value that
    // looks secret, not a credential in a URL, not what a secret field of the page holds now.
    const effect = unsecret(raw, this.manager.win);
    const record = (outcome: 'released' | 'stopped', reason?: string): void => {
      const entry: FencedEffect = { ...effect, outcome, ...(reason ? { reason } : {}) };
      this.effects.push(entry);
      if (this.mode === 'late') this.parent?.options.onLate?.(entry);
      this.touch();
    };
    const stop = (reason: string): void => {
      record('stopped', reason);
      safely(cancel);
    };
    if (refusal) {
      stop(refusal);
      return;
    }
    if (this.mode === 'late') {
      stop('it came from the action after it had ended, when no one could be asked');
      return;
    }
    if (this.mode === 'read') {
      stop('a look (scroll, expand, read) must never change anything');
      return;
    }
    if (this.options.approved?.(raw)) {
      record('released');
      safely(release);
      return;
    }
    const confirm = this.options.confirm;
    if (!confirm) {
      stop('nobody here can approve it');
      return;
    }
    const key = `${raw.kind} ${raw.method} ${raw.url}`;
    this.busy += 1;
    this.#queue = this.#queue.then(async () => {
      const started = now();
      let answer = this.#answers.get(key);
      if (!answer) {
        const step: EffectStep = {
          risk: 'irreversible',
          detail: `${this.options.action ? `${this.options.action}. ` : ''}${effect.words}.`,
          url: effect.url,
          effect: effect.words,
          consequence: effect.consequence,
        };
        // The host's approval code runs outside the fence: what it sends at once is its own.
        answer = this.manager
          .within(OUTSIDE, () => {
            try {
              return Promise.resolve(confirm(step));
            } catch (error) {
              return Promise.reject(error);
            }
          })
          .then(
            (value) => value,
            () => ({ approved: false }),
          );
        this.#answers.set(key, answer);
      }
      const given = await answer;
      this.asking += now() - started;
      this.busy -= 1;
      if (given?.approved === true) {
        record('released');
        this.manager.within(this, release);
      } else {
        const why = typeof given?.reason === 'string' && given.reason.trim() ? given.reason.trim() : 'the user did not approve it';
        stop(why);
      }
    });
  }

  /** For the model: what was stopped, and why. */
  stoppedWords(): string {
    const stopped = this.effects.filter((effect) => effect.outcome === 'stopped');
    if (stopped.length === 0) return '';
    const list = stopped.map((effect) => `${effect.what} (stopped: ${effect.reason ?? 'not approved'})`);
    return `The page then tried to ${list.join('; and to ')}. It did not happen; do not try it again another way.`;
  }
}

/** A saved property of an object: put back as it was found. */
interface Saved {
  target: object;
  key: string;
  descriptor: PropertyDescriptor | undefined;
  patched: unknown;
}

/** The fences of one window, and the patches they share. */
class Manager {
  readonly stack: Fence[] = [];
  /** The fence whose callback runs now (set while a wrapped callback or the work runs). */
  current: Attribution | undefined;
  #installs = 0;
  #saved: Saved[] = [];
  #listeners: Array<() => void> = [];
  /** Navigations the fence let go itself (a released form, a re-issued navigation), by URL. */
  readonly passes = new Set<string>();
  /** The page's navigate events that its own router intercepted. */
  readonly intercepted = new WeakSet<Event>();
  /** Timers and frames of a fence, by id, to stop waiting when the page clears them. */
  readonly timers = new Map<string, Fence>();
  readonly original: {
    fetch?: typeof fetch | undefined;
    setTimeout: typeof setTimeout;
    requestAnimationFrame?: typeof requestAnimationFrame | undefined;
    open?: Window['open'] | undefined;
    submit?: HTMLFormElement['submit'] | undefined;
    sendBeacon?: Navigator['sendBeacon'] | undefined;
    xhrOpen?: XMLHttpRequest['open'] | undefined;
    xhrSend?: XMLHttpRequest['send'] | undefined;
  };

  constructor(readonly win: Window) {
    this.original = {
      setTimeout: win.setTimeout.bind(win) as typeof setTimeout,
      requestAnimationFrame: typeof win.requestAnimationFrame === 'function' ? win.requestAnimationFrame.bind(win) : undefined,
    };
  }

  /** Resolves after the page's next `count` rendering steps; at once where it does not render (a hidden tab, no requestAnimationFrame). */
  async frames(count: number): Promise<void> {
    const frame = this.original.requestAnimationFrame;
    for (let i = 0; i < count; i += 1) {
      if (!frame || this.win.document.visibilityState === 'hidden') return;
      await new Promise<void>((resolve) => frame(() => resolve()));
    }
  }

  /** Sleeps with the page's own timer, unwrapped. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.original.setTimeout(resolve, ms));
  }

  /** The fence an effect made now belongs to: the one whose code runs, else the newest open one. */
  attribution(): Fence | undefined {
    if (this.current === OUTSIDE) return undefined;
    if (this.current) return this.current.closed && this.current.mode !== 'late' ? this.lateFor(this.current) : this.current;
    return this.stack.at(-1);
  }

  /** A fence for a late callback of `fence` (which has closed): everything it sets off is stopped. */
  lateFor(fence: Fence): Fence {
    return new Fence(this, fence.options, fence);
  }

  within<R>(fence: Attribution, work: () => R): R {
    const before = this.current;
    this.current = fence;
    try {
      return work();
    } finally {
      this.current = before;
    }
  }

  open(fence: Fence): void {
    this.stack.push(fence);
    this.install();
  }

  close(fence: Fence): void {
    fence.closed = true;
    const at = this.stack.lastIndexOf(fence);
    if (at >= 0) this.stack.splice(at, 1);
    this.uninstall();
  }

  /** Runs a callback the page queued inside `fence`: again inside it while it is open, as a late one after. */
  runAs<R>(fence: Fence, work: () => R): R {
    if (!fence.closed && fence.mode !== 'late') {
      fence.touch();
      return this.within(fence, work);
    }
    const late = fence.mode === 'late' ? fence : this.lateFor(fence);
    this.install();
    try {
      return this.within(late, work);
    } finally {
      this.uninstall();
    }
  }

  install(): void {
    this.#installs += 1;
    if (this.#installs > 1) return;
    patchGlobals(this);
  }

  uninstall(): void {
    this.#installs -= 1;
    if (this.#installs > 0) return;
    this.passes.clear();
    for (const remove of this.#listeners.splice(0)) remove();
    // Put back what was found, in reverse; a property the page replaced meanwhile is left as the page set it.
    for (const saved of this.#saved.splice(0).reverse()) {
      const now = Object.getOwnPropertyDescriptor(saved.target, saved.key);
      if (now && 'value' in now && now.value !== saved.patched) continue;
      if (saved.descriptor) Object.defineProperty(saved.target, saved.key, saved.descriptor);
      else delete (saved.target as Record<string, unknown>)[saved.key];
    }
  }

  /** Replaces `target[key]` (a function) with `make(original)` until the last fence closes. */
  patch<F extends AnyFn>(target: object | undefined, key: string, make: (original: F) => F): F | undefined {
    if (!target) return undefined;
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    // A data property's value; for an accessor (some environments define globals with getters), what it gives now.
    const original = (descriptor && 'value' in descriptor ? descriptor.value : (target as Record<string, unknown>)[key]) as F | undefined;
    if (typeof original !== 'function' || (descriptor && !descriptor.configurable)) return undefined;
    const patched = make(original);
    Object.defineProperty(patched, 'name', { value: original.name, configurable: true });
    Object.defineProperty(target, key, { value: patched, writable: true, enumerable: descriptor?.enumerable ?? false, configurable: true });
    this.#saved.push({ target, key, descriptor, patched });
    return original;
  }

  listen(target: EventTarget | undefined, type: string, listener: (event: Event) => void): void {
    if (!target || typeof target.addEventListener !== 'function') return;
    target.addEventListener(type, listener);
    this.#listeners.push(() => target.removeEventListener(type, listener));
  }
}

const managers = new WeakMap<Window, Manager>();

function managerFor(win: Window): Manager {
  let manager = managers.get(win);
  if (!manager) {
    manager = new Manager(win);
    managers.set(win, manager);
  }
  return manager;
}

/** Installs every patch and listener of a window's fence. */
function patchGlobals(manager: Manager): void {
  const win = manager.win as Window &
    typeof globalThis & {
      navigation?: EventTarget & { navigate?: (url: string, options?: object) => { committed: Promise<unknown>; finished: Promise<unknown> } };
    };
  const base = (): string => win.document?.baseURI ?? win.location?.href ?? '';
  const origin = (): string => new URL(base()).origin;
  const options = (fence: Fence) => fence.options;
  const original = manager.original;

  // Timers, frames and microtasks: their callbacks run inside the fence that queued them.
  const wrap = (callback: unknown, fence: Fence, counted: boolean, id: () => string | undefined): unknown => {
    if (typeof callback !== 'function') return callback;
    return function (this: unknown, ...args: unknown[]) {
      if (counted) {
        const key = id();
        if (key && manager.timers.get(key) === fence) {
          manager.timers.delete(key);
          fence.pending -= 1;
        }
      }
      return manager.runAs(fence, () => (callback as (...a: unknown[]) => unknown).apply(this, args));
    };
  };
  for (const [setter, clearer, prefix, counts] of [
    ['setTimeout', 'clearTimeout', 't', true],
    ['setInterval', 'clearInterval', 'i', false],
    ['requestAnimationFrame', 'cancelAnimationFrame', 'f', true],
  ] as const) {
    manager.patch<(callback: unknown, delay?: number, ...rest: unknown[]) => number>(
      win,
      setter,
      (set) =>
        function (this: unknown, callback: unknown, delay?: number, ...rest: unknown[]) {
          const fence = manager.attribution();
          if (!fence || typeof callback !== 'function') return set.call(win, callback, delay, ...rest);
          const due = setter === 'requestAnimationFrame' ? 16 : Number(delay) || 0;
          const counted = counts && fence.mode !== 'late' && fence.waitsFor(due);
          let handle: number | undefined;
          const wrapped = wrap(callback, fence, counted, () => (handle === undefined ? undefined : `${prefix}${handle}`));
          handle = set.call(win, wrapped, delay, ...rest);
          if (counted) {
            fence.pending += 1;
            manager.timers.set(`${prefix}${handle}`, fence);
          }
          return handle;
        },
    );
    manager.patch<(handle?: number) => void>(
      win,
      clearer,
      (clear) =>
        function (this: unknown, handle?: number) {
          const key = `${prefix}${handle}`;
          const fence = manager.timers.get(key);
          if (fence) {
            manager.timers.delete(key);
            fence.pending -= 1;
          }
          return clear.call(win, handle);
        },
    );
  }
  manager.patch<(callback: VoidFunction) => void>(
    win,
    'queueMicrotask',
    (queue) =>
      function (this: unknown, callback: VoidFunction) {
        const fence = manager.attribution();
        return queue.call(win, (fence ? wrap(callback, fence, false, () => undefined) : callback) as VoidFunction);
      },
  );

  // Requests.
  const isRead = (method: string, url: string, fence: Fence): boolean => {
    if (method !== 'GET' && method !== 'HEAD') return false;
    try {
      const target = new URL(url, base());
      if (target.protocol === 'data:' || target.protocol === 'blob:') return true;
      if (target.origin === origin()) return true;
      return (options(fence).readOrigins ?? []).some((entry) => safeOrigin(entry) === target.origin);
    } catch {
      return false;
    }
  };
  const requestEffect = (kind: 'request' | 'beacon', method: string, url: string, body: unknown): PageEffect => {
    const where = whereTo(url, base());
    const names = bodyFields(body)
      .slice(0, 8)
      .map((name) => clip(name, 30));
    const fields = names.length > 0 ? `: ${names.join(', ')}` : '';
    const what = kind === 'beacon' ? `send a beacon (a POST) to ${where}${fields}` : `send a ${method} to ${where}${fields}`;
    return { kind, method, url, what, words: `It ${what.replace(/^send /, 'sends ')}`, consequence: method === 'DELETE' ? 'delete' : 'send' };
  };
  const absolute = (url: string): string => {
    try {
      return new URL(url, base()).href;
    } catch {
      return url;
    }
  };

  original.fetch = manager.patch<typeof fetch>(
    win,
    'fetch',
    (realFetch) =>
      function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
        const fence = manager.attribution();
        if (!fence) return realFetch.call(win, input, init);
        const request = typeof Request !== 'undefined' && input instanceof Request ? input : undefined;
        const method = String(init?.method ?? request?.method ?? 'GET').toUpperCase();
        const url = absolute(request ? request.url : String(input));
        if (isRead(method, url, fence)) return realFetch.call(win, input, init);
        return new Promise<Response>((resolve, reject) => {
          fence.hold(
            requestEffect('request', method, url, init?.body),
            () => void realFetch.call(win, input, init).then(resolve, reject),
            () => reject(new TypeError('Failed to fetch')),
          );
        });
      },
  );

  const XHR = (win as { XMLHttpRequest?: typeof XMLHttpRequest }).XMLHttpRequest?.prototype;
  const requests = new WeakMap<XMLHttpRequest, { method: string; url: string; async: boolean }>();
  original.xhrOpen = manager.patch<XMLHttpRequest['open']>(
    XHR,
    'open',
    (realOpen) =>
      function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
        requests.set(this, { method: String(method).toUpperCase(), url: absolute(String(url)), async: rest.length === 0 || rest[0] !== false });
        return (realOpen as (...args: unknown[]) => void).call(this, method, url, ...rest);
      } as XMLHttpRequest['open'],
  );
  original.xhrSend = manager.patch<XMLHttpRequest['send']>(
    XHR,
    'send',
    (realSend) =>
      function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
        const fence = manager.attribution();
        const info = requests.get(this);
        if (!fence || !info || isRead(info.method, info.url, fence)) return realSend.call(this, body);
        const effect = requestEffect('request', info.method, info.url, body);
        if (!info.async) {
          fence.hold(
            effect,
            () => undefined,
            () => undefined,
            'a synchronous request cannot wait for an answer',
          );
          throw new DOMException("planloop stopped a synchronous request that needed the user's approval.", 'NetworkError');
        }
        fence.hold(
          effect,
          () => realSend.call(this, body),
          () => failRequest(this),
        );
      },
  );

  const NavigatorProto = (win as { Navigator?: typeof Navigator }).Navigator?.prototype;
  original.sendBeacon = manager.patch<Navigator['sendBeacon']>(
    NavigatorProto,
    'sendBeacon',
    (realBeacon) =>
      function (this: Navigator, url: string | URL, data?: BodyInit | null) {
        const fence = manager.attribution();
        if (!fence) return realBeacon.call(this, url, data);
        fence.hold(
          requestEffect('beacon', 'POST', absolute(String(url)), data),
          () => void realBeacon.call(this, url, data),
          () => undefined,
        );
        return true;
      },
  );

  // Navigations, windows, downloads: checked against the site and the host's allowed origins.
  const leaving = (url: string, fence: Fence): string | undefined => {
    const check = checkNavigation(url, { allowedOrigins: options(fence).allowedOrigins, base: base() });
    return check.ok ? undefined : check.message;
  };
  const navigationEffect = (url: string, via?: string): PageEffect => {
    const where = whereTo(url, base());
    const same = safeOrigin(url) === origin();
    const what = via ?? (same ? `open ${where}` : `leave the site for ${where}`);
    return { kind: 'navigation', method: 'GET', url, what, words: `It ${what.replace(/^(\w+)/, (verb) => `${verb}s`)}`, consequence: 'leave' };
  };
  const downloadEffect = (url: string, file?: string | null): PageEffect => {
    const name = file ? ` ${quote(file, 40)}` : '';
    const what = `download a file${name} from ${whereTo(url, base())}`;
    return { kind: 'download', method: 'GET', url, what, words: `It downloads a file${name} from ${whereTo(url, base())}`, consequence: 'download' };
  };
  const windowEffect = (url: string): PageEffect => {
    const where = url && url !== 'about:blank' ? whereTo(url, base()) : 'a blank page';
    return {
      kind: 'window',
      method: 'GET',
      url: url || 'about:blank',
      what: `open a new window with ${where}`,
      words: `It opens a new window with ${where}`,
      consequence: 'new-window',
    };
  };

  original.open = manager.patch<Window['open']>(
    win,
    'open',
    (realOpen) =>
      function (this: unknown, url?: string | URL, target?: string, features?: string) {
        const fence = manager.attribution();
        if (!fence) return realOpen.call(win, url, target, features);
        const href = url === undefined || String(url) === '' ? 'about:blank' : absolute(String(url));
        const refusal = href === 'about:blank' ? undefined : leaving(href, fence);
        fence.hold(
          windowEffect(href),
          () => void realOpen.call(win, url, target, features),
          () => undefined,
          refusal,
        );
        // Like a popup blocker: the page gets no window now; it opens on a yes.
        return null;
      },
  );

  // Forms: every submission, the native one (a submit button, requestSubmit) at the window after
  // the page's own handlers, and form.submit(), which fires no event.
  const FormProto = (win as { HTMLFormElement?: typeof HTMLFormElement }).HTMLFormElement?.prototype;
  let releasing = false;
  original.submit = manager.patch<HTMLFormElement['submit']>(
    FormProto,
    'submit',
    (realSubmit) =>
      function (this: HTMLFormElement) {
        const fence = manager.attribution();
        if (!fence || releasing) return realSubmit.call(this);
        holdForm(fence, this, null);
      },
  );
  const holdForm = (fence: Fence, form: HTMLFormElement, submitter: HTMLElement | null): void => {
    const method = (submitter?.getAttribute('formmethod') ?? form.getAttribute('method') ?? 'get').trim().toUpperCase() || 'GET';
    const action = absolute(submitter?.getAttribute('formaction') ?? (form.getAttribute('action') || base()));
    const target = submitter?.getAttribute('formtarget') ?? form.getAttribute('target') ?? '';
    const name = formName(form, submitter);
    const fields = fieldList(formFields(form));
    const where = whereTo(action, base());
    const newWindow = opensNewContext(target) ? ', in a new window' : '';
    const what = `send the form${name ? ` ${quote(name)}` : ''} to ${where}${newWindow}${fields}`;
    const effect: PageEffect = {
      kind: 'form',
      method: method === 'POST' ? 'POST' : 'GET',
      url: action,
      what,
      words: `It sends the form${name ? ` ${quote(name)}` : ''} to ${where}${newWindow}${fields}`,
      consequence: 'send',
    };
    fence.hold(
      effect,
      () => resubmit(form, submitter),
      () => undefined,
      leaving(action, fence),
    );
  };
  const resubmit = (form: HTMLFormElement, submitter: HTMLElement | null): void => {
    // The submitter's formaction, formmethod, formenctype and formtarget, and its name=value, as the
    // native submission would have sent them: set on the form for the moment of submit().
    const restore: Array<() => void> = [];
    for (const [from, to] of [
      ['formaction', 'action'],
      ['formmethod', 'method'],
      ['formenctype', 'enctype'],
      ['formtarget', 'target'],
    ] as const) {
      const value = submitter?.getAttribute(from);
      if (value === null || value === undefined) continue;
      const before = form.getAttribute(to);
      form.setAttribute(to, value);
      restore.push(() => (before === null ? form.removeAttribute(to) : form.setAttribute(to, before)));
    }
    const name = submitter?.getAttribute('name');
    if (submitter && name) {
      const extra = form.ownerDocument.createElement('input');
      extra.type = 'hidden';
      extra.name = name;
      extra.value = (submitter as HTMLButtonElement).value ?? '';
      form.append(extra);
      restore.push(() => extra.remove());
    }
    const action = absolute(form.getAttribute('action') || base());
    manager.passes.add(action);
    releasing = true;
    try {
      (original.submit as HTMLFormElement['submit']).call(form);
    } finally {
      releasing = false;
      for (const undo of restore.reverse()) undo();
    }
  };
  manager.listen(win, 'submit', (event) => {
    const fence = manager.attribution();
    const form = event.target as HTMLFormElement | null;
    if (!fence || event.defaultPrevented || !form || form.localName !== 'form') return;
    const submitter = ((event as SubmitEvent).submitter ?? null) as HTMLElement | null;
    const method = (submitter?.getAttribute('formmethod') ?? form.getAttribute('method') ?? '').trim().toLowerCase();
    if (method === 'dialog') return;
    event.preventDefault();
    holdForm(fence, form, submitter);
  });

  const navigation = win.navigation && typeof win.navigation.addEventListener === 'function' ? win.navigation : undefined;
  const reissue = (url: string, replace: boolean): void => {
    manager.passes.add(url);
    if (navigation?.navigate) {
      const result = navigation.navigate(url, { history: replace ? 'replace' : 'auto' });
      // The page unloading rejects these: nothing to report.
      result.committed?.catch(() => undefined);
      result.finished?.catch(() => undefined);
    } else if (replace) win.location.replace(url);
    else win.location.assign(url);
  };

  /** A navigation on this site: let go, or first probed for a redirect away or a download. */
  const sameSite = (fence: Fence, url: string, replace: boolean): void => {
    if (fence.mode !== 'act') {
      fence.hold(
        navigationEffect(url),
        () => undefined,
        () => undefined,
      );
      return;
    }
    if (fence.options.probeNavigations === false) {
      reissue(url, replace);
      return;
    }
    fence.busy += 1;
    void probe(manager, url).then((found) => {
      fence.busy -= 1;
      fence.touch();
      if (found.kind === 'page') {
        reissue(url, replace);
        return;
      }
      if (found.kind === 'download') {
        const refusal = fence.options.allowDownloads ? undefined : `downloads are not allowed here`;
        return fence.hold(
          downloadEffect(url, found.file),
          () => reissue(url, replace),
          () => undefined,
          refusal,
        );
      }
      const via = `open ${whereTo(url, base())}, which the server sends on to another site`;
      fence.hold(
        navigationEffect(url, via),
        () => reissue(url, replace),
        () => undefined,
      );
    });
  };

  // Links the Navigation API cannot see (another window) or cannot re-issue (a download), and, where
  // there is no Navigation API, every link: at the window, after the page's own click handlers.
  manager.listen(win, 'click', (event) => {
    const fence = manager.attribution();
    if (!fence || event.defaultPrevented) return;
    const link = event
      .composedPath()
      .find(
        (node): node is HTMLAnchorElement => node instanceof win.Element && (node.localName === 'a' || node.localName === 'area') && node.hasAttribute('href'),
      );
    if (!link) return;
    const href = absolute(link.getAttribute('href') ?? '');
    const target = link.getAttribute('target');
    const download = link.hasAttribute('download');
    const newWindow = opensNewContext(target);
    if (!newWindow && !download && (navigation || isFragmentOf(href, win.location.href))) return;
    event.preventDefault();
    if (newWindow) {
      const features = /\bnoopener\b|\bnoreferrer\b/i.test(link.getAttribute('rel') ?? '') ? 'noopener' : '';
      fence.hold(
        windowEffect(href),
        () => void original.open?.call(win, href, target ?? '_blank', features),
        () => undefined,
        leaving(href, fence),
      );
    } else if (download) {
      const refusal = leaving(href, fence) ?? (fence.options.allowDownloads ? undefined : 'downloads are not allowed here');
      fence.hold(
        downloadEffect(href, link.getAttribute('download') || fileOf(href)),
        () => downloadAgain(win, manager, href, link.getAttribute('download') ?? ''),
        () => undefined,
        refusal,
      );
    } else {
      const refusal = leaving(href, fence);
      if (refusal)
        fence.hold(
          navigationEffect(href),
          () => undefined,
          () => undefined,
          refusal,
        );
      else if (safeOrigin(href) === origin()) sameSite(fence, href, false);
      else
        fence.hold(
          navigationEffect(href),
          () => reissue(href, false),
          () => undefined,
        );
    }
  });

  if (!navigation) return;
  const NavigateEventProto = (win as { NavigateEvent?: { prototype: object } }).NavigateEvent?.prototype;
  manager.patch<(options?: unknown) => void>(
    NavigateEventProto,
    'intercept',
    (realIntercept) =>
      function (this: Event, interceptOptions?: unknown) {
        manager.intercepted.add(this);
        return realIntercept.call(this, interceptOptions);
      },
  );
  manager.listen(navigation, 'navigate', (event) => {
    const fence = manager.attribution();
    if (!fence) return;
    const navigate = event as Event & {
      destination?: { url?: string; sameDocument?: boolean };
      navigationType?: string;
      formData?: FormData | null;
      downloadRequest?: string | null;
      hashChange?: boolean;
    };
    const url = navigate.destination?.url ?? '';
    if (manager.passes.delete(url)) return;
    // Inside the document (a fragment, pushState) nothing leaves; a history traversal goes back to a page the user had.
    if (navigate.destination?.sameDocument || navigate.hashChange || manager.intercepted.has(event) || navigate.navigationType === 'traverse') return;
    if (!event.cancelable) return;
    event.preventDefault();
    const replace = navigate.navigationType === 'replace';
    if (navigate.formData) {
      // A form sent past the submit patch (a script that kept its own submit()): it cannot be sent again as it was.
      fence.hold(
        {
          ...navigationEffect(url),
          kind: 'form',
          method: 'POST',
          what: `send a form to ${whereTo(url, base())}`,
          words: `It sends a form to ${whereTo(url, base())}`,
          consequence: 'send',
        },
        () => undefined,
        () => undefined,
        'it was sent in a way that cannot be replayed',
      );
      return;
    }
    if (navigate.downloadRequest !== null && navigate.downloadRequest !== undefined) {
      const refusal = leaving(url, fence) ?? (fence.options.allowDownloads ? undefined : 'downloads are not allowed here');
      fence.hold(
        downloadEffect(url, navigate.downloadRequest || fileOf(url)),
        () => downloadAgain(win, manager, url, navigate.downloadRequest ?? ''),
        () => undefined,
        refusal,
      );
      return;
    }
    if (navigate.navigationType === 'reload') {
      fence.hold(
        navigationEffect(url, 'reload the page'),
        () => win.location.reload(),
        () => undefined,
      );
      return;
    }
    const refusal = leaving(url, fence);
    if (refusal)
      return fence.hold(
        navigationEffect(url),
        () => undefined,
        () => undefined,
        refusal,
      );
    if (safeOrigin(url) === origin()) return sameSite(fence, url, replace);
    fence.hold(
      navigationEffect(url),
      () => reissue(url, replace),
      () => undefined,
    );
  });
}

/**
 * What a same-site URL turns out to be when fetched: a page, a download, or a redirect to another
 * site. First without following redirects (most links answer at once); a redirect is then
 * followed in `same-origin` mode, where a hop to another origin fails before it is requested
 * (Chromium logs that refusal in the console).
 */
async function probe(manager: Manager, url: string): Promise<{ kind: 'page' } | { kind: 'download'; file: string | null } | { kind: 'elsewhere' }> {
  const realFetch = manager.original.fetch;
  if (!realFetch) return { kind: 'page' };
  const controller = new AbortController();
  const get = (redirect: RequestRedirect, mode: RequestMode): Promise<Response> =>
    realFetch.call(manager.win, url, { method: 'GET', credentials: 'same-origin', redirect, mode, signal: controller.signal });
  const judge = (response: Response): { kind: 'page' } | { kind: 'download'; file: string | null } => {
    const disposition = response.headers.get('content-disposition') ?? '';
    const type = response.headers.get('content-type') ?? '';
    if (!/^\s*attachment/i.test(disposition) && !DOWNLOADED_TYPES.test(type)) return { kind: 'page' };
    const file = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1] ?? fileOf(response.url || url);
    return { kind: 'download', file: file ? decodeSafely(file) : null };
  };
  try {
    const first = await get('manual', 'same-origin');
    if (first.type !== 'opaqueredirect') return judge(first);
    try {
      return judge(await get('follow', 'same-origin'));
    } catch {
      return { kind: 'elsewhere' };
    }
  } catch {
    // Not reachable: the browser shows its own error page, which sends nothing.
    return { kind: 'page' };
  } finally {
    controller.abort();
  }
}

/** Starts a download again, the way the page started it (a link with `download`), past the fence. */
function downloadAgain(win: Window, manager: Manager, url: string, file: string): void {
  const link = win.document.createElement('a');
  link.href = url;
  link.download = file;
  manager.passes.add(url);
  manager.within(OUTSIDE, () => link.click());
}

/** `effect` with every secret out of its words and URL (see {@link Fence.hold}). */
function unsecret(effect: PageEffect, win: Window): PageEffect {
  const values = secretValues(win.document);
  const clean = (text: string): string => redactValues(redactSecrets(text), values);
  return { ...effect, url: clean(redactUrl(effect.url)), words: clean(effect.words), what: clean(effect.what) };
}

/** What the page's secret fields hold now (password, card, one-time-code and private fields), to keep out of an effect's words. */
function secretValues(document: Document | undefined): string[] {
  if (!document) return [];
  const values: string[] = [];
  for (const field of Array.from(document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea'))) {
    const value = field.value;
    if (value && (isSecretField(field) || field.closest(`[${PRIVATE_ATTRIBUTE}]`) !== null)) values.push(value);
  }
  return values;
}

/** Makes a held XMLHttpRequest fail the way a network error does: readyState 4, status 0, `error` and `loadend`. */
function failRequest(request: XMLHttpRequest): void {
  Object.defineProperty(request, 'readyState', { value: 4, configurable: true });
  Object.defineProperty(request, 'status', { value: 0, configurable: true });
  try {
    request.dispatchEvent(new Event('readystatechange'));
    request.dispatchEvent(new ProgressEvent('error'));
    request.dispatchEvent(new ProgressEvent('loadend'));
  } finally {
    delete (request as unknown as Record<string, unknown>).readyState;
    delete (request as unknown as Record<string, unknown>).status;
  }
}

/** Whether a `target` opens another browsing context: `_blank` or a named window (not `_self`, `_parent`, `_top`). */
export function opensNewContext(target: string | null | undefined): boolean {
  const value = (target ?? '').trim().toLowerCase();
  return value !== '' && value !== '_self' && value !== '_parent' && value !== '_top';
}

/** Whether `url` only moves to a fragment of the page at `here`. */
function isFragmentOf(url: string, here: string): boolean {
  return url.includes('#') && url.split('#')[0] === here.split('#')[0];
}

function fileOf(url: string): string | null {
  try {
    const last = new URL(url).pathname.split('/').pop();
    return last ? decodeSafely(last) : null;
  } catch {
    return null;
  }
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function safeOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function safely(work: () => void): void {
  try {
    work();
  } catch {
    // Releasing or cancelling what the page made never throws into the fence.
  }
}

function now(): number {
  return typeof performance !== 'undefined' ? performance.now() : Date.now();
}
