import { describe, expect, it } from 'vitest';
import { BUNDLE_ENTRIES, measureBundle, SIZE_BUDGETS, type Bundler } from '../bench/bundle-size.js';

// Budgets are tests (like size-limit): the library is built as published and bundled as a user's
// app would bundle it, by Vite (rolldown) and by esbuild. `npm run bench` reports every entry.

const entry = (name: string) => {
  const found = BUNDLE_ENTRIES.find((item) => item.name === name);
  if (!found) throw new Error(`no bundle entry ${name}`);
  return found;
};

describe('bundle size budgets', () => {
  for (const bundler of ['rolldown', 'esbuild'] as Bundler[]) {
    for (const [name, budget] of Object.entries(SIZE_BUDGETS)) {
      it(`${name} with ${bundler}: at most ${budget / 1000} KB gzipped, and no other module family's code`, async () => {
        const size = await measureBundle(entry(name), bundler);
        expect(size.leaks).toEqual([]);
        expect(size.gzip, `${name} is ${size.gzip} bytes gzipped with ${bundler}`).toBeLessThanOrEqual(budget);
      }, 120_000);
    }
  }

  it('tree-shaking can fail the check: a provider entry does carry its own marker', async () => {
    const openai = await measureBundle(entry('openai-compatible'), 'esbuild');
    expect(openai.code).toContain('chat/completions');
    expect(openai.leaks).toEqual([]);
    const plan = await measureBundle(entry('Plan only'), 'esbuild');
    expect(plan.code).not.toContain('chat/completions');
  }, 120_000);
});
