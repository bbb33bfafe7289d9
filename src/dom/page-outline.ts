import { ValidationError } from '../errors.js';
import { refRegistryFor, type RefRegistry } from './element-ref.js';
import { elementState, rememberPasswordFields } from './element-state.js';
import { estimateTokens as defaultEstimate } from './estimate-tokens.js';
import { FIELD_ROLES, fieldHelp } from './field-help.js';
import { liveRegionChanged } from './live-region-memory.js';
import { fitOutline, type FitPriorities } from './fit-outline.js';
import { summarizeOmitted } from './omitted-summary.js';
import { documentOf, pageRoot, type PageRoot } from './page-root.js';
import { collectPageElements, nameOf, type CollectOptions, type PageElement } from './page-elements.js';
import { redactSecrets } from '../secret-text.js';
import { duringReadPass } from './read-pass.js';
import { firstWords } from './readable-text.js';
import { joinedLineStart, joinedPart, joinsLine, omittedLine, renderOutline, renderOutlineLine, type OutlineNode, type PageOutline } from './render-outline.js';
import { unseenReason } from './sighted.js';
import { hasLayout } from './visibility.js';

/** Options of {@link outlinePage}. */
export interface OutlinePageOptions {
  /** What to outline: a document, an element or a shadow root. Default: `document`, when called. */
  root?: PageRoot | undefined;
  /** The budget for {@link renderOutline}'s text, in estimated tokens. Default 400. */
  maxTokens?: number | undefined;
  /** Counts tokens. Default {@link estimateTokens} (words, numbers and symbols: close to o200k on outline text). */
  estimateTokens?: ((text: string) => number) | undefined;
  /** Where refs live. Default: the root's document's registry, which `resolveTarget` uses too. */
  registry?: RefRegistry | undefined;
  /** Extra elements to list (CSS selector), e.g. `'.card, [data-tour]'`. */
  include?: CollectOptions['include'] | undefined;
  /** Elements to leave out with all they contain (CSS selector), e.g. the agent's own panel: `'#guide'`. */
  exclude?: CollectOptions['exclude'] | undefined;
  /** Elements whose values (and their descendants') are never read (CSS selector), besides `[data-planloop-private]`. */
  privateSelector?: CollectOptions['privateSelector'] | undefined;
  /**
   * Fields whose values may be shown although the secret rules would withhold them (CSS
   * selector): the host's per-field opt-in, e.g. `'#promo-code'`. Never a password field's
   * (present or former) nor a private one's. Default: none.
   */
  revealValues?: string | undefined;
  /** Whether boxes have real sizes (checks zero size, orders by viewport distance). Default: detected. */
  layout?: boolean | undefined;
  /** Outline only what is in the viewport (and the containers it is in), e.g. to look closer at what the user sees. Default false. */
  onlyViewport?: boolean | undefined;
  /** List prose (paragraphs and text blocks, as `text` lines). Default true. */
  prose?: boolean | undefined;
  /** Over budget, take every control in the viewport before the page's structure (a closer look at a region). Default false. */
  viewportFirst?: boolean | undefined;
}

/** Characters of a prose or live region line: the first words, cut at a word with `…`. */
const PROSE_CHARS = 160;

/**
 * The default budget of an outline, in estimated tokens: 400.
 *
 * @example
 * ```ts
 * outlinePage({ maxTokens: DEFAULT_OUTLINE_TOKENS / 2 }); // a shorter outline for a small model
 * ```
 */
export const DEFAULT_OUTLINE_TOKENS = 400;

