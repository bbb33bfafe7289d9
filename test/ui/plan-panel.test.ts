// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { Plan } from '../../src/plan.js';
import { createMemoryAdapter } from '../../src/storage/memory.js';
import { PLAN_PANEL_STRINGS, PlanPanelElement, definePlanPanel, type PanelApprovalRequest, type PlanPanelStrings } from '../../src/ui/index.js';
import { emitPlanEvent } from '../../src/plan/emit-plan-event.js';
import { ProviderError } from '../../src/model-errors.js';
import { createFunctionProvider } from '../../src/llm/function-provider.js';
import { createLLMRouter } from '../../src/llm/provider.js';
import { createScriptedProvider, type ScriptedResponses } from '../../src/llm/scripted.js';
import { startRun } from '../../src/loop/start-run.js';

function mount(plan: Plan | null = new Plan()): PlanPanelElement {
  definePlanPanel();
  const panel = document.createElement('plan-panel');
  panel.plan = plan;
  document.body.append(panel);
  return panel;
}

const shadow = (panel: PlanPanelElement): ShadowRoot => panel.shadowRoot as ShadowRoot;
const items = (panel: PlanPanelElement) => Array.from(shadow(panel).querySelectorAll('li'));
const texts = (panel: PlanPanelElement) => items(panel).map((item) => item.textContent);
const meta = (panel: PlanPanelElement) => shadow(panel).querySelector('.meta')?.textContent;

// The panel's runs only claim their todos (no page moves here): they stay on the model's word.
const seedTodos = [
  { intent: 'navigate', description: 'Open the pricing page', check: { kind: 'none' as const } },
  { intent: 'narrate', description: 'Explain the three tiers', check: { kind: 'none' as const } },
  { intent: 'finish', description: 'Wrap up' },
];

function seed(plan: Plan): void {
  plan.todos.reset(seedTodos);
}

afterEach(() => {
  document.body.replaceChildren();
});

/** Waits until `check` holds (a run moves on in its own time). */
async function until(check: () => boolean): Promise<void> {
  for (let tries = 0; !check(); tries++) {
    if (tries > 500) throw new Error('waited too long');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A turn model whose turn `at` (0-based) waits for `release()`; every turn answers `answer(call)`. */
function heldTurns(at: number, answer: (call: number) => unknown) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reached = false;
  const model = createScriptedProvider(async (_request, call) => {
    if (call === at) {
      reached = true;
      await held;
    }
    return answer(call) as never;
  });
  return { model, release, reached: () => reached };
}

/** A planner that streams `summary` in pieces, waits for `release()`, then answers `then` (an Error fails it). */
function heldPlanner(summary: string, then: unknown) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const text = JSON.stringify(then instanceof Error ? { task_summary: summary } : then);
  const streamed = text.slice(0, text.indexOf(summary) + summary.length);
  const planner = createFunctionProvider(async function* () {
    yield streamed.slice(0, -4);
    yield streamed.slice(-4);
    await held;
    if (then instanceof Error) throw then;
    yield text.slice(streamed.length);
  });
  return { planner, release };
}

const runnable = (turns: ScriptedResponses | ReturnType<typeof heldTurns>['model'], planner: ReturnType<typeof heldPlanner>['planner'] | ScriptedResponses) => {
  const model = typeof turns === 'object' && turns !== null && 'generate' in turns ? turns : createScriptedProvider(turns as ScriptedResponses);
  const plans = typeof planner === 'object' && planner !== null && 'generate' in planner ? planner : createScriptedProvider(planner as ScriptedResponses);
  return new Plan({ llm: createLLMRouter({ default: model, plan: plans }) });
};

describe('definePlanPanel', () => {
  it('registers nothing on import, then registers the tag once, idempotently', () => {
    // This test runs first in the file: importing the module has registered nothing.
    expect(customElements.get('plan-panel')).toBeUndefined();
    const first = definePlanPanel();
    expect(definePlanPanel()).toBe(first);
    expect(customElements.get('plan-panel')).toBe(first);
    expect(first.prototype).toBeInstanceOf(PlanPanelElement);
  });

  it('accepts another tag name and refuses one taken by another element', () => {
    const Panel = definePlanPanel('tour-steps');
    expect(document.createElement('tour-steps')).toBeInstanceOf(Panel);
    customElements.define('taken-tag', class extends HTMLElement {});
    expect(() => definePlanPanel('taken-tag')).toThrow(/already defined by another element/);
  });
});

