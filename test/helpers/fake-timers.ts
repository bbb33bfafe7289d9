/** A hand-driven clock: timers run only when the test says so (`advance`), in order of when they fall due. */
export function fakeTimers() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; run: () => void; delay: number }>();
  const delays: number[] = [];
  return {
    delays,
    get pendingCount() {
      return pending.size;
    },
    now: () => now,
    timers: {
      setTimeout: (run: () => void, delay: number) => {
        const id = nextId++;
        delays.push(delay);
        pending.set(id, { at: now + delay, run, delay });
        return id;
      },
      clearTimeout: (id: unknown) => void pending.delete(id as number),
    },
    /** Moves time forward, running every timer that falls due (in order). */
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].run();
        await settle();
      }
      now = until;
      await settle();
    },
  };
}

export const settle = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};
