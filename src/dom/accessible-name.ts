import { NAME_FROM_CONTENT, elementRole } from './element-role.js';
import { partSight, unseenReason } from './sighted.js';
import { hiddenReason, styleOf } from './visibility.js';
import { renderedNodes } from './flat-tree.js';
import { passCached } from './read-pass.js';

/*
 * The accessible name: what a screen reader would announce for an element, which is also the
 * best short description for a model. It follows the W3C accessible name computation (accname
 * 1.2) as Chromium applies it to HTML:
 *   2A hidden content is left out (display:none, `hidden`, aria-hidden="true"; the text of a
 *      visibility:hidden element, though a visible child of it counts); an element referenced by
 *      aria-labelledby or a <label> that is hidden itself names with everything it contains;
 *   2B aria-labelledby (each id in turn, not followed again from a referenced element);
 *   2C inside a name being computed, an embedded control gives its value;
 *   2D aria-label;
 *   2E the element's own labelling: <label>s, legend, caption, figcaption, alt, an input
 *      button's value, an <svg>'s <title>;
 *   2F content, for roles named by content and inside a name being computed: text, CSS
 *      ::before/::after text, each child's own text alternative; block boxes are set apart by a
 *      space, inline ones are not;
 *   2I title, then placeholder.
 * Whitespace is collapsed as the name is built, and the walk stops once the name is longer than
 * 160 characters, which is where the name is cut.
 *
 * Why one file of ~450 lines: the steps above are one recursive walk (2B and 2F call back into the
 * whole computation for each referenced or child node, with the same visited set and length
 * budget), and the safety rules (visible text for headings, unseen parts cut) apply inside that
 * walk; split across files they would share all of its state.
 */

/** Longest name kept; the outline clips further when it renders. */
const MAX_NAME_LENGTH = 160;
/**
 * Longest text a name takes from what a sighted user cannot see (aria-label, a visually hidden or
 * display:none label, title, alt): enough for a label ("Close menu", "Search products"), too
 * little for a paragraph of instructions. Such text is an injection channel (see README "Safety:
 * the page"); the turn prompt also fences all page text as data. On the saved real pages of
 * e2e/corpus it cuts 6 of 2,011 names (long image descriptions, a 41-character logo alt).
 */
const MAX_UNSEEN_LENGTH = 40;

/** Never part of a name, even when referenced: they are not text. */
const NOT_TEXT = new Set(['script', 'style', 'template', 'noscript', 'head', 'meta', 'link', 'title', 'datalist']);
const BUTTON_INPUT_DEFAULTS: Record<string, string> = { submit: 'Submit', reset: 'Reset', image: 'Submit' };
/**
 * Roles whose content never names anything, even inside another element's name (Chromium's
 * rule): a link around an <article> or a <figure> is named by their own names only.
 */
const NEVER_FROM_CONTENT = new Set([
  'alert',
  'alertdialog',
  'application',
  'article',
  'banner',
  'blockquote',
  'complementary',
  'contentinfo',
  'dialog',
  'document',
  'feed',
  'figure',
  'form',
  'grid',
  'img',
  'listbox',
  'log',
  'main',
  'marquee',
  'math',
  'menu',
  'menubar',
  'meter',
  'navigation',
  'note',
  'progressbar',
  'radiogroup',
  'region',
  'search',
  'searchbox',
  'slider',
  'spinbutton',
  'status',
  'table',
  'tablist',
  'tabpanel',
  'textbox',
  'timer',
  'toolbar',
  'tree',
  'treegrid',
  'scrollbar',
  'separator',
]);
/** Elements drawn as one box inside a line (replaced or atomic): set apart by a space in a name, as Chromium does. */
const ATOMIC = new Set([
  'img',
  'svg',
  'input',
  'button',
  'select',
  'textarea',
  'video',
  'audio',
  'canvas',
  'iframe',
  'object',
  'embed',
  'meter',
  'progress',
  'wbr',
]);
/** Input types whose value, inside a label, is part of the name (2C). */
const TEXT_INPUTS = new Set(['text', 'search', 'email', 'tel', 'url', 'number', '']);
const BUTTON_INPUTS = new Set(['button', 'submit', 'reset']);