describe('<plan-panel>', () => {
  it('shows each todo with its status in words, as an accessible list', () => {
    const plan = new Plan();
    seed(plan);
    const panel = mount(plan);
    const list = shadow(panel).querySelector('ol');
    expect(list?.getAttribute('role')).toBe('list');
    expect(items(panel).every((item) => item.getAttribute('role') === 'listitem')).toBe(true);
    expect(texts(panel)).toEqual(['○Open the pricing pagePending', '○Explain the three tiersPending', '○Wrap upPending']);
    expect(meta(panel)).toBe('0 of 3 done');
  });

  it('follows the plan: in progress, done, aria-current and polite announcements', () => {
    const plan = new Plan();
    seed(plan);
    const panel = mount(plan);
    plan.adjust({}, { inProgress: 't1' });
    expect(items(panel)[0]?.getAttribute('aria-current')).toBe('step');
    expect(items(panel)[0]?.querySelector('.status')?.textContent).toBe('In progress');
    expect(panel.announcement).toBe('Now: Open the pricing page.');

    plan.adjust({ remove: ['t1'] }, { inProgress: 't2' });
    expect(items(panel).map((item) => item.dataset.status)).toEqual(['completed', 'in_progress', 'pending']);
    expect(items(panel)[0]?.hasAttribute('aria-current')).toBe(false);
    expect(items(panel)[1]?.getAttribute('aria-current')).toBe('step');
    // Completed on the model's word (no check): said so.
    expect(panel.announcement).toBe('Done (not checked): Open the pricing page. Now: Explain the three tiers.');
    expect(items(panel)[0]?.querySelector('.status')?.textContent).toBe('Done (not checked)');
    expect(meta(panel)).toBe('1 of 3 done');
    const live = shadow(panel).querySelector('[aria-live]');
    expect(live?.getAttribute('aria-live')).toBe('polite');
  });

  it("streams the summary while planning, then shows the current turn and the end of the run, read from the run's state", async () => {
    const turns = heldTurns(
      1,
      (call) =>
        [
          { todo: 't1', actions: [{ type: 'narrate', text: 'Pricing.' }] },
          { todo: 't2', actions: [{ type: 'narrate', text: 'Tiers.' }] },
          { todo: 't3', last: true, actions: [{ type: 'task_finish', summary: 'Toured pricing.' }] },
        ][call],
    );
    const planning = heldPlanner('Tour the pricing page.', { task_summary: 'Tour the pricing page.', todos: seedTodos });
    const plan = runnable(turns.model, planning.planner);
    const panel = mount(plan);
    const run = startRun(plan, { task: 'Tour pricing' });
    await until(() => panel.summary === 'Tour the pricing page.');
    expect(meta(panel)).toBe('Planning…');
    planning.release();
    await until(turns.reached);
    // Turn 2 waits for the model: turn 1's step is the one in progress.
    expect(panel.announcement).toBe('Now: Open the pricing page.');
    expect(meta(panel)).toBe('0 of 3 done · Turn 2 of 5');
    expect(panel.dataset.turn).toBe('2');
    turns.release();
    await run.result;
    expect(meta(panel)).toBe('3 of 3 done · Finished');
    expect(panel.announcement).toBe('Finished. Toured pricing.');
    // The next run fails in a turn: stopped by that error.
    plan.todos.reset(seedTodos);
    const failing = runnable([new ProviderError('provider_error', 'model offline', { provider: 'test', retryable: false })], []);
    const other = mount(failing);
    failing.setTaskPlan({ summary: 'Tour the pricing page.', todos: seedTodos, task: 'Tour pricing' });
    await startRun(failing, { task: 'Tour pricing' }).result.catch(() => undefined);
    expect(other.announcement).toBe('Stopped: model offline');
    expect(meta(other)).toBe('0 of 3 done · Stopped by an error');
  });

  it('puts the summary back when planning a new plan fails, and says it is planning meanwhile', async () => {
    const planning = heldPlanner('I will show you the d', new ProviderError('provider_error', 'model offline', { provider: 'test', retryable: false }));
    const plan = runnable([], planning.planner);
    seed(plan);
    const panel = mount(plan);
    panel.summary = 'Tour the pricing page.';
    const run = startRun(plan, { task: 'Show me the docs', start: { resume: false } });
    await until(() => panel.summary === 'I will show you the d');
    expect(meta(panel)).toBe('0 of 3 done · Planning…');
    // The planning call fails: the todos shown are still the old plan's, which never ran, so
    // nothing says it was stopped.
    planning.release();
    await run.result.catch(() => undefined);
    expect(run.state.end).toMatchObject({ reason: 'error', during: 'planning' });
    expect(panel.summary).toBe('Tour the pricing page.');
    expect(meta(panel)).toBe('0 of 3 done');
    expect(panel.announcement).toBe('No new plan: model offline');

    // A planning call that succeeds keeps its summary, also when a turn fails later.
    const next = runnable(
      [new ProviderError('provider_error', 'model offline', { provider: 'test', retryable: false })],
      [{ task_summary: 'Docs tour.', todos: seedTodos }],
    );
    panel.plan = next;
    await startRun(next, { task: 'Show me the docs' }).result.catch(() => undefined);
    expect(panel.summary).toBe('Docs tour.');
    expect(meta(panel)).toBe('0 of 3 done · Stopped by an error');
  });

  it('a new ask that fails before its plan exists leaves a finished plan labelled finished', async () => {
    // The planner: a plan, then an HTTP 401, then a plan that starts streaming and never ends.
    const planner = createFunctionProvider(async function* (request) {
      const call = (planned += 1);
      if (call === 1) yield JSON.stringify({ task_summary: 'Tour the pricing page.', todos: seedTodos });
      else if (call === 2) throw new ProviderError('provider_error', 'openai-compatible answered HTTP 401', { provider: 'test', retryable: false });
      else {
        yield '{"task_summary":"Docs tour, ';
        await new Promise((_resolve, reject) => request.signal?.addEventListener('abort', () => reject(request.signal?.reason)));
      }
    });
    let planned = 0;
    const plan = runnable([{ todo: 't3', last: true, actions: [{ type: 'task_finish', summary: 'Done.' }] }], planner);
    const panel = mount(plan);
    await startRun(plan, { task: 'Tour pricing' }).result;
    expect(meta(panel)).toBe('3 of 3 done · Finished');

    await startRun(plan, { task: 'How do I get a refund?' }).result.catch(() => undefined);
    expect(meta(panel)).toBe('3 of 3 done · Finished');
    expect(panel.summary).toBe('Tour the pricing page.');
    expect(panel.announcement).toBe('No new plan: openai-compatible answered HTTP 401');
    // Stopping a new ask before its plan exists says so, and also leaves the finished plan alone.
    const stopped = startRun(plan, { task: 'Show me the docs' });
    await until(() => panel.summary.startsWith('Docs tour'));
    expect(meta(panel)).toBe('3 of 3 done · Planning…');
    stopped.stop();
    await stopped.result.catch(() => undefined);
    expect(meta(panel)).toBe('3 of 3 done · Finished');
    expect(panel.summary).toBe('Tour the pricing page.');
    expect(panel.announcement).toBe('Stopped before a new plan was made.');
  });

  it('drops the summary when the plan is emptied (declined or cleared)', () => {
    const plan = new Plan();
    seed(plan);
    const panel = mount(plan);
    panel.summary = 'Tour the pricing page.';
    plan.todos.reset();
    expect(panel.summary).toBe('');
    expect(shadow(panel).querySelector('.empty')?.hasAttribute('hidden')).toBe(false);
  });

  it('renders model text as text, never as HTML', () => {
    const plan = new Plan();
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    plan.todos.create({ intent: 'narrate', description: hostile });
    const panel = mount(plan);
    emitPlanEvent(plan, 'summary-delta', { delta: hostile, text: hostile });
    expect(shadow(panel).querySelector('img, script:not(style)')).toBeNull();
    expect(items(panel)[0]?.querySelector('.text')?.textContent).toBe(hostile);
    expect(panel.summary).toBe(hostile);
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('unsubscribes when removed from the page and when given another plan', () => {
    const first = new Plan();
    seed(first);
    const panel = mount(first);
    panel.remove();
    first.todos.edit('t1', { status: 'completed' });
    expect(items(panel)[0]?.dataset.status).toBe('pending');
    document.body.append(panel);
    expect(items(panel)[0]?.dataset.status).toBe('completed');

    const second = new Plan();
    second.todos.create({ intent: 'ask', description: 'Ask which plan fits' });
    panel.plan = second;
    expect(texts(panel)).toEqual(['○Ask which plan fitsPending']);
    first.todos.edit('t2', { status: 'completed' });
    emitPlanEvent(first, 'summary-delta', { delta: 'x', text: 'stale' });
    expect(texts(panel)).toEqual(['○Ask which plan fitsPending']);
    expect(panel.summary).toBe('');
    panel.plan = null;
    expect(items(panel)).toEqual([]);
    expect(shadow(panel).querySelector('.empty')?.hasAttribute('hidden')).toBe(false);
  });

  it('keeps one todo in the tab order and moves between todos with the arrow keys', () => {
    const plan = new Plan();
    seed(plan);
    const panel = mount(plan);
    const tabIndexes = () => items(panel).map((item) => item.tabIndex);
    expect(tabIndexes()).toEqual([0, -1, -1]);
    // Until the user moves it, the tab stop follows the todo in progress.
    plan.adjust({}, { inProgress: 't2' });
    expect(tabIndexes()).toEqual([-1, 0, -1]);
    plan.adjust({ remove: ['t2'] }, { inProgress: 't1' });
    expect(tabIndexes()).toEqual([0, -1, -1]);
    const list = shadow(panel).querySelector('ol') as HTMLOListElement;
    const press = (key: string) => list.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    press('ArrowDown');
    expect(tabIndexes()).toEqual([-1, 0, -1]);
    expect(shadow(panel).activeElement).toBe(items(panel)[1]);
    press('End');
    expect(tabIndexes()).toEqual([-1, -1, 0]);
    press('ArrowDown');
    expect(tabIndexes()).toEqual([-1, -1, 0]);
    press('Home');
    press('ArrowUp');
    expect(tabIndexes()).toEqual([0, -1, -1]);
    // The focused todo keeps its place in the tab order across updates.
    press('ArrowDown');
    plan.adjust({ remove: ['t1'] }, { inProgress: 't3' });
    expect(tabIndexes()).toEqual([-1, 0, -1]);
  });

  it('announces a plan restored from storage', async () => {
    const storage = createMemoryAdapter({
      version: 1,
      todos: [
        { id: 't1', intent: 'navigate', description: 'Open pricing', status: 'completed' },
        { id: 't2', intent: 'narrate', description: 'Explain tiers', status: 'pending' },
      ],
      markdownDocs: [],
    });
    const plan = new Plan({ storage });
    const panel = mount(plan);
    plan.attachTo({});
    await plan.ready;
    expect(items(panel).map((item) => item.dataset.status)).toEqual(['completed', 'pending']);
    expect(panel.announcement).toBe('Restored a plan: 1 of 2 steps left.');
  });

  it('takes its heading from the heading attribute', () => {
    const panel = mount();
    expect(shadow(panel).querySelector('h2')?.textContent).toBe('Plan');
    panel.setAttribute('heading', 'Tour steps');
    expect(shadow(panel).querySelector('h2')?.textContent).toBe('Tour steps');
  });
});

describe('<plan-panel> and the stored summary', () => {
  it('shows the summary of a plan restored from storage, and of a plan attached later', async () => {
    const storage = createMemoryAdapter({
      version: 1,
      taskSummary: 'A look at the pricing page',
      todos: [{ id: 't1', intent: 'navigate', description: 'Open the pricing page', status: 'completed' }],
      markdownDocs: [],
    });
    const restored = new Plan({ storage });
    const panel = mount(restored);
    await restored.ready;
    expect(shadow(panel).querySelector('.summary')?.textContent).toBe('A look at the pricing page');

    const other = mount(restored);
    expect(shadow(other).querySelector('.summary')?.textContent).toBe('A look at the pricing page');
  });
});

describe('<plan-panel> defined after use', () => {
  it('takes a plan set on the element before definePlanPanel() registered the tag', () => {
    const plan = new Plan();
    const panel = document.createElement('lazy-plan-panel') as unknown as PlanPanelElement;
    (panel as unknown as { plan: Plan }).plan = plan; // an own property: the class is not defined yet
    document.body.append(panel);
    definePlanPanel('lazy-plan-panel'); // upgrades the element
    seed(plan);
    expect(panel.plan).toBe(plan);
    expect(texts(panel)).toHaveLength(3);
  });

  it('keeps a summary the host set before definePlanPanel() along with the plan', () => {
    const plan = new Plan();
    const panel = document.createElement('lazy-plan-panel-2') as unknown as PlanPanelElement;
    (panel as unknown as { summary: string }).summary = 'Our own words';
    (panel as unknown as { plan: Plan }).plan = plan;
    document.body.append(panel);
    definePlanPanel('lazy-plan-panel-2');
    expect(panel.plan).toBe(plan);
    expect(panel.summary).toBe('Our own words');
    expect(shadow(panel).querySelector('.summary')?.textContent).toBe('Our own words');
  });
});

describe('<plan-panel> follows the plan summary on resets', () => {
  it('drops an old summary when the host resets to other todos, and shows a new plan summary', () => {
    const plan = new Plan();
    const panel = mount(plan);
    plan.setTaskPlan({ summary: 'A look at pricing', todos: [{ intent: 'narrate', description: 'Explain tiers' }] });
    expect(shadow(panel).querySelector('.summary')?.textContent).toBe('A look at pricing');
    plan.todos.reset([{ intent: 'narrate', description: 'From a checklist' }]);
    expect(shadow(panel).querySelector('.summary')?.textContent).toBe('');
  });
});

describe('<plan-panel> review: the user shapes the plan before it runs', () => {
  const planned = () => {
    const plan = new Plan();
    plan.setTaskPlan({
      summary: 'A look at pricing',
      todos: [
        { intent: 'navigate', description: 'Open the pricing page', expected_turn: 1 },
        { intent: 'narrate', description: 'Explain the three tiers', expected_turn: 2 },
        { intent: 'finish', description: 'Wrap up', expected_turn: 3 },
      ],
    });
    return plan;
  };
  const item = (panel: PlanPanelElement, index: number) => items(panel)[index] as HTMLLIElement;
  const key = (target: Element, keyName: string, init: KeyboardEventInit = {}) =>
    target.dispatchEvent(new KeyboardEvent('keydown', { key: keyName, bubbles: true, composed: true, cancelable: true, ...init }));
  const descriptions = (plan: Plan) => plan.todos.list().map((todo) => todo.description);
  const button = (panel: PlanPanelElement, selector: string) => shadow(panel).querySelector(selector) as HTMLButtonElement;

  it('edits a step with Enter, keeps the old text on Escape or when emptied, and the plan holds the edit', async () => {
    const plan = planned();
    const panel = mount(plan);
    panel.setAttribute('approve-label', 'Start the tour');
    const review = panel.review();
    expect(panel.reviewing).toBe(true);
    expect(panel.dataset.reviewing).toBe('true');
    expect(shadow(panel).activeElement).toBe(button(panel, '.approve'));
    expect(button(panel, '.approve').textContent).toBe('Start the tour');
    expect(panel.announcement).toBe('Review the plan: 3 steps. Change them if you like, then choose “Start the tour”.');

    item(panel, 1).focus();
    key(item(panel, 1), 'Enter');
    const input = item(panel, 1).querySelector('input') as HTMLInputElement;
    expect(shadow(panel).activeElement).toBe(input);
    input.value = 'Explain Team and Business only';
    key(input, 'Enter');
    expect(plan.todos.get('t2')?.description).toBe('Explain Team and Business only');
    expect(item(panel, 1).querySelector('.text')?.textContent).toBe('Explain Team and Business only');
    expect(shadow(panel).activeElement).toBe(item(panel, 1));
    expect(panel.announcement).toBe('Step changed to “Explain Team and Business only”.');

    key(item(panel, 1), 'F2');
    (item(panel, 1).querySelector('input') as HTMLInputElement).value = 'Something else';
    key(item(panel, 1).querySelector('input') as HTMLInputElement, 'Escape');
    expect(plan.todos.get('t2')?.description).toBe('Explain Team and Business only');
    expect(panel.reviewing).toBe(true); // Escape in the editor closes the editor only

    key(item(panel, 1), 'Enter');
    (item(panel, 1).querySelector('input') as HTMLInputElement).value = '   ';
    key(item(panel, 1).querySelector('input') as HTMLInputElement, 'Enter');
    expect(plan.todos.get('t2')?.description).toBe('Explain Team and Business only');
    expect(panel.announcement).toBe('A step needs some text: the old text was kept.');

    button(panel, '.approve').click();
    await expect(review).resolves.toBe(true);
    expect(panel.reviewing).toBe(false);
    expect(panel.dataset.reviewing).toBeUndefined();
    expect(item(panel, 1).querySelector('.controls')).toBeNull();
  });

  it('removes a step with Delete, brings it back in place with Ctrl+Z or Undo (under a new id)', () => {
    const plan = planned();
    const panel = mount(plan);
    void panel.review();
    item(panel, 1).focus();
    key(item(panel, 1), 'Delete');
    expect(descriptions(plan)).toEqual(['Open the pricing page', 'Wrap up']);
    expect(shadow(panel).activeElement).toBe(item(panel, 1)); // the focus moves to the next step
    expect(shadow(panel).querySelector('.undo')?.hasAttribute('hidden')).toBe(false);
    expect(shadow(panel).querySelector('.undo')?.textContent).toBe('Removed “Explain the three tiers”. Undo');
    expect(panel.announcement).toBe('Removed “Explain the three tiers”. Undo brings it back (Ctrl+Z).');

    key(item(panel, 1), 'z', { ctrlKey: true });
    expect(descriptions(plan)).toEqual(['Open the pricing page', 'Explain the three tiers', 'Wrap up']);
    expect(plan.todos.list()[1]).toMatchObject({ id: 't4', intent: 'narrate', status: 'pending', expected_turn: 2 });
    expect(shadow(panel).activeElement).toBe(item(panel, 1));
    expect(shadow(panel).querySelector('.undo')?.hasAttribute('hidden')).toBe(true);

    key(item(panel, 0), 'Backspace');
    key(item(panel, 0), 'Backspace');
    expect(descriptions(plan)).toEqual(['Wrap up']);
    button(panel, '.undo button').click();
    expect(descriptions(plan)).toEqual(['Explain the three tiers', 'Wrap up']);
  });

  it('moves steps with Alt+ArrowUp/Down and the step buttons; approving renumbers the predicted turns', async () => {
    const plan = planned();
    const panel = mount(plan);
    const review = panel.review();
    item(panel, 0).focus();
    key(item(panel, 0), 'ArrowDown', { altKey: true });
    expect(plan.todos.list().map((todo) => todo.id)).toEqual(['t2', 't1', 't3']);
    expect(shadow(panel).activeElement?.getAttribute('data-id')).toBe('t1');
    expect(panel.announcement).toBe('Moved “Open the pricing page” to step 2 of 3.');
    key(item(panel, 1), 'ArrowUp', { altKey: true });
    key(item(panel, 0), 'ArrowUp', { altKey: true }); // already first: nothing
    expect(plan.todos.list().map((todo) => todo.id)).toEqual(['t1', 't2', 't3']);

    // A pointer or a finger: select a step, then its buttons.
    item(panel, 2).focus();
    const down = item(panel, 2).querySelector('[data-action="down"]') as HTMLButtonElement;
    expect(down.disabled).toBe(true);
    expect(down.getAttribute('aria-label')).toBe('Move step 3 down');
    (item(panel, 2).querySelector('[data-action="up"]') as HTMLButtonElement).click();
    expect(plan.todos.list().map((todo) => todo.id)).toEqual(['t1', 't3', 't2']);
    (item(panel, 0).querySelector('[data-action="remove"]') as HTMLButtonElement).click();
    expect(plan.todos.list().map((todo) => todo.id)).toEqual(['t3', 't2']);

    button(panel, '.approve').click();
    await expect(review).resolves.toBe(true);
    expect(plan.todos.list().map((todo) => [todo.id, todo.expected_turn])).toEqual([
      ['t3', 2],
      ['t2', 3],
    ]);
  });

  it('declines with Escape or the decline button, rejects on abort, and only pending steps can change', async () => {
    const plan = planned();
    plan.adjust({}, { inProgress: 't1' });
    const panel = mount(plan);
    const first = panel.review({ focus: false });
    expect(panel.review()).toBe(first);
    expect(item(panel, 0).querySelector('.controls')).toBeNull(); // in progress: not the user's to change
    key(item(panel, 0), 'Delete');
    expect(plan.todos.list()).toHaveLength(3);
    key(item(panel, 0), 'Escape');
    await expect(first).resolves.toBe(false);
    expect(panel.announcement).toBe('Plan declined.');

    panel.setAttribute('decline-label', 'Cancel');
    const second = panel.review();
    expect(button(panel, '.decline').textContent).toBe('Cancel');
    button(panel, '.decline').click();
    await expect(second).resolves.toBe(false);

    const controller = new AbortController();
    const third = panel.review({ signal: controller.signal });
    controller.abort(new Error('stopped'));
    await expect(third).rejects.toThrow('stopped');
    expect(panel.reviewing).toBe(false);
    await expect(panel.review({ signal: controller.signal })).rejects.toThrow('stopped');
    expect(panel.reviewing).toBe(false);
  });

  it('approve() and decline() end a review for a host key, and do nothing without one', async () => {
    const plan = planned();
    const panel = mount(plan);
    panel.approve();
    panel.decline();
    expect(panel.reviewing).toBe(false);
    const first = panel.review();
    panel.approve();
    await expect(first).resolves.toBe(true);
    const second = panel.review();
    panel.decline();
    await expect(second).resolves.toBe(false);
    expect(plan.todos.list()).toHaveLength(3);
  });

  it('cannot approve a plan with nothing left to run, and ends the review when given another plan', async () => {
    const plan = planned();
    const panel = mount(plan);
    const review = panel.review();
    for (const id of ['t1', 't2', 't3']) plan.todos.delete(id);
    expect(button(panel, '.approve').disabled).toBe(true);
    panel.plan = new Plan();
    await expect(review).resolves.toBe(false);
    expect(panel.reviewing).toBe(false);
  });
});

describe('<plan-panel> shows the plan state', () => {
  it('follows moves, host edits and a rolled-back turn from plan.state alone', () => {
    const plan = new Plan();
    seed(plan);
    const panel = mount(plan);
    plan.todos.move('t3', 0);
    expect(items(panel).map((entry) => entry.dataset.id)).toEqual(['t3', 't1', 't2']);
    const turn = plan.transaction();
    turn.adjust({ remove: ['t3'] }, { inProgress: 't1' });
    expect(items(panel).map((entry) => entry.dataset.status)).toEqual(['completed', 'in_progress', 'pending']);
    expect(panel.announcement).toBe('Done (not checked): Wrap up. Now: Open the pricing page.');
    turn.rollback();
    expect(items(panel).map((entry) => entry.dataset.status)).toEqual(['pending', 'pending', 'pending']);
    expect(meta(panel)).toBe('0 of 3 done');
    expect(items(panel).map((entry) => entry.textContent)).toEqual(plan.state.todos.map((todo) => `○${todo.description}Pending`));
  });
});

describe('<plan-panel> without a mouse (issue 24)', () => {
  const planned = () => {
    const plan = new Plan();
    plan.setTaskPlan({
      summary: 'A look at pricing',
      todos: [
        { intent: 'navigate', description: 'Open the pricing page' },
        { intent: 'narrate', description: 'Explain the three tiers', check: { kind: 'none' as const } },
        { intent: 'finish', description: 'Wrap up' },
      ],
    });
    return plan;
  };
  const active = (panel: PlanPanelElement) => shadow(panel).activeElement as HTMLElement | null;

  it("puts the selected step's edit, move and remove buttons in the Tab order, named", () => {
    const panel = mount(planned());
    void panel.review();
    const item = items(panel)[1] as HTMLLIElement;
    item.focus();
    const buttons = Array.from(item.querySelectorAll<HTMLButtonElement>('.controls button'));
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual(['Edit step 2', 'Move step 2 up', 'Move step 2 down', 'Remove step 2']);
    // Tab reaches them: none is taken out of the tab order.
    expect(buttons.map((button) => button.tabIndex)).toEqual([0, 0, 0, 0]);
  });

  it('a move pressed on its button keeps the focus on the button, to press it again', () => {
    const plan = planned();
    const panel = mount(plan);
    void panel.review();
    (items(panel)[0] as HTMLLIElement).focus();
    const down = (items(panel)[0] as HTMLLIElement).querySelector('[data-action="down"]') as HTMLButtonElement;
    down.focus();
    down.click();
    expect(plan.todos.list().map((todo) => todo.id)).toEqual(['t2', 't1', 't3']);
    expect(active(panel)).toBe(down);
    expect(down.getAttribute('aria-label')).toBe('Move step 2 down');
    down.click(); // now last: the button turns disabled, the focus goes to the step
    expect(active(panel)).toBe(items(panel)[2]);
  });

  it('when the review closes under the focus, the focus goes to the host’s element or the status line, not to the body', async () => {
    const panel = mount(planned());
    const first = panel.review();
    expect(active(panel)?.className).toBe('approve');
    (shadow(panel).querySelector('.approve') as HTMLButtonElement).click();
    await first;
    expect(document.activeElement).toBe(panel);
    expect(active(panel)).toBe(shadow(panel).querySelector('.meta'));

    const stop = document.createElement('button');
    document.body.append(stop);
    const seen: boolean[] = [];
    const second = panel.review({
      returnFocus: (approved) => {
        seen.push(approved);
        return stop;
      },
    });
    (shadow(panel).querySelector('.decline') as HTMLButtonElement).click();
    await second;
    expect(seen).toEqual([false]);
    expect(document.activeElement).toBe(stop);

    // The focus elsewhere on the page stays where it is.
    const third = panel.review({ focus: false });
    panel.approve();
    await third;
    expect(document.activeElement).toBe(stop);
  });

  it('takes every word from `strings`, and the attributes win over them', () => {
    const plan = planned();
    const panel = mount(plan);
    const german: PlanPanelStrings = {
      ...PLAN_PANEL_STRINGS,
      heading: 'Plan der Tour',
      approve: 'Tour starten',
      status: { pending: 'Offen', in_progress: 'Läuft', completed: 'Erledigt' },
      progress: (done, total) => `${done} von ${total} erledigt`,
      say: { ...PLAN_PANEL_STRINGS.say, now: (text) => `Jetzt: ${text}.`, review: (steps) => `Prüfe den Plan: ${steps} Schritte.` },
      editStep: (step) => `Schritt ${step} bearbeiten`,
    };
    panel.strings = german;
    plan.adjust({}, { inProgress: 't1' });
    expect(shadow(panel).querySelector('h2')?.textContent).toBe('Plan der Tour');
    expect(items(panel).map((item) => item.querySelector('.status')?.textContent)).toEqual(['Läuft', 'Offen', 'Offen']);
    expect(meta(panel)).toBe('0 von 3 erledigt');
    expect(panel.announcement).toBe('Jetzt: Open the pricing page.');
    void panel.review();
    expect(panel.announcement).toBe('Prüfe den Plan: 3 Schritte.');
    expect(shadow(panel).querySelector('.approve')?.textContent).toBe('Tour starten');
    (items(panel)[1] as HTMLLIElement).focus();
    expect(items(panel)[1]?.querySelector('[data-action="edit"]')?.getAttribute('aria-label')).toBe('Schritt 2 bearbeiten');
    panel.setAttribute('heading', 'Eigene Überschrift');
    expect(shadow(panel).querySelector('h2')?.textContent).toBe('Eigene Überschrift');
    panel.strings = null;
    expect(shadow(panel).querySelector('.approve')?.textContent).toBe('Approve');
    expect(items(panel)[0]?.querySelector('.status')?.textContent).toBe('In progress');
  });

  it('announce="steps" leaves the run’s news to the host and still says what only the panel knows', async () => {
    const plan = runnable([], [{ task_summary: 'A look', todos: seedTodos }]);
    const panel = mount(plan);
    panel.announce = 'steps';
    expect(panel.getAttribute('announce')).toBe('steps');
    plan.setTaskPlan({ summary: 'A look', todos: seedTodos });
    expect(panel.announcement).toBe('');
    // A run that ends (here: not started) is the host's news.
    await expect(startRun(plan, { task: 'A look', start: { resume: false, announce: () => false } }).result).resolves.toMatchObject({ reason: 'declined' });
    const [first, second] = plan.todos.reset(seedTodos).map((todo) => todo.id);
    expect(panel.announcement).toBe('');
    plan.adjust({}, { inProgress: first });
    expect(panel.announcement).toBe('Now: Open the pricing page.');
    panel.announce = 'none';
    plan.adjust({ remove: [first as string] }, { inProgress: second });
    expect(panel.announcement).toBe('Now: Open the pricing page.');
  });

  it('marks a todo the model rewrote, visibly and in words', () => {
    const plan = planned();
    // The loop sets `rewritten` (TodoItem's optional flag, from the safety work); the panel reads it
    // from the plan's state. Seen here through the state the panel reads, whatever the store keeps.
    const real = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(plan), 'state')?.get as () => Plan['state'];
    let flagged = 't2';
    Object.defineProperty(plan, 'state', {
      get: () => {
        const state = real.call(plan);
        return { ...state, todos: state.todos.map((todo) => (todo.id === flagged ? { ...todo, rewritten: true } : todo)) };
      },
    });
    const panel = mount(plan);
    const changed = (index: number) => items(panel)[index]?.querySelector('.changed') as HTMLElement;
    expect(changed(1).hidden).toBe(false);
    expect(changed(1).textContent).toBe('changed by the model');
    expect(items(panel)[1]?.dataset.rewritten).toBe('true');
    expect(items(panel)[1]?.textContent).toContain('Explain the three tierschanged by the model');
    expect(changed(0).hidden).toBe(true);
    // Cleared (the user approved or edited it): the mark goes.
    flagged = '';
    plan.todos.edit('t1', { description: 'Open the pricing page now' });
    expect(changed(1).hidden).toBe(true);
    expect(items(panel)[1]?.dataset.rewritten).toBeUndefined();
  });
});

describe('<plan-panel> requestApproval', () => {
  const request: PanelApprovalRequest = {
    kind: 'action',
    tool: 'click',
    args: { target: 'e12' },
    risk: 'irreversible',
    detail: "Submit the form 'Start trial' on /try",
    todo: { id: 't3', description: 'Start the <b>trial</b>' },
    url: 'https://orbitly.test/try',
    purpose: '<img src=x onerror="window.__pwned=3">',
  };
  const box = (panel: PlanPanelElement) => shadow(panel).querySelector('.approval') as HTMLElement;
  const press = (target: Element, key: string) => {
    const event = new KeyboardEvent('keydown', { key, bubbles: true, composed: true, cancelable: true });
    target.dispatchEvent(event);
    return event;
  };

  it('shows what will happen, where, for which step and why, as text; focus moves to it and back', async () => {
    const panel = mount(new Plan());
    const before = document.createElement('button');
    document.body.append(before);
    before.focus();
    const answer = panel.requestApproval(request);
    expect(panel.approving).toBe(true);
    expect(box(panel).hidden).toBe(false);
    expect(shadow(panel).activeElement).toBe(box(panel));
    expect(box(panel).getAttribute('role')).toBe('group');
    expect(shadow(panel).getElementById(box(panel).getAttribute('aria-labelledby') as string)?.textContent).toBe('Allow this action?');
    const text = box(panel).textContent ?? '';
    expect(text).toContain('Cannot be undone');
    expect(text).toContain("Submit the form 'Start trial' on /try");
    expect(text).toContain('https://orbitly.test/try');
    expect(text).toContain('“Start the <b>trial</b>”');
    expect(text).toContain('“<img src=x onerror="window.__pwned=3">”');
    expect(text).toContain('click (target: e12)');
    expect(box(panel).querySelector('img, b')).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    (box(panel).querySelector('.allow') as HTMLButtonElement).click();
    await expect(answer).resolves.toEqual({ approved: true });
    expect(box(panel).hidden).toBe(true);
    expect(document.activeElement).toBe(before);
    expect(panel.announcement).toBe('Allowed.');
  });

  it('Deny and Escape say no with a reason; Escape is not left for the page', async () => {
    const panel = mount(new Plan());
    const first = panel.requestApproval(request);
    (box(panel).querySelector('.deny') as HTMLButtonElement).click();
    await expect(first).resolves.toEqual({ approved: false, reason: 'The user said no.' });
    const second = panel.requestApproval({ ...request, kind: 'plan-change', risk: 'write' });
    expect(box(panel).querySelector('h3')?.textContent).toBe('The model changed a step. Keep the change?');
    let seenByPage = false;
    const onKey = () => {
      seenByPage = true;
    };
    document.addEventListener('keydown', onKey);
    const event = press(box(panel), 'Escape');
    document.removeEventListener('keydown', onKey);
    await expect(second).resolves.toMatchObject({ approved: false });
    expect(event.defaultPrevented).toBe(true);
    expect(seenByPage).toBe(false);
    // Without a place to go back to, the focus rests on the status line, not on the body.
    expect(shadow(panel).activeElement).toBe(shadow(panel).querySelector('.meta'));
  });

  it('queues requests, and an aborted one rejects with the signal’s reason and leaves', async () => {
    const panel = mount(new Plan());
    const controller = new AbortController();
    const first = panel.requestApproval({ ...request, detail: 'First' }, { signal: controller.signal });
    const second = panel.requestApproval({ ...request, detail: 'Second' });
    expect(box(panel).querySelector('.approval-detail')?.textContent).toBe('First');
    controller.abort(new Error('stopped'));
    await expect(first).rejects.toThrow('stopped');
    expect(box(panel).querySelector('.approval-detail')?.textContent).toBe('Second');
    (box(panel).querySelector('.allow') as HTMLButtonElement).click();
    await expect(second).resolves.toEqual({ approved: true });
    await expect(panel.requestApproval(request, { signal: controller.signal })).rejects.toThrow('stopped');
    expect(panel.approving).toBe(false);
  });

  it('says no for the user when the panel gets another plan', async () => {
    const panel = mount(new Plan());
    const answer = panel.requestApproval(request);
    panel.plan = new Plan();
    await expect(answer).resolves.toMatchObject({ approved: false });
    expect(box(panel).hidden).toBe(true);
  });

  it('keeps a pending approval when the panel is moved, says no when it is removed', async () => {
    const panel = mount(new Plan());
    const answer = panel.requestApproval(request);
    const other = document.createElement('div');
    document.body.append(other);
    other.append(panel); // moved: disconnected and connected again at once
    await Promise.resolve();
    expect(panel.approving).toBe(true);
    panel.remove();
    await expect(answer).resolves.toEqual({ approved: false, reason: 'The plan panel left the page.' });
  });
});

describe('<plan-panel> shows which ticks are facts (issue 32)', () => {
  const row = (item: HTMLLIElement) => ({
    mark: item.querySelector('.mark')?.textContent,
    status: item.querySelector('.status')?.textContent,
    evidence: item.dataset.evidence,
  });
  const turn = (todo: string, actions: unknown[], extra: { remove?: string[]; last?: boolean } = {}) => ({
    turn_planning: { todo_id: todo, does: `Work on ${todo}`, is_last_turn: extra.last === true },
    todo_adjust: { remove: extra.remove ?? [], replace: [] },
    actions,
  });
  const TRIAL = {
    task_summary: 'Start a trial',
    todos: [
      { intent: 'narrate', description: 'Explain the tiers' },
      { intent: 'click', description: 'Start the trial', check: 'see status "Trial started"' },
      { intent: 'finish', description: 'Wrap up', check: 'none' },
    ],
  };
  /** A run of TRIAL on a page whose trial button does nothing; every announcement is kept, in order. */
  function trialRun(turns: ScriptedResponses, options: { decline?: boolean } = {}) {
    const plan = new Plan({ llm: createLLMRouter({ default: createScriptedProvider(turns), plan: createScriptedProvider([TRIAL]) }) });
    const panel = mount(plan);
    const heard: string[] = [];
    new MutationObserver(() => heard.push(panel.announcement)).observe(shadow(panel).querySelector('[aria-live]') as Node, {
      childList: true,
      characterData: true,
      subtree: true,
    });
    const run = startRun(plan, {
      task: 'Start a trial',
      tools: { start_trial: { description: 'start the trial', risk: options.decline ? 'irreversible' : 'write', run: () => undefined } },
      page: { url: () => '/', check: () => ({ ok: false, missing: 'no status "Trial started" is visible' }) },
      ...(options.decline ? { approval: { ask: () => false, level: 'irreversible' as const } } : {}),
      bounds: { turnSlack: 4 },
    });
    return { plan, panel, heard, run };
  }

  it('a step done on evidence, one done on the model’s word, one held open and one declined each look and read differently', () => {
    const plan = new Plan();
    plan.todos.reset([
      { intent: 'navigate', description: 'Open the pricing page' },
      { intent: 'narrate', description: 'Explain the tiers' },
      { intent: 'click', description: 'Start the trial' },
      { intent: 'fill', description: 'Fill in the email' },
      { intent: 'finish', description: 'Wrap up' },
    ]);
    plan.todos.edit('t1', { status: 'completed', evidence: 'checked' });
    plan.todos.edit('t2', { status: 'completed' });
    plan.todos.edit('t3', { evidence: 'held' });
    plan.todos.edit('t4', { evidence: 'declined' });
    const panel = mount(plan);
    const rows = items(panel).map(row);
    expect(rows).toEqual([
      { mark: '✔︎', status: 'Done, checked', evidence: 'checked' },
      { mark: '✓', status: 'Done (not checked)', evidence: 'unchecked' },
      { mark: '!', status: 'Not done yet: no sign it happened', evidence: 'held' },
      { mark: '⊘', status: 'Declined', evidence: 'declined' },
      { mark: '○', status: 'Pending', evidence: undefined },
    ]);
    expect(new Set(rows.map((each) => each.mark)).size).toBe(5);
    // The status is read with the step (the mark is hidden from screen readers).
    expect(texts(panel)[3]).toBe('⊘Fill in the emailDeclined');
    expect(items(panel)[0]?.querySelector('.mark')?.getAttribute('aria-hidden')).toBe('true');
    expect(meta(panel)).toBe('2 of 5 done');
    // Evidence the run clears (a new status without it) goes from the row too.
    plan.todos.edit('t3', { status: 'in_progress' });
    expect(row(items(panel)[2] as HTMLLIElement)).toEqual({ mark: '▸', status: 'In progress', evidence: undefined });
    // A declined step never reads as done, even with a status of completed.
    plan.todos.edit('t4', { status: 'completed', evidence: 'declined' });
    expect(row(items(panel)[3] as HTMLLIElement)).toEqual({ mark: '⊘', status: 'Declined', evidence: 'declined' });
    expect(meta(panel)).toBe('2 of 5 done');
  });

  it('a run whose check fails: the step is held open, the news says so, and the end line names it', async () => {
    const { plan, panel, heard, run } = trialRun([
      turn('t1', [{ type: 'narrate', text: 'Three tiers.' }]),
      turn('t2', [{ type: 'tool', name: 'start_trial', args: {} }], { remove: ['t1'] }),
      // Naming t3 completes t2 only if the page shows the trial started: it does not.
      turn('t3', [{ type: 'task_finish', summary: 'Trial started.' }], { remove: ['t2'], last: true }),
      turn('t3', [{ type: 'task_finish', summary: 'Trial started.' }], { last: true }),
    ]);
    const result = await run.result;
    expect(result.reason).toBe('unverified');
    expect(plan.todos.get('t2')?.evidence).toBe('held');
    expect(heard).toContain('Done: Explain the tiers. Now: Start the trial.');
    expect(heard.some((line) => line.startsWith('Not done yet: Start the trial. No sign it happened.'))).toBe(true);
    expect(heard.some((line) => /Done( \(not checked\))?: Start the trial/.test(line))).toBe(false);
    expect(row(items(panel)[1] as HTMLLIElement)).toMatchObject({ status: 'Not done yet: no sign it happened', evidence: 'held' });
    expect(row(items(panel)[0] as HTMLLIElement)).toMatchObject({ status: 'Done, checked', evidence: 'checked' });
    expect(items(panel).map((item) => item.dataset.evidence)).toEqual(['checked', 'held', undefined]);
    expect(meta(panel)).toBe('1 of 3 done · Ended with steps not done');
    expect(panel.announcement).toBe('Ended with steps not done: “Start the trial”.');
  });

  it('a run whose action the user declined: the step reads Declined, never Done, and the news says so', async () => {
    const { plan, panel, heard, run } = trialRun(
      [
        turn('t1', [{ type: 'narrate', text: 'Three tiers.' }]),
        turn('t2', [{ type: 'tool', name: 'start_trial', args: {} }], { remove: ['t1'] }),
        turn('t3', [{ type: 'task_finish', summary: 'Trial started.' }], { remove: ['t2'], last: true }),
      ],
      { decline: true },
    );
    await run.result;
    expect(plan.todos.get('t2')).toMatchObject({ status: 'pending', evidence: 'declined' });
    expect(texts(panel)[1]).toBe('⊘Start the trialDeclined');
    expect(heard.some((line) => line.includes('Declined: Start the trial.'))).toBe(true);
    expect(heard.some((line) => /Done[^:]*: Start the trial/.test(line))).toBe(false);
  });

  it('a host’s strings written without the new words (an older version’s) still work, in English for those', async () => {
    const plan = new Plan();
    plan.todos.reset([
      { intent: 'navigate', description: 'Open the pricing page' },
      { intent: 'click', description: 'Start the trial' },
    ]);
    const panel = mount(plan);
    const { evidence: _e, unverified: _u, say, approval, ...rest } = PLAN_PANEL_STRINGS;
    const { doneUnchecked: _d, held: _h, stepDeclined: _s, unverified: _su, ...oldSay } = say;
    const { notAnnounced: _n, consequence: _c, ...oldApproval } = approval;
    panel.strings = {
      ...rest,
      status: { pending: 'Offen', in_progress: 'Läuft', completed: 'Erledigt' },
      say: oldSay,
      approval: oldApproval,
    } as unknown as PlanPanelStrings;
    plan.todos.edit('t1', { status: 'completed', evidence: 'checked' });
    plan.todos.edit('t2', { evidence: 'held' });
    expect(items(panel).map(row)).toEqual([
      { mark: '✔︎', status: 'Done, checked', evidence: 'checked' },
      { mark: '!', status: 'Not done yet: no sign it happened', evidence: 'held' },
    ]);
    expect(panel.announcement).toBe('Not done yet: Start the trial. No sign it happened.');
    plan.todos.edit('t2', { status: 'in_progress' });
    expect(items(panel)[1]?.querySelector('.status')?.textContent).toBe('Läuft');
    // The approval box's words of 0.2.x fall back too.
    void panel.requestApproval({
      kind: 'action',
      tool: 'click',
      args: {},
      risk: 'write',
      detail: 'Send the form',
      todo: { id: 't2', description: 'Open the pricing page' },
      consequence: 'send',
    });
    expect(shadow(panel).querySelector('.approval')?.textContent).toContain('Not what the step said: “Open the pricing page” does not say it');
  });
});
