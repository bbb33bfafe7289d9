// The offline model's repertoire: a few guided tours of the Orbitly site, each a list of steps
// with the actions that carry them out, in the user's language (the words are in phrases.ts). The
// planner half of the offline model turns the chosen tour into todos; the turn half finds each
// todo's step again from the task it reads in the prompt. An ask the site has nothing on gets an
// honest answer: the tour says what is missing, or, when nothing fits, says so and offers what
// the site does cover.

import type { TurnAction } from 'planloop';
import type { Lang } from '../language.js';
import { PHRASES, type Phrases } from './phrases.js';

/** A page as the planner's `Sitemap:` block lists it. */
export interface SitemapEntry {
  path: string;
  title?: string;
  description?: string;
}

/** One step: the todo it becomes and what the guide does for it. */
export interface TourStep {
  intent: 'navigate' | 'narrate' | 'click' | 'fill' | 'ask' | 'finish';
  description: string;
  actions: TurnAction[];
}

/** A tour: the task summary and its steps, in order. */
export interface Tour {
  name: 'pricing' | 'try' | 'compare-and-trial' | 'docs' | 'page' | 'nothing';
  summary: string;
  steps: TourStep[];
}

/**
 * Where steps point, written the way the page outline in each turn's prompt lists elements: a
 * role and name, or `block` and the heading that titles a block. The offline model finds these in
 * the outline and answers with the outline's ref (`e12`), as a real model reading the prompt
 * would; nothing here names the page's ids or classes.
 */
export const AT = {
  features: 'region "Features"',
  compare: 'region "Compare the plans"',
  starter: 'block h2 "Starter"',
  team: 'block h2 "Team"',
  business: 'block h2 "Business"',
  teamTrial: 'link "Start a 14-day trial"',
  trialForm: 'form',
  name: 'textbox "Your name"',
  email: 'textbox "Work email"',
  plan: 'combobox "Plan"',
  submit: 'button "Start my trial"',
  quickstart: 'block h2 "Quick start"',
  api: 'block h2 "API"',
} as const;

/**
 * How the German and Japanese pages (index.html's `page-…-de` and `page-…-ja` templates) name what
 * {@link AT} names in English: the site speaks the tour's language, and a model finds an element by
 * what the outline shows.
 */
const LOCAL_NAMES: Partial<Record<string, readonly string[]>> = {
  [AT.features]: ['region "Funktionen"', 'region "機能"'],
  [AT.compare]: ['region "Tarife vergleichen"', 'region "プランを比較"'],
  [AT.teamTrial]: ['link "14 Tage testen"', 'link "14日間のトライアルを始める"'],
  [AT.name]: ['textbox "Dein Name"', 'textbox "お名前"'],
  [AT.email]: ['textbox "Geschäftliche E-Mail"', 'textbox "仕事用メールアドレス"'],
  [AT.plan]: ['combobox "Tarif"', 'combobox "プラン"'],
  [AT.submit]: ['button "Testphase starten"', 'button "トライアルを開始"'],
  [AT.quickstart]: ['block h2 "Schnellstart"', 'block h2 "クイックスタート"'],
};

/**
 * The ref of the element `where` describes (see {@link AT}), in whichever language the page shows
 * it, in a page outline's lines, or `undefined` when the outline does not list it (another page is
 * open, or it is hidden).
 *
 * @example
 * ```ts
 * refIn(AT.team, ['[e19] article #tier-team', '  [e20] h2 "Team"']); // 'e19'
 * ```
 */
export function refIn(where: string, outline: readonly string[]): string | undefined {
  for (const name of [where, ...(LOCAL_NAMES[where] ?? [])]) {
    const ref = refOf(name, outline);
    if (ref) return ref;
  }
  return undefined;
}

function refOf(where: string, outline: readonly string[]): string | undefined {
  const lines = outline.flatMap((line) => {
    const match = /^(\s*)\[(e\d+)\] (.*)$/.exec(line);
    return match ? [{ indent: match[1]?.length ?? 0, ref: match[2] as string, text: match[3] as string }] : [];
  });
  const block = where.startsWith('block ');
  const wanted = block ? where.slice(6) : where;
  const at = lines.findIndex((line) => line.text === wanted || line.text.startsWith(`${wanted} `));
  if (at < 0) return undefined;
  if (!block) return lines[at]?.ref;
  const indent = lines[at]?.indent ?? 0;
  for (let i = at - 1; i >= 0; i--) if ((lines[i]?.indent ?? 0) < indent) return lines[i]?.ref;
  return undefined;
}

