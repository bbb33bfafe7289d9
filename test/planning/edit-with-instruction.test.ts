import fc from 'fast-check';
import { afterEach, describe, expect, test } from 'vitest';
import { type PlanloopError, ValidationError } from '../../src/errors.js';
import { ConflictError, EditError, ProviderError } from '../../src/model-errors.js';
import { createOpenAICompatibleProvider } from '../../src/llm/openai-compatible.js';
import { createLLMRouter, type LLMChunk, type LLMProvider } from '../../src/llm/provider.js';
import { createScriptedProvider, type ScriptedResponses } from '../../src/llm/scripted.js';
import { Plan } from '../../src/plan.js';
import { EDITS_SYSTEM_PROMPT, REWRITE_SYSTEM_PROMPT } from '../../src/planning/edit-prompts.js';
import { EDITS_MIN_CHARS, editDocument, type EditDelta } from '../../src/planning/edit-with-instruction.js';
import { LONG_DOC, SHORT_DOC } from '../helpers/markdown-docs.js';
import { sseEvent, startServer, writeSSE, type TestServer } from '../helpers/sse-server.js';

const PARAGRAPH = 'The Starter plan is free for up to three seats. Beyond that, every seat costs 8 euros a month, billed yearly.';
const NEW_PARAGRAPH = 'The Starter plan is free for up to five seats. Beyond that, every seat costs 7 euros a month, billed yearly.';
const LONG_NEW = LONG_DOC.content.replace(PARAGRAPH, NEW_PARAGRAPH);
const block = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;
const GOOD_EDIT = `Title: March tour notes\n${block(PARAGRAPH, NEW_PARAGRAPH)}`;

async function rejection(promise: Promise<unknown>): Promise<PlanloopError> {
  try {
    await promise;
  } catch (error) {
    return error as PlanloopError;
  }
  throw new Error('expected the call to fail');
}

