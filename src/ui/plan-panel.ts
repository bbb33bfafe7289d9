// <plan-panel>, one custom element. Over 400 lines for a reason: the live rendering, the review's
// editing (edit, move, remove, undo) and the focus rules share one map of items, one roving tab
// stop and one shadow root, and split across files they would pass all of it back and forth. What
// stands apart lives apart: the words (plan-panel-strings.ts), the style (plan-panel-style.ts) and
// the approval box (approval-box.ts).

import { TODO_LIMITS, type TodoItem, type TodoStatus } from '../artifacts/todos.js';
import type { Unsubscribe } from '../emitter.js';
import { isPlanloopError } from '../errors.js';
import type { PlanEvents } from '../events.js';
import type { RunState } from '../loop/run-state.js';
import type { Plan } from '../plan.js';
import type { PlanState } from '../plan-state.js';
import {
  ApprovalBox,
  canFocus,
  deepActiveElement,
  focusBack,
  type PanelApprovalAnswer,
  type PanelApprovalOptions,
  type PanelApprovalRequest,
} from './approval-box.js';
import { PLAN_PANEL_CSS } from './plan-panel-style.js';
import { PLAN_PANEL_STRINGS, type PlanPanelStrings } from './plan-panel-strings.js';
import { RunController } from './run-controller.js';

/** What a row shows of a todo: its status, or what a run found about it (see {@link shownAs}). */
type Shown = Exclude<TodoStatus, 'completed'> | keyof PlanPanelStrings['evidence'];
// Done on evidence and done on the model's word differ in shape, not only in colour (✔ is kept text, not emoji).
const MARK: Record<Shown, string> = { pending: '○', in_progress: '▸', checked: '✔\uFE0E', unchecked: '✓', held: '!', declined: '⊘' };
const NAV_KEYS = new Set(['ArrowDown', 'ArrowUp', 'ArrowRight', 'ArrowLeft', 'Home', 'End']);
const CONTROLS = [
  { action: 'edit', mark: '✎', label: (words: PlanPanelStrings, n: number) => words.editStep(n) },
  { action: 'up', mark: '↑', label: (words: PlanPanelStrings, n: number) => words.moveUp(n) },
  { action: 'down', mark: '↓', label: (words: PlanPanelStrings, n: number) => words.moveDown(n) },
  { action: 'remove', mark: '✕', label: (words: PlanPanelStrings, n: number) => words.removeStep(n) },
] as const;
type ControlAction = (typeof CONTROLS)[number]['action'];
/** The run's state in the meta line: a key of the strings, so that it follows a change of language. */
type RunNote = '' | 'planning' | 'finished' | 'notStarted' | 'stopped' | 'stoppedByError' | 'unverified';

/** Whether a failed run ended before its plan was made (the todos shown are the previous plan's). */
const beforePlan = (end: RunState['end']): boolean => end?.reason === 'error' && (end.during === 'starting' || end.during === 'planning');

/** Options of {@link PlanPanelElement.review}. */
export interface PlanReviewOptions {
  /** Ends the review: the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Moves the focus to the approve button when the review starts. Default `true`. */
  focus?: boolean | undefined;
  /**
   * Where the focus goes when the review closes while it is in the panel (the buttons it was on
   * go away): called with the user's choice; an element that cannot take the focus (hidden,
   * disabled) or none means the panel's status line. Default: the status line.
   */
  returnFocus?: ((approved: boolean) => HTMLElement | null | undefined) | undefined;
}

/**
 * What the panel's live region says: `'all'` (default), `'steps'` (only what the host cannot know:
 * steps starting and finishing, the user's changes in a review, approvals answered; a host that
 * announces the run's start and end itself sets this so that nothing is heard twice), `'none'`.
 */
export type PlanPanelAnnounce = 'all' | 'steps' | 'none';

interface Review {
  promise: Promise<boolean>;
  settle: (approved: boolean) => void;
  returnFocus: PlanReviewOptions['returnFocus'];
}

// A custom element must extend HTMLElement, which Node and workers lack: fall back to a plain class
// so that importing `planloop/ui` there does not throw. Only constructing the element needs a DOM.
const Base = (typeof HTMLElement === 'undefined' ? class {} : HTMLElement) as typeof HTMLElement;

