import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { build, type Rolldown } from 'vite';
import { round } from './measure.js';

/** Where the library is built for measuring: inside node_modules, so its imports of zod, nanoid, … resolve. */
const WORK = fileURLToPath(new URL('../node_modules/.cache/planloop-bundle-size/', import.meta.url));
const CONFIG = fileURLToPath(new URL('../vite.config.ts', import.meta.url));

/** The bundlers a user's app is likely built with: Vite's (rolldown) and esbuild. */
export type Bundler = 'rolldown' | 'esbuild';

/** One bundle to measure: a name and the source of a tiny app module importing from `planloop`. */
export interface BundleEntry {
  name: string;
  /** What the row stands for, for the results table. */
  note: string;
  /** The app module, e.g. `export { Plan } from 'planloop';` (subpaths too: `planloop/ui`). */
  source: string;
}

/** The measured size of one entry with one bundler, in bytes. */
export interface BundleSize {
  name: string;
  note: string;
  bundler: Bundler;
  /** The code the page loads at start (the entry chunk), minified. */
  minified: number;
  gzip: number;
  brotli: number;
  /** Gzipped size of every chunk, the ones loaded later (the planner, on the first `makeTodos`) included. */
  totalGzip: number;
  /** {@link LEAK_MARKERS} found in the output that this entry should not contain. */
  leaks: string[];
}

/**
 * Strings that only one module family contains: finding one in a bundle that did not ask for that
 * module means tree-shaking failed.
 */
export const LEAK_MARKERS: Record<string, string> = {
  'chat/completions': 'createOpenAICompatibleProvider',
  'anthropic-version': 'createAnthropicProvider',
  interruptGenerate: 'createWebLLMProvider',
  LanguageModel: 'createChromePromptProvider',
  indexedDB: 'createIndexedDbAdapter',
  'plan-panel': 'planloop/ui',
  'data-planloop-private': 'planloop/dom',
};

/**
 * The size budgets `npm test` holds (gzip, the entry chunk, with each bundler), in bytes.
 *
 * @example
 * ```ts
 * size.gzip <= SIZE_BUDGETS[size.name];
 * ```
 */
export const SIZE_BUDGETS: Readonly<Record<string, number>> = { core: 15_000, 'Plan only': 12_000 };

/** The entries `npm run bench` measures: the core, each provider, each storage adapter, the subpaths, and everything. */
export const BUNDLE_ENTRIES: BundleEntry[] = [
  { name: 'core', note: '`Plan` + `parseTurnEnvelope`', source: `export { Plan, parseTurnEnvelope, safeParseTurnEnvelope } from 'planloop';` },
  { name: 'Plan only', note: "`import { Plan } from 'planloop'`", source: `export { Plan } from 'planloop';` },
  { name: 'core + turn loop', note: 'the core + `runWebAgent`', source: `export { Plan, parseTurnEnvelope, safeParseTurnEnvelope, runWebAgent } from 'planloop';` },
  { name: 'openai-compatible', note: '`createOpenAICompatibleProvider`', source: `export { createOpenAICompatibleProvider } from 'planloop';` },
  { name: 'anthropic', note: '`createAnthropicProvider`', source: `export { createAnthropicProvider } from 'planloop';` },
  { name: 'webllm', note: '`createWebLLMProvider`', source: `export { createWebLLMProvider } from 'planloop';` },
  { name: 'chrome-prompt', note: '`createChromePromptProvider`', source: `export { createChromePromptProvider } from 'planloop';` },
  { name: 'memory storage', note: '`createMemoryAdapter`', source: `export { createMemoryAdapter } from 'planloop';` },
  { name: 'localStorage', note: '`createLocalStorageAdapter`', source: `export { createLocalStorageAdapter } from 'planloop';` },
  { name: 'IndexedDB', note: '`createIndexedDbAdapter` (idb-keyval included)', source: `export { createIndexedDbAdapter } from 'planloop';` },
  { name: 'planloop/ui', note: '`<plan-panel>`', source: `export * from 'planloop/ui';` },
  { name: 'planloop/interop', note: 'checklists, write_todos, plan-update streams', source: `export * from 'planloop/interop';` },
  { name: 'planloop/graph', note: 'tool-call graphs', source: `export * from 'planloop/graph';` },
  { name: 'planloop/dom', note: '`outlinePage`, `renderOutline`, `resolveTarget`', source: `export * from 'planloop/dom';` },
  { name: 'everything', note: "`export * from 'planloop'`", source: `export * from 'planloop';` },
];

/** Which markers each entry is allowed to contain (its own module's). */
const ALLOWED: Record<string, string[]> = {
  'openai-compatible': ['chat/completions'],
  anthropic: ['anthropic-version'],
  webllm: ['interruptGenerate'],
  'chrome-prompt': ['LanguageModel'],
  IndexedDB: ['indexedDB'],
  'planloop/ui': ['plan-panel'],
  'planloop/dom': ['data-planloop-private'],
  everything: Object.keys(LEAK_MARKERS),
};