describe('editDocument', () => {
  test('a long document is edited with blocks: the prompt asks for them and the result says so', async () => {
    const llm = createScriptedProvider(GOOD_EDIT);
    const result = await editDocument(llm, LONG_DOC, 'The Starter plan now has five seats at 7 euros.');
    expect(result).toEqual({
      title: 'March tour notes',
      content: LONG_NEW,
      kind: 'edits',
      form: 'blocks',
      mode: 'edits',
      changed: true,
      attempts: 1,
      usage: {},
      raw: GOOD_EDIT,
    });
    const [call] = llm.calls;
    expect(call!.messages[0]).toEqual({ role: 'system', content: EDITS_SYSTEM_PROMPT });
    expect(call!.messages[1]!.content).toBe(
      `Instruction: The Starter plan now has five seats at 7 euros.\nTitle: Tour notes\n--- document start ---\n${LONG_DOC.content}\n--- document end ---`,
    );
    // No JSON schema: the answer is markdown or blocks, and a schema would force JSON on backends that enforce it.
    expect(call!.jsonSchema).toBeUndefined();
  });

  test.each([
    ['a short document', 'rewrite', SHORT_DOC, 'Make it one sentence.', undefined],
    ['a long document and "translate the whole note"', 'rewrite', LONG_DOC, 'Translate the whole note into German.', undefined],
    ['a long document and "rewrite it from scratch"', 'rewrite', LONG_DOC, 'Rewrite it from scratch, friendlier.', undefined],
    ['a long document forced to rewrite', 'rewrite', LONG_DOC, 'Fix the typo.', 'rewrite'],
    ['a short document forced to edits', 'edits', SHORT_DOC, 'Fix the typo.', 'edits'],
  ] as const)('%s: %s mode', async (_name, expected, doc, instruction, mode) => {
    const llm = createScriptedProvider(`--- document start ---\n${doc.content}--- document end ---`);
    const result = await editDocument(llm, doc, instruction, mode ? { mode } : {});
    expect(result.mode).toBe(expected);
    expect(llm.calls[0]!.messages[0]!.content).toBe(expected === 'edits' ? EDITS_SYSTEM_PROMPT : REWRITE_SYSTEM_PROMPT);
    expect(result.changed).toBe(false);
  });

  test(`the threshold is ${EDITS_MIN_CHARS} characters`, async () => {
    const at = { title: 'T', content: 'x'.repeat(EDITS_MIN_CHARS) };
    const below = { title: 'T', content: 'x'.repeat(EDITS_MIN_CHARS - 1) };
    const llm = createScriptedProvider([block('x'.repeat(EDITS_MIN_CHARS), 'y'), `--- document start ---\ny\n--- document end ---`]);
    expect((await editDocument(llm, at, 'Shorten the line.')).mode).toBe('edits');
    expect((await editDocument(llm, below, 'Shorten the line.')).mode).toBe('rewrite');
  });

  test('a missing anchor is fed back once, naming the block and why; the corrected answer is used', async () => {
    const wrong = `${block(PARAGRAPH, NEW_PARAGRAPH)}\n${block('The tour panel overlaps the cookie banner.', 'Fixed.')}`;
    const right = `${block(PARAGRAPH, NEW_PARAGRAPH)}\n${block('- The tour panel overlaps the cookie banner on small screens.', '- Fixed: the tour panel no longer overlaps the cookie banner.')}`;
    const llm = createScriptedProvider([wrong, right]);
    const result = await editDocument(llm, LONG_DOC, 'Five seats at 7 euros, and the banner bug is fixed.');
    expect(result.attempts).toBe(2);
    expect(result.content).toBe(
      LONG_NEW.replace('- The tour panel overlaps the cookie banner on small screens.', '- Fixed: the tour panel no longer overlaps the cookie banner.'),
    );
    const retry = llm.calls[1]!.messages;
    expect(retry).toHaveLength(4);
    expect(retry[2]).toEqual({ role: 'assistant', content: wrong });
    expect(retry[3]!.role).toBe('user');
    expect(retry[3]!.content).toMatch(
      /^Your answer could not be used: block 2: its SEARCH text "The tour panel overlaps the cookie banner\." is not in the document; copy it exactly/,
    );
    expect(retry[3]!.content).toContain('Blocks that were fine must be sent again too.');
  });

  test('after the retry, the last failure is thrown with its code, the raw answer and the provider name', async () => {
    const ambiguous = block('audit log', 'audit trail');
    const llm = Object.assign(createScriptedProvider([block('not there', 'x'), ambiguous]), { name: 'tiny-local' });
    const error = await rejection(editDocument(llm, { ...LONG_DOC, id: 'm7' }, 'Say audit trail.'));
    expect(error).toBeInstanceOf(EditError);
    expect(error.code).toBe('edit_anchor_ambiguous');
    expect((error as EditError).raw).toBe(ambiguous);
    expect((error as EditError).provider).toBe('tiny-local');
    expect((error as EditError).issues).toEqual([{ path: 'block 1', message: expect.stringMatching(/occurs 2 times/) }]);
    expect(error.message).toMatch(
      /^The model \(tiny-local\) quoted text that occurs more than once in markdown doc m7 \(2 attempts\): block 1: .*The document is unchanged/,
    );
  });

  test.each([
    ['a refusal', "I'm sorry, but I can't help with that.", 'edit_refused'],
    ['an empty answer', '', 'edit_empty'],
    ['an explanation', 'I have shortened the intro as requested.', 'edit_invalid'],
    ['a cut-off answer', { text: '--- document start ---\n# Pricing\n\nThree', finishReason: 'length' as const }, 'edit_truncated'],
  ])('%s twice: %s', async (_name, answer, code) => {
    const llm = createScriptedProvider([answer, answer]);
    const error = await rejection(editDocument(llm, SHORT_DOC, 'Make it one sentence.'));
    expect(error).toBeInstanceOf(EditError);
    expect(error.code).toBe(code);
    expect(llm.calls).toHaveLength(2);
  });

  test('retries: 0 makes one call; retries: 2 makes three', async () => {
    const once = createScriptedProvider(['', '']);
    await rejection(editDocument(once, SHORT_DOC, 'Shorten.', { retries: 0 }));
    expect(once.calls).toHaveLength(1);
    const thrice = createScriptedProvider(['', 'Sorry, I cannot edit this.', '--- document start ---\nShort.\n--- document end ---']);
    expect(await editDocument(thrice, SHORT_DOC, 'Shorten.', { retries: 2 })).toMatchObject({ content: 'Short.\n', attempts: 3 });
  });

  test('onDelta sees the answer as it streams, with the document as it forms; a retry starts again', async () => {
    const llm = createScriptedProvider(['I cannot do that.', `--- document start ---\n${SHORT_DOC.content}--- document end ---`], { chunkSize: 5 });
    const updates: EditDelta[] = [];
    await editDocument(llm, SHORT_DOC, 'Fix it.', { onDelta: (update) => updates.push(update) });
    const first = updates.filter((update) => update.attempt === 1);
    const second = updates.filter((update) => update.attempt === 2);
    expect(first.map((update) => update.delta).join('')).toBe('I cannot do that.');
    expect(first.every((update) => update.preview === undefined)).toBe(true);
    expect(second[0]!.text).toBe(second[0]!.delta);
    expect(second.at(-1)!.text).toBe(`--- document start ---\n${SHORT_DOC.content}--- document end ---`);
    const previews = second.map((update) => update.preview).filter((preview) => preview !== undefined);
    expect(previews.length).toBeGreaterThan(5);
    // The document grows; each preview extends the one before.
    for (let i = 1; i < previews.length; i++) expect(previews[i]!.startsWith(previews[i - 1]!)).toBe(true);
    expect(previews.at(-1)).toBe(SHORT_DOC.content.replace(/\n$/, ''));
  });

  test('a throwing onDelta is reported, and the edit goes on', async () => {
    const reported: unknown[] = [];
    const original = globalThis.reportError;
    globalThis.reportError = (error: unknown) => reported.push(error);
    try {
      const llm = createScriptedProvider('--- document start ---\nShort.\n--- document end ---');
      const result = await editDocument(llm, SHORT_DOC, 'Shorten.', {
        onDelta: () => {
          throw new Error('UI broke');
        },
      });
      expect(result.content).toBe('Short.\n');
      expect(reported.length).toBeGreaterThan(0);
    } finally {
      globalThis.reportError = original;
    }
  });

  test('a provider without stream is called through generate; usage is summed over the attempts', async () => {
    const answers = [
      { text: block('nowhere', 'x'), usage: { inputTokens: 700, outputTokens: 20 } },
      { text: block(PARAGRAPH, NEW_PARAGRAPH), usage: { inputTokens: 760, outputTokens: 61 } },
    ];
    let calls = 0;
    const provider: LLMProvider = { generate: async () => ({ ...answers[calls++]!, finishReason: 'stop' }) };
    const deltas: string[] = [];
    const result = await editDocument(provider, LONG_DOC, 'Five seats.', { onDelta: ({ delta }) => deltas.push(delta) });
    expect(result).toMatchObject({ content: LONG_NEW, attempts: 2, usage: { inputTokens: 1460, outputTokens: 81 } });
    expect(deltas).toEqual([answers[0]!.text, answers[1]!.text]);
  });

  test('maxTokens reaches the provider', async () => {
    const llm = createScriptedProvider(GOOD_EDIT);
    await editDocument(llm, LONG_DOC, 'Five seats.', { maxTokens: 300 });
    expect(llm.calls[0]!.maxTokens).toBe(300);
  });

  test('an abort throws aborted; a timeout throws timeout; the bound covers the retry', async () => {
    const slow = createScriptedProvider(GOOD_EDIT, { delayMs: 20, chunkSize: 4 });
    const controller = new AbortController();
    const pending = editDocument(slow, LONG_DOC, 'Five seats.', { signal: controller.signal });
    setTimeout(() => controller.abort(), 30);
    expect((await rejection(pending)).code).toBe('aborted');

    const before = createScriptedProvider(GOOD_EDIT);
    expect((await rejection(editDocument(before, LONG_DOC, 'x', { signal: AbortSignal.abort() }))).code).toBe('aborted');
    expect(before.calls).toHaveLength(0);

    const stalled = createScriptedProvider([block('nowhere', 'x'), GOOD_EDIT], { delayMs: 15, chunkSize: 8 });
    const error = await rejection(editDocument(stalled, LONG_DOC, 'Five seats.', { timeoutMs: 150 }));
    // The retry was started and cut short: one bound over both attempts (a bound per attempt would
    // have let the good second answer through).
    expect(error.code).toBe('timeout');
    expect(stalled.calls).toHaveLength(2);
  });

  test('a provider that ignores the signal is not waited for', async () => {
    const stuck: LLMProvider = {
      generate: () => new Promise(() => {}),
      async *stream(): AsyncIterable<LLMChunk> {
        yield { type: 'text-delta', delta: '<<<<<<< SEARCH\n' };
        await new Promise(() => {});
      },
    };
    expect((await rejection(editDocument(stuck, LONG_DOC, 'Five seats.', { timeoutMs: 50 }))).code).toBe('timeout');
  });

  test('provider failures propagate: planloop errors as they are, others wrapped with the provider name', async () => {
    const limited = new ProviderError('provider_error', 'rate limited', { provider: 'test', status: 429, retryable: true });
    expect(await rejection(editDocument(createScriptedProvider(limited), SHORT_DOC, 'Shorten.'))).toBe(limited);
    const broken: LLMProvider & { name: string } = {
      name: 'my-llm',
      generate: async () => {
        throw new TypeError('socket hang up');
      },
    };
    const error = await rejection(editDocument(broken, SHORT_DOC, 'Shorten.'));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toBe('The model call failed: socket hang up');
    expect((error as ProviderError).provider).toBe('my-llm');
  });

  test('bad input throws a ValidationError naming each problem, before any call', async () => {
    const llm = createScriptedProvider(GOOD_EDIT);
    const error = await rejection(
      editDocument(llm, { title: 'T', content: 3 as unknown as string }, '  ', { retries: -1, mode: 'patch' as 'auto', timeoutMs: -5, maxTokens: 0 }),
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((issue) => issue.path)).toEqual(['doc.content', 'instruction', 'retries', 'timeoutMs', 'mode', 'maxTokens']);
    expect(llm.calls).toHaveLength(0);
    expect((await rejection(editDocument(undefined as unknown as LLMProvider, SHORT_DOC, 'Shorten.'))).code).toBe('no_llm');
  });
});