/**
 * The accessible name of `element` given its `role`; `''` when it has none.
 *
 * @example
 * ```ts
 * // <label for="email">Work email</label><input id="email">
 * accessibleName(document.querySelector('#email')!, 'textbox'); // 'Work email'
 * ```
 */
export function accessibleName(element: Element, role: string | undefined): string {
  const name = new NameText();
  const walk: Walk = { root: element, role, inLabelledBy: false, inContent: false, hiddenOk: false, sighted: true, visited: new Set() };
  // A heading is named only by the text a person sees in it: never by aria-label, aria-labelledby,
  // a title or text inside it that is visually hidden, transparent, same-coloured or tiny.
  if (role === 'heading') addContent(element, styleOf(element), name, walk);
  else alternative(element, name, walk);
  return name.text.length > MAX_NAME_LENGTH ? name.text.slice(0, MAX_NAME_LENGTH).trimEnd() : name.text.trimEnd();
}

/*
 * What a sighted user cannot see. Names follow the accname computation screen readers use (it
 * matters to them), with two limits on what no one sees: content a sighted user cannot see is left
 * out of a name computed from content while anything visible is there (a control shows its visible
 * text, not its visually hidden one), and each part taken from an unseen source (aria-label, a
 * hidden or visually hidden label, title, alt, unseen content when nothing visible names a control)
 * is cut to MAX_UNSEEN_LENGTH characters.
 */
function short(text: string): string {
  const collapsed = text.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_UNSEEN_LENGTH ? `${collapsed.slice(0, MAX_UNSEEN_LENGTH - 1)}…` : collapsed;
}

/** A name being built: whitespace collapsed as text comes in. */
class NameText {
  text = '';
  get full(): boolean {
    return this.text.length > MAX_NAME_LENGTH;
  }
  add(piece: string): void {
    if (!piece || this.full) return;
    let collapsed = piece.replace(/\s+/g, ' ');
    if ((this.text === '' || this.text.endsWith(' ')) && collapsed.startsWith(' ')) collapsed = collapsed.slice(1);
    this.text += collapsed;
  }
  space(): void {
    if (this.text !== '' && !this.text.endsWith(' ')) this.text += ' ';
  }
}

interface Walk {
  /** The element whose name is being computed (a label does not name it with its own value). */
  root: Element;
  /** The role of the element being named at this step (the root's, or undefined below it). */
  role: string | undefined;
  inLabelledBy: boolean;
  /** Below the root, in a name being computed from content or a reference. */
  inContent: boolean;
  /** Inside something referenced by aria-labelledby or a label: hidden content counts. */
  hiddenOk: boolean;
  /** Leave out content a sighted user cannot see (see `short`). */
  sighted: boolean;
  visited: Set<Element>;
}

/** Adds `element`'s text alternative to `out` (accname step 2, for one node). */
function alternative(element: Element, out: NameText, walk: Walk): void {
  if (out.full || NOT_TEXT.has(element.localName)) return;
  const style = styleOf(element);
  if (!walk.hiddenOk && walk.inContent && hiddenForName(element, style)) return;
  // Nothing it draws can be seen (the sight rule: transparent, clipped, masked, cut off, out of
  // reach): nothing inside counts. Other reasons (hidden, tiny, transparent or same-coloured text)
  // a child can undo, so they leave out the element's own text only (addContent).
  if (walk.sighted && walk.inContent && !wordless(element) && partSight(element) === 'hidden') return;
  if (walk.visited.has(element)) return;
  walk.visited.add(element);
  // Inside a name, a block or an atomic box (an image, an svg) is set apart from its neighbours.
  const apart = walk.inContent && isBlock(style, element);
  if (apart) out.space();
  ownAlternative(element, style, out, walk);
  if (apart) out.space();
}

