/**
 * The import graph of src/: no file may reach itself through its imports (type-only imports
 * count too: a cycle of types still ties two files together for a reader and a bundler).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Every .ts file under `dir`, as absolute paths. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The relative imports of a file (static, `export … from`, and dynamic), resolved to files under src/. */
function importsOf(file: string, text: string, files: ReadonlySet<string>): string[] {
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1] as string);
  return specifiers.map((specifier) => {
    const base = resolve(dirname(file), specifier);
    const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
    const found = candidates.find((candidate) => files.has(candidate));
    if (!found) throw new Error(`${relative(SRC, file)} imports ${specifier}, which is no file under src/`);
    return found;
  });
}

/** The strongly connected components of more than one file, or of one file importing itself (Tarjan). */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      onStack.delete(top);
      component.push(top);
      if (top === node) break;
    }
    if (component.length > 1 || graph.get(node)?.includes(node)) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/** The import graph of src/, with paths relative to src/. */
function srcGraph(): Map<string, string[]> {
  const files = sourceFiles(SRC);
  const set = new Set(files);
  const name = (file: string) => relative(SRC, file).split('\\').join('/');
  return new Map(files.map((file) => [name(file), importsOf(file, readFileSync(file, 'utf8'), set).map(name)]));
}

function srcCycles(): string[][] {
  return importCycles(srcGraph());
}

/**
 * Imports that point up: the folders below may not import the folders (or files) named for them.
 * The core's layers, bottom up: errors (which imports nothing), abort (the abort helpers, which
 * import only errors); llm, guards, validation; sync/clock.ts (the clock types
 * and reader); plan-state, store; artifacts; envelope; storage (the format, the adapters, which
 * use sync/sync-guard.ts); the rest of sync (merge, channel, lease); planning; plan/ (the rooms);
 * plan.ts; loop, interop, graph, ui.
 */
/** Everything above the error catalogue (errors.ts and model-errors.ts): neither may import any of it. */
const ABOVE_ERRORS = [
  'abort.ts',
  'llm/',
  'artifacts/',
  'envelope/',
  'planning/',
  'loop/',
  'storage/',
  'sync/',
  'plan/',
  'plan.ts',
  'interop/',
  'graph/',
  'ui/',
  'dom/',
];

const FORBIDDEN_UPWARD: Record<string, string[]> = {
  'artifacts/': ['planning/', 'loop/', 'envelope/', 'storage/', 'sync/', 'plan/', 'plan.ts', 'interop/', 'graph/', 'ui/'],
  'envelope/': ['planning/', 'loop/', 'storage/', 'sync/', 'plan/', 'plan.ts', 'interop/', 'graph/', 'ui/'],
  'planning/': ['plan.ts', 'plan/', 'loop/', 'interop/', 'graph/', 'ui/', 'storage/', 'sync/'],
  // The adapters refuse unmerged writes (sync-guard) and the snapshot reader reads clocks (clock): those two only.
  'storage/': [
    'planning/',
    'loop/',
    'envelope/',
    'plan.ts',
    'plan/',
    'interop/',
    'graph/',
    'ui/',
    ...['plan-sync', 'merge-plan-snapshots', 'plan-channel', 'run-lease', 'sync-meta'].map((name) => `sync/${name}.ts`),
  ],
  'sync/clock.ts': ['storage/', 'sync/', 'plan-state.ts', 'artifacts/', 'envelope/', 'planning/', 'plan/', 'plan.ts'],
  'sync/sync-guard.ts': ['storage/snapshot.ts', 'sync/plan-sync.ts', 'sync/merge-plan-snapshots.ts', 'planning/', 'plan/', 'plan.ts'],
  'sync/': ['planning/', 'loop/', 'envelope/', 'plan.ts', 'plan/', 'interop/', 'graph/', 'ui/'],
  'plan/': ['plan.ts', 'loop/', 'interop/', 'graph/', 'ui/'],
  'errors.ts': ABOVE_ERRORS,
  // The errors only a model call throws: beside errors.ts, as low (llm/ imports them).
  'model-errors.ts': ABOVE_ERRORS,
  'abort.ts': ['llm/', 'artifacts/', 'envelope/', 'planning/', 'loop/', 'storage/', 'sync/', 'plan/', 'plan.ts', 'interop/', 'graph/', 'ui/', 'dom/'],
  'llm/': ['artifacts/', 'envelope/', 'planning/', 'loop/', 'storage/', 'sync/', 'plan/', 'plan.ts', 'interop/', 'graph/', 'ui/'],
};

function upwardImports(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const found: string[] = [];
  for (const [file, imports] of graph) {
    for (const [folder, forbidden] of Object.entries(FORBIDDEN_UPWARD)) {
      if (!file.startsWith(folder)) continue;
      for (const target of imports) if (forbidden.some((prefix) => target.startsWith(prefix))) found.push(`${file} -> ${target}`);
    }
  }
  return found;
}

describe('imports in src/', () => {
  it('form no cycle', () => {
    expect(srcCycles()).toEqual([]);
  });

  it('point down: artifacts, envelope, planning, storage, sync, the plan rooms and llm never import a layer above them', () => {
    expect(upwardImports(srcGraph())).toEqual([]);
  });

  it('the upward check finds an upward import', () => {
    expect(upwardImports(new Map([['envelope/parse.ts', ['planning/model-json.ts', 'errors.ts']]]))).toEqual(['envelope/parse.ts -> planning/model-json.ts']);
  });

  it('the cycle finder finds cycles, self-imports and nothing else', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['d']],
      ['e', ['a']],
    ]);
    expect(importCycles(graph)).toEqual([['a', 'b', 'c'], ['d']]);
  });
});
