import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from '@playwright/test';
import { judgeFirstView, listedOfFirstView, type FirstViewListed } from './first-view-judge.js';
import { bundleDomAt, bundleForPage } from './dom-bundle.js';
import { median, round } from './measure.js';
import { countTokens } from './tokens.js';

/**
 * The outline this work started from (main at the start of issue 35), measured beside today's in
 * the same run: `BENCH_FIRST_VIEW_BASELINE` (a git ref), else commit 2b17b96 (main with the sight rule, before this work). Its `src/` is taken
 * with `git archive` and bundled beside today's, both loaded in the same page.
 */
const BASELINE_REF = process.env.BENCH_FIRST_VIEW_BASELINE ?? '2b17b96';
const VIEWPORT = { width: 1280, height: 800 };
/** The saved pages: the real-page corpus, then the outline corpus (sign-up, checkout and settings pages). */
const FOLDERS = ['corpus', 'outline-corpus'] as const;

/** One page at the default budget, today's outline and the baseline's. */
export interface FirstViewRow {
  page: string;
  folder: (typeof FOLDERS)[number];
  /** Controls a person sees in the first viewport (see bench/first-view-judge.ts), and how many each outline lists. */
  viewportControls: number;
  listed: number;
  baselineListed: number;
  /** Fields of the forms visible in the first viewport, and how many each outline lists. */
  formFields: number;
  fieldsListed: number;
  baselineFieldsListed: number;
  /** Whether the first paragraph of the main content is listed; `null` when the page has none. */
  paragraph: boolean | null;
  baselineParagraph: boolean | null;
  /** o200k tokens of the outline text. */
  tokens: number;
  baselineTokens: number;
  /** Median of later outlines of the page, in ms, the two outlines timed alternately. */
  warmMs: number;
  baselineWarmMs: number;
  /** What today's outline leaves out of the judged elements. */
  missing: string[];
}

/** What {@link benchFirstView} measured. */
export interface FirstViewResult {
  browser: string;
  baseline: string;
  skipped?: string;
  rows: FirstViewRow[];
}

/**
 * Outlines every saved page of `e2e/corpus` and `e2e/outline-corpus` in Chromium at 1280×800 and
 * the default budget, with today's `planloop/dom` and the baseline's, and reports per page the
 * first viewport's controls listed, the visible forms' fields listed, whether the first paragraph
 * is there, the o200k tokens and the warm time (median of `runs`, alternating the two outlines).
 *
 * @example
 * ```ts
 * const { rows } = await benchFirstView({ runs: 15 });
 * ```
 */