/**
 * Describes the visible page for a model within a token budget: landmarks, headings, interactive
 * elements, content blocks with an id or a name, prose (`text` lines with the first words of
 * paragraphs) and live regions (alert, status, log, with `new` when their text changed), each
 * with a ref (`e12`) that {@link resolveTarget} turns back into the element, its role, accessible
 * name, state and, for fields, their visible hint and error. Values of secret fields and of
 * private elements are never read; a link's target is shown only for another site or a download.
 *
 * Hidden elements are left out (display:none, visibility:hidden, `hidden`, aria-hidden="true",
 * `inert`, closed dialogs and details, and zero-size boxes where the page has layout). Open shadow
 * roots are walked. While a modal dialog is open, only the dialog is outlined.
 *
 * Over budget (see `fitOutline`): live regions, the main heading and the first paragraph first;
 * then the structure near the viewport (up to 40%), the viewport's and the focused form's controls
 * (up to 45%), prose (up to 25%), then the rest. An element is kept with the elements it is
 * inside. A listed region that left elements out says so under it (`… 312 more in e12: 300
 * links, 12 buttons`), within about 12% of the budget kept for those lines; `omitted` counts what
 * was left out, and the last line the rest. Refs are given only to listed elements and stay with
 * an element across outlines; a re-rendered element with the same id, test id, form name, role
 * and name, or place gets its old ref back.
 *
 * Touches nothing at import; reads `document` only when called without `root`.
 * Defaults: `maxTokens` 400, tokens counted by `estimateTokens` (close to o200k), layout detected.
 *
 * @example
 * ```ts
 * import { outlinePage, renderOutline } from 'planloop/dom';
 *
 * const outline = outlinePage({ root: document.querySelector('main')!, maxTokens: 300 });
 * const text = renderOutline(outline); // '[e1] main\n  [e2] h1 "Pricing"\n  [e3] text "Start free, pay as you grow."\n  [e4] link "Start free"'
 * outline.omitted; // 0
 * ```
 */
export function outlinePage(options: OutlinePageOptions = {}): PageOutline {
  // The page does not change while it is outlined: styles and per-element verdicts are read once.
  return duringReadPass(() => outlineOnce(options));
}

