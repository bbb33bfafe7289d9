import { redactSecrets } from '../secret-text.js';
import { duringReadPass } from './read-pass.js';
import { partSight } from './sighted.js';
import { styleOf } from './visibility.js';
import { renderedNodes } from './flat-tree.js';

/*
 * The text a person can read in an element, as one line: text nodes in rendering order (open
 * shadow roots, slots), a seen image's alt (at most 40 characters: no one sees it), nothing that
 * is hidden (display:none, `hidden`, aria-hidden="true", <script>/<style>/<template>, closed
 * <details> content) or that a sighted user cannot see (the sight rule, part by part: a span that
 * is transparent, clipped, masked, cut off, out of reach, or whose text is invisible, tiny or the
 * colour of its background adds no words), no form control's value (a field's value is state,
 * shown on its own line, and may be private), and no value that looks secret (`[secret]` instead).
 * Blocks and line breaks become spaces; whitespace is collapsed.
 */

/** Longest image description read: an alt is text no one sees (as in names). */
const MAX_ALT = 40;
/** Characters read past a stretch at least, so that a secret at its end is whole when it is redacted. */
const SECRET_MARGIN = 48;

/** Never read: not text, or a control whose value is not prose. */
const SKIPPED = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'head',
  'title',
  'iframe',
  'object',
  'svg',
  'math',
  'input',
  'select',
  'textarea',
  'datalist',
  'canvas',
  'video',
  'audio',
]);

/** A stretch of an element's readable text. */
export interface ReadableText {
  /** The text from `from`, at most `maxChars` characters (cut at a word, without a marker). */
  text: string;
  /** Characters of readable text after this stretch (0 when it reached the end; a lower bound once past `limit`). */
  more: number;
}

/**
 * The readable text of `element` from character `from` (default 0), at most `maxChars` long;
 * `more` says how much is left (counted up to `maxChars` × 4 beyond the stretch, then it stops).
 * `skip`: a CSS selector of elements left out with their content (private or excluded regions).
 * `countMore`: how far past the stretch to count `more` (default `maxChars` × 4; 1 to know only whether there is more).
 *
 * @example
 * ```ts
 * readableText(document.querySelector('article p')!, { maxChars: 200 }); // { text: 'The first words…', more: 1200 }
 * ```
 */
export function readableText(
  element: Element,
  options: { from?: number; maxChars?: number; skip?: string | undefined; countMore?: number } = {},
): ReadableText {
  return duringReadPass(() => readOnce(element, options));
}

function readOnce(element: Element, options: { from?: number; maxChars?: number; skip?: string | undefined; countMore?: number }): ReadableText {
  const from = Math.max(0, Math.floor(options.from ?? 0));
  const maxChars = Math.max(1, Math.floor(options.maxChars ?? 2000));
  // Read a little past the stretch to cut at a word and to know whether more follows.
  const limit = from + maxChars + Math.max(SECRET_MARGIN, Math.floor(options.countMore ?? maxChars * 4));
  const skip = options.skip;
  let text = '';
  let stopped = false;
  const add = (piece: string): void => {
    const collapsed = piece.replace(/\s+/g, ' ');
    if (collapsed === ' ' || collapsed === '') {
      if (collapsed === ' ' && text !== '' && !text.endsWith(' ')) text += ' ';
      return;
    }
    text += text === '' || text.endsWith(' ') ? collapsed.replace(/^ /, '') : collapsed;
    if (text.length > limit) stopped = true;
  };
  const visit = (node: Node, visible: boolean): void => {
    const children = renderedNodes(node);
    for (let i = 0; i < children.length; i += 1) {
      const child = children[i] as Node;
      if (stopped) return;
      if (child.nodeType === 3) {
        if (visible) add(child.nodeValue ?? '');
        continue;
      }
      if (child.nodeType !== 1) continue;
      const el = child as Element;
      if (SKIPPED.has(el.localName)) continue;
      if (skip && matches(el, skip)) continue;
      if (el.hasAttributes() && (el.hasAttribute('hidden') || el.getAttribute('aria-hidden') === 'true' || el.hasAttribute('inert'))) continue;
      const style = styleOf(el);
      if (style?.display === 'none') continue;
      // What a sighted user cannot see adds nothing; text they cannot read adds no words of its own.
      const sight = partSight(el);
      if (sight === 'hidden') continue;
      const shown = sight === undefined;
      const display = style?.display;
      const block = el.localName === 'br' || (style ? display !== 'inline' && display !== 'contents' : true);
      if (block) add(' ');
      if (el.localName === 'img') {
        if (shown) add(` ${clipAlt(el.getAttribute('alt') ?? '')} `);
      } else if (el.localName === 'details' && !el.hasAttribute('open')) {
        const summary = el.firstElementChild;
        if (summary?.localName === 'summary') visit(summary, shown);
      } else visit(el, shown);
      if (block) add(' ');
    }
  };
  const sight = partSight(element);
  if (sight !== 'hidden') visit(element, sight === undefined);
  const whole = redactSecrets(text.trim());
  if (from >= whole.length) return { text: '', more: 0 };
  let end = Math.min(whole.length, from + maxChars);
  if (end < whole.length) {
    const space = whole.lastIndexOf(' ', end);
    if (space > from + maxChars / 2) end = space;
  }
  return { text: whole.slice(from, end).trim(), more: whole.length - end };
}

/**
 * The first `maxChars` characters of `element`'s readable text, cut at a word with `…` when more
 * follows; `''` when it has none.
 *
 * @example
 * ```ts
 * const paragraph = document.querySelector('main p')!;
 * firstWords(paragraph, 120); // 'Tides are caused by the moon’s pull…'
 * ```
 */
export function firstWords(element: Element, maxChars: number): string {
  const { text, more } = readableText(element, { maxChars, countMore: 1 });
  return more > 0 ? `${text}…` : text;
}

function clipAlt(alt: string): string {
  const collapsed = alt.replace(/\s+/g, ' ').trim();
  return collapsed.length > MAX_ALT ? `${collapsed.slice(0, MAX_ALT - 1)}…` : collapsed;
}

function matches(element: Element, selector: string): boolean {
  try {
    return element.matches(selector);
  } catch {
    return false;
  }
}
