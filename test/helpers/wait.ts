/** Resolves after `ms` milliseconds (a macrotask later for 0). */
export const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check()` holds, polling every `every` ms; rejects naming `what` after `ms`. */
export async function until(check: () => boolean, what: string, ms = 3000, every = 2): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`still waiting for ${what} after ${ms} ms`);
    await tick(every);
  }
}
