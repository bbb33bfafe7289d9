import { accessibleName } from './accessible-name.js';
import { checkNavigation, type NavigationCheckOptions } from './check-navigation.js';
import { elementRole, INTERACTIVE_ROLES } from './element-role.js';
import { isOffLimits } from './host-ui.js';
import { documentOf, pageRoot } from './page-root.js';
import { resolveTarget, type ResolveFailureReason, type ResolveTargetOptions } from './resolve-target.js';
import { unseenReason } from './sighted.js';
import { hasLayout } from './visibility.js';
import { closestAcross } from './flat-tree.js';

/*
 * The one function a host's click tool calls. It resolves the target as `resolveTarget` does
 * (refs the model was shown, nothing hidden, nothing of the host's own UI), makes sure a person
 * could see it and click it now, works out what the click would do, refuses what must never
 * happen (javascript: and other non-web URLs, other sites, downloads), asks the user through
 * `confirm` before what cannot be undone (a form submission, a new tab, leaving the site), and
 * only then clicks. Every refusal is a result with a message for the model, never a throw.
 */

/** A step riskier than a plain click, for the user to approve. Structurally `LoopToolContext.confirm`'s argument. */
export interface ActivateStep {
  risk: 'write' | 'irreversible';
  /** What will happen, in words for the user: `Submit the form "Start my trial" on /try`. */
  detail: string;
  /** Where it leads, when it leads somewhere. */
  url?: string;
}

/** The user's answer to an {@link ActivateStep}: anything but `approved: true` is a no. */
export interface ActivateApproval {
  approved: boolean;
  reason?: string;
}

/** Options of {@link activate}: where to look (as {@link resolveTarget}), which origins, downloads, and how to ask. */
export interface ActivateOptions extends ResolveTargetOptions, Pick<NavigationCheckOptions, 'allowedOrigins'> {
  /** Follow links that download a file (a `download` attribute, or a path ending in .zip, .exe, .dmg…), after `confirm`. Default `false`: refused. */
  allowDownloads?: boolean | undefined;
  /**
   * Asks the user before an irreversible click: a form submission, a new tab or window, leaving
   * the site, a download. Pass the loop's `context.confirm`. A throw or anything but
   * `{ approved: true }` is a no. Default none: such clicks are refused, with a reason for the model.
   */
  confirm?: ((step: ActivateStep) => Promise<ActivateApproval> | ActivateApproval) | undefined;
}

/** Why {@link activate} did not click: a resolution failure, or a guard. */
export type ActivateRefusal =
  | ResolveFailureReason
  | 'not-actionable'
  | 'covered'
  | 'disabled'
  | 'blocked-url'
  | 'other-origin'
  | 'download'
  | 'needs-approval'
  | 'denied';

/** What {@link activate} did, or why it did not; JSON-able, so a tool can return it as it is. */
export type ActivateResult =
  | {
      ok: true;
      /** The target as given. */
      target: string;
      /** The element's ref, when an outline gave it one. */
      ref?: string;
      /** `clicked`; `followed-link` (same site or an allowed one); `submitted` a form; `opened-tab`; `downloaded`. */
      did: 'clicked' | 'followed-link' | 'submitted' | 'opened-tab' | 'downloaded';
      /** In words, for the model's next turn. */
      detail: string;
      /** Where a link or form leads. */
      url?: string;
    }
  | {
      ok: false;
      target: string;
      reason: ActivateRefusal;
      /** For the model: what was refused, why, and what it can do instead. */
      message: string;
    };

/** Paths that are almost always downloads rather than pages. */
const DOWNLOAD_PATH = /\.(exe|msi|msix|dmg|pkg|deb|rpm|apk|ipa|appimage|bat|cmd|com|scr|ps1|sh|jar|vbs|zip|rar|7z|tar|gz|tgz|bz2|xz|iso|img|bin)$/i;

/** What a click on an element would do, worked out before clicking. */
interface Consequence {
  did: 'clicked' | 'followed-link' | 'submitted' | 'opened-tab' | 'downloaded';
  risk: 'write' | 'irreversible';
  detail: string;
  url?: string;
  refusal?: { reason: ActivateRefusal; message: string };
}

/** Elements that make what is inside them act when clicked (a span inside a link or a label). */
const ACTIONABLE_ANCESTOR = 'a[href], button, summary, label, [onclick], [tabindex]:not([tabindex="-1"])';

