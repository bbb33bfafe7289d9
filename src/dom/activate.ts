import { checkNavigation, type NavigationCheckOptions } from './check-navigation.js';
import type { ConsequentialWords } from './consequential-words.js';
import { CONSEQUENCE_PHRASES, controlRisk } from './control-risk.js';
import { fenceEffects, opensNewContext, type EffectFenceOptions, type FencedEffect, type PageEffect } from './effect-fence.js';
import { clickWords, fieldList, formFields, formName, quote, whereTo } from './effect-words.js';
import { accessibleName } from './accessible-name.js';
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
 * `confirm` before what cannot be undone (a form submission, a new tab, leaving the site, a
 * control whose name says it deletes, pays, sends…), and clicks inside an effect fence: what the
 * page's handlers then set off (a request, a form, a navigation, a window, a download) is held and
 * asked about in words that say what it does. Every refusal is a result with a message for the
 * model, never a throw.
 */

/** A step riskier than a plain click, for the user to approve. Structurally `LoopToolContext.confirm`'s argument. */
export interface ActivateStep {
  risk: 'write' | 'irreversible';
  /** The whole question, in words for the user: `Click the button "Continue". It sends the form "Payments" to /api/transfer: IBAN, Amount.` */
  detail: string;
  /** Where it leads, when it leads somewhere. */
  url?: string;
  /** What it does, as seen on the page or observed: `It sends a DELETE to /api/account`. */
  effect?: string;
  /** What it amounts to: `send`, `delete`, `pay`, `leave`, `new-window`, `download`… (see `ConsequenceKind`). */
  consequence?: string;
}

/** The user's answer to an {@link ActivateStep}: anything but `approved: true` is a no. */
export interface ActivateApproval {
  approved: boolean;
  reason?: string;
}

/** Options of {@link activate}: where to look (as {@link resolveTarget}), which origins, downloads, the fence, and how to ask. */
export interface ActivateOptions
  extends ResolveTargetOptions,
    Pick<NavigationCheckOptions, 'allowedOrigins'>,
    Pick<EffectFenceOptions, 'readOrigins' | 'probeNavigations' | 'settleMs' | 'maxMs' | 'onLate'> {
  /** Follow links that download a file (a `download` attribute, a path ending in .zip, .exe, .dmg…, a response sent as an attachment), after `confirm`. Default `false`: refused. */
  allowDownloads?: boolean | undefined;
  /**
   * Asks the user before an irreversible click (a form submission, a new tab or window, leaving
   * the site, a download, a control whose name says it deletes, pays, sends…) and about each
   * effect the click sets off that is held. Pass the loop's `context.confirm`. A throw or anything
   * but `{ approved: true }` is a no. Default none: such clicks are refused, and held effects are
   * stopped, with a reason for the model.
   */
  confirm?: ((step: ActivateStep) => Promise<ActivateApproval> | ActivateApproval) | undefined;
  /** Words that make a control's name consequential, besides the built-in ones: `{ delete: ['purge'] }`. */
  consequentialWords?: ConsequentialWords | undefined;
}