// The target first, as the turn prompt asks: the highlight can show while the words stream.
const narrate = (text: string, target?: string): TurnAction => (target ? { type: 'narrate', target, text } : { type: 'narrate', text });
const tool = (name: string, args: Record<string, unknown>): TurnAction => ({ type: 'tool', name, args });
const finish = (summary: string): TurnAction => ({ type: 'task_finish', summary });

/** The sitemap path whose title or description matches `pattern`, else `fallback`. */
function pathFor(sitemap: readonly SitemapEntry[], pattern: RegExp, fallback: string): string {
  return sitemap.find((page) => pattern.test(`${page.path} ${page.title ?? ''} ${page.description ?? ''}`))?.path ?? fallback;
}

function open(p: Phrases, title: string, path: string): TourStep {
  return { intent: 'navigate', description: p.open(title, path), actions: [tool('navigate', { path })] };
}

/** A step that only talks: its description, and its words said at `target`. */
function talk(words: { description: string; say?: string }, target?: string): TourStep {
  return { intent: 'narrate', description: words.description, actions: [narrate(words.say ?? words.description, target)] };
}

/** The last step: its words, then `task_finish` with `summary`. */
function wrapUp(words: { description: string; say?: string }, summary: string, target?: string): TourStep {
  return { intent: 'finish', description: words.description, actions: [narrate(words.say ?? words.description, target), finish(summary)] };
}

const WANTS_TRIAL = /\b(trial|try|sign ?up|start)\b|test|probier|anmeld|starte|試|トライアル|体験|登録|始め/;
const ABOUT_PLANS =
  /\b(compare|comparison|plans?|tiers?|pric\w*|cost\w*|commercial|pay)\b|preis|tarif|pläne|kost|vergleich|bezahl|料金|価格|値段|プラン|比較|費用/;
const ABOUT_DOCS =
  /\b(docs?|documentation|api|quick ?start|integrat\w*|developers?)\b|doku|schnellstart|entwickler|ドキュメント|資料|クイックスタート|開発|連携/;

/**
 * Picks the tour for `task`, in `lang`, with paths taken from the sitemap the planner was given.
 * When the site says nothing about some of the ask's words, the tour says so up front and at its
 * end; when nothing on the site fits at all, the tour is an honest "not here" with an offer of
 * what the site does cover. `understood: false` (an ask in a language the stand-in does not
 * speak) skips that judgement.
 */
export function tourFor(task: string, sitemap: readonly SitemapEntry[] = [], lang: Lang = 'en', options: { understood?: boolean } = {}): Tour {
  const p = PHRASES[lang];
  const t = task.toLowerCase();
  // An ask in a language the stand-in does not speak: it cannot tell which of its words the site lacks.
  const missing = options.understood === false ? [] : missingTopics(task, sitemap);
  const quoted = missing.length > 0 ? listOf(missing.map(p.quote), p) : '';
  const space = lang === 'ja' ? '' : ' ';
  // What the tour ends with: its summary, plus what the site lacked.
  const closing = (summary: string): string => (quoted ? `${summary}${space}${p.honest.lacked(quoted)}` : summary);
  const honest = (tour: Tour): Tour => (quoted ? { ...tour, summary: `${p.honest.lacks(quoted)}${space}${tour.summary}` } : tour);
  const pricing = pathFor(sitemap, /pric|plans|tiers/i, '/commercial');
  const trial = pathFor(sitemap, /trial|try/i, '/try');
  const docs = pathFor(sitemap, /docs|api|quick ?start/i, '/docs');
  const title = (path: string, fallback: string): string => p.pages[path]?.title ?? fallback;
  const wantsTrial = WANTS_TRIAL.test(t);
  const aboutPlans = ABOUT_PLANS.test(t);

  if (wantsTrial && aboutPlans) {
    const words = p.compareAndTrial;
    return honest({
      name: 'compare-and-trial',
      summary: words.summary,
      steps: [
        open(p, title('/commercial', 'Pricing'), pricing),
        talk(words.compare, AT.compare),
        talk(words.recommend, AT.team),
        { intent: 'click', description: words.openForm.description, actions: [tool('click', { target: AT.teamTrial })] },
        {
          intent: 'fill',
          description: words.fillName.description,
          actions: [tool('fill', { target: AT.name, value: 'Sam Rivera' }), tool('fill', { target: AT.email, value: 'sam@example.com' })],
        },
        { intent: 'fill', description: words.choosePlan.description, actions: [tool('fill', { target: AT.plan, value: 'team' })] },
        {
          intent: 'click',
          description: words.submit.description,
          actions: [tool('click', { target: AT.submit }), narrate(words.submit.say ?? '', AT.trialForm)],
        },
        wrapUp(words.wrap, closing(words.finished)),
      ],
    });
  }
  if (wantsTrial) {
    const words = p.trial;
    return honest({
      name: 'try',
      summary: words.summary,
      steps: [
        open(p, title('/try', 'Try it'), trial),
        talk(words.form, AT.trialForm),
        talk(words.plan, AT.plan),
        talk(words.submit, AT.submit),
        wrapUp(words.wrap, closing(words.finished)),
      ],
    });
  }
  if (aboutPlans) {
    const words = p.pricing;
    return honest({
      name: 'pricing',
      summary: words.summary,
      steps: [
        open(p, title('/commercial', 'Pricing'), pricing),
        talk(words.starter, AT.starter),
        talk(words.team, AT.team),
        talk(words.business, AT.business),
        wrapUp(words.wrap, closing(words.finished), AT.compare),
      ],
    });
  }
  if (ABOUT_DOCS.test(t)) {
    const words = p.docs;
    return honest({
      name: 'docs',
      summary: words.summary,
      steps: [
        open(p, title('/docs', 'Docs'), docs),
        talk(words.quickstart, AT.quickstart),
        talk(words.api, AT.api),
        wrapUp(words.wrap, closing(words.finished)),
      ],
    });
  }
  const page = bestPage(task, sitemap, p);
  if (!page && quoted) {
    return {
      name: 'nothing',
      summary: p.honest.nothingSummary(quoted),
      steps: [talk(p.honest.nothing(quoted)), wrapUp(p.honest.offer, p.honest.nothingFinished(quoted))],
    };
  }
  return honest(pageTour(page ?? home(sitemap), p, closing));
}

