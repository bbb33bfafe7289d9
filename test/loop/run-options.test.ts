import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { createLLMRouter } from '../../src/llm/provider.js';
import { createScriptedProvider } from '../../src/llm/scripted.js';
import type { LoopTool } from '../../src/loop/dispatch-action.js';
import { groupFlatOptions } from '../../src/loop/flat-run-options.js';
import { resolveRunOptions, RUN_DEFAULTS, type RunOptions } from '../../src/loop/run-options.js';
import { runWebAgent } from '../../src/loop/run-web-agent.js';
import { startRun } from '../../src/loop/start-run.js';
import { Plan } from '../../src/plan.js';

const fail = (options: unknown): ValidationError => {
  try {
    resolveRunOptions(options as RunOptions);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('resolveRunOptions accepted the options');
};

describe('resolveRunOptions: the one place a run reads its options', () => {
  it('has at most 12 top-level keys, each group named by purpose, and fills every default from RUN_DEFAULTS', () => {
    const keys: Array<keyof Required<RunOptions>> = ['task', 'tools', 'signal', 'start', 'user', 'approval', 'page', 'prompt', 'model', 'bounds'];
    expect(keys.length + 1 /* runWebAgent's plan */).toBeLessThanOrEqual(12);
    const config = resolveRunOptions({ task: 'Tour' });
    expect(config.bounds).toEqual(RUN_DEFAULTS.bounds);
    expect(config.bounds).toEqual({ turnSlack: 2, lookTurns: 3, runActions: 40, turnActions: 20 });
    expect(config.prompt).toEqual({ instructions: undefined, ...RUN_DEFAULTS.prompt });
    expect(config.model).toEqual({ provider: undefined, temperature: undefined, maxTokens: undefined, ...RUN_DEFAULTS.model });
    expect(config.page.tokenBudget).toBe(400);
    expect(config.approval).toEqual({ ask: undefined, level: 'irreversible', timeoutMs: 300_000 });
    expect(config.start.takeOver).toBe(false);
  });

  it('no name means two things: the run and the envelope have their own action caps, the model and the page their own budgets', () => {
    const config = resolveRunOptions({ task: 'Tour', bounds: { runActions: 7, turnActions: 3 }, model: { maxTokens: 500 }, page: { tokenBudget: 120 } });
    expect(config.bounds.runActions).toBe(7);
    expect(config.bounds.turnActions).toBe(3);
    expect(config.model.maxTokens).toBe(500);
    expect(config.page.tokenBudget).toBe(120);
  });

  it('asks from write on with a hook, from irreversible on without one, and takes the host level', () => {
    const hook = () => true;
    expect(resolveRunOptions({ task: 'x', approval: { ask: hook } }).approval.level).toBe('write');
    expect(resolveRunOptions({ task: 'x', approval: { ask: 'state' } }).approval.level).toBe('write');
    expect(resolveRunOptions({ task: 'x', approval: { ask: hook, level: 'irreversible' } }).approval.level).toBe('irreversible');
  });

  it('refuses bad options with one typed error naming each problem, its path and what would be right', () => {
    const error = fail({
      task: 'Tour',
      bounds: { turnSlack: Number.NaN, runActions: -1 },
      approval: { ask: 'yes', level: 'all' },
      tools: { buy: { risk: 'dangerous', run: () => 1 }, broken: { description: 'no run' } },
      user: { narrate: 'say it' },
    });
    expect(error.code).toBe('invalid_input');
    expect(error.issues.map((issue) => issue.path).sort()).toEqual(
      ['approval.ask', 'approval.level', 'bounds.runActions', 'bounds.turnSlack', 'tools.broken.run', 'tools.buy.risk', 'user.narrate'].sort(),
    );
    expect(error.message).toContain('bounds.turnSlack must be a whole number of at least 0, not NaN');
    expect(error.message).toContain('tools.buy.risk must be one of read, write, irreversible, not "dangerous"');
    expect(error.message).toContain('approval.level must be one of read, write, irreversible, none, not "all"');
  });

  it('refuses a key a group does not have, and a 0.2 name given to startRun, saying where it goes', () => {
    expect(fail({ task: 'x', bounds: { maxActions: 5 } }).message).toContain(
      "bounds.maxActions is not one of bounds's options (turnSlack, lookTurns, runActions, turnActions)",
    );
    expect(fail({ task: 'x', maxActions: 5 }).message).toContain('maxActions is a 0.2 option: pass it as bounds.runActions');
    expect(fail({ task: 'x', narrator: () => {} }).message).toContain('narrator is no run option');
  });

  it("puts the host's secrets and the tour's locators in the page group, and refuses what cannot be one", () => {
    const locators = { locate: () => undefined, find: () => ({ ok: false as const, reason: 'not-found' as const, message: 'gone' }) };
    const config = resolveRunOptions({
      task: 'x',
      page: { secrets: ['hunter2-horse'], locators },
      tools: { click: { run: () => 1, targets: ['target', 'into'] }, look: () => 2 },
    });
    expect(config.page.secrets).toEqual(['hunter2-horse']);
    expect(config.page.locators).toBe(locators);
    expect(config.tools.get('click')?.targets).toEqual(['target', 'into']);
    expect(config.tools.get('look')?.targets).toEqual(['target']);
    const error = fail({
      task: 'x',
      page: { secrets: { password: 42 }, locators: { locate: () => undefined } },
      tools: { click: { run: () => 1, targets: 'target' } },
    });
    expect(error.issues.map((issue) => issue.path).sort()).toEqual(['page.locators', 'page.secrets', 'tools.click.targets']);
    expect(error.message).toContain('page.secrets must be a map of names to values, a list of values, or a function that lists them');
    // secrets and locators were never 0.2 options: given at the top, the error names their group.
    expect(fail({ task: 'x', secrets: ['hunter2-horse'] }).message).toContain('secrets is a page option: pass it as page.secrets');
    expect(fail({ task: 'x', locators }).message).toContain('locators is a page option: pass it as page.locators');
  });

  it("reads each tool's risk once for the whole run (the gate, the look-only rule and the dispatch share one table)", async () => {
    let reads = 0;
    const look = { run: () => 'seen' } as Exclude<LoopTool, (...args: never[]) => unknown>;
    Object.defineProperty(look, 'risk', { get: () => (reads++, 'read'), enumerable: true });
    const model = createScriptedProvider([
      {
        todo: 't1',
        actions: [
          { type: 'tool', name: 'look', args: {} },
          { type: 'tool', name: 'look', args: {} },
        ],
      },
      {
        todo: 't1',
        actions: [
          { type: 'tool', name: 'look', args: {} },
          { type: 'narrate', text: 'Seen.' },
        ],
      },
      { todo: 't1', last: true, actions: [{ type: 'task_finish', summary: 'Done.' }] },
    ]);
    const plan = new Plan({ llm: createLLMRouter({ default: model, plan: createScriptedProvider([{ task_summary: 'x', todos: ['Look around'] }]) }) });
    const result = await startRun(plan, { task: 'Look', tools: { look } }).result;
    expect(result.reason).toBe('task_finish');
    expect(reads).toBe(1);
  });
});

describe('the 0.2 flat options', () => {
  it('map onto the groups, and a name given both ways is refused', () => {
    const ask = () => true;
    const { options, origins } = groupFlatOptions({
      task: 'x',
      maxActions: 60,
      onApprove: ask,
      turnLimits: { maxActions: 5, timeoutMs: 1000 },
      observeBudget: 100,
      systemPrompt: 'Be brief.',
    });
    expect(options).toEqual({
      task: 'x',
      bounds: { runActions: 60, turnActions: 5 },
      approval: { ask },
      model: { timeoutMs: 1000 },
      page: { tokenBudget: 100 },
      prompt: { instructions: 'Be brief.' },
    });
    expect(origins.get('bounds.turnActions')).toBe('turnLimits.maxActions');
    expect(() => groupFlatOptions({ task: 'x', maxActions: 60, bounds: { runActions: 30 } } as never)).toThrow(
      /maxActions and bounds\.runActions are both given; keep the grouped one/,
    );
  });

  it('runWebAgent takes them and names them in its errors, with where they went', async () => {
    const plan = new Plan({ llm: createScriptedProvider([]) });
    const error = await runWebAgent({ plan, task: 'x', maxTurnSlack: -1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { path: 'maxTurnSlack', message: 'must be a whole number of at least 0, not -1 (bounds.turnSlack since 0.3.0)' },
    ]);
  });

  it('keeps instructions that change during a run: a function is asked before each turn, and a 0.2 systemPrompt getter stays live', async () => {
    const turns = [
      { todo: 't1', actions: [{ type: 'narrate', text: 'One.' }] },
      { todo: 't1', last: true, actions: [{ type: 'task_finish', summary: 'Done.' }] },
    ];
    for (const variant of ['function', 'getter'] as const) {
      const model = createScriptedProvider(turns);
      const plan = new Plan({ llm: createLLMRouter({ default: model, plan: createScriptedProvider([{ task_summary: 'x', todos: ['Say it'] }]) }) });
      let asked = 0;
      const read = () => `Turn prompt number ${++asked}.`;
      const options =
        variant === 'function'
          ? { plan, task: 'Say it', prompt: { instructions: read } }
          : Object.defineProperty({ plan, task: 'Say it' }, 'systemPrompt', { enumerable: true, get: read });
      await runWebAgent(options);
      expect(model.calls.map((call) => call.messages[0]?.content.split('\n')[0])).toEqual(['Turn prompt number 1.', 'Turn prompt number 2.']);
    }
  });
});
