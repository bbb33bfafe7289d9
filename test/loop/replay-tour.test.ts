// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createTourLocators, outlinePage, renderOutline, resolveTarget } from '../../src/dom/index.js';
import { AbortError, isPlanloopError, ValidationError } from '../../src/errors.js';
import { TourError } from '../../src/loop/tour-error.js';
import { createLLMRouter, type LLMProvider, type LLMRequest } from '../../src/llm/provider.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import type { LoopTool } from '../../src/loop/dispatch-action.js';
import { followRuns } from '../../src/loop/plan-runs.js';
import { replayTour, type ReplayTourOptions } from '../../src/loop/replay-tour.js';
import type { Run, RunPhase } from '../../src/loop/run-state.js';
import { runWebAgent } from '../../src/loop/run-web-agent.js';
import { validateTour, type Tour } from '../../src/loop/tour.js';
import { Plan } from '../../src/plan.js';

// A live run records a tour; replayTour plays it on a fresh plan with no model: the same tool
// calls and narrations in the same order, the same todo ticks, every target found again by its
// locator on the page as it is then (happy-dom: no layout; real Chromium in e2e/demo-replay.spec.ts).

const PAGES: Record<string, string> = {
  '/': '<h1>Orbitly</h1><p>Scheduling for small teams.</p>',
  '/pricing': `<h1>Pricing</h1>
    <section aria-label="Plans"><article id="tier-team" class="tier"><h2>Team</h2><p>$12 per member.</p><button class="cta" data-go="/try">Start a trial</button></article></section>
    <section aria-labelledby="compare"><h2 id="compare">Compare the plans</h2><p>Starter, Team, Business.</p></section>`,
  '/try': '<h1>Try it</h1><form aria-label="Trial"><label for="name">Your name</label><input id="name"><button type="submit">Send</button></form>',
};

// These scripts only claim their todos (the fakes move no page): the planner leaves them on the model's word
// (`check: { kind: 'none' as const }`). Evidence is tested in test/loop/evidence.test.ts.
const PLAN = {
  task_summary: 'A look at pricing, then the trial form.',
  todos: [
    { intent: 'navigate', description: 'Open pricing', check: { kind: 'none' as const } },
    { intent: 'narrate', description: 'Show the Team plan', check: { kind: 'none' as const } },
    { intent: 'click', description: 'Open the trial form' },
    { intent: 'fill', description: 'Fill in the name', check: { kind: 'none' as const } },
  ],
};

let page = '/';
let log: string[] = [];

function render(path: string, markup: (html: string) => string = (html) => html): void {
  page = path;
  (document.getElementById('view') as HTMLElement).innerHTML = markup(PAGES[path] ?? '');
}

function setUpPage(markup?: (html: string) => string): { markup: (html: string) => string } {
  document.body.innerHTML = '<main id="view"></main><aside id="guide" data-planloop-ignore><button>Start a trial</button></aside>';
  const change = markup ?? ((html: string) => html);
  render('/', change);
  log = [];
  return { markup: change };
}

afterEach(() => {
  document.body.replaceChildren();
});

const view = (): HTMLElement => document.getElementById('view') as HTMLElement;
const textOf = (target: unknown): string => {
  const found = resolveTarget(target, { root: view(), selectors: true });
  return found.ok ? (found.element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 24) : `(${String(target)} not found)`;
};

function siteTools(markup: (html: string) => string = (html) => html): Record<string, LoopTool> {
  return {
    navigate: {
      description: 'open a page {path}',
      run: ({ path }) => {
        log.push(`navigate ${String(path)}`);
        render(String(path), markup);
        return { page };
      },
    },
    click: {
      description: 'click {target}',
      run: ({ target }) => {
        const found = resolveTarget(target, { root: view() });
        if (!found.ok) return { ok: false, reason: found.reason, message: found.message };
        log.push(`click "${textOf(target)}"`);
        const go = found.element.getAttribute('data-go');
        if (go) render(go, markup);
        return { ok: true, page };
      },
    },
    fill: {
      description: 'type into {target} {value}',
      run: ({ target, value }) => {
        const found = resolveTarget(target, { root: view() });
        if (!found.ok) throw new Error(found.message);
        (found.element as HTMLInputElement).value = String(value);
        log.push(`fill "${(found.element as HTMLInputElement).labels?.[0]?.textContent ?? '?'}" = ${String(value)}`);
        return { ok: true };
      },
    },
    look: { risk: 'read', description: 'read the page', run: () => 'looked' },
    send: {
      risk: 'irreversible',
      description: 'send the form',
      run: () => {
        log.push('send');
        return 'sent';
      },
    },
  };
}

