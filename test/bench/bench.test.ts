import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { benchDomOutline, type DomOutlineResult } from '../../bench/dom-outline.js';
import { benchFirstAction } from '../../bench/first-action.js';
import { benchMarkdownEdit } from '../../bench/markdown-edit.js';
import { benchOverhead } from '../../bench/overhead.js';
import { benchStorage } from '../../bench/storage.js';
import { checkTargets, renderMarkdown } from '../../bench/report.js';
import { formScenario, replanScenario, spanScenario, tourScenario } from '../../bench/scenarios.js';
import { benchTokens, countTokens, loadLangChainWriteTodos } from '../../bench/tokens.js';

// Each benchmark once, on tiny inputs, so that none of them rots. The figures are not asserted.

describe('benchmarks (smoke)', () => {
  it('counts plan tokens on both sides, resends included, for every scenario kind', async () => {
    const result = await benchTokens({ scenarios: [tourScenario(3), formScenario(4), replanScenario(4), spanScenario(3)], failEvery: 2 });
    expect(result.scenarios.map((scenario) => scenario.key)).toEqual(['tour', 'form', 'replan', 'span']);
    for (const scenario of result.scenarios) {
      expect(scenario.output.map((protocol) => protocol.protocol)).toEqual([
        'planloop (compact, taught)',
        'planloop (full envelope)',
        'floor (bare ids)',
        'write_todos',
      ]);
      const [compact, full, floor, writeTodos] = scenario.output.map((protocol) => protocol.totalOutput) as [number, number, number, number];
      expect(floor).toBeLessThan(compact);
      expect(compact).toBeLessThan(full);
      expect(full).toBeLessThan(writeTodos);
      expect(scenario.failedTurns).toContain(1);
      expect(scenario.output[3]?.resentOutput).toBeGreaterThan(0);
      expect(scenario.planloopInput.map((input) => input.backend)).toEqual(['schema enforced', 'Chrome', 'instruction', 'schema in prompt']);
      for (const input of scenario.writeTodosInput) expect(input.total).toBeGreaterThan(0);
    }
    // Todos over two turns: write_todos skips every other turn, planloop writes its todo each turn.
    const span = result.scenarios.find((scenario) => scenario.key === 'span');
    expect(span?.turns).toBe(6);
    expect(span?.output[3]?.outputPerTurn.mean).toBeLessThan(span?.output[3]?.outputPerTurn.max ?? 0);
  });

  it("counts write_todos' last call, which marks the last todo done, also when the list did not change otherwise", async () => {
    const scenario = spanScenario(2); // two todos over four turns: a todo starts at turns 1 and 3, the run ends at 4
    const { scenarios } = await benchTokens({ scenarios: [scenario] });
    const [a, b] = scenario.todos.map((todo) => todo.description) as [string, string];
    const call = (first: string, second: string) =>
      countTokens(
        JSON.stringify({
          name: 'write_todos',
          arguments: {
            todos: [
              { content: a, status: first },
              { content: b, status: second },
            ],
          },
        }),
      );
    const expected = call('in_progress', 'pending') + call('completed', 'in_progress') + call('completed', 'completed');
    expect(scenarios[0]?.output[3]?.totalOutput).toBe(expected);
  });

  it('counts a planloop turn all in: the turn line, memory, fences and labels besides the todo lines', async () => {
    const { scenarios, fixedByBackend } = await benchTokens({ scenarios: [tourScenario(4)] });
    const tour = scenarios[0];
    expect(tour?.failedTurns).toEqual([]);
    // The user message holds more than the todo lines, and the fencing is counted in it.
    expect(tour?.planContext.userMessageMax).toBeGreaterThan((tour?.planContext.max ?? 0) + (tour?.fencing.tags ?? 0));
    expect(tour?.fencing.tags).toBeGreaterThanOrEqual(8);
    expect(tour?.fencing.rule).toBeGreaterThanOrEqual(10);
    expect(tour?.planloopInput[0]?.perTurnMax).toBe(fixedByBackend['schema enforced'] + (tour?.planContext.userMessageMax ?? 0));
  });

  it('reads LangChain from the installed package, or says plainly that its sizes are estimated', async () => {
    const missing = await loadLangChainWriteTodos(4, '/nonexistent-project');
    expect(missing.exact).toBe(false);
    expect(missing.source).toMatch(/^estimated: langchain is not installed/);
    let installed = true;
    try {
      createRequire(`${process.cwd()}/package.json`).resolve('langchain');
    } catch {
      installed = false;
    }
    const here = await loadLangChainWriteTodos(4);
    expect(here.exact).toBe(installed);
    expect(here.toolTokens).toBeGreaterThan(2000);
    expect(here.result([{ content: 'Open pricing', status: 'pending' }])).toContain('{"content":"Open pricing","status":"pending"}');
  });

  it('times the per-turn steps and the makeTodos parse, and streams to the first action', async () => {
    const overhead = await benchOverhead({ sizes: [5, 8], iterations: 4, planSizes: [3], planIterations: 2 });
    expect(overhead.turns.map((row) => row.todos)).toEqual([5, 8]);
    expect(overhead.turns[0]?.total).toBeGreaterThan(0);
    expect(overhead.makeTodos[0]?.todos).toBe(3);

    const firstAction = await benchFirstAction({ delayMs: 0, runs: 1, chunkSize: 64 });
    expect(firstAction.textShare).toBeGreaterThan(firstAction.actionsStart);
    expect(firstAction.textShare).toBeLessThan(firstAction.firstActionClosesAt); // the words show before the narrate closes

    const tokens = await benchTokens({ scenarios: [tourScenario(2)] });
    const tokensWithFailures = await benchTokens({ scenarios: [tourScenario(2)], failEvery: 2 });
    expect(tokens.scenarios[0]?.failedTurns).toEqual([]); // the headline has no failed turns
    expect(tokensWithFailures.scenarios[0]?.failedTurns).toEqual([1]);
    const sizes = [
      { name: 'core', note: '', bundler: 'esbuild' as const, minified: 1, gzip: 1, brotli: 1, entryGzip: 1, startChunks: 1, totalGzip: 1, leaks: [] },
    ];
    const markdownEdit = benchMarkdownEdit({ runs: 1 });
    const domOutline: DomOutlineResult = {
      browser: 'none',
      skipped: 'not run here',
      runs: 0,
      viewport: { width: 1, height: 1 },
      sizes: [],
      demo: [],
      sample: '',
    };
    const storage = await benchStorage({ docChars: 10_000, iterations: 3 });
    expect(storage.rows.map((row) => `${row.adapter}: ${row.change}`)).toEqual([
      'localStorage: a todo',
      'localStorage: the large document',
      'localStorage: load after another tab changed a todo',
      'IndexedDB: a todo',
      'IndexedDB: the large document',
    ]);
    expect(storage.rows.every((row) => row.whole > 0 && row.parts > 0)).toBe(true);
    const targets = checkTargets({ tokens, tokensWithFailures, bundle: { sizes }, overhead, firstAction, markdownEdit, domOutline, storage });
    expect(targets.map((check) => check.target)).toContain('first visible action (first narrated words or first tool call)');
    expect(targets.map((check) => check.target)).toContain('save after a todo change, with a 10,000-character document');
    const markdown = renderMarkdown({
      generatedAt: new Date().toISOString(),
      environment: { node: process.versions.node, platform: 'test', cpu: 'test', cpus: 1 },
      tokens,
      tokensWithFailures,
      bundle: { sizes },
      overhead,
      firstAction,
      markdownEdit,
      domOutline,
      storage,
      targets,
    });
    expect(markdown).toContain('## Targets');
    expect(markdown).toContain('## Markdown editing');
    expect(markdown).toContain('## Storage');
    expect(markdown).toContain('write_todos ÷ this');
    expect(markdown).toContain('### With failed turns: one in 2');
    expect(markdown).toMatch(/Data fencing.*tags cost \d+ tokens and the instructions' data rule \d+/);
  });

  it('counts the tokens of a markdown edit answered as edits and as a rewrite', () => {
    const result = benchMarkdownEdit({ runs: 1 });
    expect(result.documentChars).toBeGreaterThanOrEqual(20_000);
    const tokens = Object.fromEntries(result.answers.map((answer) => [answer.answer, answer.outputTokens]));
    // The rewrite re-sends the document; the edits answers grow with the change only.
    expect(tokens['rewrite (document markers)']).toBeGreaterThan(result.documentTokens);
    expect(tokens['edits (whole paragraph as SEARCH)']).toBeLessThan(result.changed.before + result.changed.after + 30);
    expect(tokens['edits (elided SEARCH)']).toBeLessThan(tokens['edits (whole paragraph as SEARCH)']!);
    expect(result.sweep.map((row) => row.chars)).toEqual([...result.sweep.map((row) => row.chars)].sort((a, b) => a - b));
  });

  it('outlines pages in Chromium and counts their tokens', async () => {
    const result = await benchDomOutline({ sizes: [300], runs: 2, demo: true });
    if (result.skipped) return; // no browser on this machine: the e2e run needs one anyway
    expect(result.sizes[0]?.elements).toBeGreaterThanOrEqual(300);
    expect(result.sizes[0]?.listed).toBeGreaterThan(0);
    expect(result.demo.map((timing) => timing.page)).toEqual(['demo /', 'demo /commercial', 'demo /try', 'demo /docs']);
    expect(result.sample).toContain('h1 "Pricing"');
    const markdown = renderMarkdown({
      generatedAt: new Date().toISOString(),
      environment: { node: process.versions.node, platform: 'test', cpu: 'test', cpus: 1 },
      tokens: await benchTokens({ scenarios: [tourScenario(2)] }),
      tokensWithFailures: await benchTokens({ scenarios: [tourScenario(2)], failEvery: 2 }),
      bundle: { sizes: [] },
      overhead: await benchOverhead({ sizes: [5], iterations: 2, planSizes: [3], planIterations: 1 }),
      firstAction: await benchFirstAction({ delayMs: 0, runs: 1, chunkSize: 64 }),
      markdownEdit: benchMarkdownEdit({ runs: 1 }),
      domOutline: result,
      storage: await benchStorage({ docChars: 1_000, iterations: 1 }),
      targets: [],
    });
    expect(markdown).toContain('## Page outline (`planloop/dom`)');
  });
});
