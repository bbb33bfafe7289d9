// `node scripts/outline-identity.mjs [ref]`: proves a change to planloop/dom leaves its outlines
// byte-identical. Bundles src/dom of the work tree and of `ref` (default main), loads both into
// Chromium on every saved page (e2e/corpus, e2e/outline-corpus) and on generated pages
// (demo/fixtures/big-page.ts), and compares the rendered outlines (and the outline objects, elements
// left out) at several budgets and options, first and second outline. Exits 1 on any difference.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from '@playwright/test';

const root = fileURLToPath(new URL('..', import.meta.url));
const ref = process.argv[2] ?? 'main';
const bundle = async (dir, name) => {
  const out = await build({
    stdin: { contents: `import * as dom from './src/dom/index.ts';\nglobalThis.${name} = dom;`, resolveDir: dir, loader: 'ts' },
    bundle: true,
    format: 'esm',
    write: false,
    minify: true,
  });
  return out.outputFiles[0].text;
};
const work = mkdtempSync(join(tmpdir(), 'planloop-identity-'));
let baseline;
try {
  execFileSync('sh', ['-c', `git -C "${root}" archive ${ref} src demo/fixtures | tar -x -C "${work}"`]);
  baseline = await bundle(work, 'beforeDom');
} finally {
  rmSync(work, { recursive: true, force: true });
}
const current = await bundle(root, 'afterDom');
const { bigPageHtml } = await import(
  `data:text/javascript,${encodeURIComponent((await build({ entryPoints: [join(root, 'demo/fixtures/big-page.ts')], bundle: true, format: 'esm', write: false })).outputFiles[0].text)}`
);

const pages = ['corpus', 'outline-corpus'].flatMap((folder) =>
  readdirSync(join(root, 'e2e', folder))
    .filter((file) => file.endsWith('.html'))
    .sort()
    .map((file) => ({ name: `${folder}/${file}`, html: readFileSync(join(root, 'e2e', folder, file), 'utf8') })),
);
for (const size of [500, 2000, 5000])
  pages.push({ name: `big-page ${size}`, html: `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body>${bigPageHtml(size)}</body></html>` });

const executablePath = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((path) => path && existsSync(path));
const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
let differences = 0;
let compared = 0;
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  for (const { name, html } of pages) {
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.route('**/*', (route) =>
      route.request().url() === 'http://corpus.test/page.html' ? route.fulfill({ contentType: 'text/html', body: html }) : route.abort(),
    );
    await page.goto('http://corpus.test/page.html');
    await page.addScriptTag({ content: baseline, type: 'module' });
    await page.addScriptTag({ content: current, type: 'module' });
    await page.waitForFunction(() => 'beforeDom' in globalThis && 'afterDom' in globalThis);
    const results = await page.evaluate(() => {
      const variants = [
        {},
        { maxTokens: 120 },
        { maxTokens: 1500 },
        { maxTokens: 100000 },
        { onlyViewport: true },
        { prose: false },
        { viewportFirst: true, maxTokens: 250 },
      ];
      const strip = (outline) => JSON.stringify(outline, (_key, value) => (value instanceof Node ? `<${value.nodeName}>` : value));
      const run = (dom) => {
        const out = [];
        for (const variant of variants) {
          const registry = dom.createRefRegistry();
          const first = dom.outlinePage({ ...variant, registry });
          const second = dom.outlinePage({ ...variant, registry });
          out.push(dom.renderOutline(first), strip(first), dom.renderOutline(second), strip(second));
        }
        return out;
      };
      const before = run(globalThis.beforeDom);
      const after = run(globalThis.afterDom);
      return { before, after, variants: variants.map((v) => JSON.stringify(v)) };
    });
    results.before.forEach((text, i) => {
      compared += 1;
      if (text !== results.after[i]) {
        differences += 1;
        console.log(`DIFFERENT: ${name} ${results.variants[Math.floor(i / 4)]} #${i % 4}`);
        console.log(`--- before\n${text.slice(0, 2000)}\n--- after\n${results.after[i].slice(0, 2000)}`);
      }
    });
  }
} finally {
  await browser.close();
}
console.log(`${compared} outputs compared on ${pages.length} pages against ${ref}: ${differences} different`);
process.exit(differences ? 1 : 0);
