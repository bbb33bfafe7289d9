/**
 * What each entry holds: the root what most hosts import, the rest on its subpath (package.json
 * "exports", vite.config.ts entries and tsconfig paths agree on the list).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import * as graph from '../src/graph/index.js';
import * as dom from '../src/dom/index.js';
import * as interop from '../src/interop/index.js';
import * as loop from '../src/loop/index.js';
import * as planning from '../src/planning/index.js';
import * as storage from '../src/storage/index.js';
import * as testing from '../src/testing.js';
import * as ui from '../src/ui/index.js';

/** Each entry's values (dist/ keeps one file per module, so a built entry exports exactly these). */
const ENTRIES: Record<string, Record<string, unknown>> = {
  planloop: root,
  'planloop/loop': loop,
  'planloop/storage': storage,
  'planloop/planning': planning,
  'planloop/interop': interop,
  'planloop/graph': graph,
  'planloop/dom': dom,
  'planloop/ui': ui,
  'planloop/testing': testing,
};

const MOVED_TO_LOOP = [
  'createEnvelopeStreamParser',
  'applyAdjust',
  'validateTodoAdjust',
  'safeValidateTodoAdjust',
  'TURN_ENVELOPE_JSON_SCHEMA',
  'ENVELOPE_LIMITS',
  'renderPlanForTurn',
  'NOTHING_LEFT_LINE',
  'TURN_INSTRUCTIONS',
  'DATA_RULE',
  'buildTurnMessages',
  'turnSystemPrompt',
  'turnUserPrompt',
  'ACTION_RISKS',
  'DEFAULT_ACTION_POLICY',
];
const MOVED_TO_STORAGE = ['validateSnapshot', 'safeValidateSnapshot', 'SNAPSHOT_VERSION'];

describe('entries', () => {
  it('the root holds what most hosts import, and at most 35 values (it had 47; replayTour and TourError came with recorded tours, startRun with the run object)', () => {
    for (const name of [
      'Plan',
      'startRun',
      'runWebAgent',
      'replayTour',
      'TourError',
      'parseTurnEnvelope',
      'safeParseTurnEnvelope',
      'validateTurnEnvelope',
      'createOpenAICompatibleProvider',
      'createLocalStorageAdapter',
      'createIndexedDbAdapter',
      'PlanloopError',
      'isPlanloopError',
      'refusalOf',
    ]) {
      expect(Object.keys(root), name).toContain(name);
    }
    expect(Object.keys(root).length).toBeLessThanOrEqual(35);
  });

  it('the parts of a hand-written turn loop are on planloop/loop, the snapshot format on planloop/storage, and not on the root', () => {
    for (const name of MOVED_TO_LOOP) {
      expect(Object.keys(loop), name).toContain(name);
      expect(Object.keys(root), name).not.toContain(name);
    }
    for (const name of MOVED_TO_STORAGE) {
      expect(Object.keys(storage), name).toContain(name);
      expect(Object.keys(root), name).not.toContain(name);
    }
  });

  it('package.json exports, vite.config.ts entries and tsconfig paths name the same subpaths', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> };
    const subpaths = Object.keys(pkg.exports)
      .filter((key) => key !== './package.json')
      .map((key) => key.replace(/^\.\/?/, ''));
    const vite = readFileSync(new URL('../vite.config.ts', import.meta.url), 'utf8');
    const tsconfig = JSON.parse(readFileSync(new URL('../tsconfig.json', import.meta.url), 'utf8')) as { compilerOptions: { paths: Record<string, unknown> } };
    expect(subpaths).toEqual(expect.arrayContaining(['', 'loop', 'storage']));
    for (const subpath of subpaths) {
      const name = subpath === '' ? 'planloop' : `planloop/${subpath}`;
      expect(Object.keys(tsconfig.compilerOptions.paths), name).toContain(name);
      if (subpath !== '') expect(vite, name).toContain(`${subpath}: src(`);
    }
  });

  it("the README's Developing section gives each entry's number of values as the entries export them", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const sentence = /The root entry exports \d+ values[\s\S]*?\.(?=\s)/.exec(readme)?.[0] ?? '';
    expect(sentence, 'README: "The root entry exports N values …" in Developing').not.toBe('');
    const said: Record<string, number> = { planloop: Number(/The root entry exports (\d+) values/.exec(sentence)![1]) };
    for (const [, name, count] of sentence.matchAll(/`(planloop\/[\w-]+)` (\d+)/g)) said[name!] = Number(count);
    const actual = Object.fromEntries(Object.entries(ENTRIES).map(([name, entry]) => [name, Object.keys(entry).length]));
    expect(said).toEqual(actual);
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { exports: Record<string, unknown> };
    expect(Object.keys(ENTRIES).sort()).toEqual(
      Object.keys(pkg.exports)
        .filter((key) => key !== './package.json')
        .map((key) => `planloop${key.slice(1)}`)
        .sort(),
    );
  });

  it('every name the README shows in backticks as an export of an entry is exported by that entry', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    // "… `validateTodoAdjust` (`planloop/loop`)": each name just before an entry in parentheses.
    const claims = [...readme.matchAll(/((?:`\w+`(?:,| and| or|,? and)? ?)+)\(`(planloop(?:\/[\w-]+)?)`\)/g)].flatMap(([, names, entry]) =>
      [...names!.matchAll(/`(\w+)`/g)].map(([, name]) => [name!, entry!] as const),
    );
    expect(claims.length).toBeGreaterThan(0);
    expect(claims.filter(([name, entry]) => !(name in ENTRIES[entry]!)).map(([name, entry]) => `${name} is not exported by ${entry}`)).toEqual([]);
  });

  it('the README describes the JSON instruction helpers, and planloop/loop exports them', () => {
    expect(Object.keys(loop)).toEqual(expect.arrayContaining(['describedInPrompt', 'jsonInstruction']));
  });

  it('every name that src/ or the README says comes "from `planloop/…`" is exported by that entry', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
      );
    const texts = [
      ['README.md', readFileSync(new URL('../README.md', import.meta.url), 'utf8')],
      ...files('src').map((file) => [file, readFileSync(file, 'utf8')]),
    ];
    // "`renderOutline(outlinePage({ maxTokens }))` from `planloop/dom`": the first name counts.
    const claims = texts.flatMap(([file, text]) =>
      [...text!.matchAll(/`(\w+)(?:\([^`]*\))?` from `(planloop(?:\/[\w-]+)?)`/g)].map(([, name, entry]) => [file!, name!, entry!] as const),
    );
    expect(claims.length).toBeGreaterThan(1);
    expect(
      claims.filter(([, name, entry]) => !(name in (ENTRIES[entry] ?? {}))).map(([file, name, entry]) => `${file}: ${name} is not exported by ${entry}`),
    ).toEqual([]);
  });
});
