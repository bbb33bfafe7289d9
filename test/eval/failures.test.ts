// Failure kinds from what the harness saw: the checker's result, the loop's end, the tool calls.
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../eval/browser-tools.js';
import { classifyFailures } from '../../eval/failures.js';
import type { CheckResult } from '../../eval/task.js';

const check = (steps: boolean[], outside: string[] = []): CheckResult => {
  const first = steps.indexOf(false);
  return {
    steps,
    done: steps.filter(Boolean).length,
    outside,
    passed: !steps.includes(false) && outside.length === 0,
    skipped: first >= 0 && steps.slice(first + 1).some(Boolean),
  };
};
const call = (name: string, args: Record<string, unknown>, page = '/shop', ok = true, result = 'ok'): ToolCall => ({ name, args, page, ok, result });

describe('classifyFailures', () => {
  it('finds nothing in a clean pass', () => {
    expect(classifyFailures({ check: check([true, true]), reason: 'task_finish', invalidReplies: 0, calls: [call('click', { target: 'e1' })] })).toEqual([]);
  });

  it('tells stopping early from running out of turns', () => {
    expect(classifyFailures({ check: check([true, false]), reason: 'task_finish', invalidReplies: 0, calls: [] })).toEqual(['stopped-early']);
    expect(classifyFailures({ check: check([true, false]), reason: 'last_turn', invalidReplies: 0, calls: [] })).toEqual(['stopped-early']);
    expect(classifyFailures({ check: check([true, false]), reason: 'turn_limit', invalidReplies: 0, calls: [] })).toEqual(['out-of-turns']);
  });

  it('counts a repeated action, a field filled again with its value, and a page opened twice in a row', () => {
    const twice = [call('click', { target: '[data-add="mug"]' }), call('click', { target: '[data-add="mug"]' })];
    expect(classifyFailures({ check: check([true]), reason: 'task_finish', invalidReplies: 0, calls: twice })).toContain('repeated-step');
    const refill = [call('fill', { target: '#city', value: 'Bremen' }), call('click', { target: '#go' }), call('fill', { target: '#city', value: 'Bremen' })];
    expect(classifyFailures({ check: check([true]), reason: 'task_finish', invalidReplies: 0, calls: refill })).toContain('repeated-step');
    const pages = [call('navigate', { path: '/docs' }, '/', true, 'now on /docs'), call('navigate', { path: '/docs/' }, '/docs', true, 'now on /docs')];
    expect(classifyFailures({ check: check([true]), reason: 'task_finish', invalidReplies: 0, calls: pages })).toContain('repeated-step');
  });

  it('does not count a submit again after a field changed, a failed call, or reads', () => {
    const calls = [
      call('click', { target: '#save' }),
      call('fill', { target: '#username', value: 'ada-lovelace' }),
      call('click', { target: '#save' }),
      call('click', { target: '#gone' }, '/shop', false),
      call('click', { target: '#gone' }),
      call('read', { target: '#a' }),
      call('read', { target: '#a' }),
    ];
    expect(classifyFailures({ check: check([true]), reason: 'task_finish', invalidReplies: 0, calls })).toEqual([]);
  });

  it('reports skipped steps, actions outside the task, invalid output and errors', () => {
    expect(classifyFailures({ check: check([false, true]), reason: 'turn_limit', invalidReplies: 0, calls: [] })).toEqual(['out-of-turns', 'skipped-step']);
    expect(classifyFailures({ check: check([true], ['placed the order']), reason: 'task_finish', invalidReplies: 0, calls: [] })).toEqual(['acted-outside']);
    expect(classifyFailures({ check: check([false]), reason: 'error', errorCode: 'envelope_invalid', invalidReplies: 2, calls: [] })).toEqual([
      'invalid-output',
    ]);
    expect(classifyFailures({ check: check([false]), reason: 'error', errorCode: 'provider_error', invalidReplies: 0, calls: [] })).toEqual(['error']);
  });
});