let built: Promise<string> | undefined;

/**
 * Builds the library into a cache folder with the project's own config (`vite build`, as
 * `npm run build` does), once per process, and returns the `dist` folder: the sizes are those of
 * what we publish, bundled as a user's app would bundle it.
 *
 * @example
 * ```ts
 * const dist = await buildLibrary();
 * ```
 */
export function buildLibrary(): Promise<string> {
  built ??= (async () => {
    const dist = join(WORK, 'dist');
    await build({ configFile: CONFIG, logLevel: 'silent', build: { outDir: dist, emptyOutDir: true, sourcemap: false } });
    return dist;
  })();
  return built;
}

/**
 * Bundles one entry against the built library with `bundler`, minified, splitting the chunks the
 * library loads later (as an app build does), and measures the entry chunk raw, gzipped (level 9)
 * and brotli-compressed (quality 11), and all chunks gzipped.
 *
 * @example
 * ```ts
 * const { gzip, leaks } = await measureBundle(BUNDLE_ENTRIES[1], 'esbuild');
 * ```
 */
export async function measureBundle(entry: BundleEntry, bundler: Bundler): Promise<BundleSize & { code: string }> {
  const dist = await buildLibrary();
  const dir = join(WORK, `${bundler}-${entry.name.replace(/[^a-z0-9]+/gi, '-')}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'app.js');
  await writeFile(file, `${entry.source.replace(/'planloop(\/[a-z]+)?'/g, (_match, sub: string | undefined) => `'${join(dist, `${sub ? sub.slice(1) : 'index'}.js`)}'`)}\n`);
  const chunks = bundler === 'esbuild' ? await withEsbuild(file, dir) : await withRolldown(file, dir);
  const [first, ...rest] = chunks;
  const code = first?.code ?? '';
  const bytes = Buffer.from(code);
  const everything = chunks.map((chunk) => chunk.code).join('\n');
  const allowed = ALLOWED[entry.name] ?? [];
  return {
    name: entry.name,
    note: entry.note,
    bundler,
    minified: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    totalGzip: [first, ...rest].reduce((sum, chunk) => sum + (chunk ? gzipSync(Buffer.from(chunk.code), { level: 9 }).length : 0), 0),
    leaks: Object.keys(LEAK_MARKERS).filter((marker) => !allowed.includes(marker) && everything.includes(marker)),
    code,
  };
}

/** The chunks esbuild makes, the entry first. */
async function withEsbuild(file: string, dir: string): Promise<Array<{ code: string }>> {
  const result = await esbuild.build({ entryPoints: [file], bundle: true, splitting: true, format: 'esm', minify: true, target: 'es2022', platform: 'browser', outdir: join(dir, 'out'), write: false, logLevel: 'silent' });
  const entry = result.outputFiles.filter((output) => output.path.endsWith(`${'/'}app.js`));
  const others = result.outputFiles.filter((output) => !entry.includes(output));
  return [...entry, ...others].map((output) => ({ code: output.text }));
}

/** The chunks Vite (rolldown) makes for an app whose entry keeps its exports, the entry first. */
async function withRolldown(file: string, dir: string): Promise<Array<{ code: string }>> {
  const output = await build({
    configFile: false,
    logLevel: 'silent',
    root: dir,
    publicDir: false,
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      reportCompressedSize: false,
      // Vite keeps /*#__PURE__*/ comments for a later bundler; measure what ends up in an app.
      rolldownOptions: { input: file, preserveEntrySignatures: 'strict', output: { minify: true, comments: false } },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output])
    .flatMap((result) => (result as Rolldown.RolldownOutput).output)
    .filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  return [...chunks.filter((chunk) => chunk.isEntry), ...chunks.filter((chunk) => !chunk.isEntry)];
}

/**
 * Measures every entry of `entries` (all of {@link BUNDLE_ENTRIES} by default) with each bundler.
 *
 * @example
 * ```ts
 * const sizes = await benchBundleSize(BUNDLE_ENTRIES.slice(0, 2));
 * ```
 */
export async function benchBundleSize(entries: readonly BundleEntry[] = BUNDLE_ENTRIES, bundlers: readonly Bundler[] = ['rolldown', 'esbuild']): Promise<BundleSize[]> {
  const sizes: BundleSize[] = [];
  for (const entry of entries) {
    for (const bundler of bundlers) {
      const { code: _code, ...size } = await measureBundle(entry, bundler);
      sizes.push(size);
    }
  }
  return sizes;
}

/**
 * Bytes as kilobytes (1 KB = 1,000 bytes), 1 decimal.
 *
 * @example
 * ```ts
 * kb(23_388); // 23.4
 * ```
 */
export function kb(bytes: number): number {
  return round(bytes / 1000, 1);
}
