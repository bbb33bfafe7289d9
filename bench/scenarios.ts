import type { TodoInput } from '../src/artifacts/todos.js';

/** The fixed runs the token benchmark replays: a plan, its turns, and an optional midway rewrite. */
export interface TokenScenario {
  /** Stable key: `tour`, `form`, `replan` or `span`. */
  key: 'tour' | 'form' | 'replan' | 'span';
  name: string;
  /** The user's task, as a turn prompt carries it (its own tokens are not counted). */
  task: string;
  todos: TodoInput[];
  /** Turns each todo takes (the model works on it that many turns in a row). Default 1. */
  turnsPerTodo?: number;
  /** Turn (1-based) at which the run rewrites todos, and how many (the last `count` todos). */
  replaceAt?: { turn: number; count: number; rewrite: (todo: TodoInput, index: number) => TodoInput };
}

const TOUR_TASK = 'Show me the pricing, the integrations and the free trial';

const TOUR: TodoInput[] = [
  { intent: 'navigate', description: 'Open the pricing page' },
  { intent: 'narrate', description: 'Introduce the three pricing tiers' },
  { intent: 'narrate', description: 'Point out what the Team plan adds over Starter' },
  { intent: 'click', description: 'Switch the billing toggle to yearly' },
  { intent: 'narrate', description: 'Explain the yearly discount' },
  { intent: 'navigate', description: 'Open the integrations page' },
  { intent: 'narrate', description: 'Show the Slack and GitHub integrations' },
  { intent: 'navigate', description: 'Open the free-trial form' },
  { intent: 'narrate', description: 'Explain what the trial includes' },
  { intent: 'finish', description: 'Wrap up and offer to start the trial' },
];

const FIELDS = [
  ['first name', 'Ada'],
  ['last name', 'Lovelace'],
  ['email', 'ada@example.com'],
  ['phone', '+44 20 7946 0958'],
  ['date of birth', '10/12/1985'],
  ['street', '12 St James Square'],
  ['city', 'London'],
  ['postcode', 'SW1Y 4JH'],
  ['country', 'United Kingdom'],
  ['company', 'Analytical Engines Ltd'],
  ['job title', 'Lead engineer'],
  ['team size', '11-50'],
  ['industry', 'Software'],
  ['website', 'https://example.com'],
  ['VAT number', 'GB123456789'],
  ['billing email', 'billing@example.com'],
  ['start date', '01/09/2025'],
  ['seats', '25'],
  ['plan', 'Team'],
  ['billing cycle', 'yearly'],
  ['coupon code', 'WELCOME10'],
  ['referral source', 'A colleague'],
  ['notes', 'Needs SSO before rollout'],
  ['password', 'a strong passphrase'],
] as const;

/** A form-filling run: open the form, fill fields, check boxes, review, submit, finish. */
function formTodos(): TodoInput[] {
  const fills: TodoInput[] = FIELDS.map(([field, value]) => ({ intent: 'fill', description: `Fill the ${field} field with "${value}"` }));
  return [
    { intent: 'navigate', description: 'Open the sign-up form' },
    { intent: 'narrate', description: 'Explain which details the form needs' },
    ...fills,
    { intent: 'click', description: 'Tick the terms and privacy checkbox' },
    { intent: 'narrate', description: 'Read back what was entered for a check' },
    { intent: 'click', description: 'Submit the form' },
    { intent: 'finish', description: 'Confirm the account was created' },
  ];
}

/** `n` items from `items`, repeating with a numbered suffix when `n` is larger. */
function take(items: readonly TodoInput[], n: number): TodoInput[] {
  return Array.from({ length: n }, (_, i) => {
    const item = items[i % items.length] as TodoInput;
    const round = Math.floor(i / items.length);
    return round === 0 ? { ...item } : { ...item, description: `${item.description} (part ${round + 1})` };
  });
}

