import { announces } from '../dom/consequential-words.js';
import type { ConsequenceKind } from '../dom/consequential-words.js';
import type { PanelRisk, PlanPanelStrings } from './plan-panel-strings.js';

/**
 * What `<plan-panel>`'s `requestApproval` shows: structurally the loop's `ApprovalRequest` (declared
 * here so that the UI does not import the loop). Every text in it may come from the model or the
 * page and is shown as text, never as HTML; the todo and `purpose` are shown quoted.
 */
export interface PanelApprovalRequest {
  /** An action about to run, or a todo the model rewrote after the plan was announced. */
  readonly kind: 'action' | 'plan-change';
  readonly tool?: string | undefined;
  readonly args?: Readonly<Record<string, unknown>> | undefined;
  readonly risk: PanelRisk;
  /** What will happen, in words for the user. */
  readonly detail: string;
  /** The todo it serves. */
  readonly todo?: { readonly id: string; readonly description: string } | undefined;
  /** The page it happens on. */
  readonly url?: string | undefined;
  /** What the model said it is for (untrusted: shown quoted). */
  readonly purpose?: string | undefined;
  /** What the action does, as the page shows it or as observed (`It sends a DELETE to /api/account`); already part of `detail`. */
  readonly effect?: string | undefined;
  /** What it amounts to (`send`, `delete`, `leave`…): compared with the todo's words to say when the action is not what the todo announced. */
  readonly consequence?: string | undefined;
}

/** The user's answer: `reason` says why not, for the model. */
export interface PanelApprovalAnswer {
  approved: boolean;
  reason?: string;
}

/** Options of `requestApproval`. */
export interface PanelApprovalOptions {
  /** Cancels the pending approval: the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Moves the focus to the request when it shows (and back where it was after). Default `true`. */
  focus?: boolean | undefined;
}

interface Pending {
  request: PanelApprovalRequest;
  options: PanelApprovalOptions;
  resolve: (answer: PanelApprovalAnswer) => void;
  reject: (reason: unknown) => void;
  onAbort: () => void;
  /** Where the focus was when the request showed (given back after). */
  before: HTMLElement | null;
}

/** What the approval box asks of the panel that holds it. */
export interface ApprovalBoxHost {
  /** The words to show. */
  strings: () => PlanPanelStrings;
  /** Says something in the panel's live region. */
  announce: (text: string) => void;
  /** Where the focus goes after the last request when where it was is gone. */
  fallbackFocus: () => HTMLElement | null;
}

/** Args shown beside the tool, at most this many characters. */
const ARGS_SHOWN = 160;

/**
 * The panel's approval box: one request shown at a time (later ones wait in order), Allow and
 * Deny, Escape denies. It owns its DOM; the panel places it and says how to announce and where the
 * focus goes when nothing better is left.
 *
 * @example
 * ```ts
 * const box = new ApprovalBox(document, { strings: () => PLAN_PANEL_STRINGS, announce: () => {}, fallbackFocus: () => null });
 * ```
 */
export class ApprovalBox {
  readonly element: HTMLElement;
  readonly #heading: HTMLHeadingElement;
  readonly #detail: HTMLParagraphElement;
  readonly #warning: HTMLParagraphElement;
  readonly #facts: HTMLDListElement;
  readonly #allow: HTMLButtonElement;
  readonly #deny: HTMLButtonElement;
  readonly #queue: Pending[] = [];
  readonly #risk: HTMLParagraphElement;
  readonly #host: ApprovalBoxHost;

