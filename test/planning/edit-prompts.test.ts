import { describe, expect, test } from 'vitest';
import { EDITS_SYSTEM_PROMPT, REWRITE_SYSTEM_PROMPT, editFeedback, editPrompt, wantsRewrite } from '../../src/planning/edit-prompts.js';

describe('wantsRewrite', () => {
  test.each([
    ['Translate the whole note into German.', true],
    ['translate it into French', true],
    ['Rewrite it.', true],
    ['Summarize.', true],
    ['Summarise the document in three bullets', true],
    ['Start from scratch with a friendlier tone', true],
    ['Please do a complete rewrite', true],
    ['Shorten it to five lines', true],
    ['Rewrite this paragraph more formally', false],
    ['Shorten the second paragraph', false],
    ['Translate the second heading into Spanish', false],
    ['Fix the typo in "pricng"', false],
    ['Make the pricing section shorter', false],
    ['Add a line about the April release', false],
  ])('%s → %s', (instruction, expected) => {
    expect(wantsRewrite(instruction)).toBe(expected);
  });
});

describe('the edit prompts', () => {
  test('the user message keeps the instruction and title on their lines, and the document as it is', () => {
    const content = 'line one\r\n\r\n```js\nx\n```\n';
    expect(editPrompt({ title: 'My\nnotes', content }, '  Shorten\n  the intro.\n')).toBe(
      `Instruction: Shorten the intro.\nTitle: My notes\n--- document start ---\n${content}\n--- document end ---`,
    );
  });

  test('each system prompt teaches its answer form', () => {
    expect(REWRITE_SYSTEM_PROMPT).toContain('--- document start ---\nthe new document\n--- document end ---');
    expect(EDITS_SYSTEM_PROMPT).toContain('<<<<<<< SEARCH\nlines copied exactly from the document\n=======\nthe new lines\n>>>>>>> REPLACE');
    for (const prompt of [REWRITE_SYSTEM_PROMPT, EDITS_SYSTEM_PROMPT]) expect(prompt).toContain('Title: the new title');
  });

  test('the feedback lists the problems and repeats the answer form', () => {
    expect(editFeedback('edits', ['block 2: its SEARCH text "x" is not in the document'])).toMatch(
      /^Your answer could not be used: block 2: .*SEARCH \/ ======= \/ >>>>>>> REPLACE blocks/,
    );
    expect(editFeedback('rewrite', ['the answer is empty'])).toMatch(/between the lines --- document start --- and --- document end ---\.$/);
  });
});
