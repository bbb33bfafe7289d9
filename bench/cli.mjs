// `npm run bench [-- part ...]`: loads bench/run.ts through a Vite module runner (TypeScript, `.js` import
// suffixes resolved to `.ts`), so it runs on Node 20 without a TypeScript loader. The runner stays
// open until the benchmarks end: the plan loads its planner and editor with dynamic imports, which
// a runner closed after the first import (as `runnerImport` does) cannot serve. Parts named on the
// command line (`npm run bench -- bundle`; keys of bench/results.json) run alone, the others'
// figures are kept from the last results.json.
import { fileURLToPath } from 'node:url';
import { createServer, createServerModuleRunner } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
// The demo's code (bench/replay.ts plays its offline model and tours) imports planloop by name, as
// vite.config.ts resolves it for the demo.
const alias = ['testing', 'ui', 'graph', 'interop', 'planning', 'dom', 'loop', 'storage'].map((subpath) => ({
  find: new RegExp(`^planloop/${subpath}$`),
  replacement: fileURLToPath(new URL(`../src/${subpath === 'testing' ? 'testing.ts' : `${subpath}/index.ts`}`, import.meta.url)),
}));
alias.push({ find: /^planloop$/, replacement: fileURLToPath(new URL('../src/index.ts', import.meta.url)) });
const server = await createServer({
  configFile: false,
  root,
  logLevel: 'error',
  appType: 'custom',
  resolve: { alias },
  server: { middlewareMode: true, hmr: false, ws: false },
});
const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
try {
  const module = await runner.import(fileURLToPath(new URL('./run.ts', import.meta.url)));
  // `npm run bench -- tokens bundle`: just those parts; the others keep their figures in results.json.
  const results = await module.runBenchmarks({ log: (line) => console.log(line), only: process.argv.slice(2) });
  for (const check of results.targets) {
    console.log(`${check.met ? 'met   ' : 'MISSED'}  ${check.target}: ${check.figure} (goal ${check.goal})`);
  }
  console.log('Wrote bench/results.json and bench/results.md');
} finally {
  await runner.close();
  await server.close();
}
