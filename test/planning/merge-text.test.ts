import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { diff, mergeDocument, mergeText } from '../../src/planning/merge-text.js';
import { LONG_DOC } from '../helpers/markdown-docs.js';

const base = LONG_DOC.content;
const MODEL_PARAGRAPH = 'The Starter plan is free for up to five seats. Beyond that, every seat costs 7 euros a month, billed yearly.';

describe('mergeText', () => {
  test('a model edit and a user edit in different sections both survive', () => {
    const theirs = base.replace(/The Starter plan is free.*\n/, `${MODEL_PARAGRAPH}\n`);
    const ours = base.replace(
      '- The tour panel overlaps the cookie banner on small screens.\n',
      '- The tour panel overlaps the cookie banner on small screens (fixed in 1.2).\n',
    );
    const merged = mergeText(base, ours, theirs);
    expect(merged).toEqual({
      ok: true,
      value: base.replace(/The Starter plan is free.*\n/, `${MODEL_PARAGRAPH}\n`).replace('small screens.\n', 'small screens (fixed in 1.2).\n'),
    });
  });

  test('a line the user added right after the paragraph the model edited goes beside it', () => {
    const theirs = base.replace(/The Starter plan is free.*\n/, `${MODEL_PARAGRAPH}\n`);
    const ours = base.replace(/(The Starter plan is free.*\n)/, '$1Students get the Team plan for free.\n');
    expect(mergeText(base, ours, theirs)).toEqual({
      ok: true,
      value: base.replace(/The Starter plan is free.*\n/, `${MODEL_PARAGRAPH}\nStudents get the Team plan for free.\n`),
    });
  });

  test('a user who appended to the end and a model that edited the end both survive', () => {
    const doc = 'Intro.\n\nLast line.';
    expect(mergeText(doc, `${doc}\nAdded by the user.`, 'Intro.\n\nThe last line.')).toMatchObject({ ok: false });
    expect(mergeText('Intro.\n\nLast line.\n', 'Intro.\n\nLast line.\nAdded by the user.\n', 'Intro, shorter.\n\nLast line.\n')).toEqual({
      ok: true,
      value: 'Intro, shorter.\n\nLast line.\nAdded by the user.\n',
    });
  });

  test('edits of the same paragraph conflict, and the conflict shows all three versions', () => {
    const ours = base.replace('billed yearly.', 'billed yearly or monthly.');
    const theirs = base.replace(/The Starter plan is free.*\n/, `${MODEL_PARAGRAPH}\n`);
    const merged = mergeText(base, ours, theirs);
    expect(merged.ok).toBe(false);
    if (merged.ok) return;
    const line = base.split('\n').findIndex((text) => text.startsWith('The Starter plan')) + 1;
    expect(merged.conflicts).toEqual([
      {
        field: 'content',
        line,
        lines: 1,
        base: 'The Starter plan is free for up to three seats. Beyond that, every seat costs 8 euros a month, billed yearly.\n',
        ours: 'The Starter plan is free for up to three seats. Beyond that, every seat costs 8 euros a month, billed yearly or monthly.\n',
        theirs: `${MODEL_PARAGRAPH}\n`,
      },
    ]);
  });

  test('two insertions at the same place conflict; the same change made twice does not', () => {
    expect(mergeText('a\nb\n', 'a\nX\nb\n', 'a\nY\nb\n')).toMatchObject({ ok: false, conflicts: [{ line: 2, lines: 0, ours: 'X\n', theirs: 'Y\n' }] });
    expect(mergeText('a\nb\nc\n', 'a\nB\nc\nd\n', 'a\nB\nc\n')).toEqual({ ok: true, value: 'a\nB\nc\nd\n' });
  });

  test('a user who deleted the section the model edited is a conflict', () => {
    const ours = base.replace(/## Pricing[\s\S]*?(?=## Onboarding)/, '');
    const theirs = base.replace(/The Starter plan is free.*\n/, `${MODEL_PARAGRAPH}\n`);
    expect(mergeText(base, ours, theirs).ok).toBe(false);
  });

  test('CRLF line breaks are kept', () => {
    const crlf = 'a\r\nb\r\nc\r\nd\r\ne\r\n';
    expect(mergeText(crlf, crlf.replace('b', 'B'), crlf.replace('d', 'D'))).toEqual({ ok: true, value: 'a\r\nB\r\nc\r\nD\r\ne\r\n' });
  });

  test('a 20 KB document merges (its speed is measured by npm run bench, not here)', () => {
    const big = Array.from({ length: 12 }, (_, copy) => base.replace(/^## (\w+)/gm, `## $1 ${copy + 1}`).replace(/March/g, `month ${copy + 1}`)).join('\n');
    expect(big.length).toBeGreaterThan(20_000);
    const theirs = big.replace('## Pricing 3', '## Prices 3');
    const ours = big.replace('## Open issues 7', '## Known issues 7');
    const merged = mergeText(big, ours, theirs);
    expect(merged).toEqual({ ok: true, value: big.replace('## Pricing 3', '## Prices 3').replace('## Open issues 7', '## Known issues 7') });
  });
});

describe('mergeText: properties', () => {
  const line = fc.constantFrom('# Notes\n', 'alpha\n', 'beta\n', 'gamma\n', '\n', '- item\n', 'delta', 'alpha\r\n');
  const text = fc.array(line, { maxLength: 25 }).map((lines) => lines.join(''));

  test('merge(base, base, x) = x, merge(base, x, base) = x, merge(base, x, x) = x', () => {
    fc.assert(
      fc.property(text, text, (b, x) => {
        expect(mergeText(b, b, x)).toEqual({ ok: true, value: x });
        expect(mergeText(b, x, b)).toEqual({ ok: true, value: x });
        expect(mergeText(b, x, x)).toEqual({ ok: true, value: x });
      }),
      { numRuns: 500 },
    );
  });

  test('edits of different paragraphs both survive', () => {
    const paragraph = fc.array(fc.constantFrom('alpha', 'beta', 'gamma', 'delta'), { minLength: 1, maxLength: 4 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(fc.array(paragraph, { minLength: 2, maxLength: 12 }), fc.nat(), fc.nat(), paragraph, paragraph, (paragraphs, i, j, mine, model) => {
        const a = i % paragraphs.length;
        const b = (a + 1 + (j % (paragraphs.length - 1))) % paragraphs.length;
        const join = (list: string[]) => `${list.join('\n\n')}\n`;
        const replaced = (index: number, value: string) => paragraphs.map((item, k) => (k === index ? `${value} (edited)` : item));
        const both = paragraphs.map((item, k) => (k === a ? `${mine} (edited)` : k === b ? `${model} (edited)` : item));
        expect(mergeText(join(paragraphs), join(replaced(a, mine)), join(replaced(b, model)))).toEqual({ ok: true, value: join(both) });
      }),
      { numRuns: 300 },
    );
  });

  test("a merge never drops the user's text: on success every line the user added is there, on conflict nothing is merged", () => {
    fc.assert(
      fc.property(text, text, text, (b, ours, theirs) => {
        const merged = mergeText(b, ours, theirs);
        if (!merged.ok) {
          expect(merged.conflicts.length).toBeGreaterThan(0);
          return;
        }
        const baseLines = new Set(b.match(/[^\n]*\n|[^\n]+$/g) ?? []);
        const mergedLines = merged.value.match(/[^\n]*\n|[^\n]+$/g) ?? [];
        for (const added of (ours.match(/[^\n]*\n|[^\n]+$/g) ?? []).filter((item) => !baseLines.has(item))) {
          // A line the user added is kept, unless the model added the same line (then once is enough).
          expect(mergedLines).toContain(added);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('diff', () => {
  /** The length of a longest common subsequence, by dynamic programming. */
  function lcs(a: number[], b: number[]): number {
    const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
    for (let i = 1; i <= a.length; i++) {
      for (let j = 1; j <= b.length; j++) {
        table[i]![j] = a[i - 1] === b[j - 1] ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
      }
    }
    return table[a.length]![b.length]!;
  }

  test('its hunks turn a into b, and keep a longest common subsequence', () => {
    const sequence = fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 40 });
    fc.assert(
      fc.property(sequence, sequence, (a, b) => {
        const hunks = diff(Int32Array.from(a), Int32Array.from(b));
        const rebuilt: number[] = [];
        let at = 0;
        let kept = 0;
        for (const hunk of hunks) {
          expect(hunk.a0).toBeGreaterThanOrEqual(at);
          rebuilt.push(...a.slice(at, hunk.a0));
          kept += hunk.a0 - at;
          rebuilt.push(...b.slice(hunk.b0, hunk.b1));
          at = hunk.a1;
        }
        rebuilt.push(...a.slice(at));
        kept += a.length - at;
        expect(rebuilt).toEqual(b);
        expect(kept).toBe(lcs(a, b));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('mergeDocument', () => {
  const doc = { title: 'Notes', content: 'a\n\nb\n' };

  test('the side that changed the title wins, and the content merges', () => {
    expect(mergeDocument(doc, { title: 'My notes', content: 'A\n\nb\n' }, { title: 'Notes', content: 'a\n\nB\n' })).toEqual({
      ok: true,
      value: { title: 'My notes', content: 'A\n\nB\n' },
    });
    expect(mergeDocument(doc, { title: 'Notes', content: 'a\n\nb\n' }, { title: 'Model notes', content: 'a\n\nB\n' })).toEqual({
      ok: true,
      value: { title: 'Model notes', content: 'a\n\nB\n' },
    });
    expect(mergeDocument(doc, { title: 'Same', content: doc.content }, { title: 'Same', content: doc.content })).toEqual({
      ok: true,
      value: { title: 'Same', content: doc.content },
    });
  });

  test('two different new titles conflict, even when the content merges', () => {
    expect(mergeDocument(doc, { title: 'Mine', content: 'A\n\nb\n' }, { title: 'Theirs', content: 'a\n\nB\n' })).toEqual({
      ok: false,
      conflicts: [{ field: 'title', base: 'Notes', ours: 'Mine', theirs: 'Theirs' }],
    });
  });
});