/**
 * Clicks what the model named, safely: the one function a host's click tool should call. It
 * resolves `target` as {@link resolveTarget} does (an outline ref by default; nothing hidden or in
 * the host's own UI), scrolls it into view, and refuses it when a person could not see it there
 * (transparent, clipped, out of reach, or covered by something else at its centre and corners).
 * Then it looks at what the click would do:
 *
 * - a link or form to a `javascript:`, `data:`, `file:`, `blob:` or other non-web URL: refused, always;
 * - a link or form to another origin: refused unless `allowedOrigins` lists it, then irreversible;
 * - a download (`download` attribute, a path like `.zip` or `.exe`): refused unless `allowDownloads`, then irreversible;
 * - a form submission (a submit button, `input type=submit|image`, a `<button>` in a form without a
 *   type), `target=_blank` or any other new window: irreversible;
 * - anything else (a same-origin link, an in-page button): a plain click.
 *
 * An irreversible click happens only when `confirm` says yes; without `confirm` it is refused.
 * Where the browser has the Navigation API, a navigation the click sets off anyway (a script
 * sending the tab elsewhere, submitting a form) is checked the same way and cancelled when refused.
 * Never throws on what the model sent (a host mistake, such as a bad `allowedOrigins`, throws a
 * `ValidationError`).
 * Defaults: refs only, same origin only, no downloads, no `confirm` (irreversible clicks refused).
 *
 * @example
 * ```ts
 * import { runWebAgent } from 'planloop';
 * import { activate } from 'planloop/dom';
 *
 * await runWebAgent({
 *   plan,
 *   task,
 *   tools: {
 *     click: {
 *       risk: 'write',
 *       description: 'click an element {target}',
 *       // A refusal comes back as { ok: false, reason, message }: the model reads it next turn.
 *       run: ({ target }, context) => activate(String(target), { confirm: context.confirm, exclude: '#guide' }),
 *     },
 *   },
 *   observe: ({ maxTokens }) => renderOutline(outlinePage({ maxTokens, exclude: '#guide' })),
 * });
 * ```
 */
export async function activate(target: unknown, options: ActivateOptions = {}): Promise<ActivateResult> {
  const root = pageRoot(options.root, 'activate');
  const given = typeof target === 'string' ? target.trim() : String(target ?? '');
  const found = resolveTarget(target, options);
  if (!found.ok) return { ok: false, target: given, reason: found.reason, message: found.message };
  const { element, ref } = found;
  const document = documentOf(root);
  const layout = options.layout ?? hasLayout(document);
  const what = `${ref ? `${ref} ` : ''}(${describe(element)})`;
  const refuse = (reason: ActivateRefusal, message: string): ActivateResult => ({ ok: false, target: given, reason, message });

  // Only what the outline showed as something to act on: a paragraph it showed as text is read, not clicked.
  const role = elementRole(element);
  if (!(role && INTERACTIVE_ROLES.has(role)) && !element.closest(ACTIONABLE_ANCESTOR)) {
    return refuse('not-actionable', `${what} is text, not a control; click a button, link or field the outline lists.`);
  }
  if (isDisabled(element)) return refuse('disabled', `${what} is disabled; it cannot be clicked until the page enables it.`);
  if (layout) {
    scrollIntoViewIfNeeded(element);
    const unseen = unseenReason(element, { layout, acting: true });
    if (unseen && unseen !== 'covered') return refuse('hidden', `${what} is not visible to the user now (${unseen}); act on something the outline lists.`);
    const cover = coveringElement(element, options.exclude);
    if (cover || unseen) return refuse('covered', `${what} is covered by ${cover ? describe(cover) : 'something drawn over it'}; deal with that first (close it, or scroll).`);
  }

  const consequence = consequenceOf(element, document, options);
  if (consequence.refusal) return refuse(consequence.refusal.reason, consequence.refusal.message);
  let approvedIrreversible = false;
  if (consequence.risk === 'irreversible') {
    if (!options.confirm) {
      return refuse('needs-approval', `${consequence.detail} cannot be undone, and nobody here can approve it, so it was not done; tell the user what you would do instead.`);
    }
    const step: ActivateStep = { risk: 'irreversible', detail: consequence.detail, ...(consequence.url ? { url: consequence.url } : {}) };
    let answer: ActivateApproval | undefined;
    try {
      answer = await options.confirm(step);
    } catch {
      answer = undefined;
    }
    if (answer?.approved !== true) {
      const reason = typeof answer?.reason === 'string' && answer.reason.trim() ? `: ${answer.reason.trim()}` : '';
      return refuse('denied', `The user did not approve "${consequence.detail}"${reason}. It was not done; do not try it again another way.`);
    }
    approvedIrreversible = true;
    // The page may have changed while the user decided: the element must still be there and visible.
    if (!element.isConnected || unseenReason(element, { layout, acting: true })) return refuse('hidden', `${what} changed while the user decided; it was not clicked. Look at the outline again.`);
  }

  const blocked = guardNavigations(document, options, approvedIrreversible, () => click(element));
  if (blocked) return refuse(blocked.reason, blocked.message);
  // Let handlers that finish in a microtask (frameworks' event delegation) run before the next action.
  await Promise.resolve();
  return {
    ok: true,
    target: given,
    ...(ref ? { ref } : {}),
    did: consequence.did,
    detail: consequence.did === 'clicked' ? `Clicked ${what}` : `${consequence.detail} (${what})`,
    ...(consequence.url ? { url: consequence.url } : {}),
  };
}

