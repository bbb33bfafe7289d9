import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types (npm run bench starts it with node)
import { loadModule } from '../../bench/load.mjs';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('bench/load.mjs', () => {
  it('keeps modules loadable after loading: code that imports on first use (as makeTodos does) still works', async () => {
    dir = await mkdtemp(join(tmpdir(), 'planloop-load-'));
    await writeFile(join(dir, 'later.ts'), 'export const value: number = 42;\n');
    await writeFile(join(dir, 'entry.ts'), "export async function readLater(): Promise<number> {\n  return (await import('./later.js')).value;\n}\n");
    const { module, close } = await loadModule(join(dir, 'entry.ts'), dir);
    try {
      expect(await module.readLater()).toBe(42);
    } finally {
      await close();
    }
  });
});