function ownAlternative(element: Element, style: CSSStyleDeclaration | undefined, out: NameText, walk: Walk): void {
  // 2B: aria-labelledby (the non-standard aria-labeledby when it is absent), not followed twice.
  if (!walk.inLabelledBy) {
    const ids = element.getAttribute('aria-labelledby') ?? element.getAttribute('aria-labeledby');
    if (ids) {
      const root = element.getRootNode() as Document | ShadowRoot;
      const parts: string[] = [];
      for (const id of ids.split(/\s+/)) {
        const target = id && typeof root.getElementById === 'function' ? root.getElementById(id) : null;
        if (!target) continue;
        const part = target === element ? short(element.getAttribute('aria-label') ?? '') : referencedText(target, walk, true);
        if (part) parts.push(part);
      }
      if (parts.length > 0) {
        out.add(parts.join(' '));
        return;
      }
    }
  }

  // 2C: a control inside a name being computed gives its value (not the control being named).
  if (walk.inContent && element !== walk.root) {
    const value = embeddedValue(element);
    if (value !== undefined) {
      out.add(value);
      return;
    }
  }

  // 2D: aria-label.
  const label = element.getAttribute('aria-label');
  if (label?.trim()) {
    out.add(short(label));
    return;
  }

  // 2E: the host language's own labelling.
  const native = new NameText();
  const settled = nativeName(element, native, walk);
  if (settled || native.text.trim()) {
    out.add(native.text);
    return;
  }

  // 2F: content, for roles named by content and for everything inside a name being computed.
  const before = out.text.length;
  if (walk.inContent ? fromContentInside(element) : walk.role !== undefined && NAME_FROM_CONTENT.has(walk.role)) {
    addContent(element, style, out, walk);
    if (out.text.trim().length > 0 && out.text.length > before) return;
    // Nothing visible names it: its unseen content may, as a label would (icon buttons with
    // visually hidden text), cut short.
    if (!walk.inContent && walk.sighted) {
      const unseen = new NameText();
      addContent(element, style, unseen, { ...walk, sighted: false });
      if (unseen.text.trim()) {
        out.add(short(unseen.text));
        return;
      }
    }
  }

  // 2I: the tooltip, then a field's placeholder (named elements only: not text inside a name).
  if (out.text.length === before || !out.text.slice(before).trim()) {
    const title = element.getAttribute('title');
    if (title?.trim()) out.add(short(title));
    else if (element === walk.root) out.add(element.getAttribute('placeholder') ?? element.getAttribute('aria-placeholder') ?? '');
  }
}

/** The text content of `element` (2F), its ::before and ::after boxes and its children, in order. */
function addContent(element: Element, style: CSSStyleDeclaration | undefined, out: NameText, walk: Walk): void {
  const children = renderedNodes(element);
  // How the element draws its own text is judged only when it has some (text nodes, ::before or ::after content).
  const own = drawsText(element, children);
  const drawn = own && (!walk.sighted || wordless(element) || partSight(element) === undefined);
  const visibility = drawn && !walk.hiddenOk ? style?.visibility : undefined;
  const visible = drawn && (walk.hiddenOk || !style || (visibility !== 'hidden' && visibility !== 'collapse'));
  const transform = visible ? style?.textTransform : undefined;
  if (visible) addPseudo(element, '::before', out, walk.sighted);
  for (let i = 0; i < children.length; i += 1) {
    const child = children[i] as Node;
    if (out.full) break;
    if (child.nodeType === 3) {
      if (visible) out.add(transformed(child.nodeValue ?? '', transform));
    } else if (child.nodeType === 1) {
      alternative(child as Element, out, { ...walk, role: undefined, inContent: true });
    }
  }
  if (visible) addPseudo(element, '::after', out, walk.sighted);
}

/** Attributes that give an element nothing to say in a name. */
const MUTE_ATTRIBUTES = new Set(['class', 'id', 'style', 'aria-hidden']);

/**
 * Whether `element` can add no word to a name whatever a person sees of it: no text, no child
 * elements, no text alternative or value (an icon `<i class="bi bi-gear"></i>`). Whether it is
 * seen is not asked (a hit test in the viewport): at most a space between the words around it
 * depends on it.
 */
function wordless(element: Element): boolean {
  if (element.firstElementChild || ATOMIC.has(element.localName) || element.localName === 'slot' || element.shadowRoot) return false;
  const attributes = element.attributes;
  for (let i = 0; i < attributes.length; i += 1) {
    const name = (attributes[i] as Attr).name;
    if (!MUTE_ATTRIBUTES.has(name) && !name.startsWith('data-')) return false;
  }
  return !/\S/.test(element.textContent ?? '') && !mayHavePseudoContent(element);
}

