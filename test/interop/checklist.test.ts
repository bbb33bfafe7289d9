import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlanEvents } from '../../src/events.js';
import { CHECKLIST_MAX_BYTES, parseChecklist, seedFromChecklist, toChecklist } from '../../src/interop/checklist.js';
import { Plan } from '../../src/plan.js';

const pairs = (text: string) => parseChecklist(text).todos.map((todo) => [todo.status, todo.description]);

// The four-line plan.md of the route-planning seed.
const SEED_PLAN = `- [ ] Understand the customer request
- [ ] Check account context
- [ ] Decide whether to answer or escalate
- [ ] Write the final response
`;

describe('parseChecklist', () => {
  it('reads the seed plan.md as four pending todos with the default intent', () => {
    expect(parseChecklist(SEED_PLAN)).toEqual({
      todos: [
        { intent: 'narrate', description: 'Understand the customer request', status: 'pending' },
        { intent: 'narrate', description: 'Check account context', status: 'pending' },
        { intent: 'narrate', description: 'Decide whether to answer or escalate', status: 'pending' },
        { intent: 'narrate', description: 'Write the final response', status: 'pending' },
      ],
      warnings: [],
    });
  });

  it('maps [ ] to pending, [x] and [X] to completed, [~] and [/] to in_progress', () => {
    expect(pairs('- [ ] pending item\n- [x] completed item\n- [X] also completed\n- [~] working\n- [/] also working')).toEqual([
      ['pending', 'pending item'],
      ['completed', 'completed item'],
      ['completed', 'also completed'],
      ['in_progress', 'working'],
      ['in_progress', 'also working'],
    ]);
  });

  it('allows indentation, trims content and ignores empty items', () => {
    expect(pairs('  - [ ]   spaced out   \n\t- [x] tabbed\n    - [ ] nested\n- [ ]\n- [x]    \n- [ ] \t')).toEqual([
      ['pending', 'spaced out'],
      ['completed', 'tabbed'],
      ['pending', 'nested'],
    ]);
  });

  it('ignores all other markdown', () => {
    const text = [
      '# Plan',
      'Some prose with - [ ] inside it.',
      '- a plain bullet',
      '- [-] cancelled in Obsidian',
      '- [?] unknown box',
      '-[ ] no space after the bullet',
      '- [ ]no space after the box',
      '> - [ ] quoted',
      '| - [ ] | table |',
      '[ ] bare box',
      '- [ ] kept',
    ].join('\n');
    expect(pairs(text)).toEqual([['pending', 'kept']]);
  });

  it('accepts * and + bullets and numbered items', () => {
    expect(pairs('* [ ] star\n+ [x] plus\n1. [ ] first\n2) [~] second\n10. [X] tenth')).toEqual([
      ['pending', 'star'],
      ['completed', 'plus'],
      ['pending', 'first'],
      ['in_progress', 'second'],
      ['completed', 'tenth'],
    ]);
  });

  it('never reads lines inside ``` or ~~~ fences, closed or not', () => {
    const text = [
      '- [ ] before',
      '```md',
      '- [ ] in backticks',
      '```',
      '~~~',
      '- [x] in tildes',
      '```',
      '- [ ] a ``` line does not close a ~~~ fence',
      '~~~',
      '  ````',
      '  - [ ] indented fence',
      '  ```',
      '  - [ ] a shorter fence does not close it',
      '  ````',
      '- [ ] after',
      '```',
      '- [ ] in an unclosed fence',
    ].join('\n');
    expect(pairs(text)).toEqual([
      ['pending', 'before'],
      ['pending', 'after'],
    ]);
  });

  it('does not take a backtick run with a backtick in its info string for a fence', () => {
    expect(pairs('``` not `a` fence\n- [ ] read')).toEqual([['pending', 'read']]);
  });

  it('reads CRLF and CR line endings', () => {
    expect(pairs('- [ ] a\r\n- [x] b\r- [ ] c')).toEqual([
      ['pending', 'a'],
      ['completed', 'b'],
      ['pending', 'c'],
    ]);
  });

  it('gives an empty list for an empty file', () => {
    expect(parseChecklist('')).toEqual({ todos: [], warnings: [] });
  });

  it('takes a configurable intent', () => {
    expect(parseChecklist('- [ ] Open pricing', { intent: 'navigate' }).todos[0]?.intent).toBe('navigate');
  });

  it('seeds nothing from a file over 64 KiB of UTF-8 and says why', () => {
    const line = '- [ ] é\n'; // 9 bytes, 8 characters
    const exact = line.repeat(Math.floor(CHECKLIST_MAX_BYTES / 9)) + 'x'.repeat(CHECKLIST_MAX_BYTES % 9);
    expect(new TextEncoder().encode(exact).byteLength).toBe(CHECKLIST_MAX_BYTES);
    expect(parseChecklist(exact).todos.length).toBeGreaterThan(0);
    const over = `${exact}y`;
    expect(over.length).toBeLessThan(CHECKLIST_MAX_BYTES); // fewer characters than bytes: the limit is in bytes
    const result = parseChecklist(over);
    expect(result.todos).toEqual([]);
    expect(result.warnings).toEqual([{ code: 'checklist_too_large', message: expect.stringContaining('65537 bytes') }]);
  });
});

