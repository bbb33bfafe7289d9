/**
 * Line-based three-way merge (diff3) of documents, for edits that raced a user: the model edited
 * the version it saw (`base` → `theirs`) while the user or another tab edited it too
 * (`base` → `ours`).
 */

/** One change of a diff: base lines `[a0, a1)` became the other side's lines `[b0, b1)`. */
interface Hunk {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

/** Where two edits of the same passage disagree. */
export interface MergeConflict {
  /** `title`, or `content` for a run of lines. */
  field: 'title' | 'content';
  /** For `content`: the first base line involved (1-based) and how many there are (0: an insertion before that line). */
  line?: number;
  lines?: number;
  base: string;
  ours: string;
  theirs: string;
}

/** What {@link mergeText} and {@link mergeDocument} give: the merged value, or the conflicts. */
export type MergeResult<T> = { ok: true; value: T } | { ok: false; conflicts: MergeConflict[] };

/**
 * Merges two edits of the same text (line by line, like `diff3`/`git merge-file`). Changes to
 * different lines both survive, also when they touch (an edited paragraph and a line added right
 * after it); two changes to the same lines, or two insertions at the same place, are a conflict
 * unless they made the same text. Line breaks are kept as they are (`\r\n` included), so the merge
 * of unchanged sides is exact: `mergeText(b, b, x)`, `mergeText(b, x, b)` and `mergeText(b, x, x)`
 * all give `x`. The diff is Myers' O((N+M)·D) in linear space; a 20 KB document merges in about a
 * millisecond.
 *
 * @example
 * ```ts
 * mergeText('# A\n\nold intro\n\nold outro\n', '# A\n\nnew intro\n\nold outro\n', '# A\n\nold intro\n\nnew outro\n');
 * // { ok: true, value: '# A\n\nnew intro\n\nnew outro\n' }
 * mergeText('a\n', 'b\n', 'c\n'); // { ok: false, conflicts: [{ field: 'content', line: 1, lines: 1, base: 'a\n', ours: 'b\n', theirs: 'c\n' }] }
 * ```
 */
export function mergeText(base: string, ours: string, theirs: string): MergeResult<string> {
  if (ours === base || ours === theirs) return { ok: true, value: theirs };
  if (theirs === base) return { ok: true, value: ours };
  const ids = new Map<string, number>();
  const [baseLines, baseIds] = splitLines(base, ids);
  const [ourLines, ourIds] = splitLines(ours, ids);
  const [theirLines, theirIds] = splitLines(theirs, ids);
  const mine = diff(baseIds, ourIds);
  const other = diff(baseIds, theirIds);

  const out: string[] = [];
  const conflicts: MergeConflict[] = [];
  let i = 0;
  let j = 0;
  let pos = 0;
  while (i < mine.length || j < other.length) {
    const a = mine[i];
    const b = other[j];
    const first = !b || (a && (a.a0 < b.a0 || (a.a0 === b.a0 && a.a1 <= b.a1))) ? (a as Hunk) : b;
    const lo = first.a0;
    let hi = first.a1;
    const fromMine: Hunk[] = [];
    const fromOther: Hunk[] = [];
    // Grow the chunk until no hunk of either side clashes with it.
    for (let grown = true; grown; ) {
      grown = false;
      while (i < mine.length && clashes(mine[i] as Hunk, lo, hi, first === mine[i])) {
        const hunk = mine[i++] as Hunk;
        fromMine.push(hunk);
        hi = Math.max(hi, hunk.a1);
        grown = true;
      }
      while (j < other.length && clashes(other[j] as Hunk, lo, hi, first === other[j])) {
        const hunk = other[j++] as Hunk;
        fromOther.push(hunk);
        hi = Math.max(hi, hunk.a1);
        grown = true;
      }
    }
    for (let line = pos; line < lo; line++) out.push(baseLines[line] as string);
    const oursText = sideText(baseLines, ourLines, fromMine, lo, hi);
    const theirsText = sideText(baseLines, theirLines, fromOther, lo, hi);
    // A chunk after a last line without its line break (one side ended the text there, the other
    // added lines after it) would glue two lines together: a conflict.
    const glued = pos === baseLines.length && out.length > 0 && !(out[out.length - 1] as string).endsWith('\n');
    if (!glued && (fromOther.length === 0 || oursText === theirsText)) out.push(oursText);
    else if (!glued && fromMine.length === 0) out.push(theirsText);
    else {
      conflicts.push({ field: 'content', line: lo + 1, lines: hi - lo, base: baseLines.slice(lo, hi).join(''), ours: oursText, theirs: theirsText });
      out.push(oursText);
    }
    pos = hi;
  }
  for (let line = pos; line < baseLines.length; line++) out.push(baseLines[line] as string);
  return conflicts.length > 0 ? { ok: false, conflicts } : { ok: true, value: out.join('') };
}

/**
 * Merges a document's title and content: the content with {@link mergeText}, the title as one
 * value (whichever side changed it wins; both changing it differently is a conflict).
 *
 * @example
 * ```ts
 * declare const sentToModel: MarkdownDoc, fromModel: { title: string; content: string };
 * const current = plan.markdown.read(sentToModel.id)!;
 * const merged = mergeDocument(sentToModel, current, fromModel);
 * if (merged.ok) plan.markdown.edit(current.id, merged.value); else console.log(merged.conflicts);
 * ```
 */
export function mergeDocument(
  base: { title: string; content: string },
  ours: { title: string; content: string },
  theirs: { title: string; content: string },
): MergeResult<{ title: string; content: string }> {
  const conflicts: MergeConflict[] = [];
  const title = mergeValue(base.title, ours.title, theirs.title);
  if (title === undefined) conflicts.push({ field: 'title', base: base.title, ours: ours.title, theirs: theirs.title });
  const content = mergeText(base.content, ours.content, theirs.content);
  if (!content.ok) conflicts.push(...content.conflicts);
  if (conflicts.length > 0 || !content.ok || title === undefined) return { ok: false, conflicts };
  return { ok: true, value: { title, content: content.value } };
}

/** The three-way rule for one value: the side that changed it wins; undefined when both changed it differently. */
function mergeValue(base: string, ours: string, theirs: string): string | undefined {
  if (ours === base || ours === theirs) return theirs;
  if (theirs === base) return ours;
  return undefined;
}

/**
 * Whether `hunk` belongs to the chunk `[lo, hi)`: their base lines overlap, or one inserts inside
 * the other, or both insert at the same place. Touching is not clashing: an insertion right before
 * or after a replaced run goes beside it.
 */
function clashes(hunk: Hunk, lo: number, hi: number, isFirst: boolean): boolean {
  if (isFirst) return true;
  if (Math.max(hunk.a0, lo) < Math.min(hunk.a1, hi)) return true;
  if (hunk.a0 === hunk.a1) return lo === hi ? hunk.a0 === lo : lo < hunk.a0 && hunk.a0 < hi;
  return lo === hi && hunk.a0 < lo && lo < hunk.a1;
}

/** One side's text for base lines `[lo, hi)`, given that side's hunks there (in order). */
function sideText(base: readonly string[], side: readonly string[], hunks: readonly Hunk[], lo: number, hi: number): string {
  let text = '';
  let at = lo;
  for (const hunk of hunks) {
    for (let line = at; line < hunk.a0; line++) text += base[line];
    for (let line = hunk.b0; line < hunk.b1; line++) text += side[line];
    at = hunk.a1;
  }
  for (let line = at; line < hi; line++) text += base[line];
  return text;
}

/** The lines of `text`, each with its line break, and a number per distinct line (shared through `ids`). */
function splitLines(text: string, ids: Map<string, number>): [string[], Int32Array] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const numbers = new Int32Array(lines.length);
  lines.forEach((line, index) => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    numbers[index] = id;
  });
  return [lines, numbers];
}