const onNarrate = (text: string, target: string | undefined): void => {
  log.push(`narrate "${text}"${target ? ` at "${textOf(target)}"` : ''}`);
};

/** The ref the outline in the turn's prompt gives the line starting with `line`. */
function refOf(request: LLMRequest, line: string): string {
  const user = request.messages.filter((message) => message.role === 'user').at(-1)?.content ?? '';
  const match = new RegExp(`\\[(e\\d+)\\] ${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).exec(user);
  if (!match) throw new Error(`no ${line} in the prompt:\n${user}`);
  return match[1] as string;
}

/** The live model: four turns on the page it is shown. */
const LIVE = (request: LLMRequest, call: number): object => {
  switch (call) {
    case 0:
      return {
        todo: 't1',
        actions: [
          { type: 'tool', name: 'navigate', args: { path: '/pricing' } },
          { type: 'narrate', text: 'This is pricing.' },
        ],
      };
    case 1:
      return {
        todo: 't2',
        actions: [
          { type: 'tool', name: 'look', args: {} },
          { type: 'narrate', target: refOf(request, 'article #tier-team'), text: 'Most teams pick Team.' },
          { type: 'tool', name: 'click', args: { target: 'e999' } },
          { type: 'narrate', target: refOf(request, 'region "Compare the plans"'), text: 'Compare them here.' },
        ],
      };
    case 2:
      return { todo: 't3', actions: [{ type: 'tool', name: 'click', args: { target: refOf(request, 'button "Start a trial"') } }] };
    default:
      return {
        todo: 't4',
        last: true,
        actions: [
          { type: 'tool', name: 'fill', args: { target: refOf(request, 'textbox "Your name"'), value: 'Sam Rivera' } },
          { type: 'narrate', target: refOf(request, 'form "Trial"'), text: 'Your name is in.' },
          { type: 'task_finish', summary: 'Showed pricing and the trial form.' },
        ],
      };
  }
};

/** Records the live run and returns its tour and what it did. */
async function recordLive(): Promise<{ tour: Tour; did: string[]; statuses: string[][] }> {
  setUpPage();
  const model = createScriptedProvider(LIVE);
  const plan = new Plan({ llm: createLLMRouter({ default: model, plan: createScriptedProvider([PLAN]) }) });
  const statuses: string[][] = [];
  plan.on('turn-end', () => statuses.push(plan.todos.list().map((todo) => `${todo.id}:${todo.status}`)));
  const result = await runWebAgent({
    plan,
    task: 'Compare the plans and start a trial',
    start: { planInput: { task: 'Compare the plans and start a trial', locale: 'en' } },
    tools: siteTools(),
    user: { narrate: onNarrate },
    page: {
      observe: ({ maxTokens }) => renderOutline(outlinePage({ root: view(), maxTokens: maxTokens * 2 })),
      locators: createTourLocators({ root: view() }),
      url: () => page,
    },
  });
  expect(result.reason).toBe('task_finish');
  statuses.push(result.todos.map((todo) => `${todo.id}:${todo.status}`));
  return { tour: result.tour as Tour, did: [...log], statuses };
}

/** A plan whose model fails the test if it is ever asked. */
function modelFreePlan(): Plan {
  const never: LLMProvider = { generate: () => Promise.reject(new Error('the replay called a model')) };
  return new Plan({ llm: never });
}

function replayOptions(plan: Plan, markup?: (html: string) => string): ReplayTourOptions {
  return {
    plan,
    tools: siteTools(markup),
    user: { narrate: onNarrate },
    page: {
      locators: createTourLocators({ root: view() }),
      url: () => page,
      observe: ({ maxTokens }) => renderOutline(outlinePage({ root: view(), maxTokens: maxTokens * 2 })),
    },
    checks: { origin: 'http://localhost' },
  };
}

describe('runWebAgent records a tour', () => {
  it('holds the task, locale, plan and, per todo, the narrations and tool calls that ran, with targets as locators', async () => {
    const { tour } = await recordLive();
    expect(validateTour(tour, { origin: 'http://localhost' })).toEqual(tour);
    expect(tour).toMatchObject({ format: 'planloop-tour', version: 1, task: 'Compare the plans and start a trial', locale: 'en', summary: PLAN.task_summary });
    expect(tour.todos.map((todo) => todo.description)).toEqual(PLAN.todos.map((todo) => todo.description));
    expect(tour.todos[0]?.steps).toEqual([
      { type: 'tool', name: 'navigate', args: { path: '/pricing' } },
      { type: 'narrate', text: 'This is pricing.' },
    ]);
    // The read-only look and the click that found nothing (ok: false) are not kept; the targets are locators.
    expect(tour.todos[1]?.steps).toEqual([
      {
        type: 'narrate',
        text: 'Most teams pick Team.',
        target: { role: 'article', name: 'Team', landmark: { role: 'region', name: 'Plans' }, heading: 'Pricing' },
      },
      {
        type: 'narrate',
        text: 'Compare them here.',
        target: { role: 'region', name: 'Compare the plans', landmark: { role: 'main', name: '' }, heading: 'Team' },
      },
    ]);
    expect(tour.todos[2]?.steps).toEqual([
      {
        type: 'tool',
        name: 'click',
        args: {},
        targets: { target: { role: 'button', name: 'Start a trial', landmark: { role: 'region', name: 'Plans' }, heading: 'Team' } },
      },
    ]);
    expect(tour.todos[3]?.steps.map((step) => step.type)).toEqual(['tool', 'narrate', 'finish']);
    expect(JSON.stringify(tour)).not.toMatch(/"e\d+"|#tier|\.cta/);
  });

  it('records targets as null without locators, and a replay then needs a model for them', async () => {
    setUpPage();
    const plan = new Plan({ llm: createLLMRouter({ default: createScriptedProvider(LIVE), plan: createScriptedProvider([PLAN]) }) });
    const result = await runWebAgent({
      plan,
      task: 'Compare the plans',
      tools: siteTools(),
      onNarrate,
      observe: ({ maxTokens }) => renderOutline(outlinePage({ root: view(), maxTokens: maxTokens * 2 })),
    });
    expect(result.tour?.todos[2]?.steps).toEqual([{ type: 'tool', name: 'click', args: {}, targets: { target: null } }]);
  });
});

describe('replayTour', () => {
  it('replays the live run with no model call: the same tool calls and narrations in the same order, the same ticks', async () => {
    const live = await recordLive();
    setUpPage();
    const plan = modelFreePlan();
    const statuses: string[][] = [];
    plan.on('turn-end', () => statuses.push(plan.todos.list().map((todo) => `${todo.id}:${todo.status}`)));
    const names: string[] = [];
    plan.onAny((name) => names.push(name));
    const result = await replayTour(live.tour, replayOptions(plan));
    expect(result.modelCalls).toBe(0);
    expect(log).toEqual(live.did);
    expect(statuses).toEqual(live.statuses.slice(0, -1));
    expect(result.todos.map((todo) => `${todo.id}:${todo.status}`)).toEqual(live.statuses.at(-1));
    expect(result).toMatchObject({ reason: 'task_finish', summary: 'Showed pricing and the trial form.', turns: 4, repairs: [] });
    expect(names.filter((name) => ['run-start', 'plan-create', 'turn-start', 'turn-end', 'run-finish'].includes(name))).toEqual([
      'run-start',
      'plan-create',
      ...Array.from({ length: 4 }, () => ['turn-start', 'turn-end']).flat(),
      'run-finish',
    ]);
    // The tour it played, re-located on today's page, is the tour it was given.
    expect(result.tour.todos.map((todo) => todo.steps)).toEqual(live.tour.todos.map((todo) => todo.steps));
  });

  it('still finishes after a redesign: classes renamed, ids dropped, the button moved into another section, the heading reworded', async () => {
    const { tour, did } = await recordLive();
    const redesign = (html: string): string =>
      html
        .replaceAll('class="tier"', 'class="plan-card"')
        .replace(' id="tier-team"', '')
        .replaceAll('class="cta"', 'class="btn btn-primary"')
        .replace('Compare the plans', 'Compare our plans')
        .replace(
          /<button class="btn btn-primary" data-go="\/try">Start a trial<\/button><\/article><\/section>/,
          '</article></section><section aria-label="Get started"><button data-go="/try">Start a trial</button></section>',
        );
    const { markup } = setUpPage(redesign);
    render('/pricing', markup);
    expect(view().innerHTML).not.toMatch(/tier|cta|Compare the plans/);
    expect(view().querySelector('section[aria-label="Get started"] button')).not.toBeNull();
    render('/', markup);
    const result = await replayTour(tour, replayOptions(modelFreePlan(), markup));
    expect(result.modelCalls).toBe(0);
    // The same steps in the same order; only what the page now says around them differs.
    expect(log).toEqual(did.map((line) => line.replace('Compare the plans', 'Compare our plans').replace('Team$12 per member.Start', 'Team$12 per member.')));
  });

  it('refuses a malformed tour before anything runs: no plan change, no tool call, no event', async () => {
    const { tour } = await recordLive();
    setUpPage();
    const plan = modelFreePlan();
    plan.todos.create({ intent: 'narrate', description: 'Already here' });
    const events: string[] = [];
    plan.onAny((name) => events.push(name));
    const broken = structuredClone(tour) as unknown as { todos: Array<{ steps: Array<Record<string, unknown>> }> };
    (broken.todos[0]!.steps[0] as { args: Record<string, unknown> }).args.path = 'javascript:alert(document.cookie)';
    await expect(replayTour(broken as unknown as Tour, replayOptions(plan))).rejects.toMatchObject({
      code: 'tour_invalid',
      issues: [{ path: 'todos[0].steps[0].args.path' }],
    });
    const unknownTool = structuredClone(tour);
    (unknownTool.todos[0]?.steps[0] as { name: string }).name = 'deleteAccount';
    await expect(replayTour(unknownTool, replayOptions(plan))).rejects.toMatchObject({ code: 'tour_invalid', issues: [{ path: 'todos[0].steps[0].name' }] });
    await expect(replayTour(tour, { ...replayOptions(plan), page: { ...replayOptions(plan).page, locators: undefined } })).rejects.toBeInstanceOf(
      ValidationError,
    );
    expect(log).toEqual([]);
    expect(events).toEqual([]);
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(['Already here']);
  });

  it('stops with a TourError naming the step and why when a target is gone and no model was given', async () => {
    const { tour } = await recordLive();
    const removed = (html: string): string => html.replace('<button class="cta" data-go="/try">Start a trial</button>', '');
    const { markup } = setUpPage(removed);
    const plan = modelFreePlan();
    const errors: unknown[] = [];
    plan.on('run-error', ({ error }) => errors.push(error));
    const failure = await replayTour(tour, replayOptions(plan, markup)).catch((error: unknown) => error);
    expect(TourError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'tour_step_failed', step: { todoId: 't3', index: 0, reason: 'not-found' } });
    expect((failure as Error).message).toMatch(/step 1 of todo t3 \("Open the trial form"\).*button "Start a trial"/);
    expect(errors).toEqual([failure]);
    // The todos before it stay done; nothing after it ran.
    expect(plan.todos.list().map((todo) => todo.status)).toEqual(['completed', 'completed', 'in_progress', 'pending']);
    expect(log.some((line) => line.startsWith('fill'))).toBe(false);
  });

  it('hands a step whose target is gone to the model for that todo only, and keeps the repaired step in the tour', async () => {
    const { tour } = await recordLive();
    const moved = (html: string): string =>
      html.replace('<button class="cta" data-go="/try">Start a trial</button>', '<a data-go="/try" href="#try" onclick="return false">Try it free</a>');
    const { markup } = setUpPage(moved);
    const repair = createScriptedProvider((request) => ({
      todo: 't3',
      actions: [{ type: 'tool', name: 'click', args: { target: refOf(request, 'link "Try it free"') } }],
    }));
    const plan = modelFreePlan();
    const result = await replayTour(tour, { ...replayOptions(plan, markup), model: { provider: repair } });
    expect(result.modelCalls).toBe(1);
    expect(result.reason).toBe('task_finish');
    expect(result.repairs).toEqual([{ todoId: 't3', index: 0, reason: 'not-found', message: expect.stringContaining('button "Start a trial"') }]);
    // The model got the page and the tour's step as a hint.
    const prompt = repair.calls[0]?.messages.at(-1)?.content ?? '';
    expect(prompt).toContain('step 1 of t3 could not be replayed');
    // The replay's own bound: four recorded turns and this one; not "the last turn".
    expect(prompt).toContain('Turn 4 of 5.');
    expect(prompt).toContain('click {"target":"button \\"Start a trial\\""}');
    expect(prompt).toContain('link "Try it free"');
    expect(log).toContain('click "Try it free"');
    // The updated tour holds the repaired step, as a locator: it replays with no model on this page.
    expect(result.tour.todos[2]?.steps).toEqual([
      {
        type: 'tool',
        name: 'click',
        args: {},
        targets: { target: { role: 'link', name: 'Try it free', landmark: { role: 'region', name: 'Plans' }, heading: 'Team' } },
      },
    ]);
    render('/', markup);
    log = [];
    const again = await replayTour(result.tour, replayOptions(modelFreePlan(), markup));
    expect(again.modelCalls).toBe(0);
    expect(log).toContain('click "Try it free"');
  });

  it('a repair of the last todo that does not finish still ends the run as a live last turn, every todo done', async () => {
    const { tour } = await recordLive();
    const formless = (html: string): string => html.replace('<form aria-label="Trial">', '<form>');
    const { markup } = setUpPage(formless);
    const repair = createScriptedProvider({ todo: 't4', actions: [{ type: 'narrate', text: 'Your name is in the form.' }] });
    const result = await replayTour(tour, { ...replayOptions(modelFreePlan(), markup), model: { provider: repair } });
    expect(result.repairs).toEqual([{ todoId: 't4', index: 1, reason: 'not-found', message: expect.stringContaining('form "Trial"') }]);
    expect(result.reason).toBe('last_turn');
    expect(result.todos.map((todo) => todo.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(log.slice(-2)).toEqual(['fill "Your name" = Sam Rivera', 'narrate "Your name is in the form."']);
  });

  it('grants no approval: an irreversible step asks the user, and a no behaves as live (refused, the model told)', async () => {
    const { tour } = await recordLive();
    const sending = structuredClone(tour);
    sending.todos[3]?.steps.splice(1, 0, { type: 'tool', name: 'send', args: {} });
    setUpPage();
    const asked: string[] = [];
    const refused: string[] = [];
    const plan = modelFreePlan();
    plan.on('action', ({ action, decision, reason }) => {
      if (decision === 'refused' && action.type === 'tool') refused.push(`${action.name}: ${reason}`);
    });
    const yes = await replayTour(sending, {
      ...replayOptions(plan),
      approval: { level: 'irreversible', ask: (request) => (asked.push(`${request.tool} ${request.risk}`), true) },
    });
    expect(asked).toEqual(['send irreversible']);
    expect(log).toContain('send');
    expect(yes.modelCalls).toBe(0);

    // Without a hook the send is refused, as live; the rest of the todo runs; no model: the replay stops there.
    setUpPage();
    const failure = await replayTour(sending, replayOptions(plan)).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'tour_step_failed', step: { todoId: 't4', index: 1, reason: 'refused' } });
    expect(refused.at(-1)).toMatch(/^send: irreversible actions need the user's approval/);
    expect(log).not.toContain('send');
    expect(log.at(-1)).toMatch(/^narrate "Your name is in\."/);

    // With a model, the refusal goes to it as to a live run's next turn.
    setUpPage();
    const model = createScriptedProvider({
      todo: 't4',
      last: true,
      actions: [
        { type: 'narrate', text: 'I did not send the form.' },
        { type: 'task_finish', summary: 'Not sent.' },
      ],
    });
    const told = await replayTour(sending, { ...replayOptions(modelFreePlan()), model: { provider: model } });
    expect(model.calls[0]?.messages.at(-1)?.content).toMatch(/send was not run: irreversible actions need the user's approval/);
    expect(told).toMatchObject({ reason: 'task_finish', summary: 'Not sent.', modelCalls: 1 });
  });

  it("checks a todo's evidence after its steps when the host evaluates checks", async () => {
    const { tour } = await recordLive();
    const checked = structuredClone(tour);
    (checked.todos[0] as { check?: Record<string, unknown> }).check = { path: '/pricing' };
    (checked.todos[2] as { check?: Record<string, unknown> }).check = { path: '/checkout' };
    setUpPage();
    const seen: string[] = [];
    const failure = await replayTour(checked, {
      ...replayOptions(modelFreePlan()),
      checks: {
        origin: 'http://localhost',
        checkTodo: (check, todo) => (seen.push(`${todo.id} ${String(check.path)}`), page === check.path || `the page is at ${page}, not ${String(check.path)}`),
      },
    }).catch((error: unknown) => error);
    expect(seen).toEqual(['t1 /pricing', 't3 /checkout']);
    expect(failure).toMatchObject({ code: 'tour_step_failed', step: { todoId: 't3', index: 1, reason: 'check-failed' } });
    expect((failure as Error).message).toContain('the page is at /try, not /checkout');
  });

  it('judges a recorded TodoCheck as a live run does when the host gives no checkTodo: the url by page.url, visible by page.check', async () => {
    const { tour } = await recordLive();
    const checked = structuredClone(tour);
    (checked.todos[0] as { check?: Record<string, unknown> }).check = { kind: 'url', pattern: '/pricing' };
    (checked.todos[1] as { check?: Record<string, unknown> }).check = { kind: 'visible', name: 'Team' };
    (checked.todos[2] as { check?: Record<string, unknown> }).check = { kind: 'url', pattern: '/checkout' };
    setUpPage();
    const asked: string[] = [];
    const options = replayOptions(modelFreePlan());
    const failure = await replayTour(checked, {
      ...options,
      page: { ...options.page, check: (check) => (asked.push(check.kind), { ok: true }) },
    }).catch((error: unknown) => error);
    expect(asked).toEqual(['visible']);
    expect(failure).toMatchObject({ code: 'tour_step_failed', step: { todoId: 't3', reason: 'check-failed' } });
    expect((failure as Error).message).toContain('the page is not at /checkout');
  });

  it("is a run: the plan's current run, its state through the phases, its events on the run, an approval waiting in its state", async () => {
    const { tour } = await recordLive();
    const sending = structuredClone(tour);
    sending.todos[3]?.steps.splice(1, 0, { type: 'tool', name: 'send', args: {} });
    setUpPage();
    const plan = modelFreePlan();
    const phases: RunPhase[] = [];
    const onRun: string[] = [];
    let replaying: Run | undefined;
    followRuns(plan, (run) => {
      replaying = run;
      run.subscribe((state) => {
        if (phases.at(-1) !== state.phase) phases.push(state.phase);
        // The tour grants no approval: the request waits in the run's state, answered through the run.
        if (state.approval) queueMicrotask(() => run.answer(state.approval!.id, { approved: true }));
      });
      run.on('turn-end', ({ turn }) => onRun.push(`turn-end ${turn}`));
    });
    const result = await replayTour(sending, { ...replayOptions(plan), approval: { ask: 'state', level: 'irreversible' }, start: { announce: () => true } });
    expect(result.reason).toBe('task_finish');
    expect(log).toContain('send');
    expect(replaying?.runId).toBe(result.runId);
    expect(phases).toEqual(['starting', 'announcing', 'running', 'finished']);
    expect(replaying?.state).toMatchObject({
      phase: 'finished',
      turn: 4,
      maxTurns: 4,
      approval: null,
      end: { reason: 'task_finish', summary: 'Showed pricing and the trial form.' },
    });
    expect(onRun).toEqual(['turn-end 1', 'turn-end 2', 'turn-end 3', 'turn-end 4']);
  });

  it("keeps the host's secrets (page.secrets) out of a repair turn's prompt, whatever the page shows", async () => {
    const { tour } = await recordLive();
    const secret = 'Orbit-Key-9931';
    const moved = (html: string): string =>
      html.replace(
        '<button class="cta" data-go="/try">Start a trial</button>',
        `<a data-go="/try" href="#try" onclick="return false">Try it free</a><p>Your key is ${secret}</p>`,
      );
    const { markup } = setUpPage(moved);
    const repair = createScriptedProvider((request) => ({
      todo: 't3',
      actions: [{ type: 'tool', name: 'click', args: { target: refOf(request, 'link "Try it free"') } }],
    }));
    const options = replayOptions(modelFreePlan(), markup);
    const result = await replayTour(tour, { ...options, page: { ...options.page, secrets: { key: secret } }, model: { provider: repair } });
    expect(result.modelCalls).toBe(1);
    const seen = repair.calls.flatMap((call) => call.messages.map((message) => message.content)).join('\n');
    expect(seen).toContain('Your key is [secret]');
    expect(seen.toLowerCase()).not.toContain(secret.toLowerCase());
  });

  it('stops on an abort as a live run does', async () => {
    const { tour } = await recordLive();
    setUpPage();
    const controller = new AbortController();
    const plan = modelFreePlan();
    const waiting = replayTour(tour, {
      ...replayOptions(plan),
      signal: controller.signal,
      user: {
        narrate: (text) => {
          log.push(text);
          controller.abort();
          return new Promise(() => undefined);
        },
      },
    });
    const error = await waiting.catch((caught: unknown) => caught);
    expect(AbortError.isInstance(error)).toBe(true);
    expect(isPlanloopError(error, 'aborted')).toBe(true);
    expect(log).toEqual(['navigate /pricing', 'This is pricing.']);
  });
});