describe('toChecklist', () => {
  it('writes one line per todo with [ ], [~] and [x]', () => {
    expect(
      toChecklist([
        { description: 'Understand the customer request', status: 'completed' },
        { description: 'Check account context', status: 'in_progress' },
        { description: 'Write the final response', status: 'pending' },
      ]),
    ).toBe('- [x] Understand the customer request\n- [~] Check account context\n- [ ] Write the final response\n');
    expect(toChecklist([])).toBe('');
  });

  it('keeps multi-line descriptions on one line', () => {
    expect(toChecklist([{ description: 'Open\n  pricing\r\nthen tiers', status: 'pending' }])).toBe('- [ ] Open pricing then tiers\n');
  });

  it('round-trips the seed plan.md exactly', () => {
    expect(toChecklist(parseChecklist(SEED_PLAN).todos)).toBe(SEED_PLAN);
  });

  const status = fc.constantFrom('pending' as const, 'in_progress' as const, 'completed' as const);
  const description = fc.string({ minLength: 1, maxLength: 40 }).filter((value) => value.trim() !== '');

  it('is stable: serialize(parse(serialize(t))) === serialize(t)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ description, status }), { maxLength: 8 }), (todos) => {
        const once = toChecklist(todos);
        expect(toChecklist(parseChecklist(once).todos)).toBe(once);
        expect(parseChecklist(once).todos).toHaveLength(todos.length);
      }),
    );
  });

  it('is stable: parse(serialize(parse(x))) equals parse(x) for any markdown-ish text', () => {
    const line = fc.oneof(
      fc
        .tuple(
          fc.constantFrom('', '  ', '\t'),
          fc.constantFrom('- ', '* ', '+ ', '1. ', '2) ', '-'),
          fc.constantFrom('[ ]', '[x]', '[X]', '[~]', '[/]', '[-]', '[]'),
          fc.constantFrom(' ', '', '  '),
          fc.string({ maxLength: 20 }),
        )
        .map((parts) => parts.join('')),
      fc.constantFrom('```', '~~~', '````js', '# title', '', '> - [ ] quoted'),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 15 }), (lines) => {
        const text = lines.join('\n');
        const parsed = parseChecklist(text).todos;
        expect(parseChecklist(toChecklist(parsed)).todos).toEqual(parsed);
      }),
    );
  });
});

