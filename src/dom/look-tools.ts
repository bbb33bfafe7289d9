import { ValidationError } from '../errors.js';
import type { RefRegistry } from './element-ref.js';
import { PRIVATE_ATTRIBUTE } from './element-state.js';
import { outlinePage } from './page-outline.js';
import { pageRoot, documentOf, type PageRoot } from './page-root.js';
import { readableText } from './readable-text.js';
import { renderOutline } from './render-outline.js';
import { resolveTarget } from './resolve-target.js';
import { checkFenceTimes, fenceEffects } from './effect-fence.js';

/*
 * Read-only tools a turn model uses to see more of the page than the outline's budget shows:
 * expand a region the outline shortened ("… 312 more in e12"), read a section's text, scroll.
 * Each answer has its own budget. They declare `risk: 'read'`: `runWebAgent` undoes the plan
 * change of a turn that only looks (it completes nothing) and keeps the answer for the next prompt.
 */

/** One look tool, in the shape `runWebAgent`'s `tools` take; `R` is what `run` returns (`scroll`'s is a promise: it waits for the page). */
export interface LookTool<R extends string | Promise<string> = string> {
  readonly risk: 'read';
  /** The one line the model sees. */
  readonly description: string;
  /** Returns what the model sees next turn; throws (an observation the model reads) on a target it cannot use, or when the page answered a scroll with a write. */
  readonly run: (args: Record<string, unknown>) => R;
}

/** The look tools, by the names the model calls them. */
export interface LookTools {
  /** `expand {target}`: the controls and structure of a region (its ref), or of the whole viewport without a target (`read_text` reads prose). */
  expand: LookTool;
  /** `read_text {target, from}`: the readable text of an element (default: the main content), from a character on. */
  read_text: LookTool;
  /** `scroll {to}`: `down`, `up`, `top`, `bottom`, or a target to bring into view; refused when the page answers the scroll with a write. */
  scroll: LookTool<Promise<string>>;
}

/** Options of {@link createLookTools}. */
export interface LookToolsOptions {
  /** Where the tools look: a document, an element or a shadow root. Default: `document`, when called. */
  root?: PageRoot | undefined;
  /** Budget of each answer, in estimated tokens. Default 800 (a text is cut at 4 characters a token). */
  maxTokens?: number | undefined;
  /** Left out with their content, as in `outlinePage` (e.g. the agent's own panel). */
  exclude?: string | undefined;
  /** Elements whose values and text are never read, besides `[data-planloop-private]`. */
  privateSelector?: string | undefined;
  /** Where refs live. Default: the document's registry (the one `outlinePage` fills). */
  registry?: RefRegistry | undefined;
  /** Counts tokens for `expand`. Default `estimateTokens`. */
  estimateTokens?: ((text: string) => number) | undefined;
  /** How long `scroll` waits for the page to be quiet after scrolling (its effect fence), in ms. Default 150. */
  settleMs?: number | undefined;
}

/** The default budget of one look: 800 estimated tokens. */
const DEFAULT_LOOK_TOKENS = 800;

/**
 * Read-only tools to see more of the page than an outline's budget shows, ready for
 * `runWebAgent`'s `tools`: `expand` (a region's outline, by ref, or the viewport's), `read_text`
 * (an element's readable text, paged with `from`), `scroll` (by a screenful, to an end, or to a
 * target). `scroll` runs the page's scroll handlers inside a read-only effect fence: a request,
 * form, navigation, window or download they set off is stopped and the scroll refused (a look
 * never writes). `expand` and `read_text` run no page code. Each declares `risk: 'read'`, answers within `maxTokens`, never reads hidden text,
 * secret values or private and excluded regions, and throws on a target it cannot use, which the
 * loop turns into an observation the model can act on.
 *
 * Defaults: `maxTokens` 800, `root` the document, refs from the document's registry.
 *
 * @example
 * ```ts
 * import { createLookTools, outlinePage, renderOutline } from 'planloop/dom';
 *
 * await runWebAgent({
 *   plan,
 *   task,
 *   tools: { ...createLookTools({ exclude: '#guide' }), ...tools },
 *   observe: ({ maxTokens }) => renderOutline(outlinePage({ maxTokens, exclude: '#guide' })),
 * });
 * ```
 */