function outlineOnce(options: OutlinePageOptions): PageOutline {
  const root = pageRoot(options.root, 'outlinePage');
  const maxTokens = options.maxTokens ?? DEFAULT_OUTLINE_TOKENS;
  if (typeof maxTokens !== 'number' || !Number.isFinite(maxTokens) || maxTokens < 1) {
    throw new ValidationError('invalid_input', `outlinePage: maxTokens must be a number of at least 1, not ${String(maxTokens)}.`, {
      issues: [{ path: 'maxTokens', message: 'must be a number of at least 1' }],
    });
  }
  const estimate = options.estimateTokens ?? defaultEstimate;
  if (typeof estimate !== 'function') {
    throw new ValidationError('invalid_input', 'outlinePage: estimateTokens must be a function (text) => number.', {
      issues: [{ path: 'estimateTokens', message: 'must be a function' }],
    });
  }
  const document = documentOf(root);
  const registry = options.registry ?? refRegistryFor(document);
  rememberPasswordFields(root);
  const reveal = (element: Element): boolean => !!options.revealValues && safeMatches(element, options.revealValues);
  const collected = collectPageElements(modalDialogIn(root, document) ?? root, {
    ...(options.layout === undefined ? {} : { layout: options.layout }),
    ...(options.include ? { include: options.include } : {}),
    ...(options.exclude ? { exclude: options.exclude } : {}),
    ...(options.privateSelector ? { privateSelector: options.privateSelector } : {}),
  });
  const proseToo = options.prose ?? true;
  let found =
    options.onlyViewport || !proseToo
      ? relinked(collected, (item) => (!options.onlyViewport || item.distance === 0) && (proseToo || item.kind !== 'text'))
      : collected;

  // Lines are costed before refs are given (refs go to listed elements only, to keep them short):
  // an element without a ref is costed with a ref as long as any it could get. Costing needs the
  // name and state, so it is done only for the elements the budget gets to.
  const longRef = `e${registry.nextNumber() + found.length}`;
  const drafts: Array<OutlineNode | undefined> = [];
  const draftAt = (i: number): OutlineNode => (drafts[i] ??= draftNode(found[i] as PageElement, longRef, registry, reveal));
  // Ways of writing the outline, longest first (see WAYS): what each element costs in each (asked again when `found` changes).
  const waysCosted = () => {
    const runs = new Int32Array(found.length).fill(-2);
    const runOf = (i: number): number => (runs[i] !== -2 ? (runs[i] as number) : (runs[i] = staticRun(found, i, runs)));
    // A line, or a part of a joined line, as long as the whole draft's is costed once for all ways.
    const wholeLines: number[] = [];
    const wholeParts: number[] = [];
    const lineOf = (node: OutlineNode, i: number) =>
      node === draftAt(i) ? (wholeLines[i] ??= estimate(`${renderOutlineLine(node)}\n`)) : estimate(`${renderOutlineLine(node)}\n`);
    const partOf = (node: OutlineNode, i: number) => (node === draftAt(i) ? (wholeParts[i] ??= estimate(joinedPart(node))) : estimate(joinedPart(node)));
    // The least a line costs: its indent, ref and role, which every way writes whole (see `least` in FitCost).
    // Known only for the default estimate, which never counts a text as less than a text it begins with.
    const leastLines: number[] = [];
    const leastParts: number[] = [];
    const bare = (i: number): Omit<OutlineNode, 'element'> => {
      const item = found[i] as PageElement;
      return {
        ref: registry.refOf(item.element) ?? longRef,
        kind: item.kind,
        role: item.role,
        name: '',
        state: {},
        depth: item.depth,
        ...(item.level === undefined ? {} : { level: item.level }),
      };
    };
    const leastLine = (i: number) => (leastLines[i] ??= estimate(`${renderOutlineLine(bare(i))}\n`));
    const leastPart = (i: number) => (leastParts[i] ??= estimate(joinedPart(bare(i))));
    const known = estimate === defaultEstimate;
    return WAYS.map((way) => {
      const lines: number[] = [];
      const inline: number[] = [];
      const draft = (i: number) => shortened(draftAt(i), way);
      return {
        line: (i: number) => (lines[i] ??= lineOf(draft(i), i)),
        ...(known ? { least: way.joined ? (i: number) => (runOf(i) >= 0 ? leastPart(i) : leastLine(i)) : leastLine } : {}),
        ...(way.joined
          ? {
              runOf,
              inline: (i: number) => (inline[i] ??= partOf(draft(i), i)),
              overhead: (i: number) => estimate(`${joinedLineStart(found[i] as PageElement)}\n`),
            }
          : {}),
      };
    });
  };
  // Room for the lines that say what was left out in a region, and for the last line.
  const summaryReserve = Math.min(SUMMARY_RESERVE_MAX, Math.floor(maxTokens * SUMMARY_RESERVE_SHARE));
  // The walk took a first look at what a person sees; what the budget keeps is judged by the whole
  // sight rule (unseenReason, kept for the pass), and what fails it is dropped and the budget filled again.
  const layout = options.layout ?? hasLayout(document);
  let fitted: ReturnType<typeof fitOutline>;
  for (;;) {
    fitted = fitOutline(found, waysCosted(), maxTokens, estimate(omittedLine(found.length)) + summaryReserve, {
      ...priorities(found, document, layout),
      viewportFirst: options.viewportFirst === true,
      layout,
    });
    const unseen = new Set<number>();
    for (let i = 0; i < found.length; i += 1) if (fitted.keep[i] && !seenInOutline(found[i] as PageElement, draftAt(i), layout)) unseen.add(i);
    if (unseen.size === 0) break;
    found = withoutItems(found, unseen);
    // The elements that stay keep their drafts (what they say does not change; their nesting may).
    const stayed: number[] = [];
    for (let i = 0, j = 0; i < drafts.length; i += 1) if (!unseen.has(i)) stayed[i] = j++;
    const moved: Array<OutlineNode | undefined> = [];
    drafts.forEach((draft, i) => {
      const j = stayed[i];
      if (!draft || j === undefined) return;
      const depth = (found[j] as PageElement).depth;
      moved[j] = draft.depth === depth ? draft : { ...draft, depth };
    });
    drafts.length = 0;
    moved.forEach((draft, j) => {
      drafts[j] = draft;
    });
  }
  const keep = fitted.keep;
  const way = WAYS[fitted.way] ?? (WAYS[0] as Way);
  const joined = way.joined ? ({ joined: true } as const) : {};

  const nodes: OutlineNode[] = [];
  const nodeOf: Array<OutlineNode | undefined> = [];
  for (let i = 0; i < found.length; i += 1) {
    if (!keep[i]) continue;
    const draft = shortened(draftAt(i), way);
    // The ref remembers the whole name (a shortened name would not find the element again).
    const node: OutlineNode = {
      ...draft,
      ref: registry.assign(draft.element, { role: draft.role, name: draft.kind === 'text' || draft.kind === 'live' ? '' : draftAt(i).name }),
    };
    if (node.kind === 'live') {
      if (liveRegionChanged(node.element, draftAt(i).name)) node.isNew = true;
      else delete node.isNew;
    }
    nodes.push(node);
    nodeOf[i] = node;
  }
  const spent = estimate(renderOutline({ nodes, omitted: 0, ...joined }));
  summarizeOmitted(found, keep, nodeOf, (text) => estimate(text), maxTokens - spent - estimate(omittedLine(found.length)));
  let outline: PageOutline = { nodes, total: found.length, omitted: found.length - nodes.length, tokens: 0, maxTokens, ...joined };
  // A tokenizer may count a whole text as more than the sum of its lines: drop the smallest
  // region summary, then the last line (nothing is inside it), until the text fits.
  for (;;) {
    const tokens = estimate(renderOutline(outline));
    if (tokens <= maxTokens || outline.nodes.length === 0) return { ...outline, tokens };
    const summarized = outline.nodes.filter((node) => node.omitted);
    if (summarized.length > 0) {
      const smallest = summarized.reduce((a, b) => ((b.omitted?.count ?? 0) < (a.omitted?.count ?? 0) ? b : a));
      delete smallest.omitted;
      continue;
    }
    const trimmed = outline.nodes.slice(0, -1);
    outline = { ...outline, nodes: trimmed, omitted: found.length - trimmed.length };
  }
}

