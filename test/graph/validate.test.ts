import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { z as classic } from 'zod';
import { GraphValidationError } from '../../src/graph/errors.js';
import { defineTool } from '../../src/graph/tool.js';
import { dryRunToolPlan } from '../../src/graph/dry-run.js';
import { toMermaid } from '../../src/graph/mermaid.js';
import { runToolPlan } from '../../src/graph/run.js';
import { validateToolPlan } from '../../src/graph/validate.js';
import { recordingTool } from './fixtures.js';

const pay = defineTool({
  name: 'processPayment',
  schema: z.object({ amount: z.number(), currency: z.optional(z.enum(['EUR', 'USD'])) }),
  run: () => ({ id: 'r1' }),
});
const a = recordingTool('a');
const b = recordingTool('b');
const tools = [pay, a, b];

function issuesOf(calls: unknown[], options: Partial<Parameters<typeof validateToolPlan>[1]> = {}) {
  const result = validateToolPlan(calls, { tools, ...options });
  return result.ok ? [] : result.issues;
}

describe('validateToolPlan', () => {
  it('accepts a valid plan and returns its levels, whatever the list order', () => {
    const result = validateToolPlan(
      [
        { _tool: 'b', profile: '†state.profile' },
        { _tool: 'a', name: '†input.name', _outputPath: '†state.profile' },
        { _tool: 'processPayment', amount: 5 },
      ],
      { tools, input: { name: 'Alice' } },
    );
    expect(result).toEqual({ ok: true, levels: [[1, 2], [0]] });
  });

  it('reports every problem at once, each with its call index', () => {
    const result = validateToolPlan(
      [
        { _tool: 'refundEverything' },
        { _tool: 'processPayment', amount: 'fifty', currency: 'GBP' },
        { _tool: 'a', receipt: '†state.receipt' },
        { _tool: 'a', x: '†state.__proto__.polluted' },
        { _tool: 'a', _outputPath: '†state.summary' },
        { _tool: 'b', _outputPath: '†state.summary' },
        'not a call',
        { _tool: 'b', who: '†input.nobody' },
      ],
      { tools, input: { name: 'Alice' } },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(GraphValidationError);
    expect(result.error.code).toBe('graph_invalid');
    const summary = result.issues.map((issue) => [issue.index, issue.kind, issue.path]);
    expect(summary).toEqual([
      [0, 'unknown_tool', undefined],
      [1, 'invalid_args', 'amount'],
      [1, 'invalid_args', 'currency'],
      [2, 'unresolvable_reference', 'receipt'],
      [3, 'unsafe_path', 'x'],
      [5, 'duplicate_output', '_outputPath'],
      [6, 'malformed_call', undefined],
      [7, 'unresolvable_reference', 'who'],
    ]);
    expect(result.issues[0]!.message).toMatch(/unknown tool "refundEverything"; the tools are: processPayment, a, b/);
    expect(result.issues[1]!.message).toBe('amount must be a number');
    expect(result.issues[7]!.message).toMatch(/the input has no input.nobody \(its keys: name\)/);
    expect(result.error.message).toMatch(/8 problems/);
    expect(result.error.message).toMatch(/- call 5 \(_outputPath\): writes state.summary, which call 4 also writes/);
  });

  it('leaves arguments holding references to the run-time schema check', () => {
    expect(issuesOf([{ _tool: 'processPayment', amount: '†input.amount' }], { input: { amount: 50 } })).toEqual([]);
    expect(issuesOf([{ _tool: 'processPayment', amount: '$input.amount' }], { input: { amount: 50 } })).toEqual([]);
  });

  it('works with classic zod schemas too', () => {
    const strict = { name: 'strict', schema: classic.object({ n: classic.number() }).strict(), run: () => 1 };
    const issues = validateToolPlan([{ _tool: 'strict', n: 1, extra: true }], { tools: [strict] });
    expect(issues.ok ? [] : issues.issues.map((issue) => issue.message)).toEqual(['the arguments has unknown key extra']);
  });

  it('accepts a fallback when any alternative can be satisfied, and reports one when none can', () => {
    expect(issuesOf([{ _tool: 'a', who: '†input.nickname || †input.name' }], { input: { name: 'A' } })).toEqual([]);
    const issues = issuesOf([{ _tool: 'a', who: '†input.nickname || †state.nick' }], { input: { name: 'A' } });
    expect(issues).toHaveLength(1);
    expect(issues[0]!.message).toMatch(/^no alternative can be satisfied/);
  });

  it('requires every path of a gate', () => {
    const issues = issuesOf([
      { _tool: 'a', _outputPath: '†state.ready' },
      { _tool: 'b', go: '†state.ready && †state.missing' },
    ]);
    expect(issues.map((issue) => [issue.index, issue.message])).toEqual([[1, expect.stringContaining('no call writes state.missing')]]);
  });

  it('counts values already in the state as available and as not writable', () => {
    const state = { error: { code: 'card_declined' } };
    expect(issuesOf([{ _tool: 'a', error: '†state.error' }], { state })).toEqual([]);
    const issues = issuesOf([{ _tool: 'a', _outputPath: '†state.error' }], { state });
    expect(issues).toMatchObject([{ index: 0, kind: 'state_write_once', path: '_outputPath' }]);
  });

  it('finds cycles, including a call waiting for itself', () => {
    const cycle = issuesOf([
      { _tool: 'a', x: '†state.y', _outputPath: '†state.x' },
      { _tool: 'b', y: '†state.x', _outputPath: '†state.y' },
      { _tool: 'a', z: '†state.z', _outputPath: '†state.z' },
    ]);
    expect(cycle.map((issue) => [issue.index, issue.kind])).toEqual([
      [0, 'cycle'],
      [2, 'cycle'],
    ]);
    expect(cycle[0]!.message).toBe('is part of a cycle: call 0 (a) waits for call 1 (b) waits for call 0 (a); plans must be acyclic');
    expect(cycle[1]!.message).toMatch(/cannot wait for itself/);
  });

  it('lets the alternatives of one call share nothing with other calls, but exclude each other', () => {
    expect(issuesOf([{ _tool: 'processPayment', amount: 1, _outputPath: '†state.receipt || †state.error' }])).toEqual([]);
    const overlapping = issuesOf([
      { _tool: 'a', _outputPath: '†state.user' },
      { _tool: 'b', _outputPath: '†state.done || †state.user.name' },
    ]);
    expect(overlapping).toMatchObject([{ index: 1, kind: 'duplicate_output', message: expect.stringMatching(/overlap/) }]);
    expect(issuesOf([{ _tool: 'a', _outputPath: '†state.x && †state.x.y' }])).toMatchObject([{ kind: 'duplicate_output' }]);
  });

  it('refuses output paths that are not state references, and misspelt reserved keys', () => {
    const issues = issuesOf([
      { _tool: 'a', _outputPath: '†input.x' },
      { _tool: 'a', _outputPath: 'state.x' },
      { _tool: 'a', _output_path: '†state.x' },
      { _tool: 'a', v: '†state.a || †state.b && †state.c' },
    ]);
    expect(issues.map((issue) => [issue.index, issue.kind])).toEqual([
      [0, 'malformed_reference'],
      [1, 'malformed_reference'],
      [2, 'malformed_call'],
      [3, 'malformed_reference'],
    ]);
    expect(issues[2]!.message).toBe('"_output_path" is not a call key; write "_outputPath"');
  });

  it('finds references nested in arrays and objects, and unsafe paths in outputs', () => {
    const issues = issuesOf(
      [
        { _tool: 'a', filters: { city: '†input.city', tags: ['x', '†state.nope'] } },
        { _tool: 'b', _outputPath: '†state.ok || †state.constructor' },
      ],
      { input: { city: 'Berlin' } },
    );
    expect(issues.map((issue) => [issue.index, issue.kind, issue.path])).toEqual([
      [0, 'unresolvable_reference', 'filters.tags[1]'],
      [1, 'unsafe_path', '_outputPath'],
    ]);
  });
});

describe('validateToolPlan, tools with their own argument names', () => {
  it('accepts an argument named like a reserved key when the tool declares it (outputPath, output_path)', () => {
    const exportReport = defineTool({
      name: 'exportReport',
      schema: z.object({ outputPath: z.string(), output_path: z.optional(z.string()) }),
      run: () => 'ok',
    });
    const result = validateToolPlan([{ _tool: 'exportReport', outputPath: '/reports/q3.pdf', output_path: '/tmp/q3.pdf' }], { tools: [exportReport] });
    expect(result).toEqual({ ok: true, levels: [[0]] });
    // Still caught where the tool has no such argument.
    expect(issuesOf([{ _tool: 'processPayment', amount: 1, outputPath: '†state.x' }])).toMatchObject([{ kind: 'malformed_call', path: 'outputPath' }]);
  });

  it('leaves a schema issue above a reference (a union of shapes) for run time, where the value is known', () => {
    const findUser = defineTool({
      name: 'findUser',
      schema: z.union([z.object({ id: z.number() }), z.object({ email: z.string() })]),
      run: () => ({ name: 'Ada' }),
    });
    const plan = [
      { _tool: 'a', _outputPath: '†state.userId' },
      { _tool: 'findUser', id: '†state.userId' },
    ];
    expect(validateToolPlan(plan, { tools: [findUser, a] })).toEqual({ ok: true, levels: [[0], [1]] });
    // Literal arguments are still checked against the union.
    expect(validateToolPlan([{ _tool: 'findUser', id: 'seven' }], { tools: [findUser] }).ok).toBe(false);
  });
});

describe('a plan that is not a list (a model answering an object, text or null)', () => {
  it.each([null, undefined, 5, 'processPayment', { calls: [] }])('%j is one issue about the plan, not a TypeError', async (calls) => {
    const result = validateToolPlan(calls as never, { tools });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([{ index: -1, kind: 'malformed_call', message: expect.stringMatching(/^the plan must be a list of calls/) }]);
    expect(result.error.code).toBe('graph_invalid');
    expect(result.error.message).toMatch(/- the plan: the plan must be a list of calls/);
    await expect(runToolPlan(calls as never, { tools })).rejects.toBeInstanceOf(GraphValidationError);
    await expect(dryRunToolPlan(calls as never, { tools })).rejects.toBeInstanceOf(GraphValidationError);
    expect(() => toMermaid(calls as never)).toThrow(GraphValidationError);
  });
});
