import { describe, expect, it } from 'vitest';
import { createMemoryAdapter } from '../../src/storage/memory.js';

describe('createMemoryAdapter', () => {
  it('lists the copies backup set aside and discards one or all of them', () => {
    const storage = createMemoryAdapter();
    storage.backup!({ todos: 'nope' }, 'failed validation');
    storage.backup!('{oops', 'not JSON');
    const copies = storage.exportCorrupt();
    expect(copies.map((copy) => copy.raw)).toEqual([{ todos: 'nope' }, '{oops']);
    (copies[0]!.raw as { todos: string }).todos = 'changed outside';
    expect(storage.exportCorrupt()[0]!.raw).toEqual({ todos: 'nope' });
    expect(storage.discardCorrupt(copies[0]!.id)).toBe(1);
    expect(storage.discardCorrupt('backup-99')).toBe(0);
    expect(storage.backups).toEqual([{ raw: '{oops', reason: 'not JSON' }]);
    expect(storage.discardCorrupt()).toBe(1);
    expect(storage.exportCorrupt()).toEqual([]);
  });
});