/** A way of writing an outline: whether sibling links and buttons share a line, and how many characters (or options) each kind of text keeps. */
interface Way {
  joined: boolean;
  names?: number;
  hints?: number;
  options?: number;
  prose?: number;
  values?: number;
  /** Whether links show where they lead (`->example.com`); a download always says so. */
  hosts?: false;
}

/**
 * Ways of writing an outline, longest first: the budget takes the first in which all that a person
 * can act on now (the viewport's controls, the visible or focused form's fields) fits its share.
 * Each line as it is; then consecutive sibling links, buttons and fields on one line; then also shorter:
 * names of links, buttons and regions cut at 36, then 24 characters (a field keeps its label, a
 * heading its words), hints and errors at 60, then 32, three then two options of a select, prose
 * at 120, then 100 characters, values at 24, and links no longer say which site they lead to
 * (a download still does). Cut text ends with `…`.
 */
const WAYS: readonly Way[] = [
  { joined: false },
  { joined: true },
  { joined: true, names: 36, hints: 60, options: 3, prose: 120 },
  { joined: true, names: 24, hints: 32, options: 2, prose: 100, values: 24, hosts: false },
];

/** A draft written `way`: its texts cut to the way's lengths. */
function shortened(draft: OutlineNode, way: Way): OutlineNode {
  if (way.names === undefined) return draft;
  if (draft.kind === 'text' || draft.kind === 'live')
    return way.prose !== undefined && draft.name.length > way.prose ? { ...draft, name: cut(draft.name, way.prose) } : draft;
  const out = { ...draft };
  if (draft.name.length > way.names && (draft.kind === 'landmark' || draft.kind === 'block' || (draft.kind === 'control' && !FIELD_ROLES.has(draft.role))))
    out.name = cut(draft.name, way.names);
  if (way.hints !== undefined && draft.description && draft.description.length > way.hints) out.description = cut(draft.description, way.hints);
  if (way.hints !== undefined && draft.error && draft.error.length > way.hints) out.error = cut(draft.error, way.hints);
  if (way.values !== undefined && draft.state.value !== undefined && draft.state.value.length > way.values)
    out.state = { ...draft.state, value: cut(draft.state.value, way.values) };
  if (way.hosts === false && draft.state.href !== undefined && draft.state.href !== 'download') {
    const { href: _host, ...state } = out.state;
    out.state = state;
  }
  const options = draft.state.options;
  if (way.options !== undefined && options && options.length > way.options) {
    out.state = { ...out.state, options: options.slice(0, way.options), moreOptions: (draft.state.moreOptions ?? 0) + options.length - way.options };
  }
  // Nothing cut: the draft itself (its costs are known from the longer ways).
  return out.name === draft.name && out.description === draft.description && out.error === draft.error && out.state === draft.state ? draft : out;
}

