import type { ElementState } from './element-state.js';
import type { PageElementKind } from './page-elements.js';

/*
 * The outline as text for a turn prompt: one line per element (prose and live regions with their
 * first words, a region that left elements out with a line saying so), two spaces of indent per level of
 * nesting (landmarks, sections, forms), short words a small model reads without a legend:
 *
 *   [e1] banner
 *     [e2] navigation "Site"
 *       [e3] link "Pricing" current=page
 *       [e4] link "Status" ->status.example.com
 *   [e5] main
 *     [e6] h1 "Try Orbitly"
 *     [e7] form #trial-form
 *       [e8] textbox "Work email" email required value="ada@example.com"
 *       [e9] textbox "Password" secret
 *   … 4 more elements not listed
 *
 * An outline that had to be short to list what a person can act on now (`joined`) writes
 * consecutive sibling links (buttons, tabs, fields…) on one line, each as its ref, its quoted name
 * and its state:
 *
 *   [e2] navigation "Site"
 *     links: e3 "Pricing" current=page e4 "Docs" e5 "Blog"
 */

/** One element of an outline. */
export interface OutlineNode {
  /** What tools take as a target: `e12`. */
  ref: string;
  kind: PageElementKind;
  /** The ARIA role (`button`, `link`, `textbox`, `navigation`…); headings are `heading` with a `level`. */
  role: string;
  /** The accessible name; `''` when it has none. */
  name: string;
  /** Headings: 1 to 6. */
  level?: number;
  /** The element's id, shown when it has no name. */
  id?: string;
  state: ElementState;
  /** Listed elements this one is inside. */
  depth: number;
  /** The element itself, for the host (never rendered). */
  element: Element;
  /** Fields: the visible description (aria-describedby, or a short hint right after the field). */
  description?: string;
  /** Fields: invalid (aria-invalid, or :user-invalid). */
  invalid?: true;
  /** Invalid fields: the visible error message. */
  error?: string;
  /** Live regions: the text changed since an outline last showed it (or shows for the first time). */
  isNew?: true;
  /** Elements inside this one the budget left out: how many, and of what kinds ("300 links, 12 buttons"). */
  omitted?: { count: number; what: string } | undefined;
}

/** An outline of the visible page, fitted to a token budget. */
export interface PageOutline {
  /** The listed elements, in document order. */
  nodes: OutlineNode[];
  /** Listable elements found on the page. */
  total: number;
  /** Of those, how many were left out to fit `maxTokens`. */
  omitted: number;
  /** The estimated tokens of {@link renderOutline}'s text. */
  tokens: number;
  /** The budget it was fitted to. */
  maxTokens: number;
  /** Consecutive sibling links, buttons, tabs, menu items, options and tree items share a line (set when the budget needed it). */
  joined?: true | undefined;
}

/** Roles whose consecutive siblings a joined outline writes on one line, with the line's word for them. */
const JOINED_ROLES: Readonly<Record<string, string>> = {
  link: 'links',
  button: 'buttons',
  tab: 'tabs',
  menuitem: 'menuitems',
  option: 'options',
  treeitem: 'treeitems',
  textbox: 'textboxes',
  checkbox: 'checkboxes',
  radio: 'radios',
  combobox: 'comboboxes',
  switch: 'switches',
};

/**
 * Whether a joined outline writes `node` inside a line of its siblings (a link, button, field…
 * that is not invalid and has no summary line); the caller checks that nothing is listed inside it.
 *
 * @example
 * ```ts
 * joinsLine({ kind: 'control', role: 'link' }); // true
 * ```
 */
export function joinsLine(node: Pick<OutlineNode, 'kind' | 'role' | 'description' | 'error' | 'invalid' | 'omitted'>): boolean {
  return node.kind === 'control' && JOINED_ROLES[node.role] !== undefined && !node.error && !node.invalid && !node.omitted;
}

/**
 * The start of a joined line: its indent and its role's word, `    links:`.
 *
 * @example
 * ```ts
 * joinedLineStart({ role: 'link', depth: 2 }); // '    links:'
 * ```
 */
export function joinedLineStart(node: Pick<OutlineNode, 'role' | 'depth'>): string {
  return `${INDENT.repeat(Math.min(node.depth, MAX_INDENT))}${JOINED_ROLES[node.role] ?? node.role}:`;
}

/**
 * One element's part of a joined line, its ref without brackets (the quotes keep page text from
 * looking like a ref): ` e3 "Pricing" current=page`.
 *
 * @example
 * ```ts
 * joinedPart({ ref: 'e3', kind: 'control', role: 'link', name: 'Pricing', state: {}, depth: 1 }); // ' e3 "Pricing"'
 * ```
 */
export function joinedPart(node: Omit<OutlineNode, 'element'>): string {
  return ` ${lineBody({ ...node, depth: 0 }, false)}`;
}

const INDENT = '  ';
/** Deeper nesting is drawn at this depth: indentation costs tokens and says little past it. */
const MAX_INDENT = 6;
const MAX_NAME = 60;
/** Prose and live region lines carry their first words (cut before, at 160 characters). */
const MAX_TEXT = 170;
const MAX_HELP = 100;

/**
 * The outline as compact text, one line per element, and a last line saying how many elements
 * were left out when some were.
 *
 * @example
 * ```ts
 * import { outlinePage, renderOutline } from 'planloop/dom';
 * renderOutline(outlinePage({ root: document.querySelector('main')! }));
 * // '[e1] main\n  [e2] h1 "Pricing"\n  [e3] link "Start a 14-day trial"'
 * ```
 */