/**
 * The tour: 10 todos over 10 turns by default.
 *
 * @example
 * ```ts
 * benchTokens([tourScenario(3)]);
 * ```
 */
export function tourScenario(size = 10): TokenScenario {
  return { key: 'tour', name: `${size}-todo tour, ${size} turns`, task: TOUR_TASK, todos: take(TOUR, size) };
}

/**
 * The form: 30 todos over 30 turns by default.
 *
 * @example
 * ```ts
 * formScenario().todos.length; // 30
 * ```
 */
export function formScenario(size = 30): TokenScenario {
  return {
    key: 'form',
    name: `${size}-todo form filling, ${size} turns`,
    task: 'Sign me up for a Team account with my details',
    todos: take(formTodos(), size),
  };
}

/**
 * A tour whose second half is rewritten midway (the user changed their mind): at the first turn
 * of the second half, the model rewrites every remaining todo, half the plan. 20 todos by default.
 *
 * @example
 * ```ts
 * replanScenario(4).replaceAt?.turn; // 3
 * ```
 */
export function replanScenario(size = 20): TokenScenario {
  const half = Math.floor(size / 2);
  return {
    key: 'replan',
    name: `${size}-todo tour, half rewritten at turn ${half + 1}`,
    task: TOUR_TASK,
    todos: take(TOUR, size),
    replaceAt: {
      turn: half + 1,
      count: size - half,
      rewrite: (todo, index) => ({
        intent: todo.intent === 'navigate' ? 'navigate' : 'narrate',
        description: `${index % 2 === 0 ? 'Show' : 'Explain'} the enterprise ${['security review', 'SSO setup', 'audit log', 'data residency', 'support plan'][index % 5]} instead`,
      }),
    },
  };
}

/**
 * The tour where every todo takes two turns (the model narrates a page over two turns, say): a
 * protocol that only writes when the plan changes skips every other turn. 10 todos, 20 turns by
 * default.
 *
 * @example
 * ```ts
 * spanScenario(3).turnsPerTodo; // 2
 * ```
 */
export function spanScenario(size = 10): TokenScenario {
  return { key: 'span', name: `${size}-todo tour, each todo over 2 turns`, task: TOUR_TASK, todos: take(TOUR, size), turnsPerTodo: 2 };
}

/**
 * The scenarios `npm run bench` replays, at their full sizes: the three the target names, then
 * the one where todos span several turns.
 *
 * @example
 * ```ts
 * tokenScenarios().map((scenario) => scenario.key); // ['tour', 'form', 'replan', 'span']
 * ```
 */
export function tokenScenarios(): TokenScenario[] {
  return [tourScenario(10), formScenario(30), replanScenario(20), spanScenario(10)];
}

/**
 * A realistic turn envelope as a model streams it, in the compact form the turn prompt teaches:
 * `todo` (the todo this turn works on; the one before it is done), with `replace` the todo after
 * next rewritten too, then three actions, the first a narrate (its target before its text). `n`
 * is the todo this turn works on. Default 2, no replace.
 *
 * @example
 * ```ts
 * parseTurnEnvelope(realisticEnvelope(2, { replace: true })).actions.length; // 3
 * ```
 */
export function realisticEnvelope(n = 2, options: { replace?: boolean } = {}): string {
  return JSON.stringify({
    todo: `t${n}`,
    ...(options.replace ? { replace: [{ id: `t${n + 2}`, intent: 'narrate', description: 'Show the yearly price of the Team plan' }] } : {}),
    actions: [
      {
        type: 'narrate',
        target: '#pricing-tiers',
        text: 'Here are the three plans: Starter for individuals, Team for growing groups, and Enterprise with SSO and audit logs.',
      },
      { type: 'tool', name: 'click', args: { selector: '#billing-toggle', label: 'Yearly billing' } },
      {
        type: 'narrate',
        target: '#team-plan .price',
        text: 'With yearly billing every plan costs two months less; the Team plan drops to 40 euros per seat and month.',
      },
    ],
  });
}
