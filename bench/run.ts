import { writeFile } from 'node:fs/promises';
import { cpus, platform } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchBundleSize } from './bundle-size.js';
import { benchDomCorpus } from './dom-corpus.js';
import { benchDomOutline } from './dom-outline.js';
import { benchFirstAction } from './first-action.js';
import { benchMarkdownEdit } from './markdown-edit.js';
import { benchOverhead } from './overhead.js';
import { benchStorage } from './storage.js';
import { checkTargets, renderMarkdown, type BenchResults } from './report.js';
import { benchTokens } from './tokens.js';

/**
 * Runs every benchmark at full size and writes `bench/results.json` and `bench/results.md`.
 * Started by `npm run bench` (through `bench/cli.mjs`).
 *
 * @example
 * ```ts
 * const results = await runBenchmarks({ log: console.log });
 * ```
 */
export async function runBenchmarks(options: { log?: (line: string) => void; write?: boolean } = {}): Promise<BenchResults> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const step = async <T>(name: string, run: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const value = await run();
    log(`${name}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
    return value;
  };
  const tokens = await step('tokens', () => benchTokens());
  const sizes = await step('bundle size', () => benchBundleSize());
  const overhead = await step('overhead', () => benchOverhead());
  const firstAction = await step('first action', () => benchFirstAction());
  const markdownEdit = await step('markdown edit', () => benchMarkdownEdit());
  const domOutline = await step('page outline', () => benchDomOutline());
  const domCorpus = await step('page outline, real pages', () => benchDomCorpus());
  const storage = await step('storage', () => benchStorage());
  const measured = { tokens, bundle: { sizes }, overhead, firstAction, markdownEdit, domOutline, domCorpus, storage };
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const results: BenchResults = {
    generatedAt: new Date().toISOString(),
    environment: { node: process.versions.node, platform: `${platform()} ${process.arch}`, cpu, cpus: cpus().length },
    ...measured,
    targets: checkTargets(measured),
  };
  if (options.write !== false) {
    await writeFile(fileURLToPath(new URL('./results.json', import.meta.url)), `${JSON.stringify(results, null, 2)}\n`);
    await writeFile(fileURLToPath(new URL('./results.md', import.meta.url)), renderMarkdown(results));
  }
  log(`all: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return results;
}
