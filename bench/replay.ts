import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Window } from 'happy-dom';
import { answer } from '../demo/offline-model/offline-model.js';
import { CANNED_ASKS, type CannedAsk } from '../demo/recorded-tours.js';
import { SITE_PAGES } from '../demo/site.js';
import { createTourLocators, outlinePage, renderOutline, resolveTarget } from '../src/dom/index.js';
import type { LLMChunk, LLMProvider, LLMRequest } from '../src/llm/provider.js';
import type { LoopTool } from '../src/loop/dispatch-action.js';
import { replayTour, type ReplayTourOptions } from '../src/loop/replay-tour.js';
import { runWebAgent } from '../src/loop/run-web-agent.js';
import type { Tour } from '../src/loop/tour.js';
import { Plan } from '../src/plan.js';
import { median, round } from './measure.js';
import { countTokens } from './tokens.js';

/*
 * A recorded tour against the live run it came from, on the demo's site (its pages from
 * demo/index.html, in happy-dom: no layout, so no CSS sight checks) with the demo's offline model
 * as the live model: model calls, tokens (o200k) and the time to the last step; then how many of
 * a tour's steps are found again after each markup change the e2e test makes, and after a target
 * is removed.
 */

/** How fast the simulated model is: what the live run's time includes besides the SDK's work. */
export const SIMULATED_MODEL = { firstTokenMs: 300, inputTokensPerSecond: 2000, outputTokensPerSecond: 60 } as const;

/** One canned ask, live and replayed. */
export interface ReplayComparison {
  ask: string;
  steps: number;
  live: { modelCalls: number; inputTokens: number; outputTokens: number; lastStepMs: number };
  replay: { modelCalls: number; inputTokens: number; outputTokens: number; lastStepMs: number };
}

/** Steps found again after one markup change, over every canned ask's tour. */
export interface ReplayShare {
  change: string;
  found: number;
  steps: number;
  /** Replays that finished without a model. */
  finished: number;
  tours: number;
}

/** What {@link benchReplay} measured. */
export interface ReplayBenchResult {
  model: typeof SIMULATED_MODEL;
  runs: number;
  comparisons: ReplayComparison[];
  shares: ReplayShare[];
}

/** The markup changes of e2e/demo-replay.spec.ts, and a removed target, on the page templates. */
const CHANGES: Record<string, (document: Document) => void> = {
  'a class renamed': (document) => {
    for (const element of content(document, 'page-commercial').querySelectorAll('.tier')) element.classList.replace('tier', 'plan-card');
    for (const element of content(document, 'page-commercial').querySelectorAll('.button')) element.classList.replace('button', 'cta');
    content(document, 'page-try').querySelector('.trial-form')?.classList.replace('trial-form', 'signup-form');
  },
  'a button moved into another section': (document) => {
    const page = content(document, 'page-commercial');
    const section = document.createElement('section');
    section.setAttribute('aria-label', 'Get started');
    section.innerHTML = '<h2>Ready when you are</h2>';
    section.append(page.querySelector('#tier-team-cta') as Element);
    page.append(section);
  },
  'a heading reworded': (document) => {
    (content(document, 'page-commercial').querySelector('#compare-title') as Element).textContent = 'Compare our plans';
  },
  'a target removed (the Business heading)': (document) => {
    content(document, 'page-commercial').querySelector('#tier-business h2')?.remove();
  },
};

/**
 * Runs the comparison: each English canned ask live (the offline model behind {@link SIMULATED_MODEL}'s
 * latency) and replayed, `runs` times each (medians); then every canned ask's tour (recorded live
 * here, in each language) replayed after each markup change, without a model.
 *
 * @example
 * ```ts
 * const result = await benchReplay({ runs: 3 });
 * result.comparisons[0]?.replay.modelCalls; // 0
 * ```
 */