/** Works out what clicking `element` would do, before clicking. */
function consequenceOf(element: Element, document: Document, options: ActivateOptions): Consequence {
  const acting = element.localName === 'label' ? ((element as HTMLLabelElement).control ?? element) : element;
  const navigation = { allowedOrigins: options.allowedOrigins, base: document.baseURI };

  const submitter = submitterOf(acting);
  if (submitter) {
    const form = submitter.form as HTMLFormElement;
    const method = (submitter.getAttribute('formmethod') ?? form.getAttribute('method') ?? 'get').toLowerCase();
    const formName = nameOfForm(form, submitter);
    const where = `on ${document.location?.pathname ?? 'this page'}`;
    if (method === 'dialog') return { did: 'clicked', risk: 'write', detail: `Close the dialog with ${describe(submitter)}` };
    const action = submitter.getAttribute('formaction') ?? form.getAttribute('action') ?? '';
    const check = checkNavigation(action || document.location?.href || document.baseURI, navigation);
    const detail = `Submit the form "${clip(formName)}" ${where}`;
    if (!check.ok) return { did: 'submitted', risk: 'irreversible', detail, refusal: { reason: check.reason === 'other-origin' ? 'other-origin' : 'blocked-url', message: `${detail} was refused: ${check.message}` } };
    const newTab = opensNewContext(submitter.getAttribute('formtarget') ?? form.getAttribute('target'));
    return { did: newTab ? 'opened-tab' : 'submitted', risk: 'irreversible', detail: newTab ? `${detail}, in a new tab` : detail, url: check.url };
  }

  const link = closestAcross(acting, 'a[href], area[href]');
  if (link) {
    const href = link.getAttribute('href') ?? '';
    const label = describe(link);
    const check = checkNavigation(href, navigation);
    if (!check.ok) return { did: 'followed-link', risk: 'irreversible', detail: '', refusal: { reason: check.reason === 'other-origin' ? 'other-origin' : 'blocked-url', message: `${label}: ${check.message}` } };
    const url = new URL(check.url);
    const download = link.hasAttribute('download') || DOWNLOAD_PATH.test(url.pathname);
    if (download) {
      if (!options.allowDownloads) {
        return { did: 'downloaded', risk: 'irreversible', detail: '', refusal: { reason: 'download', message: `${label} downloads a file (${clip(url.pathname, 40)}); downloads are not allowed here, so it was not followed.` } };
      }
      return { did: 'downloaded', risk: 'irreversible', detail: `Download ${clip(url.pathname, 60)} from ${url.host} (${label})`, url: check.url };
    }
    if (opensNewContext(link.getAttribute('target'))) {
      return { did: 'opened-tab', risk: 'irreversible', detail: `${check.detail} in a new tab (${label})`, url: check.url };
    }
    return { did: 'followed-link', risk: check.risk, detail: check.risk === 'irreversible' ? `${check.detail} (${label})` : `${check.detail}`, url: check.url };
  }
  return { did: 'clicked', risk: 'write', detail: `Click ${describe(element)}` };
}

/** A form's name for the user: its accessible name, else its first heading or legend, else the submit button's name. */
function nameOfForm(form: HTMLFormElement, submitter: Element): string {
  const heading = form.querySelector('h1, h2, h3, h4, legend')?.textContent?.replace(/\s+/g, ' ').trim();
  return accessibleName(form, 'form') || heading || accessibleName(submitter, 'button') || 'form';
}

/** The submit button `element` is, with its form: a submit button, `input type=submit|image`, a button in a form without a type. */
function submitterOf(element: Element): (HTMLButtonElement | HTMLInputElement) | undefined {
  const tag = element.localName;
  if (tag !== 'button' && tag !== 'input') return undefined;
  const control = element as HTMLButtonElement | HTMLInputElement;
  const type = (element.getAttribute('type') ?? (tag === 'button' ? 'submit' : 'text')).toLowerCase();
  const submits = tag === 'button' ? type !== 'button' && type !== 'reset' && type !== 'menu' : type === 'submit' || type === 'image';
  return submits && control.form ? control : undefined;
}

/** Whether a `target` opens another browsing context: `_blank` or a named window (not `_self`, `_parent`, `_top`). */
function opensNewContext(target: string | null): boolean {
  const value = (target ?? '').trim().toLowerCase();
  return value !== '' && value !== '_self' && value !== '_parent' && value !== '_top';
}

