// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import { Plan } from '../../src/plan.js';
import { StorageError } from '../../src/errors.js';
import { createLocalStorageAdapter } from '../../src/storage/local-storage.js';
import type { CorruptCopy } from '../../src/storage/corrupt-copies.js';
import type { PlanSnapshot } from '../../src/storage/snapshot.js';
import { createRecordingStorage } from '../helpers/recording-storage.js';

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

const doc = (id: string, content: string, title = 'Notes') => ({ id, title, content, updatedAt: 1 });
const todo = (id: string, description: string) => ({ id, intent: 'narrate', description, status: 'pending' as const });
const snapshotOf = (todos: ReturnType<typeof todo>[], markdownDocs: ReturnType<typeof doc>[]) => ({ version: 1, todos, markdownDocs });

describe('createLocalStorageAdapter: corrupt data', () => {
  it('throws a StorageError saying the data could not be set aside when the backup does not fit', () => {
    const storage = createRecordingStorage(100);
    const adapter = createLocalStorageAdapter({ key: 'tour', storage });
    const raw = `{"todos": [${'x'.repeat(150)}`;
    let thrown: unknown;
    try {
      adapter.backup!(raw, 'not JSON');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StorageError);
    expect(thrown).toMatchObject({ code: 'storage_error', reason: 'backup_failed', operation: 'save', raw });
    expect((thrown as Error).message).toMatch(/could not be set aside.*localStorage is full.*still under "tour"/);
  });

  it('lists the copies set aside, oldest first, and discards one or all of them', () => {
    const storage = createRecordingStorage();
    const adapter = createLocalStorageAdapter({ key: 'tour', storage });
    adapter.backup!('{oops', 'not JSON');
    adapter.backup!({ version: 9, todos: [] }, 'newer format');
    storage.setItem('tour-other.corrupt.1', 'not ours');
    const copies = adapter.exportCorrupt() as CorruptCopy[];
    expect(copies.map((copy) => copy.raw)).toEqual(['{oops', { version: 9, todos: [] }]);
    expect(copies[0]!.savedAt).toBeGreaterThan(0);
    expect(new Set(copies.map((copy) => copy.id)).size).toBe(2);
    expect(adapter.discardCorrupt(copies[0]!.id)).toBe(1);
    expect((adapter.exportCorrupt() as CorruptCopy[]).map((copy) => copy.raw)).toEqual([{ version: 9, todos: [] }]);
    expect(adapter.discardCorrupt('tour-other.corrupt.1')).toBe(0);
    expect(adapter.discardCorrupt()).toBe(1);
    expect(adapter.exportCorrupt()).toEqual([]);
    expect(storage.getItem('tour-other.corrupt.1')).toBe('not ours');
  });
});