/**
 * The step of the tour for `task` that a todo described as `description` comes from, in whichever
 * language the tour was planned: the turn half of the offline model reads the todos in the
 * plan's language.
 */
export function findStep(task: string, description: string): TourStep | undefined {
  for (const lang of Object.keys(PHRASES) as Lang[]) {
    const step = tourFor(task, [], lang).steps.find((candidate) => same(candidate.description, description));
    if (step) return step;
  }
  return undefined;
}

function same(a: string, b: string): boolean {
  const norm = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}

function home(sitemap: readonly SitemapEntry[]): SitemapEntry {
  return sitemap.find((page) => page.path === '/') ?? { path: '/', title: 'Home', description: 'what Orbitly is' };
}

/** The sitemap page (or known page) whose words share most with the task; `undefined` when none shares any. */
function bestPage(task: string, sitemap: readonly SitemapEntry[], p: Phrases): SitemapEntry | undefined {
  const taskWords = new Set(topicWords(task).map((entry) => entry.word));
  const pages: readonly SitemapEntry[] = sitemap.length > 0 ? sitemap : Object.keys(p.pages).map((path) => ({ path }));
  let best: SitemapEntry | undefined;
  let bestScore = 0;
  for (const page of pages) {
    const known = p.pages[page.path];
    const text = `${page.title ?? ''} ${page.description ?? ''} ${page.path} ${known?.title ?? ''} ${known?.about ?? ''}`;
    const score = new Set(segmentWords(text).filter((word) => taskWords.has(word))).size;
    if (score > bestScore) {
      best = page;
      bestScore = score;
    }
  }
  return best;
}