/**
 * `<plan-panel>`: shows a plan's task summary, its todos with their status (pending, in progress,
 * done) and the current turn, live from the plan. Framework-free, in a shadow root. What it shows
 * comes from the plan's state (`plan.state`, the `state-change` event) and from the state of the
 * plan's current run (`run.state`: the run `startRun` or `runWebAgent` started on this plan in this
 * tab, followed by a {@link RunController}): the turn and how the run ended. While a run plans
 * afresh the meta line says "Planning…" and the new summary streams in; if that planning fails,
 * the plan shown is left as it was (its summary, and how its own run ended). An emptied plan
 * shows no summary.
 *
 * Review: `review()` lets the user shape an announced plan before it runs: edit a step's text,
 * remove a step (with undo), move steps, then approve (or decline). Every change goes straight to
 * the plan (`plan.todos.edit`, `delete`, `move`), so the loop runs the plan as the user left it.
 * Only pending steps can be changed. Approving after a move or a removal renumbers the planner's
 * predicted turns (`expected_turn`) to follow the new list.
 *
 * Keyboard (the WAI-ARIA Authoring Practices' roving tabindex, on a list): the todos are a list
 * with one tab stop; ↑/↓ (and ←/→, Home, End) move between steps. While reviewing, the selected
 * pending step's buttons (edit, move up, move down, remove) follow it in the Tab order, then Undo,
 * approve and decline, so every action is reachable with Tab, Enter and Space alone; the
 * shortcuts stay for those who know them: on a step, Enter or F2 edits its text (Enter saves,
 * Escape cancels), Delete or Backspace removes it (Ctrl+Z or Undo brings it back), Alt+↑ / Alt+↓
 * move it, Escape declines. Every button has a name ("Move step 2 up"). A list rather than a grid:
 * screen readers keep list semantics and browse mode, and Tab does not walk through every step's
 * buttons, only the selected one's.
 *
 * Focus is never dropped: when the review closes (or an approval is answered) while the focus is
 * in the panel, it goes to the element the host names (`returnFocus`), back where it was, or to
 * the panel's status line, never to the page's body. A host that keeps the focus in its own guide
 * passes `focus: false` to `review()` and `requestApproval()`: the panel then moves the focus only
 * when the control under it goes away.
 *
 * Which ticks are facts: a step done on evidence (its check held: `todo.evidence` `checked`)
 * shows ✔︎ "Done, checked", one done on the model's word ✓ "Done (not checked)"; a step the model
 * called done whose check did not hold shows ! "Not done yet: …", one whose action the user
 * declined ⊘ "Declined", never done. The row's `data-evidence` says which (`checked`,
 * `unchecked`, `held`, `declined`; absent otherwise).
 *
 * Screen readers: the todo in progress carries `aria-current="step"`; each status is written out,
 * not only coloured; a todo the model rewrote says "changed by the model"; a polite live region
 * announces new plans, started, finished, held and declined steps, review changes, approvals and
 * the end of a run (the `announce` attribute leaves the run's own news to a host that announces it). All text
 * is set with `textContent`, never parsed as HTML. Every word comes from `strings`.
 *
 * Theming: `--plan-panel-bg`, `--plan-panel-fg`, `--plan-panel-muted`, `--plan-panel-accent`,
 * `--plan-panel-accent-fg`, `--plan-panel-done`, `--plan-panel-current-bg`, `--plan-panel-border`,
 * `--plan-panel-control-border`, `--plan-panel-focus`, `--plan-panel-danger`,
 * `--plan-panel-changed`, `--plan-panel-changed-bg`, `--plan-panel-radius`, `--plan-panel-padding`,
 * `--plan-panel-font`; parts `heading`, `summary`, `meta`, `approval`, `allow`, `deny`, `list`,
 * `item`, `changed`, `hint`, `actions`, `approve`, `decline`, `undo`. Attributes: `heading`,
 * `approve-label`, `decline-label` (over `strings`), `announce` (`all`, `steps`, `none`). While a
 * review is open the element has `data-reviewing="true"`.
 *
 * @example
 * ```ts
 * definePlanPanel();
 * const panel = document.createElement('plan-panel');
 * panel.plan = plan;            // subscribes; setting another plan or removing the element unsubscribes
 * document.body.append(panel);
 * await runWebAgent({ plan, task, start: { announce: () => panel.review() } }); // the user shapes the plan, then approves
 * ```
 */
export class PlanPanelElement extends Base {
  static readonly observedAttributes = ['heading', 'approve-label', 'decline-label', 'announce'];

  #plan: Plan | null = null;
  #offs: Unsubscribe[] = [];
  /** A summary the host set: shown until the plan gets a new summary or new todos. */
  #hostSummary: string | null = null;
  /** The summary of a plan being made, while it streams in. */
  #streamed: string | null = null;
  /** The plan's runs: the current one's state, and the one the todos came from. */
  readonly #runs: RunController;
  #activeId: string | null = null;
  /** The step in progress the list last scrolled to. */
  #followed: string | null = null;
  #review: Review | null = null;
  #editing: string | null = null;
  /** Steps removed during the review, newest last, with where they were. */
  #removed: Array<{ item: TodoItem; index: number }> = [];
  readonly #items = new Map<string, HTMLLIElement>();
  readonly #heading: HTMLHeadingElement;
  readonly #summaryEl: HTMLParagraphElement;
  readonly #meta: HTMLParagraphElement;
  readonly #empty: HTMLParagraphElement;
  readonly #list: HTMLOListElement;
  readonly #hint: HTMLParagraphElement;
  readonly #undoRow: HTMLParagraphElement;
  readonly #actions: HTMLDivElement;
  readonly #approve: HTMLButtonElement;
  readonly #decline: HTMLButtonElement;
  readonly #live: HTMLDivElement;
  readonly #hintKeys: HTMLSpanElement;
  readonly #hintTouch: HTMLSpanElement;
  readonly #undoButton: HTMLButtonElement;
  readonly #approval: ApprovalBox;
  #strings: PlanPanelStrings = PLAN_PANEL_STRINGS;

