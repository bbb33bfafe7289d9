import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * One config for three jobs:
 * - `vite` / `npm run demo` serves `demo/` (the in-page guide) with `planloop` aliased to `src/`;
 * - `vite build` builds the library as ESM into `dist/` (entries `.`, `./testing`, `./ui`, `./graph`, `./interop`, `./planning`, `./dom`, `./loop`, `./storage`);
 * - `vitest` runs the unit tests in `test/` (never the Playwright specs in `e2e/`).
 */
export default defineConfig({
  root: 'demo',
  publicDir: false,
  resolve: {
    alias: [
      { find: /^planloop$/, replacement: src('index.ts') },
      { find: /^planloop\/testing$/, replacement: src('testing.ts') },
      { find: /^planloop\/ui$/, replacement: src('ui/index.ts') },
      { find: /^planloop\/graph$/, replacement: src('graph/index.ts') },
      { find: /^planloop\/interop$/, replacement: src('interop/index.ts') },
      { find: /^planloop\/planning$/, replacement: src('planning/index.ts') },
      { find: /^planloop\/dom$/, replacement: src('dom/index.ts') },
      { find: /^planloop\/loop$/, replacement: src('loop/index.ts') },
      { find: /^planloop\/storage$/, replacement: src('storage/index.ts') },
    ],
  },
  server: { port: 5173, strictPort: false },
  // Pre-bundle every dependency at start-up: otherwise the first page load that meets one makes
  // Vite re-optimize and reload the page, which can cut an e2e test short on a cold cache.
  optimizeDeps: { include: ['zod/mini', 'nanoid'] },
  preview: { port: 4173 },
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    minify: false,
    sourcemap: true,
    lib: {
      entry: {
        index: src('index.ts'),
        testing: src('testing.ts'),
        ui: src('ui/index.ts'),
        graph: src('graph/index.ts'),
        interop: src('interop/index.ts'),
        planning: src('planning/index.ts'),
        dom: src('dom/index.ts'),
        loop: src('loop/index.ts'),
        storage: src('storage/index.ts'),
      },
      formats: ['es'],
    },
    rolldownOptions: {
      external: [/^zod/, 'nanoid'],
      // One file per source module (entries keep their names: index.js, ui.js, …), so that an
      // app's bundler loads at start only the modules its imports reach, and splits off the ones
      // the library loads on first use (sync, the planner, the run lease). Shared chunks made here
      // would tie them together: a page importing `Plan` loaded the planner's JSON reader.
      output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
    },
  },
  test: {
    root: '.',
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 15_000,
    // Prints a failing property's seed with the command that replays it; FC_SEED=<seed> replays it.
    setupFiles: ['test/helpers/fast-check-seed.ts'],
  },
});
