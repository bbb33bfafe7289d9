/**
 * What each entry holds: the root what most hosts import, the rest on its subpath (package.json
 * "exports", vite.config.ts entries and tsconfig paths agree on the list).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as root from '../src/index.js';
import * as loop from '../src/loop/index.js';
import * as storage from '../src/storage/index.js';

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
const MOVED_TO_STORAGE = ['validateSnapshot', 'safeValidateSnapshot', 'SNAPSHOT_VERSION', 'parseSnapshot', 'safeParseSnapshot'];

describe('entries', () => {
  it('the root holds what most hosts import, and at most 33 values (it had 47; startRun is the 33rd)', () => {
    for (const name of ['Plan', 'startRun', 'runWebAgent', 'parseTurnEnvelope', 'safeParseTurnEnvelope', 'validateTurnEnvelope', 'createOpenAICompatibleProvider', 'createLocalStorageAdapter', 'createIndexedDbAdapter', 'PlanloopError', 'isPlanloopError', 'refusalOf']) {
      expect(Object.keys(root), name).toContain(name);
    }
    expect(Object.keys(root).length).toBeLessThanOrEqual(33);
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
    const subpaths = Object.keys(pkg.exports).filter((key) => key !== './package.json').map((key) => key.replace(/^\.\/?/, ''));
    const vite = readFileSync(new URL('../vite.config.ts', import.meta.url), 'utf8');
    const tsconfig = JSON.parse(readFileSync(new URL('../tsconfig.json', import.meta.url), 'utf8')) as { compilerOptions: { paths: Record<string, unknown> } };
    expect(subpaths).toEqual(expect.arrayContaining(['', 'loop', 'storage']));
    for (const subpath of subpaths) {
      const name = subpath === '' ? 'planloop' : `planloop/${subpath}`;
      expect(Object.keys(tsconfig.compilerOptions.paths), name).toContain(name);
      if (subpath !== '') expect(vite, name).toContain(`${subpath}: src(`);
    }
  });
});