/**
 * Runs `click` while watching the navigations it sets off (where the browser has the Navigation
 * API): one to a refused URL, or (without approval) a form submission or a move to another
 * origin, is cancelled, and the refusal returned.
 */
function guardNavigations(
  document: Document,
  options: ActivateOptions,
  approved: boolean,
  click: () => void,
): { reason: ActivateRefusal; message: string } | undefined {
  const navigation = (document.defaultView as (Window & { navigation?: EventTarget }) | null)?.navigation;
  if (!navigation || typeof navigation.addEventListener !== 'function') {
    click();
    return undefined;
  }
  let blocked: { reason: ActivateRefusal; message: string } | undefined;
  const onNavigate = (event: Event): void => {
    const navigate = event as Event & { destination?: { url?: string }; formData?: unknown; cancelable: boolean };
    const url = navigate.destination?.url ?? '';
    const check = checkNavigation(url, { allowedOrigins: options.allowedOrigins, base: document.baseURI });
    let refusal: { reason: ActivateRefusal; message: string } | undefined;
    if (!check.ok) refusal = { reason: check.reason === 'other-origin' ? 'other-origin' : 'blocked-url', message: `The click tried to open another page: ${check.message}` };
    else if (!approved && (check.risk === 'irreversible' || navigate.formData)) {
      refusal = { reason: 'needs-approval', message: `The click tried to ${navigate.formData ? 'submit a form' : check.detail.toLowerCase()}, which needs the user's approval; it was stopped.` };
    }
    if (refusal && navigate.cancelable) {
      event.preventDefault();
      blocked = refusal;
    }
  };
  navigation.addEventListener('navigate', onNavigate);
  try {
    click();
  } finally {
    navigation.removeEventListener('navigate', onNavigate);
  }
  return blocked;
}

function click(element: Element): void {
  if (typeof (element as HTMLElement).click === 'function') (element as HTMLElement).click();
  else element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true }));
}

function isDisabled(element: Element): boolean {
  if (element.getAttribute('aria-disabled') === 'true') return true;
  try {
    return element.matches(':disabled');
  } catch {
    return false;
  }
}

function scrollIntoViewIfNeeded(element: Element): void {
  const view = element.ownerDocument.defaultView;
  if (!view) return;
  const box = element.getBoundingClientRect();
  const inView = box.bottom > 0 && box.right > 0 && box.top < view.innerHeight && box.left < view.innerWidth;
  if (!inView) element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' as ScrollBehavior });
}

/**
 * What a person would hit instead of `element`, when something else is drawn over its centre and
 * its corners (a third of the way in); `undefined` when any of those points reaches the element
 * (or a label of it). The host's own UI over it does not count: the host drew it there.
 */
function coveringElement(element: Element, exclude: ActivateOptions['exclude']): Element | undefined {
  const document = element.ownerDocument;
  const view = document.defaultView;
  if (!view || typeof document.elementFromPoint !== 'function') return undefined;
  const box = element.getBoundingClientRect();
  const left = Math.max(box.left, 0);
  const top = Math.max(box.top, 0);
  const right = Math.min(box.right, view.innerWidth);
  const bottom = Math.min(box.bottom, view.innerHeight);
  if (right <= left || bottom <= top) return undefined;
  const labels = Array.from((element as HTMLInputElement).labels ?? []);
  let cover: Element | undefined;
  for (const [fx, fy] of [[0.5, 0.5], [1 / 3, 1 / 3], [2 / 3, 1 / 3], [1 / 3, 2 / 3], [2 / 3, 2 / 3]] as const) {
    const hit = deepElementFromPoint(document, left + (right - left) * fx, top + (bottom - top) * fy);
    if (!hit) continue;
    if (containsAcross(element, hit) || labels.some((label) => containsAcross(label, hit)) || isOffLimits(hit, exclude)) return undefined;
    cover ??= hit;
  }
  return cover;
}

function deepElementFromPoint(document: Document, x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  return hit;
}

/** Whether `node` is `container` or inside it, across shadow roots. */
function containsAcross(container: Element, node: Element): boolean {
  for (let current: Node | null = node; current; ) {
    if (current === container) return true;
    current = current.parentNode ?? (current.nodeType === 11 ? (current as ShadowRoot).host : null);
  }
  return false;
}

/** `button "Buy"`, `link "Docs"`: role and (short) name, for messages. */
function describe(element: Element): string {
  const role = elementRole(element) ?? element.localName;
  const name = accessibleName(element, role);
  return name ? `${role} "${clip(name)}"` : element.id ? `${role} #${clip(element.id, 30)}` : role;
}

function clip(text: string, max = 40): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/"/g, "'");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
