import { describe, expect, it } from 'vitest';
import { BUNDLE_ENTRIES, measureBundle, SIZE_BUDGETS, TOTAL_LIMITS, type Bundler } from '../bench/bundle-size.js';

// Budgets are tests (like size-limit): the library is built as published and bundled as a user's
// app would bundle it, by Vite (rolldown) and by esbuild, code splitting on. `npm run bench`
// reports every entry. What a page loads at start is the entry chunk and every chunk it imports
// statically (issue 25: counting the entry chunk alone hid half of it).

const entry = (name: string) => {
  const found = BUNDLE_ENTRIES.find((item) => item.name === name);
  if (!found) throw new Error(`no bundle entry ${name}`);
  return found;
};

describe('bundle size budgets', () => {
  for (const bundler of ['rolldown', 'esbuild'] as Bundler[]) {
    for (const [name, budget] of Object.entries(SIZE_BUDGETS)) {
      const total = TOTAL_LIMITS[name] as number;
      it(`${name} with ${bundler}: at most ${budget / 1000} KB gzipped at start, all chunks at most ${total / 1000} KB, and no other module family's code`, async () => {
        const size = await measureBundle(entry(name), bundler);
        expect(size.leaks).toEqual([]);
        expect(size.gzip, `${name} loads ${size.gzip} bytes gzipped at start (${size.startChunks} chunks) with ${bundler}`).toBeLessThanOrEqual(budget);
        expect(size.totalGzip, `${name} is ${size.totalGzip} bytes gzipped in all chunks with ${bundler}`).toBeLessThanOrEqual(total);
        expect(size.startChunks).toBeGreaterThan(1);
      }, 120_000);
    }
  }

  // `import { z } from 'zod/mini'` made esbuild bundle all of zod with its locales (interop: 91 KB
  // gzipped with esbuild, 12 KB with rolldown); `import * as z` does not. Both bundlers, same size.
  for (const name of ['planloop/interop', 'planloop/graph']) {
    it(`${name}: esbuild's bundle is no more than 30% larger than rolldown's`, async () => {
      const [rolldown, esbuild] = await Promise.all([measureBundle(entry(name), 'rolldown'), measureBundle(entry(name), 'esbuild')]);
      expect(esbuild.gzip, `${name}: ${esbuild.gzip} bytes with esbuild, ${rolldown.gzip} with rolldown`).toBeLessThanOrEqual(rolldown.gzip * 1.3);
    }, 120_000);
  }

  it('start-up load counts the chunks the entry imports statically, not those loaded on first use', async () => {
    const plan = await measureBundle(entry('Plan only'), 'esbuild');
    expect(plan.gzip).toBeGreaterThan(plan.entryGzip);
    expect(plan.totalGzip).toBeGreaterThan(plan.gzip);
    // The planner's prompts, the merge and the run lease load on first use, not at start.
    expect(plan.code).not.toContain('concurrent-plan');
    expect(plan.code).not.toContain('taken over by another tab');
  }, 120_000);

  // The stored-snapshot reader is shared with the rooms loaded on first use; re-exported by the
  // root entry, esbuild loaded it at start (0.7 KB) for pages that never read a snapshot.
  for (const bundler of ['rolldown', 'esbuild'] as Bundler[]) {
    it(`the core with ${bundler} reads no stored snapshot at start`, async () => {
      const core = await measureBundle(entry('core'), bundler);
      expect(core.code).not.toContain('newer than this planloop reads');
    }, 120_000);
  }

  // Sync's clocks (their reader, comparisons, the merge's helpers) are shared by the lazy sync and
  // storage chunks; when the plan's core used one of them, the whole file loaded at start (0.5 KB).
  // Marker: the bound the clock reader puts on counters (2 ** 50).
  for (const bundler of ['rolldown', 'esbuild'] as Bundler[]) {
    it(`Plan with ${bundler} loads no sync clocks at start`, async () => {
      const plan = await measureBundle(entry('Plan only'), bundler);
      expect(plan.code).not.toMatch(/2\*\*50|1125899906842624/);
    }, 120_000);
  }

  it('tree-shaking can fail the check: a provider entry does carry its own marker', async () => {
    const openai = await measureBundle(entry('openai-compatible'), 'esbuild');
    expect(openai.code).toContain('chat/completions');
    expect(openai.leaks).toEqual([]);
    const plan = await measureBundle(entry('Plan only'), 'esbuild');
    expect(plan.code).not.toContain('chat/completions');
  }, 120_000);
});
