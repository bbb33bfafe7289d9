/**
 * Turns a sequence of text pieces into deltas, whether the source sends deltas or the cumulative
 * text so far. Some hosts (older Chrome Prompt API builds, a few OpenAI-compatible servers) send
 * `"He"`, `"Hello"`, `"Hello!"` instead of `"He"`, `"llo"`, `"!"`.
 *
 * The heuristic: the first non-empty piece is emitted as is. The second decides the mode once and
 * for all: if it is longer than, and starts with, everything received so far, the source is
 * cumulative and from then on only the new suffix of each piece is emitted (a piece that does not
 * extend the text is emitted whole, so nothing is lost if a host mixes styles). Otherwise the
 * source sends deltas and pieces pass through untouched. A delta source is only misread when its
 * second piece repeats its first and adds to it, which real tokenizers practically never produce.
 *
 * @example
 * ```ts
 * const toDelta = createDeltaNormalizer();
 * ['He', 'Hello', 'Hello!'].map(toDelta); // ['He', 'llo', '!']
 * ```
 */
export function createDeltaNormalizer(): (piece: string) => string {
  let received = '';
  let mode: 'unknown' | 'delta' | 'cumulative' = 'unknown';
  return (piece) => {
    if (piece === '') return '';
    if (mode === 'unknown' && received !== '') {
      mode = piece.length > received.length && piece.startsWith(received) ? 'cumulative' : 'delta';
    }
    if (mode === 'cumulative' && piece.startsWith(received)) {
      const delta = piece.slice(received.length);
      received = piece;
      return delta;
    }
    received += piece;
    return piece;
  };
}
