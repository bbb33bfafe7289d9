import { describe, expect, test } from 'vitest';
import { ConflictError, PlanloopError, PlannerOutputError } from '../../src/errors.js';
import { createLLMRouter } from '../../src/llm/provider.js';
import { createScriptedProvider, type ScriptedResponses } from '../../src/llm/scripted.js';
import { Plan } from '../../src/plan.js';
import { EDIT_OUTPUT_SCHEMA } from '../../src/planning/prompts.js';

function setup(responses: ScriptedResponses, options: { delayMs?: number } = {}) {
  const llm = createScriptedProvider(responses, options);
  const plan = new Plan({ llm, appendSystemPrompt: 'PLAYBOOK' });
  const doc = plan.markdown.create({ title: 'Tour notes', content: '# Pricing\n\nThere are three tiers. They differ in seats.\n' });
  const changes: string[] = [];
  plan.on('markdown-change', ({ change }) => changes.push(change.type));
  return { llm, plan, doc, changes };
}

async function rejection(promise: Promise<unknown>): Promise<PlanloopError> {
  try {
    await promise;
  } catch (error) {
    return error as PlanloopError;
  }
  throw new Error('expected the call to fail');
}

describe('editWithInstruction', () => {
  test('the model rewrites the document and the call returns the new one', async () => {
    const { llm, plan, doc, changes } = setup({ content: '# Pricing\n\nThree tiers, by seats.\n' });
    const edited = await plan.markdown.editWithInstruction(doc.id, 'Make it one sentence.');
    expect(edited).toMatchObject({ id: doc.id, title: 'Tour notes', content: '# Pricing\n\nThree tiers, by seats.\n' });
    expect(edited!.updatedAt).toBeGreaterThan(doc.updatedAt);
    expect(plan.markdown.read(doc.id)).toEqual(edited);
    expect(changes).toEqual(['edit']);
    const [call] = llm.calls;
    expect(call!.jsonSchema).toEqual(EDIT_OUTPUT_SCHEMA);
    const user = call!.messages.find((message) => message.role === 'user')!.content;
    expect(user).toContain('Instruction: Make it one sentence.');
    expect(user).toContain('Title: Tour notes');
    expect(user).toContain('There are three tiers. They differ in seats.');
    // appendSystemPrompt belongs to the planning call only.
    expect(call!.messages.map((message) => message.content).join('\n')).not.toContain('PLAYBOOK');
  });

  test('a new title from the model is kept; a blank one is ignored', async () => {
    const { plan, doc } = setup([
      '```json\n{"title": "Pricing notes", "content": "Short."}\n```',
      { title: '  ', content: 'Shorter.' },
    ]);
    expect(await plan.markdown.editWithInstruction(doc.id, 'Retitle and shorten.')).toMatchObject({ title: 'Pricing notes', content: 'Short.' });
    expect(await plan.markdown.editWithInstruction(doc.id, 'Shorten.')).toMatchObject({ title: 'Pricing notes', content: 'Shorter.' });
  });

  test('uses the router\'s edit role', async () => {
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

  test('a plan with no llm throws no_llm', async () => {
    const plan = new Plan();
    const doc = plan.markdown.create({ title: 'T', content: 'C' });
    const error = await rejection(plan.markdown.editWithInstruction(doc.id, 'Shorten.'));
    expect(error.code).toBe('no_llm');
    expect(error.message).toMatch(/llm/);
    expect(plan.markdown.read(doc.id)).toEqual(doc);
  });

  test.each([
    ['empty content', { content: '' }, 'planner_output_invalid'],
    ['whitespace content', { content: ' \n ' }, 'planner_output_invalid'],
    ['an empty answer', '', 'planner_output_invalid'],
    ['no content key', { text: 'Short.' }, 'planner_output_invalid'],
    ['content of the wrong type', { content: ['Short.'] }, 'planner_output_invalid'],
    ['prose instead of JSON (never taken as the document)', 'Sorry, I cannot edit documents.', 'planner_output_invalid'],
    ['an answer cut off', { text: '{"content": "# Pricing\\n\\nThree ti', finishReason: 'length' }, 'planner_output_truncated'],
  ])('%s throws and leaves the document unchanged', async (_name, answer, code) => {
    const { plan, doc, changes } = setup([answer]);
    const error = await rejection(plan.markdown.editWithInstruction(doc.id, 'Shorten.'));
    expect(error).toBeInstanceOf(PlannerOutputError);
    expect(error.code).toBe(code);
    expect(typeof (error as PlannerOutputError).raw).toBe('string');
    expect(plan.markdown.read(doc.id)).toEqual(doc);
    expect(changes).toEqual([]);
  });

  test('a document edited while the model works is kept: ConflictError', async () => {
    let plan!: Plan;
    let id = '';
    const llm = createScriptedProvider(() => {
      plan.markdown.edit(id, { content: 'The user typed this meanwhile.' });
      return { content: 'The model\'s rewrite.' };
    });
    plan = new Plan({ llm });
    id = plan.markdown.create({ title: 'Notes', content: 'Old.' }).id;
    const error = await rejection(plan.markdown.editWithInstruction(id, 'Shorten.'));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.code).toBe('edit_conflict');
    expect((error as ConflictError).id).toBe(id);
    expect(plan.markdown.read(id)?.content).toBe('The user typed this meanwhile.');
  });

  test('a document deleted while the model works stays deleted: ConflictError', async () => {
    let plan!: Plan;
    let id = '';
    const llm = createScriptedProvider(() => {
      plan.markdown.delete(id);
      return { content: 'The model\'s rewrite.' };
    });
    plan = new Plan({ llm });
    id = plan.markdown.create({ title: 'Notes', content: 'Old.' }).id;
    const error = await rejection(plan.markdown.editWithInstruction(id, 'Shorten.'));
    expect(error.code).toBe('edit_conflict');
    expect(plan.markdown.read(id)).toBeNull();
    expect(plan.markdown.list()).toEqual([]);
  });

  test('an abort leaves the document unchanged', async () => {
    const { plan, doc } = setup({ content: 'Edited.' }, { delayMs: 50 });
    const controller = new AbortController();
    const call = plan.markdown.editWithInstruction(doc.id, 'Shorten.', { signal: controller.signal });
    setTimeout(() => controller.abort(), 5);
    expect((await rejection(call)).code).toBe('aborted');
    expect(plan.markdown.read(doc.id)).toEqual(doc);
  });
});