/** Why {@link activate} did not click, or why what it set off did not happen: a resolution failure, a guard, a stopped effect. */
export type ActivateRefusal =
  | ResolveFailureReason
  | 'not-actionable'
  | 'covered'
  | 'disabled'
  | 'blocked-url'
  | 'other-origin'
  | 'download'
  | 'needs-approval'
  | 'denied'
  | 'effect-stopped';

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
  /** What it does, in the user's words (`It sends the form "Transfer" to /transfer: Amount`); '' for a plain click. */
  effect: string;
  url?: string;
  /** The effect the click is expected to set off, released without a second question once the click is approved. */
  expects?: { kind: PageEffect['kind']; url: string };
  consequence?: string;
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
 * - a control whose visible name says it deletes, pays, buys, orders, sends, transfers,
 *   subscribes, cancels a subscription, closes an account or signs out (English, German,
 *   Japanese; `consequentialWords` adds words), unless `data-planloop-risk` says otherwise: irreversible;
 * - anything else (a same-origin link, an in-page button): a plain click.
 *
 * An irreversible click happens only when `confirm` says yes to words built from the page
 * (`Click the button "Continue". It sends the form "Payments" to /api/transfer: IBAN, Amount.`);
 * without `confirm` it is refused. The click itself runs inside an effect fence (see
 * `fenceEffects`): a request, form, navigation, window or download the page's handlers set off,
 * then or from a timer shortly after, is held and asked about in words that say what it does; a
 * no stops it and the result says so (`effect-stopped`, or `denied` when the user said no).
 * Never throws on what the model sent (a host mistake, such as a bad `allowedOrigins`, throws a
 * `ValidationError`).
 * Defaults: refs only, same origin only, no downloads, no `confirm` (irreversible clicks refused,
 * held effects stopped), navigations probed, the fence's 150 ms of quiet and 3 s at most.
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
    if (cover || unseen)
      return refuse('covered', `${what} is covered by ${cover ? describe(cover) : 'something drawn over it'}; deal with that first (close it, or scroll).`);
  }

  const consequence = consequenceOf(element, document, options);
  if (consequence.refusal) return refuse(consequence.refusal.reason, consequence.refusal.message);
  const action = clickWords(element);
  const named = controlRisk(element, options.consequentialWords);
  // What the page says of the control wins over the guess from its name; a form, a new tab, leaving or a download always asks.
  const nameAsks = named.risk === 'irreversible';
  let approved = false;
  if (consequence.risk === 'irreversible' || nameAsks) {
    const effect =
      consequence.effect ||
      (named.kind ? `Its name says it ${CONSEQUENCE_PHRASES[named.kind]}, which may not be undone` : 'The page marks it as a step that cannot be undone');
    const step: ActivateStep = {
      risk: 'irreversible',
      detail: `${action}. ${effect}.`,
      effect,
      ...(consequence.url ? { url: consequence.url } : {}),
      ...((consequence.consequence ?? named.kind) ? { consequence: consequence.consequence ?? named.kind } : {}),
    };
    if (!options.confirm) {
      return refuse(
        'needs-approval',
        `${action} (${effect.replace(/^It /, 'it ').replace(/^Its /, 'its ')}) cannot be undone, and nobody here can approve it, so it was not done; tell the user what you would do instead.`,
      );
    }
    let answer: ActivateApproval | undefined;
    try {
      answer = await options.confirm(step);
    } catch {
      answer = undefined;
    }
    if (answer?.approved !== true) {
      const reason = typeof answer?.reason === 'string' && answer.reason.trim() ? `: ${answer.reason.trim()}` : '';
      return refuse('denied', `The user did not approve "${step.detail}"${reason}. It was not done; do not try it again another way.`);
    }
    approved = true;
    // The page may have changed while the user decided: the element must still be there and visible.
    if (!element.isConnected || unseenReason(element, { layout, acting: true }))
      return refuse('hidden', `${what} changed while the user decided; it was not clicked. Look at the outline again.`);
  }

  const expected = approved ? consequence.expects : undefined;
  const fenced = await fenceEffects(() => click(element), {
    action,
    confirm: options.confirm,
    allowedOrigins: options.allowedOrigins,
    allowDownloads: options.allowDownloads,
    readOrigins: options.readOrigins,
    probeNavigations: options.probeNavigations,
    settleMs: options.settleMs,
    maxMs: options.maxMs,
    onLate: options.onLate,
    window: document.defaultView ?? undefined,
    approved: (effect) => expected !== undefined && effect.kind === expected.kind && sameUrl(effect.url, expected.url),
  });
  const released = fenced.effects.filter((effect) => effect.outcome === 'released');
  const then = released.length > 0 ? ` It then did what was approved: ${released.map((effect) => effect.what).join('; ')}.` : '';
  if (fenced.stopped) {
    const byUser = fenced.effects.some((effect) => effect.outcome === 'stopped' && isUserNo(effect));
    return refuse(byUser ? 'denied' : 'effect-stopped', `Clicked ${what}.${then} ${fenced.stopped}`);
  }
  const did = didOf(released, consequence.did);
  return {
    ok: true,
    target: given,
    ...(ref ? { ref } : {}),
    did,
    detail:
      consequence.did === 'clicked' && released.length === 0
        ? `Clicked ${what}`
        : `${consequence.effect ? `${consequence.effect} (${what})` : `Clicked ${what}`}${then}`,
    ...(consequence.url ? { url: consequence.url } : released[0] ? { url: released[0].url } : {}),
  };
}

/** Whether an effect was stopped by the user's no (not by a rule). */
function isUserNo(effect: FencedEffect): boolean {
  return (
    !/^(nobody here|downloads are not|a look|it came from|a synchronous|it was sent in a way)/.test(effect.reason ?? '') &&
    !/another site, and this host opens only/.test(effect.reason ?? '')
  );
}

