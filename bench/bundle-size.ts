import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
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
  /**
   * The code the page loads at start, minified: the entry chunk and every chunk it imports
   * statically, transitively (a browser fetches and runs them all before the app's first line).
   */
  minified: number;
  /** {@link minified}, each chunk gzipped on its own (as a server sends it), summed. */
  gzip: number;
  /** {@link minified}, each chunk brotli-compressed on its own, summed. */
  brotli: number;
  /** The gzipped entry chunk alone (what the size test counted before start-up load). */
  entryGzip: number;
  /** How many chunks load at start (the entry included). */
  startChunks: number;
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
 * The size budgets `npm test` holds (gzip, what a page loads at start: the entry chunk and every
 * chunk it imports statically; with each bundler), in bytes.
 *
 * @example
 * ```ts
 * size.gzip <= SIZE_BUDGETS[size.name];
 * ```
 */
export const SIZE_BUDGETS: Readonly<Record<string, number>> = { core: 15_000, 'Plan only': 12_000 };

/**
 * What all chunks together may not grow past (gzip, with each bundler), in bytes: the larger
 * figure of the two bundlers when the core went past its start budget (issue 25: 39.5 KB for the
 * core, 38 KB for `Plan` alone), so that the start budget is met by moving code out of the page's
 * start, not by moving it from one column to the other; plus, in 0.3.0, what todo checks added to
 * the plan itself (their object form at start, their compact text in the planner's chunk, the
 * evidence marks: about 1 KB measured with both bundlers).
 *
 * @example
 * ```ts
 * size.totalGzip <= TOTAL_LIMITS[size.name];
 * ```
 */
export const TOTAL_LIMITS: Readonly<Record<string, number>> = { core: 40_500, 'Plan only': 39_000 };

/** The entries `npm run bench` measures: the core, each provider, each storage adapter, the subpaths, and everything. */
export const BUNDLE_ENTRIES: BundleEntry[] = [
  { name: 'core', note: '`Plan` + `parseTurnEnvelope`', source: `export { Plan, parseTurnEnvelope, safeParseTurnEnvelope } from 'planloop';` },
  { name: 'Plan only', note: "`import { Plan } from 'planloop'`", source: `export { Plan } from 'planloop';` },
  {
    name: 'core + turn loop',
    note: 'the core + `runWebAgent`',
    source: `export { Plan, parseTurnEnvelope, safeParseTurnEnvelope, runWebAgent } from 'planloop';`,
  },
  { name: 'openai-compatible', note: '`createOpenAICompatibleProvider`', source: `export { createOpenAICompatibleProvider } from 'planloop';` },
  { name: 'anthropic', note: '`createAnthropicProvider`', source: `export { createAnthropicProvider } from 'planloop';` },
  { name: 'webllm', note: '`createWebLLMProvider`', source: `export { createWebLLMProvider } from 'planloop';` },
  { name: 'chrome-prompt', note: '`createChromePromptProvider`', source: `export { createChromePromptProvider } from 'planloop';` },
  { name: 'memory storage', note: '`createMemoryAdapter`', source: `export { createMemoryAdapter } from 'planloop';` },
  { name: 'localStorage', note: '`createLocalStorageAdapter`', source: `export { createLocalStorageAdapter } from 'planloop';` },
  { name: 'IndexedDB', note: '`createIndexedDbAdapter`', source: `export { createIndexedDbAdapter } from 'planloop';` },
  { name: 'planloop/ui', note: '`<plan-panel>`', source: `export * from 'planloop/ui';` },
  { name: 'planloop/interop', note: 'checklists, write_todos, plan-update streams', source: `export * from 'planloop/interop';` },
  { name: 'planloop/graph', note: 'tool-call graphs', source: `export * from 'planloop/graph';` },
  { name: 'planloop/dom', note: '`outlinePage`, `renderOutline`, `resolveTarget`', source: `export * from 'planloop/dom';` },
  { name: 'planloop/loop', note: 'the parts of a hand-written turn loop', source: `export * from 'planloop/loop';` },
  { name: 'planloop/storage', note: 'the snapshot format and the adapters', source: `export * from 'planloop/storage';` },
  { name: 'everything', note: "`export * from 'planloop'`", source: `export * from 'planloop';` },
];

/** Which markers each entry is allowed to contain (its own module's). */
const ALLOWED: Record<string, string[]> = {
  'openai-compatible': ['chat/completions'],
  anthropic: ['anthropic-version'],
  webllm: ['interruptGenerate'],
  'chrome-prompt': ['LanguageModel'],
  IndexedDB: ['indexedDB'],
  'planloop/storage': ['indexedDB'],
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
    // Beside dist, the package.json an install has: its `sideEffects: false` is what lets an app's
    // bundler drop unused modules. Without it (a folder with none), rolldown kept modules of the
    // turn loop that a page importing `Plan` never runs.
    const { name, type, sideEffects } = JSON.parse(await readFile(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8')) as Record<
      string,
      unknown
    >;
    await writeFile(join(WORK, 'package.json'), `${JSON.stringify({ name, type, sideEffects })}\n`);
    return dist;
  })();
  return built;
}