/** Whether `element` draws text of its own: a text node among `children` (its rendered child nodes), or ::before/::after content. */
function drawsText(element: Element, children: ArrayLike<Node>): boolean {
  for (let i = 0; i < children.length; i += 1) if ((children[i] as Node).nodeType === 3) return true;
  return mayHavePseudoContent(element);
}

/**
 * The text a referenced element (aria-labelledby, a label, a caption) gives a name: what a person
 * sees of it, else (a visually hidden or display:none label) at most MAX_UNSEEN_LENGTH characters.
 */
function referencedText(target: Element, walk: Walk, inLabelledBy: boolean): string {
  const hidden = isHidden(target);
  const base = { root: walk.root, role: undefined, inLabelledBy, inContent: true, visited: walk.visited };
  if (!hidden && !unseenReason(target)) {
    const seen = new NameText();
    const visited = new Set(walk.visited);
    alternative(target, seen, { ...base, hiddenOk: walk.hiddenOk, sighted: true, visited });
    if (seen.text.trim()) {
      // What this reference used is not used again (an image named twice in a heading).
      for (const element of visited) walk.visited.add(element);
      return seen.text.trim();
    }
  }
  const unseen = new NameText();
  alternative(target, unseen, { ...base, hiddenOk: walk.hiddenOk || hidden, sighted: false });
  return short(unseen.text);
}

/** A referenced element (aria-labelledby, a label) that is hidden names with everything it contains, hidden or not. */
function isHidden(element: Element): boolean {
  return hiddenReason(element, { layout: false }) !== undefined;
}

/** Text as drawn: CSS text-transform applies to names too (Chromium names from the rendered text). */
function transformed(text: string, transform: string | undefined): string {
  if (!transform || transform === 'none') return text;
  if (transform === 'uppercase') return text.toUpperCase();
  if (transform === 'lowercase') return text.toLowerCase();
  if (transform === 'capitalize') return text.replace(/(^|\s)(\p{L})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());
  return text;
}

/** Hidden for a name computed from content: never rendered, or hidden from assistive technology. */
function hiddenForName(element: Element, style: CSSStyleDeclaration | undefined): boolean {
  if (element.hasAttributes() && (element.hasAttribute('hidden') || element.getAttribute('aria-hidden') === 'true')) return true;
  return style?.display === 'none';
}

/**
 * Whether an element is set apart from its neighbours by a space in a name: everything but inline
 * boxes of text (a <span>, an <a>) is (blocks, inline-blocks, images, svgs, controls, line breaks).
 */
function isBlock(style: CSSStyleDeclaration | undefined, element: Element): boolean {
  if (element.localName === 'br' || ATOMIC.has(element.localName)) return true;
  const display = style?.display;
  // Without computed styles (a DOM without CSS), treat every element as a block: words stay apart.
  if (!display) return true;
  return display !== 'inline' && display !== 'contents';
}

/** Whether an element inside a name being computed gives its content to it (see NEVER_FROM_CONTENT). */
function fromContentInside(element: Element): boolean {
  const role = elementRole(element);
  if (!role || !NEVER_FROM_CONTENT.has(role)) return true;
  // An unnamed <section> or <form> is a plain container to a browser, not a region or a form.
  if ((element.localName === 'section' || element.localName === 'form') && !element.hasAttribute('role')) {
    return !element.hasAttribute('aria-label') && !element.hasAttribute('aria-labelledby');
  }
  return false;
}

/** Adds a ::before or ::after box's text: set apart by spaces when it is CSS alternative text or not an inline box. */
function addPseudo(element: Element, pseudo: '::before' | '::after', out: NameText, sighted: boolean): void {
  if (!mayHavePseudoContent(element)) return;
  const { text, alt, inline } = pseudoText(element, pseudo, sighted);
  if (!text) return;
  const apart = alt || !inline;
  if (apart) out.space();
  out.add(text);
  if (apart) out.space();
}

