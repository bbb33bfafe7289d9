import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { EditErrorCode } from '../../src/model-errors.js';
import type { FinishReason } from '../../src/llm/provider.js';
import { createEditPreview, readEditAnswer, type EditAnswerForm } from '../../src/planning/edit-answer.js';
import { LONG_DOC, SHORT_DOC } from '../helpers/markdown-docs.js';

const fence = '```';
const S = '<<<<<<< SEARCH';
const D = '=======';
const R = '>>>>>>> REPLACE';

const SHORT_NEW = `# Pricing\n\nThree tiers (Starter, Team, Enterprise) that differ in seats and support.\n\n${fence}bash\nnpm install planloop\n${fence}\n`;
const PARAGRAPH = 'The Starter plan is free for up to three seats. Beyond that, every seat costs 8 euros a month, billed yearly.';
const NEW_PARAGRAPH = 'The Starter plan is free for up to five seats. Beyond that, every seat costs 7 euros a month, billed yearly.';
const LONG_NEW = LONG_DOC.content.replace(PARAGRAPH, NEW_PARAGRAPH);
const block = (search: string, replace: string) => `${S}\n${search}\n${D}\n${replace}\n${R}`;

type Answer = string | { text: string; finishReason: FinishReason };
type Outcome = { kind: 'rewrite' | 'edits'; form: EditAnswerForm; content: string; title?: string } | { code: EditErrorCode; problem?: RegExp };

/**
 * Answers as models write them (small local models, hosted ones, and their usual mistakes), the
 * document they answer about and the mode they were asked for, and what the reader makes of each.
 */