describe('createLocalStorageAdapter: saves that scale', () => {
  const big = 'x'.repeat(1_000_000);

  it('writes only the small manifest when a todo changes, not a 1 MB document', () => {
    const storage = createRecordingStorage();
    const adapter = createLocalStorageAdapter({ key: 'tour', storage });
    adapter.save(snapshotOf([todo('t1', 'a')], [doc('m1', big)]));
    storage.writes.length = 0;
    adapter.save(snapshotOf([todo('t1', 'a'), todo('t2', 'b')], [doc('m1', big)]));
    expect(storage.writes.map((write) => write.key)).toEqual(['tour']);
    expect(storage.writes[0]!.chars).toBeLessThan(1_000);
    expect(adapter.load()).toEqual(snapshotOf([todo('t1', 'a'), todo('t2', 'b')], [doc('m1', big)]));
  });

  it('rewrites only the document that changed, and deletes its old version after the manifest', () => {
    const storage = createRecordingStorage();
    const adapter = createLocalStorageAdapter({ key: 'tour', storage });
    adapter.save(snapshotOf([], [doc('m1', big), doc('m2', 'small')]));
    const partsBefore = Object.keys(storage.writes).length;
    storage.writes.length = 0;
    adapter.save(snapshotOf([], [doc('m1', big), doc('m2', 'changed')]));
    expect(storage.writes.map((write) => write.key.replace(/:[a-z0-9]+$/, ''))).toEqual(['tour:doc:m2', 'tour']);
    const keys = [...Array(storage.length).keys()].map((index) => storage.key(index));
    expect(keys.filter((key) => key?.startsWith('tour:doc:'))).toHaveLength(2);
    expect(partsBefore).toBe(3);
    // A title edit touches the manifest only.
    storage.writes.length = 0;
    adapter.save(snapshotOf([], [doc('m1', big, 'Renamed'), doc('m2', 'changed')]));
    expect(storage.writes.map((write) => write.key)).toEqual(['tour']);
    expect(createLocalStorageAdapter({ key: 'tour', storage }).load()).toEqual(snapshotOf([], [doc('m1', big, 'Renamed'), doc('m2', 'changed')]));
  });

  it('loads the previous snapshot whole when a save stops between the documents and the manifest', () => {
    const storage = createRecordingStorage();
    const adapter = createLocalStorageAdapter({ key: 'tour', storage });
    const before = snapshotOf([todo('t1', 'old')], [doc('m1', 'old text')]);
    adapter.save(before);
    storage.failWrites = (key) => key === 'tour';
    expect(() => adapter.save(snapshotOf([todo('t1', 'new')], [doc('m1', 'new text')]))).toThrow(StorageError);
    storage.failWrites = undefined;
    expect(createLocalStorageAdapter({ key: 'tour', storage }).load()).toEqual(before);
    // The new document's part, written before the manifest failed, did not stay behind.
    expect(storage.length).toBe(2);
  });

  it('still reads a whole snapshot written before documents were stored apart', () => {
    const storage = createRecordingStorage();
    const old = snapshotOf([todo('t1', 'a')], [doc('m1', 'text')]);
    storage.setItem('tour', JSON.stringify(old));
    const adapter = createLocalStorageAdapter({ key: 'tour', storage });
    expect(adapter.load()).toEqual(old);
    adapter.save(old);
    expect(createLocalStorageAdapter({ key: 'tour', storage }).load()).toEqual(old);
  });

  it('reads each document once: a second load reuses what it read', () => {
    const storage = createRecordingStorage();
    createLocalStorageAdapter({ key: 'tour', storage }).save(snapshotOf([], [doc('m1', big)]));
    const adapter = createLocalStorageAdapter({ key: 'tour', storage });
    adapter.load();
    storage.reads.length = 0;
    expect(adapter.load()).toEqual(snapshotOf([], [doc('m1', big)]));
    expect(storage.reads).toEqual(['tour']);
  });

  it('frees space taken by parts of interrupted saves when the quota is reached, then saves', () => {
    const storage = createRecordingStorage(2_600_000);
    const adapter = createLocalStorageAdapter({ key: 'tour', storage });
    adapter.save(snapshotOf([], [doc('m1', big)]));
    // An orphan: a part whose manifest never landed (another tab's crash).
    storage.setItem('tour:doc:m1:zzzz0', big);
    adapter.save(snapshotOf([], [doc('m1', 'y'.repeat(1_000_000))]));
    expect(storage.getItem('tour:doc:m1:zzzz0')).toBeNull();
    expect((adapter.load() as PlanSnapshot).markdownDocs[0]!.content).toHaveLength(1_000_000);
  });

  it('says quota when the plan does not fit even after freeing what it can, and the stored plan stays', () => {
    const storage = createRecordingStorage(1_500_000);
    const adapter = createLocalStorageAdapter({ key: 'tour', storage });
    adapter.save(snapshotOf([], [doc('m1', big)]));
    expect(() => adapter.save(snapshotOf([], [doc('m1', 'y'.repeat(1_000_000))]))).toThrow(expect.objectContaining({ reason: 'quota', operation: 'save' }));
    expect((createLocalStorageAdapter({ key: 'tour', storage }).load() as PlanSnapshot).markdownDocs[0]!.content).toBe(big);
  });

  it('reports a document whose part is missing as corrupt, with everything it found in raw', () => {
    const storage = createRecordingStorage();
    createLocalStorageAdapter({ key: 'tour', storage }).save(snapshotOf([todo('t1', 'a')], [doc('m1', 'kept'), doc('m2', 'lost')]));
    const m2 = [...Array(storage.length).keys()].map((index) => storage.key(index)!).find((key) => key.startsWith('tour:doc:m2'))!;
    storage.removeItem(m2);
    let thrown: StorageError | undefined;
    try {
      createLocalStorageAdapter({ key: 'tour', storage }).load();
    } catch (error) {
      thrown = error as StorageError;
    }
    expect(thrown).toMatchObject({ reason: 'corrupt', operation: 'load' });
    expect(thrown?.message).toMatch(/m2/);
    const raw = thrown?.raw as PlanSnapshot;
    expect(raw.todos).toEqual([todo('t1', 'a')]);
    expect(raw.markdownDocs[0]).toEqual(doc('m1', 'kept'));
  });
});
