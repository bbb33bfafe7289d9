// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { Plan } from '../../src/plan.js';
import { createMemoryAdapter } from '../../src/storage/memory.js';
import { PlanPanelElement, definePlanPanel } from '../../src/ui/index.js';

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

const seedTodos = [
  { intent: 'navigate', description: 'Open the pricing page' },
  { intent: 'narrate', description: 'Explain the three tiers' },
  { intent: 'finish', description: 'Wrap up' },
];

function seed(plan: Plan): void {
  plan.todos.reset(seedTodos);
}

afterEach(() => {
  document.body.replaceChildren();
});

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
    expect(panel.announcement).toBe('Done: Open the pricing page. Now: Explain the three tiers.');
    expect(meta(panel)).toBe('1 of 3 done');
    const live = shadow(panel).querySelector('[aria-live]');
    expect(live?.getAttribute('aria-live')).toBe('polite');
  });

  it('streams the summary and shows the current turn and the end of the run', () => {
    const plan = new Plan();
    const panel = mount(plan);
    plan.emit('summary-delta', { delta: 'Tour ', text: 'Tour ' });
    plan.emit('summary-delta', { delta: 'pricing', text: 'Tour pricing' });
    expect(shadow(panel).querySelector('.summary')?.textContent).toBe('Tour pricing');
    // What makeTodos does with the model's answer: the summary and todos become the plan's state.
    plan.setTaskPlan({ task_summary: 'Tour the pricing page.', todos: seedTodos });
    expect(panel.announcement).toBe('New plan with 3 steps.');
    expect(panel.summary).toBe('Tour the pricing page.');
    plan.emit('turn-start', { runId: 'r1', turn: 2, maxTurns: 5 });
    expect(meta(panel)).toBe('0 of 3 done · Turn 2 of 5');
    plan.emit('run-finish', { runId: 'r1', reason: 'task_finish', turns: 2, summary: 'Toured pricing.' });
    expect(meta(panel)).toBe('0 of 3 done · Finished');
    expect(panel.announcement).toBe('Finished. Toured pricing.');
    plan.emit('run-error', { runId: 'r2', turn: 1, error: new Error('model offline') });
    expect(panel.announcement).toBe('Stopped: model offline');
  });

  it('puts the summary back when planning a new plan fails, and says it is planning meanwhile', () => {
    const plan = new Plan();
    seed(plan);
    const panel = mount(plan);
    panel.summary = 'Tour the pricing page.';
    plan.emit('run-start', { runId: 'r1', task: 'Show me the docs', resumed: false });
    expect(meta(panel)).toBe('0 of 3 done · Planning…');
    plan.emit('summary-delta', { delta: 'I will show you the d', text: 'I will show you the d' });
    expect(panel.summary).toBe('I will show you the d');
    // The planning call fails (or is stopped): the todos shown are still the old plan's, which
    // never ran, so nothing says it was stopped.
    plan.emit('run-error', { runId: 'r1', turn: 0, error: new Error('model offline') });
    expect(panel.summary).toBe('Tour the pricing page.');
    expect(meta(panel)).toBe('0 of 3 done');
    expect(panel.announcement).toBe('No new plan: model offline');

    // A planning call that succeeds keeps its summary, also when a turn fails later.
    plan.emit('run-start', { runId: 'r2', task: 'Show me the docs', resumed: false });
    plan.emit('summary-delta', { delta: 'Docs tour.', text: 'Docs tour.' });
    plan.setTaskPlan({ task_summary: 'Docs tour.', todos: seedTodos });
    expect(meta(panel)).toBe('0 of 3 done');
    plan.emit('run-error', { runId: 'r2', turn: 1, error: new Error('model offline') });
    expect(panel.summary).toBe('Docs tour.');
    expect(meta(panel)).toBe('0 of 3 done · Stopped by an error');
  });

  it('a new ask that fails before its plan exists leaves a finished plan labelled finished', () => {
    const plan = new Plan();
    const panel = mount(plan);
    plan.emit('run-start', { runId: 'r1', task: 'Tour pricing', resumed: false });
    plan.setTaskPlan({ task_summary: 'Tour the pricing page.', todos: seedTodos.map((todo) => ({ ...todo, status: 'completed' as const })) });
    plan.emit('run-finish', { runId: 'r1', reason: 'task_finish', turns: 3 });
    expect(meta(panel)).toBe('3 of 3 done · Finished');

    plan.emit('run-start', { runId: 'r2', task: 'How do I get a refund?', resumed: false });
    plan.emit('run-error', { runId: 'r2', turn: 0, error: new Error('openai-compatible answered HTTP 401') });
    expect(meta(panel)).toBe('3 of 3 done · Finished');
    expect(panel.summary).toBe('Tour the pricing page.');
    // Stopping a new ask before its plan exists says so, and also leaves the finished plan alone.
    plan.emit('run-start', { runId: 'r3', task: 'Show me the docs', resumed: false });
    plan.emit('run-error', { runId: 'r3', turn: 0, error: Object.assign(new Error('aborted'), { code: 'aborted' }) });
    expect(meta(panel)).toBe('3 of 3 done · Finished');
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
    plan.emit('summary-delta', { delta: hostile, text: hostile });
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
    first.emit('summary-delta', { delta: 'x', text: 'stale' });
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
    plan.setTaskPlan({ task_summary: 'A look at pricing', todos: [{ intent: 'narrate', description: 'Explain tiers' }] });
    expect(shadow(panel).querySelector('.summary')?.textContent).toBe('A look at pricing');
    plan.todos.reset([{ intent: 'narrate', description: 'From a checklist' }]);
    expect(shadow(panel).querySelector('.summary')?.textContent).toBe('');
  });
});

describe('<plan-panel> review: the user shapes the plan before it runs', () => {
  const planned = () => {
    const plan = new Plan();
    plan.setTaskPlan({
      task_summary: 'A look at pricing',
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
    expect(plan.todos.list().map((todo) => [todo.id, todo.expected_turn])).toEqual([['t3', 2], ['t2', 3]]);
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
    expect(panel.announcement).toBe('Done: Wrap up. Now: Open the pricing page.');
    turn.rollback();
    expect(items(panel).map((entry) => entry.dataset.status)).toEqual(['pending', 'pending', 'pending']);
    expect(meta(panel)).toBe('0 of 3 done');
    expect(items(panel).map((entry) => entry.textContent)).toEqual(plan.state.todos.map((todo) => `○${todo.description}Pending`));
  });
});
