import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Rolldown } from 'vite';
import { round } from './measure.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** One bundle to measure: a name and the source of a tiny entry module importing from `planloop`. */
export interface BundleEntry {
  name: string;
  /** What the row stands for, for the results table. */
  note: string;
  /** The entry module, e.g. `export { Plan } from 'planloop';`. */
  source: string;
  /** Packages left out of the bundle (to measure what a dependency adds). Default none. */
  external?: string[];
}

/** The measured size of one entry, in bytes, plus the markers of other modules found in it. */
export interface BundleSize {
  name: string;
  note: string;
  minified: number;
  gzip: number;
  brotli: number;
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
  'interruptGenerate': 'createWebLLMProvider',
  'LanguageModel': 'createChromePromptProvider',
  'indexedDB': 'createIndexedDbAdapter',
  'plan-panel': 'planloop/ui',
  'data-planloop-private': 'planloop/dom',
};

/** The entries `npm run bench` measures: the core, each provider, each storage adapter, the UI, the page outline, and everything. */
export const BUNDLE_ENTRIES: BundleEntry[] = [
  {
    name: 'core',
    note: '`Plan` (todos, markdown, makeTodos, adjust) + `parseTurnEnvelope`',
    source: `export { Plan, TodosArtifact, MarkdownArtifact, parseTurnEnvelope, safeParseTurnEnvelope } from 'planloop';`,
  },
  {
    name: 'core + turn loop',
    note: 'the core + `runWebAgent` (streaming envelope parser, turn prompt)',
    source: `export { Plan, TodosArtifact, MarkdownArtifact, parseTurnEnvelope, safeParseTurnEnvelope, runWebAgent } from 'planloop';`,
  },
  { name: 'Plan only', note: "`import { Plan } from 'planloop'`", source: `export { Plan } from 'planloop';` },
  { name: 'openai-compatible', note: '`createOpenAICompatibleProvider`', source: `export { createOpenAICompatibleProvider } from 'planloop';` },
  { name: 'anthropic', note: '`createAnthropicProvider`', source: `export { createAnthropicProvider } from 'planloop';` },
  { name: 'webllm', note: '`createWebLLMProvider`', source: `export { createWebLLMProvider } from 'planloop';` },
  { name: 'chrome-prompt', note: '`createChromePromptProvider`', source: `export { createChromePromptProvider } from 'planloop';` },
  { name: 'memory storage', note: '`createMemoryAdapter`', source: `export { createMemoryAdapter } from 'planloop';` },
  { name: 'localStorage', note: '`createLocalStorageAdapter`', source: `export { createLocalStorageAdapter } from 'planloop';` },
  { name: 'IndexedDB', note: '`createIndexedDbAdapter` (idb-keyval included)', source: `export { createIndexedDbAdapter } from 'planloop';` },
  { name: 'planloop/ui', note: '`<plan-panel>`', source: `export * from 'planloop/ui';` },
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

/**
 * Builds one entry with the project's Vite (lib mode, ESM, es2022) with every dependency bundled
 * in (zod/mini, nanoid, eventemitter3, idb-keyval, jsonrepair), minified as an app build would
 * ship it (whitespace, names and comments gone), and measures it raw, gzipped (level 9) and
 * brotli-compressed (quality 11).
 *
 * @example
 * ```ts
 * const { gzip, leaks } = await measureBundle({ name: 'Plan only', note: '', source: "export { Plan } from 'planloop';" });
 * ```
 */
export async function measureBundle(entry: BundleEntry, dir?: string): Promise<BundleSize & { code: string }> {
  const workDir = dir ?? (await mkdtemp(join(tmpdir(), 'planloop-bench-')));
  try {
    const file = join(workDir, `${entry.name.replace(/[^a-z0-9]+/gi, '-')}.ts`);
    await writeFile(file, `${entry.source}\n`);
    const output = await build({
      configFile: false,
      logLevel: 'silent',
      root: workDir,
      publicDir: false,
      resolve: {
        alias: [
          { find: /^planloop$/, replacement: join(SRC, 'index.ts') },
          { find: /^planloop\/ui$/, replacement: join(SRC, 'ui/index.ts') },
          { find: /^planloop\/dom$/, replacement: join(SRC, 'dom/index.ts') },
          { find: /^planloop\/src\/(.*)$/, replacement: `${SRC}$1` },
        ],
      },
      build: {
        write: false,
        target: 'es2022',
        minify: true,
        reportCompressedSize: false,
        lib: { entry: file, formats: ['es'], fileName: 'entry' },
        // Vite keeps whitespace and /*#__PURE__*/ comments in ESM library output (for the app's
        // bundler to use); measure what ends up in an app instead.
        rolldownOptions: {
          external: (id) => (entry.external ?? []).some((name) => id === name || id.startsWith(`${name}/`)),
          output: { minify: true, comments: false },
        },
      },
    });
    const outputs = (Array.isArray(output) ? output : [output]) as Rolldown.RolldownOutput[];
    const code = outputs
      .flatMap((result) => result.output)
      .filter((item): item is Rolldown.OutputChunk => item.type === 'chunk')
      .map((chunk) => chunk.code)
      .join('\n');
    const bytes = Buffer.from(code);
    const allowed = ALLOWED[entry.name] ?? [];
    return {
      name: entry.name,
      note: entry.note,
      minified: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      leaks: Object.keys(LEAK_MARKERS).filter((marker) => !allowed.includes(marker) && code.includes(marker)),
      code,
    };
  } finally {
    if (!dir) await rm(workDir, { recursive: true, force: true });
  }
}

/**
 * Measures every entry of `entries` (all of {@link BUNDLE_ENTRIES} by default), one build each.
 *
 * @example
 * ```ts
 * const sizes = await benchBundleSize(BUNDLE_ENTRIES.slice(0, 2));
 * ```
 */
export async function benchBundleSize(entries: readonly BundleEntry[] = BUNDLE_ENTRIES): Promise<BundleSize[]> {
  const dir = await mkdtemp(join(tmpdir(), 'planloop-bench-'));
  try {
    const sizes: BundleSize[] = [];
    for (const entry of entries) {
      const { code: _code, ...size } = await measureBundle(entry, dir);
      sizes.push(size);
    }
    return sizes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** What each bundled dependency adds to an entry, gzipped: the entry's size minus its size without it. */
export interface DependencyShare {
  dependency: string;
  gzip: number;
}

/**
 * Splits an entry's gzipped size by dependency, by building it again with each one left out.
 *
 * @example
 * ```ts
 * await dependencyShares(BUNDLE_ENTRIES[0], ['zod', 'jsonrepair']); // [{ dependency: 'zod', gzip: … }, …]
 * ```
 */
export async function dependencyShares(entry: BundleEntry, dependencies: readonly string[]): Promise<DependencyShare[]> {
  const dir = await mkdtemp(join(tmpdir(), 'planloop-bench-'));
  try {
    const whole = await measureBundle(entry, dir);
    const shares: DependencyShare[] = [];
    for (const dependency of dependencies) {
      const without = await measureBundle({ ...entry, external: [dependency] }, dir);
      shares.push({ dependency, gzip: whole.gzip - without.gzip });
    }
    return shares;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
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
