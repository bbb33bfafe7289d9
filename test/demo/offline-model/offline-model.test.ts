import { describe, expect, test } from 'vitest';
import { languageOf } from '../../../demo/language.js';
import { answer } from '../../../demo/offline-model/offline-model.js';
import { SITE_PAGES } from '../../../demo/site.js';
import { buildTurnMessages } from '../../../src/loop/turn-prompt.js';
import type { TodoItem } from '../../../src/plan-state.js';
import { plannerUserMessage } from '../../../src/planning/prompts.js';

// The demo's offline model, asked through the real prompts: it answers in the user's language,
// and honestly when the site has nothing on the ask.

interface PlanAnswer {
  task_summary: string;
  todos: Array<{ intent: string; description: string }>;
}
type Action = { type: string; text?: string; summary?: string; target?: string };

function plan(task: string, locale?: string): PlanAnswer {
  const content = plannerUserMessage({ task, sitemap: SITE_PAGES, ...(locale ? { locale } : {}) });
  return JSON.parse(answer({ messages: [{ role: 'user', content }] })) as PlanAnswer;
}

/** Plays the planned todos through the turn half, one turn each, and returns every action. */
function tour(task: string, planned: PlanAnswer): Action[] {
  const todos: TodoItem[] = planned.todos.map((todo, index) => ({ ...todo, id: `t${index + 1}`, status: 'pending' }));
  const actions: Action[] = [];
  for (let turn = 1; turn <= todos.length; turn++) {
    const messages = buildTurnMessages({ task, todos: todos.slice(turn - 1), turn, maxTurns: todos.length + 2 });
    const envelope = JSON.parse(answer({ messages })) as { actions: Action[] };
    actions.push(...envelope.actions);
  }
  return actions;
}
const said = (actions: Action[]) => actions.flatMap((action) => (action.type === 'narrate' ? [action.text] : []));
const finished = (actions: Action[]) => actions.find((action) => action.type === 'task_finish')?.summary;

describe('languageOf', () => {
  test.each([
    ['Zeig mir die Preise', 'de'],
    ['Vergleiche die Pläne und starte eine Testversion', 'de'],
    ['Wie bekomme ich eine Rückerstattung?', 'de'],
    ['料金ページを紹介して', 'ja'],
    ['Introduce the pricing page', 'en'],
    ['Montre-moi les prix', 'fr'],
    ['SSO?', undefined],
    ['Orbitly', undefined],
  ])('%s is %s', (text, language) => {
    expect(languageOf(text)).toBe(language);
  });
});

describe('the offline model speaks the user’s language', () => {
  test('a German ask gets a German summary, German todos and German narration', () => {
    const planned = plan('Zeig mir die Preise', 'de');
    expect(planned.task_summary).toBe('Ich bringe dich zur Preisseite und stelle dir die drei Tarife vor.');
    expect(planned.todos.map((todo) => todo.description)).toEqual([
      'Die Seite „Preise“ öffnen (/commercial)',
      'Den kostenlosen Starter-Tarif vorstellen',
      'Den Team-Tarif zeigen, den beliebtesten',
      'Zeigen, was Business dazu bietet',
      'Abschluss',
    ]);
    const actions = tour('Zeig mir die Preise', planned);
    expect(said(actions)[0]).toBe('Starter ist für bis zu fünf Personen dauerhaft kostenlos: ein gemeinsamer Kalender und einfache Rotationen.');
    expect(finished(actions)).toBe('Die Preisseite vorgestellt.');
    expect(actions.filter((action) => action.type === 'tool')).toEqual([{ type: 'tool', name: 'navigate', args: { path: '/commercial' } }]);
  });

  test('a Japanese ask gets Japanese throughout, the trial filled in as in English', () => {
    const task = 'プランを比較してトライアルを始めたい';
    const planned = plan(task, 'ja');
    expect(planned.task_summary).toBe('3つのプランを一緒に比べてから、トライアルのフォームでTeamプランのトライアルを始めます。');
    const actions = tour(task, planned);
    expect(said(actions)).toContain('小さなチームの多くにはTeamがぴったりです。14日間のトライアルもこのプランで試せます。');
    expect(finished(actions)).toBe('プランを比較し、Teamのトライアルを始めました。');
    expect(actions.filter((action) => action.type === 'tool')).toHaveLength(6);
  });

  test('the planner’s Locale decides when the ask says nothing of its language', () => {
    expect(plan('SSO?', 'de-DE').task_summary).toBe('Ich zeige dir die Seite „Preise“.');
    expect(plan('SSO?', 'ja-JP').task_summary).toBe('「料金」ページをご案内します。');
    expect(plan('Show me how to try it', 'en-GB').task_summary).toBe('I will show you the trial form and how to start a free trial.');
  });

  test('no German narration is ever English: every German tour says only German lines', () => {
    for (const task of [
      'Zeig mir die Preise',
      'Wie teste ich Orbitly?',
      'Vergleiche die Tarife und starte eine Testphase',
      'Zeig mir die Doku',
      'Wie bekomme ich eine Rückerstattung?',
    ]) {
      const planned = plan(task, 'de');
      const english = plan(task.replace(/.*/, 'Show me around'), 'en');
      const lines = [planned.task_summary, ...planned.todos.map((todo) => todo.description), ...said(tour(task, planned))];
      for (const line of lines) expect(line, task).not.toMatch(/\b(the|and|you|this|is|page|plans?)\b/i);
      expect(planned.task_summary).not.toBe(english.task_summary);
    }
  });

  test('a language it does not speak is answered in English, saying so', () => {
    expect(plan('Montre-moi les prix', 'fr').task_summary).toBe(
      'I speak only English, German and Japanese offline, so here it is in English (connect a real model in Settings for French): I will show you the Home page.',
    );
  });
});