export function createLookTools(options: LookToolsOptions = {}): LookTools {
  checkFenceTimes(options, 'createLookTools');
  const maxTokens = options.maxTokens ?? DEFAULT_LOOK_TOKENS;
  if (typeof maxTokens !== 'number' || !Number.isFinite(maxTokens) || maxTokens < 20) {
    throw new ValidationError('invalid_input', `createLookTools: maxTokens must be a number of at least 20, not ${String(maxTokens)}.`, {
      issues: [{ path: 'maxTokens', message: 'must be a number of at least 20' }],
    });
  }
  const shared = {
    ...(options.exclude ? { exclude: options.exclude } : {}),
    ...(options.privateSelector ? { privateSelector: options.privateSelector } : {}),
    ...(options.registry ? { registry: options.registry } : {}),
    ...(options.estimateTokens ? { estimateTokens: options.estimateTokens } : {}),
  };
  const root = (): PageRoot => pageRoot(options.root, 'createLookTools');
  const skip = [`[${PRIVATE_ATTRIBUTE}]`, options.privateSelector, options.exclude].filter(Boolean).join(', ');

  const find = (target: unknown): Element => {
    const found = resolveTarget(target, { root: root(), ...(options.registry ? { registry: options.registry } : {}) });
    if (!found.ok) throw new Error(found.message);
    if (skip && found.element.closest(skip)) throw new Error(`${String(target)} is private to the page: its content is not read.`);
    return found.element;
  };

  return {
    expand: {
      risk: 'read',
      description: 'see a region the page outline shortened {target: its ref}, or all of the viewport {}',
      run: ({ target }) => {
        const hasTarget = typeof target === 'string' && target.trim() !== '';
        const outline = hasTarget
          ? outlinePage({ ...shared, root: find(target), maxTokens, prose: false, viewportFirst: true })
          : outlinePage({ ...shared, root: root(), maxTokens, onlyViewport: true, prose: false });
        return renderOutline(outline);
      },
    },
    read_text: {
      risk: 'read',
      description: 'read the text of an element {target, from?} (default the main content)',
      run: ({ target, from }) => {
        const start = typeof from === 'number' && Number.isFinite(from) && from > 0 ? Math.floor(from) : 0;
        const element = typeof target === 'string' && target.trim() !== '' ? find(target) : mainContent(root());
        const { text, more } = readableText(element, { from: start, maxChars: maxTokens * 4, skip: skip || undefined });
        if (!text) return start > 0 ? 'No more text.' : 'No readable text there.';
        const next = start + text.length;
        return more > 0 ? `${text}\n… ${more} more characters: read_text {"target":"${String(target ?? '')}","from":${next}}` : text;
      },
    },
    scroll: {
      risk: 'read',
      description: 'scroll the page {to: down|up|top|bottom or a target}',
      run: async ({ to }) => {
        const document = documentOf(root());
        const view = document.defaultView;
        if (!view) throw new Error('This page cannot scroll.');
        const where = typeof to === 'string' ? to.trim().toLowerCase() : 'down';
        const step = Math.round(view.innerHeight * 0.8);
        const target = where === 'down' || where === '' || where === 'up' || where === 'top' || where === 'bottom' ? undefined : find(to);
        // A scroll runs the page's scroll handlers and observers (an infinite list, a "mark as read"
        // sentinel): inside a read-only fence, so that whatever they would send or open is stopped.
        const fenced = await fenceEffects(
          () => {
            if (where === 'down' || where === '') view.scrollBy({ top: step });
            else if (where === 'up') view.scrollBy({ top: -step });
            else if (where === 'top') view.scrollTo({ top: 0 });
            else if (where === 'bottom') view.scrollTo({ top: document.documentElement.scrollHeight });
            else target?.scrollIntoView({ block: 'start' });
          },
          { mode: 'read', window: view, ...(options.settleMs !== undefined ? { settleMs: options.settleMs } : {}) },
        );
        if (fenced.stopped) throw new Error(`Scrolling made the page try to change something, so it was refused. ${fenced.stopped}`);
        const top = Math.round(view.scrollY);
        const height = document.documentElement.scrollHeight;
        return `Scrolled: the viewport shows ${top}–${top + view.innerHeight} of ${height} px. The next page outline starts there.`;
      },
    },
  };
}

/** The page's main content: its `main` landmark, else its first article, else the root. */
function mainContent(root: PageRoot): Element {
  const scope = root.nodeType === 9 ? (root as Document) : (root as Element | ShadowRoot);
  const found = scope.querySelector('main, [role=main]') ?? scope.querySelector('article, [role=article]');
  if (found) return found;
  if (root.nodeType === 9) return (root as Document).body ?? (root as Document).documentElement;
  return root.nodeType === 1 ? (root as Element) : (root as ShadowRoot).host;
}
