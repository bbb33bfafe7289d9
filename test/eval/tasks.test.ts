// Each task's checker on a correct end state and on incorrect ones (steps missing, a wrong value,
// something done outside the task, or only a claim of being done).
import { describe, expect, it } from 'vitest';
import { checkTask, emptyEndState, type EndState, type FormSubmit } from '../../eval/task.js';
import { TASKS } from '../../eval/tasks/index.js';

const trial = (fields: Record<string, string>, accepted = true): FormSubmit => ({
  page: '/try',
  form: 'trial-form',
  fields,
  status: accepted ? `Welcome aboard, ${fields.name}! Your trial is ready.` : 'Please give your name and a work email.',
});
const settings = (patch: Record<string, unknown>) => ({
  'app:settings': {
    displayName: 'Ada',
    username: 'ada_1815',
    email: 'ada@analytical.example',
    timezone: 'Europe/London',
    language: 'en',
    notifyProduct: true,
    notifyDigest: true,
    notifyMarketing: true,
    twoFactor: false,
    ...patch,
  },
});
const order = (shop: Record<string, unknown>) => ({ 'app:shop': shop });
const ADA_SHIPPING = { fullName: 'Ada Lovelace', street: '12 Elm Street', city: 'Bremen', postcode: '28195', country: 'DE', delivery: 'standard' };
const JONAS_SHIPPING = { fullName: 'Jonas Berg', street: 'Hafenweg 3', city: 'Vitte', postcode: '18565', country: 'DE', delivery: 'standard' };
const SAM_SHIPPING = { fullName: 'Sam Lee', street: 'Keizersgracht 1', city: 'Amsterdam', postcode: '1015 CJ', country: 'NL', delivery: 'standard' };
const VARIABLES = 'ORBIT_TOKEN, ORBIT_REGION, ORBIT_PORT, ORBIT_WORKERS, ORBIT_CACHE_DIR and ORBIT_LOG_LEVEL';
const GUIDE = ['/docs', '/docs/guide#install', '/docs/guide#configure', '/docs/guide#deploy', '/docs/guide#troubleshooting'];
const TOUR_SAID = ['Install it with npm install -g @orbit/cli.', 'Settings live in orbit.toml.', 'Port 7419 by default.', 'For E42 run orbit login --refresh.'];

