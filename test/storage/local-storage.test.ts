// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { Plan } from '../../src/plan.js';
import { StorageError } from '../../src/errors.js';
import { createLocalStorageAdapter } from '../../src/storage/local-storage.js';

describe('createLocalStorageAdapter', () => {
  beforeEach(() => localStorage.clear());

  it('round-trips a plan through a reload', async () => {
    const first = new Plan({ storage: createLocalStorageAdapter({ key: 'tour' }) });
    first.attachTo({});
    await first.ready;
    first.todos.createMany([
      { intent: 'navigate', description: 'Open pricing', expected_turn: 1 },
      { intent: 'narrate', description: 'Explain tiers' },
    ]);
    first.adjust({ remove: ['t1'] });
    first.markdown.create({ title: 'Notes', content: 'Tiers: 3' });
    await first.flush();

    const second = new Plan({ storage: createLocalStorageAdapter({ key: 'tour' }) });
    second.attachTo({});
    await second.ready;
    expect(second.todos.list()).toEqual(first.todos.list());
    expect(second.markdown.list()).toEqual(first.markdown.list());
  });

  it('reads localStorage only when used, and accepts another Storage', async () => {
    const adapter = createLocalStorageAdapter({ key: 'k', storage: sessionStorage });
    await adapter.save({ version: 1, todos: [], markdownDocs: [] });
    expect(sessionStorage.getItem('k')).toContain('"version":1');
    expect(localStorage.getItem('k')).toBeNull();
  });

  it('keeps corrupt JSON under a backup key before the plan writes over it', async () => {
    localStorage.setItem('tour', '{"todos": [oops');
    const plan = new Plan({ storage: createLocalStorageAdapter({ key: 'tour' }) });
    const errors: StorageError[] = [];
    plan.on('storage-error', ({ error }) => errors.push(error));
    await plan.ready;
    expect(errors[0]?.message).toMatch(/not valid JSON/);
    plan.todos.create({ intent: 'narrate', description: 'fresh' });
    await plan.flush();
    const backupKey = Object.keys(localStorage).find((key) => key.startsWith('tour.corrupt.'));
    expect(backupKey && localStorage.getItem(backupKey)).toBe('{"todos": [oops');
    expect(JSON.parse(localStorage.getItem('tour')!).todos).toHaveLength(1);
  });

  it('turns a full quota into a StorageError that says what to do', () => {
    const full = {
      getItem: () => null,
      setItem: () => {
        throw Object.assign(new Error('quota'), { name: 'QuotaExceededError' });
      },
    } as unknown as Storage;
    const adapter = createLocalStorageAdapter({ storage: full });
    expect(() => adapter.save({ todos: [], markdownDocs: [] })).toThrow(/localStorage is full.*createIndexedDbAdapter/);
  });

  it('says so when there is no localStorage at all', () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
    Object.defineProperty(globalThis, 'localStorage', { value: undefined, configurable: true });
    try {
      expect(() => createLocalStorageAdapter().load()).toThrow(StorageError);
    } finally {
      if (saved) Object.defineProperty(globalThis, 'localStorage', saved);
    }
  });
});