  constructor() {
    super();
    this.#runs = new RunController({ addController: () => {}, requestUpdate: () => this.#runChanged() });
    const root = this.attachShadow({ mode: 'open' });
    const doc = root.ownerDocument;
    const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string, part?: string): HTMLElementTagNameMap[K] => {
      const element = doc.createElement(tag);
      if (className) element.className = className;
      if (part) element.setAttribute('part', part);
      return element;
    };
    const style = doc.createElement('style');
    style.textContent = PLAN_PANEL_CSS;
    this.#heading = make('h2', '', 'heading');
    this.#heading.id = 'heading';
    this.#summaryEl = make('p', 'summary', 'summary');
    this.#meta = make('p', 'meta', 'meta');
    // The status line takes the focus when the control the user was on goes away (see #keepFocus).
    this.#meta.tabIndex = -1;
    this.#empty = make('p', 'empty');
    this.#hint = make('p', 'hint', 'hint');
    this.#hint.id = 'hint';
    this.#hint.hidden = true;
    // Keys for a keyboard, taps for a touch screen: the style shows the one that fits the pointer.
    this.#hintKeys = make('span', 'keys');
    this.#hintTouch = make('span', 'touch');
    this.#hint.append(this.#hintKeys, this.#hintTouch);
    this.#list = make('ol', '', 'list');
    // Safari drops the list role from lists styled `list-style: none`; say it explicitly.
    this.#list.setAttribute('role', 'list');
    this.#list.setAttribute('aria-labelledby', 'heading');
    this.#list.addEventListener('keydown', (event) => this.#onKeydown(event));
    this.#list.addEventListener('focusin', (event) => {
      const item = (event.target as Element | null)?.closest?.('li');
      if (item?.dataset.id) this.#setActive(item.dataset.id);
    });
    this.#list.addEventListener('click', (event) => this.#onClick(event));
    this.#list.addEventListener('dblclick', (event) => {
      const id = (event.target as Element | null)?.closest?.('li')?.dataset.id;
      if (id && this.#review && !(event.target as Element).closest('button, input')) this.#startEdit(id);
    });
    this.#undoRow = make('p', 'undo');
    this.#undoRow.hidden = true;
    this.#undoButton = make('button', '', 'undo');
    this.#undoButton.type = 'button';
    this.#undoButton.addEventListener('click', () => this.#undoRemove());
    this.#undoRow.append(doc.createTextNode(''), this.#undoButton);
    this.#actions = make('div', 'actions', 'actions');
    this.#actions.hidden = true;
    this.#approve = make('button', 'approve', 'approve');
    this.#decline = make('button', 'decline', 'decline');
    for (const button of [this.#approve, this.#decline]) button.type = 'button';
    this.#approve.addEventListener('click', () => this.#endReview(true));
    this.#decline.addEventListener('click', () => this.#endReview(false));
    // The undo line sits with the buttons, so that it stays in view with them.
    this.#actions.append(this.#undoRow, this.#approve, this.#decline);
    this.#live = make('div', 'sr-only', 'announcer');
    this.#live.setAttribute('role', 'status');
    this.#live.setAttribute('aria-live', 'polite');
    this.#approval = new ApprovalBox(doc, {
      strings: () => this.#strings,
      announce: (text) => this.#announce(text, 'steps'),
      fallbackFocus: () => this.#meta,
    });
    root.addEventListener('keydown', (event) => this.#onPanelKeydown(event as KeyboardEvent));
    root.append(style, this.#heading, this.#summaryEl, this.#meta, this.#approval.element, this.#hint, this.#empty, this.#list, this.#actions, this.#live);
    this.#renderLabels();
    this.#render();
  }

  /** The plan shown. Setting it unsubscribes from the previous plan (ending a review, declined) and renders the new one. */
  get plan(): Plan | null {
    return this.#plan;
  }

  set plan(plan: Plan | null) {
    if (plan === this.#plan) return;
    this.#endReview(false);
    this.#approval.denyAll('The plan shown changed.');
    this.#unsubscribe();
    this.#plan = plan;
    this.#hostSummary = null;
    this.#streamed = null;
    this.#activeId = null;
    this.#runs.plan = plan;
    this.#render();
    if (this.isConnected) this.#subscribe();
  }

  /**
   * The task summary shown above the todos: the plan's own (`plan.summary`), the one streaming in
   * while a new plan is made, or one the host set. A host's summary stays until the plan gets a
   * new summary or new todos.
   */
  get summary(): string {
    return this.#streamed ?? this.#hostSummary ?? this.#plan?.state.summary ?? '';
  }

  set summary(text: string) {
    this.#hostSummary = String(text ?? '');
    this.#streamed = null;
    this.#renderSummary();
  }

  /** The text the live region last announced. */
  get announcement(): string {
    return this.#live.textContent ?? '';
  }

  /**
   * Every word the panel shows and announces (default {@link PLAN_PANEL_STRINGS}, English). The
   * `heading`, `approve-label` and `decline-label` attributes win over it when set. A key the
   * host's object lacks (one written for an earlier version) takes the English default.
   *
   * @example
   * ```ts
   * panel.strings = { ...PLAN_PANEL_STRINGS, heading: 'Tour plan' };
   * ```
   */
  get strings(): PlanPanelStrings {
    return this.#strings;
  }

  set strings(strings: PlanPanelStrings | null | undefined) {
    this.#strings = withDefaults(strings, PLAN_PANEL_STRINGS);
    this.#renderLabels();
    this.#render();
    this.#approval.refresh();
  }

  /** What the live region says (the `announce` attribute): `'all'` (default), `'steps'` or `'none'`, see {@link PlanPanelAnnounce}. */
  get announce(): PlanPanelAnnounce {
    const value = this.getAttribute('announce');
    return value === 'steps' || value === 'none' ? value : 'all';
  }

  set announce(value: PlanPanelAnnounce) {
    this.setAttribute('announce', value);
  }

  /** Whether a review (see {@link review}) is open. */
  get reviewing(): boolean {
    return this.#review !== null;
  }

  /**
   * Lets the user shape the plan before it runs, and resolves with their choice: `true` when they
   * approve (the plan now holds their edits), `false` when they decline (the decline button,
   * Escape, or the panel given another plan). Rejects with the signal's reason when `signal`
   * aborts. Calling it while a review is open returns that review's promise. Fits `runWebAgent`'s
   * `start.announce` as it is. Defaults: `focus` true.
   *
   * @example
   * ```ts
   * const approved = await panel.review({ signal });
   * ```
   */
  review(options: PlanReviewOptions = {}): Promise<boolean> {
    if (this.#review) return this.#review.promise;
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    let settle!: (approved: boolean) => void;
    let fail!: (reason: unknown) => void;
    const promise = new Promise<boolean>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    const onAbort = (): void => {
      this.#closeReview();
      fail(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    this.#review = {
      promise,
      settle: (approved) => {
        signal?.removeEventListener('abort', onAbort);
        settle(approved);
      },
      returnFocus: options.returnFocus,
    };
    this.#removed = [];
    this.dataset.reviewing = 'true';
    this.#render();
    const count = this.#plan?.state.todos.length ?? 0;
    this.#announce(this.#strings.say.review(count, this.#approve.textContent ?? ''), 'run');
    if (options.focus !== false) this.#approve.focus();
    return promise;
  }

  /**
   * Ends an open review as the approve button does (for a host's own key, such as Space); does
   * nothing when no review is open.
   *
   * @example
   * ```ts
   * document.addEventListener('keydown', (event) => { if (event.key === ' ') panel.approve(); });
   * ```
   */
  approve(): void {
    this.#endReview(true);
  }

  /** Ends an open review as the decline button does; does nothing when no review is open. */
  decline(): void {
    this.#endReview(false);
  }

  /**
   * Asks the user, in the panel, whether an action may run (or whether a step the model rewrote
   * may stand): shows what will happen, how much it risks, the page, the step it serves and what
   * the model said it is for (quoted, as text), with Allow and Deny; Escape denies. The focus
   * moves to the request and goes back where it was after (`focus: false` leaves it alone).
   * Resolves `{ approved: true }` or `{ approved: false, reason }`; rejects with the signal's
   * reason when `signal` aborts. Requests made while one shows wait their turn. Fits
   * a run's `approval.ask` as it is. Defaults: `focus` true.
   *
   * @example
   * ```ts
   * await runWebAgent({ plan, task, tools, approval: { ask: (request, { signal }) => panel.requestApproval(request, { signal }) } });
   * ```
   */
  requestApproval(request: PanelApprovalRequest, options: PanelApprovalOptions = {}): Promise<PanelApprovalAnswer> {
    return this.#approval.request(request, options);
  }

  /** Whether an approval (see {@link requestApproval}) is waiting for the user. */
  get approving(): boolean {
    return this.#approval.pending;
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
      this.#render();
      this.#subscribe();
    }
    this.#runs.hostConnected();
  }

  disconnectedCallback(): void {
    this.#unsubscribe();
    this.#runs.hostDisconnected();
    // Removed, the panel cannot be answered: a pending approval is a no. Moved (taken out and put
    // back in the same task), it stays.
    queueMicrotask(() => {
      if (!this.isConnected) this.#approval.denyAll('The plan panel left the page.');
    });
  }

  attributeChangedCallback(): void {
    this.#renderLabels();
  }

  #subscribe(): void {
    const plan = this.#plan;
    if (!plan) return;
    const on = <K extends keyof PlanEvents & string>(name: K, listener: (payload: PlanEvents[K]) => void): void => {
      this.#offs.push(plan.on(name, listener));
    };
    on('state-change', ({ state, previous, origin }) => {
      if (state.summary !== previous.summary) this.#hostSummary = null;
      const news = origin === 'hydrate' ? [] : statusNews(previous, state, this.#strings);
      this.#render();
      if (news.length > 0) this.#announce(news.join(' '), 'steps');
    });
    // The kind of change (a new list, a restored one) is what the state alone cannot tell.
    on('todos-change', ({ todos, change }) => {
      if (change.type !== 'reset' && change.type !== 'hydrate') return;
      this.#hostSummary = null;
      this.#renderSummary();
      if (change.type === 'reset') this.#announce(todos.length === 0 ? this.#strings.say.emptyPlan : this.#strings.say.newPlan(todos.length), 'run');
    });
    on('plan-hydrate', ({ todos, restored }) => {
      const left = todos.filter((todo) => todo.status !== 'completed').length;
      if (restored && todos.length > 0) this.#announce(this.#strings.say.restored(left, todos.length), 'run');
    });
    // The summary of a plan being made streams in over the todos of the current one; the plan's
    // state takes over on `plan-create`, and a planning call that fails leaves the old one.
    on('summary-delta', ({ text }) => {
      this.#streamed = text;
      this.#renderSummary();
    });
    on('plan-create', () => {
      this.#streamed = null;
      this.#hostSummary = null;
      this.#render();
    });
  }

  /** The plan's current run changed (a new run, a new state): says how it ended, and shows where it is. */
  #runChanged(): void {
    const { state, previous } = this.#runs;
    const words = this.#strings.say;
    if (state && previous && state.phase !== previous.phase && state.end) {
      // The summary streaming in is the plan's from here on, or there is none.
      this.#streamed = null;
      const { end } = state;
      if (end.reason === 'unverified') {
        const texts = (end.unverified ?? []).flatMap(({ id }) => this.#todos().find((todo) => todo.id === id)?.description ?? []);
        this.#announce(words.unverified(texts), 'run');
      } else if (end.reason !== 'error') this.#announce(end.reason === 'declined' ? words.notStarted : words.finished(end.summary), 'run');
      else {
        const aborted = isPlanloopError(end.error, 'aborted');
        // No new plan was made: the todos shown are the previous plan's, and so is how it ended.
        if (beforePlan(end)) this.#announce(aborted ? words.stoppedBeforePlan : words.noNewPlan(end.error.message), 'run');
        else this.#announce(aborted ? words.stopped : words.stoppedByError(end.error.message), 'run');
      }
    }
    if (state?.phase === 'running' && state.turn > 0) this.dataset.turn = String(state.turn);
    this.#render();
  }

  /** How the runs stand, in the strings' words, and the turn under way: read from the runs' states, never kept. */
  #runNote(): { note: RunNote; turn: { turn: number; maxTurns: number } | null } {
    if (this.#runs.state?.phase === 'planning') return { note: 'planning', turn: null };
    const planned = this.#runs.planned;
    const end = planned?.end;
    if (!planned) return { note: '', turn: null };
    if (planned.phase === 'running') return { note: '', turn: planned.turn > 0 ? planned : null };
    if (!end) return { note: '', turn: null };
    if (end.reason !== 'error') return { note: end.reason === 'declined' ? 'notStarted' : end.reason === 'unverified' ? 'unverified' : 'finished', turn: null };
    return { note: isPlanloopError(end.error, 'aborted') ? 'stopped' : 'stoppedByError', turn: null };
  }

  #unsubscribe(): void {
    for (const off of this.#offs.splice(0)) off();
  }

  #todos(): readonly TodoItem[] {
    return this.#plan?.state.todos ?? [];
  }

  #render(): void {
    this.#renderSummary();
    this.#renderTodos();
    this.#renderReview();
    this.#renderMeta();
  }

  #renderSummary(): void {
    const text = this.summary;
    if (this.#summaryEl.textContent !== text) this.#summaryEl.textContent = text;
  }

  #renderTodos(): void {
    const todos = this.#todos();
    const doc = this.#list.ownerDocument;
    const root = this.shadowRoot as ShadowRoot;
    // Moving the focused item in the DOM drops its focus: note it, and give it back afterwards.
    const focused = (root.activeElement as HTMLElement | null)?.closest?.('li')?.dataset.id;
    const keep = new Set(todos.map((todo) => todo.id));
    for (const [id, item] of this.#items) {
      if (!keep.has(id)) {
        item.remove();
        this.#items.delete(id);
      }
    }
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
        const changed = doc.createElement('span');
        changed.className = 'changed';
        changed.setAttribute('part', 'changed');
        item.append(mark, text, changed, status);
        this.#items.set(todo.id, item);
      }
      // The mark "changed by the model" is read right after the text it is about.
      const [mark, text, changed, status] = Array.from(item.children) as HTMLElement[];
      const controls = this.#controls(item, this.#review !== null && todo.status === 'pending');
      const shown = shownAs(todo);
      if (mark) mark.textContent = MARK[shown];
      if (text && !text.querySelector('input') && text.textContent !== todo.description) text.textContent = todo.description;
      if (status) status.textContent = shown === 'pending' || shown === 'in_progress' ? this.#strings.status[shown] : this.#strings.evidence[shown];
      if (shown === todo.status) delete item.dataset.evidence;
      else item.dataset.evidence = shown;
      // A todo the model rewrote after the plan was announced (set by the loop, cleared when the
      // user approves or edits it): said in words beside the text, so that it is heard too.
      const rewritten = (todo as { rewritten?: unknown }).rewritten === true;
      if (changed) {
        changed.hidden = !rewritten;
        changed.textContent = rewritten ? this.#strings.changedByModel : '';
      }
      if (rewritten) item.dataset.rewritten = 'true';
      else delete item.dataset.rewritten;
      CONTROLS.forEach((control, position) => {
        const button = controls?.children[position] as HTMLButtonElement | undefined;
        if (!button) return;
        button.setAttribute('aria-label', control.label(this.#strings, index + 1));
        button.title = button.getAttribute('aria-label') ?? '';
        button.disabled = (control.action === 'up' && index === 0) || (control.action === 'down' && index === todos.length - 1);
      });
      item.dataset.status = todo.status;
      item.dataset.intent = todo.intent;
      if (todo.status === 'in_progress') item.setAttribute('aria-current', 'step');
      else item.removeAttribute('aria-current');
      if (this.#list.children[index] !== item) this.#list.insertBefore(item, this.#list.children[index] ?? null);
    });
    this.#empty.hidden = todos.length > 0;
    this.#list.hidden = todos.length === 0;
    // The tab stop follows the todo in progress until the user moves it; then it stays where they left it.
    if (this.#activeId && !keep.has(this.#activeId)) this.#activeId = null;
    if (this.#editing && !keep.has(this.#editing)) this.#editing = null;
    const fallback = (todos.find((t) => t.status === 'in_progress') ?? todos[0])?.id ?? null;
    this.#setTabStop(this.#activeId ?? fallback);
    if (focused && root.activeElement === null) this.#items.get(focused)?.focus();
    const current = todos.find((todo) => todo.status === 'in_progress')?.id ?? null;
    if (current !== this.#followed) {
      this.#followed = current;
      if (current) this.#scrollListTo(this.#items.get(current));
    }
  }

  /**
   * When the list scrolls (a host capped its height, e.g. on a phone), brings a newly started step
   * into view within the list alone: `scrollIntoView` would scroll the page too.
   */
  #scrollListTo(item: HTMLLIElement | undefined): void {
    const list = this.#list;
    if (!item || list.scrollHeight <= list.clientHeight) return;
    const top = item.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  /** The step's buttons while it can be changed (created then, removed after). */
  #controls(item: HTMLLIElement, wanted: boolean): HTMLElement | null {
    let controls = item.querySelector<HTMLElement>('.controls');
    if (!wanted) {
      controls?.remove();
      return null;
    }
    if (controls) return controls;
    const doc = item.ownerDocument;
    controls = doc.createElement('span');
    controls.className = 'controls';
    for (const control of CONTROLS) {
      const button = doc.createElement('button');
      button.type = 'button';
      // In the Tab order: the selected step's buttons follow it (the one step in the tab order).
      button.dataset.action = control.action;
      button.textContent = control.mark;
      controls.append(button);
    }
    item.append(controls);
    return controls;
  }

  #renderReview(): void {
    const reviewing = this.#review !== null;
    this.#actions.hidden = !reviewing;
    this.#hint.hidden = !reviewing;
    this.#approve.disabled = !this.#todos().some((todo) => todo.status === 'pending');
    if (reviewing) this.#list.setAttribute('aria-describedby', 'hint');
    else this.#list.removeAttribute('aria-describedby');
    const last = this.#removed.at(-1);
    this.#undoRow.hidden = !reviewing || !last;
    if (reviewing && last) (this.#undoRow.firstChild as Text).data = this.#strings.removedLine(last.item.description);
  }

  #renderMeta(): void {
    const todos = this.#todos();
    const words = this.#strings;
    const done = todos.filter((todo) => shownAs(todo) === 'checked' || shownAs(todo) === 'unchecked').length;
    const progress = todos.length > 0 ? words.progress(done, todos.length) : '';
    const run = this.#runNote();
    const turn = run.turn ? words.turn(run.turn.turn, run.turn.maxTurns) : '';
    this.#meta.textContent = [progress, turn, run.note ? words[run.note] : ''].filter(Boolean).join(' · ');
  }

  #renderLabels(): void {
    const words = this.#strings;
    this.#heading.textContent = this.getAttribute('heading') || words.heading;
    this.#approve.textContent = this.getAttribute('approve-label') || words.approve;
    this.#decline.textContent = this.getAttribute('decline-label') || words.decline;
    this.#empty.textContent = words.empty;
    this.#hintKeys.textContent = words.hintKeys;
    this.#hintTouch.textContent = words.hintTouch;
    this.#undoButton.textContent = words.undo;
  }

  /** Roving tabindex: one item is in the tab order; the arrow keys move between items. */
  #setActive(id: string | null): void {
    this.#activeId = id;
    this.#setTabStop(id);
  }

  #setTabStop(id: string | null): void {
    for (const [itemId, item] of this.#items) {
      item.tabIndex = itemId === id ? 0 : -1;
      if (itemId === id) item.dataset.selected = 'true';
      else delete item.dataset.selected;
    }
  }

  #onKeydown(event: KeyboardEvent): void {
    if ((event.target as Element | null)?.closest?.('input')) return; // the editor's keys are its own
    const item = (event.target as Element | null)?.closest?.('li');
    const id = item?.dataset.id;
    if (this.#review && id && this.#reviewKey(event, id)) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (!NAV_KEYS.has(event.key) || event.altKey) return;
    const items = Array.from(this.#list.children) as HTMLLIElement[];
    if (items.length === 0) return;
    const current = items.findIndex((candidate) => candidate.tabIndex === 0);
    const last = items.length - 1;
    const next =
      event.key === 'Home'
        ? 0
        : event.key === 'End'
          ? last
          : event.key === 'ArrowDown' || event.key === 'ArrowRight'
            ? Math.min(last, current + 1)
            : Math.max(0, current - 1);
    const target = items[next];
    if (!target) return;
    event.preventDefault();
    this.#setActive(target.dataset.id ?? null);
    target.focus();
  }

  /** The review keys on the step `id`; whether the key was one of them. */
  #reviewKey(event: KeyboardEvent, id: string): boolean {
    // On one of the step's buttons, Enter and Space press the button.
    if ((event.target as Element).closest('button')) return false;
    if (event.altKey && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      this.#act(event.key === 'ArrowUp' ? 'up' : 'down', id);
      return true;
    }
    if (event.key === 'Enter' || event.key === 'F2') {
      this.#act('edit', id);
      return true;
    }
    if (event.key === 'Delete' || event.key === 'Backspace') {
      this.#act('remove', id);
      return true;
    }
    // Space on a step is not the host's "start" key while the user is working on the plan.
    return event.key === ' ';
  }

  /** Keys anywhere in the panel while reviewing: Escape declines, Ctrl+Z (Cmd+Z) undoes a removal. */
  #onPanelKeydown(event: KeyboardEvent): void {
    if (!this.#review || event.defaultPrevented || (event.target as Element | null)?.closest?.('input')) return;
    if (event.key === 'Escape') this.#endReview(false);
    else if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'z' && this.#removed.length > 0) this.#undoRemove();
    else return;
    event.preventDefault();
    event.stopPropagation();
  }

  #onClick(event: MouseEvent): void {
    const button = (event.target as Element | null)?.closest?.('button[data-action]') as HTMLButtonElement | null;
    const id = button?.closest('li')?.dataset.id;
    if (!button || !id || !this.#review) return;
    this.#act(button.dataset.action as ControlAction, id, button);
  }

  /** Does `action` on the step `id`; `button` is the step's button that asked, if one did (the focus stays on it). */
  #act(action: ControlAction, id: string, button?: HTMLButtonElement): void {
    const plan = this.#plan;
    const index = this.#todos().findIndex((todo) => todo.id === id);
    const todo = this.#todos()[index];
    if (!plan || !todo || todo.status !== 'pending') return;
    if (action === 'edit') this.#startEdit(id);
    else if (action === 'remove') this.#remove(todo, index);
    else {
      const to = index + (action === 'up' ? -1 : 1);
      if (to < 0 || to >= this.#todos().length) return;
      plan.todos.move(id, to);
      // Pressed on the button: stay on it to press it again, unless the step reached the end.
      if (button && canFocus(button)) button.focus();
      else this.#items.get(id)?.focus();
      this.#announce(this.#strings.say.moved(todo.description, to + 1, this.#todos().length), 'steps');
    }
  }

  #startEdit(id: string): void {
    const todo = this.#todos().find((candidate) => candidate.id === id);
    const item = this.#items.get(id);
    const text = item?.querySelector('.text');
    if (todo?.status !== 'pending' || !item || !text || this.#editing === id) return;
    if (this.#editing) this.#finishEdit(true);
    this.#editing = id;
    const input = item.ownerDocument.createElement('input');
    input.value = todo.description;
    input.maxLength = TODO_LIMITS.description;
    input.setAttribute('aria-label', this.#strings.stepText(this.#todos().indexOf(todo) + 1));
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') this.#finishEdit(true);
      else if (event.key === 'Escape') this.#finishEdit(false);
      else return;
      event.preventDefault();
      event.stopPropagation();
    });
    input.addEventListener('blur', () => {
      if (this.#editing === id) this.#finishEdit(true);
    });
    text.replaceChildren(input);
    input.focus();
    input.select();
  }

  /** Closes the editor: `save` writes its text to the plan (an empty text keeps the old one). */
  #finishEdit(save: boolean): void {
    const id = this.#editing;
    const item = id ? this.#items.get(id) : undefined;
    const input = item?.querySelector('.text input') as HTMLInputElement | null | undefined;
    this.#editing = null;
    if (!id || !item || !input) return;
    const value = input.value.trim();
    const todo = this.#todos().find((candidate) => candidate.id === id);
    const hadFocus = (this.shadowRoot as ShadowRoot).activeElement === input;
    (item.querySelector('.text') as HTMLElement).textContent = todo?.description ?? '';
    if (hadFocus) item.focus();
    if (!save || !todo || value === todo.description) return;
    if (!value) {
      this.#announce(this.#strings.say.emptyText, 'steps');
      return;
    }
    try {
      this.#plan?.todos.edit(id, { description: value });
      this.#announce(this.#strings.say.changed(value), 'steps');
    } catch (error) {
      this.#announce(this.#strings.say.notChanged((error as Error).message), 'steps');
    }
  }

  #remove(todo: TodoItem, index: number): void {
    if (!this.#plan?.todos.delete(todo.id)) return;
    this.#removed.push({ item: { ...todo }, index });
    this.#renderReview();
    const todos = this.#todos();
    const next = todos[Math.min(index, todos.length - 1)];
    if (next) {
      this.#setActive(next.id);
      this.#items.get(next.id)?.focus();
    } else this.#undoRow.querySelector('button')?.focus();
    this.#announce(this.#strings.say.removed(todo.description), 'steps');
  }

  /** Puts the last removed step back where it was (as a new todo: ids are never reused). */
  #undoRemove(): void {
    const plan = this.#plan;
    const last = this.#removed.pop();
    if (!plan || !last) return;
    const { id: _old, ...item } = last.item;
    const [restored] = plan.todos.createMany([item]);
    if (!restored) return;
    plan.todos.move(restored.id, last.index);
    this.#renderReview();
    this.#setActive(restored.id);
    this.#items.get(restored.id)?.focus();
    this.#announce(this.#strings.say.broughtBack(restored.description), 'steps');
  }

  #endReview(approved: boolean): void {
    const review = this.#review;
    if (!review) return;
    if (this.#editing) this.#finishEdit(true);
    if (approved && this.#plan) {
      const edits = turnsInOrder(this.#todos());
      if (edits.length > 0) this.#plan.todos.editMany(edits);
    }
    this.#closeReview(approved);
    this.#announce(approved ? this.#strings.say.approved : this.#strings.say.declined, 'run');
    review.settle(approved);
  }

  /**
   * Closes the review. Its buttons go with it: when the focus was in the panel, it moves where the
   * host said (`returnFocus`), else to the status line, never to the page's body.
   */
  #closeReview(approved = false): void {
    const returnFocus = this.#review?.returnFocus;
    const root = this.shadowRoot as ShadowRoot;
    const hadFocus = root.activeElement !== null;
    if (this.#editing) this.#finishEdit(false);
    this.#review = null;
    this.#removed = [];
    delete this.dataset.reviewing;
    this.#render();
    if (!hadFocus) return;
    const active = deepActiveElement(this.ownerDocument);
    if (active && root.contains(active) && canFocus(active)) return;
    focusBack(returnFocus?.(approved), this.#meta);
  }

  /** Says `text` in the live region, unless the `announce` level leaves out this `kind` of news. */
  #announce(text: string, kind: 'run' | 'steps'): void {
    const level = this.announce;
    if (level === 'none' || (level === 'steps' && kind === 'run')) return;
    this.#live.textContent = text;
  }
}

