import { readFile, writeFile } from 'node:fs/promises';
import { cpus, platform } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchBundleSize } from './bundle-size.js';
import { benchDomCorpus } from './dom-corpus.js';
import { benchDomOutline } from './dom-outline.js';
import { benchFirstAction } from './first-action.js';
import { benchMarkdownEdit } from './markdown-edit.js';
import { benchOverhead } from './overhead.js';
import { benchReplay } from './replay.js';
import { benchStorage } from './storage.js';
import { checkTargets, renderMarkdown, type BenchResults } from './report.js';
import { benchTokens } from './tokens.js';

/**
 * Runs every benchmark at full size and writes `bench/results.json` and `bench/results.md`.
 * Started by `npm run bench` (through `bench/cli.mjs`). `only` (`npm run bench -- tokens bundle`)
 * runs just the named parts and keeps the other parts' figures from the last `results.json`;
 * `results.md` says which run each came from. The token counts need no quiet machine; timings do.
 *
 * @example
 * ```ts
 * const results = await runBenchmarks({ log: console.log });
 * ```
 */
export async function runBenchmarks(options: { log?: (line: string) => void; write?: boolean; only?: readonly BenchPart[] } = {}): Promise<BenchResults> {
  const log = options.log ?? (() => {});
  const started = performance.now();
  const step = async <T>(name: string, run: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const value = await run();
    log(`${name}: ${((performance.now() - start) / 1000).toFixed(1)} s`);
    return value;
  };
  const resultsJson = fileURLToPath(new URL('./results.json', import.meta.url));
  const only = options.only && options.only.length > 0 ? new Set<string>(options.only) : undefined;
  const previous = only ? (JSON.parse(await readFile(resultsJson, 'utf8')) as BenchResults) : undefined;
  const kept: string[] = [];
  const part = async <K extends BenchPart>(key: K, name: string, run: () => Promise<Measured[K]>): Promise<Measured[K]> => {
    if (!only || only.has(key) || (key === 'tokensWithFailures' && only.has('tokens'))) return step(name, run);
    kept.push(name);
    return (previous as BenchResults)[key];
  };
  const tokens = await part('tokens', 'tokens', async () => benchTokens());
  const tokensWithFailures = await part('tokensWithFailures', 'tokens, one failed turn in ten', async () => benchTokens({ failEvery: 10 }));
  const bundle = await part('bundle', 'bundle size', async () => ({ sizes: await benchBundleSize() }));
  const overhead = await part('overhead', 'per-turn overhead', async () => benchOverhead());
  const firstAction = await part('firstAction', 'first action', async () => benchFirstAction());
  const markdownEdit = await part('markdownEdit', 'markdown edit', async () => benchMarkdownEdit());
  const domOutline = await part('domOutline', 'page outline', async () => benchDomOutline());
  const domCorpus = await part('domCorpus', 'page outline, real pages', async () => benchDomCorpus());
  const storage = await part('storage', 'storage', async () => benchStorage());
  const replay = await part('replay', 'recorded tours, live and replayed', async () => benchReplay());
  const measured: Measured = { tokens, tokensWithFailures, bundle, overhead, firstAction, markdownEdit, domOutline, domCorpus, storage, replay };
  // Each kept part's run: as the previous results name it, else that run itself.
  const runOf = (name: string): string => {
    const before = previous as BenchResults;
    return before.reused?.runs?.[name] ?? (before.reused?.parts.includes(name) ? before.reused.from : before.generatedAt);
  };
  const runs = Object.fromEntries(kept.map((name) => [name, runOf(name)]));
  const reused: BenchResults['reused'] = kept.length > 0 ? { from: Object.values(runs).sort()[0] as string, parts: kept, runs } : undefined;
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const results: BenchResults = {
    generatedAt: new Date().toISOString(),
    environment: { node: process.versions.node, platform: `${platform()} ${process.arch}`, cpu, cpus: cpus().length },
    ...(reused ? { reused } : {}),
    ...measured,
    targets: checkTargets(measured),
  };
  if (options.write !== false) {
    await writeFile(resultsJson, `${JSON.stringify(results, null, 2)}\n`);
    await writeFile(fileURLToPath(new URL('./results.md', import.meta.url)), renderMarkdown(results));
  }
  log(`all: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return results;
}

type Measured = Omit<BenchResults, 'targets' | 'generatedAt' | 'environment' | 'reused'>;

/** A part of the benchmarks, as `results.json` keys it (`npm run bench -- bundle` runs that part only). */
export type BenchPart = keyof Measured;