const CORPUS: Array<[string, 'short' | 'long', 'rewrite' | 'edits', Answer, Outcome]> = [
  // Rewrites of a short document.
  [
    'the document between the markers, as asked',
    'short',
    'rewrite',
    `--- document start ---\n${SHORT_NEW}--- document end ---`,
    { kind: 'rewrite', form: 'markers', content: SHORT_NEW },
  ],
  [
    'markers with a Title line and prose around',
    'short',
    'rewrite',
    `Here you go!\nTitle: Plans and prices\n--- document start ---\n${SHORT_NEW}--- document end ---\nI merged the two sentences.`,
    { kind: 'rewrite', form: 'markers', content: SHORT_NEW, title: 'Plans and prices' },
  ],
  [
    'markers restyled by the model',
    'short',
    'rewrite',
    `**---Document Start---**\n${SHORT_NEW}**--- DOCUMENT END ---**`,
    { kind: 'rewrite', form: 'markers', content: SHORT_NEW },
  ],
  [
    'a markdown fence inside the markers',
    'short',
    'rewrite',
    `--- document start ---\n${fence}markdown\n${SHORT_NEW}${fence}\n--- document end ---`,
    { kind: 'rewrite', form: 'markers', content: SHORT_NEW },
  ],
  ['plain markdown, no delimiters', 'short', 'rewrite', SHORT_NEW, { kind: 'rewrite', form: 'plain', content: SHORT_NEW }],
  [
    'plain markdown with a lead-in and a closing remark',
    'short',
    'rewrite',
    `Sure! Here is the updated note:\n\n${SHORT_NEW}\nLet me know if you want it even shorter.`,
    { kind: 'rewrite', form: 'plain', content: SHORT_NEW },
  ],
  [
    'a ```markdown fence with prose around',
    'short',
    'rewrite',
    `Here's the revised version:\n\n${fence}markdown\n${SHORT_NEW}${fence}\n\nI kept the install command.`,
    { kind: 'rewrite', form: 'fence', content: SHORT_NEW },
  ],
  ['a ```md fence', 'short', 'rewrite', `${fence}md\n${SHORT_NEW}${fence}`, { kind: 'rewrite', form: 'fence', content: SHORT_NEW }],
  [
    'a bare fence around a document holding a fence of its own',
    'short',
    'rewrite',
    `${fence}\n${SHORT_NEW}${fence}`,
    { kind: 'rewrite', form: 'fence', content: SHORT_NEW },
  ],
  [
    'JSON { content, title }',
    'short',
    'rewrite',
    JSON.stringify({ title: 'Plans', content: SHORT_NEW }),
    { kind: 'rewrite', form: 'json', content: SHORT_NEW, title: 'Plans' },
  ],
  [
    'JSON in a ```json fence with prose',
    'short',
    'rewrite',
    `Sure:\n${fence}json\n${JSON.stringify({ content: SHORT_NEW })}\n${fence}`,
    { kind: 'rewrite', form: 'json', content: SHORT_NEW },
  ],
  ['JSON { markdown }', 'short', 'rewrite', JSON.stringify({ markdown: SHORT_NEW }), { kind: 'rewrite', form: 'json', content: SHORT_NEW }],
  [
    'JSON with CRLF inside its string',
    'short',
    'rewrite',
    JSON.stringify({ content: SHORT_NEW.replace(/\n/g, '\r\n') }),
    { kind: 'rewrite', form: 'json', content: SHORT_NEW },
  ],
  [
    'an answer with CRLF line breaks',
    'short',
    'rewrite',
    `--- document start ---\r\n${SHORT_NEW.replace(/\n/g, '\r\n')}--- document end ---\r\n`,
    { kind: 'rewrite', form: 'markers', content: SHORT_NEW },
  ],
  [
    'plain markdown after a Title line',
    'short',
    'rewrite',
    `Title: Plans\n\n${SHORT_NEW}`,
    { kind: 'rewrite', form: 'plain', content: SHORT_NEW, title: 'Plans' },
  ],
  [
    'only a Title line: a rename',
    'long',
    'edits',
    'Title: March tour notes',
    { kind: 'edits', form: 'blocks', content: LONG_DOC.content, title: 'March tour notes' },
  ],
  [
    'markdown that uses braces is not JSON',
    'short',
    'rewrite',
    'Use {name} in the greeting.',
    { kind: 'rewrite', form: 'plain', content: 'Use {name} in the greeting.\n' },
  ],
  // Answers that are not a document.
  ['a refusal', 'short', 'rewrite', "I'm sorry, but I can't help with that.", { code: 'edit_refused' }],
  ['an "As an AI" refusal', 'short', 'rewrite', 'As an AI language model, I cannot edit files on your computer.', { code: 'edit_refused' }],
  [
    'a refusal between the markers',
    'short',
    'rewrite',
    "--- document start ---\nI'm sorry, I can't rewrite this document.\n--- document end ---",
    { code: 'edit_refused' },
  ],
  ['a flat refusal', 'long', 'edits', 'I cannot modify this document because it contains pricing information.', { code: 'edit_refused' }],
  [
    'an explanation instead of the document',
    'short',
    'rewrite',
    "I've merged the two sentences into one and kept the code block.",
    { code: 'edit_invalid', problem: /talks about the document/ },
  ],
  ['"no change needed"', 'short', 'rewrite', 'The document already lists three tiers, so nothing needs to change.', { code: 'edit_invalid' }],
  ['an empty answer', 'short', 'rewrite', '', { code: 'edit_empty' }],
  ['only whitespace', 'short', 'rewrite', ' \n\t\n', { code: 'edit_empty' }],
  ['empty markers', 'short', 'rewrite', '--- document start ---\n\n--- document end ---', { code: 'edit_empty' }],
  ['JSON without content', 'short', 'rewrite', '{"text": "Three tiers."}', { code: 'edit_invalid', problem: /no "content"/ }],
  ['JSON content of the wrong type', 'short', 'rewrite', '{"content": ["Three tiers."]}', { code: 'edit_invalid' }],
  // Cut-off answers.
  ['markers without the end marker', 'short', 'rewrite', `--- document start ---\n# Pricing\n\nThree tiers`, { code: 'edit_truncated' }],
  [
    'plain text at the length limit',
    'short',
    'rewrite',
    { text: '# Pricing\n\nThree tiers (Starter, Team', finishReason: 'length' },
    { code: 'edit_truncated' },
  ],
  ['JSON cut off', 'short', 'rewrite', '{"content": "# Pricing\\n\\nThree ti', { code: 'edit_truncated' }],
  ['a fence never closed', 'short', 'rewrite', `Here it is:\n${fence}markdown\n# Pricing\n\nThree tiers`, { code: 'edit_truncated' }],
  [
    'nothing at the length limit (a reasoning model that spent its tokens)',
    'short',
    'rewrite',
    { text: '', finishReason: 'length' },
    { code: 'edit_truncated' },
  ],
  // Edits of a long document.
  ['one block with an exact anchor', 'long', 'edits', block(PARAGRAPH, NEW_PARAGRAPH), { kind: 'edits', form: 'blocks', content: LONG_NEW }],
  [
    'a block in a code fence with prose around',
    'long',
    'edits',
    `Here is the change:\n\n${fence}\n${block(PARAGRAPH, NEW_PARAGRAPH)}\n${fence}\n\nThis updates the seat count.`,
    { kind: 'edits', form: 'blocks', content: LONG_NEW },
  ],
  [
    'a block with CRLF line breaks',
    'long',
    'edits',
    block(PARAGRAPH, NEW_PARAGRAPH).replace(/\n/g, '\r\n'),
    { kind: 'edits', form: 'blocks', content: LONG_NEW },
  ],
  [
    'an anchor with trailing spaces and blank lines around it',
    'long',
    'edits',
    `${S}\n\n${PARAGRAPH}   \n\n${D}\n${NEW_PARAGRAPH}\n${R}`,
    { kind: 'edits', form: 'blocks', content: LONG_NEW },
  ],
  [
    'an elided anchor for a long paragraph',
    'long',
    'edits',
    block('The Starter plan is free for up to three seats. ... billed yearly.', NEW_PARAGRAPH),
    { kind: 'edits', form: 'blocks', content: LONG_NEW },
  ],
  [
    'markers miscounted by the model',
    'long',
    'edits',
    `<<<<<< SEARCH\n${PARAGRAPH}\n========\n${NEW_PARAGRAPH}\n>>>>>>>> REPLACE`,
    { kind: 'edits', form: 'blocks', content: LONG_NEW },
  ],
  [
    'two blocks and a Title line',
    'long',
    'edits',
    `Title: March tour notes\n${block(PARAGRAPH, NEW_PARAGRAPH)}\n${block('- The tour panel overlaps the cookie banner on small screens.\n', '')}`,
    {
      kind: 'edits',
      form: 'blocks',
      title: 'March tour notes',
      content: LONG_NEW.replace('- The tour panel overlaps the cookie banner on small screens.\n', ''),
    },
  ],
  [
    'a deleted list item leaves no blank line',
    'long',
    'edits',
    block('- Team: up to 50 seats, email support, audit log', ''),
    { kind: 'edits', form: 'blocks', content: LONG_DOC.content.replace('- Team: up to 50 seats, email support, audit log\n', '') },
  ],
  [
    'an anchor that is not in the document',
    'long',
    'edits',
    block('The Starter plan is free for up to 3 seats.', NEW_PARAGRAPH),
    { code: 'edit_anchor_missing', problem: /^block 1: its SEARCH text "The Starter plan is free for up to 3 seats\." is not in the document/ },
  ],
  [
    'an anchor that occurs twice',
    'long',
    'edits',
    block('audit log', 'audit trail'),
    { code: 'edit_anchor_ambiguous', problem: /^block 1: .* occurs 2 times/ },
  ],
  [
    'a good block, then a bad one: nothing applies',
    'long',
    'edits',
    `${block(PARAGRAPH, NEW_PARAGRAPH)}\n${block('Visitors love the blue button.', 'Visitors love the green button.')}`,
    { code: 'edit_anchor_missing', problem: /^block 2/ },
  ],
  ['a block with an empty SEARCH', 'long', 'edits', block('', 'New first line'), { code: 'edit_anchor_missing', problem: /empty SEARCH/ }],
  ['a block without its ======= line', 'long', 'edits', `${S}\n${PARAGRAPH}\n${R}`, { code: 'edit_invalid', problem: /block 1 has no =======/ }],
  ['an edit answer cut off inside a block', 'long', 'edits', `${S}\n${PARAGRAPH}\n${D}\nThe Starter plan is free for up to fi`, { code: 'edit_truncated' }],
  [
    'complete blocks at the length limit (more may have followed)',
    'long',
    'edits',
    { text: block(PARAGRAPH, NEW_PARAGRAPH), finishReason: 'length' },
    { code: 'edit_truncated' },
  ],
  [
    'a whole document when edits were asked for',
    'long',
    'edits',
    `--- document start ---\n${LONG_NEW}--- document end ---`,
    { kind: 'rewrite', form: 'markers', content: LONG_NEW },
  ],
  [
    'only the changed paragraph, fenced, when edits were asked for',
    'long',
    'edits',
    `${fence}markdown\n${NEW_PARAGRAPH}\n${fence}`,
    { code: 'edit_invalid', problem: /fragment/ },
  ],
  ['a plain document that starts with a line of the original', 'long', 'rewrite', LONG_NEW, { kind: 'rewrite', form: 'plain', content: LONG_NEW }],
];