/** What a click did, from what it set off. */
function didOf(released: readonly FencedEffect[], forecast: Consequence['did']): Consequence['did'] {
  if (released.some((effect) => effect.kind === 'form')) return 'submitted';
  if (released.some((effect) => effect.kind === 'download')) return 'downloaded';
  if (released.some((effect) => effect.kind === 'window')) return 'opened-tab';
  if (released.some((effect) => effect.kind === 'navigation')) return 'followed-link';
  return forecast;
}

function sameUrl(a: string, b: string): boolean {
  return a.split('#')[0] === b.split('#')[0];
}

/** Works out what clicking `element` would do, before clicking. */
function consequenceOf(element: Element, document: Document, options: ActivateOptions): Consequence {
  const acting = element.localName === 'label' ? ((element as HTMLLabelElement).control ?? element) : element;
  const navigation = { allowedOrigins: options.allowedOrigins, base: document.baseURI };

  const submitter = submitterOf(acting);
  if (submitter) {
    const form = submitter.form as HTMLFormElement;
    const method = (submitter.getAttribute('formmethod') ?? form.getAttribute('method') ?? 'get').toLowerCase();
    if (method === 'dialog') return { did: 'clicked', risk: 'write', effect: '' };
    const action = submitter.getAttribute('formaction') ?? form.getAttribute('action') ?? '';
    const check = checkNavigation(action || document.location?.href || document.baseURI, navigation);
    const name = formName(form, submitter);
    const form_ = `the form${name ? ` ${quote(name)}` : ''}`;
    if (!check.ok) {
      return {
        did: 'submitted',
        risk: 'irreversible',
        effect: '',
        refusal: {
          reason: check.reason === 'other-origin' ? 'other-origin' : 'blocked-url',
          message: `${describe(submitter)} sends ${form_}, and was refused: ${check.message}`,
        },
      };
    }
    const newTab = opensNewContext(submitter.getAttribute('formtarget') ?? form.getAttribute('target'));
    const effect = `It sends ${form_} to ${whereTo(check.url, document.baseURI)}${newTab ? ', in a new tab' : ''}${fieldList(formFields(form))}`;
    return {
      did: newTab ? 'opened-tab' : 'submitted',
      risk: 'irreversible',
      effect,
      url: check.url,
      expects: { kind: 'form', url: check.url },
      consequence: 'send',
    };
  }

  const link = closestAcross(acting, 'a[href], area[href]');
  if (link) {
    const href = link.getAttribute('href') ?? '';
    const label = describe(link);
    const check = checkNavigation(href, navigation);
    if (!check.ok)
      return {
        did: 'followed-link',
        risk: 'irreversible',
        effect: '',
        refusal: { reason: check.reason === 'other-origin' ? 'other-origin' : 'blocked-url', message: `${label}: ${check.message}` },
      };
    const url = new URL(check.url);
    const where = whereTo(check.url, document.baseURI);
    const download = link.hasAttribute('download') || DOWNLOAD_PATH.test(url.pathname);
    if (download) {
      if (!options.allowDownloads) {
        return {
          did: 'downloaded',
          risk: 'irreversible',
          effect: '',
          refusal: {
            reason: 'download',
            message: `${label} downloads a file (${clip(url.pathname, 40)}); downloads are not allowed here, so it was not followed.`,
          },
        };
      }
      return {
        did: 'downloaded',
        risk: 'irreversible',
        effect: `It downloads a file from ${where}`,
        url: check.url,
        expects: { kind: 'download', url: check.url },
        consequence: 'download',
      };
    }
    if (opensNewContext(link.getAttribute('target'))) {
      return {
        did: 'opened-tab',
        risk: 'irreversible',
        effect: `It opens a new window with ${where}`,
        url: check.url,
        expects: { kind: 'window', url: check.url },
        consequence: 'new-window',
      };
    }
    if (check.risk === 'irreversible') {
      return {
        did: 'followed-link',
        risk: 'irreversible',
        effect: `It leaves the site for ${where}`,
        url: check.url,
        expects: { kind: 'navigation', url: check.url },
        consequence: 'leave',
      };
    }
    return { did: 'followed-link', risk: 'write', effect: '', url: check.url };
  }
  return { did: 'clicked', risk: 'write', effect: '' };
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
  for (const [fx, fy] of [
    [0.5, 0.5],
    [1 / 3, 1 / 3],
    [2 / 3, 1 / 3],
    [1 / 3, 2 / 3],
    [2 / 3, 2 / 3],
  ] as const) {
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
