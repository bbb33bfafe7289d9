import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MarkdownChangeEvent } from '../../src/artifacts/markdown.js';
import { PlanloopError, ValidationError } from '../../src/errors.js';
import { ConflictError } from '../../src/model-errors.js';
import { createFunctionProvider } from '../../src/llm/function-provider.js';
import type { LLMRequest } from '../../src/llm/provider.js';
import { Plan } from '../../src/plan.js';

/** A plan's documents, with a model that edits them as `edit` says (the document text comes from the prompt). */
function docsWithModel(edit: (request: LLMRequest) => Promise<{ content: string }> | { content: string }) {
  return new Plan({ llm: createFunctionProvider(async (request) => JSON.stringify(await edit(request))) }).markdown;
}

/** A model that answers only when `release()` is called. */
function heldModel(content: string) {
  let release!: () => void;
  const answer = new Promise<{ content: string }>((resolve) => (release = () => resolve({ content })));
  return { docs: docsWithModel(() => answer), release };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('plan.markdown', () => {
  it('creates, reads, edits and deletes documents with m-ids', () => {
    const docs = new Plan().markdown;
    const a = docs.create({ title: 'Notes', content: '# Pricing' });
    const b = docs.create({ title: 'Draft', content: '' });
    expect([a.id, b.id]).toEqual(['m1', 'm2']);
    expect(docs.read('m1')).toEqual(a);
    expect(docs.edit('m1', { content: '# Pricing tiers' })).toMatchObject({ id: 'm1', title: 'Notes', content: '# Pricing tiers' });
    expect(docs.delete('m2')).toBe(true);
    expect(docs.list().map((doc) => doc.id)).toEqual(['m1']);
    expect(docs.create({ title: 'Again', content: '' }).id).toBe('m3');
  });

  it('returns null / false for unknown ids and copies from reads', () => {
    const docs = new Plan().markdown;
    docs.create({ title: 'Notes', content: 'a' });
    docs.read('m1')!.content = 'mutated';
    docs.list()[0]!.title = 'mutated';
    expect(docs.read('m1')).toMatchObject({ title: 'Notes', content: 'a' });
    expect(docs.read('m9')).toBeNull();
    expect(docs.edit('m9', { content: 'x' })).toBeNull();
    expect(docs.delete('m9')).toBe(false);
  });

  it('validates titles and patches', () => {
    const docs = new Plan().markdown;
    expect(() => docs.create({ title: '  ', content: '' })).toThrow(ValidationError);
    docs.create({ title: 'Notes', content: '' });
    expect(() => docs.edit('m1', { title: '' })).toThrow(/title must not be empty/);
    expect(() => docs.edit('m1', { content: 42 as never })).toThrow(/content must be a string/);
    expect(docs.read('m1')?.title).toBe('Notes');
  });

  it('keeps updatedAt strictly increasing within one millisecond', () => {
    vi.spyOn(Date, 'now').mockReturnValue(1_000);
    const docs = new Plan().markdown;
    const stamps = [docs.create({ title: 'a', content: '' }).updatedAt];
    for (let i = 0; i < 5; i++) stamps.push(docs.edit('m1', { content: String(i) })!.updatedAt);
    for (let i = 1; i < stamps.length; i++) expect(stamps[i]).toBeGreaterThan(stamps[i - 1]!);
  });

  it('fires onChange once per mutation, never for no-ops', () => {
    const docs = new Plan().markdown;
    const events: MarkdownChangeEvent[] = [];
    docs.onChange((event) => events.push(event));
    docs.create({ title: 'a', content: '' });
    docs.edit('m1', { content: 'b' });
    docs.edit('m2', { content: 'b' });
    docs.delete('m1');
    docs.delete('m1');
    expect(events.map((event) => event.change.type)).toEqual(['create', 'edit', 'delete']);
  });

  describe('editWithInstruction', () => {
    it('stores what the editor returns', async () => {
      const docs = docsWithModel((request) => ({ content: `text (${/Instruction: (.*)/.exec(request.messages.at(-1)?.content ?? '')?.[1]})` }));
      docs.create({ title: 'a', content: 'text' });
      expect(await docs.editWithInstruction('m1', 'shorter')).toMatchObject({ content: 'text (shorter)' });
    });

    it('returns null for an unknown id without calling the model', async () => {
      let calls = 0;
      const docs = docsWithModel(() => (calls++, { content: 'x' }));
      expect(await docs.editWithInstruction('m1', 'shorter')).toBeNull();
      expect(calls).toBe(0);
    });

    it('throws no_llm without an editor', async () => {
      const docs = new Plan().markdown;
      docs.create({ title: 'a', content: '' });
      await expect(docs.editWithInstruction('m1', 'shorter')).rejects.toMatchObject({ code: 'no_llm' });
      await expect(docs.editWithInstruction('m1', 'shorter')).rejects.toBeInstanceOf(PlanloopError);
    });

    it('keeps the newer document when it changed meanwhile', async () => {
      const { docs, release } = heldModel('model version');
      docs.create({ title: 'a', content: 'original' });
      const pending = docs.editWithInstruction('m1', 'rewrite');
      docs.edit('m1', { content: 'user version' });
      release();
      await expect(pending).rejects.toBeInstanceOf(ConflictError);
      await expect(pending).rejects.toMatchObject({ code: 'edit_conflict' });
      expect(docs.read('m1')?.content).toBe('user version');
    });

    it('merges the model edit onto a document the user changed elsewhere meanwhile: both survive', async () => {
      const { docs, release } = heldModel('# Tour\n\nPricing has three tiers.\n\nThe trial lasts 14 days.\n');
      docs.create({ title: 'Notes', content: '# Tour\n\nPricing has 3 tiers.\n\nThe trial lasts 14 days.\n' });
      const pending = docs.editWithInstruction('m1', 'Spell out the numbers');
      docs.edit('m1', { content: '# Tour\n\nPricing has 3 tiers.\n\nThe trial lasts 30 days.\n' }); // the user, meanwhile
      release();
      await expect(pending).resolves.toMatchObject({ content: '# Tour\n\nPricing has three tiers.\n\nThe trial lasts 30 days.\n' });
    });

    it('refuses an edit that overlaps the user change, keeping the user text, and says where', async () => {
      const { docs, release } = heldModel('# Tour\n\nPricing has three tiers.\n');
      docs.create({ title: 'Notes', content: '# Tour\n\nPricing has 3 tiers.\n' });
      const pending = docs.editWithInstruction('m1', 'Spell out the numbers');
      docs.edit('m1', { content: '# Tour\n\nPricing has 3 tiers (monthly).\n' });
      release();
      await expect(pending).rejects.toMatchObject({
        code: 'edit_conflict',
        conflicts: [expect.objectContaining({ field: 'content' })],
        proposed: { title: 'Notes', content: '# Tour\n\nPricing has three tiers.\n' },
      });
      expect(docs.read('m1')?.content).toBe('# Tour\n\nPricing has 3 tiers (monthly).\n');
    });

    it('reports a deletion during the edit as a conflict', async () => {
      const { docs, release } = heldModel('x');
      docs.create({ title: 'a', content: 'original' });
      const pending = docs.editWithInstruction('m1', 'rewrite');
      docs.delete('m1');
      release();
      await expect(pending).rejects.toMatchObject({ code: 'edit_conflict' });
      expect(docs.list()).toEqual([]);
    });
  });
});

describe('plan.markdown review fixes', () => {
  it('delivers a change made inside a listener after the current one', () => {
    const docs = new Plan().markdown;
    docs.onChange(({ change }) => {
      if (change.type === 'create') docs.edit(change.doc.id, { content: 'filled in' });
    });
    const seen: string[] = [];
    docs.onChange(({ docs: list, change }) => seen.push(`${change.type}:${list.map((doc) => doc.content).join()}`));
    docs.create({ title: 'Notes', content: '' });
    expect(seen).toEqual(['create:', 'edit:filled in']);
  });
});

describe('plan.markdown no-op edits', () => {
  it('keeps updatedAt and fires nothing when a patch changes nothing, so a rewrite in flight is no conflict', async () => {
    const { docs, release } = heldModel('model version');
    const doc = docs.create({ title: 'Notes', content: 'original' });
    const events: MarkdownChangeEvent[] = [];
    docs.onChange((event) => events.push(event));
    const pending = docs.editWithInstruction('m1', 'rewrite');
    expect(docs.edit('m1', { content: 'original', title: 'Notes' })).toEqual(doc); // an editor's autosave
    expect(events).toEqual([]);
    release();
    await expect(pending).resolves.toMatchObject({ content: 'model version' });
  });
});
