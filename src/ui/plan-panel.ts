import type { TodoItem, TodoStatus } from '../artifacts/todos.js';
import type { Unsubscribe } from '../emitter.js';
import type { PlanEvents } from '../events.js';
import type { Plan } from '../plan.js';
import { PLAN_PANEL_CSS } from './plan-panel-style.js';

const STATUS_TEXT: Record<TodoStatus, string> = { pending: 'Pending', in_progress: 'In progress', completed: 'Done' };
const STATUS_MARK: Record<TodoStatus, string> = { pending: '○', in_progress: '▸', completed: '✓' };
const NAV_KEYS = new Set(['ArrowDown', 'ArrowUp', 'ArrowRight', 'ArrowLeft', 'Home', 'End']);

// A custom element must extend HTMLElement, which Node and workers lack: fall back to a plain class
// so that importing `planloop/ui` there does not throw. Only constructing the element needs a DOM.
const Base = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement;

/**
 * `<plan-panel>`: shows a plan's task summary, its todos with their status (pending, in progress,
 * done) and the current turn, live from the plan's events. Framework-free, in a shadow root.
 * While a run plans afresh the meta line says "Planning…" and the new summary streams in; if that
 * planning fails, the summary of the todos still shown comes back. An emptied plan shows no summary.
 *
 * Accessibility: the todos are a list whose items are reachable with Tab and then the arrow keys,
 * Home and End; the todo in progress carries `aria-current="step"`; each status is written out,
 * not only coloured; a polite live region announces new plans, started and finished steps, and
 * the end of a run. All text is set with `textContent`, never parsed as HTML.
 *
 * Theming: `--plan-panel-bg`, `--plan-panel-fg`, `--plan-panel-muted`, `--plan-panel-accent`,
 * `--plan-panel-done`, `--plan-panel-current-bg`, `--plan-panel-border`, `--plan-panel-focus`,
 * `--plan-panel-radius`, `--plan-panel-padding`, `--plan-panel-font`; parts `heading`, `summary`,
 * `meta`, `list`, `item`. The `heading` attribute sets the title (default "Plan").
 *
 * @example
 * ```ts
 * definePlanPanel();
 * const panel = document.createElement('plan-panel');
 * panel.plan = plan;            // subscribes; setting another plan or removing the element unsubscribes
 * document.body.append(panel);
 * ```
 */
export class PlanPanelElement extends Base {
  static readonly observedAttributes = ['heading'];