export async function benchReplay(options: { runs?: number } = {}): Promise<ReplayBenchResult> {
  const runs = options.runs ?? 3;
  const html = await readFile(fileURLToPath(new URL('../demo/index.html', import.meta.url)), 'utf8');
  const body = /<body>([\s\S]*)<\/body>/.exec(html)?.[1] ?? '';
  const comparisons: ReplayComparison[] = [];
  for (const ask of CANNED_ASKS.filter((entry) => entry.lang === 'en')) {
    const live: ReplayComparison['live'][] = [];
    const replay: ReplayComparison['replay'][] = [];
    let steps = 0;
    for (let run = 0; run < runs; run += 1) {
      const site = createSite(body);
      const recorded = await liveRun(site, ask, true);
      live.push(recorded.figures);
      steps = stepsOf(recorded.tour);
      const again = createSite(body);
      replay.push(await replayRun(again, recorded.tour));
    }
    comparisons.push({ ask: ask.ask, steps, live: medianOf(live), replay: medianOf(replay) });
  }
  const tours: Tour[] = [];
  for (const ask of CANNED_ASKS) tours.push((await liveRun(createSite(body), ask, false)).tour);
  const shares: ReplayShare[] = [];
  for (const [change, apply] of Object.entries(CHANGES)) {
    const share: ReplayShare = { change, found: 0, steps: 0, finished: 0, tours: tours.length };
    for (const tour of tours) {
      const site = createSite(body, apply);
      const outcome = await replayRun(site, tour, true);
      share.steps += stepsOf(tour);
      share.found += stepsOf(tour) - outcome.lost;
      if (outcome.finished) share.finished += 1;
    }
    shares.push(share);
  }
  return { model: SIMULATED_MODEL, runs, comparisons, shares };
}

interface Site {
  window: Window;
  view: HTMLElement;
  tools: Record<string, LoopTool>;
  path: () => string;
}

/** The demo's site in a happy-dom window: its pages, a router, and tools like demo/site-tools.ts (no pauses, no approval). */
function createSite(body: string, change?: (document: Document) => void): Site {
  const window = new Window({ url: 'http://localhost:5173/', width: 1280, height: 800 });
  const document = window.document as unknown as Document;
  document.body.innerHTML = body.replace(/<script[\s\S]*?<\/script>/g, '');
  change?.(document);
  const view = document.getElementById('view') as HTMLElement;
  let path = '/';
  const templates: Record<string, string> = { '/': 'page-home', '/commercial': 'page-commercial', '/try': 'page-try', '/docs': 'page-docs' };
  const go = (next: string): void => {
    path = next;
    view.replaceChildren(content(document, templates[next] ?? 'page-missing').cloneNode(true));
  };
  go('/');
  const element = (target: unknown): Element => {
    const found = resolveTarget(target, { root: view });
    if (!found.ok) throw new Error(found.message);
    return found.element;
  };
  const tools: Record<string, LoopTool> = {
    navigate: { description: 'Open a page of the site. args: { "path": "/commercial" }', run: ({ path: to }) => (go(String(to)), { page: path }) },
    click: {
      description: 'Click an element of the page. args: { "target": "<ref>" }',
      run: ({ target }) => {
        const clicked = element(target);
        const link = clicked.closest('a[href]');
        if (link) go(link.getAttribute('href') ?? '/');
        else if (clicked.closest('form')) (view.querySelector('#trial-result') as HTMLElement).textContent = 'Welcome aboard!';
        return { clicked: String(target), page: path };
      },
    },
    fill: {
      description: 'Type into a field or choose an option. args: { "target": "<ref>", "value": "<text>" }',
      run: ({ target, value }) => {
        (element(target) as HTMLInputElement).value = String(value);
        return { filled: String(target) };
      },
    },
  };
  return { window, view, tools, path: () => path };
}

