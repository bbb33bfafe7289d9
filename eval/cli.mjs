// `npm run eval`: loads eval/main.ts through a Vite module runner (TypeScript on Node 20, as
// bench/cli.mjs does) and runs the eval with the command line's flags.
import { fileURLToPath } from 'node:url';
import { createServer, createServerModuleRunner } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const server = await createServer({
  configFile: false,
  root,
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
  optimizeDeps: { noDiscovery: true, include: [] },
  // The demo's offline model (--model offline-demo) imports 'planloop', which is src/ here.
  resolve: { alias: [{ find: /^planloop$/, replacement: fileURLToPath(new URL('../src/index.ts', import.meta.url)) }] },
});
const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
let exitCode = 0;
try {
  const { parseArgs, runEval, USAGE } = await runner.import(fileURLToPath(new URL('./main.ts', import.meta.url)));
  let options;
  try {
    options = parseArgs(process.argv.slice(2), process.env);
  } catch (error) {
    console.error(error.message);
    exitCode = 2;
  }
  if (options?.help) console.log(USAGE);
  else if (options) {
    const report = await runEval({ ...options, log: (line) => console.log(line) });
    for (const arm of report.arms)
      console.log(`${arm.arm}: ${arm.tasksDone.mean} of ${arm.tasks} tasks fully done, ${Math.round(arm.stepsDone * 100)}% of steps`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  exitCode = 1;
} finally {
  await runner.close();
  await server.close();
}
process.exit(exitCode);