/**
 * How a row shows a todo: what a run found about it, else its status. A declined todo never
 * reads as done; a completed one is `checked` only on evidence, else `unchecked` (the model's
 * word); `held` is shown while the todo is open.
 */
function shownAs(todo: TodoItem): Shown {
  if (todo.evidence === 'declined') return 'declined';
  if (todo.status === 'completed') return todo.evidence === 'checked' ? 'checked' : 'unchecked';
  return todo.evidence === 'held' ? 'held' : todo.status;
}

/** "Now: …", "Done: …", "Not done yet: …" and "Declined: …" lines for todos shown otherwise between two states. */
function statusNews(previous: PlanState, state: PlanState, words: PlanPanelStrings): string[] {
  if (state.todos === previous.todos) return [];
  const before = new Map(previous.todos.map((todo) => [todo.id, shownAs(todo)]));
  const say = words.say;
  const lines: Partial<Record<Shown, (text: string) => string>> = {
    in_progress: say.now,
    checked: say.done,
    unchecked: say.doneUnchecked,
    held: say.held,
    declined: say.stepDeclined,
  };
  return state.todos.flatMap((todo) => {
    const shown = shownAs(todo);
    const was = before.get(todo.id);
    const line = lines[shown];
    return was === undefined || was === shown || !line ? [] : [line(todo.description)];
  });
}