/** The offline model, behind a simulated model's latency (`timed`), counting calls and o200k tokens. */
function offlineModel(timed: boolean): LLMProvider & { calls: number; inputTokens: number; outputTokens: number } {
  const counts = { calls: 0, inputTokens: 0, outputTokens: 0 };
  const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
  async function* stream(request: LLMRequest): AsyncIterable<LLMChunk> {
    counts.calls += 1;
    const input = countTokens(request.messages.map((message) => message.content).join('\n'));
    const text = answer(request);
    const output = countTokens(text);
    counts.inputTokens += input;
    counts.outputTokens += output;
    if (timed) await wait(SIMULATED_MODEL.firstTokenMs + (1000 * input) / SIMULATED_MODEL.inputTokensPerSecond);
    const pieces = Math.max(1, Math.ceil(text.length / 48));
    for (let i = 0; i < pieces; i += 1) {
      if (timed) await wait((1000 * output) / SIMULATED_MODEL.outputTokensPerSecond / pieces);
      yield { type: 'text-delta', delta: text.slice(i * 48, (i + 1) * 48) };
    }
    yield { type: 'finish', finishReason: 'stop' };
  }
  return Object.assign(counts, {
    generate: () => Promise.reject(new Error('streamed')),
    stream,
  }) as LLMProvider & typeof counts;
}

async function liveRun(site: Site, ask: CannedAsk, timed: boolean): Promise<{ tour: Tour; figures: ReplayComparison['live'] }> {
  const model = offlineModel(timed);
  const plan = new Plan({ llm: model });
  const started = performance.now();
  let last = started;
  plan.on('action', () => (last = performance.now()));
  const result = await runWebAgent({
    plan,
    task: ask.ask,
    start: { planInput: { task: ask.ask, sitemap: SITE_PAGES, locale: ask.lang } },
    tools: site.tools,
    user: { narrate: () => undefined },
    page: {
      observe: ({ maxTokens }) => renderOutline(outlinePage({ root: site.view, maxTokens })),
      locators: createTourLocators({ root: site.view }),
      url: site.path,
    },
  });
  if (!result.tour) throw new Error(`the live run of "${ask.ask}" recorded no tour (${result.reason})`);
  return {
    tour: result.tour,
    figures: { modelCalls: model.calls, inputTokens: model.inputTokens, outputTokens: model.outputTokens, lastStepMs: round(last - started, 1) },
  };
}

async function replayRun(site: Site, tour: Tour, repairable = false): Promise<ReplayComparison['replay'] & { lost: number; finished: boolean }> {
  const plan = new Plan({ llm: offlineModel(false) });
  const repair = offlineModel(false);
  const started = performance.now();
  let last = started;
  plan.on('action', () => (last = performance.now()));
  const options: ReplayTourOptions = {
    plan,
    tools: site.tools,
    user: { narrate: () => undefined },
    page: {
      observe: ({ maxTokens }) => renderOutline(outlinePage({ root: site.view, maxTokens })),
      locators: createTourLocators({ root: site.view }),
      url: site.path,
    },
    checks: { origin: 'http://localhost:5173' },
  };
  // Without a model first: what is found again. Then, for the share, with the offline model to repair.
  const bare = await replayTour(tour, options).then(
    (result) => ({ finished: true, lost: result.repairs.length, modelCalls: result.modelCalls }),
    () => undefined,
  );
  if (!bare && repairable) {
    const repaired = await replayTour(tour, { ...options, plan: new Plan({ llm: offlineModel(false) }), model: { provider: repair } });
    return {
      modelCalls: repaired.modelCalls,
      inputTokens: repair.inputTokens,
      outputTokens: repair.outputTokens,
      lastStepMs: round(last - started, 1),
      lost: repaired.repairs.length,
      finished: false,
    };
  }
  if (!bare) throw new Error(`the replay of "${tour.task}" failed on an unchanged page`);
  return { modelCalls: bare.modelCalls, inputTokens: 0, outputTokens: 0, lastStepMs: round(last - started, 1), lost: bare.lost, finished: bare.finished };
}

function content(document: Document, id: string): DocumentFragment {
  return (document.getElementById(id) as HTMLTemplateElement).content;
}

function stepsOf(tour: Tour): number {
  return tour.todos.reduce((sum, todo) => sum + todo.steps.length, 0);
}

function medianOf<T extends Record<string, number>>(items: T[]): T {
  const keys = Object.keys(items[0] ?? {}) as Array<keyof T>;
  return Object.fromEntries(keys.map((key) => [key, round(median(items.map((item) => item[key] as number)), 1)])) as T;
}
