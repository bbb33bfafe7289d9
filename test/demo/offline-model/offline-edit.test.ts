import { describe, expect, test } from 'vitest';
import { createOfflineModel } from '../../../demo/offline-model/offline-model.js';
import { createPace } from '../../../demo/pace.js';
import { TOUR_HANDBOOK } from '../../../demo/tour-handbook.js';
import { EditError } from '../../../src/model-errors.js';
import type { LLMProvider, LLMRequest } from '../../../src/llm/provider.js';
import { EDITS_MIN_CHARS, editDocument } from '../../../src/planning/edit-with-instruction.js';

// The demo's offline model asked to edit notes through planloop's real editDocument (its prompts,
// its answer reader, its retry): short notes are rewritten between the markers, long ones edited
// with SEARCH/REPLACE blocks that touch only what the instruction changes, and an instruction it
// does not know is declined in words, never written into the note.

/** The offline model at the fast pace, recording every request and its answer. */
function offline(): { llm: LLMProvider; answers: string[]; requests: LLMRequest[] } {
  const model = createOfflineModel({ pace: () => createPace(true, new URLSearchParams()) });
  const answers: string[] = [];
  const requests: LLMRequest[] = [];
  const llm: LLMProvider = {
    async *stream(request) {
      requests.push(request);
      let text = '';
      for await (const chunk of model.stream!(request)) {
        if (chunk.type === 'text-delta') text += chunk.delta;
        yield chunk;
      }
      answers.push(text);
    },
    generate: (request) => model.generate(request),
  };
  return { llm, answers, requests };
}

const handbook = { title: 'Tour handbook', content: TOUR_HANDBOOK };
const section = (heading: string) => {
  const start = TOUR_HANDBOOK.indexOf(`## ${heading}\n`);
  return TOUR_HANDBOOK.slice(TOUR_HANDBOOK.indexOf('\n\n', start) + 2, TOUR_HANDBOOK.indexOf('\n\n## ', start + 1));
};

