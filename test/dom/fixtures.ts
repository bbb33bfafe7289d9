import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderOutline, outlinePage, type OutlinePageOptions } from '../../src/dom/index.js';

/** The demo's real page (demo/index.html), without its scripts. (A string path: happy-dom's URL is not Node's.) */
const DEMO_BODY = (
  /<body>([\s\S]*)<\/body>/.exec(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../demo/index.html'), 'utf8'))?.[1] ?? ''
).replace(/<script[\s\S]*?<\/script>/g, '');

/**
 * Puts the demo's page into the happy-dom document and shows one of its routes the way the demo's
 * router does: a <template> cloned into `#view` (new elements on every visit).
 */
export function loadDemo(): { show(route: 'home' | 'commercial' | 'try' | 'docs'): HTMLElement } {
  document.body.innerHTML = DEMO_BODY;
  return {
    show(route) {
      const view = document.getElementById('view') as HTMLElement;
      const template = document.getElementById(`page-${route}`) as HTMLTemplateElement;
      view.replaceChildren(template.content.cloneNode(true));
      return view;
    },
  };
}

/** The outline's text, for assertions. */
export function outlineText(options: OutlinePageOptions = {}): string {
  return renderOutline(outlinePage(options));
}

/** The line of the outline that names `name`, or undefined. */
export function lineOf(text: string, name: string): string | undefined {
  return text.split('\n').find((line) => line.includes(`"${name}"`));
}

/** The ref on a line (`[e12] …` -> `e12`). */
export function refIn(line: string | undefined): string {
  const ref = /\[(e\d+)\]/.exec(line ?? '')?.[1];
  if (!ref) throw new Error(`no ref in ${JSON.stringify(line)}`);
  return ref;
}
