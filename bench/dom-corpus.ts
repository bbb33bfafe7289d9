import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { bigPageHtml } from '../demo/fixtures/big-page.js';
import { bundleDomAt, bundleForPage } from './dom-bundle.js';
import { median, round } from './measure.js';
import { countTokens } from './tokens.js';

/**
 * The outline before issue 23 (prose, see-more tools, accname names), measured beside today's in
 * the same run: `BENCH_DOM_BASELINE` (a git ref), else the commit this work started from.
 */
const BASELINE_REF = process.env.BENCH_DOM_BASELINE ?? 'd10dc08';
const CORPUS = process.env.BENCH_CORPUS?.split(',') ?? ['bbc-1', 'cnn', 'nytimes-1', 'wikipedia', 'mozilla-1', 'ars-1', 'webmd-1', 'theverge'];
const VIEWPORT = { width: 1280, height: 800 };
/** The generated 2,000-element page (demo/fixtures/big-page.ts), timed beside the real ones (not counted in the ratios). */
const GENERATED = 'generated 2,000 elements';

/** One corpus page, outlined by today's code and by the baseline. */
export interface DomCorpusRow {
  page: string;
  kilobytes: number;
  /** o200k tokens of the outline at the default budget (400). */
  tokens: number;
  baselineTokens: number;
  /** Controls in the first viewport, how many the outline lists, and (today) how many more one `expand` shows. */
  viewportControls: number;
  listed: number;
  baselineListed: number;
  oneExpansion: number;
  /** Characters of prose (text and live region lines) the outline delivers. */
  proseChars: number;
  baselineProseChars: number;
  /** The first outline of a freshly loaded page, and the median of later ones, in ms. */
  coldMs: number;
  warmMs: number;
  baselineColdMs: number;
  baselineWarmMs: number;
}

/** What {@link benchDomCorpus} measured. */
export interface DomCorpusResult {
  browser: string;
  baseline: string;
  skipped?: string;
  rows: DomCorpusRow[];
  /** Today's time ÷ the baseline's, over all pages (sum of medians), cold and warm. */
  coldRatio: number;
  warmRatio: number;
}

/**
 * Outlines the real saved pages of `e2e/corpus` in Chromium with today's `planloop/dom` and with
 * the baseline's (loaded side by side in the page), and reports per page the o200k tokens at the
 * default budget, the first viewport's controls listed (and one expansion away), the prose
 * characters delivered, and cold and warm times (median of `runs`, alternating the two so the
 * machine's load falls on both alike).
 *
 * @example
 * ```ts
 * const { rows, warmRatio } = await benchDomCorpus({ runs: 9 });
 * ```
 */