/**
 * The hunks that turn `a` into `b`, in order: a shortest edit script by Myers' algorithm
 * ("An O(ND) Difference Algorithm and Its Variations", 1986), linear-space variant.
 *
 * @example
 * ```ts
 * diff(Int32Array.of(1, 2, 3), Int32Array.of(1, 4, 3)); // [{ a0: 1, a1: 2, b0: 1, b1: 2 }]
 * ```
 */
export function diff(a: Int32Array, b: Int32Array): Array<{ a0: number; a1: number; b0: number; b1: number }> {
  const matched = new Uint8Array(a.length);
  const partner = new Int32Array(a.length);
  const size = a.length + b.length + 2;
  const forward = new Int32Array(2 * size + 1);
  const backward = new Int32Array(2 * size + 1);
  const stack: number[] = [0, a.length, 0, b.length];
  while (stack.length > 0) {
    let bHi = stack.pop() as number;
    let bLo = stack.pop() as number;
    let aHi = stack.pop() as number;
    let aLo = stack.pop() as number;
    while (aLo < aHi && bLo < bHi && a[aLo] === b[bLo]) {
      matched[aLo] = 1;
      partner[aLo++] = bLo++;
    }
    while (aLo < aHi && bLo < bHi && a[aHi - 1] === b[bHi - 1]) {
      matched[--aHi] = 1;
      partner[aHi] = --bHi;
    }
    if (aLo === aHi || bLo === bHi) continue;
    const [x0, y0, x1, y1] = middleSnake(a, b, aLo, aHi, bLo, bHi, forward, backward, size);
    for (let x = x0, y = y0; x < x1; x++, y++) {
      matched[x] = 1;
      partner[x] = y;
    }
    stack.push(aLo, x0, bLo, y0, x1, aHi, y1, bHi);
  }
  const hunks: Hunk[] = [];
  let x = 0;
  let y = 0;
  for (let i = 0; i <= a.length; i++) {
    if (i < a.length && !matched[i]) continue;
    const to = i < a.length ? (partner[i] as number) : b.length;
    if (i > x || to > y) hunks.push({ a0: x, a1: i, b0: y, b1: to });
    x = i + 1;
    y = to + 1;
  }
  return hunks;
}

