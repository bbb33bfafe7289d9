import { describe, expect, test } from 'vitest';
import { applyEditBlocks, parseEditBlocks } from '../../src/planning/edit-blocks.js';

describe('parseEditBlocks', () => {
  test('a setext heading underline in a replacement stays in it', () => {
    const answer = '<<<<<<< SEARCH\n# Notes\n=======\nNotes\n=======\n>>>>>>> REPLACE';
    expect(parseEditBlocks(answer)).toEqual({ blocks: [{ search: '# Notes', replace: 'Notes\n=======' }], unclosed: false, malformed: [], before: '' });
  });

  test('prose and fences around blocks are ignored; the text before the first is kept for a Title line', () => {
    const answer = 'Title: New\n```diff\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\nDone!';
    expect(parseEditBlocks(answer)).toMatchObject({ blocks: [{ search: 'a', replace: 'b' }], before: 'Title: New\n```diff' });
  });

  test('a block without its closer, followed by another, is malformed; one at the end is unclosed', () => {
    expect(parseEditBlocks('<<<<<<< SEARCH\na\n=======\nb\n<<<<<<< SEARCH\nc\n=======\nd\n>>>>>>> REPLACE')).toMatchObject({
      blocks: [{ search: 'c', replace: 'd' }],
      malformed: ['block 1 has no >>>>>>> REPLACE line'],
      unclosed: false,
    });
    expect(parseEditBlocks('<<<<<<< SEARCH\na\n=======\nb')).toMatchObject({ blocks: [], unclosed: true });
  });
});

describe('applyEditBlocks', () => {
  test("blocks apply one after the other: a later block may anchor on an earlier one's text", () => {
    expect(
      applyEditBlocks('a\nb\nc', [
        { search: 'b', replace: 'B1' },
        { search: 'B1\nc', replace: 'B2\nC' },
      ]),
    ).toEqual({ ok: true, text: 'a\nB2\nC' });
  });

  test('an anchor inside a line replaces only that part', () => {
    expect(applyEditBlocks('Three tiers, billed yearly.\n', [{ search: 'billed yearly', replace: 'billed monthly' }])).toEqual({
      ok: true,
      text: 'Three tiers, billed monthly.\n',
    });
  });

  test('whole-line matching ignores trailing spaces but not indentation', () => {
    expect(applyEditBlocks('- a  \n  - b\n', [{ search: '- a\n  - b', replace: '- A' }])).toEqual({ ok: true, text: '- A\n' });
    expect(applyEditBlocks('- a\n  - b\n', [{ search: '- a\n- b', replace: '- A' }])).toMatchObject({ ok: false, reason: 'missing' });
  });

  test('the whole-line fallback also refuses an ambiguous anchor', () => {
    expect(applyEditBlocks('x  \ny\nx \n', [{ search: 'x\n', replace: 'z' }])).toEqual({ ok: false, index: 0, reason: 'ambiguous', count: 2 });
  });

  test('an elided SEARCH matches a passage by its first and last words, within one paragraph', () => {
    const text = 'Intro.\n\nThe Starter plan is free for three seats.\nEvery seat costs 8 euros.\n\nOutro.\n';
    expect(applyEditBlocks(text, [{ search: 'The Starter plan ... 8 euros.', replace: 'Five seats are free.' }])).toEqual({
      ok: true,
      text: 'Intro.\n\nFive seats are free.\n\nOutro.\n',
    });
    expect(applyEditBlocks(text, [{ search: 'Intro. … Outro.', replace: 'x' }])).toMatchObject({ ok: false, reason: 'missing' });
    expect(applyEditBlocks('A one. A two.\n', [{ search: 'A ... .', replace: 'x' }])).toMatchObject({ ok: false, reason: 'ambiguous' });
    // A literal ellipsis in the document is matched as it is first.
    expect(applyEditBlocks('Wait... what?\n', [{ search: 'Wait... what?', replace: 'What?' }])).toEqual({ ok: true, text: 'What?\n' });
  });
});