export async function benchDomCorpus(options: { runs?: number; executablePath?: string } = {}): Promise<DomCorpusResult> {
  const runs = options.runs ?? 9;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const empty: DomCorpusResult = { browser: 'none', baseline: BASELINE_REF, rows: [], coldRatio: Number.NaN, warmRatio: Number.NaN };
  const executablePath = options.executablePath ?? [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium'].find((path) => !!path);
  if (!executablePath) return { ...empty, skipped: 'no Chromium found (set CHROMIUM_PATH)' };
  let baselineCode: string;
  try {
    baselineCode = await bundleDomAt(root, BASELINE_REF, 'baselineDom');
  } catch (error) {
    return { ...empty, skipped: `baseline ${BASELINE_REF} could not be built: ${String(error).slice(0, 120)}` };
  }
  const currentCode = await bundleForPage(
    "import * as dom from './src/dom/index.ts';\nimport { collectPageElements } from './src/dom/page-elements.ts';\nglobalThis.currentDom = { ...dom, collectPageElements };",
    root,
  );
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  const rows: DomCorpusRow[] = [];
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    for (const name of [...CORPUS, GENERATED]) {
      const html =
        name === GENERATED
          ? `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body>${bigPageHtml(2000)}</body></html>`
          : readFileSync(join(root, 'e2e', 'corpus', `${name}.html`), 'utf8');
      const load = async (): Promise<void> => {
        await page.unrouteAll({ behavior: 'ignoreErrors' });
        await page.route('**/*', (route) =>
          route.request().url() === 'http://corpus.test/' ? route.fulfill({ contentType: 'text/html', body: html }) : route.abort(),
        );
        await page.goto('http://corpus.test/');
        await page.addScriptTag({ content: baselineCode, type: 'module' });
        await page.addScriptTag({ content: currentCode, type: 'module' });
        await page.waitForFunction(() => 'baselineDom' in globalThis && 'currentDom' in globalThis);
      };
      // Cold: the first outline of a fresh page (refs given, styles computed for the first time), each side on its own load.
      const cold = { current: [] as number[], baseline: [] as number[] };
      for (let i = 0; i < 3; i += 1) {
        for (const side of i % 2 === 0 ? (['current', 'baseline'] as const) : (['baseline', 'current'] as const)) {
          await load();
          cold[side].push(
            await page.evaluate((which) => {
              const dom = (globalThis as unknown as Record<string, { outlinePage: () => unknown }>)[which === 'current' ? 'currentDom' : 'baselineDom'];
              const start = performance.now();
              dom?.outlinePage();
              return performance.now() - start;
            }, side),
          );
        }
      }
      await load();
      const measured = await measurePage(page, runs);
      rows.push({
        page: name,
        kilobytes: Math.round(html.length / 1024),
        tokens: countTokens(measured.text),
        baselineTokens: countTokens(measured.baselineText),
        viewportControls: measured.viewportControls,
        listed: measured.listed,
        baselineListed: measured.baselineListed,
        oneExpansion: measured.oneExpansion,
        proseChars: measured.proseChars,
        baselineProseChars: measured.baselineProseChars,
        coldMs: round(median(cold.current), 1),
        warmMs: round(median(measured.warm), 2),
        baselineColdMs: round(median(cold.baseline), 1),
        baselineWarmMs: round(median(measured.baselineWarm), 2),
      });
    }
  } finally {
    await browser.close();
  }
  const real = rows.filter((row) => row.page !== GENERATED);
  const sum = (key: keyof DomCorpusRow) => real.reduce((total, row) => total + Number(row[key]), 0);
  return {
    browser: `Chromium ${browser.version()} (headless)`,
    baseline: BASELINE_REF,
    rows,
    coldRatio: round(sum('coldMs') / sum('baselineColdMs'), 2),
    warmRatio: round(sum('warmMs') / sum('baselineWarmMs'), 2),
  };
}

type AnyDom = typeof import('../src/dom/index.js') & typeof import('../src/dom/page-elements.js');

function measurePage(page: Page, runs: number) {
  return page.evaluate((count) => {
    const current = (globalThis as unknown as { currentDom: AnyDom }).currentDom;
    const baseline = (globalThis as unknown as { baselineDom: typeof import('../src/dom/index.js') }).baselineDom;
    const registry = current.createRefRegistry();
    const outline = current.outlinePage({ registry });
    const before = baseline.outlinePage({ registry: baseline.createRefRegistry() });
    const found = current.collectPageElements(document).filter((item) => item.kind === 'control' && item.distance === 0);
    const listedNow = new Set(outline.nodes.map((node) => node.element));
    const listedBefore = new Set(before.nodes.map((node) => node.element));
    const tools = current.createLookTools({ registry });
    const expanded = new Map<string, string>();
    let oneExpansion = 0;
    const all = current.collectPageElements(document);
    const nodeOf = new Map(outline.nodes.map((node) => [node.element, node]));
    for (const item of found) {
      if (listedNow.has(item.element)) continue;
      let container = '';
      for (let at = item.parent; at >= 0; at = (all[at] as typeof item).parent) {
        const node = nodeOf.get((all[at] as typeof item).element);
        if (node) {
          container = node.omitted ? node.ref : '';
          break;
        }
      }
      if (!expanded.has(container)) expanded.set(container, tools.expand.run(container ? { target: container } : {}));
      const ref = registry.refOf(item.element);
      if (ref && (expanded.get(container) ?? '').includes(`[${ref}]`)) oneExpansion += 1;
    }
    const prose = (nodes: ReadonlyArray<{ kind: string; name: string }>) =>
      nodes.filter((node) => node.kind === 'text' || node.kind === 'live').reduce((sum, node) => sum + node.name.length, 0);
    const warm: number[] = [];
    const baselineWarm: number[] = [];
    for (let i = 0; i < count; i += 1) {
      let at = performance.now();
      current.outlinePage();
      warm.push(performance.now() - at);
      at = performance.now();
      baseline.outlinePage();
      baselineWarm.push(performance.now() - at);
    }
    return {
      text: current.renderOutline(outline),
      baselineText: baseline.renderOutline(before),
      viewportControls: found.length,
      listed: found.filter((item) => listedNow.has(item.element)).length,
      baselineListed: found.filter((item) => listedBefore.has(item.element)).length,
      oneExpansion,
      proseChars: prose(outline.nodes),
      baselineProseChars: prose(before.nodes as never),
      warm,
      baselineWarm,
    };
  }, runs);
}