  #plan: Plan | null = null;
  #offs: Unsubscribe[] = [];
  #summary = '';
  /** The summary that goes with the todos shown; a streamed summary becomes it on `plan-create`. */
  #planSummary = '';
  #turn = '';
  #runNote = '';
  #activeId: string | null = null;
  readonly #statuses = new Map<string, TodoStatus>();
  readonly #items = new Map<string, HTMLLIElement>();
  readonly #heading: HTMLHeadingElement;
  readonly #summaryEl: HTMLParagraphElement;
  readonly #meta: HTMLParagraphElement;
  readonly #empty: HTMLParagraphElement;
  readonly #list: HTMLOListElement;
  readonly #live: HTMLDivElement;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    const doc = root.ownerDocument;
    const style = doc.createElement('style');
    style.textContent = PLAN_PANEL_CSS;
    this.#heading = doc.createElement('h2');
    this.#heading.id = 'heading';
    this.#heading.setAttribute('part', 'heading');
    this.#summaryEl = doc.createElement('p');
    this.#summaryEl.className = 'summary';
    this.#summaryEl.setAttribute('part', 'summary');
    this.#meta = doc.createElement('p');
    this.#meta.className = 'meta';
    this.#meta.setAttribute('part', 'meta');
    this.#empty = doc.createElement('p');
    this.#empty.className = 'empty';
    this.#empty.textContent = 'No plan yet.';
    this.#list = doc.createElement('ol');
    // Safari drops the list role from lists styled `list-style: none`; say it explicitly.
    this.#list.setAttribute('role', 'list');
    this.#list.setAttribute('part', 'list');
    this.#list.setAttribute('aria-labelledby', 'heading');
    this.#list.addEventListener('keydown', (event) => this.#onKeydown(event));
    this.#list.addEventListener('focusin', (event) => {
      const item = (event.target as Element | null)?.closest?.('li');
      if (item?.dataset.id) this.#setActive(item.dataset.id);
    });
    this.#live = doc.createElement('div');
    this.#live.className = 'sr-only';
    this.#live.setAttribute('role', 'status');
    this.#live.setAttribute('aria-live', 'polite');
    this.#live.setAttribute('part', 'announcer');
    root.append(style, this.#heading, this.#summaryEl, this.#meta, this.#empty, this.#list, this.#live);
    this.#renderHeading();
    this.#renderMeta();
  }

  /** The plan shown. Setting it unsubscribes from the previous plan and renders the new one. */
  get plan(): Plan | null {
    return this.#plan;
  }

  set plan(plan: Plan | null) {
    if (plan === this.#plan) return;
    this.#unsubscribe();
    this.#plan = plan;
    this.#summary = '';
    this.#planSummary = '';
    this.#turn = '';
    this.#runNote = '';
    this.#activeId = null;
    this.#statuses.clear();
    this.#summaryEl.textContent = '';
    if (plan?.summary) this.summary = plan.summary;
    this.#renderTodos(plan ? plan.todos.list() : []);
    if (this.isConnected) this.#subscribe();
  }

  /** The task summary shown above the todos (set by `plan-create` and `summary-delta`, or by the host). */
  get summary(): string {
    return this.#summary;
  }

  set summary(text: string) {
    this.#showSummary(String(text ?? ''));
    this.#planSummary = this.#summary;
  }

  #showSummary(text: string): void {
    this.#summary = text;
    this.#summaryEl.textContent = text;
  }

  /** The text the live region last announced. */
  get announcement(): string {
    return this.#live.textContent ?? '';
  }

  connectedCallback(): void {
    // A host may set `plan` (or `summary`) on the element before definePlanPanel() ran: that made an
    // own property hiding our accessors. Take the value and run it through the setter: the plan
    // first, since setting a plan clears the summary the host chose.
    for (const key of ['plan', 'summary'] as const) {
      if (Object.hasOwn(this, key)) {
        const value = (this as unknown as Record<string, unknown>)[key];
        delete (this as unknown as Record<string, unknown>)[key];
        (this as unknown as Record<string, unknown>)[key] = value;
      }
    }
    if (this.#plan && this.#offs.length === 0) {
      this.#renderTodos(this.#plan.todos.list());
      this.#subscribe();
    }
  }

  disconnectedCallback(): void {
    this.#unsubscribe();
  }

  attributeChangedCallback(): void {
    this.#renderHeading();
  }

  #subscribe(): void {
    const plan = this.#plan;
    if (!plan) return;
    const on = <K extends keyof PlanEvents & string>(name: K, listener: (payload: PlanEvents[K]) => void): void => {
      this.#offs.push(plan.on(name, listener));
    };
    on('todos-change', ({ todos, change }) => {
      if (change.type === 'reset') {
        // The plan's own summary goes with its todos: setTaskPlan (makeTodos) sets it before this
        // reset, and any other reset (a decline, a checklist) has dropped it.
        this.summary = plan.summary;
        this.#renderTodos(todos);
        this.#announce(todos.length === 0 ? 'The plan is empty.' : `New plan with ${todos.length} ${todos.length === 1 ? 'step' : 'steps'}.`);
        return;
      }
      const news = change.type === 'hydrate' ? [] : this.#statusNews(todos);
      this.#renderTodos(todos);
      if (news.length > 0) this.#announce(news.join(' '));
    });
    on('plan-hydrate', ({ todos, restored }) => {
      if (plan.summary) this.summary = plan.summary;
      this.#renderTodos(todos);
      const left = todos.filter((todo) => todo.status !== 'completed').length;
      if (restored && todos.length > 0) this.#announce(`Restored a plan: ${left} of ${todos.length} steps left.`);
    });
    // The summary of a plan being made streams in over the todos of the current one; it becomes
    // the plan's summary on `plan-create`, and a planning call that fails puts the old one back.
    on('summary-delta', ({ text }) => {
      this.#showSummary(text);
    });
    on('plan-create', ({ plan: taskPlan }) => {
      this.summary = taskPlan.task_summary;
      this.#runNote = '';
      this.#turn = '';
      this.#renderMeta();
    });
    on('run-start', ({ resumed }) => {
      this.#runNote = resumed ? '' : 'Planning…';
      this.#renderMeta();
    });
    on('turn-start', ({ turn, maxTurns }) => {
      this.#turn = `Turn ${turn} of ${maxTurns}`;
      this.dataset.turn = String(turn);
      this.#renderMeta();
    });
    on('run-finish', ({ reason, summary }) => {
      this.#runNote = reason === 'declined' ? 'Not started' : 'Finished';
      this.#turn = '';
      this.#renderMeta();
      this.#announce(reason === 'declined' ? 'The plan was not started.' : `Finished.${summary ? ` ${summary}` : ''}`);
    });
    on('run-error', ({ error }) => {
      const aborted = (error as { code?: string }).code === 'aborted';
      if (this.#summary !== this.#planSummary) this.#showSummary(this.#planSummary);
      this.#runNote = aborted ? 'Stopped' : 'Stopped by an error';
      this.#renderMeta();
      this.#announce(aborted ? 'Stopped.' : `Stopped: ${error.message}`);
    });
  }

  #unsubscribe(): void {
    for (const off of this.#offs.splice(0)) off();
  }

  /** "Now: …" and "Done: …" lines for todos whose status changed since the last render. */
  #statusNews(todos: TodoItem[]): string[] {
    const news: string[] = [];
    for (const todo of todos) {
      const before = this.#statuses.get(todo.id);
      if (before === todo.status) continue;
      if (todo.status === 'completed') news.push(`Done: ${todo.description}.`);
      else if (todo.status === 'in_progress') news.push(`Now: ${todo.description}.`);
    }
    return news;
  }

  #renderTodos(todos: TodoItem[]): void {
    const doc = this.#list.ownerDocument;
    const keep = new Set(todos.map((todo) => todo.id));
    for (const [id, item] of this.#items) {
      if (!keep.has(id)) {
        item.remove();
        this.#items.delete(id);
      }
    }
    this.#statuses.clear();
    todos.forEach((todo, index) => {
      let item = this.#items.get(todo.id);
      if (!item) {
        item = doc.createElement('li');
        item.setAttribute('role', 'listitem');
        item.setAttribute('part', 'item');
        item.dataset.id = todo.id;
        const mark = doc.createElement('span');
        mark.className = 'mark';
        mark.setAttribute('aria-hidden', 'true');
        const text = doc.createElement('span');
        text.className = 'text';
        const status = doc.createElement('span');
        status.className = 'status';
        item.append(mark, text, status);
        this.#items.set(todo.id, item);
      }
      const [mark, text, status] = Array.from(item.children) as HTMLElement[];
      if (mark) mark.textContent = STATUS_MARK[todo.status];
      if (text) text.textContent = todo.description;
      if (status) status.textContent = STATUS_TEXT[todo.status];
      item.dataset.status = todo.status;
      item.dataset.intent = todo.intent;
      if (todo.status === 'in_progress') item.setAttribute('aria-current', 'step');
      else item.removeAttribute('aria-current');
      if (this.#list.children[index] !== item) this.#list.insertBefore(item, this.#list.children[index] ?? null);
      this.#statuses.set(todo.id, todo.status);
    });
    this.#empty.hidden = todos.length > 0;
    this.#list.hidden = todos.length === 0;
    // The tab stop follows the todo in progress until the user moves it; then it stays where they left it.
    if (this.#activeId && !keep.has(this.#activeId)) this.#activeId = null;
    const fallback = (todos.find((t) => t.status === 'in_progress') ?? todos[0])?.id ?? null;
    this.#setTabStop(this.#activeId ?? fallback);
    this.#renderMeta();
  }

  /** Roving tabindex: one item is in the tab order; the arrow keys move between items. */
  #setActive(id: string | null): void {
    this.#activeId = id;
    this.#setTabStop(id);
  }

  #setTabStop(id: string | null): void {
    for (const [itemId, item] of this.#items) item.tabIndex = itemId === id ? 0 : -1;
  }

  #onKeydown(event: KeyboardEvent): void {
    if (!NAV_KEYS.has(event.key)) return;
    const items = Array.from(this.#list.children) as HTMLLIElement[];
    if (items.length === 0) return;
    const current = items.findIndex((item) => item.tabIndex === 0);
    const last = items.length - 1;
    const next =
      event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : event.key === 'ArrowDown' || event.key === 'ArrowRight' ? Math.min(last, current + 1)
      : Math.max(0, current - 1);
    const target = items[next];
    if (!target) return;
    event.preventDefault();
    this.#setActive(target.dataset.id ?? null);
    target.focus();
  }

  #renderHeading(): void {
    this.#heading.textContent = this.getAttribute('heading') || 'Plan';
  }

  #renderMeta(): void {
    const statuses = Array.from(this.#statuses.values());
    const progress = statuses.length > 0 ? `${statuses.filter((s) => s === 'completed').length} of ${statuses.length} done` : '';
    this.#meta.textContent = [progress, this.#turn, this.#runNote].filter(Boolean).join(' · ');
  }

  #announce(text: string): void {
    this.#live.textContent = text;
  }
}

/**
 * Registers `<plan-panel>` (or `tagName`) as a custom element; idempotent. Call it once before
 * using the tag. Defaults: tag `plan-panel`, the window's `customElements`.
 *
 * @example
 * ```ts
 * import { definePlanPanel } from 'planloop/ui';
 * definePlanPanel();
 * document.querySelector('plan-panel')!.plan = plan;
 * ```
 */
export function definePlanPanel(
  tagName = 'plan-panel',
  registry: CustomElementRegistry = globalThis.customElements,
): typeof PlanPanelElement {
  if (!registry) throw new TypeError('definePlanPanel needs a DOM with customElements (a browser, or happy-dom/jsdom in tests).');
  const existing = registry.get(tagName);
  if (existing) {
    if (existing === PlanPanelElement || existing.prototype instanceof PlanPanelElement) return existing as typeof PlanPanelElement;
    throw new TypeError(`<${tagName}> is already defined by another element; pass another tag name to definePlanPanel().`);
  }
  // A constructor can be registered under one name only: each name gets its own subclass.
  const element = class extends PlanPanelElement {};
  registry.define(tagName, element);
  return element;
}
