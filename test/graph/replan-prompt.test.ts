import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { z as classic } from 'zod';
import { describeTool, REPLAN_SYSTEM_PROMPT, replanTurnMessage } from '../../src/graph/replan-prompt.js';
import { defineTool } from '../../src/graph/tool.js';

describe('replanning prompt', () => {
  it('lists a tool as a signature from its schema, mini or classic', () => {
    const mini = defineTool({
      name: 'searchFlights',
      description: 'Finds flights',
      schema: z.object({ to: z.string(), date: z.optional(z.string()), cabin: z.enum(['eco', 'biz']), pax: z.array(z.object({ name: z.string() })) }),
      run: () => [],
    });
    expect(describeTool(mini)).toBe('- searchFlights(to: string, date?: string, cabin: "eco" | "biz", pax: { name: string }[]) — Finds flights');
    const old = {
      name: 'translateText',
      schema: classic.object({ text: classic.string().describe('what to translate'), n: classic.number().int() }),
      run: () => '',
    };
    expect(describeTool(old)).toBe('- translateText(text: string /* what to translate */, n: number)');
  });

  it('explains both reference spellings and the answer shape', () => {
    expect(REPLAN_SYSTEM_PROMPT).toContain('{"calls": [');
    expect(REPLAN_SYSTEM_PROMPT).toContain('"$input.x"');
    expect(REPLAN_SYSTEM_PROMPT).toContain('write-once');
  });

  it('shows the state, or says it is empty and gives the blueprint', () => {
    const base = { tools: [], input: { text: 'Hi' }, previousCalls: null, lastResults: [], turn: 1, maxTurns: 5 };
    expect(replanTurnMessage({ ...base, state: { language: 'en' } })).toContain('State:\n{"language":"en"}');
    const withBlueprint = replanTurnMessage({ ...base, state: {}, stateSchema: z.object({ language: z.string() }) });
    expect(withBlueprint).toContain('State:\n(empty)');
    expect(withBlueprint).toContain('{"type":"object","properties":{"language":{"type":"string"}},"required":["language"]}');
    expect(withBlueprint).not.toContain('Previous plan');
  });
});

describe('replanTurnMessage and what tools return', () => {
  it('writes a cyclic state value as [Circular] instead of throwing', () => {
    const node: Record<string, unknown> = { name: 'root' };
    node.self = node;
    const message = replanTurnMessage({ tools: [], input: {}, state: { tree: node, shared: [1] }, previousCalls: [], lastResults: [] } as never);
    expect(message).toContain('State:\n{"tree":{"name":"root","self":"[Circular]"},"shared":[1]}');
  });
});