/** Issue 23's targets on the corpus: times within 1.5× of the baseline's, tokens within the budget, viewport controls reachable. */
export function domCorpusTargets(result: DomCorpusResult): Array<{ target: string; goal: string; figure: string; met: boolean }> {
  if (result.skipped || result.rows.length === 0) {
    const figure = `not measured (${result.skipped ?? 'no corpus page'})`;
    return [{ target: 'page outline on real pages, time against the previous outline', goal: '≤ 1.5× cold and warm', figure, met: false }];
  }
  const pages = result.rows.filter((row) => row.page !== GENERATED);
  const most = pages.reduce((a, b) => (b.tokens > a.tokens ? b : a));
  const viewport = pages.reduce((sum, row) => sum + row.viewportControls, 0);
  const reachable = pages.reduce((sum, row) => sum + row.listed + row.oneExpansion, 0);
  return [
    {
      target: `page outline on ${pages.length} real pages, time against the previous outline (${result.baseline}) in the same run`,
      goal: '≤ 1.5× cold and warm',
      figure: `${result.coldRatio}× cold, ${result.warmRatio}× warm (sums of per-page medians)`,
      met: result.coldRatio <= 1.5 && result.warmRatio <= 1.5,
    },
    {
      target: 'page outline on real pages at the default budget, o200k tokens',
      goal: '≤ 400 tokens',
      figure: `${most.tokens} at most (${most.page})`,
      met: most.tokens <= 400,
    },
    {
      target: 'first-viewport controls on real pages: listed or one `expand` away',
      goal: 'all',
      figure: `${reachable} of ${viewport}`,
      met: reachable === viewport,
    },
  ];
}

/**
 * The corpus section of bench/results.md.
 *
 * @example
 * ```ts
 * lines.push(...renderDomCorpus(results.domCorpus));
 * ```
 */
export function renderDomCorpus(result: DomCorpusResult): string[] {
  const lines = ['## Page outline on real pages (`e2e/corpus`)', ''];
  if (result.skipped) return [...lines, `Not measured: ${result.skipped}.`, ''];
  const cell = (now: number, before: number) => `${now} (${before})`;
  lines.push(
    `Eight saved real pages (news, a long reference article, a product page with sign-up forms; Readability's test pages, scripts and stylesheets stripped: see \`e2e/corpus/README.md\`) in ${result.browser} at ${VIEWPORT.width}×${VIEWPORT.height}, outlined at the default budget (400) by today's \`planloop/dom\` and, in brackets, by the outline of \`${result.baseline}\` (before prose, see-more and accname names), both loaded in the same page and timed alternately. Tokens: o200k. Viewport controls: controls in the first viewport, how many the outline lists, and how many more one \`expand\` (of the region whose summary line names it, else of the viewport) shows. Prose: characters of paragraph and live region text delivered. Cold: the first outline of a freshly loaded page (median of 3 loads); warm: median of later outlines.`,
    '',
    ...[
      ['page', 'KB', 'o200k tokens', 'viewport controls', 'listed', 'one expand away', 'prose chars', 'cold ms', 'warm ms'],
      ['---', '---', '---', '---', '---', '---', '---', '---', '---'],
    ].map((cells) => `| ${cells.join(' | ')} |`),
    ...result.rows.map(
      (row) =>
        `| ${[row.page, row.kilobytes, cell(row.tokens, row.baselineTokens), row.viewportControls, cell(row.listed, row.baselineListed), row.oneExpansion, cell(row.proseChars, row.baselineProseChars), cell(row.coldMs, row.baselineColdMs), cell(row.warmMs, row.baselineWarmMs)].join(' | ')} |`,
    ),
    '',
    `Time against the previous outline, sums of the per-page medians of the real pages: **${result.coldRatio}×** cold, **${result.warmRatio}×** warm. The last row is the generated 2,000-element page of the table above, outlined the same way for comparison.`,
    '',
  );
  return lines;
}