  constructor(doc: Document, host: ApprovalBoxHost) {
    this.#host = host;
    const make = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] => {
      const element = doc.createElement(tag);
      element.className = className;
      return element;
    };
    this.element = make('section', 'approval');
    this.element.setAttribute('part', 'approval');
    this.element.setAttribute('role', 'group');
    this.element.setAttribute('aria-labelledby', 'approval-heading');
    this.element.setAttribute('aria-describedby', 'approval-risk approval-detail approval-warning approval-facts');
    // Focusable itself, so that the focus lands on the question, not on Allow: a stray Enter
    // does not approve an irreversible action.
    this.element.tabIndex = -1;
    this.element.hidden = true;
    this.#heading = make('h3', 'approval-heading');
    this.#heading.id = 'approval-heading';
    this.#risk = make('p', 'approval-risk');
    this.#risk.id = 'approval-risk';
    this.#detail = make('p', 'approval-detail');
    this.#detail.id = 'approval-detail';
    this.#warning = make('p', 'approval-warning');
    this.#warning.id = 'approval-warning';
    this.#warning.setAttribute('part', 'approval-warning');
    this.#facts = make('dl', 'approval-facts');
    this.#facts.id = 'approval-facts';
    const buttons = make('div', 'approval-actions');
    this.#allow = make('button', 'allow');
    this.#deny = make('button', 'deny');
    this.#allow.setAttribute('part', 'allow');
    this.#deny.setAttribute('part', 'deny');
    for (const button of [this.#allow, this.#deny]) button.type = 'button';
    this.#allow.addEventListener('click', () => this.#answer(true));
    this.#deny.addEventListener('click', () => this.#answer(false));
    buttons.append(this.#allow, this.#deny);
    this.element.append(this.#heading, this.#risk, this.#detail, this.#warning, this.#facts, buttons);
    this.element.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || this.#queue.length === 0) return;
      // Escape here means "no" to this action, not "stop the tour" to a host listening on the page.
      event.preventDefault();
      event.stopPropagation();
      this.#answer(false);
    });
  }

  /** Whether a request is showing. */
  get pending(): boolean {
    return this.#queue.length > 0;
  }

  /** Queues `request`; resolves with the user's answer, rejects with the signal's reason on abort. */
  request(request: PanelApprovalRequest, options: PanelApprovalOptions): Promise<PanelApprovalAnswer> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<PanelApprovalAnswer>((resolve, reject) => {
      const pending: Pending = {
        request,
        options,
        resolve,
        reject,
        before: null,
        onAbort: () => this.#drop(pending, () => reject(signal?.reason)),
      };
      signal?.addEventListener('abort', pending.onAbort, { once: true });
      this.#queue.push(pending);
      if (this.#queue.length === 1) this.#show(pending);
    });
  }

  /** Re-renders the words of the request showing (after the strings changed). */
  refresh(): void {
    const showing = this.#queue[0];
    if (showing) this.#render(showing.request);
  }

  /** Denies every pending request (the panel got another plan or left the page). */
  denyAll(reason: string): void {
    for (const pending of [...this.#queue]) this.#drop(pending, () => pending.resolve({ approved: false, reason }));
  }

  #show(pending: Pending): void {
    this.#render(pending.request);
    this.element.hidden = false;
    if (pending.options.focus === false) return;
    pending.before = deepActiveElement(this.element.ownerDocument);
    this.element.focus();
  }

  #render(request: PanelApprovalRequest): void {
    const words = this.#host.strings();
    const approval = words.approval;
    this.element.dataset.risk = request.risk;
    this.element.dataset.kind = request.kind;
    this.#heading.textContent = request.kind === 'plan-change' ? approval.planChangeHeading : approval.actionHeading;
    this.#detail.textContent = request.detail;
    const warning = notAnnounced(request, words);
    this.#warning.textContent = warning;
    this.#warning.hidden = warning === '';
    this.#allow.textContent = approval.allow;
    this.#deny.textContent = approval.deny;
    const doc = this.element.ownerDocument;
    this.#risk.textContent = approval.risk[request.risk] ?? request.risk;
    const facts: Array<[string, string]> = [];
    if (request.todo) facts.push([approval.step, words.quote(request.todo.description)]);
    if (request.url) facts.push([approval.page, request.url]);
    if (request.tool) facts.push([approval.tool, describeCall(request.tool, request.args)]);
    if (request.purpose) facts.push([approval.purpose, words.quote(request.purpose)]);
    this.#facts.replaceChildren(
      ...facts.flatMap(([term, value]) => {
        const dt = doc.createElement('dt');
        dt.textContent = term;
        const dd = doc.createElement('dd');
        dd.textContent = value;
        return [dt, dd];
      }),
    );
  }