/**
 * `given` with every key it lacks taken from `defaults`, at every depth: a host's strings written
 * for an earlier version (without the words added since) show those in English instead of failing.
 */
function withDefaults<T>(given: T | null | undefined, defaults: T): T {
  if (typeof given !== 'object' || given === null || typeof defaults !== 'object' || defaults === null) return given ?? defaults;
  const [host, base] = [given, defaults] as unknown as Array<Record<string, unknown>>;
  const merged = { ...base, ...host };
  for (const key of Object.keys(base as object)) merged[key] = withDefaults(host?.[key], base?.[key]);
  return merged as T;
}

/**
 * The edits that make the planner's predicted turns follow the list again after the user moved or
 * removed steps: the turn numbers in use, sorted and closed up (a removed step's turn goes), handed
 * out in list order; steps the planner put in one turn stay together. None when nothing changes.
 */
function turnsInOrder(todos: readonly TodoItem[]): Array<{ id: string; patch: { expected_turn: number } }> {
  const predicted = todos.filter((todo) => todo.status === 'pending' && todo.expected_turn !== undefined);
  const sorted = predicted.map((todo) => todo.expected_turn as number).sort((a, b) => a - b);
  const distinct = [...new Set(sorted)];
  const closedUp = sorted.map((turn) => (distinct[0] as number) + distinct.indexOf(turn));
  return predicted.flatMap((todo, index) =>
    todo.expected_turn === closedUp[index] ? [] : [{ id: todo.id, patch: { expected_turn: closedUp[index] as number } }],
  );
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
export function definePlanPanel(tagName = 'plan-panel', registry: CustomElementRegistry = globalThis.customElements): typeof PlanPanelElement {
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