describe('the offline model answers honestly', () => {
  test('an ask the site has nothing on says so and offers what it can, never "Showed the Home page"', () => {
    const task = 'How do I get a refund?';
    const planned = plan(task);
    expect(planned.task_summary).toBe(
      'This site says nothing about “refund”. I can show you what it does cover: the plans and prices, how to try Orbitly, and the docs.',
    );
    expect(planned.todos.map((todo) => todo.description)).toEqual(['Say that the site has nothing about “refund”', 'Offer what I can show instead']);
    const actions = tour(task, planned);
    expect(said(actions)).toEqual([
      'I looked through the site: nothing on it is about “refund”, so I cannot show you that.',
      'What I can show you: the plans and prices, how to start a free trial, and the docs. Ask for any of them.',
    ]);
    expect(finished(actions)).toBe('Found nothing about “refund” on this site; offered the pricing, trial and docs tours instead.');
    expect(actions.some((action) => action.type === 'tool')).toBe(false);
  });

  test('in German and Japanese too', () => {
    expect(plan('Wie bekomme ich eine Rückerstattung?', 'de').task_summary).toBe(
      'Zu „rückerstattung“ steht auf dieser Website nichts. Ich kann dir zeigen, was es hier gibt: die Tarife und Preise, wie man Orbitly ausprobiert, und die Doku.',
    );
    expect(plan('返金の方法を教えてください', 'ja').task_summary).toBe(
      'このサイトには「返金」についての情報がありません。ご案内できるのは、料金とプラン、Orbitlyの試し方、ドキュメントです。',
    );
  });

  test('a tour that covers only part of the ask says what is missing, at the start and at the end', () => {
    const task = 'What is the refund policy for the Team plan?';
    const planned = plan(task);
    expect(planned.task_summary).toBe('This site says nothing about “refund policy”. I will take you to the pricing page and introduce its three plans.');
    expect(finished(tour(task, planned))).toBe('Introduced the pricing page. The site says nothing about “refund policy”.');
  });

  test('asks the site does cover keep their tours, whatever words they use', () => {
    expect(plan('Introduce the pricing page').task_summary).toBe('I will take you to the pricing page and introduce its three plans.');
    expect(plan('Compare the plans and start a trial').task_summary).toBe(
      'I will compare the three plans with you, then start a Team trial on the trial form.',
    );
    expect(plan('Show me the docs').task_summary).toBe('I will show you the docs: the quick start, then the API.');
    expect(plan('Tell me about calendar sync').task_summary).toBe('I will show you the Home page.');
    expect(plan('Does Business include SSO?').task_summary).toBe('I will show you the Pricing page.');
    expect(plan('Hello').task_summary).toBe('I will show you the Home page.');
  });
});
