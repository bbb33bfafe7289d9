// `npm run bench`: loads bench/run.ts through Vite's module runner (TypeScript, `.js` import
// suffixes resolved to `.ts`), so it runs on Node 20 without a TypeScript loader.
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const { module } = await runnerImport(fileURLToPath(new URL('./run.ts', import.meta.url)), {
  configFile: false,
  root,
  logLevel: 'error',
});
const results = await module.runBenchmarks({ log: (line) => console.log(line) });
for (const check of results.targets) {
  console.log(`${check.met ? 'met   ' : 'MISSED'}  ${check.target}: ${check.figure} (goal ${check.goal})`);
}
console.log('Wrote bench/results.json and bench/results.md');