/**
 * The middle snake of `a[aLo, aHi)` against `b[bLo, bHi)` (both non-empty, differing at both
 * ends): `[x0, y0, x1, y1]`, absolute indices of a diagonal run on some shortest edit path, found
 * by searching from both ends at once. `forward`/`backward` are scratch arrays indexed by
 * diagonal + `offset`.
 */
function middleSnake(
  a: Int32Array,
  b: Int32Array,
  aLo: number,
  aHi: number,
  bLo: number,
  bHi: number,
  forward: Int32Array,
  backward: Int32Array,
  offset: number,
): [number, number, number, number] {
  const n = aHi - aLo;
  const m = bHi - bLo;
  const delta = n - m;
  const odd = (delta & 1) === 1;
  const max = Math.ceil((n + m) / 2);
  // forward[k]: furthest x on diagonal k = x - y from the start; backward[k]: furthest distance
  // from the end on diagonal k of the reversed sequences.
  forward[offset + 1] = 0;
  backward[offset + 1] = 0;
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (forward[offset + k - 1] as number) < (forward[offset + k + 1] as number))
          ? (forward[offset + k + 1] as number)
          : (forward[offset + k - 1] as number) + 1;
      let y = x - k;
      const sx = x;
      const sy = y;
      while (x < n && y < m && a[aLo + x] === b[bLo + y]) {
        x++;
        y++;
      }
      forward[offset + k] = x;
      const c = delta - k;
      if (odd && c >= -(d - 1) && c <= d - 1 && x + (backward[offset + c] as number) >= n) {
        return [aLo + sx, bLo + sy, aLo + x, bLo + y];
      }
    }
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (backward[offset + k - 1] as number) < (backward[offset + k + 1] as number))
          ? (backward[offset + k + 1] as number)
          : (backward[offset + k - 1] as number) + 1;
      let y = x - k;
      const sx = x;
      const sy = y;
      while (x < n && y < m && a[aHi - 1 - x] === b[bHi - 1 - y]) {
        x++;
        y++;
      }
      backward[offset + k] = x;
      const c = delta - k;
      if (!odd && c >= -d && c <= d && x + (forward[offset + c] as number) >= n) {
        return [aHi - x, bHi - y, aHi - sx, bHi - sy];
      }
    }
  }
  // Unreachable: the two searches always meet by d = ceil((n + m) / 2).
  throw new Error('mergeText: the diff searches did not meet');
}