const DOCS = { short: SHORT_DOC, long: LONG_DOC };

describe('readEditAnswer: the corpus', () => {
  test('holds at least 20 answers of every kind', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(20);
  });

  test.each(CORPUS)('%s', (_name, which, mode, answer, expected) => {
    const doc = DOCS[which];
    const { text, finishReason } = typeof answer === 'string' ? { text: answer, finishReason: 'stop' as const } : answer;
    const reading = readEditAnswer(text, doc, { mode, finishReason });
    if ('code' in expected) {
      expect(reading).toMatchObject({ ok: false, code: expected.code });
      if (expected.problem && !reading.ok) expect(reading.problems.join('; ')).toMatch(expected.problem);
      return;
    }
    expect(reading).toEqual({ ok: true, kind: expected.kind, form: expected.form, title: expected.title ?? doc.title, content: expected.content });
  });
});

describe('readEditAnswer: line breaks and the original', () => {
  test("the result keeps a CRLF document's line breaks, from an LF answer", () => {
    const doc = { title: 'T', content: LONG_DOC.content.replace(/\n/g, '\r\n') };
    const reading = readEditAnswer(block(PARAGRAPH, NEW_PARAGRAPH), doc, { mode: 'edits' });
    expect(reading).toMatchObject({ ok: true, content: LONG_NEW.replace(/\n/g, '\r\n') });
    const rewrite = readEditAnswer(
      `--- document start ---\n${SHORT_NEW}--- document end ---`,
      { title: 'T', content: SHORT_DOC.content.replace(/\n/g, '\r\n') },
      { mode: 'rewrite' },
    );
    expect(rewrite).toMatchObject({ ok: true, content: SHORT_NEW.replace(/\n/g, '\r\n') });
  });

  test('the final line break follows the original', () => {
    const answer = '--- document start ---\nShorter.\n--- document end ---';
    expect(readEditAnswer(answer, { title: 'T', content: 'Long.\n' }, { mode: 'rewrite' })).toMatchObject({ content: 'Shorter.\n' });
    expect(readEditAnswer(`${fence}\nShorter.\n\n${fence}`, { title: 'T', content: 'Long.' }, { mode: 'rewrite' })).toMatchObject({ content: 'Shorter.' });
  });

  test('a document that starts with a code block is not cut down to it', () => {
    const doc = { title: 'T', content: `${fence}\nnpm i planloop\n${fence}\n\nThen open the demo.\n` };
    const answer = `${fence}\nnpm i planloop\n${fence}\n\nThen open the demo on port 5173.\n`;
    expect(readEditAnswer(answer, doc, { mode: 'rewrite' })).toMatchObject({ ok: true, form: 'plain', content: answer });
  });

  test('a document whose text reads like a lead-in or an apology is taken as it is when the original has it too', () => {
    const doc = { title: 'T', content: "Here are the notes:\n\nSorry, I can't make it on Friday.\n" };
    const answer = "Here are the notes:\n\nSorry, I can't make it on Friday. Let's meet Monday.\n";
    expect(readEditAnswer(answer, doc, { mode: 'rewrite' })).toMatchObject({ ok: true, content: answer });
  });

  test('a short note that apologises is not a refusal unless it declines the edit', () => {
    const answer = "I'm sorry for the late reply: the tiers changed on Monday.";
    expect(readEditAnswer(answer, { title: 'T', content: 'Late reply: tiers changed Monday.' }, { mode: 'rewrite' })).toMatchObject({
      ok: true,
      content: answer,
    });
  });

  test('a JSON document is not read as a JSON answer', () => {
    const doc = { title: 'config', content: '{"tiers": 3}\n' };
    expect(readEditAnswer('{"tiers": 4}\n', doc, { mode: 'rewrite' })).toMatchObject({ ok: true, form: 'plain', content: '{"tiers": 4}\n' });
  });
});

