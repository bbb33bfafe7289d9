import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { Page } from '@playwright/test';

// planloop/dom bundled from src for a page that is not served by the demo (a saved real page, the
// accname test vectors): put on `window.planloopDom`, with the walk's internals the name checks need.

let bundled: Promise<string> | undefined;

/** The bundle's code (built once per worker). */
export function domBundle(): Promise<string> {
  bundled ??= esbuild
    .build({
      stdin: {
        contents: [
          "import * as dom from './src/dom/index.ts';",
          "import { collectPageElements, nameOf } from './src/dom/page-elements.ts';",
          'globalThis.planloopDom = { ...dom, collectPageElements, nameOf };',
        ].join('\n'),
        resolveDir: fileURLToPath(new URL('../..', import.meta.url)),
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      write: false,
      target: 'es2022',
    })
    .then((result) => result.outputFiles[0]?.text ?? '');
  return bundled;
}

/** Loads `html` (a file under e2e/) into `page` with planloop/dom on `window.planloopDom`. */
export async function loadWithDom(page: Page, file: string): Promise<void> {
  const html = await readFile(fileURLToPath(new URL(`../${file}`, import.meta.url)), 'utf8');
  await page.route('**/*', (route) =>
    route.request().url().startsWith('http://corpus.test/') ? route.fulfill({ contentType: 'text/html', body: html }) : route.abort(),
  );
  await page.goto('http://corpus.test/page.html');
  await page.addScriptTag({ content: await domBundle(), type: 'module' });
  await page.waitForFunction(() => 'planloopDom' in globalThis);
}

/** Chromium's own accessible names (CDP Accessibility) of the elements marked `data-ax-i`, by mark. */
export async function chromiumNames(page: Page): Promise<Map<string, string>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('Accessibility.enable');
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', { nodeId: root.nodeId, selector: '[data-ax-i]' });
  const names = new Map<string, string>();
  for (const nodeId of nodeIds) {
    const { attributes } = await cdp.send('DOM.getAttributes', { nodeId });
    const mark = attributes[attributes.indexOf('data-ax-i') + 1] ?? '';
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const node = nodes.find((entry) => !entry.ignored) ?? nodes[0];
    names.set(mark, String(node?.name?.value ?? ''));
  }
  await cdp.detach();
  return names;
}