/** Per task: a correct end state, and incorrect ones with what is wrong in them. */
const CASES: Record<string, { pass: EndState; fail: Record<string, EndState> }> = {
  'demo-business-trial': {
    pass: emptyEndState({
      visits: ['/', '/commercial', '/try'],
      said: ['Business is $29 per member.'],
      submits: [trial({ name: 'Grace Hopper', email: 'grace@navy.example', plan: 'business' })],
    }),
    fail: {
      'only says it is done': emptyEndState({ said: ['Done: Business costs $29 and your trial has started.'] }),
      'Team chosen instead of Business': emptyEndState({
        visits: ['/', '/commercial', '/try'],
        said: ['$29'],
        submits: [trial({ name: 'Grace Hopper', email: 'grace@navy.example', plan: 'team' })],
      }),
      'two trials started': emptyEndState({
        visits: ['/', '/commercial', '/try'],
        said: ['$29'],
        submits: [
          trial({ name: 'Grace Hopper', email: 'grace@navy.example', plan: 'business' }),
          trial({ name: 'Grace Hopper', email: 'grace@navy.example', plan: 'business' }),
        ],
      }),
    },
  },
  'demo-prices-sso': {
    pass: emptyEndState({ said: ['Starter is free, Team is $12 and Business is $29.', 'Business includes SSO.'] }),
    fail: {
      'stopped after the first price': emptyEndState({ said: ['Starter is free.'] }),
      'SSO not said': emptyEndState({ said: ['Starter $0, Team $12, Business $29.'] }),
    },
  },
  'demo-tour': {
    pass: emptyEndState({
      visits: ['/try', '/', '/commercial', '/docs'],
      said: ['Focus blocks protect deep work.', 'Team is $12.', 'First, create a workspace.'],
    }),
    fail: {
      'wrong order': emptyEndState({ visits: ['/try', '/commercial', '/', '/docs'], said: ['Focus blocks.', 'Team is $12.', 'Create a workspace.'] }),
      'stopped after pricing': emptyEndState({ visits: ['/try', '/', '/commercial'], said: ['Focus blocks.', 'Team is $12.'] }),
    },
  },
  'demo-missing-changelog': {
    pass: emptyEndState({ visits: ['/', '/changelog', '/docs'], said: ['No changelog; the API shows GET /v1/rotations/:id/shifts.'] }),
    fail: {
      'gave up at the missing page': emptyEndState({ visits: ['/', '/changelog'], said: ['There is no changelog.'] }),
      'never tried the changelog': emptyEndState({ visits: ['/', '/docs'], said: ['GET /v1/rotations/:id/shifts'] }),
    },
  },
  'demo-trial-refused-email': {
    pass: emptyEndState({
      submits: [
        trial({ name: 'Lin Chen', email: 'lin.chen at example.com', plan: 'starter' }, false),
        trial({ name: 'Lin Chen', email: 'lin.chen@example.com', plan: 'starter' }),
      ],
    }),
    fail: {
      'stopped at the refusal': emptyEndState({ submits: [trial({ name: 'Lin Chen', email: 'lin.chen at example.com', plan: 'starter' }, false)] }),
      'kept the Team plan': emptyEndState({
        submits: [
          trial({ name: 'Lin Chen', email: 'lin.chen at example.com', plan: 'team' }, false),
          trial({ name: 'Lin Chen', email: 'lin.chen@example.com', plan: 'team' }),
        ],
      }),
    },
  },
  'settings-profile': {
    pass: emptyEndState({
      store: settings({ displayName: 'Ada L.', timezone: 'Europe/Berlin', language: 'de', notifyDigest: false, notifyMarketing: false }),
      changes: [{ page: '/settings', field: 'displayName', value: 'Ada L.' }],
    }),
    fail: {
      'filled but never saved': emptyEndState({
        changes: [
          { page: '/settings', field: 'displayName', value: 'Ada L.' },
          { page: '/settings', field: 'timezone', value: 'Europe/Berlin' },
        ],
      }),
      'turned product updates off too': emptyEndState({
        store: settings({
          displayName: 'Ada L.',
          timezone: 'Europe/Berlin',
          language: 'de',
          notifyDigest: false,
          notifyMarketing: false,
          notifyProduct: false,
        }),
      }),
      'deleted the account': emptyEndState({
        store: {
          ...settings({ displayName: 'Ada L.', timezone: 'Europe/Berlin', language: 'de', notifyDigest: false, notifyMarketing: false }),
          'app:account-deleted': true,
        },
      }),
    },
  },
  'settings-username-taken': {
    pass: emptyEndState({
      store: { ...settings({ username: 'ada-lovelace' }), 'app:settings-rejected': ['ada'] },
      said: ['Your username is now ada-lovelace.'],
    }),
    fail: {
      'stopped at the refusal': emptyEndState({ store: { 'app:settings-rejected': ['ada'] }, said: ['ada is taken.'] }),
      'chose the second suggestion': emptyEndState({
        store: { ...settings({ username: 'ada1815' }), 'app:settings-rejected': ['ada'] },
        said: ['Your username is now ada1815.'],
      }),
    },
  },
  'settings-look-only': {
    pass: emptyEndState({ said: ['Two-factor login is off; the account uses ada@analytical.example.'] }),
    fail: {
      'changed a field and saved': emptyEndState({
        store: settings({}),
        changes: [{ page: '/settings', field: 'notifyDigest', value: 'off' }],
        said: ['Two-factor login is off; ada@analytical.example.'],
      }),
      'answered half': emptyEndState({ said: ['Two-factor login is off.'] }),
    },
  },
  'checkout-full-order': {
    pass: emptyEndState({
      store: order({
        cart: { mug: 2, notebook: 1 },
        shipping: ADA_SHIPPING,
        payment: { cardName: 'Ada Lovelace', last4: '4242', expiry: '12/29' },
        order: { number: 'KC-123456', total: 41.9, cart: { mug: 2, notebook: 1 } },
      }),
      said: ['Your order number is KC-123456.'],
    }),
    fail: {
      'stopped at payment': emptyEndState({ store: order({ cart: { mug: 2, notebook: 1 }, shipping: ADA_SHIPPING }), said: ['Order placed!'] }),
      'made-up order number': emptyEndState({
        store: order({
          cart: { mug: 2, notebook: 1 },
          shipping: ADA_SHIPPING,
          payment: { cardName: 'Ada Lovelace', last4: '4242', expiry: '12/29' },
          order: { number: 'KC-123456', total: 41.9, cart: { mug: 2, notebook: 1 } },
        }),
        said: ['Your order number is KC-100001.'],
      }),
      'four mugs (added twice)': emptyEndState({
        store: order({
          cart: { mug: 4, notebook: 1 },
          shipping: ADA_SHIPPING,
          payment: { cardName: 'Ada Lovelace', last4: '4242', expiry: '12/29' },
          order: { number: 'KC-1', total: 69.9, cart: { mug: 4, notebook: 1 } },
        }),
        said: ['KC-1'],
      }),
    },
  },
  'checkout-refused-options': {
    pass: emptyEndState({
      store: order({
        cart: { lamp: 1 },
        shipping: JONAS_SHIPPING,
        payment: { cardName: 'Jonas Berg', last4: '4242', expiry: '11/28' },
        coupon: 'WELCOME5',
        order: { number: 'KC-2', total: 38.9, cart: { lamp: 1 } },
      }),
      changes: [
        { page: '/checkout/review', field: 'coupon', value: 'SPRING10' },
        { page: '/checkout/review', field: 'coupon', value: 'WELCOME5' },
      ],
      said: ['Total paid: $38.90.'],
    }),
    fail: {
      'gave up when the coupon was refused': emptyEndState({
        store: order({ cart: { lamp: 1 }, shipping: JONAS_SHIPPING, payment: { cardName: 'Jonas Berg', last4: '4242', expiry: '11/28' } }),
        changes: [{ page: '/checkout/review', field: 'coupon', value: 'SPRING10' }],
        said: ['SPRING10 expired.'],
      }),
      'ordered without a coupon': emptyEndState({
        store: order({
          cart: { lamp: 1 },
          shipping: JONAS_SHIPPING,
          payment: { cardName: 'Jonas Berg', last4: '4242', expiry: '11/28' },
          order: { number: 'KC-3', total: 43.9, cart: { lamp: 1 } },
        }),
        said: ['Total paid: $43.90.'],
      }),
    },
  },
  'checkout-stop-at-review': {
    pass: emptyEndState({
      visits: ['/shop', '/checkout/shipping', '/checkout/payment', '/checkout/review'],
      store: order({ cart: { notebook: 3 }, shipping: SAM_SHIPPING, payment: { cardName: 'Sam Lee', last4: '4242', expiry: '01/30' } }),
      said: ['The total is $31.90.'],
    }),
    fail: {
      'placed the order': emptyEndState({
        visits: ['/shop', '/checkout/shipping', '/checkout/payment', '/checkout/review', '/checkout/done'],
        store: order({
          cart: { notebook: 3 },
          shipping: SAM_SHIPPING,
          payment: { cardName: 'Sam Lee', last4: '4242', expiry: '01/30' },
          order: { number: 'KC-4', total: 31.9, cart: { notebook: 3 } },
        }),
        said: ['The total is $31.90.'],
      }),
      'never reached review': emptyEndState({
        visits: ['/shop', '/checkout/shipping'],
        store: order({ cart: { notebook: 3 }, shipping: SAM_SHIPPING }),
        said: ['The total will be $31.90.'],
      }),
    },
  },
  'docs-tour': {
    pass: emptyEndState({ visits: GUIDE, said: TOUR_SAID }),
    fail: {
      'read without showing the sections': emptyEndState({ visits: ['/docs', '/docs/guide'], said: TOUR_SAID }),
      'stopped after Deploy': emptyEndState({ visits: GUIDE.slice(0, 4), said: TOUR_SAID.slice(0, 3) }),
    },
  },
  'docs-every-variable': {
    pass: emptyEndState({ said: [`Orbit reads ${VARIABLES}.`] }),
    fail: {
      'stopped at the first section': emptyEndState({ said: ['Orbit reads ORBIT_TOKEN and ORBIT_REGION.'] }),
      'missed the logging one': emptyEndState({ said: ['ORBIT_TOKEN, ORBIT_REGION, ORBIT_PORT, ORBIT_WORKERS, ORBIT_CACHE_DIR'] }),
    },
  },
  'docs-missing-page': {
    pass: emptyEndState({ visits: ['/docs', '/docs/migrate', '/docs/guide#migrating'], said: ['Run orbit migrate --from v1.'] }),
    fail: {
      'gave up at the missing page': emptyEndState({ visits: ['/docs', '/docs/migrate'], said: ['That page does not exist.'] }),
      'guessed the command': emptyEndState({ visits: ['/docs', '/docs/migrate', '/docs/guide'], said: ['Run orbit upgrade.'] }),
    },
  },
};

