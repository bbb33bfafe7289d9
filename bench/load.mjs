// Loads a TypeScript module of this repository through Vite (TypeScript, `.js` import suffixes
// resolved to `.ts`), so the benchmarks run on Node 20 without a TypeScript loader. Vite's
// `runnerImport` closes its module runner as soon as the module is loaded, so code that imports
// on first use (makeTodos loads the planner then) failed with "Vite module runner has been
// closed": a server's loader stays open until `close()`.
import { createServer } from 'vite';

/**
 * Loads `path` and returns its exports, and `close` to call once done with them.
 *
 * @example
 * const { module, close } = await loadModule('/repo/bench/run.ts', '/repo');
 * await module.runBenchmarks();
 * await close();
 */
export async function loadModule(path, root) {
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
  });
  try {
    return { module: await server.ssrLoadModule(path), close: () => server.close() };
  } catch (error) {
    await server.close();
    throw error;
  }
}
