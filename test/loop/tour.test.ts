import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPlanloopError } from '../../src/errors.js';
import { TourError } from '../../src/loop/tour-error.js';
import { parseTour, safeParseTour, safeValidateTour, TOUR_LIMITS, validateTour, type Tour } from '../../src/loop/tour.js';

// A tour comes back from storage or the network: validated whole before anything runs, with
// every problem's path, caps on its size, and no URL a live tool must never open.

const GOOD: Tour = {
  format: 'planloop-tour',
  version: 1,
  task: 'Compare the plans and start a trial',
  locale: 'en',
  summary: 'A look at the plans, then the trial form.',
  todos: [
    { id: 't1', intent: 'navigate', description: 'Open pricing', steps: [{ type: 'tool', name: 'navigate', args: { path: '/commercial' } }] },
    {
      id: 't2',
      intent: 'narrate',
      description: 'Show the Team plan',
      check: { kind: 'seen', role: 'heading', name: 'Team' },
      steps: [
        {
          type: 'narrate',
          text: 'Most teams pick this one.',
          target: { role: 'article', name: 'Team', landmark: { role: 'region', name: 'Plans' }, heading: 'Starter' },
        },
      ],
    },
    {
      id: 't3',
      intent: 'click',
      description: 'Start the trial',
      steps: [
        { type: 'tool', name: 'fill', args: { value: 'Sam Rivera' }, targets: { target: { role: 'textbox', name: 'Your name' } } },
        { type: 'tool', name: 'click', args: {}, targets: { target: { role: 'button', name: 'Start my trial', nth: 0 } } },
        { type: 'narrate', text: 'Lost target.', target: null },
        { type: 'ask', question: 'Anything else?' },
        { type: 'finish', summary: 'Done.' },
      ],
    },
  ],
};

const ORIGIN = { origin: 'https://orbitly.example' };

/** GOOD with `change` applied to a copy. */
function bad(change: (tour: Record<string, any>) => void): unknown {
  const copy = structuredClone(GOOD) as Record<string, any>;
  change(copy);
  return copy;
}

function firstProblem(value: unknown, options = ORIGIN): { path: string; message: string } | undefined {
  const result = safeValidateTour(value, options);
  return result.success ? undefined : result.error.issues[0];
}