describe('eval tasks', () => {
  it('has at least 12 tasks, a case for each, and tasks of every kind', () => {
    expect(TASKS.length).toBeGreaterThanOrEqual(12);
    expect(Object.keys(CASES).sort()).toEqual(TASKS.map((task) => task.id).sort());
    for (const trait of ['long', 'replan', 'early-stop', 'no-submit'] as const) expect(TASKS.some((task) => task.traits.includes(trait))).toBe(true);
    const longest = Math.max(...TASKS.map((task) => task.script.reduce((sum, turn) => sum + turn.actions.length, 0)));
    expect(longest).toBeGreaterThanOrEqual(12);
  });

  for (const task of TASKS) {
    describe(task.id, () => {
      const cases = CASES[task.id];
      it('passes a correct end state', () => {
        const result = checkTask(task, cases!.pass);
        expect(
          result.steps.every(Boolean),
          task.steps
            .filter((_, i) => !result.steps[i])
            .map((s) => s.name)
            .join(', '),
        ).toBe(true);
        expect(result.outside).toEqual([]);
        expect(result.passed).toBe(true);
      });
      for (const [what, end] of Object.entries(cases?.fail ?? {})) {
        it(`fails an incorrect end state: ${what}`, () => expect(checkTask(task, end).passed).toBe(false));
      }
      it('fails an empty end state and one that only claims success', () => {
        expect(checkTask(task, emptyEndState()).passed).toBe(false);
        expect(checkTask(task, emptyEndState({ said: ['All done, everything you asked for is finished.'] })).passed).toBe(false);
      });
    });
  }
});

describe('checkTask', () => {
  it('reports a skipped step when a later step holds and an earlier one does not', () => {
    const task = TASKS.find((t) => t.id === 'docs-tour')!;
    const result = checkTask(task, emptyEndState({ visits: ['/docs/guide#install', '/docs/guide#configure'], said: ['orbit.toml'] }));
    expect(result.steps.slice(0, 4)).toEqual([true, false, true, true]);
    expect(result.skipped).toBe(true);
  });
});