export async function benchFirstView(options: { runs?: number; executablePath?: string } = {}): Promise<FirstViewResult> {
  // 31 outlines a side: with 15, a page's median moved by up to a half from run to run on a shared machine.
  const runs = options.runs ?? 31;
  const root = fileURLToPath(new URL('..', import.meta.url));
  const empty: FirstViewResult = { browser: 'none', baseline: BASELINE_REF, rows: [] };
  const executablePath = options.executablePath ?? [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium'].find((path) => !!path);
  if (!executablePath) return { ...empty, skipped: 'no Chromium found (set CHROMIUM_PATH)' };
  let baselineCode: string;
  try {
    baselineCode = await bundleDomAt(root, BASELINE_REF, 'baselineDom');
  } catch (error) {
    return { ...empty, skipped: `baseline ${BASELINE_REF} could not be built: ${String(error).slice(0, 120)}` };
  }
  const currentCode = await bundleForPage("import * as dom from './src/dom/index.ts';\nglobalThis.currentDom = dom;", root);
  const helpers = `globalThis.__listedOfFirstView = ${listedOfFirstView.toString()};`;
  const pages = FOLDERS.flatMap((folder) =>
    readdirSync(join(root, 'e2e', folder))
      .filter((file) => file.endsWith('.html'))
      .sort()
      .map((file) => ({ folder, name: file.slice(0, -5) })),
  );
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  const rows: FirstViewRow[] = [];
  try {
    const page = await browser.newPage({ viewport: VIEWPORT });
    for (const { folder, name } of pages) {
      const html = readFileSync(join(root, 'e2e', folder, `${name}.html`), 'utf8');
      await page.unrouteAll({ behavior: 'ignoreErrors' });
      await page.route('**/*', (route) =>
        route.request().url() === 'http://corpus.test/page.html' ? route.fulfill({ contentType: 'text/html', body: html }) : route.abort(),
      );
      await page.goto('http://corpus.test/page.html');
      const judged = await page.evaluate(judgeFirstView);
      await page.addScriptTag({ content: baselineCode, type: 'module' });
      await page.addScriptTag({ content: currentCode, type: 'module' });
      await page.addScriptTag({ content: helpers });
      await page.waitForFunction(() => 'baselineDom' in globalThis && 'currentDom' in globalThis);
      const current = await outlineAndScore(page, 'currentDom');
      const baseline = await outlineAndScore(page, 'baselineDom');
      const times = await timeBoth(page, runs);
      rows.push({
        page: name,
        folder,
        viewportControls: judged.controls.length,
        listed: current.listed.controls,
        baselineListed: baseline.listed.controls,
        formFields: judged.fields.length,
        fieldsListed: current.listed.fields,
        baselineFieldsListed: baseline.listed.fields,
        paragraph: current.listed.paragraph,
        baselineParagraph: baseline.listed.paragraph,
        tokens: countTokens(current.text),
        baselineTokens: countTokens(baseline.text),
        warmMs: round(median(times.current), 2),
        baselineWarmMs: round(median(times.baseline), 2),
        missing: current.listed.missing,
      });
    }
  } finally {
    await browser.close();
  }
  return { browser: `Chromium ${browser.version()} (headless)`, baseline: BASELINE_REF, rows };
}

type Dom = typeof import('../src/dom/index.js');

/** One outline at the default budget (a fresh registry), its text and which judged elements it lists. */
function outlineAndScore(page: Page, side: 'currentDom' | 'baselineDom'): Promise<{ text: string; listed: FirstViewListed }> {
  return page.evaluate((which) => {
    const dom = (globalThis as unknown as Record<string, Dom>)[which] as Dom;
    const outline = dom.outlinePage({ registry: dom.createRefRegistry() });
    const score = (globalThis as unknown as { __listedOfFirstView: typeof listedOfFirstView }).__listedOfFirstView;
    return {
      text: dom.renderOutline(outline),
      listed: score(
        outline.nodes.map((node) => node.element),
        outline.nodes.map((node) => (node.kind === 'live' ? 'text' : node.kind)),
      ),
    };
  }, side);
}

/** Warm outlines of the loaded page, today's and the baseline's alternately (each after one warm-up). */
function timeBoth(page: Page, runs: number): Promise<{ current: number[]; baseline: number[] }> {
  return page.evaluate((count) => {
    const current = (globalThis as unknown as { currentDom: Dom }).currentDom;
    const baseline = (globalThis as unknown as { baselineDom: Dom }).baselineDom;
    current.outlinePage();
    baseline.outlinePage();
    const times = { current: [] as number[], baseline: [] as number[] };
    for (let i = 0; i < count; i += 1) {
      for (const [side, dom] of i % 2 === 0
        ? ([
            ['current', current],
            ['baseline', baseline],
          ] as const)
        : ([
            ['baseline', baseline],
            ['current', current],
          ] as const)) {
        const start = performance.now();
        dom.outlinePage();
        times[side].push(performance.now() - start);
      }
    }
    return times;
  }, runs);
}

/** The share of a page's first-viewport controls the outline must list, and of pages that must reach it. */
const CONTROLS_SHARE = 0.9;
const PAGES_SHARE = 0.8;

/** Summary figures over the pages: today's and, for comparison, the baseline's. */
export function firstViewSummary(result: FirstViewResult) {
  const rows = result.rows;
  const reaches = (listed: (row: FirstViewRow) => number) =>
    rows.filter((row) => row.viewportControls === 0 || listed(row) >= CONTROLS_SHARE * row.viewportControls).length;
  const sum = (pick: (row: FirstViewRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const withParagraph = rows.filter((row) => row.paragraph !== null);
  return {
    pages: rows.length,
    pagesAt90: reaches((row) => row.listed),
    baselinePagesAt90: reaches((row) => row.baselineListed),
    controls: sum((row) => row.viewportControls),
    listed: sum((row) => row.listed),
    baselineListed: sum((row) => row.baselineListed),
    pagesWithForms: rows.filter((row) => row.formFields > 0).length,
    formsComplete: rows.filter((row) => row.formFields > 0 && row.fieldsListed === row.formFields).length,
    baselineFormsComplete: rows.filter((row) => row.formFields > 0 && row.baselineFieldsListed === row.formFields).length,
    pagesWithParagraph: withParagraph.length,
    paragraphs: withParagraph.filter((row) => row.paragraph).length,
    baselineParagraphs: rows.filter((row) => row.baselineParagraph).length,
    mostTokens: Math.max(...rows.map((row) => row.tokens)),
    warmMs: round(median(rows.map((row) => row.warmMs)), 2),
    baselineWarmMs: round(median(rows.map((row) => row.baselineWarmMs)), 2),
  };
}

/** The issue 35 targets on the two corpora, at the default budget. */
export function firstViewTargets(result: FirstViewResult): Array<{ target: string; goal: string; figure: string; met: boolean }> {
  if (result.skipped || result.rows.length === 0) {
    return [
      {
        target: 'outline at the default budget: first-viewport controls',
        goal: '≥ 90% on ≥ 80% of pages',
        figure: `not measured (${result.skipped ?? 'no page'})`,
        met: false,
      },
    ];
  }
  const s = firstViewSummary(result);
  return [
    {
      target: `outline at the default budget, ${s.pages} saved pages: first-viewport controls listed`,
      goal: '≥ 90% of them on ≥ 80% of pages',
      figure: `${s.pagesAt90} of ${s.pages} pages (${s.listed} of ${s.controls} controls; before: ${s.baselinePagesAt90} pages, ${s.baselineListed})`,
      met: s.pagesAt90 >= PAGES_SHARE * s.pages,
    },
    {
      target: 'outline at the default budget: every field of a visible form',
      goal: `all ${s.pagesWithForms} pages with one`,
      figure: `${s.formsComplete} of ${s.pagesWithForms} (before: ${s.baselineFormsComplete})`,
      met: s.formsComplete === s.pagesWithForms,
    },
    {
      target: 'outline at the default budget: the main content’s first paragraph',
      goal: `all ${s.pagesWithParagraph} pages with one`,
      figure: `${s.paragraphs} of ${s.pagesWithParagraph} (before: ${s.baselineParagraphs})`,
      met: s.paragraphs === s.pagesWithParagraph,
    },
    { target: 'outline at the default budget on the saved pages, o200k tokens', goal: '≤ 400', figure: `${s.mostTokens} at most`, met: s.mostTokens <= 400 },
    {
      target: 'outline warm time on the saved pages, against the outline before in the same run',
      goal: 'median ≤ before',
      figure: `${s.warmMs} ms median (before: ${s.baselineWarmMs} ms)`,
      met: s.warmMs <= s.baselineWarmMs,
    },
  ];
}

/**
 * The first-view section of bench/results.md.
 *
 * @example
 * ```ts
 * lines.push(...renderFirstView(results.firstView));
 * ```
 */
export function renderFirstView(result: FirstViewResult): string[] {
  const lines = ['## The outline at its default budget: what a person sees first', ''];
  if (result.skipped) return [...lines, `Not measured: ${result.skipped}.`, ''];
  const s = firstViewSummary(result);
  const yes = (value: boolean | null) => (value === null ? '–' : value ? 'yes' : 'no');
  lines.push(
    `Every saved page of \`e2e/corpus\` (real pages) and \`e2e/outline-corpus\` (sign-up, checkout and settings pages; see their READMEs) in ${result.browser} at ${VIEWPORT.width}×${VIEWPORT.height}, outlined at the default budget (400) by today's \`planloop/dom\` and, in brackets, by the outline of \`${result.baseline}\`, both loaded in the same page. What a person sees is judged in the page without planloop code (\`bench/first-view-judge.ts\`): a control is in the first viewport when its box intersects it, it is drawn and it is on top at one of five points; a form is visible when its box intersects the viewport, and all its drawn fields count; the first paragraph is the first \`<p>\` of 50 characters or more in \`main\` (else \`article\`, else the largest of the three after the h1). Warm: median of later outlines, the two timed alternately.`,
    '',
    '| page | viewport controls | listed | form fields | listed | first paragraph | o200k tokens | warm ms |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...result.rows.map(
      (row) =>
        `| ${row.page} | ${row.viewportControls} | ${row.listed} (${row.baselineListed}) | ${row.formFields} | ${row.fieldsListed} (${row.baselineFieldsListed}) | ${yes(row.paragraph)} (${yes(row.baselineParagraph)}) | ${row.tokens} (${row.baselineTokens}) | ${row.warmMs} (${row.baselineWarmMs}) |`,
    ),
    '',
    `First-viewport controls listed: ${s.listed} of ${s.controls} (before: ${s.baselineListed}); at least 90% on **${s.pagesAt90} of ${s.pages}** pages (before: ${s.baselinePagesAt90}). Visible forms listed whole on ${s.formsComplete} of ${s.pagesWithForms} pages (before: ${s.baselineFormsComplete}); the first paragraph on ${s.paragraphs} of ${s.pagesWithParagraph} (before: ${s.baselineParagraphs}). Median warm time ${s.warmMs} ms (before: ${s.baselineWarmMs} ms).`,
    '',
  );
  const missing = result.rows.filter((row) => row.missing.length > 0);
  if (missing.length > 0) lines.push("Left out by today's outline:", '', ...missing.map((row) => `- ${row.page}: ${row.missing.join('; ')}`), '');
  return lines;
}