describe('validateTour', () => {
  it('takes a good tour and returns a copy', () => {
    const tour = validateTour(GOOD, ORIGIN);
    expect(tour).toEqual(GOOD);
    expect(tour).not.toBe(GOOD);
    expect(tour.todos[0]?.steps[0]).not.toBe(GOOD.todos[0]?.steps[0]);
    expect(parseTour(JSON.stringify(GOOD), ORIGIN)).toEqual(GOOD);
  });

  const CASES: Array<[string, unknown, string, RegExp]> = [
    ['not an object', 'tour', '(root)', /must be an object/],
    ['another format', bad((t) => (t.format = 'something-else')), 'format', /planloop-tour/],
    ['a newer version', bad((t) => (t.version = 2)), 'version', /newer than this planloop reads/],
    ['no task', bad((t) => delete t.task), 'task', /is required/],
    ['a task too long', bad((t) => (t.task = 'x'.repeat(TOUR_LIMITS.text + 1))), 'task', /at most 2000/],
    ['a bad locale', bad((t) => (t.locale = 'english please')), 'locale', /language tag/],
    ['no todos', bad((t) => (t.todos = [])), 'todos', /at least one/],
    [
      'too many todos',
      bad((t) => (t.todos = Array.from({ length: TOUR_LIMITS.todos + 1 }, (_, i) => ({ id: `t${i}`, intent: 'narrate', description: 'x', steps: [] })))),
      'todos',
      /at most 50 todos/,
    ],
    ['an unknown key', bad((t) => (t.grant = 'all')), 'grant', /not part of a tour/],
    ['an approval smuggled into a step', bad((t) => (t.todos[2].steps[1].approved = true)), 'todos[2].steps[1].approved', /not part of a tour/],
    ['an empty description', bad((t) => (t.todos[0].description = ' ')), 'todos[0].description', /must not be empty/],
    ['a step of no known type', bad((t) => (t.todos[0].steps[0].type = 'eval')), 'todos[0].steps[0].type', /one of narrate, tool, ask, finish/],
    [
      'too many steps in a todo',
      bad((t) => (t.todos[0].steps = Array.from({ length: TOUR_LIMITS.steps + 1 }, () => ({ type: 'narrate', text: 'x' })))),
      'todos[0].steps',
      /at most 40 steps/,
    ],
    ['a narration too long', bad((t) => (t.todos[1].steps[0].text = 'x'.repeat(2001))), 'todos[1].steps[0].text', /at most 2000/],
    ['a CSS selector as a target', bad((t) => (t.todos[1].steps[0].target = '#tier-team')), 'todos[1].steps[0].target', /must be an object/],
    ['an outline ref as a target', bad((t) => (t.todos[2].steps[0].targets.target = 'e12')), 'todos[2].steps[0].targets.target', /must be an object/],
    ['a locator role that is a selector', bad((t) => (t.todos[1].steps[0].target.role = 'div.tier > a')), 'todos[1].steps[0].target.role', /role or tag name/],
    ['a locator with an extra key', bad((t) => (t.todos[1].steps[0].target.selector = '#x')), 'todos[1].steps[0].target.selector', /not part of a tour/],
    ['a negative ordinal', bad((t) => (t.todos[2].steps[1].targets.target.nth = -1)), 'todos[2].steps[1].targets.target.nth', /0 to 999/],
    ['a javascript: URL', bad((t) => (t.todos[0].steps[0].args.path = 'javascript:alert(1)')), 'todos[0].steps[0].args.path', /no tool may open/],
    [
      'a javascript: URL behind spaces and tabs',
      bad((t) => (t.todos[0].steps[0].args.path = ' \tjava\tscript:alert(1)')),
      'todos[0].steps[0].args.path',
      /no tool may open/,
    ],
    [
      'a data: URL nested in an array',
      bad((t) => (t.todos[0].steps[0].args.also = [{ href: 'DATA:text/html,<script>' }])),
      'todos[0].steps[0].args.also[0].href',
      /no tool may open/,
    ],
    ['another origin', bad((t) => (t.todos[0].steps[0].args.path = 'https://evil.example/steal')), 'todos[0].steps[0].args.path', /evil\.example/],
    ['another origin, protocol-relative', bad((t) => (t.todos[0].steps[0].args.path = '//evil.example/x')), 'todos[0].steps[0].args.path', /evil\.example/],
    ['another origin, with a backslash', bad((t) => (t.todos[0].steps[0].args.path = '/\\evil.example/x')), 'todos[0].steps[0].args.path', /evil\.example/],
    ['a download', bad((t) => (t.todos[0].steps[0].args.path = '/files/setup.exe')), 'todos[0].steps[0].args.path', /download/],
    [
      'a __proto__ key in the arguments',
      JSON.parse(JSON.stringify(GOOD).replace('"path":"/commercial"', '"__proto__":{"admin":true}')),
      'todos[0].steps[0].args.__proto__',
      /no tour may use/,
    ],
    ['arguments nested too deep', bad((t) => (t.todos[0].steps[0].args.a = { b: { c: { d: { e: 1 } } } })), 'todos[0].steps[0].args.a.b.c.d', /deeper than 4/],
    [
      'too many arguments',
      bad((t) => (t.todos[0].steps[0].args = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])))),
      'todos[0].steps[0].args',
      /at most 20 items/,
    ],
    ['a check that is not an object', bad((t) => (t.todos[1].check = 'seen')), 'todos[1].check', /must be an object/],
    ['a check too large', bad((t) => (t.todos[1].check = { text: 'x'.repeat(1200) })), 'todos[1].check', /at most 1000 characters/],
  ];

  for (const [what, value, path, message] of CASES) {
    it(`refuses ${what}, naming ${path}`, () => {
      expect(() => validateTour(value, ORIGIN)).toThrow(TourError);
      const problem = firstProblem(value);
      expect(problem?.path).toBe(path);
      expect(problem?.message).toMatch(message);
      try {
        validateTour(value, ORIGIN);
      } catch (error) {
        expect(isPlanloopError(error, 'tour_invalid')).toBe(true);
        expect((error as Error).message).toContain(path);
      }
    });
  }

  it('takes another origin or a download only when the host allows it', () => {
    const other = bad((t) => (t.todos[0].steps[0].args.path = 'https://docs.orbitly.example/start'));
    expect(firstProblem(other)?.path).toBe('todos[0].steps[0].args.path');
    expect(safeValidateTour(other, { ...ORIGIN, allowedOrigins: ['https://docs.orbitly.example'] }).success).toBe(true);
    const download = bad((t) => (t.todos[0].steps[0].args.path = '/files/orbitly.zip'));
    expect(safeValidateTour(download, { ...ORIGIN, allowDownloads: true }).success).toBe(true);
    // Without a page origin (Node, a worker) every absolute URL is refused; the page's own is fine.
    const own = bad((t) => (t.todos[0].steps[0].args.path = 'https://orbitly.example/commercial'));
    expect(safeValidateTour(own, ORIGIN).success).toBe(true);
    expect(safeValidateTour(own, {}).success).toBe(false);
    // Words with a colon are not URLs.
    expect(
      safeValidateTour(
        bad((t) => (t.todos[2].steps[0].args.value = 'Note: call me at 10:00')),
        ORIGIN,
      ).success,
    ).toBe(true);
  });

  it('parseTour refuses what is not JSON or too long, with a coded error', () => {
    for (const text of ['{"format":', 'null', JSON.stringify(GOOD).padEnd(TOUR_LIMITS.chars + 1, ' ')]) {
      const result = safeParseTour(text, ORIGIN);
      expect(result.success).toBe(false);
      expect(!result.success && result.error.code).toBe('tour_invalid');
    }
  });

  it('never throws anything but a TourError, and never accepts a tour with a blocked URL anywhere in its arguments (property)', () => {
    const blocked = fc.constantFrom(
      'javascript:alert(1)',
      'data:text/html,x',
      'file:///etc/passwd',
      'https://evil.example/',
      '//evil.example',
      'vbscript:x',
      'blob:https://x/y',
    );
    const json = fc.jsonValue({ maxDepth: 3 });
    fc.assert(
      fc.property(json, fc.nat({ max: 3 }), blocked, (junk, where, url) => {
        // Arbitrary JSON in place of the tour, of a todo, of a step, of a step's arguments.
        const variants = [
          junk,
          bad((t) => (t.todos[0] = junk)),
          bad((t) => (t.todos[2].steps[where] = junk)),
          bad((t) => (t.todos[0].steps[0].args = { path: junk })),
        ];
        for (const value of variants) {
          const result = safeValidateTour(value, ORIGIN);
          if (!result.success) expect(result.error.code).toBe('tour_invalid');
        }
        const hidden = bad((t) => (t.todos[0].steps[0].args = { nested: [{ deeper: { url } }], junk }));
        expect(safeValidateTour(hidden, ORIGIN).success).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
