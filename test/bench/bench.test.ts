import { describe, expect, it } from 'vitest';
import { benchDomOutline, type DomOutlineResult } from '../../bench/dom-outline.js';
import { benchFirstAction } from '../../bench/first-action.js';
import { benchMarkdownEdit } from '../../bench/markdown-edit.js';
import { benchOverhead } from '../../bench/overhead.js';
import { checkTargets, renderMarkdown } from '../../bench/report.js';
import { formScenario, replanScenario, tourScenario } from '../../bench/scenarios.js';
import { benchTokens } from '../../bench/tokens.js';

// Each benchmark once, on tiny inputs, so that none of them rots. The figures are not asserted.

describe('benchmarks (smoke)', () => {
  it('counts plan tokens for planloop and both write_todos variants', () => {
    const result = benchTokens([tourScenario(3), formScenario(4), replanScenario(4)]);
    expect(result.scenarios.map((scenario) => scenario.key)).toEqual(['tour', 'form', 'replan']);
    for (const scenario of result.scenarios) {
      expect(scenario.protocols.map((protocol) => protocol.protocol)).toEqual([
        'planloop',
        'write_todos (planloop tool)',
        'write_todos (LangChain JS sizes)',
      ]);
      for (const protocol of scenario.protocols) {
        expect(protocol.totalOutput).toBeGreaterThan(0);
        expect(protocol.totalInput).toBeGreaterThan(0);
      }
    }
    // The LangChain estimate comes from 12,464 characters at a plausible English ratio.
    expect(result.charsPerToken).toBeGreaterThan(2);
    expect(result.charsPerToken).toBeLessThan(8);
  });

  it('times the per-turn steps and the makeTodos parse, and streams to the first action', async () => {
    const overhead = await benchOverhead({ sizes: [5, 8], iterations: 4, planSizes: [3], planIterations: 2 });
    expect(overhead.turns.map((row) => row.todos)).toEqual([5, 8]);
    expect(overhead.turns[0]?.total).toBeGreaterThan(0);
    expect(overhead.makeTodos[0]?.todos).toBe(3);

    const firstAction = await benchFirstAction({ delayMs: 0, runs: 1, chunkSize: 64 });
    expect(firstAction.textShare).toBeGreaterThan(0);
    expect(firstAction.textShare).toBeLessThanOrEqual(1);

    const tokens = benchTokens([tourScenario(2)]);
    const sizes = [{ name: 'core', note: '', bundler: 'esbuild' as const, minified: 1, gzip: 1, brotli: 1, totalGzip: 1, leaks: [] }];
    const markdownEdit = benchMarkdownEdit({ runs: 1 });
    const domOutline: DomOutlineResult = { browser: 'none', skipped: 'not run here', runs: 0, viewport: { width: 1, height: 1 }, sizes: [], demo: [], sample: '' };
    const targets = checkTargets({ tokens, bundle: { sizes }, overhead, firstAction, markdownEdit, domOutline });
    expect(targets.map((check) => check.target)).toContain('first action');
    const markdown = renderMarkdown({
      generatedAt: new Date().toISOString(),
      environment: { node: process.versions.node, platform: 'test', cpu: 'test', cpus: 1 },
      tokens,
      bundle: { sizes },
      overhead,
      firstAction,
      markdownEdit,
      domOutline,
      targets,
    });
    expect(markdown).toContain('## Targets');
    expect(markdown).toContain('## Markdown editing');
    expect(markdown).toContain('write_todos (LangChain JS sizes) (estimated)');
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
      tokens: benchTokens([tourScenario(2)]),
      bundle: { sizes: [] },
      overhead: await benchOverhead({ sizes: [5], iterations: 2, planSizes: [3], planIterations: 1 }),
      firstAction: await benchFirstAction({ delayMs: 0, runs: 1, chunkSize: 64 }),
      markdownEdit: benchMarkdownEdit({ runs: 1 }),
      domOutline: result,
      targets: [],
    });
    expect(markdown).toContain('## Page outline (`planloop/dom`)');
  });
});