describe('readEditAnswer: properties', () => {
  const line = fc.constantFrom('# Notes', 'alpha', 'beta', 'gamma', '', '- item', 'alpha beta', '```', 'Title: x');
  const doc = fc.array(line, { minLength: 1, maxLength: 30 }).map((lines) => ({ title: 'T', content: `${lines.join('\n')}\n` }));
  const text = fc.array(fc.oneof(line, fc.constantFrom('zeta', 'omega', 'alpha\nbeta')), { minLength: 1, maxLength: 3 }).map((lines) => lines.join('\n'));
  const blocks = fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 4 });

  test('blocks apply all or nothing: one block whose anchor is missing fails the whole answer', () => {
    fc.assert(
      fc.property(doc, blocks, fc.nat(), (document, pairs, at) => {
        const answer = pairs.map(([search, replace]) => block(search, replace));
        answer.splice(at % (answer.length + 1), 0, block('ABSENT ANCHOR', 'x'));
        const reading = readEditAnswer(answer.join('\n'), document, { mode: 'edits' });
        expect(reading.ok).toBe(false);
        if (!reading.ok) expect(['edit_anchor_missing', 'edit_anchor_ambiguous']).toContain(reading.code);
      }),
      { numRuns: 300 },
    );
  });

  test('any answer is read without throwing, and a failure never carries a document', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom(
        S,
        D,
        R,
        fence,
        `${fence}markdown`,
        '--- document start ---',
        '--- document end ---',
        "I'm sorry, I can't help with that.",
        '{"content": "x"}',
        'Title: New',
        'Sure! Here is the note:',
      ),
      line,
    );
    fc.assert(
      fc.property(
        doc,
        fc.array(piece, { maxLength: 12 }),
        fc.constantFrom('rewrite' as const, 'edits' as const),
        fc.constantFrom<FinishReason>('stop', 'length'),
        (document, pieces, mode, finishReason) => {
          const reading = readEditAnswer(pieces.join('\n'), document, { mode, finishReason });
          if (reading.ok) expect(typeof reading.content).toBe('string');
          else {
            expect(reading).not.toHaveProperty('content');
            expect(reading.problems.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('createEditPreview', () => {
  test('a rewrite shows as it is written, holding back a possible end marker', () => {
    const preview = createEditPreview(SHORT_DOC);
    expect(preview('Sure.\n')).toBeUndefined();
    expect(preview('Sure.\n--- document start ---\n# Pri')).toBe('# Pri');
    expect(preview('Sure.\n--- document start ---\n# Pricing\n--')).toBe('# Pricing');
    expect(preview('Sure.\n--- document start ---\n# Pricing\n--- document end ---\nBye')).toBe('# Pricing');
  });

  test('edits show as each block closes, up to the first that does not apply', () => {
    const preview = createEditPreview(LONG_DOC);
    const first = block(PARAGRAPH, NEW_PARAGRAPH);
    expect(preview(`${S}\n${PARAGRAPH.slice(0, 20)}`)).toBe(LONG_DOC.content);
    expect(preview(first)).toBe(LONG_NEW);
    const bad = `${first}\n${block('not in the document', 'x')}\n${block('## Next steps', '## Next')}`;
    expect(preview(bad)).toBe(LONG_NEW);
  });
});
