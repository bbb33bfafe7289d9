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

function seed(plan: Plan): void {
  plan.todos.reset([
    { intent: 'navigate', description: 'Open the pricing page' },
    { intent: 'narrate', description: 'Explain the three tiers' },
    { intent: 'finish', description: 'Wrap up' },
  ]);
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
    seed(plan);
    expect(panel.announcement).toBe('New plan with 3 steps.');
    plan.emit('plan-create', { plan: { task_summary: 'Tour the pricing page.', todos: plan.todos.list() } });
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
    // The planning call fails (or is stopped): the todos shown are still the old plan's.
    plan.emit('run-error', { runId: 'r1', turn: 0, error: new Error('model offline') });
    expect(panel.summary).toBe('Tour the pricing page.');
    expect(meta(panel)).toBe('0 of 3 done · Stopped by an error');

    // A planning call that succeeds keeps its summary, also when a turn fails later.
    plan.emit('run-start', { runId: 'r2', task: 'Show me the docs', resumed: false });
    plan.emit('summary-delta', { delta: 'Docs tour.', text: 'Docs tour.' });
    plan.emit('plan-create', { plan: { task_summary: 'Docs tour.', todos: plan.todos.list() } });
    expect(meta(panel)).toBe('0 of 3 done');
    plan.emit('run-error', { runId: 'r2', turn: 1, error: new Error('model offline') });
    expect(panel.summary).toBe('Docs tour.');
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