/** The value a control inside a label gives to the label's name (2C), or undefined for other elements. */
function embeddedValue(element: Element): string | undefined {
  const tag = element.localName;
  const role = element.getAttribute('role')?.trim().split(/\s+/)[0];
  if (tag === 'input') {
    const type = (element.getAttribute('type') ?? '').toLowerCase();
    if (TEXT_INPUTS.has(type)) return (element as HTMLInputElement).value;
    if (type === 'range') return element.getAttribute('aria-valuetext') ?? (element as HTMLInputElement).value;
    return undefined;
  }
  if (tag === 'textarea') return (element as HTMLTextAreaElement).value;
  if (tag === 'select') {
    const select = element as HTMLSelectElement;
    return Array.from(select.selectedOptions ?? [], (option) => option.textContent ?? '').join(' ');
  }
  if (role === 'textbox') return element.textContent ?? '';
  if (role === 'slider' || role === 'spinbutton' || role === 'scrollbar' || role === 'progressbar') {
    return element.getAttribute('aria-valuetext') ?? element.getAttribute('aria-valuenow') ?? '';
  }
  if (role === 'combobox' || role === 'listbox') {
    const selected = element.querySelector('[aria-selected="true"]');
    return selected?.textContent ?? '';
  }
  return undefined;
}

/**
 * The name an element gets from its own HTML (2E): labels, legend, caption, figcaption, alt, a
 * button's value, an svg's title. True when that settles the name even if it is empty.
 */
function nativeName(element: Element, out: NameText, walk: Walk): boolean {
  const tag = element.localName;
  const labels = (labelled: { labels?: NodeListOf<HTMLLabelElement> | null }) => {
    for (const label of Array.from(labelled.labels ?? [])) {
      if (label === element) continue;
      out.space();
      out.add(referencedText(label, walk, walk.inLabelledBy));
    }
  };
  if (tag === 'input') {
    const type = (element.getAttribute('type') ?? 'text').toLowerCase();
    if (BUTTON_INPUTS.has(type)) {
      labels(element as HTMLInputElement);
      if (!out.text.trim()) out.add(element.getAttribute('value') ?? BUTTON_INPUT_DEFAULTS[type] ?? '');
      // A value attribute names the button even when empty (Chromium): no title, no content.
      return element.hasAttribute('value');
    }
    if (type === 'image') {
      out.add(short(element.getAttribute('alt') || element.getAttribute('value') || element.getAttribute('title') || 'Submit'));
      return false;
    }
    labels(element as HTMLInputElement);
    return false;
  }
  if (tag === 'select' || tag === 'textarea' || tag === 'meter' || tag === 'progress' || tag === 'output') {
    labels(element as HTMLSelectElement);
    return false;
  }
  if (tag === 'img' || tag === 'area') {
    out.add(short(element.getAttribute('alt') ?? ''));
    return false;
  }
  if (tag === 'svg') {
    const title = Array.from(element.children).find((child) => child.localName === 'title');
    if (title) out.add(title.textContent ?? '');
    return false;
  }
  const captionTag = tag === 'fieldset' ? 'legend' : tag === 'table' ? 'caption' : tag === 'figure' ? 'figcaption' : '';
  if (captionTag) {
    const caption = Array.from(element.children).find((child) => child.localName === captionTag);
    if (caption) alternative(caption, out, { ...walk, role: undefined, inContent: true });
  }
  return false;
}

/**
 * The selectors of the document's style rules that give a ::before or ::after content (their
 * pseudo-element part removed), so that only elements one of them matches are asked for their
 * pseudo-elements' style, which is slow. `null`: some sheet cannot be read (another origin), ask
 * every element. Kept while the number of style sheets is the same, for at most 2 seconds.
 */
const pseudoRules = new WeakMap<Document, { sheets: number; at: number; selector: string | null }>();
const PSEUDO_RULES_LIFETIME_MS = 2000;

function mayHavePseudoContent(element: Element): boolean {
  // Asked for ::before and ::after alike, and again when a name is computed twice: once per element in an outline.
  return passCached('pseudo-content', element, mayHavePseudoContentNow);
}