/** `text` cut at a word before `chars` characters, with `…`. */
function cut(text: string, chars: number): string {
  const head = text.slice(0, chars - 1);
  const space = head.lastIndexOf(' ');
  return `${(space > chars / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}

/**
 * The run of element `i` (the index of its first element), or -1: consecutive siblings of one
 * joinable role (links, buttons…) with nothing listed inside them share a line in a joined outline.
 * `runs` keeps the answers (-2: not asked yet).
 */
function staticRun(found: readonly PageElement[], i: number, runs: Int32Array): number {
  const joinable = (j: number) => joinsLine(found[j] as PageElement) && (found[j + 1] as PageElement | undefined)?.parent !== j;
  const sameRun = (j: number) =>
    joinable(j) &&
    (found[j] as PageElement).parent === (found[j + 1] as PageElement).parent &&
    (found[j] as PageElement).role === (found[j + 1] as PageElement).role;
  if (!joinable(i)) return -1;
  // Back to the run's first element, or to an element whose run is known (a run can be long: no recursion).
  let first = i;
  while (first > 0 && runs[first - 1] === -2 && sameRun(first - 1)) first -= 1;
  const known = first > 0 && (runs[first - 1] as number) >= 0 && sameRun(first - 1) ? (runs[first - 1] as number) : first;
  for (let j = first; j < i; j += 1) runs[j] = known;
  return known;
}

/** At most this share of the budget is kept for the lines saying what a region left out… */
const SUMMARY_RESERVE_SHARE = 0.12;
/** …and at most this many tokens. */
const SUMMARY_RESERVE_MAX = 60;

/**
 * Whether a kept element passes the whole sight rule, and (a heading, prose, a live region) says
 * something a person can read: its line's words.
 */
function seenInOutline(item: PageElement, draft: OutlineNode, layout: boolean): boolean {
  if (unseenReason(item.element, { layout }) !== undefined) return false;
  return draft.name !== '' || (item.kind !== 'heading' && item.kind !== 'text' && item.kind !== 'live') || draft.state.withheld === 'private';
}

/** `found` without the elements at `drop`, the others re-linked to the nearest element they are inside that stays. */
function withoutItems(found: readonly PageElement[], drop: ReadonlySet<number>): PageElement[] {
  const index = new Int32Array(found.length).fill(-1);
  const out: PageElement[] = [];
  found.forEach((item, i) => {
    const parent = item.parent >= 0 ? (index[item.parent] ?? -1) : -1;
    if (drop.has(i)) {
      index[i] = parent;
      return;
    }
    index[i] = out.length;
    out.push({ ...item, parent, depth: parent >= 0 ? (out[parent] as PageElement).depth + 1 : 0 });
  });
  return out;
}

function draftNode(item: PageElement, longRef: string, registry: RefRegistry, reveal: (element: Element) => boolean): OutlineNode {
  const id = item.element.id;
  const prose = item.kind === 'text' || item.kind === 'live';
  // What the host marked private is never read: not its values, not its names (a field keeps its label, to be filled with a secret).
  const name = item.isPrivate && !FIELD_ROLES.has(item.role) ? '' : redactSecrets(prose ? firstWords(item.element, PROSE_CHARS) : nameOf(item));
  const state = prose ? {} : elementState(item.element, item.role, item.isPrivate, reveal(item.element));
  if (item.isPrivate) state.withheld = 'private';
  if (state.options) state.options = state.options.map(redactSecrets);
  // A link's target is shown only where it tells something: another site, or a download.
  if (state.href?.startsWith('/')) delete state.href;
  if (item.role === 'link' && item.element.hasAttribute('download')) state.href = 'download';
  const help: { description?: string; error?: string } = item.kind === 'control' && !item.isPrivate ? fieldHelp(item.element, item.role) : {};
  if (help.description) help.description = redactSecrets(help.description);
  if (help.error) help.error = redactSecrets(help.error);
  // A hint that only repeats the field's name says nothing more.
  if (help.description !== undefined && help.description === name) delete help.description;
  return {
    ref: registry.refOf(item.element) ?? longRef,
    kind: item.kind,
    role: item.role,
    name,
    ...(item.level === undefined ? {} : { level: item.level }),
    ...(id && !name && !item.isPrivate ? { id } : {}),
    state,
    ...help,
    // Costed as new: whether it is is known once it is listed.
    ...(item.kind === 'live' ? { isNew: true as const } : {}),
    depth: item.depth,
    element: item.element,
  };
}

/** A form with more fields than this is a page in a form (a whole site in one `<form>`), not a form to fill: only its fields in the viewport come first. */
const MAX_FORM_FIELDS = 40;
/** Characters of text that make a prose line a paragraph, not a byline or a caption. */
const PARAGRAPH_CHARS = 50;

/**
 * What comes first within the budget: every field of the focused form and of the forms in the
 * viewport, and the main heading and the first paragraph of the content: in `main` (else an
 * article), its first `<p>` of 50 characters or more, else its first such prose, else its first
 * prose; without either, the largest of the first three paragraphs (50 characters or more)
 * after the main heading, else of its first three prose lines; never a form's text.
 */
function priorities(found: readonly PageElement[], document: Document, layout: boolean): FitPriorities {
  const active = document.activeElement;
  const focusedForm = active && active !== document.body ? active.closest('form, [role=form], fieldset') : null;
  const inForm = new Set<Element>();
  let mainHeading = -1;
  for (let i = 0; i < found.length; i += 1) {
    const item = found[i] as PageElement;
    if (item.kind === 'heading' && item.level === 1 && (mainHeading < 0 || (item.inContent && !(found[mainHeading] as PageElement).inContent))) mainHeading = i;
    // A form in the viewport: its fields are the controls after it that are inside it (the walk lists in document order).
    if ((item.role !== 'form' && item.element.localName !== 'form') || item.distance !== 0 || !layout) continue;
    const fields: Element[] = [];
    for (let j = i + 1; j < found.length && (found[j] as PageElement).depth > item.depth; j += 1)
      if ((found[j] as PageElement).kind === 'control') fields.push((found[j] as PageElement).element);
    if (fields.length <= MAX_FORM_FIELDS) for (const field of fields) inForm.add(field);
  }
  return {
    focused: focusedForm || inForm.size > 0 ? (item) => inForm.has(item.element) || (!!focusedForm && focusedForm.contains(item.element)) : undefined,
    first: [mainHeading, firstParagraph(found, mainHeading)].filter((index) => index >= 0),
  };
}

/** The index of the content's first paragraph (see {@link priorities}), or -1. A form's texts are its fields' hints, not the content's paragraphs. */
function firstParagraph(found: readonly PageElement[], mainHeading: number): number {
  const inForm = (element: Element) => element.closest('form') !== null;
  const length = (i: number) => ((found[i] as PageElement).element.textContent ?? '').replace(/\s+/g, ' ').trim().length;
  const hasMain = found.some((item) => item.inMain);
  let firstProse = -1;
  let firstLong = -1;
  for (let i = 0; i < found.length; i += 1) {
    const item = found[i] as PageElement;
    if (item.kind !== 'text' || !(hasMain ? item.inMain : item.inContent) || inForm(item.element)) continue;
    if (firstProse < 0) firstProse = i;
    if (length(i) < PARAGRAPH_CHARS) continue;
    if (item.element.localName === 'p') return i;
    if (firstLong < 0) firstLong = i;
  }
  if (firstLong >= 0 || firstProse >= 0) return firstLong >= 0 ? firstLong : firstProse;
  if (mainHeading < 0) return -1;
  // The largest of the first three paragraphs (50 characters or more) after the main heading, else of its first three prose lines.
  const largestOf = (paragraphsOnly: boolean): number => {
    let largest = -1;
    for (let i = mainHeading + 1, seen = 0; i < found.length && seen < 3; i += 1) {
      if ((found[i] as PageElement).kind !== 'text' || inForm((found[i] as PageElement).element) || (paragraphsOnly && length(i) < PARAGRAPH_CHARS)) continue;
      seen += 1;
      if (largest < 0 || length(i) > length(largest)) largest = i;
    }
    return largest;
  };
  const largest = largestOf(true);
  return largest >= 0 ? largest : largestOf(false);
}

/** The elements `wanted` keeps, with the containers they are in, re-linked to each other. */
function relinked(found: readonly PageElement[], wanted: (item: PageElement) => boolean): PageElement[] {
  const keep = new Uint8Array(found.length);
  for (let i = 0; i < found.length; i += 1) {
    if (!wanted(found[i] as PageElement)) continue;
    for (let j = i; j >= 0 && !keep[j]; j = (found[j] as PageElement).parent) keep[j] = 1;
  }
  const index = new Int32Array(found.length).fill(-1);
  const out: PageElement[] = [];
  found.forEach((item, i) => {
    if (!keep[i]) return;
    index[i] = out.length;
    const parent = item.parent >= 0 ? (index[item.parent] ?? -1) : -1;
    out.push({ ...item, parent, depth: parent >= 0 ? (out[parent] as PageElement).depth + 1 : 0 });
  });
  return out;
}

/** The open modal dialog inside `root`, if any: while it is open, the rest of the page is inert. */
function modalDialogIn(root: PageRoot, document: Document): Element | undefined {
  let modal: Element | null = null;
  try {
    modal = document.querySelector('dialog:modal');
  } catch {
    // An engine without :modal (happy-dom, old browsers): outline the whole root.
    return undefined;
  }
  if (!modal) return undefined;
  return root.nodeType === 9 || root.contains(modal) ? modal : undefined;
}

function safeMatches(element: Element, selector: string): boolean {
  try {
    return element.matches(selector);
  } catch {
    return false;
  }
}