describe('seedFromChecklist', () => {
  const record = (plan: Plan) => {
    const events: Array<[string, unknown]> = [];
    plan.on('plan-update', (payload) => events.push(['plan-update', payload]));
    plan.on('plan-warning', (payload) => events.push(['plan-warning', payload]));
    return events;
  };

  it('seeds the plan with fresh ids and emits plan-update from the checklist', () => {
    const plan = new Plan();
    const events = record(plan);
    const result = seedFromChecklist(plan, '- [x] Understand the customer request\n- [ ] Check account context');
    expect(result.seeded).toBe(true);
    expect(plan.todos.list()).toEqual([
      { id: 't1', intent: 'narrate', description: 'Understand the customer request', status: 'completed' },
      { id: 't2', intent: 'narrate', description: 'Check account context', status: 'pending' },
    ]);
    expect(result.todos).toEqual(plan.todos.list());
    expect(events).toEqual([['plan-update', { todos: plan.todos.list(), source: 'checklist' } satisfies PlanEvents['plan-update']]]);
  });

  it('replaces earlier todos without reusing their ids', () => {
    const plan = new Plan();
    plan.todos.createMany([
      { intent: 'click', description: 'old' },
      { intent: 'click', description: 'older' },
    ]);
    seedFromChecklist(plan, SEED_PLAN);
    expect(plan.todos.list().map((todo) => todo.id)).toEqual(['t3', 't4', 't5', 't6']);
  });

  it('an empty file gives an empty plan, still emitting plan-update', () => {
    const plan = new Plan();
    plan.todos.create({ intent: 'click', description: 'old' });
    const events = record(plan);
    expect(seedFromChecklist(plan, '')).toEqual({ seeded: true, todos: [], warnings: [] });
    expect(plan.todos.list()).toEqual([]);
    expect(events).toEqual([['plan-update', { todos: [], source: 'checklist' }]]);
  });

  it('a file over 64 KiB seeds nothing, leaves the plan and emits plan-warning', () => {
    const plan = new Plan();
    plan.todos.create({ intent: 'click', description: 'kept' });
    const events = record(plan);
    const result = seedFromChecklist(plan, '- [ ] big\n'.repeat(7000));
    expect(result.seeded).toBe(false);
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(['kept']);
    expect(events).toEqual([['plan-warning', { code: 'checklist_too_large', message: expect.stringContaining('no todos') }]]);
  });

  it('passes the intent option through', () => {
    const plan = new Plan();
    seedFromChecklist(plan, '- [ ] Open pricing', { intent: 'navigate' });
    expect(plan.todos.list()[0]?.intent).toBe('navigate');
  });

  it('collapses line breaks in linear time, also in a description with a long run of spaces (timing guard)', () => {
    const description = `a${' '.repeat(400_000)}b`;
    const started = performance.now();
    const text = toChecklist([
      { description, status: 'pending' },
      { description: 'x  \n\t y', status: 'pending' },
    ]);
    // A guard against quadratic work, not a speed test: about 60 s before (3.7 s at 100 KB), a
    // millisecond or two now.
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(text).toBe(`- [ ] ${description}\n- [ ] x y\n`);
  });

  it('round-trips descriptions holding U+2028/U+2029, and ignores a status that is not a box', () => {
    const todos = [{ description: 'a\u2028b\u2029c', status: 'completed' as const }];
    expect(parseChecklist(toChecklist(todos)).todos.map((todo) => [todo.status, todo.description])).toEqual([['completed', 'a\u2028b\u2029c']]);
    expect(toChecklist([{ description: 'd', status: 'constructor' as never }])).toBe('- [ ] d\n');
  });
});

describe('parseChecklist: what editors and hosts really pass', () => {
  it('reads a checklist that starts with a UTF-8 byte order mark (Windows editors save plan.md so)', () => {
    expect(pairs('\uFEFF- [ ] Understand the request\r\n- [x] Reply\r\n')).toEqual([
      ['pending', 'Understand the request'],
      ['completed', 'Reply'],
    ]);
  });

  it.each([null, undefined, 42, ['- [ ] a'], { text: '- [ ] a' }])('refuses %j with a coded error, and seeds nothing', (value) => {
    expect(() => parseChecklist(value as never)).toThrow(
      expect.objectContaining({ code: 'invalid_input', message: expect.stringMatching(/checklist text must be a string/) }),
    );
    const plan = new Plan();
    plan.todos.create({ intent: 'narrate', description: 'Keep me' });
    expect(() => seedFromChecklist(plan, value as never)).toThrow(expect.objectContaining({ code: 'invalid_input' }));
    expect(plan.todos.list().map((todo) => todo.description)).toEqual(['Keep me']);
  });
});