describe('editDocument through an OpenAI-compatible server', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  test('streams edit blocks over SSE, retries after a bad anchor, and reports usage', async () => {
    const answers = [block('The Starter plan is free for 3 seats.', NEW_PARAGRAPH), GOOD_EDIT];
    server = await startServer(async (request, response) => {
      const answer = answers[server!.requests.length - 1] ?? '';
      const pieces = answer.match(/[\s\S]{1,12}/g) ?? [];
      await writeSSE(response, [
        ...pieces.map((content) => sseEvent({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
        sseEvent({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
        sseEvent({ choices: [], usage: { prompt_tokens: 800, completion_tokens: 40 } }),
        'data: [DONE]\n\n',
      ]);
      expect(request.json).not.toHaveProperty('response_format');
    });
    const provider = createOpenAICompatibleProvider({ baseURL: `${server.url}/v1`, model: 'small-local' });
    const previews: string[] = [];
    const result = await editDocument(provider, LONG_DOC, 'Five seats at 7 euros.', {
      onDelta: ({ attempt, preview }) => {
        if (attempt === 2 && preview !== undefined) previews.push(preview);
      },
    });
    expect(result).toMatchObject({ title: 'March tour notes', content: LONG_NEW, attempts: 2, usage: { inputTokens: 1600, outputTokens: 80 } });
    expect(server.requests).toHaveLength(2);
    expect(previews[0]).toBe(LONG_DOC.content);
    expect(previews.at(-1)).toBe(LONG_NEW);
  });
});

describe('plan.markdown.editWithInstruction (through rewriteDocument)', () => {
  function setup(responses: ScriptedResponses, content = '# Pricing\n\nThere are three tiers. They differ in seats.\n') {
    const llm = createScriptedProvider(responses);
    const plan = new Plan({ llm, appendSystemPrompt: 'PLAYBOOK' });
    const doc = plan.markdown.create({ title: 'Tour notes', content });
    const changes: string[] = [];
    plan.on('markdown-change', ({ change }) => changes.push(change.type));
    return { llm, plan, doc, changes };
  }

  test('the model rewrites the document and the call returns the new one', async () => {
    const { llm, plan, doc, changes } = setup('--- document start ---\n# Pricing\n\nThree tiers, by seats.\n--- document end ---');
    const edited = await plan.markdown.editWithInstruction(doc.id, 'Make it one sentence.');
    expect(edited).toMatchObject({ id: doc.id, title: 'Tour notes', content: '# Pricing\n\nThree tiers, by seats.\n' });
    expect(edited!.updatedAt).toBeGreaterThan(doc.updatedAt);
    expect(plan.markdown.read(doc.id)).toEqual(edited);
    expect(changes).toEqual(['edit']);
    const all = llm.calls[0]!.messages.map((message) => message.content).join('\n');
    expect(all).toContain('Instruction: Make it one sentence.');
    // appendSystemPrompt belongs to the planning call only.
    expect(all).not.toContain('PLAYBOOK');
  });

  test('a long note is edited in place with blocks', async () => {
    const { plan, doc } = setup(GOOD_EDIT, LONG_DOC.content);
    expect(await plan.markdown.editWithInstruction(doc.id, 'Five seats at 7 euros.')).toMatchObject({ title: 'March tour notes', content: LONG_NEW });
  });

  test('a new title from the model is kept; a blank one is ignored', async () => {
    const { plan, doc } = setup(['```json\n{"title": "Pricing notes", "content": "Short."}\n```', { title: '  ', content: 'Shorter.' }]);
    expect(await plan.markdown.editWithInstruction(doc.id, 'Retitle and shorten.')).toMatchObject({ title: 'Pricing notes', content: 'Short.\n' });
    expect(await plan.markdown.editWithInstruction(doc.id, 'Shorten.')).toMatchObject({ title: 'Pricing notes', content: 'Shorter.\n' });
  });

  test("uses the router's edit role", async () => {
    const edit = createScriptedProvider({ content: 'Edited.' });
    const planner = createScriptedProvider(new Error('wrong role'));
    const plan = new Plan({ llm: createLLMRouter({ default: planner, edit }) });
    const doc = plan.markdown.create({ title: 'T', content: 'C' });
    await plan.markdown.editWithInstruction(doc.id, 'Edit.');
    expect(edit.calls).toHaveLength(1);
    expect(planner.calls).toHaveLength(0);
  });

  test('an unknown id returns null without calling the model', async () => {
    const { llm, plan } = setup({ content: 'x' });
    expect(await plan.markdown.editWithInstruction('m99', 'Shorten.')).toBeNull();
    expect(llm.calls).toHaveLength(0);
  });

  test('a refusal is an EditError, and the note keeps its text (the disclaimer is not written into it)', async () => {
    const { plan, doc, changes } = setup("I'm sorry, I can't rewrite notes.");
    const error = await rejection(plan.markdown.editWithInstruction(doc.id, 'Shorten.'));
    expect(error).toBeInstanceOf(EditError);
    expect(error.code).toBe('edit_refused');
    expect(plan.markdown.read(doc.id)).toEqual(doc);
    expect(changes).toEqual([]);
  });

  test('a failed or refused edit never changes the document (property)', async () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '<<<<<<< SEARCH',
        '=======',
        '>>>>>>> REPLACE',
        '```',
        '--- document start ---',
        '--- document end ---',
        "I'm sorry, I can't help with that.",
        'As an AI, I cannot do that.',
        '{"content": ',
        'The Starter plan is free',
        'audit log',
        '',
      ),
      fc.string({ maxLength: 20 }),
    );
    const answer = fc.record({
      text: fc.array(piece, { maxLength: 10 }).map((pieces) => pieces.join('\n')),
      finishReason: fc.constantFrom('stop' as const, 'length' as const),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(answer, { minLength: 2, maxLength: 2 }), async (answers) => {
        const { plan, doc, changes } = setup(answers, LONG_DOC.content);
        try {
          await plan.markdown.editWithInstruction(doc.id, 'Five seats.');
        } catch (error) {
          expect(error).toBeInstanceOf(EditError);
          expect(plan.markdown.read(doc.id)).toEqual(doc);
          expect(changes).toEqual([]);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('a document edited while the model works is kept: ConflictError', async () => {
    let plan!: Plan;
    let id = '';
    const llm = createScriptedProvider(() => {
      plan.markdown.edit(id, { content: 'The user typed this meanwhile.' });
      return { content: "The model's rewrite." };
    });
    plan = new Plan({ llm });
    id = plan.markdown.create({ title: 'Notes', content: 'Old.' }).id;
    const error = await rejection(plan.markdown.editWithInstruction(id, 'Shorten.'));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.code).toBe('edit_conflict');
    expect(plan.markdown.read(id)?.content).toBe('The user typed this meanwhile.');
  });

  test('an abort leaves the document unchanged', async () => {
    const llm = createScriptedProvider({ content: 'Edited.' }, { delayMs: 50 });
    const plan = new Plan({ llm });
    const doc = plan.markdown.create({ title: 'T', content: 'Old.' });
    const controller = new AbortController();
    const call = plan.markdown.editWithInstruction(doc.id, 'Shorten.', { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    expect((await rejection(call)).code).toBe('aborted');
    expect(plan.markdown.read(doc.id)).toEqual(doc);
  });
});