/**
 * Bundles one entry against the built library with `bundler`, minified, splitting the chunks the
 * library loads later (as an app build does), and measures what loads at start (the entry chunk
 * and the chunks it imports statically, transitively) raw, gzipped (level 9) and
 * brotli-compressed (quality 11), and all chunks gzipped.
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
  await writeFile(
    file,
    `${entry.source.replace(/'planloop(\/[a-z]+)?'/g, (_match, sub: string | undefined) => `'${join(dist, `${sub ? sub.slice(1) : 'index'}.js`)}'`)}\n`,
  );
  const chunks = bundler === 'esbuild' ? await withEsbuild(file, dir) : await withRolldown(file, dir);
  const start = startChunks(chunks);
  const gzip = (code: string): number => gzipSync(Buffer.from(code), { level: 9 }).length;
  const sum = (list: readonly Chunk[], size: (code: string) => number): number => list.reduce((total, chunk) => total + size(chunk.code), 0);
  const everything = chunks.map((chunk) => chunk.code).join('\n');
  const allowed = ALLOWED[entry.name] ?? [];
  return {
    name: entry.name,
    note: entry.note,
    bundler,
    minified: sum(start, (code) => Buffer.byteLength(code)),
    gzip: sum(start, gzip),
    brotli: sum(start, (code) => brotliCompressSync(Buffer.from(code), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length),
    entryGzip: gzip(chunks[0]?.code ?? ''),
    startChunks: start.length,
    totalGzip: sum(chunks, gzip),
    leaks: Object.keys(LEAK_MARKERS).filter((marker) => !allowed.includes(marker) && everything.includes(marker)),
    code: start.map((chunk) => chunk.code).join('\n'),
  };
}

/** One output chunk: its name, code, and the chunks it imports statically (by name). */
interface Chunk {
  name: string;
  code: string;
  imports: string[];
}

/** The entry chunk (the first) and every chunk it imports statically, transitively. */
function startChunks(chunks: readonly Chunk[]): Chunk[] {
  const byName = new Map(chunks.map((chunk) => [chunk.name, chunk]));
  const seen = new Set<Chunk>();
  const visit = (chunk: Chunk | undefined): void => {
    if (!chunk || seen.has(chunk)) return;
    seen.add(chunk);
    for (const name of chunk.imports) {
      const imported = byName.get(name);
      if (!imported) throw new Error(`${chunk.name} imports ${name}, which is not among the output chunks`);
      visit(imported);
    }
  };
  visit(chunks[0]);
  return [...seen];
}

/** The chunks esbuild makes, the entry first. */
async function withEsbuild(file: string, dir: string): Promise<Chunk[]> {
  const outdir = join(dir, 'out');
  const result = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    target: 'es2022',
    platform: 'browser',
    outdir,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  // The metafile names outputs relative to the working directory; the output files by absolute path.
  const outputs = Object.entries(result.metafile.outputs).map(([path, meta]) => ({ path: resolve(path), meta }));
  const chunks = result.outputFiles.map((output) => {
    const meta = outputs.find((item) => item.path === output.path)?.meta;
    if (!meta) throw new Error(`esbuild's metafile does not describe ${output.path}`);
    const imports = meta.imports.filter((item) => item.kind === 'import-statement' && !item.external).map((item) => resolve(item.path));
    return { name: output.path, code: output.text, imports };
  });
  return [...chunks.filter((chunk) => chunk.name.endsWith('/app.js')), ...chunks.filter((chunk) => !chunk.name.endsWith('/app.js'))];
}

/** The chunks Vite (rolldown) makes for an app whose entry keeps its exports, the entry first. */
async function withRolldown(file: string, dir: string): Promise<Chunk[]> {
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
  const ordered = [...chunks.filter((chunk) => chunk.isEntry), ...chunks.filter((chunk) => !chunk.isEntry)];
  return ordered.map((chunk) => ({ name: chunk.fileName, code: chunk.code, imports: [...chunk.imports] }));
}

/**
 * Measures every entry of `entries` (all of {@link BUNDLE_ENTRIES} by default) with each bundler.
 *
 * @example
 * ```ts
 * const sizes = await benchBundleSize(BUNDLE_ENTRIES.slice(0, 2));
 * ```
 */
export async function benchBundleSize(
  entries: readonly BundleEntry[] = BUNDLE_ENTRIES,
  bundlers: readonly Bundler[] = ['rolldown', 'esbuild'],
): Promise<BundleSize[]> {
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
