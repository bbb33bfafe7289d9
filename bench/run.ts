import { readFile, writeFile } from 'node:fs/promises';
import { cpus, platform } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchBundleSize } from './bundle-size.js';
import { benchDomOutline } from './dom-outline.js';
import { benchFirstAction } from './first-action.js';
import { benchMarkdownEdit } from './markdown-edit.js';
import { benchOverhead } from './overhead.js';
import { benchStorage } from './storage.js';
import { checkTargets, renderMarkdown, type BenchResults } from './report.js';
import { benchTokens } from './tokens.js';

/**
 * Runs every benchmark at full size and writes `bench/results.json` and `bench/results.md`.
 * Started by `npm run bench` (through `bench/cli.mjs`). With `only: 'tokens'` (`npm run bench --
 * tokens`) it counts tokens only (no timing, so a loaded machine does not matter) and keeps every
 * other figure from the `results.json` already there; `results.md` says which run each came from.
 *
 * @example
 * ```ts
 * const results = await runBenchmarks({ log: console.log });
 * ```
 */
export async function runBenchmarks(options: { log?: (line: string) => void; write?: boolean; only?: 'tokens' } = {}): Promise<BenchResults> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const step = async <T>(name: string, run: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const value = await run();
    log(`${name}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
    return value;
  };
  const resultsJson = fileURLToPath(new URL('./results.json', import.meta.url));
  const tokens = await step('tokens', () => benchTokens());
  const tokensWithFailures = await step('tokens, one failed turn in ten', () => benchTokens({ failEvery: 10 }));
  let measured: Omit<BenchResults, 'targets' | 'generatedAt' | 'environment' | 'reused'>;
  let reused: BenchResults['reused'];
  if (options.only === 'tokens') {
    const previous = JSON.parse(await readFile(resultsJson, 'utf8')) as BenchResults;
    measured = { ...previous, tokens, tokensWithFailures };
    reused = { from: previous.reused?.from ?? previous.generatedAt, parts: ['bundle size', 'per-turn overhead', 'first action', 'markdown edit', 'page outline', 'storage'] };
  } else {
    const sizes = await step('bundle size', () => benchBundleSize());
    const overhead = await step('overhead', () => benchOverhead());
    const firstAction = await step('first action', () => benchFirstAction());
    const markdownEdit = await step('markdown edit', () => benchMarkdownEdit());
    const domOutline = await step('page outline', () => benchDomOutline());
    const storage = await step('storage', () => benchStorage());
    measured = { tokens, tokensWithFailures, bundle: { sizes }, overhead, firstAction, markdownEdit, domOutline, storage };
  }
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const { bundle, overhead, firstAction, markdownEdit, domOutline, storage } = measured;
  const parts = { tokens, tokensWithFailures, bundle, overhead, firstAction, markdownEdit, domOutline, storage };
  const results: BenchResults = {
    generatedAt: new Date().toISOString(),
    environment: { node: process.versions.node, platform: `${platform()} ${process.arch}`, cpu, cpus: cpus().length },
    ...(reused ? { reused } : {}),
    ...parts,
    targets: checkTargets(parts),
  };
  if (options.write !== false) {
    await writeFile(resultsJson, `${JSON.stringify(results, null, 2)}\n`);
    await writeFile(fileURLToPath(new URL('./results.md', import.meta.url)), renderMarkdown(results));
  }
  log(`all: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return results;
}