/** The generic tour: one page, what it covers, and an honest word on how far the stand-in goes. */
function pageTour(page: SitemapEntry, p: Phrases, closing: (summary: string) => string): Tour {
  const known = p.pages[page.path];
  const title = known?.title ?? page.title ?? page.path;
  const about = known?.about ?? page.description?.replace(/\s*\(#[^)]*\)/g, '') ?? '';
  const firstTarget = /#[\w-]+/.exec(page.description ?? '')?.[0] ?? (page.path === '/' ? AT.features : undefined);
  return {
    name: 'page',
    summary: p.page.summary(title),
    steps: [
      open(p, title, page.path),
      talk({ description: p.page.explain(title), say: p.page.covers(about) }, firstTarget),
      wrapUp(p.page.wrap, closing(p.page.finished(title))),
    ],
  };
}

/**
 * What to do for a todo that matches no step of the tour (planned by another model, or rewritten):
 * act on its intent and the words of its description, speaking the description's language.
 */
export function actionsForTodo(intent: string, description: string): TurnAction[] {
  const d = description.toLowerCase();
  const path = /\(?(\/[a-z0-9-]*)\)?/i.exec(description)?.[1];
  if (intent === 'navigate') {
    const guess =
      path ??
      (/pric|plan|preis|tarif|料金|プラン/.test(d)
        ? '/commercial'
        : /try|trial|test|試|トライアル/.test(d)
          ? '/try'
          : /doc|api|ドキュメント/.test(d)
            ? '/docs'
            : '/');
    return [tool('navigate', { path: guess })];
  }
  if (intent === 'ask') return [{ type: 'ask', question: description }];
  if (intent === 'finish') return [narrate(phrasesFor(description).endOfTour), finish(description)];
  const target = /starter/.test(d)
    ? AT.starter
    : /team/.test(d)
      ? AT.team
      : /business/.test(d)
        ? AT.business
        : /compar|vergleich|比較/.test(d)
          ? AT.compare
          : /form|trial|test|フォーム|トライアル/.test(d)
            ? AT.trialForm
            : undefined;
  return [narrate(/[.。!?！？]$/.test(description) ? description : `${description}${/[\u3040-\u30ff\u4e00-\u9fff]/.test(description) ? '。' : '.'}`, target)];
}

/** The offline model's words in the language `text` is written in (English when it cannot tell). */
export function phrasesFor(text: string): Phrases {
  if (/[\u3040-\u30ff\u4e00-\u9fff]/.test(text)) return PHRASES.ja;
  const words = segmentWords(text);
  const german = words.filter((word) => PHRASES.de.stopWords.has(word) || /[äöüß]/.test(word)).length;
  const english = words.filter((word) => PHRASES.en.stopWords.has(word)).length;
  return german > english ? PHRASES.de : PHRASES.en;
}

/* What the site covers: the words of every phrase the stand-in knows, and of the sitemap. */

/** The word-like segments of `text`, lower-case (Japanese is cut into words by Intl.Segmenter). */
function segmentWords(text: string): string[] {
  if (typeof Intl.Segmenter !== 'function') return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const locale = /[\u3040-\u30ff\u4e00-\u9fff]/.test(text) ? 'ja' : 'en';
  return Array.from(new Intl.Segmenter(locale, { granularity: 'word' }).segment(text))
    .filter((segment) => segment.isWordLike)
    .map((segment) => segment.segment.toLowerCase());
}

const STOP_WORDS = new Set(Object.values(PHRASES).flatMap((p) => [...p.stopWords]));

/** The words of `text` that name a topic, each with its place among the words (to group neighbours). */
function topicWords(text: string): Array<{ word: string; at: number }> {
  return segmentWords(text)
    .map((word, at) => ({ word, at }))
    .filter(
      ({ word }) =>
        !STOP_WORDS.has(word) && !/^\p{N}+$/u.test(word) && !/^[\u3040-\u309f]+$/.test(word) && (word.length > 1 || /[^\p{Script=Latin}]/u.test(word)),
    );
}

let vocabulary: Set<string> | undefined;

/** Every word the stand-in's phrases use, in every language: what it knows the site to cover. */
function knownWords(): Set<string> {
  if (vocabulary) return vocabulary;
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (typeof value === 'function') texts.push(String((value as (...args: string[]) => unknown)('', '')));
    else if (value && typeof value === 'object' && !(value instanceof Set)) Object.values(value).forEach(collect);
  };
  collect(PHRASES);
  vocabulary = new Set(texts.flatMap(segmentWords));
  return vocabulary;
}

/** Whether `word` is one the site covers: the same word, or one sharing its stem. */
function covered(word: string, extra: ReadonlySet<string>): boolean {
  const known = knownWords();
  if (known.has(word) || extra.has(word)) return true;
  const cjk = /[^\p{Script=Latin}]/u.test(word);
  const min = cjk ? 2 : 4;
  if (word.length < min) return false;
  const stem = cjk ? word : word.slice(0, Math.max(min, Math.min(5, word.length - 1)));
  for (const candidate of [...known, ...extra]) {
    if (candidate.length < min) continue;
    if (candidate.startsWith(stem) || (cjk && word.startsWith(candidate))) return true;
  }
  return false;
}

/** The ask's topics the site says nothing about, neighbouring words kept together ("refund policy"). */
function missingTopics(task: string, sitemap: readonly SitemapEntry[]): string[] {
  const extra = new Set(sitemap.flatMap((page) => segmentWords(`${page.title ?? ''} ${(page.description ?? '').replace(/\s*\(#[^)]*\)/g, '')}`)));
  const groups: Array<{ words: string[]; last: number }> = [];
  for (const { word, at } of topicWords(task)) {
    if (covered(word, extra)) continue;
    const group = groups.at(-1);
    if (group && group.last === at - 1) {
      group.words.push(word);
      group.last = at;
    } else groups.push({ words: [word], last: at });
  }
  const joiner = /[\u3040-\u30ff\u4e00-\u9fff]/.test(task) ? '' : ' ';
  return [...new Set(groups.map((group) => group.words.join(joiner)))].slice(0, 3);
}

/** `“a”`, `“a” or “b”`, `“a”, “b” or “c”` in the language of `p`. */
function listOf(items: string[], p: Phrases): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(p.or === 'や' ? 'や' : ', ')}${p.or}${items.at(-1)}`;
}
