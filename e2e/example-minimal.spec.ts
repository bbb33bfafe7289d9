import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'vite';
import { test, expect } from './fixtures.js';

// examples/minimal as a host gets it: type-checked against the built package's types, bundled by
// Vite with no config of its own (`planloop`, `planloop/ui`, … resolve through package.json's
// "exports" to dist/, as they would from node_modules), served as static files and run in Chromium.
// dist/ comes from `npm run build` (scripts/e2e.sh runs it before the suite).

const EXAMPLE = resolve('examples/minimal');
const DIST = resolve('dist');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.map': 'application/json' } as Record<string, string>;

let server: Server;
let origin = '';
/** What each `planloop…` import of the example resolved to when it was bundled. */
const resolved = new Map<string, string>();

// One worker runs this file's tests in order: they share the site built once in beforeAll.
test.describe.configure({ mode: 'default' });

// biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixtures a hook uses from its first parameter's pattern
test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(120_000);
  expect(existsSync(join(DIST, 'index.js')) && existsSync(join(DIST, 'types/index.d.ts')), 'dist/ with its types: run `npm run build`').toBe(true);
  const outDir = testInfo.outputPath('site');
  await build({
    root: EXAMPLE,
    configFile: false,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
    plugins: [
      {
        name: 'record-planloop-imports',
        enforce: 'pre',
        async resolveId(id, importer) {
          if (!/^planloop(\/|$)/.test(id)) return null;
          const found = await this.resolve(id, importer, { skipSelf: true });
          resolved.set(id, found?.id ?? '(unresolved)');
          return found;
        },
      },
    ],
  });
  server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const file = resolve(outDir, `.${path.endsWith('/') ? `${path}index.html` : path}`);
    if (!file.startsWith(outDir + sep)) return void response.writeHead(403).end();
    readFile(file).then(
      (body) => response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((done) => server?.close(done));
});

test('the minimal example type-checks against the built package (dist/types), not src/', async () => {
  test.setTimeout(120_000);
  const tsc = resolve('node_modules/typescript/bin/tsc');
  const run = promisify(execFile)(process.execPath, [tsc, '-p', 'examples/tsconfig.json', '--listFilesOnly']);
  const files = (await run).stdout.split('\n').filter(Boolean);
  // Its imports came from the built declarations; nothing of src/ was read.
  expect(files.some((file) => file.startsWith(join(DIST, 'types') + sep))).toBe(true);
  expect(files.filter((file) => file.startsWith(resolve('src') + sep))).toEqual([]);
  await promisify(execFile)(process.execPath, [tsc, '-p', 'examples/tsconfig.json']).catch((error: { stdout?: string }) => {
    throw new Error(`examples/ does not type-check against dist/types:\n${error.stdout ?? String(error)}`);
  });
});

test('the minimal example plans, runs its turns to the end and shows the plan in <plan-panel>', async ({ page }) => {
  expect(Object.fromEntries(resolved)).toEqual({
    planloop: join(DIST, 'index.js'),
    'planloop/dom': join(DIST, 'dom.js'),
    'planloop/testing': join(DIST, 'testing.js'),
    'planloop/ui': join(DIST, 'ui.js'),
  });
  await page.goto(`${origin}/`);
  await page.getByRole('button', { name: 'Show me around' }).click();
  const panel = page.locator('plan-panel');
  await expect(panel.locator('.summary')).toHaveText('A short tour: the features, then the prices.');
  await expect(panel.getByRole('listitem')).toHaveCount(3);
  await panel.getByRole('button', { name: 'Approve' }).click();
  await expect(page.locator('#say')).toHaveText('Orbitly shares calendars, rotations and reminders.');
  await expect(page.locator('#status')).toHaveText('task_finish: Showed the features and the prices.', { timeout: 15_000 });
  await expect(panel.getByRole('listitem').filter({ hasText: 'Done' })).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Show me around' })).toBeVisible();
});
