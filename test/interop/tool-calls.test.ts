import { describe, expect, it } from 'vitest';
import { countPlannerOnlyTurns, normalizeToolCall } from '../../src/interop/tool-calls.js';

describe('normalizeToolCall', () => {
  it('reads the five common shapes', () => {
    const args = { todos: [] };
    expect(normalizeToolCall({ id: 'c1', type: 'function', function: { name: 'write_todos', arguments: '{"todos":[]}' } })).toEqual({
      id: 'c1',
      name: 'write_todos',
      input: '{"todos":[]}',
    });
    expect(normalizeToolCall({ type: 'function_call', id: 'fc_item', call_id: 'call_9', name: 'write_todos', arguments: '{}' })).toEqual({
      id: 'call_9',
      name: 'write_todos',
      input: '{}',
    });
    expect(normalizeToolCall({ type: 'tool_use', id: 'toolu_1', name: 'write_todos', input: args })).toEqual({
      id: 'toolu_1',
      name: 'write_todos',
      input: args,
    });
    expect(normalizeToolCall({ id: 'lc', name: 'write_todos', args })).toEqual({ id: 'lc', name: 'write_todos', input: args });
    expect(normalizeToolCall({ type: 'tool-call', toolCallId: 'ai', toolName: 'write_todos', input: args })).toEqual({
      id: 'ai',
      name: 'write_todos',
      input: args,
    });
    expect(normalizeToolCall({})).toEqual({ id: undefined, name: '', input: undefined });
  });
});

describe('countPlannerOnlyTurns', () => {
  const openai = (...names: string[]) => ({
    role: 'assistant',
    content: null,
    tool_calls: names.map((name, i) => ({ id: `c${i}`, type: 'function', function: { name, arguments: '{}' } })),
  });
  const toolResult = { role: 'tool', tool_call_id: 'c0', content: '{"ok":true}' };

  it('counts trailing OpenAI turns that only called the tool', () => {
    const user = { role: 'user', content: 'Tour pricing' };
    expect(countPlannerOnlyTurns([user, openai('write_todos'), toolResult, openai('write_todos'), toolResult], 'write_todos')).toBe(2);
    expect(countPlannerOnlyTurns([user, openai('write_todos'), toolResult, openai('write_todos', 'navigate'), toolResult], 'write_todos')).toBe(0);
    expect(countPlannerOnlyTurns([openai('write_todos'), toolResult, { role: 'assistant', content: 'Done.' }], 'write_todos')).toBe(0);
    expect(countPlannerOnlyTurns([], 'write_todos')).toBe(0);
    expect(countPlannerOnlyTurns(undefined, 'write_todos')).toBe(0);
  });

  it('reads Anthropic, AI SDK and LangChain histories', () => {
    const anthropic = [
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Planning.' },
          { type: 'tool_use', id: 't1', name: 'write_todos', input: {} },
        ],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
    ];
    expect(countPlannerOnlyTurns([...anthropic, ...anthropic], 'write_todos')).toBe(2);
    const aiSdk = [
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 'navigate', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'a', toolName: 'navigate', output: { type: 'json', value: {} } }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'b', toolName: 'write_todos', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'b', toolName: 'write_todos', output: { type: 'json', value: {} } }] },
    ];
    expect(countPlannerOnlyTurns(aiSdk, 'write_todos')).toBe(1);
    const langchain = [
      { type: 'human', content: 'hi' },
      { type: 'ai', content: '', tool_calls: [{ id: 'x', name: 'write_todos', args: {} }] },
      { type: 'tool', tool_call_id: 'x', content: 'ok' },
    ];
    expect(countPlannerOnlyTurns(langchain, 'write_todos')).toBe(1);
  });
});
