// How fast the tour goes. `?fast=1` (or the Fast setting) shortens every pause so the end-to-end
// tests stay quick; `?read=<ms>` fixes the reading time of each narration; `?chunk=<ms>` fixes the
// offline model's pause before each streamed chunk (a slow answer, to act while it streams).

/** The tour's timings. */
export interface Pace {
  fast: boolean;
  /** Pause before each streamed chunk of the offline model. */
  chunkDelayMs: number;
  /** Characters per streamed chunk of the offline model. */
  chunkSize: number;
  /** Time given to read a narration before the tour moves on ("Next" skips it). */
  readMs(text: string): number;
  /** Pause per typed character when the guide fills a field. */
  typeDelayMs: number;
  /** Pause around a click, so the user sees what is about to happen. */
  actionPauseMs: number;
}

/** The pace for the Normal or Fast setting, with `?read=` and `?chunk=` applied. */
export function createPace(fast: boolean, query: URLSearchParams = new URLSearchParams(location.search)): Pace {
  const read = Number(query.get('read'));
  const fixedRead = Number.isFinite(read) && query.has('read') ? Math.max(0, read) : undefined;
  const chunk = Number(query.get('chunk'));
  const fixedChunk = Number.isFinite(chunk) && query.has('chunk') ? Math.max(0, chunk) : undefined;
  return {
    fast,
    chunkDelayMs: fixedChunk ?? (fast ? 2 : 28),
    chunkSize: fast ? 48 : 12,
    readMs: (text) => fixedRead ?? (fast ? 120 : Math.min(7000, 1600 + 45 * text.length)),
    typeDelayMs: fast ? 0 : 45,
    actionPauseMs: fast ? 30 : 600,
  };
}

/** Waits `ms`, rejecting with the signal's reason on abort. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