export function renderOutline(outline: Pick<PageOutline, 'nodes' | 'omitted'> & { joined?: true | undefined }): string {
  const lines: string[] = [];
  // Summaries of what a region left out go after its last listed line.
  const open: OutlineNode[] = [];
  let summarized = 0;
  const close = (depth: number): void => {
    while (open.length > 0 && (open.at(-1) as OutlineNode).depth >= depth) {
      const node = open.pop() as OutlineNode;
      lines.push(omittedSummaryLine(node));
      summarized += node.omitted?.count ?? 0;
    }
  };
  // A joined line open for more of its siblings: the node last written on it, and the line's index.
  let joinedAfter: OutlineNode | undefined;
  let joinedLine = -1;
  const nodes = outline.nodes;
  for (let k = 0; k < nodes.length; k += 1) {
    const node = nodes[k] as OutlineNode;
    close(node.depth);
    const next = nodes[k + 1];
    const joins = outline.joined === true && joinsLine(node) && !(next && next.depth > node.depth);
    if (joins && joinedAfter && joinedLine === lines.length - 1 && joinedAfter.depth === node.depth && joinedAfter.role === node.role) {
      lines[joinedLine] += joinedPart(node);
    } else if (joins && next && next.depth === node.depth && next.role === node.role && joinsLine(next) && !((nodes[k + 2]?.depth ?? 0) > next.depth)) {
      lines.push(joinedLineStart(node) + joinedPart(node));
      joinedLine = lines.length - 1;
    } else {
      lines.push(renderOutlineLine(node));
      joinedLine = -1;
    }
    joinedAfter = joinedLine >= 0 ? node : undefined;
    if (node.omitted) open.push(node);
  }
  close(0);
  const rest = outline.omitted - summarized;
  if (rest > 0) lines.push(summarized > 0 ? omittedElsewhereLine(rest) : omittedLine(rest));
  return lines.length > 0 ? lines.join('\n') : 'No visible elements.';
}

/**
 * The line under a region saying what the budget left out in it, with the ref to expand.
 *
 * @example
 * ```ts
 * omittedSummaryLine({ ref: 'e12', depth: 1, omitted: { count: 312, what: '300 links, 12 buttons' } });
 * // '    … 312 more in e12: 300 links, 12 buttons'
 * ```
 */
export function omittedSummaryLine(node: Pick<OutlineNode, 'ref' | 'depth' | 'omitted'>): string {
  const omitted = node.omitted ?? { count: 0, what: '' };
  return `${INDENT.repeat(Math.min(node.depth + 1, MAX_INDENT))}… ${omitted.count} more in ${node.ref}: ${omitted.what}`;
}

/** The last line when regions said what they left out: the rest, outside any listed region. */
function omittedElsewhereLine(omitted: number): string {
  return `… ${omitted} more element${omitted === 1 ? '' : 's'} elsewhere`;
}

/**
 * One element's line: `[e8] textbox "Work email" email required`.
 *
 * @example
 * ```ts
 * renderOutlineLine({ ref: 'e3', kind: 'control', role: 'button', name: 'Start free trial', state: {}, depth: 1 });
 * // '  [e3] button "Start free trial"'
 * ```
 */
export function renderOutlineLine(node: Omit<OutlineNode, 'element'>): string {
  return lineBody(node, true);
}

function lineBody(node: Omit<OutlineNode, 'element'>, withRole: boolean): string {
  const role = node.kind === 'heading' ? `h${node.level ?? 2}` : node.kind === 'text' ? 'text' : node.role;
  let line = withRole ? `${INDENT.repeat(Math.min(node.depth, MAX_INDENT))}[${node.ref}] ${role}` : node.ref;
  if (node.name) line += ` "${quote(node.name, node.kind === 'text' || node.kind === 'live' ? MAX_TEXT : MAX_NAME)}"`;
  else if (node.id) line += ` #${quote(node.id, 40)}`;
  const words = stateWords(node.state);
  if (node.isNew) words.push('new');
  if (node.invalid) words.push('invalid');
  if (node.error) words.push(`error="${quote(node.error, MAX_HELP)}"`);
  if (node.description) words.push(`hint="${quote(node.description, MAX_HELP)}"`);
  return words.length > 0 ? `${line} ${words.join(' ')}` : line;
}

/**
 * The last line of an outline that left elements out.
 *
 * @example
 * ```ts
 * omittedLine(37); // '… 37 more elements not listed'
 * ```
 */
export function omittedLine(omitted: number): string {
  return `… ${omitted} more element${omitted === 1 ? '' : 's'} not listed`;
}

function stateWords(state: ElementState): string[] {
  const words: string[] = [];
  if (state.type) words.push(state.type);
  if (state.withheld) words.push(state.withheld);
  if (state.value !== undefined) words.push(`value="${quote(state.value, 40)}"`);
  if (state.options) words.push(`options=${state.options.map((option) => quote(option, 24)).join('|')}${state.moreOptions ? `|+${state.moreOptions}` : ''}`);
  if (state.checked !== undefined) words.push(state.checked === 'mixed' ? 'mixed' : state.checked ? 'checked' : 'unchecked');
  if (state.pressed !== undefined) words.push(state.pressed === 'mixed' ? 'pressed=mixed' : state.pressed ? 'pressed' : 'not-pressed');
  if (state.expanded !== undefined) words.push(state.expanded ? 'expanded' : 'collapsed');
  if (state.selected) words.push('selected');
  if (state.current) words.push(state.current === 'true' ? 'current' : `current=${state.current}`);
  if (state.required) words.push('required');
  if (state.disabled) words.push('disabled');
  if (state.href) words.push(`->${state.href}`);
  return words;
}

// Page text goes inside double quotes on one line: a quote or a line break in it cannot end the
// line's field or start a line that looks like another element.
function quote(text: string, max: number): string {
  return clip(text.replace(/\s+/g, ' ').replace(/"/g, "'"), max);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