function mayHavePseudoContentNow(element: Element): boolean {
  // Shadow roots have style sheets of their own: ask.
  if (element.getRootNode().nodeType !== 9) return true;
  const document = element.ownerDocument;
  const sheets = document.styleSheets?.length ?? 0;
  const now = Date.now();
  let known = pseudoRules.get(document);
  if (!known || known.sheets !== sheets || now - known.at > PSEUDO_RULES_LIFETIME_MS) {
    known = { sheets, at: now, selector: pseudoSelector(document) };
    pseudoRules.set(document, known);
  }
  if (known.selector === null) return true;
  if (known.selector === '') return false;
  try {
    return element.matches(known.selector);
  } catch {
    return true;
  }
}

function pseudoSelector(document: Document): string | null {
  const selectors: string[] = [];
  const visit = (rules: CSSRuleList): void => {
    for (const rule of Array.from(rules)) {
      const style = (rule as CSSStyleRule).style;
      const text = (rule as CSSStyleRule).selectorText;
      if (text && style) {
        if (!/:(before|after)\b/i.test(text) || !style.getPropertyValue('content')) continue;
        for (const part of text.split(',')) {
          if (!/:(before|after)\b/i.test(part)) continue;
          const base = part.replace(/::?(before|after)\b.*$/i, '').trim();
          selectors.push(base === '' || /[>+~]$/.test(base) ? `${base}*` : base);
        }
      } else if ((rule as CSSGroupingRule).cssRules) visit((rule as CSSGroupingRule).cssRules);
    }
  };
  try {
    for (const sheet of Array.from(document.styleSheets ?? [])) visit(sheet.cssRules);
    for (const sheet of (document as Document & { adoptedStyleSheets?: CSSStyleSheet[] }).adoptedStyleSheets ?? []) visit(sheet.cssRules);
  } catch {
    return null;
  }
  return selectors.join(', ');
}

const NO_TEXT = { text: '', alt: false, inline: true };

/** The text of a ::before or ::after box: its CSS alternative text (`content: "★" / "Rated"`) when it has one. */
function pseudoText(element: Element, pseudo: '::before' | '::after', sighted: boolean): { text: string; alt: boolean; inline: boolean } {
  let style: CSSStyleDeclaration | undefined;
  try {
    style = element.ownerDocument.defaultView?.getComputedStyle(element, pseudo);
  } catch {
    return NO_TEXT;
  }
  const content = style?.content;
  if (!content || content === 'none' || content === 'normal' || !content.includes('"')) return NO_TEXT;
  if (sighted && style && pseudoUnseen(style)) return NO_TEXT;
  const strings = (part: string) => Array.from(part.matchAll(/"((?:[^"\\]|\\.)*)"/g), (match) => unescapeCss(match[1] ?? '')).join('');
  // A slash outside the quoted strings starts the alternative text.
  const outside = content.replace(/"((?:[^"\\]|\\.)*)"/g, (match) => ' '.repeat(match.length));
  const slash = outside.indexOf('/');
  const inline = style?.display === 'inline';
  if (slash >= 0) return { text: strings(content.slice(slash)), alt: true, inline };
  return { text: strings(content), alt: false, inline };
}

/** Whether a ::before or ::after box draws its text where no one reads it: not displayed, hidden, transparent (opacity or colour), under 6px. */
function pseudoUnseen(style: CSSStyleDeclaration): boolean {
  if (style.display === 'none' || style.visibility === 'hidden' || Number.parseFloat(style.opacity) <= 0.05) return true;
  if (Number.parseFloat(style.fontSize) < 6) return true;
  const alpha = /rgba\([^)]*,\s*([\d.]+)\)|\/\s*([\d.]+%?)\)/.exec(style.color);
  const value = alpha ? Number.parseFloat(alpha[1] ?? alpha[2] ?? '1') / ((alpha[2] ?? '').endsWith('%') ? 100 : 1) : 1;
  return value <= 0.05 || style.color === 'transparent';
}

function unescapeCss(text: string): string {
  return text.replace(/\\([0-9a-fA-F]{1,6}\s?|.)/g, (_, code: string) => {
    const hex = code.trim();
    return /^[0-9a-fA-F]+$/.test(hex) ? String.fromCodePoint(Number.parseInt(hex, 16)) : code;
  });
}