  #answer(approved: boolean): void {
    const pending = this.#queue[0];
    if (!pending) return;
    const words = this.#host.strings();
    this.#drop(pending, () => pending.resolve(approved ? { approved: true } : { approved: false, reason: words.approval.deniedReason }));
    this.#host.announce(approved ? words.say.allowed : words.say.denied);
  }

  /** Takes `pending` off the queue, settles it, shows the next one or gives the focus back. */
  #drop(pending: Pending, settle: () => void): void {
    const index = this.#queue.indexOf(pending);
    if (index < 0) return;
    pending.options.signal?.removeEventListener('abort', pending.onAbort);
    this.#queue.splice(index, 1);
    const hadFocus = this.element.contains(deepActiveElement(this.element.ownerDocument));
    if (index === 0) {
      const next = this.#queue[0];
      if (next) {
        // The next request inherits where the focus should go back to in the end.
        next.before ??= pending.before;
        this.#show(next);
      } else {
        this.element.hidden = true;
        if (hadFocus) focusBack(pending.before, this.#host.fallbackFocus());
      }
    }
    settle();
  }
}

/**
 * The warning for an action that does something its todo did not announce ("Not what the step
 * said: "Open the pricing page" does not say it sends something."), or `''`.
 */
function notAnnounced(request: PanelApprovalRequest, words: PlanPanelStrings): string {
  const consequence = request.consequence as ConsequenceKind | undefined;
  if (request.kind !== 'action' || !request.todo || !consequence || !Object.hasOwn(words.approval.consequence, consequence)) return '';
  if (announces(request.todo.description, consequence, request.url)) return '';
  return words.approval.notAnnounced(words.quote(request.todo.description), words.approval.consequence[consequence]);
}

/** "click (target: e12)": a tool and its arguments on one short line, at most {@link ARGS_SHOWN} characters. */
function describeCall(tool: string, args: Readonly<Record<string, unknown>> | undefined): string {
  const parts = Object.entries(args ?? {}).map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const text = parts.length > 0 ? `${tool} (${parts.join(', ')})` : tool;
  return text.length > ARGS_SHOWN ? `${text.slice(0, ARGS_SHOWN - 1)}…` : text;
}

/**
 * The focused element, inside open shadow roots too; `null` for none or the body.
 *
 * @example
 * ```ts
 * const before = deepActiveElement(document); // later: focusBack(before, fallback)
 * ```
 */
export function deepActiveElement(doc: Document): HTMLElement | null {
  let active = doc.activeElement as HTMLElement | null;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement as HTMLElement;
  return active && active !== doc.body ? active : null;
}

/**
 * Whether `element` can take the focus now: in the page, not disabled, with no `hidden` ancestor
 * (across shadow roots).
 *
 * @example
 * ```ts
 * const stopButton = document.querySelector<HTMLButtonElement>('#stop');
 * if (canFocus(stopButton)) stopButton.focus();
 * ```
 */
export function canFocus(element: HTMLElement | null | undefined): element is HTMLElement {
  if (!element?.isConnected || (element as HTMLButtonElement).disabled) return false;
  // [hidden] inside a shadow root and the shadow host's own [hidden] both count.
  for (let node: Node | null = element; node; node = node.parentNode ?? (node as ShadowRoot).host ?? null) {
    if (node instanceof Element && node.hasAttribute('hidden')) return false;
  }
  return true;
}

/**
 * Focuses `preferred` when it can take the focus, else `fallback` (else nothing).
 *
 * @example
 * ```ts
 * const whereTheUserWas = deepActiveElement(document);
 * const statusLine = document.querySelector<HTMLElement>('#status');
 * focusBack(whereTheUserWas, statusLine);
 * ```
 */
export function focusBack(preferred: HTMLElement | null | undefined, fallback: HTMLElement | null | undefined): void {
  const target = canFocus(preferred) ? preferred : canFocus(fallback) ? fallback : null;
  target?.focus();
}