describe('the offline model edits a long note in place', () => {
  test('the handbook is long enough for the edits path', () => {
    expect(TOUR_HANDBOOK.length).toBeGreaterThanOrEqual(EDITS_MIN_CHARS * 2);
  });

  test('a change in one paragraph is one block; the rest of the note is byte-identical', async () => {
    const { llm, answers } = offline();
    const refunds = section('Refunds');
    const result = await editDocument(llm, handbook, 'In the refunds paragraph, replace "14 days" with "30 days"');
    expect(result).toMatchObject({ kind: 'edits', form: 'blocks', attempts: 1, changed: true, title: 'Tour handbook' });
    expect(result.content).toBe(TOUR_HANDBOOK.replace(refunds, refunds.replace('14 days', '30 days')));
    // The trials section's "14 days" is another paragraph: untouched.
    expect(result.content).toContain('Every paid plan can be tried for 14 days without a card.');
    expect(answers[0]?.match(/^<<<<<<< SEARCH$/gm)).toHaveLength(1);
    // The answer grows with the change, not with the note.
    expect(answers[0]!.length).toBeLessThan(refunds.length * 2 + 80);
  });

  test('a long paragraph is quoted by its first and last words, as the edits prompt allows', async () => {
    const { llm, answers } = offline();
    const pricing = section('Pricing');
    const result = await editDocument(llm, handbook, 'In the pricing section, replace "$29" with "$25"');
    expect(result.content).toBe(TOUR_HANDBOOK.replace('$29 per member', '$25 per member'));
    expect(answers[0]).toContain('<<<<<<< SEARCH\nThe pricing page has three plans. Starter is ... a visitor hesitates between two plans.\n=======\n');
    expect(answers[0]!.length).toBeLessThan(pricing.length + 150);
  });

  test('a section made a list, a line added, a section deleted: only those places change', async () => {
    const tone = section('Tone');
    const list = await editDocument(offline().llm, handbook, 'Make the tone section a bulleted list');
    expect(list.content).toBe(
      TOUR_HANDBOOK.replace(
        tone,
        '- Speak plainly and keep each explanation to a sentence or two\n- Name the element you point at, wait for the visitor to find it, and never rush past a question to stay on schedule\n- If you do not know an answer, say so and write the question down',
      ),
    );

    const added = await editDocument(offline().llm, handbook, 'Add "- Is there a mobile app? Not yet." to the questions section');
    expect(added.content).toBe(TOUR_HANDBOOK.replace('sales decides case by case.\n', 'sales decides case by case.\n- Is there a mobile app? Not yet.\n'));

    const { llm, answers } = offline();
    const deleted = await editDocument(llm, handbook, 'Delete the refunds section');
    expect(deleted.content).toBe(TOUR_HANDBOOK.replace(`## Refunds\n\n${section('Refunds')}\n\n`, ''));
    expect(answers[0]).toMatch(/^<<<<<<< SEARCH\n## Refunds\n/);
  });

  test('a rename is a Title line and nothing else', async () => {
    const { llm, answers } = offline();
    const result = await editDocument(llm, handbook, 'Rename it to "Guide handbook"');
    expect(answers).toEqual(['Title: Guide handbook']);
    expect(result).toMatchObject({ title: 'Guide handbook', content: TOUR_HANDBOOK, changed: true });
  });

  test('an instruction asking for a rewrite gets the whole note between the markers', async () => {
    const { llm, answers } = offline();
    const result = await editDocument(llm, handbook, 'Shorten it.');
    expect(result).toMatchObject({ kind: 'rewrite', form: 'markers', mode: 'rewrite' });
    expect(answers[0]).toMatch(
      /^--- document start ---\n# Tour handbook\n\nThis handbook is for the people who show visitors around Orbitly, in person or on a call\.\n\n## Before the tour\n/,
    );
    expect(result.content.length).toBeLessThan(TOUR_HANDBOOK.length / 2);
  });
});

describe('the offline model rewrites a short note', () => {
  const note = { title: 'Pricing notes', content: 'Starter is free. Team costs $12 per member. Business adds SSO.' };

  test.each([
    ['Make it a bulleted list', '- Starter is free\n- Team costs $12 per member\n- Business adds SSO'],
    ['Shorten it', 'Starter is free.'],
    ['Add a heading', '# Starter is free\n\nStarter is free. Team costs $12 per member. Business adds SSO.'],
    ['Make it uppercase', 'STARTER IS FREE. TEAM COSTS $12 PER MEMBER. BUSINESS ADDS SSO.'],
    ['Replace "SSO" with "single sign-on"', 'Starter is free. Team costs $12 per member. Business adds single sign-on.'],
  ])('%s', async (instruction, content) => {
    const { llm, answers } = offline();
    const result = await editDocument(llm, note, instruction);
    expect(result).toMatchObject({ kind: 'rewrite', form: 'markers', content });
    expect(answers[0]).toBe(`--- document start ---\n${content}\n--- document end ---`);
  });
});

describe('the offline model declines what it cannot do, and the note is kept', () => {
  test.each([
    ['Make it sound more exciting', /^I can't follow “Make it sound more exciting”: the offline stand-in only knows how to/],
    ['In the refunds paragraph, replace "90 days" with "30 days"', /^Sorry, I can't find “90 days” in the “refunds” paragraph, so I changed nothing\.$/],
    ['Shorten the paragraph about unicorns', /^Sorry, I can't find a paragraph about “unicorns” in this note/],
    ['Shorten the paragraph about plan', /^Sorry, I can't tell which paragraph you mean: “plan” is in \d of them/],
    ['Delete everything', /^I can't do that: to delete the whole note, use the Delete button/],
  ])('%s', async (instruction, words) => {
    const { llm, answers, requests } = offline();
    const error = (await editDocument(llm, handbook, instruction).catch((caught: unknown) => caught)) as EditError;
    expect(error).toBeInstanceOf(EditError);
    expect(error.code).toBe('edit_refused');
    expect(error.raw).toMatch(words);
    // Asked again with planloop's feedback, it declines again in the same words.
    expect(requests).toHaveLength(2);
    expect(answers[1]).toBe(answers[0]);
  });
});
