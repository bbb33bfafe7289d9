import type { PageElement } from './page-elements.js';
import { omittedSummaryLine, type OutlineNode } from './render-outline.js';

/*
 * What an outline left out, said where it was left out: a listed region (a navigation, a form,
 * the main landmark) whose elements did not all fit gets a line under it, "… 312 more in e12:
 * 300 links, 12 buttons", so the model knows what it could expand. The regions that left out the
 * most come first, as long as their lines fit `room`; the rest is counted in the outline's last line.
 */

/** Kinds of the left-out elements shown in a summary line. */
const MAX_KINDS = 2;
/** Fewer left out in a region are only counted in the last line: the summary would cost as much as they do. */
const MIN_SUMMARIZED = 3;

/**
 * Marks listed nodes with what was left out inside them (`node.omitted`), within `room` tokens.
 *
 * @example
 * ```ts
 * import type { PageElement } from './page-elements.js';
 * import type { OutlineNode } from './render-outline.js';
 * declare const found: readonly PageElement[];
 * declare const keep: Uint8Array; // from fitOutline
 * declare const nodeOf: Array<OutlineNode | undefined>;
 * summarizeOmitted(found, keep, nodeOf, estimateTokens, 40);
 * ```
 */
export function summarizeOmitted(
  found: readonly PageElement[],
  keep: Uint8Array,
  nodeOf: ReadonlyArray<OutlineNode | undefined>,
  estimate: (text: string) => number,
  room: number,
): void {
  // The nearest listed element each element is inside (-1: none); parents come before children.
  const nearest = new Int32Array(found.length);
  const counts = new Map<number, Map<string, number>>();
  for (let i = 0; i < found.length; i += 1) {
    const parent = (found[i] as PageElement).parent;
    const container = parent < 0 ? -1 : keep[parent] ? parent : (nearest[parent] ?? -1);
    nearest[i] = container;
    if (keep[i] || container < 0) continue;
    const kinds = counts.get(container) ?? new Map<string, number>();
    const word = kindWord(found[i] as PageElement);
    kinds.set(word, (kinds.get(word) ?? 0) + 1);
    counts.set(container, kinds);
  }
  const regions = [...counts.entries()]
    .map(([index, kinds]) => ({ index, kinds, count: [...kinds.values()].reduce((sum, n) => sum + n, 0) }))
    .sort((a, b) => b.count - a.count || a.index - b.index);
  let left = room;
  for (const region of regions) {
    const node = nodeOf[region.index];
    if (!node || region.count < MIN_SUMMARIZED) continue;
    const what = [...region.kinds.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, MAX_KINDS)
      .map(([word, n]) => `${n} ${n === 1 ? word : plural(word)}`)
      .join(', ');
    const omitted = { count: region.count, what: region.kinds.size > MAX_KINDS ? `${what}, …` : what };
    const cost = estimate(`${omittedSummaryLine({ ...node, omitted })}\n`);
    if (cost > left) continue;
    left -= cost;
    node.omitted = omitted;
  }
}

function kindWord(item: PageElement): string {
  if (item.kind === 'text') return 'paragraph';
  if (item.kind === 'heading') return 'heading';
  return item.role;
}

function plural(word: string): string {
  return /(x|s|ch|sh)$/.test(word) ? `${word}es` : `${word}s`;
}
