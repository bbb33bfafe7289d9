import { describe, expect, it } from 'vitest';
import { ValidationError } from '../src/errors.js';
import { Plan } from '../src/plan.js';
import { readTodoCheck, sameTodoCheck } from '../src/todo-check.js';
import { formatTodoCheck, matchUrl, missingEvidence, parseTodoCheck, readTodoCheckInput } from '../src/todo-check-text.js';

const read = (value: unknown) => {
  const issues: Array<{ path: string; message: string }> = [];
  return { check: readTodoCheck(value, 'check', issues), issues };
};

describe('todo checks: the object form', () => {
  it('reads every kind, trimming text and lower-casing a role', () => {
    expect(read({ kind: 'url', pattern: ' /pricing ' }).check).toEqual({ kind: 'url', pattern: '/pricing' });
    expect(read({ kind: 'visible', role: 'Status', name: 'Trial  started' }).check).toEqual({ kind: 'visible', role: 'status', name: 'Trial started' });
    expect(read({ kind: 'field', field: 'Plan', value: 'Team' }).check).toEqual({ kind: 'field', field: 'Plan', value: 'Team' });
    expect(read({ kind: 'narrated' }).check).toEqual({ kind: 'narrated' });
    expect(read({ kind: 'tool', name: 'subscribe' }).check).toEqual({ kind: 'tool', name: 'subscribe' });
    expect(read({ kind: 'none' }).check).toEqual({ kind: 'none' });
  });

  it('refuses what it cannot evaluate, saying where and what to write', () => {
    expect(read('/pricing').issues[0]?.message).toMatch(/a check object with a kind/);
    expect(read({ kind: 'looks-done' }).issues).toEqual([expect.objectContaining({ path: 'check' })]);
    expect(read({ kind: 'url', pattern: 'pricing' }).issues).toEqual([{ path: 'check.pattern', message: 'must be a path such as /pricing' }]);
    expect(read({ kind: 'visible', name: '' }).issues[0]?.path).toBe('check.name');
    expect(read({ kind: 'tool', name: 'x'.repeat(201) }).issues[0]?.path).toBe('check.name');
    expect(read({ kind: 'field', field: 'Password', value: 'hunter2' }).issues[0]?.path).toBe('check.value');
    expect(read({ kind: 'field', field: 'Card number' }).check).toEqual({ kind: 'field', field: 'Card number' });
  });

  it('is kept on a todo, compared by value, and a malformed one leaves the plan as it was', () => {
    const plan = new Plan({ sync: false });
    plan.setTaskPlan({ summary: 'Trial', todos: [{ intent: 'click', description: 'Start', check: { kind: 'visible', name: 'Started' } }] });
    expect(plan.todos.get('t1')?.check).toEqual({ kind: 'visible', name: 'Started' });
    const before = plan.todos.list();
    expect(() => plan.todos.edit('t1', { check: { kind: 'url', pattern: 'nope' } })).toThrow(ValidationError);
    expect(plan.todos.list()).toEqual(before);
    expect(sameTodoCheck({ kind: 'visible', name: 'A', role: 'status' }, { role: 'status', name: 'A', kind: 'visible' } as never)).toBe(true);
    expect(sameTodoCheck({ kind: 'visible', name: 'A' }, { kind: 'visible', name: 'A', role: 'status' })).toBe(false);
  });
});

describe('todo checks: the compact text', () => {
  it('reads what a planner writes, and writes it back', () => {
    const cases: Array<[string, unknown]> = [
      ['/pricing', { kind: 'url', pattern: '/pricing' }],
      ['url /docs/*', { kind: 'url', pattern: '/docs/*' }],
      ['see button "Start trial"', { kind: 'visible', role: 'button', name: 'Start trial' }],
      ['see “Welcome back”', { kind: 'visible', name: 'Welcome back' }],
      ['see status', { kind: 'visible', name: 'status' }],
      ['see Order confirmed', { kind: 'visible', name: 'Order confirmed' }],
      ['field "Email" filled', { kind: 'field', field: 'Email' }],
      ['field Plan = Team', { kind: 'field', field: 'Plan', value: 'Team' }],
      ['said', { kind: 'narrated' }],
      ['tool subscribe', { kind: 'tool', name: 'subscribe' }],
      ['none', { kind: 'none' }],
    ];
    for (const [text, check] of cases) {
      const parsed = parseTodoCheck(text);
      expect(parsed, text).toEqual({ ok: true, check });
      if (parsed.ok) expect(parseTodoCheck(formatTodoCheck(parsed.check))).toEqual(parsed);
    }
  });

  it('refuses anything else with what to write, and never holds a secret', () => {
    for (const text of ['', 'looks done', 'url pricing', 'see', 'tool two words', 'said loudly', 'field Email']) {
      const parsed = parseTodoCheck(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/write|characters|path|check/);
    }
    expect(parseTodoCheck('field "Card" = 4242 4242 4242 4242')).toEqual({ ok: false, message: 'a check never holds a secret: write "field Card filled"' });
    expect(parseTodoCheck('field "API key" = abc')).toMatchObject({ ok: false });
    const issues: Array<{ path: string; message: string }> = [];
    expect(readTodoCheckInput({ kind: 'field', field: 'PIN', value: '1234' }, 'todos[0].check', issues)).toBeUndefined();
    expect(issues[0]?.path).toBe('todos[0].check.value');
  });

  it('matches page addresses by path, query and hash only where the pattern has them', () => {
    expect(matchUrl('/pricing', 'https://example.com/pricing?ref=nav#top')).toBe(true);
    expect(matchUrl('/pricing/', '/pricing')).toBe(true);
    expect(matchUrl('/docs/*', '/docs/guide/install')).toBe(true);
    expect(matchUrl('/pricing', '/pricing-old')).toBe(false);
    expect(matchUrl('/search?q=*', '/search?q=mugs')).toBe(true);
    expect(matchUrl('/search?q=*', '/search')).toBe(false);
    expect(matchUrl('/settings#billing', '/settings#profile')).toBe(false);
    expect(matchUrl('/a.b', '/aXb')).toBe(false);
  });

  it('says what is missing in the check’s own words', () => {
    expect(missingEvidence({ kind: 'url', pattern: '/pricing' })).toBe('the page is not at /pricing');
    expect(missingEvidence({ kind: 'visible', role: 'status', name: 'Saved' })).toBe('no status "Saved" is visible');
    expect(missingEvidence({ kind: 'field', field: 'Email' })).toBe('field "Email" is empty');
    expect(missingEvidence({ kind: 'tool', name: 'subscribe' })).toBe('subscribe did not succeed for it');
  });
});
