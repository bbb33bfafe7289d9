import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { bigPageHtml } from '../demo/fixtures/big-page.js';
import { measureBundle } from './bundle-size.js';
import { median, round } from './measure.js';
import { countTokens } from './tokens.js';

/** Options of {@link benchDomOutline}. */
export interface DomOutlineOptions {
  /** Page sizes (elements in the body) to time. Default 500, 2,000 and 5,000. */
  sizes?: number[];
  /** Timed outlines per page; the median and 90th percentile are reported. Default 40. */
  runs?: number;
  /** Also outline the demo's four pages. Default true. */
  demo?: boolean;
  /** The Chromium binary. Default: `CHROMIUM_PATH`, Debian's Chromium, else Playwright's own. */
  executablePath?: string;
}

/** One page's outline, timed in Chromium. */
export interface DomOutlineTiming {
  page: string;
  /** Elements in the page's body. */
  elements: number;
  /** Elements the walk found listable, and how many the default budget kept. */
  listable: number;
  listed: number;
  /** The first outline of the page (refs given to every listed element). */
  firstMs: number;
  /** Later outlines (refs known): fastest, median and 90th percentile (on a busy machine the median rises well above the fastest). */
  minMs: number;
  medianMs: number;
  p90Ms: number;
  /** The rendered outline: o200k tokens, and the outline's own estimate (`estimateTokens`). */
  tokens: number;
  estimatedTokens: number;
}

/** What {@link benchDomOutline} measured; `skipped` says why nothing was, when no browser was found. */
export interface DomOutlineResult {
  browser: string;
  skipped?: string;
  runs: number;
  viewport: { width: number; height: number };
  /** The generated pages (demo/fixtures/big-page.ts), by size. */
  sizes: DomOutlineTiming[];
  /** The demo's pages, outlined whole (site and guide), as a turn would see them. */
  demo: DomOutlineTiming[];
  /** The demo's /commercial outline, for the results file. */
  sample: string;
}

const VIEWPORT = { width: 1280, height: 800 };
const ROUTES = [
  ['/', 'page-home'],
  ['/commercial', 'page-commercial'],
  ['/try', 'page-try'],
  ['/docs', 'page-docs'],
] as const;

/** The browser the e2e tests use: `CHROMIUM_PATH`, Debian's Chromium, Playwright's own download. */
function findChromium(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'];
  const found = candidates.find((path): path is string => !!path && existsSync(path));
  if (found) return found;
  const own = chromium.executablePath();
  return existsSync(own) ? own : undefined;
}

/**
 * Times `outlinePage` in a real Chromium (headless) on generated pages of several sizes and on
 * the demo's pages, and counts the rendered outline's o200k tokens next to its own estimate. The
 * module is the one `planloop/dom` ships (`vite build`), bundled and minified by esbuild as an app would.
 *
 * @example
 * ```ts
 * const { sizes } = await benchDomOutline({ sizes: [2000], runs: 20 });
 * sizes[0].medianMs; // about 4
 * ```
 */
export async function benchDomOutline(options: DomOutlineOptions = {}): Promise<DomOutlineResult> {
  const { sizes = [500, 2000, 5000], runs = 40, demo = true } = options;
  const empty: DomOutlineResult = { browser: 'none', runs, viewport: VIEWPORT, sizes: [], demo: [], sample: '' };
  const executablePath = options.executablePath ?? findChromium();
  if (!executablePath) return { ...empty, skipped: 'no Chromium found (set CHROMIUM_PATH)' };

  const { code } = await measureBundle(
    {
      name: 'dom-outline-bench',
      note: '',
      source: "import { outlinePage, renderOutline } from 'planloop/dom';\nglobalThis.planloopDom = { outlinePage, renderOutline };",
    },
    'esbuild',
  );
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    const load = async (head: string, body: string): Promise<void> => {
      await page.setContent(`<!doctype html><html lang="en"><head><meta charset="utf-8">${head}</head><body>${body}</body></html>`);
      await page.addScriptTag({ content: code, type: 'module' });
      await page.waitForFunction(() => 'planloopDom' in globalThis);
    };
    const result: DomOutlineResult = { ...empty, browser: `Chromium ${browser.version()} (headless)` };
    for (const size of sizes) {
      await load('', bigPageHtml(size));
      result.sizes.push(await timeOutline(page, `${size.toLocaleString('en')}-element page`, runs));
    }
    if (demo) {
      const [html, css] = await Promise.all([readFile(demoFile('index.html'), 'utf8'), readFile(demoFile('style.css'), 'utf8')]);
      const body = (/<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? '').replace(/<script[\s\S]*?<\/script>/g, '');
      await load(`<style>${css}</style>`, body);
      for (const [route, template] of ROUTES) {
        // Render the route the way the demo's router does: its <template> cloned into #view.
        await page.evaluate((id) => {
          const view = document.getElementById('view') as HTMLElement;
          view.replaceChildren((document.getElementById(id) as HTMLTemplateElement).content.cloneNode(true));
        }, template);
        const timing = await timeOutline(page, `demo ${route}`, runs);
        result.demo.push(timing);
        if (route === '/commercial') result.sample = await outlineText(page);
      }
    }
    return result;
  } finally {
    await browser.close();
  }
}

function demoFile(name: string): string {
  return fileURLToPath(new URL(`../demo/${name}`, import.meta.url));
}

type BenchWindow = { planloopDom: typeof import('../src/dom/index.js') };

function outlineText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const { outlinePage, renderOutline } = (globalThis as unknown as BenchWindow).planloopDom;
    return renderOutline(outlinePage());
  });
}

async function timeOutline(page: Page, name: string, runs: number): Promise<DomOutlineTiming> {
  const measured = await page.evaluate((count) => {
    const { outlinePage, renderOutline } = (globalThis as unknown as BenchWindow).planloopDom;
    const start = performance.now();
    let outline = outlinePage();
    const firstMs = performance.now() - start;
    const times: number[] = [];
    for (let i = 0; i < count; i += 1) {
      const at = performance.now();
      outline = outlinePage();
      times.push(performance.now() - at);
    }
    return {
      elements: document.body.querySelectorAll('*').length,
      listable: outline.total,
      listed: outline.nodes.length,
      estimatedTokens: outline.tokens,
      text: renderOutline(outline),
      firstMs,
      times,
    };
  }, runs);
  const sorted = [...measured.times].sort((a, b) => a - b);
  return {
    page: name,
    elements: measured.elements,
    listable: measured.listable,
    listed: measured.listed,
    firstMs: round(measured.firstMs, 2),
    minMs: round(sorted[0] ?? Number.NaN, 2),
    medianMs: round(median(sorted), 2),
    p90Ms: round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9))] ?? Number.NaN, 2),
    tokens: countTokens(measured.text),
    estimatedTokens: measured.estimatedTokens,
  };
}
