// `npm run bench`: loads bench/run.ts through Vite (see load.mjs), so it runs on Node 20 without a
// TypeScript loader.
import { fileURLToPath } from 'node:url';
import { loadModule } from './load.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const { module, close } = await loadModule(fileURLToPath(new URL('./run.ts', import.meta.url)), root);
try {
  const results = await module.runBenchmarks({ log: (line) => console.log(line) });
  for (const check of results.targets) {
    console.log(`${check.met ? 'met   ' : 'MISSED'}  ${check.target}: ${check.figure} (goal ${check.goal})`);
  }
  console.log('Wrote bench/results.json and bench/results.md');
} finally {
  await close();
}
