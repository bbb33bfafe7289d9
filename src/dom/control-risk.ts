import { accessibleName } from './accessible-name.js';
import { consequenceInName, type ConsequenceKind, type ConsequentialWords } from './consequential-words.js';
import { elementRole } from './element-role.js';
import { closestAcross } from './flat-tree.js';
import { readableText } from './readable-text.js';
import { isSeen } from './sighted.js';
import { hasLayout } from './visibility.js';

/** The attribute a page puts on a control (or a container of controls) to say how consequential a click on it is. */
export const RISK_ATTRIBUTE = 'data-planloop-risk';

/** How consequential a click on a control is before it runs, and why. */
export interface ControlRisk {
  risk: 'read' | 'write' | 'irreversible';
  /** What its name says it does, when the name decided. */
  kind?: ConsequenceKind;
  /** `attribute`: a `data-planloop-risk` on the control or its nearest ancestor that has one; `name`: its visible name; `none`: an ordinary click. */
  source: 'attribute' | 'name' | 'none';
}

/** What a kind of consequence is, as a phrase for the user: "its name says it deletes something". */
export const CONSEQUENCE_PHRASES: Readonly<Record<ConsequenceKind, string>> = {
  delete: 'deletes something',
  pay: 'pays',
  buy: 'buys something',
  order: 'places an order',
  send: 'sends something',
  transfer: 'transfers money',
  subscribe: 'subscribes',
  unsubscribe: 'cancels a subscription',
  'close-account': 'closes an account',
  'sign-out': 'signs out',
  leave: 'leaves the site',
  'new-window': 'opens a new window',
  download: 'downloads a file',
};

/**
 * How consequential clicking `element` is before it runs: `data-planloop-risk="read|write|irreversible"`
 * on the element, else on its nearest ancestor that has one (a form marked once marks its
 * buttons), wins over any guess; else a visible name (or visible text) that says it deletes,
 * pays, buys, orders, sends, transfers, subscribes, cancels a subscription, closes an account or
 * signs out is `irreversible` (see `consequenceInName`; `extra` adds a host's words); else `write`.
 * The attribute only changes this guess: what the click sets off is still held by the effect fence.
 *
 * @example
 * ```ts
 * controlRisk(document.querySelector('#delete')!); // { risk: 'irreversible', kind: 'close-account', source: 'name' }
 * ```
 */
export function controlRisk(element: Element, extra?: ConsequentialWords): ControlRisk {
  const marked = closestAcross(element, `[${RISK_ATTRIBUTE}]`)?.getAttribute(RISK_ATTRIBUTE)?.trim().toLowerCase();
  if (marked === 'read' || marked === 'write' || marked === 'irreversible') return { risk: marked, source: 'attribute' };
  const role = elementRole(element);
  const name = accessibleName(element, role);
  // What a person reads on it too (an aria-label may say something else; hidden text does not count).
  const text = isSeen(element, { layout: hasLayout(element.ownerDocument) }) ? readableText(element, { maxChars: 200 }).text : '';
  const value =
    element.localName === 'input'
      ? (element as HTMLInputElement).type === 'submit' || (element as HTMLInputElement).type === 'button'
        ? (element as HTMLInputElement).value
        : ''
      : '';
  const kind = consequenceInName(name, extra) ?? consequenceInName(text, extra) ?? consequenceInName(value, extra);
  return kind ? { risk: 'irreversible', kind, source: 'name' } : { risk: 'write', source: 'none' };
}
