import { resolve } from 'node:path';
import { test, expect } from './fixtures.js';

// Every model call's `timeoutMs` must fire however the browser's garbage collector behaves: a
// timeout signal that nothing holds strongly can be collected before it fires. Chromium is started
// with --expose-gc so the page can force collections while a call stalls. (Chromium kept the old
// AbortSignal.any timeout alive here; Node did not: test/llm/call.test.ts is the one that failed.)
test.use({
  launchOptions: {
    ...(process.env.CHROMIUM_PATH ? { executablePath: process.env.CHROMIUM_PATH } : {}),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--js-flags=--expose-gc',
    ],
  },
});

const CALL = `/@fs${resolve('src/llm/call.ts')}`;

test('a stalled model call ends at its timeout in each of 20 runs with forced collections', async ({ page }) => {
  await page.goto('/fixtures/storage.html?adapter=none');
  const outcomes = await page.evaluate(async (source) => {
    const { callModel } = await import(source);
    const gc = (globalThis as { gc?: () => void }).gc;
    if (!gc) return ['no gc: Chromium was not started with --expose-gc'];
    const stalled = {
      name: 'stalled',
      generate: () => new Promise(() => {}),
      stream: async function* () {
        yield { type: 'text-delta', delta: '{"todo":"' };
        await new Promise(() => {});
      },
    };
    const codes: string[] = [];
    for (let run = 0; run < 20; run++) {
      const host = new AbortController();
      let done = false;
      const call = callModel(stalled, { messages: [{ role: 'user', content: 'hi' }], signal: host.signal }, { timeoutMs: 40 }).then(
        () => 'resolved',
        (error: { code?: string }) => error.code ?? 'no code',
      );
      void call.then(() => (done = true));
      // Collect until the call ends; a call that outlives 200 collections (about 2 s) has lost its timeout.
      for (let i = 0; i < 200 && !done; i++) {
        gc();
        await new Promise((next) => setTimeout(next, 10));
      }
      codes.push(done ? await call : 'still running');
    }
    return codes;
  }, CALL);
  expect(outcomes).toEqual(Array.from({ length: 20 }, () => 'timeout'));
});
